// cadence/change_set.hpp: the one type every callback source emits.
//
// Event callbacks, timer callbacks and background-thread write-backs all describe what they want
// changed in a ChangeSet: timers to add, remove, pause or resume, threads to start, failures to
// report, and whether to redraw. WindowRuntime::apply() carries out a set's changes in order. A
// window applies one set per frame for its timers and threads (and the event callbacks before
// them), and in a frame it draws a second one, with what its draw function asked for
// (window.hpp, "Order within a frame").
//
//     #include <cadence/window_runtime.hpp>
//     using namespace cadence;
//     WindowRuntime runtime(TimeSource::system());
//     void on_frame(CallbackContext& events);          // the app's event handlers
//     void render();
//     ChangeSet changes;
//     CallbackContext events = runtime.context(changes);
//     on_frame(events);                                // event callbacks
//     runtime.run_timers(runtime.now(), changes);      // due timers
//     runtime.run_threads(changes);                    // workers' messages
//     ApplyReport report = runtime.apply(std::move(changes));
//     if (report.update != Update::nothing) render();
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <variant>
#include <vector>

#include "cadence/ids.hpp"
#include "cadence/payload.hpp"
#include "cadence/result.hpp"
#include "cadence/thread.hpp"
#include "cadence/timer.hpp"

namespace cadence {

class WindowRuntime;

struct AddTimer {
  TimerId id;
  Timer timer;
  bool system = false;   ///< a system timer (reserved id range)
  bool checked = false;  ///< checked when recorded (by a context or the runtime): apply() does not check it again
};
struct RemoveTimer {
  TimerId id;
};
struct PauseTimer {
  TimerId id;
};
struct ResumeTimer {
  TimerId id;
};
/// A timer's callback threw. Reported by apply(); the timer's removal is a RemoveTimer queued
/// before it (or the callback's own, if it removed or restarted itself), so a timer the callback
/// added again under the same id is not touched.
struct TimerFailed {
  TimerId id;
  std::string message;
};
/// Starts a background thread when the frame's changes are applied; then sends it the messages
/// and the stop request made while its start waited.
struct StartThread {
  ThreadId id;
  Thread thread;
  std::vector<Payload> messages;  ///< send_to_thread() calls made before the start was applied
  bool stop = false;              ///< stop_thread() was called before the start was applied
  bool checked = false;           ///< checked when recorded: apply() does not check it again
};
/// A worker threw (it is removed once its messages are delivered), or one of its write-backs
/// threw on the UI thread (the worker goes on).
struct ThreadFailed {
  ThreadId id;
  Error error;
};
/// Something about the frame itself went wrong (the clock stepped back, an instant of another
/// clock, a re-entrant call); reported by apply(), changes nothing.
struct FrameError {
  Error error;
};

using Change = std::variant<AddTimer, RemoveTimer, PauseTimer, ResumeTimer, TimerFailed, StartThread, ThreadFailed,
                            FrameError>;

/// A frame's changes, in the order they were recorded. Destroyed unapplied, it destroys the
/// timers and threads it holds, whose captures' destructors may call the runtime.
/// For every member: Thread: the UI thread, which owns it (a plain value; not checked).
/// Where: anywhere; it calls no code but the destructors of what it holds.
/// Errors: none.
/// Cost: O(1) (amortized for the records).
class ChangeSet {
 public:
  ChangeSet() = default;
  /// Moves the changes, the redraw request and the counts; the set moved from is left empty
  /// (applying it, or appending it, adds nothing). Cost: O(1).
  ChangeSet(ChangeSet&& other) noexcept { take(other); }
  /// As the move constructor; the changes this set held are destroyed. Cost: O(changes held).
  ChangeSet& operator=(ChangeSet&& other) noexcept {
    if (this != &other) take(other);
    return *this;
  }

  /// Records the change; nothing is checked until apply() (a CallbackContext checks first).
  void add_timer(TimerId id, Timer timer, bool system = false) {
    changes_.emplace_back(AddTimer{id, std::move(timer), system, false});
    pending_[id] |= kAdds;
  }
  void remove_timer(TimerId id) {
    changes_.emplace_back(RemoveTimer{id});
    note_remove(id);
  }
  void pause_timer(TimerId id) { changes_.emplace_back(PauseTimer{id}); }
  void resume_timer(TimerId id) { changes_.emplace_back(ResumeTimer{id}); }
  void timer_failed(TimerId id, std::string message) { changes_.emplace_back(TimerFailed{id, std::move(message)}); }
  void frame_error(Error error) { changes_.emplace_back(FrameError{std::move(error)}); }
  void start_thread(ThreadId id, Thread thread) {
    changes_.emplace_back(StartThread{id, std::move(thread), {}, false, false});
    pending_threads_.insert(id);
  }
  void thread_failed(ThreadId id, Error error) { changes_.emplace_back(ThreadFailed{id, std::move(error)}); }
  /// True when this set starts a thread with that id.
  bool starts_thread(ThreadId id) const { return pending_threads_.contains(id); }
  /// For a thread this set starts: records a stop request (`stop`) or a message for it, carried
  /// out right after its start. False when this set starts no thread with that id.
  /// Cost: O(changes).
  bool to_started_thread(ThreadId id, bool stop, Payload* message) {
    if (!starts_thread(id)) return false;
    for (Change& c : changes_) {
      auto* start = std::get_if<StartThread>(&c);
      if (start == nullptr || start->id != id) continue;
      if (stop) start->stop = true;
      if (message != nullptr) start->messages.push_back(std::move(*message));
      return true;
    }
    return false;
  }
  /// True when this set adds a timer with that id (and does not remove it again).
  bool adds_timer(TimerId id) const { return has(id, kAdds); }
  /// The timers this set adds (and does not remove again) whose owner is `owner`.
  /// Cost: O(changes).
  std::vector<TimerId> timers_added_by(WidgetId owner) const {
    std::vector<TimerId> ids;
    for (const Change& c : changes_) {
      const auto* add = std::get_if<AddTimer>(&c);
      if (add != nullptr && add->timer.owner() == owner && adds_timer(add->id)) ids.push_back(add->id);
    }
    return ids;
  }
  /// True when this set removes the timer that has that id now (not one it adds itself).
  bool removes_timer(TimerId id) const { return has(id, kRemoves); }
  /// Asks for a redraw (the largest request of the frame wins).
  void request(Update update) noexcept { update_ = merge(update_, update); }
  /// Counts what the frame ran into this set (the runtime's tables do; apply() reports it):
  /// timer callbacks, and worker messages delivered (write-backs, updates, progress values,
  /// finish callbacks).
  void count_ran(std::size_t timers, std::size_t thread_messages) noexcept {
    timers_run_ += timers;
    thread_messages_ += thread_messages;
  }
  /// The frame reached the instant a redraw was asked for at (the runtime does this, once or
  /// twice a frame: before the callbacks and after them): a redraw, noted apart from timers and
  /// messages, once per set.
  void redraw_came() noexcept {
    request(Update::redraw_window);
    redraws_came_ = 1;
  }
  /// Moves every change of `later` to the end of this set, in order, and merges its redraw
  /// request. `later` is left empty.
  /// Cost: O(changes moved).
  void append(ChangeSet&& later) {
    for (Change& c : later.changes_) {
      if (const auto* add = std::get_if<AddTimer>(&c)) pending_[add->id] |= kAdds;
      if (const auto* remove = std::get_if<RemoveTimer>(&c)) note_remove(remove->id);
      if (const auto* start = std::get_if<StartThread>(&c)) pending_threads_.insert(start->id);
      changes_.push_back(std::move(c));
    }
    request(later.update_);
    count_ran(later.timers_run_, later.thread_messages_);
    redraws_came_ = std::max(redraws_came_, later.redraws_came_);
    later = ChangeSet{};
  }

  /// The changes recorded, in order. To read: only apply() takes them out.
  const std::vector<Change>& changes() const noexcept { return changes_; }
  Update update() const noexcept { return update_; }
  bool empty() const noexcept { return changes_.empty() && update_ == Update::nothing; }

 private:
  friend class WindowRuntime;  // apply() moves the changes out; checked() marks what it checked
  /// Marks the change recorded last as checked (an AddTimer or StartThread).
  void checked() noexcept {
    std::visit(
        [](auto& c) {
          if constexpr (requires { c.checked; }) c.checked = true;
        },
        changes_.back());
  }
  /// Takes everything `other` holds, leaving it empty; what this set held is destroyed.
  void take(ChangeSet& other) noexcept {
    changes_.swap(other.changes_);
    pending_.swap(other.pending_);
    pending_threads_.swap(other.pending_threads_);
    update_ = std::exchange(other.update_, Update::nothing);
    timers_run_ = std::exchange(other.timers_run_, 0);
    thread_messages_ = std::exchange(other.thread_messages_, 0);
    redraws_came_ = std::exchange(other.redraws_came_, 0);
    // What this set held before goes with `other`'s clear. A moved-to set held nothing: the
    // checks spare the hash tables' clear() (a memset of their buckets) on every frame's move.
    other.changes_.clear();
    if (!other.pending_.empty()) other.pending_.clear();
    if (!other.pending_threads_.empty()) other.pending_threads_.clear();
  }
  // A removal cancels an add of this set, or else removes the timer that has the id now.
  void note_remove(TimerId id) {
    std::uint8_t& flags = pending_[id];
    if ((flags & kAdds) != 0) {
      flags = static_cast<std::uint8_t>(flags & ~kAdds);
    } else {
      flags |= kRemoves;
    }
  }
  std::vector<Change> changes_;
  bool has(TimerId id, std::uint8_t flag) const {
    const auto it = pending_.find(id);
    return it != pending_.end() && (it->second & flag) != 0;
  }
  // Per timer id this set touches: whether it adds a timer under it (and does not remove that
  // again), and whether it removes the timer that has the id now: one map for both flags.
  static constexpr std::uint8_t kAdds = 1;
  static constexpr std::uint8_t kRemoves = 2;
  std::unordered_map<TimerId, std::uint8_t> pending_;
  std::unordered_set<ThreadId> pending_threads_;
  Update update_ = Update::nothing;
  std::size_t timers_run_ = 0;
  std::size_t thread_messages_ = 0;
  std::size_t redraws_came_ = 0;
};

/// Something that went wrong in a frame: a callback or worker that threw, a change that was
/// refused, a clock that stepped back. `timer` or `thread` names what it concerns (0 when none).
struct Failure {
  TimerId timer;
  Error error;
  ThreadId thread{};
};

/// What apply() did.
struct ApplyReport {
  Update update = Update::nothing;  ///< the largest redraw request of the frame
  std::size_t applied = 0;          ///< changes carried out
  /// Changes handed on to the running frame instead (apply() called from inside a timer
  /// callback or a write-back): the frame's own apply() carries them out and reports them.
  std::size_t deferred = 0;
  std::vector<Failure> failures;    ///< in the order they happened
  /// What the frame ran (run_timers() and run_threads() into this set): timer callbacks, and
  /// worker messages delivered (write-backs, updates, progress values, finish callbacks).
  std::size_t timers_run = 0;
  std::size_t thread_messages = 0;
  /// 1 when the frame reached an instant a redraw was asked for at (request_redraw_at): it
  /// asks for a redraw; else 0.
  std::size_t redraws_came = 0;
};

}  // namespace cadence
