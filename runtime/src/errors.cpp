#include "cadence/result.hpp"

namespace cadence {

const char* to_string(Errc code) noexcept {
  switch (code) {
    case Errc::invalid_argument: return "invalid_argument";
    case Errc::not_found: return "not_found";
    case Errc::stale: return "stale";
    case Errc::already_cancelled: return "already_cancelled";
    case Errc::mismatch: return "mismatch";
    case Errc::empty: return "empty";
    case Errc::clock_mismatch: return "clock_mismatch";
  }
  return "unknown";
}

}  // namespace cadence
