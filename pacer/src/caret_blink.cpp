#include "cadence/imgui_features.hpp"  // before imgui_internal.h: the versions whose internals this reads
#include <imgui_internal.h>

#include "caret_blink.hpp"

namespace cadence::detail {
namespace {

/// The active text field's editing state, or nullptr when no text field is active.
ImGuiInputTextState* active_text_field() {
  ImGuiContext& g = *ImGui::GetCurrentContext();
  if (g.ActiveId == 0 || g.InputTextState.ID != g.ActiveId) return nullptr;
  return &g.InputTextState;
}

}  // namespace

void CaretBlink::before_widgets(const FrameHooks& frame) {
  const float delta_time = frame.io.DeltaTime;
  ImGuiInputTextState* state = active_text_field();
  pinned_id_ = state != nullptr ? state->ID : 0;
  if (state != nullptr) {
    // ImGui adds delta_time and then shows the caret when CursorAnim <= 0 or
    // fmod(CursorAnim, 1.2) <= 0.8: land on -0.001 (shown) or 1.0 (hidden).
    pinned_ = (visible_ ? -0.001f : 1.0f) - delta_time;
    delta_time_ = delta_time;
    state->CursorAnim = pinned_;
  }
  const ImGuiInputTextState& text = ImGui::GetCurrentContext()->InputTextState;
  seen_id_ = text.ID;
  seen_anim_ = text.CursorAnim;
}

void CaretBlink::after_widgets(const FrameHooks& frame) {
  WindowRuntime& runtime = frame.runtime;
  const ImGuiInputTextState* state = active_text_field();
  // A text field's widget ran in this frame: it took over ImGui's text state or moved its
  // CursorAnim (io.DeltaTime >= 1e-5 s is added to it, or it is reset). A slider or drag once
  // edited as text leaves that state naming it, untouched while it is active as itself.
  text_field_ran_ = state != nullptr && (state->ID != seen_id_ || state->CursorAnim != seen_anim_);
  if (text_field_ran_) {
    // The field drew its caret (pinned + delta time, the same float sum ImGui makes), or was not
    // drawn (pinned). Anything else: ImGui reset the phase (an edit, a click, a caret move), or
    // another field is active now. Either way, ImGui would show the caret from now on.
    float drawn = pinned_;
    drawn += delta_time_;
    const bool restarted = state->ID != pinned_id_ || (state->CursorAnim != pinned_ && state->CursorAnim != drawn);
    if (!running_ || restarted) start(runtime);  // shown now, hidden in half a period
  } else if (running_) {
    (void)runtime.remove_timer(kCursorBlinkTimer);
    running_ = false;
    visible_ = true;
  }
}

void CaretBlink::start(WindowRuntime& runtime) {
  visible_ = true;
  running_ = runtime.replace_timer(kCursorBlinkTimer, Timer::every(half_period_, [this, &runtime](TimerCallbackInfo& info) {
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
