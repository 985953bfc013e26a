// The four system timers a window runs on its runtime (ids in cadence/ids.hpp). Each is a small
// piece of state with hooks the window calls around the app's draw function; each keeps its
// timer only while it has something to do, so an idle window has none of them scheduled but the
// caret's.
#pragma once

#include <imgui.h>

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "cadence/window_runtime.hpp"

struct ImGuiWindow;

namespace cadence::detail {

/// Caret blink: shown `half_period`, hidden `half_period`, while a text field is active; shown
/// again at once whenever ImGui restarts its own blink: on every edit, whatever made it (a
/// typed key, a held key's repeat, a paste), and on a click or a caret move. ImGui's own blink
/// (0.8 s on, 0.4 s off, driven by frame time) is overridden by pinning the active field's
/// CursorAnim before its widget runs; a widget that reset it meanwhile restarted ImGui's blink.
class CaretBlink {
 public:
  CaretBlink(Duration half_period, std::vector<float>& lateness_ms) : half_period_(half_period), lateness_ms_(lateness_ms) {}
  /// Before the app's widgets: make ImGui draw the caret as our phase says.
  void before_widgets(float delta_time);
  /// After them: start or stop the blink as a text field gains or loses focus; restart the
  /// phase when ImGui restarted its own blink in this frame (or another field became active).
  void after_widgets(WindowRuntime& runtime);
  /// The caret toggled since the last frame: a frame is owed for it (one that changes nothing
  /// but the caret's bar, so it needs no settle check). take_toggle() also clears the mark.
  bool toggled() const noexcept { return toggled_; }
  /// A text field is active and its caret blinks. O(1).
  bool running() const noexcept { return running_; }
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
  bool visible_ = true;
  bool running_ = false;
  bool toggled_ = false;
};

/// Scroll momentum: each wheel or trackpad event adds velocity; an every-frame timer turns it
/// into wheel motion for the hovered window and lets it decay exponentially until it rests.
class ScrollMomentum {
 public:
  explicit ScrollMomentum(Duration decay) : decay_(decay) {}
  /// A scroll event (in wheel notches): gains velocity and starts the timer if it was resting.
  void on_scroll(WindowRuntime& runtime, double dx, double dy);
  /// In a drawn frame, before ImGui::NewFrame(): hands the motion gathered since the last frame
  /// to ImGui.
  void feed(ImGuiIO& io);

 private:
  Duration decay_;
  double vx_ = 0, vy_ = 0;            // notches per second
  double pending_x_ = 0, pending_y_ = 0;  // motion not handed to ImGui yet
  std::optional<Instant> last_;
  bool moving_ = false;
};

/// Drag autoscroll: while the left button drags near or past the top or bottom edge of the
/// scrollable window the drag started in, scroll it, faster the closer to (or further past) the
/// edge, up to 900 px/s. The timer runs only while it scrolls; update() removes it otherwise.
/// The scroll is a function of time, not of how many frames drew it: it glides from the frame
/// that started it, and keeps its exact position itself, since ImGui rounds the window's scroll
/// to whole pixels in every frame (extra frames must not scroll further).
class DragAutoscroll {
 public:
  /// After ImGui::NewFrame() of the frame starting at `frame_start`: starts, steers or stops the
  /// autoscroll timer.
  void update(WindowRuntime& runtime, Instant frame_start);

 private:
  /// One step of the glide, from the timer: the scroll for the time since the last step.
  void step(Instant frame_start);

  ImGuiWindow* pressed_in_ = nullptr;  // where the left button went down, while it is held
  ImGuiWindow* target_ = nullptr;
  float speed_ = 0;  // pixels per second, negative = up
  Instant last_;     // the instant the glide has reached
  double exact_ = 0; // the glide's scroll position, unrounded
  bool active_ = false;
};

/// Tooltip delay: a tooltip shows once its item has been hovered for `delay`. The hover start
/// arms a one-shot timer, so the loop wakes once, at the delay, instead of drawing every frame.
class TooltipDelay {
 public:
  explicit TooltipDelay(Duration delay) : delay_(delay) {}
  /// For the last item, from the draw function. True while the tooltip shows.
  bool tooltip(WindowRuntime& runtime, Instant frame_start, const char* text);
  /// After the app's widgets: forget a hover that ended.
  void after_widgets(WindowRuntime& runtime);

 private:
  Duration delay_;
  std::uint64_t hovered_ = 0;  // the hovered item's key, 0 when none
  Instant since_;
  bool seen_this_frame_ = false;
};

}  // namespace cadence::detail
