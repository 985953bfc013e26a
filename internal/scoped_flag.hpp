// ScopedFlag: sets a bool for the length of a scope, for re-entry guards.
#pragma once

namespace cadence::detail {

/// Sets `flag` on construction and clears it on destruction (an exception included).
class ScopedFlag {
 public:
  explicit ScopedFlag(bool& flag) noexcept : flag_(flag) { flag_ = true; }
  ScopedFlag(const ScopedFlag&) = delete;
  ScopedFlag& operator=(const ScopedFlag&) = delete;
  ~ScopedFlag() { flag_ = false; }

 private:
  bool& flag_;
};

}  // namespace cadence::detail
