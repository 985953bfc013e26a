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
//
// Thread: now() may be read from any thread; advance(), set() and the run_* helpers belong to
// the thread that drives the runtime (normally the UI thread or the test body).
// Re-entry: the run_* helpers call their two functions only; those may advance or set the clock
// (the helpers never move it backwards).
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

class CADENCE_RUNTIME_API ManualClock {
 public:
  /// A clock that reads `start` (default: the origin of the tick timeline).
  /// Errors: a `start` of the system kind is re-stamped as tick kind; a manual clock is never
  /// mistaken for the system clock.
  explicit ManualClock(Instant start = Instant{}) noexcept;

  ManualClock(const ManualClock&) = delete;
  ManualClock& operator=(const ManualClock&) = delete;

  /// The current time. Thread: any. Cost: one atomic load.
  Instant now() const noexcept;

  /// A TimeSource that reads this clock. The clock must outlive every read of the source: a
  /// runtime reads it until it is destroyed, a RedrawHandle never after that.
  TimeSource source() const;

  /// Moves time forward by `d` (saturating at the end of the timeline).
  /// Errors: a negative `d` returns invalid_argument and leaves the clock unchanged; use set()
  /// to simulate a clock that goes backwards.
  Status advance(Duration d);

  /// Puts the clock at `t`, forwards or backwards: the tool for testing misbehaving clocks.
  /// Errors: a `t` of the system kind returns clock_mismatch and leaves the clock unchanged.
  Status set(Instant t);

  /// Repeatedly asks `next_due()` (returning std::optional<Instant>) when something is due next,
  /// moves the clock there (never backwards) and calls `poll(now)`. Stops when next_due()
  /// returns nullopt (idle = true) or after `max_steps` polls (idle = false; an interval timer
  /// never becomes idle). Cost: O(steps) plus what the callbacks cost.
  /// Errors: throws ClockMismatch if next_due() returns an instant of the system clock.
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
