// cadence/time.hpp: one Instant and Duration for every clock cadence reads.
//
// - `Duration` is `std::chrono::nanoseconds`: signed, 64-bit, about +-292 years.
// - An `Instant` is a point on one clock's timeline, tagged with the clock's kind: the system's
//   monotonic clock, or a tick counter (a target without a monotonic clock, a test, the manual
//   clock). Ordering or subtracting instants of two kinds throws `ClockMismatch`, which says
//   which kinds met and how to avoid it: nothing aborts and nothing is undefined.
// - Arithmetic saturates: an Instant plus a Duration that would overflow pins to the end of the
//   timeline (`Instant::max_for`), the difference of two far-apart instants to +-Duration::max():
//   a deadline computed from an enormous delay is "never", not a wrapped-around past.
//
//     #include <cadence/time_source.hpp>
//     using namespace cadence;
//     using namespace std::chrono_literals;
//     TimeSource source = TimeSource::system();
//     Instant start = source.now();
//     Instant deadline = start + 250ms;
//     bool late = source.now() >= deadline;
//     Duration left = deadline - source.now();  // negative once late
//
// For everything in this header: Thread: any; Instants and Durations are plain values.
// Where: anywhere.
// Errors: none; operator-, <=> and later_of() throw ClockMismatch for instants of two kinds.
// Cost: O(1); nothing allocates.
#pragma once

#include <chrono>
#include <compare>
#include <cstdint>
#include <limits>
#include <stdexcept>

#include "cadence/export.hpp"

namespace cadence {

using Duration = std::chrono::nanoseconds;

/// Which timeline an Instant belongs to.
enum class ClockKind : std::uint8_t {
  system,  ///< the operating system's monotonic clock (std::chrono::steady_clock)
  tick,    ///< a counter advanced by the app or a test (ManualClock, embedded tick sources)
};

/// "system" or "tick".
CADENCE_RUNTIME_API const char* to_string(ClockKind kind) noexcept;

/// Thrown when instants of two clock kinds are compared or subtracted. A runtime reads one time
/// source, so this only happens when an Instant from another source is handed to it.
class CADENCE_RUNTIME_API ClockMismatch : public std::logic_error {
 public:
  ClockMismatch(ClockKind left, ClockKind right);
  ClockKind left() const noexcept { return left_; }
  ClockKind right() const noexcept { return right_; }

 private:
  ClockKind left_;
  ClockKind right_;
};

/// Adds two durations, pinning at +-Duration::max() instead of overflowing.
constexpr Duration saturating_add(Duration a, Duration b) noexcept {
  using Rep = Duration::rep;
  constexpr Rep kMax = std::numeric_limits<Rep>::max();
  constexpr Rep kMin = std::numeric_limits<Rep>::min();
  // Checked before adding, so that no signed overflow happens (portable C++, no builtins).
  if (b.count() > 0 && a.count() > kMax - b.count()) return Duration::max();
  if (b.count() < 0 && a.count() < kMin - b.count()) return Duration::min();
  return Duration{a.count() + b.count()};
}

/// Subtracts two durations, pinning at +-Duration::max() instead of overflowing.
constexpr Duration saturating_sub(Duration a, Duration b) noexcept {
  using Rep = Duration::rep;
  constexpr Rep kMax = std::numeric_limits<Rep>::max();
  constexpr Rep kMin = std::numeric_limits<Rep>::min();
  if (b.count() < 0 && a.count() > kMax + b.count()) return Duration::max();
  if (b.count() > 0 && a.count() < kMin + b.count()) return Duration::min();
  return Duration{a.count() - b.count()};
}

/// A point in time on one clock's timeline. 16 bytes; trivially copyable.
class Instant {
 public:
  /// The origin of the tick timeline. Useful as a placeholder; compare only with tick instants.
  constexpr Instant() noexcept = default;

  /// An instant `since_origin` after the origin of `kind`'s timeline. For the system kind the
  /// origin is steady_clock's epoch; for the tick kind it is whatever the counter started at.
  static constexpr Instant at(ClockKind kind, Duration since_origin) noexcept {
    return Instant{kind, since_origin};
  }
  /// The latest representable instant of `kind`: what an overflowing deadline pins to.
  static constexpr Instant max_for(ClockKind kind) noexcept { return Instant{kind, Duration::max()}; }

  constexpr ClockKind kind() const noexcept { return kind_; }
  constexpr Duration since_origin() const noexcept { return since_origin_; }

  /// Moves the instant by `d`, saturating at the ends of the timeline.
  constexpr Instant& operator+=(Duration d) noexcept {
    since_origin_ = saturating_add(since_origin_, d);
    return *this;
  }
  constexpr Instant& operator-=(Duration d) noexcept {
    since_origin_ = saturating_sub(since_origin_, d);
    return *this;
  }
  friend constexpr Instant operator+(Instant t, Duration d) noexcept { return t += d; }
  friend constexpr Instant operator-(Instant t, Duration d) noexcept { return t -= d; }

  /// The signed time from `b` to `a`, saturating.
  friend Duration operator-(Instant a, Instant b) {
    check_same_kind(a, b);
    return saturating_sub(a.since_origin_, b.since_origin_);
  }
  /// Orders instants of one kind.
  friend std::strong_ordering operator<=>(Instant a, Instant b) {
    check_same_kind(a, b);
    return a.since_origin_.count() <=> b.since_origin_.count();
  }
  /// Equal when of one kind and at one point; instants of two kinds are simply unequal.
  friend constexpr bool operator==(Instant a, Instant b) noexcept {
    return a.kind_ == b.kind_ && a.since_origin_ == b.since_origin_;
  }

 private:
  constexpr Instant(ClockKind kind, Duration since_origin) noexcept
      : since_origin_(since_origin), kind_(kind) {}
  static void check_same_kind(Instant a, Instant b) {
    if (a.kind_ != b.kind_) throw ClockMismatch(a.kind_, b.kind_);
  }

  Duration since_origin_{0};
  ClockKind kind_ = ClockKind::tick;
};

/// The later of two instants of one kind.
inline Instant later_of(Instant a, Instant b) { return a < b ? b : a; }

}  // namespace cadence
