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

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <variant>
#include <vector>

#include "cadence/detail/heap_core.hpp"
#include "cadence/detail/wheel_core.hpp"
#include "cadence/export.hpp"
#include "cadence/time.hpp"
#include "cadence/timer.hpp"
#include "cadence/timer_queue.hpp"

namespace cadence::detail {

// ---- The schedule's arithmetic ------------------------------------------------------------------
//
// Where a due time goes in the queue and how an interval timer catches up after a late frame:
// pure functions and a value type, with no state of their own; timer_schedule_test.cpp covers
// every edge. Any thread; O(1) each, inline, since they run for every timer run and every timer
// queued. Instants of two clocks throw ClockMismatch, as their difference does; the table only
// ever passes one clock's.

namespace schedule_math {

constexpr std::int64_t floor_div(std::int64_t a, std::int64_t b) noexcept {
  return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
}
constexpr std::int64_t ceil_div(std::int64_t a, std::int64_t b) noexcept { return -floor_div(-a, b); }

/// a * n for a > 0, pinned to Duration::max() when it would not fit. A product of two numbers
/// whose bit widths add up to 63 or less fits, which is the common case and needs no division.
constexpr Duration saturating_mul(Duration a, std::uint64_t n) noexcept {
  constexpr auto kMax = static_cast<std::uint64_t>(Duration::max().count());
  const auto x = static_cast<std::uint64_t>(a.count());
  if (std::bit_width(x) + std::bit_width(n) > 63 && n != 0 && x > kMax / n) return Duration::max();
  return Duration{static_cast<Duration::rep>(x * n)};
}

}  // namespace schedule_math

/// The queue's timeline: whole milliseconds ("ticks") since an origin. Tick t covers the
/// instants [start_of(t), start_of(t + 1)).
class Timeline {
 public:
  static constexpr Duration::rep kNsPerTick = 1'000'000;

  explicit Timeline(Instant origin) : origin_(origin), last_tick_(floor(Instant::max_for(origin.kind()))) {}

  /// The tick `t` falls in (rounded down; negative before the origin).
  std::int64_t floor(Instant t) const { return schedule_math::floor_div((t - origin_).count(), kNsPerTick); }
  /// The first tick that starts at or after `t`.
  std::int64_t ceil(Instant t) const { return schedule_math::ceil_div((t - origin_).count(), kNsPerTick); }
  /// The instant tick `tick` starts at; a tick past the span a Duration covers saturates.
  Instant start_of(std::int64_t tick) const {
    constexpr std::int64_t kMaxTicks = Duration::max().count() / kNsPerTick;
    return origin_ + Duration{std::min(tick, kMaxTicks) * kNsPerTick};
  }
  /// The last tick a frame can reach: the one the end of the timeline falls in.
  std::int64_t last_tick() const noexcept { return last_tick_; }
  Instant origin() const noexcept { return origin_; }

 private:
  Instant origin_;
  std::int64_t last_tick_;
};

/// Where a timer goes in the queue: the tick it is filed under, and the exact instant it runs
/// at, at the first frame at or after it.
struct Placement {
  std::int64_t tick;
  Instant exact;
};

/// Places a timer meant to run at `at`. Without slack (less than 1 ms), the tick `at` falls in
/// and `at` itself. With slack, the next multiple at or after `at` of the largest power of two
/// milliseconds not above it, so that timers with slack share instants and none runs more than
/// `slack` late; at the end of the timeline the last tick a frame reaches, and never before
/// `at`. Ticks before the origin are moved to 0.
inline Placement place(const Timeline& line, Instant at, Duration slack) {
  const std::int64_t slack_ms = slack.count() / Timeline::kNsPerTick;
  if (slack_ms < 1) return Placement{std::max<std::int64_t>(line.floor(at), 0), at};
  const auto grid = static_cast<std::int64_t>(std::bit_floor(static_cast<std::uint64_t>(slack_ms)));
  const std::int64_t first = std::max<std::int64_t>(line.ceil(at), 0);
  const std::int64_t tick = std::min(schedule_math::ceil_div(first, grid) * grid, line.last_tick());
  return Placement{tick, later_of(at, line.start_of(tick))};
}

/// The instant a timer is queued for: its due time (for an animation timer, whose every-frame
/// runs need no queue, its expiry), held back to `not_before`, but never past its expiry.
inline Instant queue_target(Instant due, std::optional<Instant> expires, std::optional<Instant> not_before,
                     bool animating) {
  Instant at = animating && expires ? *expires : due;
  if (not_before && *not_before > at) at = *not_before;
  if (expires && *expires < at) at = *expires;
  return at;
}

/// `due + n * interval`, saturating at the end of the timeline. `interval` > 0.
inline Instant nth_due(Instant due, Duration interval, std::uint64_t n) {
  return due + schedule_math::saturating_mul(interval, n);
}

/// How an interval timer catches up in a frame that starts at or after its due time.
struct CatchUp {
  std::uint64_t runs;      ///< callback runs in this frame: 1, or up to Timer::kMaxBurstRuns (burst)
  Instant first_due;       ///< the due time the first run stands for; run r stands for
                           ///< nth_due(first_due, interval, r)
  std::uint64_t missed;    ///< due times the run skipped (MissedTicks::skip), else 0
  Instant next;            ///< the due time after these runs
};

/// The catch-up of a timer with `interval` (> 0) due at `due` (<= frame_start) in a frame at
/// `frame_start`, by its policy: skip runs once for the last due time reached and counts the
/// rest as missed; burst runs once per due time reached, at most Timer::kMaxBurstRuns, and the
/// rest wait for the next frame; delay runs once and counts the next interval from
/// `frame_start`.
inline CatchUp catch_up(Instant due, Duration interval, Instant frame_start, MissedTicks policy) {
  // Due times reached by frame_start: due, due + interval, ... <= frame_start.
  const auto late = static_cast<std::uint64_t>(std::max(Duration::zero(), frame_start - due).count());
  const std::uint64_t reached = 1 + late / static_cast<std::uint64_t>(interval.count());
  switch (policy) {
    case MissedTicks::skip:
      return CatchUp{1, nth_due(due, interval, reached - 1), reached - 1, nth_due(due, interval, reached)};
    case MissedTicks::delay:
      return CatchUp{1, due, 0, frame_start + interval};
    case MissedTicks::burst: {
      const std::uint64_t runs = std::min<std::uint64_t>(reached, Timer::kMaxBurstRuns);
      return CatchUp{runs, due, 0, nth_due(due, interval, runs)};
    }
  }
  return CatchUp{1, due, 0, nth_due(due, interval, reached)};  // not reached: every policy is handled
}

// ---- The queue ----------------------------------------------------------------------------------

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

  /// Files `slot` (not filed now) to be due at `at`, on its slack grid (place() above); `order`
  /// breaks ties between equal instants, lowest first; exact() then says
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
