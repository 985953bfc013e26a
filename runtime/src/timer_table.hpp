// TimerTable: the timers of one runtime, their schedule and their queue. WindowRuntime owns one
// and adds the frame rules around it (contexts, change-sets, the clock). Private to the library.
//
// Time is kept as Instants; the queue works in whole milliseconds from `origin`. A timer due at
// instant D goes into the queue at tick floor(D). When the queue fires that tick, a timer whose
// D is still ahead of frame_start waits in a short list (due_now_) for D itself; next_due()
// asks the queue for the timers of its next tick and returns the earliest D among them. So a
// timer runs at the first frame at or after D, exactly, and one wake-up serves it. Timers with
// slack are rounded up to their slack grid instead.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "cadence/change_set.hpp"
#include "cadence/timer.hpp"
#include "cadence/timer_queue.hpp"
#include "cadence/window_runtime.hpp"

namespace cadence::detail {

class TimerTable {
 public:
  TimerTable(Instant origin, QueueKind kind);

  /// Adds a timer created at `created`. Errors: already_exists; the knobs were checked before.
  Status add(TimerId id, Timer timer, Instant created);
  Status remove(TimerId id);
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
  std::vector<TimerId> timers_of(WidgetId owner) const;
  std::size_t size() const noexcept { return index_.size(); }

  /// Runs the timers due at `frame_start`; what they ask for goes to `changes`.
  void run(Instant frame_start, CallbackContext& context, ChangeSet& changes);
  /// When the next timer is due, given the frame interval for animation timers and the start of
  /// the last frame; nullopt when nothing is scheduled.
  std::optional<Instant> next_due(Duration frame_interval, std::optional<Instant> last_frame);

 private:
  enum class State : std::uint8_t { free, scheduled, animating, paused };
  struct Slot {
    TimerId id;
    std::optional<Timer> timer;
    Instant created;
    Instant due;                       // next due time (before slack), while scheduled
    Instant exact;                     // when it is queued for: due, expiry or the slack grid
    std::optional<Instant> expires;    // created + timeout, shifted by pauses
    std::optional<Instant> last_run;
    std::uint64_t run_count = 0;
    QueueId queued{};                  // the queue entry, 0 when none
    std::uint64_t last_frame = 0;      // frame number of its last run
    std::uint32_t generation = 0;      // bumped when the slot is freed
    Duration left_to_due{0};           // while paused
    Duration left_to_expiry{0};        // while paused
    State state = State::free;
    bool stopped = false;
    bool paused_every_frame = false;   // resume as an animation timer
    std::uint64_t hold = 0;            // waiting in due_now_ for `exact`: its entry's serial; 0: not
    std::uint64_t order = 0;           // when it was added, among this table's adds: breaks ties
    TimerLateness lateness;
    bool hidden_paused = false;        // paused by set_hidden(true): resumed when shown
  };
  /// An animation timer in the every-frame list, which may outlive it: valid while the
  /// generation matches. The list is sorted by `order` (the order the timers were added).
  struct AnimationRef {
    std::uint32_t slot;
    std::uint32_t generation;
    std::uint64_t order;
  };

  std::int64_t tick_floor(Instant t) const;
  std::int64_t tick_ceil(Instant t) const;
  Instant instant_of(std::int64_t tick) const;

  /// Queues slot `i` for its due time (or its expiry, if sooner), aligned up for slack; not
  /// before `not_before` (a throttled timer), though its expiry still comes first.
  void enqueue(std::uint32_t i, Instant due, std::optional<Instant> not_before = std::nullopt);
  /// Whether a hidden window's throttle holds slot `s` back at `frame_start`: the instant it may
  /// run again, or nullopt.
  std::optional<Instant> throttled_until(const Slot& s, Instant frame_start) const;
  /// Puts slot `i` in the short list, to run at the first frame at or after its `exact`.
  void hold(std::uint32_t i);
  void dequeue(Slot& s);
  /// Puts slot `i` in the every-frame list, at its place in the order timers were added.
  void start_animating(std::uint32_t i);
  /// The exact instant of the queue's next timer (cached until the queue changes).
  std::optional<Instant> queue_next_exact();
  /// Frees slot `i` and hands back its timer, for the caller to destroy once it is done with
  /// the table: destroying a callback runs app code (a capture's destructor) that may call the
  /// runtime again, so it must be the last thing done to a slot.
  [[nodiscard]] std::optional<Timer> free_slot(std::uint32_t i);
  Slot* find(TimerId id);
  const Slot* find(TimerId id) const;
  /// Runs the callback once. False when the timer must not go on (it stopped, threw or ended).
  bool invoke(Slot& s, Instant frame_start, Instant due, bool last, std::uint64_t missed, CallbackContext& context,
              ChangeSet& changes);
  /// Ends a timer whose callback threw: its removal and the report go to `changes`.
  void fail(Slot& s, std::string message, ChangeSet& changes);
  void run_due(std::uint32_t i, Instant frame_start, CallbackContext& context, ChangeSet& changes);
  void run_animation(std::uint32_t i, Instant frame_start, CallbackContext& context, ChangeSet& changes);
  void run_one(std::uint32_t i, Instant frame_start, CallbackContext& context, ChangeSet& changes);

  Instant origin_;
  // The last tick a frame can reach: the end of the timeline, or of the span a Duration covers
  // from the origin.
  std::int64_t last_tick_;
  std::unique_ptr<TimerQueue> queue_;
  std::vector<Slot> slots_;
  std::vector<std::uint32_t> free_;
  std::unordered_map<TimerId, std::uint32_t> index_;
  std::unordered_map<std::uint64_t, std::vector<TimerId>> owners_;  // WidgetId value -> its timers
  std::vector<AnimationRef> animations_;  // in the order they were added
  std::size_t animating_ = 0;        // slots in State::animating
  // The short list: timers due within the queue's current millisecond (the queue never fires
  // in its current tick) or overdue when queued; each runs at the first frame at or after its
  // exact instant. A handful of entries.
  // Entries go stale when their timer leaves the list (run, paused, removed); only the one whose
  // serial matches the slot's counts, so a timer held again has exactly one live entry.
  struct HeldRef {
    std::uint32_t slot;
    std::uint64_t hold;
  };
  /// Marks slot `i` as waiting in the short list and returns its new live entry (which the
  /// caller files: in due_now_, or in this frame's list).
  HeldRef mark_held(std::uint32_t i);
  std::vector<HeldRef> due_now_;
  std::uint64_t holds_ = 0;          // serials handed out
  // The exact instant of the queue's next tick, valid while queue_version_ matches.
  static constexpr std::size_t kPeekMax = 64;
  static constexpr std::int64_t kRetryTicks = 1024;  // retry an unlisted next tick this close
  struct NextExact {
    std::uint64_t version = ~std::uint64_t{0};
    std::int64_t tick = 0;       // the queue's next tick
    std::int64_t queue_now = 0;  // the queue's now() when computed
    bool listed = false;         // false: the queue could not list the tick's timers
    Instant at;
  };
  std::uint64_t queue_version_ = 0;  // bumped on every schedule, cancel and firing advance
  NextExact next_exact_;
  std::vector<Token> peek_scratch_;
  std::vector<Token> fired_;         // scratch for the queue's output
  std::vector<HeldRef> due_scratch_;
  /// True while `ref` is the live entry of a timer waiting in the short list.
  bool held(HeldRef ref) const { return slots_[ref.slot].hold == ref.hold; }
  /// Sorts this frame's due timers by exact instant, ties in the order they were added.
  void sort_by_exact(std::vector<HeldRef>& due) const;
  std::uint64_t frame_ = 0;
  std::uint64_t added_ = 0;          // adds so far: the next timer's `order`
  bool hidden_ = false;              // the window is minimized or hidden
};

}  // namespace cadence::detail
