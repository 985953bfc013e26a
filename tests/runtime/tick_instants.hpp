// Instants on the manual (tick) clock, for the tests of time and of the manual clock.
#pragma once

#include "cadence/time.hpp"

namespace cadence::testing {

inline Instant tick_at(Duration d) { return Instant::at(ClockKind::tick, d); }

}  // namespace cadence::testing
