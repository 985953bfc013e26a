// The caret blink system timer (kCursorBlinkTimer). Private to cadence::pacer.
#pragma once

#include <imgui.h>

#include <utility>
#include <vector>

#include "system_timer.hpp"

namespace cadence::detail {

/// Caret blink: shown `half_period`, hidden `half_period`, while a text field is active (its
/// widget runs; a slider being dragged is not one, even when ImGui's text state names it); shown
/// again at once whenever ImGui restarts its own blink: on every edit, whatever made it (a
/// typed key, a held key's repeat, a paste), and on a click or a caret move. ImGui's own blink
/// (0.8 s on, 0.4 s off, driven by frame time) is overridden by pinning the active field's
/// CursorAnim before its widget runs; a widget that reset it meanwhile restarted ImGui's blink.
class CaretBlink : public SystemTimer {
 public:
  CaretBlink(const PacerOptions& options, WindowStats& stats)
      : half_period_(options.caret_blink), lateness_ms_(stats.caret_lateness_ms) {}
  /// Before the app's widgets: make ImGui draw the caret as our phase says.
  void before_widgets(const FrameHooks& frame);
  /// After them: start or stop the blink as a text field gains or loses focus; restart the
  /// phase when ImGui restarted its own blink in this frame (or another field became active).
  void after_widgets(const FrameHooks& frame);
  /// The caret toggled since the last frame: a frame is owed for it (one that changes nothing
  /// but the caret's bar, so it needs no settle check). take_toggle() also clears the mark.
  bool toggled() const noexcept { return toggled_; }
  /// A text field is active and its caret blinks. O(1).
  bool running() const noexcept { return running_; }
  /// A text field was active and its widget ran in the frame just built (not a slider or drag
  /// that ImGui's text state still names from an earlier edit as text). O(1).
  bool text_field_ran() const noexcept { return text_field_ran_; }
  bool take_toggle() noexcept { return std::exchange(toggled_, false); }

 private:
  void start(WindowRuntime& runtime);
  Duration half_period_;
  std::vector<float>& lateness_ms_;
  // What before_widgets() pinned: the field, its CursorAnim, and the frame time ImGui adds to
  // it when it draws the caret. Any other value after the widgets is one of ImGui's resets.
  ImGuiID pinned_id_ = 0;
  float pinned_ = 0;
  float delta_time_ = 0;
  // ImGui's text state as the widgets found it: a text field that runs changes it.
  ImGuiID seen_id_ = 0;
  float seen_anim_ = 0;
  bool text_field_ran_ = false;
  bool visible_ = true;
  bool running_ = false;
  bool toggled_ = false;
};

}  // namespace cadence::detail
