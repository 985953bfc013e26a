// The wheel's block widths and the ends of the timeline, in ticks, for the TickQueue tests.
#pragma once

#include <cstdint>

#include "cadence/detail/wheel_core.hpp"

namespace cadence::detail {

inline constexpr std::int64_t kW1 = std::int64_t{1} << WheelCore::kLevel1Shift;  // a level-1 block, 16,384 ms
inline constexpr std::int64_t kW2 = kW1 << WheelCore::kRatioBits;                 // a level-2 block
inline constexpr std::int64_t kW3 = kW2 << WheelCore::kRatioBits;                 // a level-3 block
inline constexpr std::int64_t kMax = kMaxTick.count();
inline constexpr std::int64_t kLast = kLastTick.count();

}  // namespace cadence::detail
