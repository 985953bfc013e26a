#include "cadence/time.hpp"

#include <string>

namespace cadence {

const char* to_string(ClockKind kind) noexcept {
  switch (kind) {
    case ClockKind::system: return "system";
    case ClockKind::tick: return "tick";
  }
  return "unknown";
}

ClockMismatch::ClockMismatch(ClockKind left, ClockKind right)
    : std::logic_error(std::string("an Instant of the ") + to_string(left) + " clock met one of the " +
                       to_string(right) + " clock; instants of two clock kinds cannot be compared or "
                       "subtracted. Take every Instant a runtime sees from its own TimeSource"),
      left_(left),
      right_(right) {}

}  // namespace cadence
