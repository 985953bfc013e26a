// Turns a fuzzer's input bytes into choices: small numbers, and the durations and instants that
// timer code gets wrong (zero, negative, the ends of the range, the edges of the wheel's levels).
// Past the end of the input every read returns 0, so any input is a whole program.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cadence/time.hpp"
#include "cadence/timer_wheel.hpp"

namespace cadence::fuzz {

class Bytes {
 public:
  Bytes(const std::uint8_t* data, std::size_t size) noexcept : data_(data), size_(size) {}

  bool empty() const noexcept { return at_ >= size_; }
  std::uint8_t u8() noexcept { return at_ < size_ ? data_[at_++] : 0; }
  std::uint32_t u16() noexcept { return static_cast<std::uint32_t>(u8()) | static_cast<std::uint32_t>(u8()) << 8; }
  std::uint64_t u64() noexcept {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= static_cast<std::uint64_t>(u8()) << (8 * i);
    return v;
  }
  /// A number in [0, n).
  std::uint32_t below(std::uint32_t n) noexcept { return n == 0 ? 0 : u8() % n; }
  bool flag() noexcept { return (u8() & 1) != 0; }

  /// A duration, mostly from the values at which timer code breaks.
  Duration duration() noexcept {
    using std::chrono::milliseconds;
    using std::chrono::nanoseconds;
    switch (u8() % 24) {
      case 0: return Duration::zero();
      case 1: return nanoseconds(1);
      case 2: return nanoseconds(-1);
      case 3: return Duration::max();
      case 4: return Duration::min();
      case 5: return Duration::max() - nanoseconds(1);
      case 6: return milliseconds(1) - nanoseconds(1);
      case 7: return milliseconds(1);
      case 8: return milliseconds(1) + nanoseconds(1);
      case 9: return milliseconds(16);
      case 10: return milliseconds(530);
      case 11: return level_edge(1) - milliseconds(1);  // 16.383 s: the last tick of level 0
      case 12: return level_edge(1);
      case 13: return level_edge(1) + nanoseconds(500'000);
      case 14: return level_edge(2) - nanoseconds(1);
      case 15: return level_edge(2);
      case 16: return level_edge(3) + milliseconds(1);
      case 17: return level_edge(1 + u8() % 8);
      case 18: return -milliseconds(u16());
      case 19: return nanoseconds(static_cast<std::int64_t>(u64()));  // anything at all
      default: return nanoseconds(static_cast<std::int64_t>(u16()) * (u8() % 3 == 0 ? 1 : 1'000) * 37);
    }
  }

  /// Where a manual clock starts: the origin, far back, far ahead, near either end.
  Duration start() noexcept {
    switch (u8() % 6) {
      case 0: return Duration::zero();
      case 1: return Duration::min() + std::chrono::hours(1);
      case 2: return Duration::max() - std::chrono::hours(1);
      case 3: return Duration::max() - std::chrono::milliseconds(20);
      case 4: return -std::chrono::seconds(u16());
      default: return std::chrono::milliseconds(u16());
    }
  }

 private:
  /// The span of the wheel's level `level` in whole milliseconds (TimerWheel's geometry).
  static Duration level_edge(int level) noexcept {
    const int shift = static_cast<int>(TimerWheel::kLevel1Shift + TimerWheel::kRatioBits * static_cast<unsigned>(level - 1));
    constexpr std::int64_t kMaxMs = Duration::max().count() / 1'000'000;
    if (shift >= 62 || (std::int64_t{1} << shift) > kMaxMs) return Duration::max();
    return std::chrono::milliseconds(std::int64_t{1} << shift);
  }

  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t at_ = 0;
};

}  // namespace cadence::fuzz
