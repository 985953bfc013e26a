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
    case Errc::already_exists: return "already_exists";
    case Errc::callback_threw: return "callback_threw";
    case Errc::clock_went_backwards: return "clock_went_backwards";
    case Errc::reentrant_call: return "reentrant_call";
    case Errc::closed: return "closed";
    case Errc::resource: return "resource";
    case Errc::full: return "full";
    case Errc::unsafe: return "unsafe";
    case Errc::corrupt: return "corrupt";
    case Errc::system: return "system";
    case Errc::wrong_thread: return "wrong_thread";
  }
  return "unknown";
}

}  // namespace cadence
