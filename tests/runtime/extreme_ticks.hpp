// Tick counts at the edges, shared by the sweeps over every queue: the ends of int64, the ends
// of the queues' timeline (kMaxTick), zero and one either side, and one either side of each
// level edge of TimerWheel (2^14 ms, 2^20 ms, ...).
#pragma once

#include <cstdint>
#include <vector>

#include "cadence/timer_queue.hpp"
#include "cadence/timer_wheel.hpp"

namespace cadence::testing {

inline std::vector<std::int64_t> tick_counts() {
  std::vector<std::int64_t> out{INT64_MIN, INT64_MIN + 1, -1, 0, 1, 2, kMaxTick.count() - 1, kMaxTick.count(),
                                kMaxTick.count() + 1, INT64_MAX - 1, INT64_MAX};
  for (auto shift = TimerWheel::kLevel1Shift; shift <= 62; shift += TimerWheel::kRatioBits) {
    const std::int64_t edge = std::int64_t{1} << shift;
    for (std::int64_t d : {edge - 1, edge, edge + 1, -edge}) out.push_back(d);
  }
  return out;
}

}  // namespace cadence::testing
