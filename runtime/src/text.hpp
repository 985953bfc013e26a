// Small text helpers for error messages (g++ 12 has no <format>).
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace cadence::detail {

/// "0x1f" for 31.
inline std::string hex(std::uint64_t value) {
  char buf[2 + 16 + 1];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(value));
  return buf;
}

/// "42" for 42; signed.
inline std::string num(std::int64_t value) { return std::to_string(value); }
inline std::string num(std::uint64_t value) { return std::to_string(value); }
inline std::string num(unsigned value) { return std::to_string(value); }
inline std::string num(int value) { return std::to_string(value); }
inline std::string num(unsigned long long value) { return std::to_string(value); }

}  // namespace cadence::detail
