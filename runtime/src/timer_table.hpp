// TimerTable: the timers of one runtime and what they do when due. WindowRuntime owns one and
// adds the frame rules around it (contexts, change-sets, the clock). When each timer is due, to
// the nanosecond, is its DueQueue's (due_queue.hpp): the table speaks to it in instants and
// slots. Timers with slack are placed on their slack grid. Private to the library.
//
// Thread: the runtime's. Re-entry: run() calls timer callbacks, which reach the table only
// through `changes` (and stop(), which marks a timer and touches no list); nothing is freed
// while run() walks its timers.
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "cadence/change_set.hpp"
#include "cadence/export.hpp"
#include "cadence/timer.hpp"
#include "cadence/timer_status.hpp"
#include "cadence/window_runtime.hpp"
#include "due_queue.hpp"

namespace cadence::detail {

// ---- TimerSlots: one TimerSlot per timer, found by id and by owner, reused once freed. It calls
// no code of the caller's: release() hands the timer back for the caller to destroy.

enum class SlotState : std::uint8_t { free, scheduled, animating, paused };

/// When a timer runs next and when it ends.
struct SlotTimes {
  Instant due;                     ///< its next due time, before slack (while scheduled)
  std::optional<Instant> expires;  ///< created + timeout, moved on by pauses
};

/// What a paused timer had left, and why it paused. Meaningful in SlotState::paused.
struct SlotPause {
  Duration to_due{0};
  Duration to_expiry{0};
  bool every_frame = false;  ///< it resumes as an animation timer
  bool by_hiding = false;    ///< the window's hiding paused it: showing the window resumes it
};

/// What a timer has done so far; TimerStatus reports it.
struct SlotHistory {
  Instant created;
  std::optional<Instant> last_run;
  std::uint64_t run_count = 0;
  std::uint64_t last_frame = 0;  ///< the table's frame number of its last run
  TimerLateness lateness;
};

struct TimerSlot {
  TimerId id;
  std::optional<Timer> timer;   ///< empty while free
  SlotState state = SlotState::free;
  bool stopped = false;         ///< it runs no more; its removal is pending
  std::uint32_t generation = 0; ///< bumped when freed or paused: older animation entries are stale
  std::uint64_t order = 0;      ///< its place among the table's adds: ties run in this order
  SlotTimes times;
  SlotPause pause;
  SlotHistory history;
};

class TimerSlots {
 public:
  /// A slot for `id`, registered under its owner if it has one; `timer` moves in. O(1) amortized.
  std::uint32_t allocate(TimerId id, Timer timer);
  /// Frees slot `i` and hands back its timer, for the caller to destroy once the table is
  /// consistent again. O(timers of its owner).
  [[nodiscard]] std::optional<Timer> release(std::uint32_t i);

  TimerSlot* find(TimerId id);
  const TimerSlot* find(TimerId id) const;
  std::uint32_t index_of(const TimerSlot& s) const { return static_cast<std::uint32_t>(&s - slots_.data()); }
  TimerSlot& operator[](std::uint32_t i) { return slots_[i]; }
  const TimerSlot& operator[](std::uint32_t i) const { return slots_[i]; }
  /// Slots ever used, free ones included: indices run from 0 to capacity() - 1.
  std::uint32_t capacity() const noexcept { return static_cast<std::uint32_t>(slots_.size()); }
  /// Live timers.
  std::size_t size() const noexcept { return index_.size(); }
  bool contains(TimerId id) const { return index_.contains(id); }
  /// The live timers with that owner, in no particular order. O(timers of the owner).
  std::vector<TimerId> timers_of(WidgetId owner) const;

 private:
  std::vector<TimerSlot> slots_;
  std::vector<std::uint32_t> free_;
  std::unordered_map<TimerId, std::uint32_t> index_;
  std::unordered_map<std::uint64_t, std::vector<TimerId>> owners_;  // WidgetId value -> its timers
};

/// The error for a timer id the window does not have (nor adds in the change-set at hand).
Error no_such_timer(TimerId id);

/// Exported from a shared build for the library's own tests only; not part of the API.
class CADENCE_RUNTIME_API TimerTable {
 public:
  TimerTable(Instant origin, QueueKind kind);

  /// Adds a timer created at `created`. Errors: already_exists; the knobs were checked before.
  Status add(TimerId id, Timer timer, Instant created);
  Status remove(TimerId id);
  /// Removes every timer and hands them back, for the caller to destroy once done with the
  /// table (their callbacks' destructors are app code). O(timers).
  [[nodiscard]] std::vector<Timer> release_all();
  Status pause(TimerId id, Instant at);
  Status resume(TimerId id, Instant at);
  /// Marks a live timer as stopped: it will not run again; its removal is pending. False when
  /// there is no live, unstopped timer with that id.
  bool stop(TimerId id);
  /// True for a live timer that is not stopped.
  bool has_running(TimerId id) const;
  /// The window was hidden (true) or shown again: timers follow their WhenHidden policy
  /// (system timers pause). O(timers).
  void set_hidden(bool hidden, Instant at);
  bool hidden() const noexcept { return hidden_; }
  /// What the table knows of a timer, its time left counted from `now`.
  std::optional<TimerStatus> status(TimerId id, Instant now) const;
  /// The live timers with that owner (stopped ones included), in no particular order.
  /// O(timers of the owner).
  std::vector<TimerId> timers_of(WidgetId owner) const { return slots_.timers_of(owner); }
  std::size_t size() const noexcept { return slots_.size(); }
  /// Timers in the due queue's short list (for tests). O(1).
  std::size_t held_size() const noexcept { return due_.held_size(); }

  /// Runs the timers due at `frame_start`; what they ask for goes to `changes`.
  void run(Instant frame_start, CallbackContext& context, ChangeSet& changes);
  /// The instant the next timer is due at (animation timers aside: they run on every frame,
  /// see animating()); nullopt when none is. O(1) amortized.
  std::optional<Instant> next_timer_due();
  /// Whether an animation timer runs: the loop then wakes at the frame interval. O(1).
  bool animating() const noexcept { return animating_ > 0; }

 private:
  /// An animation timer in the every-frame list, which may outlive it: valid while the slot's
  /// generation matches. The list is sorted by `order` (the order the timers were added).
  struct AnimationRef {
    std::uint32_t slot;
    std::uint32_t generation;
    std::uint64_t order;
  };

  /// Files slot `i` for `due` (or its expiry, if sooner) in the due queue, held back while the
  /// window's throttle holds it (throttle_hold).
  void enqueue(std::uint32_t i, Instant due);
  /// Puts slot `i` in the every-frame list, at its place in the order timers were added.
  void start_animating(std::uint32_t i);
  /// Frees slot `i` and hands back its timer, for the caller to destroy last (its callback's
  /// destructor is app code that may call the runtime again).
  [[nodiscard]] std::optional<Timer> free_slot(std::uint32_t i);
  /// While the window is hidden, a throttled timer that has run may not run again before a
  /// period after its last run: that instant (its last run, at its expiry, is not held back:
  /// queue_target() caps the hold there). nullopt when nothing holds it.
  std::optional<Instant> throttle_hold(const TimerSlot& s) const;

  /// Runs the callback once. False when the timer must not go on (it stopped, threw or ended).
  bool invoke(TimerSlot& s, Instant frame_start, Instant due, bool last, std::uint64_t missed,
              CallbackContext& context, ChangeSet& changes);
  void run_due(std::uint32_t i, Instant frame_start, CallbackContext& context, ChangeSet& changes);
  void run_animation(std::uint32_t i, Instant frame_start, CallbackContext& context, ChangeSet& changes);

  DueQueue due_;
  TimerSlots slots_;
  std::vector<AnimationRef> animations_;  // sorted by order; stale entries dropped by run()
  std::size_t animating_ = 0;             // slots in SlotState::animating
  std::uint64_t frame_ = 0;               // frames run
  std::uint64_t added_ = 0;               // adds so far: the next timer's `order`
  bool hidden_ = false;                   // the window is minimized or hidden
};

}  // namespace cadence::detail
