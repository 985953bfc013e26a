#include "cadence/imgui_features.hpp"  // before imgui_internal.h: the versions whose internals this reads
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>

#include "drag_autoscroll.hpp"

namespace cadence::detail {
namespace {

constexpr float kEdge = 24.0f;      // pixels from the top or bottom edge where dragging scrolls
constexpr float kMaxSpeed = 900.0f; // pixels per second at the very edge

}  // namespace

void DragAutoscroll::before_widgets(const FrameHooks& frame) {
  WindowRuntime& runtime = frame.runtime;
  const Instant frame_start = frame.frame_start;
  ImGuiContext& g = *ImGui::GetCurrentContext();
  // The window the drag started in keeps scrolling while the pointer is past its edge, even
  // outside it: that is how one drags a selection beyond what is visible.
  if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) pressed_in_ = g.HoveredWindow;
  if (!ImGui::IsMouseDown(ImGuiMouseButton_Left)) pressed_in_ = nullptr;
  ImGuiWindow* window = pressed_in_;
  float speed = 0;
  // Not while the drag holds the window's own scrollbar: ImGui scrolls it to the pointer.
  const bool on_scrollbar = window != nullptr && g.ActiveId != 0 && g.ActiveId == ImGui::GetWindowScrollbarID(window, ImGuiAxis_Y);
  if (window != nullptr && !on_scrollbar && ImGui::IsMouseDragging(ImGuiMouseButton_Left) && window->ScrollMax.y > 0) {
    const float y = g.IO.MousePos.y;
    const ImRect inner = window->InnerRect;
    if (y < inner.Min.y + kEdge && window->Scroll.y > 0) {
      speed = -kMaxSpeed * std::clamp((inner.Min.y + kEdge - y) / kEdge, 0.0f, 1.0f);
    } else if (y > inner.Max.y - kEdge && window->Scroll.y < window->ScrollMax.y) {
      speed = kMaxSpeed * std::clamp((y - (inner.Max.y - kEdge)) / kEdge, 0.0f, 1.0f);
    }
  }
  target_ = speed != 0 ? window : nullptr;
  speed_ = speed;
  if (speed != 0 && !active_) {
    // The glide starts in this frame; its timer runs from the next, which moves it by the time
    // since this one (a second frame at this same instant moves it by nothing).
    last_ = frame_start;
    exact_ = window->Scroll.y;
    active_ = runtime.add_system_timer(kDragAutoscrollTimer, Timer::animation([this](TimerCallbackInfo& info) {
                                         step(info.frame_start);
                                         return TimerCallbackReturn::redraw();
                                       })).ok();
  } else if (speed == 0 && active_) {
    (void)runtime.remove_timer(kDragAutoscrollTimer);
    active_ = false;
  }
}

void DragAutoscroll::step(Instant frame_start) {
  const double dt = std::chrono::duration<double>(frame_start - last_).count();
  last_ = frame_start;
  // ImGui shows the glide's position rounded down to a whole pixel, within the window's range.
  // A scroll that differs from that was moved by something else (the wheel, ImGui keeping a
  // text cursor in view): the glide goes on from there.
  const double shown = std::min(std::floor(exact_), static_cast<double>(target_->ScrollMax.y));
  if (std::abs(shown - static_cast<double>(target_->Scroll.y)) > 0.5) exact_ = target_->Scroll.y;
  exact_ = std::clamp(exact_ + speed_ * dt, 0.0, static_cast<double>(target_->ScrollMax.y));
  ImGui::SetScrollY(target_, static_cast<float>(exact_));
}

}  // namespace cadence::detail
