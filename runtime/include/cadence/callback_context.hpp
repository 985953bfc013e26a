// cadence/callback_context.hpp: what a callback may ask of its window.
//
// Every callback (an event handler, a timer, a thread's write-back) gets a CallbackContext. What
// it asks for is recorded in the frame's ChangeSet and carried out by WindowRuntime::apply()
// after every callback of the frame has run. The rules, when a callback runs inside a frame:
// - add_timer(): checked at once (a bad timer or a taken id is an error now); the timer is added
//   when the frame's changes are applied, so it never runs in the frame that added it.
// - remove_timer(): the timer stops at once: if it was due later in this same frame it does not
//   run. It is removed when the changes are applied. A callback may remove itself.
// A context of the app's own (WindowRuntime::context() with a change-set the app applies later)
// changes nothing until that set is applied: there a removal, too, waits for apply() (inside a
// frame, apply() hands the set on and its removals stop their timers then), and a set dropped
// unapplied leaves no trace.
// - pause_timer(), resume_timer(): take effect when the changes are applied.
// - request_redraw(): the largest request of the frame wins.
//
//     #include <cadence/window_runtime.hpp>
//     using namespace cadence;
//     using namespace std::chrono_literals;
//     WindowRuntime runtime(TimeSource::system());
//     (void)runtime.add_timer(TimerId::unique(), Timer::every(1s, [](TimerCallbackInfo& info) {
//       if (info.call_count == 9) (void)info.context.remove_timer(info.id);  // ten runs, then stop
//       return TimerCallbackReturn::redraw();
//     }));
//
// Thread: UI thread only. A context refers to the frame's change-set: keep it no longer than
// the callback that received it runs (like any reference argument). From another thread each
// change (not request_redraw()) is refused with `wrong_thread`; while the runtime is
// destroyed, with `closed`.
// Re-entry: a context may be used from anything its callback calls, destructors included.
#pragma once

#include "cadence/change_set.hpp"
#include "cadence/export.hpp"
#include "cadence/ids.hpp"
#include "cadence/payload.hpp"
#include "cadence/result.hpp"
#include "cadence/thread.hpp"
#include "cadence/time.hpp"
#include "cadence/timer.hpp"

namespace cadence {

class WindowRuntime;

class CADENCE_RUNTIME_API CallbackContext {
 public:
  CallbackContext(WindowRuntime& runtime, ChangeSet& changes, Instant frame_start) noexcept
      : runtime_(runtime), changes_(changes), frame_start_(frame_start) {}
  CallbackContext(const CallbackContext&) = delete;
  CallbackContext& operator=(const CallbackContext&) = delete;

  /// The instant the current frame started.
  Instant frame_start() const noexcept { return frame_start_; }

  /// Adds an app timer (id >= 0x0100) when the frame's changes are applied. O(1).
  /// Errors: invalid_argument for id 0, a reserved id (use add_system_timer) or bad knobs
  /// (Timer::validate); already_exists when a timer with that id is live or already being added.
  Status add_timer(TimerId id, Timer timer);
  /// Adds a system timer (ids 0x0001-0x00FF, used by the window layer). Errors: as add_timer,
  /// with the id rule reversed.
  Status add_system_timer(TimerId id, Timer timer);
  /// Removes a timer when the changes are applied (a callback's context also stops it now, see
  /// above); a timer this context is adding is simply not added. O(1). Errors: not_found when
  /// no live timer has that id, or this set removes it already (nothing changes).
  Status remove_timer(TimerId id);
  /// Pauses a timer, keeping the time left to its next run and to its timeout. Pausing a paused
  /// timer changes nothing. Errors: not_found.
  Status pause_timer(TimerId id);
  /// Resumes a paused timer with the time it had left. Resuming a running timer changes nothing.
  /// Errors: not_found.
  Status resume_timer(TimerId id);
  /// Removes, pauses or resumes every timer of a widget, as the calls above would each (see
  /// WindowRuntime::remove_timers_of); also those this context adds. Returns how many.
  /// Errors: wrong_thread, closed.
  Result<std::size_t> remove_timers_of(WidgetId owner);
  Result<std::size_t> pause_timers_of(WidgetId owner);
  Result<std::size_t> resume_timers_of(WidgetId owner);
  /// True when a timer with that id is live and not stopped in this frame (a removal recorded in
  /// an app's own set, not applied yet, does not count).
  bool has_timer(TimerId id) const;

  /// Starts a background thread when the frame's changes are applied. Checked at once.
  /// Errors: invalid_argument for id 0 or a reserved id (1-4); already_exists.
  Status start_thread(ThreadId id, Thread thread);
  /// Asks a thread to stop, at once (see WindowRuntime::stop_thread); a thread this context
  /// starts gets the request right after its start. Errors: not_found.
  Status stop_thread(ThreadId id);
  /// Sends a Custom message to a thread, at once. Errors: not_found; closed.
  Status send_to_thread(ThreadId id, Payload payload);
  /// True from start_thread() on (through this context or the runtime, applied or not yet)
  /// until the thread is removed.
  bool has_thread(ThreadId id) const;

  /// Asks for a redraw after this frame. It only marks the context's change-set (which its
  /// owner applies), so unlike the changes above it has no thread check. O(1).
  void request_redraw(Update update = Update::redraw_window) noexcept { changes_.request(update); }
  /// Asks for a frame that redraws at `at`, or `delay` from now: at once, through the runtime
  /// (WindowRuntime::request_redraw_at; the soonest request wins). Errors: as there.
  Status request_redraw_at(Instant at);
  Status request_redraw_after(Duration delay);

  /// The change-set it records into (record unchecked changes here; apply() checks them).
  ChangeSet& changes() noexcept { return changes_; }
  /// The runtime: direct calls follow WindowRuntime's rules (inside a frame, deferred alike).
  WindowRuntime& runtime() noexcept { return runtime_; }

 private:
  WindowRuntime& runtime_;
  ChangeSet& changes_;
  Instant frame_start_;
};

}  // namespace cadence
