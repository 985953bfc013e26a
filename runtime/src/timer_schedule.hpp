// timer_schedule: the arithmetic of a timer's schedule, with no state of its own. The table
// (timer_table.cpp) keeps the timers; these functions say where a due time goes in the queue
// and how an interval timer catches up after a late frame. Private to the library;
// timer_schedule_test.cpp covers every edge.
//
// Thread and re-entry: pure functions and a value type; any thread. Cost: O(1) each. Inline:
// they run for every timer run and every timer queued. Errors: instants of two clocks throw
// ClockMismatch, as their difference does; the table only ever passes one clock's.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <optional>

#include "cadence/time.hpp"
#include "cadence/timer.hpp"

namespace cadence::detail {

namespace schedule_math {

constexpr std::int64_t floor_div(std::int64_t a, std::int64_t b) noexcept {
  return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
}
constexpr std::int64_t ceil_div(std::int64_t a, std::int64_t b) noexcept { return -floor_div(-a, b); }

/// a * n for a > 0, pinned to Duration::max() when it would not fit. A product of two numbers
/// whose bit widths add up to 63 or less fits, which is the common case and needs no division.
constexpr Duration saturating_mul(Duration a, std::uint64_t n) noexcept {
  constexpr auto kMax = static_cast<std::uint64_t>(Duration::max().count());
  const auto x = static_cast<std::uint64_t>(a.count());
  if (std::bit_width(x) + std::bit_width(n) > 63 && n != 0 && x > kMax / n) return Duration::max();
  return Duration{static_cast<Duration::rep>(x * n)};
}

}  // namespace schedule_math

/// The queue's timeline: whole milliseconds ("ticks") since an origin. Tick t covers the
/// instants [start_of(t), start_of(t + 1)).
class Timeline {
 public:
  static constexpr Duration::rep kNsPerTick = 1'000'000;

  explicit Timeline(Instant origin) : origin_(origin), last_tick_(floor(Instant::max_for(origin.kind()))) {}

  /// The tick `t` falls in (rounded down; negative before the origin).
  std::int64_t floor(Instant t) const { return schedule_math::floor_div((t - origin_).count(), kNsPerTick); }
  /// The first tick that starts at or after `t`.
  std::int64_t ceil(Instant t) const { return schedule_math::ceil_div((t - origin_).count(), kNsPerTick); }
  /// The instant tick `tick` starts at; a tick past the span a Duration covers saturates.
  Instant start_of(std::int64_t tick) const {
    constexpr std::int64_t kMaxTicks = Duration::max().count() / kNsPerTick;
    return origin_ + Duration{std::min(tick, kMaxTicks) * kNsPerTick};
  }
  /// The last tick a frame can reach: the one the end of the timeline falls in.
  std::int64_t last_tick() const noexcept { return last_tick_; }
  Instant origin() const noexcept { return origin_; }

 private:
  Instant origin_;
  std::int64_t last_tick_;
};

/// Where a timer goes in the queue: the tick it is filed under, and the exact instant it runs
/// at, at the first frame at or after it.
struct Placement {
  std::int64_t tick;
  Instant exact;
};

/// Places a timer meant to run at `at`. Without slack (less than 1 ms), the tick `at` falls in
/// and `at` itself. With slack, the next multiple at or after `at` of the largest power of two
/// milliseconds not above it, so that timers with slack share instants and none runs more than
/// `slack` late; at the end of the timeline the last tick a frame reaches, and never before
/// `at`. Ticks before the origin are moved to 0.
inline Placement place(const Timeline& line, Instant at, Duration slack) {
  const std::int64_t slack_ms = slack.count() / Timeline::kNsPerTick;
  if (slack_ms < 1) return Placement{std::max<std::int64_t>(line.floor(at), 0), at};
  const auto grid = static_cast<std::int64_t>(std::bit_floor(static_cast<std::uint64_t>(slack_ms)));
  const std::int64_t first = std::max<std::int64_t>(line.ceil(at), 0);
  const std::int64_t tick = std::min(schedule_math::ceil_div(first, grid) * grid, line.last_tick());
  return Placement{tick, later_of(at, line.start_of(tick))};
}

/// The instant a timer is queued for: its due time (for an animation timer, whose every-frame
/// runs need no queue, its expiry), held back to `not_before`, but never past its expiry.
inline Instant queue_target(Instant due, std::optional<Instant> expires, std::optional<Instant> not_before,
                     bool animating) {
  Instant at = animating && expires ? *expires : due;
  if (not_before && *not_before > at) at = *not_before;
  if (expires && *expires < at) at = *expires;
  return at;
}

/// `due + n * interval`, saturating at the end of the timeline. `interval` > 0.
inline Instant nth_due(Instant due, Duration interval, std::uint64_t n) {
  return due + schedule_math::saturating_mul(interval, n);
}

/// How an interval timer catches up in a frame that starts at or after its due time.
struct CatchUp {
  std::uint64_t runs;      ///< callback runs in this frame: 1, or up to Timer::kMaxBurstRuns (burst)
  Instant first_due;       ///< the due time the first run stands for; run r stands for
                           ///< nth_due(first_due, interval, r)
  std::uint64_t missed;    ///< due times the run skipped (MissedTicks::skip), else 0
  Instant next;            ///< the due time after these runs
};

/// The catch-up of a timer with `interval` (> 0) due at `due` (<= frame_start) in a frame at
/// `frame_start`, by its policy: skip runs once for the last due time reached and counts the
/// rest as missed; burst runs once per due time reached, at most Timer::kMaxBurstRuns, and the
/// rest wait for the next frame; delay runs once and counts the next interval from
/// `frame_start`.
inline CatchUp catch_up(Instant due, Duration interval, Instant frame_start, MissedTicks policy) {
  // Due times reached by frame_start: due, due + interval, ... <= frame_start.
  const auto late = static_cast<std::uint64_t>(std::max(Duration::zero(), frame_start - due).count());
  const std::uint64_t reached = 1 + late / static_cast<std::uint64_t>(interval.count());
  switch (policy) {
    case MissedTicks::skip:
      return CatchUp{1, nth_due(due, interval, reached - 1), reached - 1, nth_due(due, interval, reached)};
    case MissedTicks::delay:
      return CatchUp{1, due, 0, frame_start + interval};
    case MissedTicks::burst: {
      const std::uint64_t runs = std::min<std::uint64_t>(reached, Timer::kMaxBurstRuns);
      return CatchUp{runs, due, 0, nth_due(due, interval, runs)};
    }
  }
  return CatchUp{1, due, 0, nth_due(due, interval, reached)};  // not reached: every policy is handled
}

}  // namespace cadence::detail
