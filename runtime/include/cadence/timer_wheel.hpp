// cadence/timer_wheel.hpp: a hierarchical hashed timing wheel with 1 ms slots.
//
// The runtime's default queue; it keeps the TimerQueue contract of timer_queue.hpp. Timers
// within 16.4 s sit in one level of 32,768 one-millisecond slots and are touched twice in their
// life: once to schedule, once to fire. Longer timers sit on coarser levels and move down a level
// at a time, a share at every advance, well before they are due; no operation walks every
// pending timer and no frame moves a whole coarse slot at once. docs/wheel.md explains the
// geometry and the derivation of every constant.
//
// Costs (n = pending timers):
// - schedule, cancel: O(1).
// - advance: O(fired + moved + levels); a gap of any length costs O(levels) beyond that.
// - next_fire: O(1) when nothing changed, else O(levels); exact (the true earliest deadline).
//   After the earliest timer of a coarse slot is cancelled, the next call walks that one slot
//   once to learn its new earliest deadline.
// - memory: 28 bytes per timer (entries are allocated 4096 at a time, with 520 bytes of free
//   bits each) plus about 280 KB of slot heads and bitmaps, untouched (zero pages) until used.
//
//     #include <cadence/timer_wheel.hpp>
//     #include <vector>
//     using namespace cadence;
//     TimerWheel wheel;                                 // time starts at 0 ms
//     QueueId blink = wheel.schedule(Ticks{530}, 1);
//     std::vector<Token> fired;
//     wheel.advance(Ticks{530}, fired);                 // fired == {1}
//
// Thread: one thread at a time; nothing is shared between wheels. Re-entry: none (it calls no
// code of the caller's).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "cadence/detail/wheel_core.hpp"
#include "cadence/timer_queue.hpp"

namespace cadence {

class TimerWheel : private detail::WheelCore {
 public:
  /// Level 0 has 2^kLevel0Bits one-millisecond slots; each coarse level is 2^kRatioBits times
  /// wider than the one below, with 2^kCoarseBits slots; kLevels levels reach kMaxTick.
  using WheelCore::kCoarseBits;
  using WheelCore::kLevel0Bits;
  using WheelCore::kLevel1Shift;
  using WheelCore::kLevels;
  using WheelCore::kRatioBits;

  /// An empty wheel whose time starts at `start` (clamped to [0, kLastTick]).
  explicit TimerWheel(Ticks start = Ticks{0}) : WheelCore(start) {}

  /// schedule(): O(1). Errors: throws std::bad_alloc when memory runs out (the wheel is
  /// unchanged). cancel(): O(1); the entry is free for reuse at once. advance(): O(fired +
  /// moved + levels). next_fire(): O(1) when nothing changed, else O(levels).
  using WheelCore::advance;
  using WheelCore::cancel;
  using WheelCore::next_fire;
  using WheelCore::schedule;
  /// now(), active_count(): O(1).
  using WheelCore::active_count;
  using WheelCore::now;
  /// The deadline of a pending timer, or nullopt for a fired, cancelled or unknown id. O(1).
  using WheelCore::deadline_of;
  /// Bytes held by the wheel, excluding the object itself. O(1).
  using WheelCore::memory_bytes;
  /// Counters since construction (WheelStats). O(1).
  using WheelCore::stats;
  /// Walks every entry and checks the wheel's invariants. For tests: O(n). Returns an empty
  /// string when all hold, else what was wrong first.
  using WheelCore::check_invariants;
};

static_assert(TimerQueue<TimerWheel>);

}  // namespace cadence
