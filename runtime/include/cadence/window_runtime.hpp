// cadence/window_runtime.hpp: the timers and background threads of one window.
//
// Each window owns a WindowRuntime. Once per frame the window's event loop asks it to run the
// timers that are due, applies the frame's changes, and then sleeps for next_wake():
//
//     WindowRuntime runtime(TimeSource::system());
//     runtime.add_timer(TimerId::unique(), Timer::every(530ms, blink_caret));
//     runtime.set_waker([] { glfwPostEmptyEvent(); });
//     for (;;) {
//       wait_for_events(runtime.next_wake());   // nullopt: no timeout; 0: do not sleep
//       ChangeSet changes;
//       handle_input(runtime.context(changes));
//       runtime.run_timers(runtime.now(), changes);
//       runtime.run_threads(changes);
//       if (runtime.apply(std::move(changes)).update != Update::nothing) render();
//     }
//
// - run_timers() touches only the timers that are due (plus the animation timers, which run on
//   every frame); 100,000 idle timers cost a frame nothing.
// - next_wake() is exact: sleeping for it and running a frame then runs the next timer; it is
//   never later than a due timer. It can be early (a frame that finds nothing due, then an
//   exact wake) only when more than 64 timers share the next millisecond, or, on the wheel,
//   when the next timer still sits on a coarse level: more than 16.4 s away, or among more
//   than 4,096 timers of one 16.4 s block. While an animation timer runs it is at most the
//   frame interval.
// - A timer id is unique within its runtime. App timers use ids >= 0x0100 (TimerId::unique());
//   ids 0x0001-0x00FF belong to the window's system timers (add_system_timer).
// - Callbacks change timers through their CallbackContext; see callback_context.hpp for when
//   each change takes effect. Calling add_timer() and friends directly from inside a timer
//   callback or a write-back (while run_timers() or run_threads() runs) is allowed and is
//   deferred the same way; outside those, as from a draw or event callback, a direct call takes
//   effect at once, while the context's waits for the frame's changes to be applied. apply()
//   called from inside a timer callback or a write-back hands its changes on to the frame's own
//   (ApplyReport::deferred counts them), which is applied after the last callback.
// - Destroying a callback (a timer removed or finished, a thread's data) is the last thing the
//   runtime does to it, so what its captures' destructors call is well defined: they may call
//   the runtime like any event handler. While the runtime itself is destroyed, such calls
//   change nothing and return `closed`.
// - Nothing a callback throws leaves run_timers(): the timer is removed and the error reported
//   in the ApplyReport. Likewise for workers and write-backs in run_threads().
// - Destroying the runtime stops its threads and joins them, waiting at most join_deadline;
//   workers still running after that are let go and can no longer reach it (their sends
//   return false).
//
// Thread: UI thread only (the thread that constructed it). Workers talk to it through their
// thread channels, never directly.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <typeinfo>

#include "cadence/callback_context.hpp"
#include "cadence/change_set.hpp"
#include "cadence/ids.hpp"
#include "cadence/payload.hpp"
#include "cadence/result.hpp"
#include "cadence/thread.hpp"
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
  std::optional<Instant> next_due;  ///< when it runs next: its due time or timeout, whichever is sooner, rounded up for slack; nullopt while paused or every frame
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
    /// Worker messages delivered per frame, in all and per thread; the rest wait for the next
    /// frame, which comes at once (next_wake() is zero while messages wait).
    std::uint32_t messages_per_frame = 4096;
    std::uint32_t messages_per_thread = 256;
    /// How long the destructor waits, in all, for workers to stop before letting them go.
    /// Duration::max() waits for as long as they take; zero or less lets them go at once.
    Duration join_deadline = std::chrono::seconds(2);
  };

  /// A runtime reading `source`. Its timeline (and its queue's milliseconds) start at
  /// source.now().
  explicit WindowRuntime(TimeSource source);
  WindowRuntime(TimeSource source, Options options);
  /// Stops the threads and joins them (at most join_deadline), then destroys the threads' data
  /// and the timers' callbacks; what their destructors call is refused with `closed`.
  /// Thread: UI. Not from inside one of its own timer callbacks or write-backs (asserted).
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

  /// Starts a background thread now (from inside a callback: when the frame's changes are
  /// applied). Its worker's first Tick comes with the first frame after this call. Cost: one
  /// std::thread. Errors: invalid_argument for id 0, a reserved id (1-4) or a Thread that was
  /// moved from; already_exists; resource when the system refuses a thread.
  Status start_thread(ThreadId id, Thread thread);
  /// Asks a thread to stop: its worker sees Terminate and its stop_token. Messages it sends
  /// until it returns are still delivered; it is removed when it has finished.
  /// Errors: not_found.
  Status stop_thread(ThreadId id);
  /// Sends a Custom message to a thread. Errors: not_found; closed when the worker has finished
  /// (nothing is sent).
  Status send_to_thread(ThreadId id, Payload payload);
  bool has_thread(ThreadId id) const;
  std::size_t thread_count() const noexcept;
  /// The writeback data of a thread, to read on the UI thread (a progress bar); nullptr for an
  /// unknown id or another type.
  template <class State>
  State* thread_data(ThreadId id) {
    return static_cast<State*>(thread_data(id, typeid(State)));
  }
  /// Sets the function a worker calls to wake the event loop after it posts into an empty
  /// channel (glfwPostEmptyEvent for a GLFW window): once per batch, never per message. It runs
  /// on worker threads and is never called once the runtime is gone. Thread: UI.
  void set_waker(std::function<void()> waker);

  /// A context for event callbacks of the coming frame, recording into `changes`.
  CallbackContext context(ChangeSet& changes);

  /// Runs the timers due at `frame_start` and records what they ask for in `changes`.
  /// Cost: O(due timers + animation timers), independent of idle timers.
  /// Errors (recorded in `changes`, reported by apply): a frame_start earlier than the last one
  /// is clamped to it (clock_went_backwards); one of another clock kind runs nothing
  /// (clock_mismatch); a call from inside a timer callback runs nothing (reentrant_call).
  void run_timers(Instant frame_start, ChangeSet& changes);
  /// Sends the frame's Tick to every thread and delivers the messages workers sent, within the
  /// per-frame budgets: write-backs run here, on the UI thread. Removes threads that finished
  /// once all they sent is delivered. Cost: O(1) when no worker posted and none waits for
  /// ticks; else O(threads + messages delivered). Errors: as run_timers (recorded in `changes`).
  void run_threads(ChangeSet& changes);
  /// Applies a frame's changes in order. Cost: O(changes).
  /// From inside a timer callback or a write-back the changes are not applied here: they join
  /// the running frame's change-set (report.deferred counts them) and the frame's own apply()
  /// carries them out and reports their failures. While the runtime is destroyed: nothing is
  /// applied; one `closed` failure says how many changes were dropped.
  ApplyReport apply(ChangeSet changes);
  /// One whole frame: run_timers(frame_start), run_threads() and apply(). Returns what apply()
  /// returned.
  ApplyReport poll(Instant frame_start);

  /// How long the loop may sleep from `now`: nullopt when nothing is scheduled (wait for
  /// events; a worker's post wakes the loop through the waker), zero when something is already
  /// due or worker messages wait. Cost: O(1) amortized.
  std::optional<Duration> next_wake(Instant now);
  /// next_wake() from the time source's now().
  std::optional<Duration> next_wake();
  /// The instant of the next wake-up, or nullopt. Drives ManualClock::run_until_idle().
  std::optional<Instant> next_due();

 private:
  friend class CallbackContext;
  void* thread_data(ThreadId id, const std::type_info& type);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cadence
