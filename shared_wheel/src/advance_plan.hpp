// How SharedTimingWheel::advance() moves the clock: tick by tick (the walk) or in one sweep of
// every bucket (the jump). Private to the library.
//
// The walk visits one bucket per tick and, in every bucket it visits, every timer there, due or
// not: a timer R rotations away is looked at R times. The jump looks at every bucket and every
// timer once, then sorts what is due and takes it out in tick order, away from the list order
// it was found in. Measured (bench/shared_wheel_bench.cpp, Advance_whole against Advance_walk,
// 4,096 buckets, 1,000 and 100,000 timers all due within the advance), in units of one timer
// looked at: a bucket costs about a tenth, and a timer the jump fires about three times one the
// walk fires. So the walk wins for up to about four rotations on a busy wheel and for less on an
// empty one, and the jump keeps a huge advance at O(buckets + timers) however long it is.
#pragma once

#include <cstdint>

namespace cadence::detail {

/// True when walking `ticks` ticks costs no more than one sweep, for a wheel of `slots` buckets
/// holding about `pending` timers (an estimate: both ways fire the same timers in the same
/// order). Shorter than a rotation: always the walk. Pure; O(1); never overflows.
inline bool walk_is_cheaper(std::uint64_t ticks, std::uint32_t slots, std::uint64_t pending) noexcept {
  if (ticks < slots) return true;
  const double t = static_cast<double>(ticks);
  const double s = static_cast<double>(slots);
  const double n = static_cast<double>(pending);
  // On the walk a timer is looked at once per rotation until it fires: half the rotations on
  // average for timers spread over the advance, plus the visit that fires it.
  const double walk = t / 10 + n * (t / s / 2 + 1);
  const double jump = s / 10 + 3 * n;
  return walk <= jump;
}

}  // namespace cadence::detail
