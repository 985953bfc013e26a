#include "cadence/time_source.hpp"

#include <limits>

namespace cadence {

TimeSource TimeSource::system() {
  return TimeSource(ClockKind::system, [] {
    return std::chrono::duration_cast<Duration>(std::chrono::steady_clock::now().time_since_epoch());
  });
}

TimeSource TimeSource::ticks(Duration tick_length, std::function<std::uint64_t()> read_count) {
  const Duration::rep tick_ns = tick_length.count() > 0 ? tick_length.count() : 1;
  return TimeSource(ClockKind::tick, [tick_ns, read = std::move(read_count)] {
    const std::uint64_t count = read();
    constexpr auto max_ns = static_cast<std::uint64_t>(std::numeric_limits<Duration::rep>::max());
    if (count > max_ns / static_cast<std::uint64_t>(tick_ns)) return Duration::max();
    return Duration{static_cast<Duration::rep>(count) * tick_ns};
  });
}

TimeSource TimeSource::custom(ClockKind kind, std::function<Duration()> since_origin) {
  return TimeSource(kind, std::move(since_origin));
}

}  // namespace cadence
