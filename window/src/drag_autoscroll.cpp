#include "imgui_version.hpp"  // before imgui_internal.h: the versions whose internals this reads
#include <imgui_internal.h>

#include <algorithm>

#include "system_timers.hpp"

namespace cadence::detail {
namespace {

constexpr float kEdge = 24.0f;      // pixels from the top or bottom edge where dragging scrolls
constexpr float kMaxSpeed = 900.0f; // pixels per second at the very edge

}  // namespace

void DragAutoscroll::update(WindowRuntime& runtime) {
  ImGuiContext& g = *ImGui::GetCurrentContext();
  // The window the drag started in keeps scrolling while the pointer is past its edge, even
  // outside it: that is how one drags a selection beyond what is visible.
  if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) pressed_in_ = g.HoveredWindow;
  if (!ImGui::IsMouseDown(ImGuiMouseButton_Left)) pressed_in_ = nullptr;
  ImGuiWindow* window = pressed_in_;
  float speed = 0;
  if (window != nullptr && ImGui::IsMouseDragging(ImGuiMouseButton_Left) && window->ScrollMax.y > 0) {
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
    last_.reset();
    active_ = runtime.add_system_timer(kDragAutoscrollTimer, Timer::animation([this](TimerCallbackInfo& info) {
                                         const double dt = last_ ? std::chrono::duration<double>(info.frame_start - *last_).count() : 0.0;
                                         last_ = info.frame_start;
                                         ImGui::SetScrollY(target_, target_->Scroll.y + speed_ * static_cast<float>(dt));
                                         return TimerCallbackReturn::redraw();
                                       })).ok();
  } else if (speed == 0 && active_) {
    (void)runtime.remove_timer(kDragAutoscrollTimer);
    active_ = false;
  }
}

}  // namespace cadence::detail
