// cadence/manual_clock.hpp: time that moves only when told to.
//
// Tests and apps that replay or simulate drive a runtime with a ManualClock instead of the
// system clock. Its instants have ClockKind::tick. No test needs to sleep for time to pass:
//
//     #include <cadence/manual_clock.hpp>
//     #include <cadence/window_runtime.hpp>
//     using namespace cadence;
//     using namespace std::chrono_literals;
//     ManualClock clock;
//     WindowRuntime runtime(clock.source());
//     (void)clock.advance(100ms);                  // exactly 100 ms later
//     (void)clock.run_until_idle(                  // jump to each deadline and fire it
//         [&] { return runtime.next_due(); },
//         [&](Instant now) { runtime.poll(now); });
#pragma once

#include <atomic>
#include <cstddef>
#include <optional>

#include "cadence/export.hpp"
#include "cadence/result.hpp"
#include "cadence/time.hpp"
#include "cadence/time_source.hpp"

namespace cadence {

/// What run_until_idle() and run_until() did.
struct RunReport {
  std::size_t steps = 0;  ///< how many times poll() was called
  bool idle = false;      ///< true when next_due() said nothing is left
};

/// For every member: Thread: the one driving the runtime (the UI thread, a test body); not checked elsewhere.
/// Where: anywhere, inside the run_* helpers' own functions included.
/// Errors: none.
/// Cost: O(1).
class CADENCE_RUNTIME_API ManualClock {
 public:
  /// A clock that reads `start` (default: the origin of the tick timeline). A `start` of the
  /// system kind is re-stamped as tick kind: a manual clock is never mistaken for the system clock.
  explicit ManualClock(Instant start = Instant{}) noexcept;

  ManualClock(const ManualClock&) = delete;
  ManualClock& operator=(const ManualClock&) = delete;

  /// The current time.
  /// Thread: any.
  /// Cost: one atomic load.
  Instant now() const noexcept;

  /// A TimeSource that reads this clock. The clock must outlive every read of the source: a
  /// runtime reads it until it is destroyed, a RedrawHandle never after that.
  TimeSource source() const;

  /// Moves time forward by `d` (saturating at the end of the timeline).
  /// Errors: invalid_argument (a negative `d`: no change; set() simulates a clock going back).
  Status advance(Duration d);

  /// Puts the clock at `t`, forwards or backwards: the tool for testing misbehaving clocks.
  /// Errors: clock_mismatch (a `t` of the system kind: no change).
  Status set(Instant t);

  /// Repeatedly asks `next_due()` (returning std::optional<Instant>) when something is due next,
  /// moves the clock there (never backwards) and calls `poll(now)`. Stops when next_due()
  /// returns nullopt (idle = true) or after `max_steps` polls (idle = false; an interval timer
  /// never becomes idle).
  /// Where: anywhere; `next_due` and `poll`, all it calls, may advance or set the clock (never back).
  /// Errors: throws ClockMismatch if next_due() returns an instant of the system clock.
  /// Cost: O(steps) plus what the two functions cost.
  template <class NextDue, class Poll>
  RunReport run_until_idle(NextDue&& next_due, Poll&& poll, std::size_t max_steps = 1'000'000) {
    RunReport report;
    while (report.steps < max_steps) {
      std::optional<Instant> due = next_due();
      if (!due) {
        report.idle = true;
        return report;
      }
      jump_forward_to(*due);
      poll(now());
      ++report.steps;
    }
    return report;
  }

  /// Like run_until_idle(), but stops before anything due after `limit`, then moves the clock to
  /// `limit` (if it is not already later). idle is true when nothing at all was left.
  /// Where: as run_until_idle().
  /// Errors: throws ClockMismatch for a `limit`, or a next_due() instant, of the system clock.
  /// Cost: as run_until_idle().
  template <class NextDue, class Poll>
  RunReport run_until(Instant limit, NextDue&& next_due, Poll&& poll,
                      std::size_t max_steps = 1'000'000) {
    RunReport report;
    while (report.steps < max_steps) {
      std::optional<Instant> due = next_due();
      if (!due) report.idle = true;
      if (!due || *due > limit) break;
      jump_forward_to(*due);
      poll(now());
      ++report.steps;
    }
    jump_forward_to(limit);
    return report;
  }

 private:
  void jump_forward_to(Instant t);

  std::atomic<Duration::rep> ns_;
};

}  // namespace cadence
