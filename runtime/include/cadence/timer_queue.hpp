// cadence/timer_queue.hpp: the contract both timer queues keep, as a concept.
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
// - next_fire() is the deadline of the earliest pending timer, found without a scan of all
//   timers: never later than it and never more than one tick earlier; nullopt when nothing is
//   pending. active_count() counts the pending timers.
//
//     #include <cadence/timer_wheel.hpp>
//     #include <vector>
//     using namespace cadence;
//     TimerWheel queue;
//     QueueId id = queue.schedule(Ticks{250}, /*token=*/7);
//     std::vector<Token> fired;
//     queue.advance(Ticks{250}, fired);   // fired == {7}
#pragma once

#include <chrono>
#include <compare>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>


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

/// What one advance() call did.
struct AdvanceReport {
  std::size_t fired = 0;     ///< tokens appended to the output
  Ticks clamped_by{0};       ///< > 0 when the requested time (a negative one counts as 0) was that much earlier than now()
  bool went_backwards() const noexcept { return clamped_by > Ticks{0}; }
};

/// Clamps a requested delay to the rules above and returns the deadline it gives at `now`
/// (now <= kLastTick). Used by every queue so they agree to the tick.
/// Cost: O(1).
constexpr std::int64_t deadline_after(std::int64_t now_ms, std::int64_t after_ms) noexcept {
  const std::int64_t max_ms = kMaxTick.count();
  if (after_ms < 1) after_ms = 1;
  if (after_ms > max_ms - now_ms) return max_ms;
  return now_ms + after_ms;
}

/// A requested time moved into the queues' range [0, kLastTick]. Used by every queue's
/// advance(), so that no distance computed from it can overflow.
/// Cost: O(1).
constexpr std::int64_t clamp_to_timeline(std::int64_t ms) noexcept {
  return ms < 0 ? 0 : (ms > kLastTick.count() ? kLastTick.count() : ms);
}

/// A timer queue: what TimerWheel and HeapTimerQueue both are, checked at compile time, with the
/// rules above (advance() appends the tokens that came due to `fired`, in fire order). Write a
/// template over it to take either; there is no virtual base, so no call pays for dispatch. Each
/// queue's header gives its other costs.
/// For every member of every queue: Thread: one thread at a time, like a standard container.
/// Where: anywhere; a queue calls no code of the caller's, so nothing re-enters it.
/// Errors: none; cancel() is false for a fired, cancelled, stale, unknown or 0 id.
/// Cost: now(), active_count(): O(1); advance() follows the timers fired and moved, not the gap.
template <class Q>
concept TimerQueue = requires(Q q, const Q& cq, Ticks t, Token token, QueueId id, std::vector<Token>& fired) {
  { q.schedule(t, token) } -> std::same_as<QueueId>;
  { q.cancel(id) } -> std::same_as<bool>;
  { q.advance(t, fired) } -> std::same_as<AdvanceReport>;
  { cq.now() } -> std::same_as<Ticks>;
  { cq.active_count() } -> std::same_as<std::size_t>;
  { q.next_fire() } -> std::same_as<std::optional<Ticks>>;
};

/// Which queue a WindowRuntime keeps its timers in (WindowRuntime::Options::queue).
enum class QueueKind : std::uint8_t { wheel, heap };

}  // namespace cadence
