#include "imgui_version.hpp"  // before imgui_internal.h: the versions whose internals this reads
#include <imgui_internal.h>

#include "cadence/window.hpp"
#include "system_timers.hpp"

namespace cadence::detail {
namespace {

/// The active text field's editing state, or nullptr when no text field is active.
ImGuiInputTextState* active_text_field() {
  ImGuiContext& g = *ImGui::GetCurrentContext();
  if (g.ActiveId == 0 || g.InputTextState.ID != g.ActiveId) return nullptr;
  return &g.InputTextState;
}

}  // namespace

void CaretBlink::before_widgets(float delta_time) const {
  ImGuiInputTextState* state = active_text_field();
  if (state == nullptr) return;
  // ImGui adds delta_time and then shows the caret when CursorAnim <= 0 or
  // fmod(CursorAnim, 1.2) <= 0.8: land on -0.001 (shown) or 1.0 (hidden).
  state->CursorAnim = (visible_ ? -0.001f : 1.0f) - delta_time;
}

void CaretBlink::after_widgets(WindowRuntime& runtime, bool typed) {
  const bool editing = active_text_field() != nullptr;
  if (editing && (!running_ || typed)) {
    start(runtime);  // a field gained focus, or the user typed: shown now, hidden in half a period
  } else if (!editing && running_) {
    (void)runtime.remove_timer(kCursorBlinkTimer);
    running_ = false;
    visible_ = true;
  }
}

void CaretBlink::start(WindowRuntime& runtime) {
  (void)runtime.remove_timer(kCursorBlinkTimer);
  visible_ = true;
  running_ = runtime.add_system_timer(kCursorBlinkTimer, Timer::every(half_period_, [this, &runtime](TimerCallbackInfo& info) {
                                       visible_ = !visible_;
                                       toggled_ = true;  // the window draws for it (not a redraw request: see toggled())
                                       const Duration late = runtime.now() - info.due;
                                       lateness_ms_.push_back(std::chrono::duration<float, std::milli>(late).count());
                                       if (lateness_ms_.size() > WindowStats::kLatenessSamples) {
                                         lateness_ms_.erase(lateness_ms_.begin());  // 960 bytes, once a blink
                                       }
                                       return TimerCallbackReturn::keep();
                                     })).ok();
}

}  // namespace cadence::detail
