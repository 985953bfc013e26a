// Small text helpers for error messages (g++ 12 has no <format>).
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>

namespace cadence::detail {

/// "0x1f" for 31.
inline std::string hex(std::uint64_t value) {
  char buf[2 + 16 + 1];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(value));
  return buf;
}

/// "42" for 42, "-5" for -5: any integer type, as it is (which of int64_t, long and long long
/// are one type differs between Linux and Windows, so no overload set fits both).
template <class Integer>
  requires(std::is_integral_v<Integer> && !std::is_same_v<Integer, bool>)
std::string num(Integer value) {
  return std::to_string(value);
}

}  // namespace cadence::detail

#include <chrono>

namespace cadence::detail {

/// "250 ms", "-5 ms", "1.5 s", "12 ns": a duration in the unit that reads best.
inline std::string describe(std::chrono::nanoseconds d) {
  const long long ns = d.count();
  // In unsigned arithmetic: -Duration::min() does not fit a long long.
  const unsigned long long mag = ns < 0 ? 0ULL - static_cast<unsigned long long>(ns) : static_cast<unsigned long long>(ns);
  char buf[64];
  if (mag != 0 && mag % 1'000'000'000 == 0) {
    std::snprintf(buf, sizeof buf, "%lld s", ns / 1'000'000'000);
  } else if (mag >= 1'000'000'000) {
    std::snprintf(buf, sizeof buf, "%.3f s", static_cast<double>(ns) / 1e9);
  } else if (mag != 0 && mag % 1'000'000 == 0) {
    std::snprintf(buf, sizeof buf, "%lld ms", ns / 1'000'000);
  } else if (mag >= 1'000'000) {
    std::snprintf(buf, sizeof buf, "%.3f ms", static_cast<double>(ns) / 1e6);
  } else if (mag >= 1'000) {
    std::snprintf(buf, sizeof buf, "%.3f us", static_cast<double>(ns) / 1e3);
  } else {
    std::snprintf(buf, sizeof buf, "%lld ns", ns);
  }
  return buf;
}

}  // namespace cadence::detail
