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
// - run_timers() touches only the timers that are due (plus the animation timers, which run on
//   every frame); 100,000 idle timers cost a frame nothing.
// - next_wake() is exact: sleeping for it and running a frame then runs the next timer; it is
//   never later than a due timer. It can be early (a frame that finds nothing due, then an
//   exact wake) only when more than 64 timers share the next millisecond, or, on the wheel,
//   when the next timer still sits on a coarse level: more than 16.4 s away, or among more
//   than 4,096 timers of one 16.4 s block. While an animation timer runs it is at most the
//   frame interval: animation frames keep to a grid of whole frame intervals from the
//   runtime's origin, which frames between them (a timer's, input's) do not move.
// - A timer id is unique within its runtime. App timers use ids >= 0x0100 (TimerId::unique());
//   ids 0x0001-0x00FF belong to the window's system timers (add_system_timer).
// - Nothing a callback throws leaves run_timers(): the timer is removed and the error reported
//   in the ApplyReport. Likewise for workers and write-backs in run_threads().
// - Destroying the runtime stops its threads and joins them, waiting at most join_deadline;
//   workers still running after that are let go and can no longer reach it (their sends
//   return false).
//
// Where each member may be called. Every declaration below says which of these rules it keeps
// ("Re-entry: ..."); the rest hold for all of them.
// - Thread: the UI thread only (the thread that made the runtime). From another thread a
//   change is refused with `wrong_thread` and changes nothing, and a question gets the answer
//   of an empty runtime (false, 0, nullopt, nullptr; frame_interval() gives the default
//   interval). Workers reach the runtime through their
//   thread's channels (thread.hpp), never directly.
// - From an event handler or the draw function (no frame running): everything, at once.
// - From a timer callback or a write-back (while run_timers() or run_threads() runs: "inside a
//   frame"): a change is checked at once and done when the frame's changes are applied, exactly
//   like one made through the callback's CallbackContext (callback_context.hpp); apply() hands
//   its changes on to the frame (ApplyReport::deferred); run_timers(), run_threads() and poll()
//   run nothing and report reentrant_call; questions are answered at once.
// - From the destructor of something a callback captured (a timer that was removed or ended, a
//   thread's data, a change-set dropped unapplied): as from wherever it is destroyed. The runtime
//   destroys a callback only once it is done with it, so even apply() is safe there. A frame
//   from inside apply() (run_timers(), run_threads(), poll() in a destructor that apply() set
//   off) runs nothing and reports reentrant_call: it would see the changes half applied.
// - While the runtime itself is destroyed (what its timers and threads captured is destroyed
//   then): a change is refused with `closed`, apply() drops its changes and reports `closed`,
//   run_timers() and run_threads() report `closed`, and questions see an empty runtime.
// - The destructor is the one member that may not be called from inside one of the runtime's
//   own calls that run app code (a frame, apply(), remove_timer() and the other changes, whose
//   destructors may run app code, or the runtime's own destruction): it stops the process with a
//   message saying so, since the call would go on in freed memory.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <typeinfo>

#include "cadence/callback_context.hpp"
#include "cadence/change_set.hpp"
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

class CADENCE_RUNTIME_API WindowRuntime {
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
  /// source.now(), its origin: a time source that later reads earlier than that is clamped to
  /// it, as a clock that goes back between frames is. Thread: any; that thread becomes the
  /// runtime's UI thread.
  explicit WindowRuntime(TimeSource source);
  WindowRuntime(TimeSource source, Options options);
  /// Stops the threads and joins them (at most join_deadline), then destroys the threads' data
  /// and the timers' callbacks; what their destructors call is refused with `closed`.
  /// Re-entry: not inside one of its own calls (stops the process with a message). Thread: UI.
  ~WindowRuntime();
  WindowRuntime(const WindowRuntime&) = delete;
  WindowRuntime& operator=(const WindowRuntime&) = delete;

  /// The time source's current time. Cost: one call of the source. Re-entry: anywhere.
  /// Thread: any, as the source allows.
  Instant now() const;
  /// Re-entry: anywhere. Thread: any (it never changes).
  const TimeSource& time_source() const noexcept;
  /// Sets the frame interval (the monitor's refresh period), at once. O(1).
  /// Errors: invalid_argument for <= 0 (the message names the value). Re-entry: anywhere.
  Status set_frame_interval(Duration interval);
  /// Re-entry: anywhere.
  Duration frame_interval() const noexcept;
  /// The first instant of the frame grid after `t`: the runtime's origin plus a whole number of
  /// frame intervals, where animation frames fall (a loop that draws every frame draws on such
  /// a grid too, at the screen's refresh). For `t` before the origin, the origin. Saturates at
  /// the end of the timeline. O(1). Errors: an instant of another clock throws ClockMismatch,
  /// as comparing it does. Re-entry: anywhere.
  Instant frame_after(Instant t) const;

  /// Adds an app timer (id >= 0x0100), due `delay` from now. Cost: one schedule in the queue
  /// (O(1) on the wheel, O(log n) on the heap); after an idle in which nothing came due, first
  /// the queue's moves for the time passed (far timers moved down a level: work the next frame
  /// would do, amortized O(1) per timer), so that next_wake() is exact for the new timer.
  /// Errors: invalid_argument for id 0, a reserved id or bad knobs (Timer::validate);
  /// already_exists for a taken id. Nothing changes on error.
  /// Re-entry: deferred inside a frame (it never runs in the frame that added it).
  Status add_timer(TimerId id, Timer timer);
  /// Adds a system timer (0x0001-0x00FF). Errors: as add_timer with the id rule reversed.
  /// Re-entry: deferred inside a frame.
  Status add_system_timer(TimerId id, Timer timer);
  /// Removes a timer. O(1). Errors: not_found (nothing changes).
  /// Re-entry: inside a frame the timer stops at once (it does not run later in that frame)
  /// and is removed when the frame's changes are applied.
  Status remove_timer(TimerId id);
  /// Pauses a timer, keeping the time left to its next run and to its timeout. O(1).
  /// Pausing a paused timer changes nothing. Errors: not_found. Re-entry: deferred inside a frame.
  Status pause_timer(TimerId id);
  /// Resumes a paused timer with the time it had left. Cost: as add_timer.
  /// Errors: not_found.
  /// Re-entry: deferred inside a frame.
  Status resume_timer(TimerId id);
  /// Every timer of a widget (Timer::with_owner) in one call, as the single-timer calls above
  /// would do each (a widget that goes away takes its timers with it; a hidden panel pauses
  /// its own): the live ones, and inside a frame also those the frame adds. Returns how many
  /// were removed, paused or resumed (0 for an owner without timers: not an error). Cost:
  /// O(timers of the owner), plus O(changes) of the frame inside one.
  /// Errors: wrong_thread, closed (nothing changes). Re-entry: as the single-timer calls.
  Result<std::size_t> remove_timers_of(WidgetId owner);
  Result<std::size_t> pause_timers_of(WidgetId owner);
  Result<std::size_t> resume_timers_of(WidgetId owner);
  /// Tells the runtime its window was minimized or hidden (true) or shown again (false); the
  /// window calls it. While hidden, system timers pause, and each app timer follows its
  /// Timer::with_when_hidden policy: keep running (the default), pause (keeping the time left;
  /// resumed when shown, unless the app paused or resumed it itself meanwhile), or throttle (at
  /// most one run per period; shown again, it is due as its schedule says). Setting the state
  /// it has changes nothing. Cost: O(timers).
  /// Errors: reentrant_call inside a frame (nothing changes: call it from an event handler);
  /// wrong_thread, closed. Re-entry: not inside a frame.
  Status set_hidden(bool hidden);
  /// Re-entry: anywhere.
  bool hidden() const noexcept;

  /// Asks for a frame at or after `at` that redraws the window: next_wake() counts it, exactly,
  /// and the first frame whose start reaches it reports a redraw (ApplyReport::redraws_came) and
  /// forgets it. Requests coalesce to the soonest: the frame it brings redraws, and a widget that
  /// needs a later one asks again when it draws (immediate mode does, in every drawn frame).
  /// A timer callback or write-back that asks for its own frame's instant (or before) gets that
  /// frame, not another. For a widget that will look different at an instant it knows (its own
  /// caret, a fade). The end of the timeline counts as one nanosecond before it.
  /// O(1); allocates only an error's message. Errors: clock_mismatch for another clock's
  /// instant (nothing changes); wrong_thread, closed (off the UI thread, use redraw_handle()).
  /// Re-entry: at once, anywhere.
  Status request_redraw_at(Instant at);
  /// The same, `delay` from now (not from the next frame; <= 0: the next frame): the time
  /// source's reading, or, if the source stepped back behind an instant the runtime has used,
  /// that instant, as a timer added now counts. Errors, re-entry: as request_redraw_at.
  Status request_redraw_after(Duration delay);
  /// A handle that asks for such frames from any thread, and outlives the runtime safely
  /// (redraw_handle.hpp). O(1). Re-entry: anywhere. Thread: any.
  RedrawHandle redraw_handle() const;
  /// True for a live timer that has not been stopped. O(1). Re-entry: anywhere.
  bool has_timer(TimerId id) const;
  /// What the runtime knows of a timer, or nullopt. O(1). Re-entry: anywhere.
  std::optional<TimerStatus> timer_status(TimerId id) const;
  /// Live timers, system timers included. O(1). Re-entry: anywhere.
  std::size_t timer_count() const noexcept;

  /// Starts a background thread now (from inside a callback: when the frame's changes are
  /// applied). Its worker's first Tick comes with the first frame after this call. Cost: one
  /// std::thread. Errors: invalid_argument for id 0, a reserved id (1-4) or a Thread that was
  /// moved from; already_exists; resource when the system refuses a thread.
  /// Re-entry: deferred inside a frame.
  Status start_thread(ThreadId id, Thread thread);
  /// Asks a thread to stop: its worker sees Terminate and its stop_token. Messages it sends
  /// until it returns are still delivered; it is removed when it has finished. For a thread
  /// whose start waits for the frame's changes, the request reaches it right after it starts.
  /// Errors: not_found. Re-entry: at once, anywhere.
  Status stop_thread(ThreadId id);
  /// Sends a Custom message to a thread (one whose start waits for the frame's changes gets it
  /// right after it starts). Errors: not_found; closed when the worker has finished (nothing is
  /// sent). Re-entry: at once, anywhere.
  Status send_to_thread(ThreadId id, Payload payload);
  /// True from start_thread() on (inside a timer callback or write-back too, where the start
  /// waits in the frame's change-set) until the thread is removed, in the frame its outcome
  /// came in, after that frame's finish callbacks. A loop of the app's own that calls
  /// run_timers(), run_threads() and apply() itself sees a start its callbacks made, between
  /// those calls, only in its change-set (ChangeSet::starts_thread). O(1). Re-entry: anywhere.
  bool has_thread(ThreadId id) const;
  /// O(1). Re-entry: anywhere.
  std::size_t thread_count() const noexcept;
  /// The writeback data of a thread, to read on the UI thread (a progress bar); nullptr for an
  /// unknown id or another type. O(1). Re-entry: anywhere; the pointer lives as long as the
  /// thread does.
  template <class State>
  State* thread_data(ThreadId id) {
    return static_cast<State*>(thread_data(id, typeid(State)));
  }
  /// The newest value a thread reported on its progress lane (ThreadSender::progress), as the UI
  /// took it at the start of the last frame; nullptr before its first report, for an unknown id
  /// or for another type. The pointer is valid until the next run_threads() or the thread's
  /// removal. O(1). Re-entry: anywhere.
  template <class V>
  const V* thread_progress(ThreadId id) const {
    const detail::ProgressValue* p = progress_value(id);
    return p != nullptr ? p->get<V>() : nullptr;
  }
  /// Sets the function a worker calls to wake the event loop after it posts into an empty
  /// channel (glfwPostEmptyEvent for a GLFW window): once per batch, never per message. It runs
  /// on worker threads and is never called once the runtime is gone; it must be quick and must
  /// not block or call the runtime (workers that post meanwhile wait for it); it may ask for a
  /// frame through a RedrawHandle, which then wakes nothing more. The old waker is
  /// destroyed after the new one is in place. Re-entry: anywhere, the old waker's destructor
  /// included; while the runtime is destroyed (or from another thread) it changes nothing.
  void set_waker(std::function<void()> waker);

  /// A context for event callbacks of the coming frame, recording into `changes`. O(1).
  /// Re-entry: anywhere (inside a frame, its changes join the frame's only if applied).
  CallbackContext context(ChangeSet& changes);

  /// Runs the timers due at `frame_start` and records what they ask for in `changes`.
  /// Cost: O(due timers + animation timers), independent of idle timers.
  /// Errors (recorded in `changes`, reported by apply): a frame_start earlier than the last one
  /// (or, before the first frame, than the runtime's origin) is clamped to it
  /// (clock_went_backwards); one of another clock kind runs nothing (clock_mismatch).
  /// Re-entry: inside a frame or inside apply() it runs nothing (reentrant_call).
  void run_timers(Instant frame_start, ChangeSet& changes);
  /// Sends the frame's Tick to every thread and delivers the messages workers sent, within the
  /// per-frame budgets: write-backs run here, on the UI thread; takes each thread's newest
  /// progress value. A thread that finished, once all it sent is delivered, gets its finish
  /// callback (ThreadOutcome) and is removed. Cost: O(1) when no worker posted and none waits
  /// for ticks; else O(threads + messages delivered). Errors: as run_timers (recorded in `changes`).
  /// Re-entry: inside a frame or inside apply() it delivers nothing (reentrant_call).
  void run_threads(ChangeSet& changes);
  /// Applies a frame's changes in order. Cost: O(changes).
  /// From inside a timer callback or a write-back the changes are not applied here: they join
  /// the running frame's change-set (report.deferred counts them) and the frame's own apply()
  /// carries them out and reports their failures. While the runtime is destroyed: nothing is
  /// applied; one `closed` failure says how many changes were dropped.
  /// Re-entry: handed on inside a frame; anywhere else at once (also from a destructor that
  /// apply() itself set off).
  ApplyReport apply(ChangeSet changes);
  /// One whole frame: run_timers(frame_start), run_threads() and apply(). Returns what apply()
  /// returned. Re-entry: inside a frame it runs nothing and hands on the two reentrant_call
  /// failures; inside apply() it runs nothing and returns them.
  ApplyReport poll(Instant frame_start);

  /// How long the loop may sleep from `now`: nullopt when nothing is scheduled (wait for
  /// events; a worker's post wakes the loop through the waker), zero when something is already
  /// due or worker messages wait. With a source that stepped back behind the last frame, a
  /// frame now starts at the last frame's instant: what is due by then is due now, and
  /// animation frames come a frame interval after `now`. Cost: O(1) amortized.
  /// Re-entry: anywhere.
  std::optional<Duration> next_wake(Instant now);
  /// next_wake() from the time source's now(). Re-entry: anywhere.
  std::optional<Duration> next_wake();
  /// The instant of the next wake-up, or nullopt. Drives ManualClock::run_until_idle().
  /// Re-entry: anywhere.
  std::optional<Instant> next_due();

 private:
  friend class CallbackContext;
  /// The one path of every timer and thread change made through the runtime or a context:
  /// refused (another thread; the runtime is being destroyed), recorded in a pending set
  /// (`context_set`, or for the runtime's own calls the running frame's while callbacks run;
  /// checked against the tables and that set now), or carried out now exactly as apply()
  /// carries it out.
  Status submit(Change change, ChangeSet* context_set);
  void* thread_data(ThreadId id, const std::type_info& type);
  const detail::ProgressValue* progress_value(ThreadId id) const;
  Status stop_thread(ThreadId id, ChangeSet* pending);
  /// True when `pending` starts a thread `id` that is not running yet (or replaces one whose
  /// finish callback runs).
  bool waits_to_start(ThreadId id, const ChangeSet* pending) const;
  /// Calls `op` for each timer of `owner`: the live ones, and those `pending` adds.
  template <class Op>
  Result<std::size_t> each_timer_of(WidgetId owner, ChangeSet* pending, Op op);
  Status send_to_thread(ThreadId id, Payload payload, ChangeSet* pending);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cadence
