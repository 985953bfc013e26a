// cadence/controls.hpp: the changes a window's timers and threads take, declared once.
//
// WindowRuntime and CallbackContext are both Controls: the same calls, with the same rules. The
// one difference is where a change goes while a frame runs its callbacks ("inside a frame"):
// - through a callback's context or the runtime: into the running frame's change-set. It is
//   checked at once (a bad timer or a taken id is an error now) and carried out when the
//   frame's changes are applied, so a timer added there never runs in the frame that added it.
//   A removal also stops its timer at once (it does not run later in that frame).
// - through a context of the app's own (WindowRuntime::context() with a set the app applies
//   later): into that set, carried out, removals included, when it is applied; a set dropped
//   unapplied leaves no trace. It is checked now against the tables and the set, and inside a
//   frame also against the frame's changes, which it comes after (apply() hands it on to them).
//   A timer whose removal such a set holds may still run before it is applied; when that is its
//   last run, its end does not remove a timer the set adds again under its id.
// Outside a frame the runtime carries a change out at once.
//
// Timer ids: app timers use ids >= 0x0100 (TimerId::unique()), system timers 0x0001-0x00FF.
//
// For every member, unless its own lines say otherwise:
// Thread: the UI thread (the runtime's maker); elsewhere `wrong_thread`, no change.
// Where: anywhere, destructors of captured callbacks included; while the runtime is destroyed
// a change is refused with `closed`, no change.
#pragma once

#include <cstddef>

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

class CADENCE_RUNTIME_API Controls {
 public:
  Controls(const Controls&) = delete;
  Controls& operator=(const Controls&) = delete;

  /// Adds an app timer, due `timer`'s delay from now.
  /// Where: inside a frame, recorded (see above).
  /// Errors: invalid_argument (id 0, a system id, bad knobs: Timer::validate); already_exists.
  /// Cost: O(1) on the wheel, O(log n) on the heap; after an idle, first the moves of far timers
  /// that the next frame would make (amortized O(1) each), so that next_wake() is exact.
  Status add_timer(TimerId id, Timer timer);
  /// Adds a system timer. Errors, cost: as add_timer, with the id rule reversed (and no
  /// when-hidden policy: system timers pause while hidden).
  Status add_system_timer(TimerId id, Timer timer);
  /// Starts `timer` under `id`, first removing the timer that has the id (running or paused),
  /// like uv_timer_start on a running timer. An id from 0x0001 to 0x00FF names a system timer.
  /// Where: inside a frame, recorded: the old timer stops at once, the new one is added with the
  /// frame's changes.
  /// Errors: invalid_argument, as add_timer (nothing changes: the old timer keeps running);
  /// already_exists only if the old timer's destructor added one under the same id.
  /// Cost: remove_timer plus add_timer.
  Status replace_timer(TimerId id, Timer timer);
  /// Removes a timer; one this set adds is simply not added. A callback may remove itself.
  /// Where: inside a frame the timer stops at once and is removed when the changes are applied.
  /// Errors: not_found (no live timer with that id, or this set removes it already).
  /// Cost: O(1).
  Status remove_timer(TimerId id);
  /// Pauses a timer, keeping the time left to its next run and to its timeout; a paused one
  /// stays paused. Where: inside a frame, recorded. Errors: not_found. Cost: O(1).
  Status pause_timer(TimerId id);
  /// Resumes a paused timer with the time it had left; a running one keeps running.
  /// Where: inside a frame, recorded. Errors: not_found. Cost: as add_timer.
  Status resume_timer(TimerId id);
  /// Every timer of a widget (Timer::with_owner) at once, as the single-timer call would do each:
  /// the live ones, and inside a frame or a context's set also those it adds. Returns how many
  /// (0 for an owner without timers: not an error).
  /// Errors: wrong_thread, closed. Cost: O(timers of the owner + changes of the set).
  Result<std::size_t> remove_timers_of(WidgetId owner);
  Result<std::size_t> pause_timers_of(WidgetId owner);
  Result<std::size_t> resume_timers_of(WidgetId owner);
  /// True for a live timer not stopped in this frame (a removal waiting in an app's own set
  /// does not count). Thread: elsewhere false. Cost: O(1).
  bool has_timer(TimerId id) const;

  /// Starts a background thread; its worker's first Tick comes with the first frame after this
  /// call. Where: inside a frame, recorded.
  /// Errors: invalid_argument (id 0, a reserved id 1-4, a Thread moved from); already_exists;
  /// resource when the system refuses a thread. Cost: one std::thread.
  Status start_thread(ThreadId id, Thread thread);
  /// Asks a thread to stop: its worker sees Terminate and its stop_token; what it sends until
  /// it returns is still delivered, and it is removed once it has finished. A thread whose start
  /// waits in the set gets the request right after it starts.
  /// Where: at once, anywhere. Errors: not_found. Cost: O(1), O(changes) for a waiting start.
  Status stop_thread(ThreadId id);
  /// Sends a Custom message to a thread (one whose start waits gets it right after it starts).
  /// Where: at once, anywhere. Errors: not_found; closed when the worker has finished (nothing
  /// is sent). Cost: O(1) amortized, O(changes) for a waiting start.
  Status send_to_thread(ThreadId id, Payload payload);
  /// True from start_thread() on (applied, or waiting in the running frame's or this context's
  /// set) until the thread is removed, after the finish callbacks of the frame its outcome came
  /// in. Thread: elsewhere false. Cost: O(1).
  bool has_thread(ThreadId id) const;

  /// Asks for a frame at or after `at` that redraws: next_wake() counts it, exactly, and the
  /// first frame whose start reaches it reports a redraw (ApplyReport::redraws_came). Requests
  /// coalesce to the soonest. A callback that asks for its own frame's instant (or an earlier
  /// one) gets that frame, not another: a timer callback, a write-back, and a window's draw code,
  /// whose frame is the one it draws (WindowRuntime::set_drawing); other requests stay as they
  /// were. Later by a nanosecond, it is the next frame. The end of the timeline counts as one
  /// nanosecond before it.
  /// Where: at once, anywhere. Errors: clock_mismatch (another clock's instant; no change);
  /// wrong_thread, closed (off the UI thread use WindowRuntime::redraw_handle()).
  /// Cost: O(1); allocates only an error's message.
  Status request_redraw_at(Instant at);
  /// The same, `delay` from now (<= 0: now, which is the running frame's instant while the clock
  /// has not moved since it started); "now" never goes before an instant the runtime has used.
  /// Errors, cost: as request_redraw_at.
  Status request_redraw_after(Duration delay);

 protected:
  /// `set`: the change-set a context records into; nullptr for the runtime itself.
  Controls(WindowRuntime& runtime, ChangeSet* set) noexcept : runtime_(runtime), set_(set) {}
  ~Controls() = default;

 private:
  /// Calls `op` for each timer of `owner`: the live ones, and those the pending set adds.
  template <class Op>
  Result<std::size_t> each_timer_of(WidgetId owner, Op op);
  WindowRuntime& runtime_;
  ChangeSet* set_;
};

}  // namespace cadence
