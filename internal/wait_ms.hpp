// A sleep as SDL's SDL_WaitEventTimeout takes it (whole milliseconds, -1 for no limit), for the
// SDL2 and SDL3 code alike.
#pragma once

#include <algorithm>
#include <chrono>
#include <optional>

namespace cadence::detail {

/// A sleep length for SDL_WaitEventTimeout: -1 (until an event) for none; else whole
/// milliseconds rounded up (a wake-up before the instant would find nothing due and wait
/// again), a negative length as 0, and at most 10^9 ms (11.6 days; a longer sleep just wakes
/// and waits again). It never busy-loops on a sub-millisecond wait.
inline int wait_ms(std::optional<std::chrono::nanoseconds> sleep) {
  if (!sleep) return -1;
  const auto ms = std::chrono::ceil<std::chrono::milliseconds>(std::max(*sleep, std::chrono::nanoseconds::zero())).count();
  return static_cast<int>(std::min<decltype(ms)>(ms, 1'000'000'000));
}

}  // namespace cadence::detail
