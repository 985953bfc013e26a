// Deadlines on std::chrono::steady_clock for the waits that take a cadence Duration, without
// overflow: a timeout of Duration::max() (or any timeout past the end of the clock) means
// "no deadline", and a timeout of zero or less means "now". Private to the library.
#pragma once

#include <chrono>
#include <optional>

#include "cadence/time.hpp"

namespace cadence::detail {

/// The instant `timeout` after `now`, or nullopt when that lies past the clock's last instant
/// (wait without a deadline). A timeout <= 0 gives `now`. O(1).
inline std::optional<std::chrono::steady_clock::time_point> steady_deadline(std::chrono::steady_clock::time_point now,
                                                                            Duration timeout) noexcept {
  using Clock = std::chrono::steady_clock;
  if (timeout <= Duration::zero()) return now;
  const auto step = std::chrono::duration_cast<Clock::duration>(timeout);
  // max() - now cannot overflow for now > 0; for now <= 0, now + step cannot.
  if (now.time_since_epoch() > Clock::duration::zero() && step >= Clock::time_point::max() - now) return std::nullopt;
  return now + step;
}

}  // namespace cadence::detail
