#include "pacing_rules.hpp"

#include <algorithm>

namespace cadence::detail {
namespace {

// ImGui instants further away than this (seconds) are not waited for: a delay set to "never".
constexpr double kLongestImGuiWait = 24.0 * 3600.0;

}  // namespace

std::optional<Duration> wake_in(const PaceState& s, bool caret_toggled, std::optional<Duration> runtime_wake,
                                Instant now) {
  if (s.hidden) return runtime_wake;  // only the timers that go on while hidden
  if (s.frames_owed > 0 || s.input || caret_toggled) return Duration::zero();
  std::optional<Duration> wake = runtime_wake;
  if (s.settle_at) {
    const Duration left = std::max(Duration::zero(), *s.settle_at - now);
    if (!wake || left < *wake) wake = left;
  }
  return wake;
}

Iteration decide(PaceState& s, Instant frame_start, bool caret_toggled, bool asked, bool settle_frames) {
  Iteration it;
  it.for_input = s.input;
  it.settling = s.settle_at && frame_start >= *s.settle_at;
  if (s.hidden) {
    s.input = false;  // counted once; shown again, the window draws anyway
    return it;        // draws nothing, owes what it owed
  }
  s.input = false;
  if (it.for_input && !settle_frames) s.frames_owed = std::max(s.frames_owed, 2);
  if (s.frames_owed > 0 || it.for_input || it.settling) {
    it.draw = Draw::full;
    // Drawn for the settle check alone: no input, no redraw owed or asked for by a timer or
    // worker (a timer that only ran, like the caret's blink, asks for nothing).
    it.settle_only = it.settling && !it.for_input && s.frames_owed == 0 && !asked;
  } else if (caret_toggled) {
    it.draw = Draw::caret;  // only the caret's bar changes
  }
  return it;
}

bool repeat_waited_for(const PaceState& s, const DrawnFrame& f, std::size_t schedule) {
  // Not while a text field is active for a key or the pointer: ImGui restarts its caret's blink
  // at every repeat of a key it takes, even one that changes nothing (Backspace in an empty
  // field), and the caret follows that.
  const bool caret_follows = f.caret_running && (schedule == static_cast<std::size_t>(RepeatSchedule::key) ||
                                                  schedule == static_cast<std::size_t>(RepeatSchedule::pointer));
  return f.timing.repeat_in[schedule] && (s.idle_repeats[schedule] < kIdleRepeatsToStop || caret_follows);
}

std::optional<Instant> imgui_instant(const PaceState& s, const DrawnFrame& f) {
  std::optional<double> next = f.timing.delay_in;
  for (std::size_t i = 0; i < kRepeatSchedules; ++i) {
    if (repeat_waited_for(s, f, i) && (!next || *f.timing.repeat_in[i] < *next)) {
      next = f.timing.repeat_in[i];
    }
  }
  if (!next || *next >= kLongestImGuiWait) return std::nullopt;  // a delay set beyond it (FLT_MAX) never comes
  return imgui_seconds_after(f, *next);
}

Instant imgui_seconds_after(const DrawnFrame& f, double seconds) {
  // ImGui adds up float frame times: a little past the instant, so that its sum has crossed the
  // threshold when it looks. Counted from the frame's start, not from now (after the buffer
  // swap, which may have waited for the screen).
  return f.start + std::chrono::duration_cast<Duration>(std::chrono::duration<double>(seconds)) + kImGuiTimingMargin;
}

}  // namespace cadence::detail
