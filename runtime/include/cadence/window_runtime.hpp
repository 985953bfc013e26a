// cadence/window_runtime.hpp: the timers and background threads of one window.
//
// Each window owns a WindowRuntime. Once per frame the window's event loop asks it to run the
// timers that are due, applies the frame's changes, and then sleeps for next_wake():
//
//     #include <cadence/window_runtime.hpp>
//     #include <optional>
//     using namespace cadence;
//     using namespace std::chrono_literals;
//     void wait_for_events(std::optional<Duration> timeout);  // glfwWaitEventsTimeout, for a GLFW window
//     void wake_the_loop();                                   // glfwPostEmptyEvent (thread-safe)
//     void handle_input(CallbackContext& context);
//     void render();
//     bool caret_visible = true;
//     WindowRuntime runtime(TimeSource::system());
//     (void)runtime.add_timer(TimerId::unique(), Timer::every(530ms, [&](TimerCallbackInfo&) {
//       caret_visible = !caret_visible;
//       return TimerCallbackReturn::redraw();
//     }));
//     runtime.set_waker([] { wake_the_loop(); });
//     for (;;) {
//       wait_for_events(runtime.next_wake());   // nullopt: no timeout; 0: do not sleep
//       ChangeSet changes;
//       CallbackContext events = runtime.context(changes);
//       handle_input(events);
//       runtime.run_timers(runtime.now(), changes);
//       runtime.run_threads(changes);
//       if (runtime.apply(std::move(changes)).update != Update::nothing) render();
//     }
//
// Rules no single member can say:
// - next_wake() is exact: sleeping for it and running a frame then runs the next timer; it is
//   never later than a due timer. It can be early (a frame that finds nothing due, then an
//   exact wake) only when more than 64 timers share the next millisecond, or, on the wheel,
//   when the next timer still sits on a coarse level: more than 16.4 s away, or among more
//   than 4,096 timers of one 16.4 s block. While an animation timer runs it is at most the
//   frame interval: animation frames keep to a grid of whole frame intervals from the
//   runtime's origin, which frames between them (a timer's, input's) do not move.
// - Nothing a callback throws leaves run_timers(): the timer is removed and the error reported
//   in the ApplyReport. Likewise for workers and write-backs in run_threads().
// - "Inside a frame": while run_timers() or run_threads() calls back. The changes (controls.hpp)
//   are recorded into the frame's change-set there; a frame cannot start inside a frame or
//   inside apply() (a destructor it set off), where it would see changes half applied.
// - Off the UI thread a change is refused with `wrong_thread` and a question gets the answer of
//   an empty runtime (false, 0, nullopt, nullptr; frame_interval() gives the default). While
//   the runtime is destroyed (what its timers and threads captured is destroyed then) a change
//   is refused with `closed`, and questions see an empty runtime. Workers reach the runtime
//   through their thread's channels (thread.hpp), never directly.
// - The runtime destroys a callback only once it is done with it, so every member, apply()
//   included, may be called from a captured callback's destructor.
//
// For every member, unless its own lines say otherwise:
// Thread: the UI thread (see above). Where: anywhere. Errors: none.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <typeinfo>

#include "cadence/callback_context.hpp"
#include "cadence/change_set.hpp"
#include "cadence/controls.hpp"
#include "cadence/export.hpp"
#include "cadence/ids.hpp"
#include "cadence/payload.hpp"
#include "cadence/redraw_handle.hpp"
#include "cadence/result.hpp"
#include "cadence/thread.hpp"
#include "cadence/time.hpp"
#include "cadence/time_source.hpp"
#include "cadence/timer.hpp"
#include "cadence/timer_queue.hpp"
#include "cadence/timer_status.hpp"

namespace cadence {

class CADENCE_RUNTIME_API WindowRuntime : public Controls {
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

  /// A runtime reading `source`. Its timeline starts at source.now(), its origin: a source that
  /// later reads earlier than that is clamped to it, as a clock that goes back between frames is.
  /// Thread: any; it becomes the runtime's UI thread. Cost: allocates the tables.
  explicit WindowRuntime(TimeSource source);
  WindowRuntime(TimeSource source, Options options);
  /// Stops the threads and joins them (at most join_deadline; workers still running then are let
  /// go, and their sends return false), then destroys the threads' data and the timers'
  /// callbacks; what their destructors ask is refused with `closed`.
  /// Thread: UI; elsewhere it stops the process with a message.
  /// Where: not inside one of its own calls that run app code (a frame, apply(), a change whose
  /// destructors run, its own destruction): it stops the process with a message.
  ~WindowRuntime();

  /// The time source's current time. Thread: any, as the source allows. Cost: one source read.
  Instant now() const;
  /// Thread: any (it never changes). Cost: O(1).
  const TimeSource& time_source() const noexcept;
  /// Sets the frame interval (the monitor's refresh period), at once.
  /// Errors: invalid_argument for <= 0 (the message names the value). Cost: O(1).
  Status set_frame_interval(Duration interval);
  /// Cost: O(1).
  Duration frame_interval() const noexcept;
  /// The first instant of the frame grid after `t` (the origin plus whole frame intervals, where
  /// animation frames fall); the origin for `t` before it; saturates at the end of the timeline.
  /// Errors: throws ClockMismatch for another clock's instant. Cost: O(1).
  Instant frame_after(Instant t) const;

  /// Tells the runtime its window was hidden (true) or shown again (false). While hidden, system
  /// timers pause and each app timer follows its Timer::with_when_hidden policy: keep running
  /// (the default), pause (resumed when shown, unless the app paused or resumed it meanwhile),
  /// or throttle (at most one run per period; shown again, due as its schedule says). Setting
  /// the state it has changes nothing.
  /// Where: not inside a frame (reentrant_call, no change: call it from an event handler).
  /// Errors: reentrant_call, wrong_thread, closed. Cost: O(timers).
  Status set_hidden(bool hidden);
  /// Cost: O(1).
  bool hidden() const noexcept;

  /// A handle that asks for redraw frames from any thread and outlives the runtime safely
  /// (redraw_handle.hpp). Thread: any. Cost: O(1).
  RedrawHandle redraw_handle() const;
  /// What the runtime knows of a timer, or nullopt. Cost: O(1).
  std::optional<TimerStatus> timer_status(TimerId id) const;
  /// Live timers, system timers included. Cost: O(1).
  std::size_t timer_count() const noexcept;
  /// A loop of the app's own that calls run_timers(), run_threads() and apply() itself sees a
  /// start its callbacks made, between those calls, only in its change-set
  /// (ChangeSet::starts_thread). Cost: O(1).
  std::size_t thread_count() const noexcept;
  /// The writeback data of a thread, to read on the UI thread (a progress bar); nullptr for an
  /// unknown id or another type. The pointer lives as long as the thread. Cost: O(1).
  template <class State>
  State* thread_data(ThreadId id) {
    return static_cast<State*>(thread_data(id, typeid(State)));
  }
  /// The newest value a thread reported on its progress lane (ThreadSender::progress), as the UI
  /// took it at the start of the last frame; nullptr before its first report, for an unknown id
  /// or another type. Valid until the next run_threads() or the thread's removal. Cost: O(1).
  template <class V>
  const V* thread_progress(ThreadId id) const {
    const detail::ProgressValue* p = progress_value(id);
    return p != nullptr ? p->get<V>() : nullptr;
  }
  /// Sets the function a worker calls to wake the event loop after it posts into an empty
  /// channel (glfwPostEmptyEvent for GLFW): once per batch, never per message, on worker
  /// threads (several at once), never once the runtime is gone. It must be quick and must not
  /// block or call the runtime; it may ask for frames through RedrawHandles, this runtime's or
  /// others' whose wakers ask back (a waker already running on the thread is not called again).
  /// The old waker is destroyed after the new one is in place and its calls in progress have
  /// returned (this waits for them, as the destructor does).
  /// Thread: UI; elsewhere, inside the waker itself, and while destroyed: no change.
  void set_waker(std::function<void()> waker);

  /// A context for the coming frame's event handlers, recording into `changes`. Inside a frame,
  /// its changes join the frame's only if applied. Cost: O(1).
  CallbackContext context(ChangeSet& changes);

  /// Runs the timers due at `frame_start`, recording what they ask for in `changes`.
  /// Where: not inside a frame or apply() (runs nothing: reentrant_call in `changes`).
  /// Errors (in `changes`, reported by apply): clock_went_backwards (a start before the last
  /// frame's, or the origin: clamped to it); clock_mismatch (another clock: runs nothing).
  /// Cost: O(due timers + animation timers), independent of idle timers.
  void run_timers(Instant frame_start, ChangeSet& changes);
  /// Sends the frame's Tick to every thread and delivers what workers sent, within the
  /// per-frame budgets (write-backs run here), and takes each thread's newest progress value. A
  /// finished thread, once all it sent is delivered, gets its finish callback and is removed.
  /// Where, errors: as run_timers. Cost: O(1) when no worker posted and none waits for ticks;
  /// else O(threads + messages delivered).
  void run_threads(ChangeSet& changes);
  /// Applies a frame's changes in order.
  /// Where: inside a frame the changes join the running frame's set (report.deferred counts
  /// them), whose apply() carries them out; anywhere else at once. While the runtime is
  /// destroyed, or off the UI thread, nothing is applied: what the set reports (frame errors,
  /// failed timers and threads) is passed on, and when it held changes, one `closed` (or
  /// wrong_thread) failure says how many were dropped.
  /// Errors: each failed change in report.failures. Cost: O(changes).
  ApplyReport apply(ChangeSet changes);
  /// One whole frame: run_timers(frame_start), run_threads() and apply(); returns the report.
  /// Where: inside a frame it runs nothing, and its two reentrant_calls join the running frame's
  /// report (this report counts them as deferred); inside apply() it runs nothing and reports
  /// them. While the runtime is destroyed, or off the UI thread, it runs nothing and reports one
  /// failure (closed, or wrong_thread).
  ApplyReport poll(Instant frame_start);

  /// For a loop that draws after a frame's callbacks ran (ImGui's draw code runs after poll()):
  /// from set_drawing(frame_start) to set_drawing(nullopt), a redraw the UI thread asks for at
  /// or before `frame_start` is the frame being drawn, as for a timer callback (controls.hpp),
  /// and leaves every other request as it was. A `frame_start` later than now counts as now.
  /// FramePacer, and so every window, calls it around the app's draw code.
  /// Errors: none (no change off the UI thread or while destroyed; another clock's instant ends
  /// the drawing). Cost: O(1).
  void set_drawing(std::optional<Instant> frame_start);

  /// How long the loop may sleep from `now`: nullopt when nothing is scheduled (a worker's post
  /// wakes the loop through the waker), zero when something is due or worker messages wait.
  /// With a source that stepped back behind the last frame, a frame now starts at the last
  /// frame's instant: what is due by then is due now, and animation frames come a frame
  /// interval after `now`. Cost: O(1) amortized.
  std::optional<Duration> next_wake(Instant now);
  /// next_wake() from the time source's now().
  std::optional<Duration> next_wake();
  /// The instant of the next wake-up, or nullopt. Drives ManualClock::run_until_idle().
  std::optional<Instant> next_due();

 private:
  friend class Controls;
  /// The one path of every timer and thread change: refused (another thread; the runtime is
  /// being destroyed), recorded in a pending set (`set`, or without one the running frame's
  /// while callbacks run), or carried out now exactly as apply() carries it out.
  Status submit(Change change, ChangeSet* set);
  /// The set a change through `set` goes to: `set`, or the running frame's; nullptr for now.
  ChangeSet* pending(ChangeSet* set) const;
  /// Marks the change just recorded in `set` as checked: apply() checks each change once.
  static void mark_checked(ChangeSet& set) noexcept;
  void* thread_data(ThreadId id, const std::type_info& type);
  const detail::ProgressValue* progress_value(ThreadId id) const;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cadence
