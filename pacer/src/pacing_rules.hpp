// When an ImGui frame is drawn, as functions of the pacer's state alone: no ImGui, no clock, no
// window. FramePacer (frame_pacer.hpp) gathers the facts (what the runtime's frame ran, what
// ImGui's state says after a frame) and applies these rules; tests drive them directly.
// The rules themselves are documented in cadence/frame_pacer.hpp, "When a frame is drawn".
// Private to cadence::pacer (exported from a shared build for its tests only).
#pragma once

#include <array>
#include <optional>

#include "cadence/export.hpp"
#include "cadence/time.hpp"
#include "imgui_timing.hpp"

namespace cadence::detail {

/// What decides when the next frame is drawn.
struct PaceState {
  int frames_owed = 1;  ///< frames to draw at once: start-up, redraw requests, 2 after input without settling
  bool input = false;   ///< input arrived since the last iteration, or waits in ImGui's queue
  std::optional<Instant> settle_at;  ///< the next frame that looks whether ImGui has come to rest
  bool timing_due = false;  ///< the ImGui timing timer ran since the last drawn frame
  /// The repeat schedules (bit 1 << RepeatSchedule) with an instant at or before that timer's
  /// frame; none for a delay's.
  unsigned timing_schedules = 0;
  /// Per RepeatSchedule: frames drawn for its instants in a row that changed nothing.
  std::array<int, kRepeatSchedules> idle_repeats{};
  int needy_streak = 0;     ///< identical frames in a row drawn because ImGui said it needs one
  bool hidden = false;      ///< minimized or hidden: nothing is drawn
};

/// What an iteration draws.
enum class Draw : unsigned char {
  nothing,
  caret,  ///< a frame that only toggles the caret: no settle check follows it
  full,   ///< a frame followed by the settle check
};

/// How long the loop may sleep: zero while frames are owed, input waits or the caret toggled;
/// else the sooner of the settle frame and the runtime's own wake; nullopt for "until an event".
/// While hidden, only the runtime's. O(1).
CADENCE_PACER_API std::optional<Duration> wake_in(const PaceState& s, bool caret_toggled,
                                                  std::optional<Duration> runtime_wake, Instant now);

/// What one iteration draws, after the runtime's frame ran at `frame_start` (its report already
/// owed its frames). `asked`: a timer or worker asked for a redraw, or worker messages came.
struct Iteration {
  Draw draw = Draw::nothing;
  bool for_input = false;   ///< input arrived for it
  bool settling = false;    ///< the settle frame came due
  bool settle_only = false; ///< nothing but the settle check asked for it (AwakeWatch)
};
/// Consumes the input mark, and owes the two frames after input when `settle_frames` is off.
CADENCE_PACER_API Iteration decide(PaceState& s, Instant frame_start, bool caret_toggled, bool asked, bool settle_frames);

/// What ImGui's state says after a drawn frame, and the frame's own facts.
struct DrawnFrame {
  Instant start;            ///< the frame's instant
  bool changed = false;     ///< its draw data differ from the frame before
  bool settle = false;      ///< it was a Draw::full frame
  bool for_input = false;   ///< it was drawn for input
  bool needs_next = false;  ///< ImGui still shows or sizes a window (imgui_needs_next_frame)
  bool input_pending = false;  ///< input events wait in ImGui's queue (imgui_input_pending)
  ImGuiTiming timing;       ///< ImGui's own next instants, in seconds from `start`
  bool caret_running = false;  ///< a text field is active and its caret blinks
};

/// Identical frames in a row drawn only because ImGui's state said it needs another.
inline constexpr int kMaxNeedyFrames = 3;
/// How far past one of ImGui's own instants the frame that sees it is drawn.
inline constexpr Duration kImGuiTimingMargin = std::chrono::microseconds(500);
/// Instants of one repeat schedule in a row that changed nothing, after which it is not waited
/// for until the next input or change. Two, not one: ImGui 1.86 acts on a held button half a
/// repeat period after its delay, not at it.
inline constexpr int kIdleRepeatsToStop = 2;

/// After a drawn frame: sets the settle frame and the repeat counters, marks input still
/// queued, and returns the instant at which ImGui's own timing wants a frame (the timing timer),
/// or nullopt for none. `frame_after(t)`: the first instant of the frame grid after `t`
/// (WindowRuntime::frame_after). O(1).
template <class FrameAfter>
std::optional<Instant> plan_after_frame(PaceState& s, const DrawnFrame& f, bool settle_frames, Duration frame_interval,
                                        FrameAfter&& frame_after);

/// ImGui's next instant: the soonest of `f.timing`'s delay and the repeats of the schedules
/// waited for (repeat_waited_for), seconds after `f.start`, plus the margin; nullopt for none or
/// for one beyond a day away (a delay set to "never"). From `f` and the repeat counters of `s`
/// (updated by the caller).
CADENCE_PACER_API std::optional<Instant> imgui_instant(const PaceState& s, const DrawnFrame& f);
/// Whether the next instant of repeat schedule `schedule` (RepeatSchedule as an index) is waited
/// for: one is due, and fewer than kIdleRepeatsToStop of its instants in a row changed nothing,
/// or (for a key or the pointer) a text field's caret restarts at each.
CADENCE_PACER_API bool repeat_waited_for(const PaceState& s, const DrawnFrame& f, std::size_t schedule);
/// `seconds` of ImGui's frame time after `f.start`, plus the margin.
CADENCE_PACER_API Instant imgui_seconds_after(const DrawnFrame& f, double seconds);

template <class FrameAfter>
std::optional<Instant> plan_after_frame(PaceState& s, const DrawnFrame& f, bool settle_frames, Duration frame_interval,
                                        FrameAfter&& frame_after) {
  if (f.input_pending) s.input = true;  // ImGui trickles queued events: next frame at once
  if (f.settle) {
    // The settle check: a frame that showed something new is followed by another at the frame
    // interval, until two in a row are the same; so is one after which ImGui still shows or
    // sizes a window. A frame drawn for input is always followed by one: immediate mode shows
    // what the input changed late in that frame (a key handled after the text showing its
    // effect) only in the next. ImGui's own "needs a frame" is trusted for a few identical
    // frames at most.
    s.settle_at.reset();
    s.needy_streak = f.changed || f.for_input || !f.needs_next ? 0 : s.needy_streak + 1;
    if (settle_frames && (f.changed || f.for_input || (f.needs_next && s.needy_streak <= kMaxNeedyFrames))) {
      // A frame interval after this one, as the next frame of a loop drawing every frame: after
      // an event off the frame grid (a timer, input) as many frames have shown it as there.
      s.settle_at = f.start + frame_interval;
    }
  }
  // ImGui's own instants: a schedule whose instants changed nothing kIdleRepeatsToStop times in
  // a row is not waited for until the next input or change (see imgui_instant); a delay's
  // frame counts for none.
  if (f.changed || f.for_input) {
    s.idle_repeats.fill(0);
  } else if (s.timing_due) {
    for (std::size_t i = 0; i < kRepeatSchedules; ++i) {
      if ((s.timing_schedules & (1u << i)) != 0) ++s.idle_repeats[i];
    }
  }
  s.timing_due = false;
  s.timing_schedules = 0;
  const std::optional<Instant> instant = imgui_instant(s, f);
  if (!instant) return std::nullopt;
  const Instant at = frame_after(*instant - Duration{1});
  for (std::size_t i = 0; i < kRepeatSchedules; ++i) {  // the schedules whose instant that frame sees
    if (repeat_waited_for(s, f, i) && imgui_seconds_after(f, *f.timing.repeat_in[i]) <= at) s.timing_schedules |= 1u << i;
  }
  // A settle frame at or after the instant sees it, as the next frame of a loop that draws
  // every frame would: no frame of its own (a drag autoscroll keeps drawing at the frame
  // interval; a frame added between would take the glide off that grid).
  if (s.settle_at && at <= *s.settle_at) return std::nullopt;
  // A settle frame less than a frame interval before ImGui's instant is left to that instant's
  // frame, which settles too: a button repeating faster than every other frame (ImGui 1.86's
  // held "+", every 25 ms) costs one frame per repeat, not two. Not after a frame drawn for
  // input: what the input changed shows in the frame after it, on time; nor when ImGui needs
  // that frame (a navigation move lands in it), as drawing every frame would show it then.
  if (s.settle_at && !f.for_input && !f.needs_next && at <= *s.settle_at + frame_interval) s.settle_at.reset();
  return at;
}

}  // namespace cadence::detail
