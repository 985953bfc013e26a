// DueQueue: the one owner of when a timer table's timers are due, to the nanosecond. The table
// hands it slots and instants; it answers which slots are due at a frame's start, in order, and
// the exact instant the next one is due at. Private to the library.
//
// Inside, time is kept twice. A millisecond queue (the wheel or the heap, as the runtime's
// Options say: TickQueue) files each slot under the millisecond its instant falls in. When the
// queue fires that millisecond, a slot whose instant is still ahead of the frame waits in a
// short list ("held") for the instant itself: the queue never fires within its current
// millisecond, so it has nowhere else to wait. next_due() asks the queue which slots its next
// millisecond holds (the listing, cached until a change) and returns the earliest instant among
// them and the held ones. So a timer runs at the first frame at or after its instant, exactly,
// and one wake-up serves it.
//
// Thread: the runtime's. Re-entry: none; it calls no code of the caller's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <variant>
#include <vector>

#include "cadence/detail/heap_core.hpp"
#include "cadence/detail/wheel_core.hpp"
#include "cadence/export.hpp"
#include "cadence/time.hpp"
#include "cadence/timer_queue.hpp"
#include "timer_schedule.hpp"

namespace cadence::detail {

/// The millisecond queue of a DueQueue, and its listing of the next tick. Ticks are absolute
/// here (milliseconds on the DueQueue's Timeline, from 0), not delays. Exported from a shared
/// build for the library's own tests only.
class CADENCE_RUNTIME_API TickQueue {
 public:
  /// The most tokens next_tokens() lists; a busier tick is not listed.
  static constexpr std::size_t kListMax = 64;
  explicit TickQueue(QueueKind kind);

  /// Files `token` under `tick` (> now()). O(1) wheel, O(log n) heap.
  QueueId schedule(std::int64_t tick, Token token);
  /// Takes a pending entry out; a fired or cancelled one is ignored. O(1) wheel, O(log n) heap.
  void cancel(QueueId id);
  /// Moves the queue to `tick` and returns the tokens that came due, in fire order; the vector
  /// is valid until the next call. Earlier ticks leave it where it is.
  const std::vector<Token>& advance(std::int64_t tick);
  std::int64_t now() const noexcept { return now_; }
  /// The queue's next tick that holds a timer; nullopt when it is empty.
  std::optional<std::int64_t> next_tick();
  /// The tokens filed under next_tick(), in fire order, or nullptr when the queue cannot list
  /// them cheaply: more than kListMax, or still on a coarse level of the wheel (more than about
  /// 16 s away, or in a large block). Empty when the queue is. The answer is kept until a
  /// schedule, a cancel or a firing advance changes it, or (not listed) until time reaches the
  /// tick from which the queue said asking again may help. Cost: O(kListMax) when it asks again
  /// (for a block the wheel is moving down, finishing that move: at most
  /// WheelCore::kListDrainMax entries), else O(1).
  const std::vector<Token>* next_tokens();

 private:
  enum class Listing : std::uint8_t { stale, listed, unlisted };

  std::variant<WheelCore, HeapCore> queue_;
  std::vector<Token> fired_;
  std::vector<Token> next_;
  Listing listing_ = Listing::stale;
  std::int64_t ask_again_ = 0;  // not listed: from this now() the queue may list them
  std::int64_t now_ = 0;        // the queue's now(), kept here to save a dispatch
};

/// Exported from a shared build for the library's own tests only; not part of the API.
class CADENCE_RUNTIME_API DueQueue {
 public:
  using Slot = std::uint32_t;

  DueQueue(Instant origin, QueueKind kind);

  /// Files `slot` (not filed now) to be due at `at`, on its slack grid (timer_schedule.hpp's
  /// place()); `order` breaks ties between equal instants, lowest first; exact() then says
  /// the instant it is due at. O(1) wheel, O(log n) heap.
  void schedule(Slot slot, Instant at, Duration slack, std::uint64_t order);
  /// Takes `slot` out; a slot not filed is ignored. O(1) wheel, O(log n) heap, plus O(held).
  void cancel(Slot slot);
  /// The exact instant `slot` was last filed for (or recorded at): it stays while take_due()'s
  /// frame runs the slot, and until the slot is filed again. nullopt for a slot never filed.
  std::optional<Instant> exact(Slot slot) const;
  /// Records `at` as `slot`'s instant without filing it: a timer that will not run again (at
  /// the end of the timeline) but stays. The slot must not be filed. O(1).
  void record(Slot slot, Instant at);

  /// Takes out the slots due at `now` (their exact instant <= now), in exact order, ties in
  /// `order`; valid until the next call. A slot filed while they are walked is due at a later
  /// call. O(due + held), plus the queue's advance.
  const std::vector<Slot>& take_due(Instant now);
  /// The exact instant the next slot is due at; nullopt when none is filed. When the queue
  /// cannot list its next millisecond (TickQueue::next_tokens), the start of that millisecond:
  /// never late, at worst one frame that finds nothing due. O(held), O(1) amortized beyond.
  std::optional<Instant> next_due();
  /// Moves the queue up to the millisecond before `now`'s when nothing is due by then, so that
  /// a slot filed outside a frame is placed by its distance from now rather than from the last
  /// frame: after a long idle, a timer 1.5 ms away lands on level 0 of the wheel, where it can
  /// be listed, and a timer due at `now` itself still waits in the queue, not the short list.
  /// Takes nothing out and never moves the queue back. Cost: O(1) when the queue is there
  /// already; else next_tick() and an advance that fires nothing (the far timers' moves down
  /// that the next frame would make, amortized O(1) per timer).
  void advance_idle(Instant now);

  /// Slots in the short list (for tests). O(1).
  std::size_t held_size() const noexcept { return held_.size(); }

 private:
  struct Entry {
    Instant exact;
    std::uint64_t order = 0;
    bool known = false; ///< filed or recorded at least once
    QueueId queued{};  ///< its queue entry; 0 when none
    bool held = false; ///< waiting in the short list
  };

  void hold(Slot slot);
  bool earlier(Slot a, Slot b) const;

  Timeline timeline_;
  TickQueue queue_;
  std::vector<Entry> entries_;  // by slot; grows to the largest slot filed
  // The short list: slots whose exact instant falls within the queue's current millisecond or
  // has passed; a handful. A slot is here exactly when its entry's `held` is set.
  std::vector<Slot> held_;
  std::vector<Slot> due_;       // take_due()'s answer
};

}  // namespace cadence::detail
