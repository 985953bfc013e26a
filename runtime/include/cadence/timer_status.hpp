// cadence/timer_status.hpp: what the runtime can say about one timer (a timers panel, tests).
//
//     #include <cadence/window_runtime.hpp>
//     #include <cstdio>
//     using namespace cadence;
//     using namespace std::chrono_literals;
//     WindowRuntime runtime(TimeSource::system());
//     const TimerId countdown = TimerId::unique();
//     (void)runtime.add_timer(countdown, Timer::once(10s, [](TimerCallbackInfo&) {}));
//     if (auto st = runtime.timer_status(countdown)) {
//       std::printf("%.1f s left%s\n", std::chrono::duration<double>(st->remaining).count(),
//                   st->paused ? " (paused)" : "");
//       std::printf("late by %.2f ms at worst\n", std::chrono::duration<double, std::milli>(st->lateness.worst).count());
//     }
//
// For everything in this header: Thread: any; plain values, copied out of the runtime on the UI thread.
// Where: anywhere.
// Errors: none.
// Cost: O(1), nothing allocates; TimerLateness::record() is a few comparisons (O(buckets)).
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "cadence/time.hpp"
#include "cadence/timer.hpp"

namespace cadence {

/// How late a timer's runs were: the frame's start minus the instant the run was due (never
/// negative: no timer runs early). An animation timer's runs past its delay are due at their
/// frame: 0. The whole record is 48 bytes.
struct TimerLateness {
  static constexpr std::size_t kBuckets = 8;
  /// Bucket k < 7 counts the runs late by less than kEdges[k] (and at least kEdges[k - 1]);
  /// the last bucket counts the runs late by kEdges[6] (16 ms, a whole frame) or more.
  static constexpr std::array<Duration, kBuckets - 1> kEdges = {
      std::chrono::microseconds(250), std::chrono::microseconds(500), std::chrono::milliseconds(1),
      std::chrono::milliseconds(2),   std::chrono::milliseconds(4),   std::chrono::milliseconds(8),
      std::chrono::milliseconds(16)};

  Duration last{0};   ///< of the latest run
  Duration worst{0};  ///< the most any run was late
  std::array<std::uint32_t, kBuckets> histogram{};  ///< runs per bucket (each saturates at 2^32 - 1)

  /// Counts one run `late` late (a negative value counts as 0).
  void record(Duration late) noexcept {
    if (late < Duration::zero()) late = Duration::zero();
    last = late;
    if (late > worst) worst = late;
    std::size_t k = 0;
    while (k < kEdges.size() && late >= kEdges[k]) ++k;
    if (histogram[k] != UINT32_MAX) ++histogram[k];
  }
};

/// A timer as the runtime sees it.
struct TimerStatus {
  Instant created;                  ///< when it was added
  std::optional<Instant> last_run;  ///< frame_start of its last run
  std::uint64_t run_count = 0;
  /// When it runs next: its due time or timeout, whichever is sooner, rounded up for slack;
  /// nullopt while paused (see `remaining`) or while it runs on every frame.
  std::optional<Instant> next_due;
  /// Added + timeout, shifted by pauses; nullopt without a timeout and while paused (it is not
  /// known until the timer is resumed: see `remaining_lifetime`).
  std::optional<Instant> expires;
  /// Time left until it runs next (like Qt's remainingTime): next_due minus now, 0 once due
  /// and for an animation timer; while paused, what it had left when paused to its due time or
  /// timeout, whichever is sooner, frozen (before slack: resumed, slack rounds it up again).
  Duration remaining{0};
  /// Time left until its timeout, frozen while paused; nullopt without a timeout.
  std::optional<Duration> remaining_lifetime;
  bool paused = false;
  bool every_frame = false;         ///< an animation timer past its delay
  std::optional<WidgetId> owner;    ///< Timer::with_owner's widget
  TimerLateness lateness;           ///< how late its runs were
};

}  // namespace cadence
