// cadence/window_runtime.hpp: the timers (and background threads) of one window.
//
// Each window owns a WindowRuntime. Once per frame the window's event loop asks it to run the
// timers that are due, applies the frame's changes, and then sleeps for next_wake():
//
//     WindowRuntime runtime(TimeSource::system());
//     runtime.add_timer(TimerId::unique(), Timer::every(530ms, blink_caret));
//     for (;;) {
//       wait_for_events(runtime.next_wake());   // nullopt: no timeout; 0: do not sleep
//       ChangeSet changes;
//       handle_input(runtime.context(changes));
//       runtime.run_timers(runtime.now(), changes);
//       if (runtime.apply(std::move(changes)).update != Update::nothing) render();
//     }
//
// - run_timers() touches only the timers that are due (plus the animation timers, which run on
//   every frame); 100,000 idle timers cost a frame nothing.
// - next_wake() is exact: sleeping for it and running a frame then runs the next timer; it is
//   never later than a due timer, and sub-millisecond due times are rounded up to the next
//   millisecond. While an animation timer runs it is at most the frame interval.
// - A timer id is unique within its runtime. App timers use ids >= 0x0100 (TimerId::unique());
//   ids 0x0001-0x00FF belong to the window's system timers (add_system_timer).
// - Callbacks change timers through their CallbackContext; see callback_context.hpp for when
//   each change takes effect. Calling add_timer() and friends directly from inside a callback
//   is allowed and behaves the same way.
// - Nothing a callback throws leaves run_timers(): the timer is removed and the error reported
//   in the ApplyReport.
//
// Thread: UI thread only (the thread that constructed it). Workers talk to it through their
// thread channels, never directly.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "cadence/callback_context.hpp"
#include "cadence/change_set.hpp"
#include "cadence/ids.hpp"
#include "cadence/result.hpp"
#include "cadence/time.hpp"
#include "cadence/time_source.hpp"
#include "cadence/timer.hpp"

namespace cadence {

/// Which TimerQueue keeps the runtime's timers.
enum class QueueKind : std::uint8_t { wheel, heap };

/// A timer as the runtime sees it, for inspection (a timers panel, tests).
struct TimerStatus {
  Instant created;                  ///< when it was added
  std::optional<Instant> last_run;  ///< frame_start of its last run
  std::uint64_t run_count = 0;
  std::optional<Instant> next_due;  ///< its next run (the timeout, if sooner); nullopt while paused or every frame
  std::optional<Instant> expires;   ///< added + timeout, shifted by pauses
  bool paused = false;
  bool every_frame = false;         ///< an animation timer past its delay
};

class WindowRuntime {
 public:
  struct Options {
    QueueKind queue = QueueKind::wheel;
    /// How often to wake while an animation timer runs: the monitor's refresh period.
    Duration frame_interval = Duration{16'666'667};
  };

  /// A runtime reading `source`. Its timeline (and its queue's milliseconds) start at
  /// source.now().
  explicit WindowRuntime(TimeSource source);
  WindowRuntime(TimeSource source, Options options);
  ~WindowRuntime();
  WindowRuntime(const WindowRuntime&) = delete;
  WindowRuntime& operator=(const WindowRuntime&) = delete;

  /// The time source's current time. Cost: one call of the source.
  Instant now() const;
  const TimeSource& time_source() const noexcept;
  /// Sets the frame interval (the monitor's refresh period). Errors: invalid_argument for <= 0.
  Status set_frame_interval(Duration interval);
  Duration frame_interval() const noexcept;

  /// Adds an app timer (id >= 0x0100), due `delay` from now. O(1).
  /// Errors: invalid_argument for id 0, a reserved id or bad knobs (Timer::validate);
  /// already_exists for a taken id. Nothing changes on error.
  Status add_timer(TimerId id, Timer timer);
  /// Adds a system timer (0x0001-0x00FF). Errors: as add_timer with the id rule reversed.
  Status add_system_timer(TimerId id, Timer timer);
  /// Removes a timer. O(1). Errors: not_found (nothing changes).
  Status remove_timer(TimerId id);
  /// Pauses a timer, keeping the time left to its next run and to its timeout. O(1).
  /// Pausing a paused timer changes nothing. Errors: not_found.
  Status pause_timer(TimerId id);
  /// Resumes a paused timer with the time it had left. O(1). Errors: not_found.
  Status resume_timer(TimerId id);
  bool has_timer(TimerId id) const;
  std::optional<TimerStatus> timer_status(TimerId id) const;
  std::size_t timer_count() const noexcept;

  /// A context for event callbacks of the coming frame, recording into `changes`.
  CallbackContext context(ChangeSet& changes);

  /// Runs the timers due at `frame_start` and records what they ask for in `changes`.
  /// Cost: O(due timers + animation timers), independent of idle timers.
  /// Errors (recorded in `changes`, reported by apply): a frame_start earlier than the last one
  /// is clamped to it (clock_went_backwards); one of another clock kind runs nothing
  /// (clock_mismatch); a call from inside a timer callback runs nothing (reentrant_call).
  void run_timers(Instant frame_start, ChangeSet& changes);
  /// Applies a frame's changes in order. Cost: O(changes).
  ApplyReport apply(ChangeSet changes);
  /// One whole frame: run_timers(frame_start) and apply(). Returns what apply() returned.
  ApplyReport poll(Instant frame_start);

  /// How long the loop may sleep from `now`: nullopt when nothing is scheduled (wait for
  /// events), zero when something is already due. Cost: O(1) amortized.
  std::optional<Duration> next_wake(Instant now);
  /// next_wake() from the time source's now().
  std::optional<Duration> next_wake();
  /// The instant of the next wake-up, or nullopt. Drives ManualClock::run_until_idle().
  std::optional<Instant> next_due();

 private:
  friend class CallbackContext;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cadence
