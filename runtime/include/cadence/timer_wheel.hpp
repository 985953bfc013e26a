// cadence/timer_wheel.hpp: a hierarchical hashed timing wheel with 1 ms slots.
//
// The runtime's default queue; it keeps the TimerQueue contract of timer_queue.hpp. A timer due
// within 16.4 s is touched twice in its life: once to schedule, once to fire. Longer timers move
// down a level at a time, a share at every advance, well before they are due: no operation walks
// every pending timer and no frame moves a whole coarse slot at once. Memory: 28 bytes per timer
// (plus 520 bytes per 4,096), plus about 280 KB of slot heads and bitmaps, untouched (zero pages)
// until used. docs/wheel.md explains the geometry and the derivation of every constant.
//
//     #include <cadence/timer_wheel.hpp>
//     #include <vector>
//     using namespace cadence;
//     TimerWheel wheel;                                 // time starts at 0 ms
//     QueueId blink = wheel.schedule(Ticks{530}, 1);
//     std::vector<Token> fired;
//     wheel.advance(Ticks{530}, fired);                 // fired == {1}
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "cadence/detail/wheel_core.hpp"
#include "cadence/timer_queue.hpp"

namespace cadence {

/// For every member: Thread: one thread at a time, like a standard container; wheels share nothing.
/// Where: anywhere; it calls no code of the caller's, so nothing re-enters it.
/// Errors: none; cancel() is false for an id it cannot cancel.
/// Cost: O(1).
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

  /// Cost: O(fired + moved + levels); a gap of any length costs O(levels) beyond that.
  using WheelCore::advance;
  /// The entry is free for reuse at once.
  using WheelCore::cancel;
  /// Exact: the true earliest deadline.
  /// Cost: O(1) when nothing changed, else O(levels) (+ one walk of a slot whose earliest was cancelled).
  using WheelCore::next_fire;
  /// Errors: throws std::bad_alloc when memory runs out (the wheel is unchanged).
  using WheelCore::schedule;
  using WheelCore::active_count;
  using WheelCore::now;
  /// The deadline of a pending timer, or nullopt for a fired, cancelled or unknown id.
  using WheelCore::deadline_of;
  /// Bytes held by the wheel, excluding the object itself.
  using WheelCore::memory_bytes;
  /// Counters since construction (WheelStats).
  using WheelCore::stats;
  /// Checks the wheel's invariants, for tests: an empty string when all hold, else what was wrong first.
  /// Cost: O(n): walks every entry.
  using WheelCore::check_invariants;
};

static_assert(TimerQueue<TimerWheel>);

}  // namespace cadence
