// cadence/timer_queue.hpp: the interface both timer queues implement.
//
// A timer queue holds (deadline, token) pairs on a timeline of whole milliseconds ("ticks") and
// hands the tokens back, in deadline order, as time advances. The runtime keeps its timers in
// one; `TimerWheel` is the default and `HeapTimerQueue` the alternative. Both keep exactly the
// contract below, and the tests drive them side by side against a reference model.
//
// Rules shared by every queue:
// - Time is in ticks of 1 ms since the queue's origin, from 0 to kMaxTick - 1.
// - schedule(after) fires at now() + after. `after <= 0` counts as 1 tick: a timer never fires
//   in the tick it was scheduled in. A deadline at or past kMaxTick (an enormous delay, about
//   146 million years) is clamped to kMaxTick, which means "never": time stops one tick short of
//   it, so such a timer stays pending (and cancellable) and never fires.
// - advance(now) fires every timer whose deadline is <= now, in deadline order, and timers with
//   one deadline in the order they were scheduled. A `now` earlier than now() is clamped (time
//   stays where it was) and reported in the AdvanceReport.
// - cancel(id) returns true only for a pending timer. Ids carry a generation, so a stale id (its
//   timer fired or was cancelled, and its storage now holds another timer) returns false and
//   leaves the other timer alone. Id 0 is never issued.
// - next_fire() is the deadline of the earliest pending timer, never later than it and never
//   more than one tick earlier; nullopt when nothing is pending.
//
//     #include <cadence/timer_wheel.hpp>
//     #include <vector>
//     using namespace cadence;
//     TimerWheel queue;
//     QueueId id = queue.schedule(Ticks{250}, /*token=*/7);
//     std::vector<Token> fired;
//     queue.advance(Ticks{250}, fired);   // fired == {7}
//
// Thread: a queue is used by one thread at a time (the thread that owns the runtime), like a
// standard container. Re-entry: a queue calls no code of the caller's, so nothing re-enters it.
#pragma once

#include <chrono>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "cadence/export.hpp"

namespace cadence {

/// Milliseconds on a queue's timeline. The queues' unit of time.
using Ticks = std::chrono::milliseconds;
/// The deadline that means "never": 2^62 - 1 ms, about 146 million years. Time stops at
/// kMaxTick - 1, so a timer clamped to kMaxTick never fires.
inline constexpr Ticks kMaxTick{(std::int64_t{1} << 62) - 1};
/// The latest time a queue reaches.
inline constexpr Ticks kLastTick = kMaxTick - Ticks{1};

/// The caller's payload, handed back when its timer fires.
using Token = std::uint64_t;

/// Names one scheduled timer: a slot and the slot's generation. 0 is never issued.
struct QueueId {
  std::uint64_t value = 0;
  friend constexpr auto operator<=>(QueueId, QueueId) = default;
};

namespace detail {
/// A queue's answer when the runtime's timer table asks it for the tokens of its next tick
/// (`peek_next`, private to the queues and to detail::TableQueue).
struct Peek {
  /// True when the tokens were listed; false when the queue cannot list them cheaply.
  bool listed = true;
  /// When not listed: the earliest now() from which asking again, with nothing scheduled,
  /// cancelled or fired meanwhile, may list them; kMaxTick when only such a change can.
  std::int64_t ask_again = kMaxTick.count();
};
}  // namespace detail

/// What one advance() call did.
struct AdvanceReport {
  std::size_t fired = 0;     ///< tokens appended to the output
  Ticks clamped_by{0};       ///< > 0 when the requested time (a negative one counts as 0) was that much earlier than now()
  bool went_backwards() const noexcept { return clamped_by > Ticks{0}; }
};

/// Clamps a requested delay to the rules above and returns the deadline it gives at `now`
/// (now <= kLastTick). O(1). Used by every queue so they agree to the tick.
constexpr std::int64_t deadline_after(std::int64_t now_ms, std::int64_t after_ms) noexcept {
  const std::int64_t max_ms = kMaxTick.count();
  if (after_ms < 1) after_ms = 1;
  if (after_ms > max_ms - now_ms) return max_ms;
  return now_ms + after_ms;
}

/// A requested time moved into the queues' range [0, kLastTick]. O(1). Used by every queue's
/// advance(), so that no distance computed from it can overflow.
constexpr std::int64_t clamp_to_timeline(std::int64_t ms) noexcept {
  return ms < 0 ? 0 : (ms > kLastTick.count() ? kLastTick.count() : ms);
}

class CADENCE_RUNTIME_API TimerQueue {
 public:
  virtual ~TimerQueue() = default;

  /// Schedules `token` to fire `after` from now(). Cost: O(1) wheel, O(log n) heap.
  virtual QueueId schedule(Ticks after, Token token) = 0;
  /// Cancels a pending timer; false for fired, cancelled, stale, unknown or 0 ids. Cost: O(1)
  /// wheel, O(log n) heap.
  virtual bool cancel(QueueId id) = 0;
  /// Moves time to `now` and appends the tokens that came due to `fired`, in fire order.
  /// Cost: O(fired) plus bookkeeping that follows the number of timers, not the gap length.
  virtual AdvanceReport advance(Ticks now, std::vector<Token>& fired) = 0;
  /// The queue's current time. O(1).
  virtual Ticks now() const = 0;
  /// Pending timers (cancelled ones excluded). O(1).
  virtual std::size_t active_count() const = 0;
  /// The earliest pending deadline; nullopt when none. Cost: see each queue; no scan of all timers.
  virtual std::optional<Ticks> next_fire() = 0;
};

}  // namespace cadence
