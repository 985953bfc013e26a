// cadence/change_set.hpp: the one type every callback source emits.
//
// Event callbacks, timer callbacks and background-thread write-backs all describe what they want
// changed in a ChangeSet: timers to add, remove, pause or resume, threads to start or stop,
// failures to report, and whether to redraw. The window applies one ChangeSet per frame, in
// order, with WindowRuntime::apply().
//
//     ChangeSet changes;
//     app.on_frame(runtime.context(changes));          // event callbacks
//     runtime.run_timers(frame_start, changes);        // due timers
//     ApplyReport report = runtime.apply(std::move(changes));
//     if (report.update != Update::nothing) render();
//
// Thread: a ChangeSet is a plain value owned by the UI thread.
#pragma once

#include <string>
#include <unordered_set>
#include <utility>
#include <variant>
#include <vector>

#include "cadence/ids.hpp"
#include "cadence/result.hpp"
#include "cadence/timer.hpp"

namespace cadence {

struct AddTimer {
  TimerId id;
  Timer timer;
  bool system = false;  ///< a system timer (reserved id range)
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
/// A timer's callback threw; the timer is removed when the change is applied.
struct TimerFailed {
  TimerId id;
  std::string message;
};
/// Something about the frame itself went wrong (the clock stepped back, an instant of another
/// clock, a re-entrant call); reported by apply(), changes nothing.
struct FrameError {
  Error error;
};

using Change = std::variant<AddTimer, RemoveTimer, PauseTimer, ResumeTimer, TimerFailed, FrameError>;

class ChangeSet {
 public:
  /// Records the change; nothing is checked until apply() (a CallbackContext checks first).
  void add_timer(TimerId id, Timer timer, bool system = false) {
    changes_.emplace_back(AddTimer{id, std::move(timer), system});
    pending_adds_.insert(id);
  }
  void remove_timer(TimerId id) {
    changes_.emplace_back(RemoveTimer{id});
    pending_adds_.erase(id);
  }
  void pause_timer(TimerId id) { changes_.emplace_back(PauseTimer{id}); }
  void resume_timer(TimerId id) { changes_.emplace_back(ResumeTimer{id}); }
  void timer_failed(TimerId id, std::string message) { changes_.emplace_back(TimerFailed{id, std::move(message)}); }
  void frame_error(Error error) { changes_.emplace_back(FrameError{std::move(error)}); }
  /// True when this set adds a timer with that id (and does not remove it again).
  bool adds_timer(TimerId id) const { return pending_adds_.contains(id); }
  /// Asks for a redraw (the largest request of the frame wins).
  void request(Update update) noexcept { update_ = merge(update_, update); }

  const std::vector<Change>& changes() const noexcept { return changes_; }
  std::vector<Change>& changes() noexcept { return changes_; }
  Update update() const noexcept { return update_; }
  bool empty() const noexcept { return changes_.empty() && update_ == Update::nothing; }

 private:
  std::vector<Change> changes_;
  std::unordered_set<TimerId> pending_adds_;
  Update update_ = Update::nothing;
};

/// Something that went wrong in a frame: a callback that threw, a change that was refused, a
/// clock that stepped back. `timer` names the timer concerned (0 when none).
struct Failure {
  TimerId timer;
  Error error;
};

/// What apply() did.
struct ApplyReport {
  Update update = Update::nothing;  ///< the largest redraw request of the frame
  std::size_t applied = 0;          ///< changes carried out
  std::vector<Failure> failures;    ///< in the order they happened
};

}  // namespace cadence
