// Every public function that takes a Duration, an Instant or a tick count, swept with zero,
// negative values, the ends of the range and the values next to each level boundary of the
// wheel, on clocks that start at 0, far back, and near either end of the timeline. Each call
// either gives its documented result (a saturated instant, a clamped deadline, a clear error
// naming the value) or is refused; none is undefined (this file runs under UBSan in CI).
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "cadence/heap_timer_queue.hpp"
#include "cadence/manual_clock.hpp"
#include "cadence/time_source.hpp"
#include "cadence/timer_wheel.hpp"
#include "cadence/window_runtime.hpp"
#include "extreme_ticks.hpp"

namespace cadence {
namespace {

using namespace std::chrono_literals;
using testing::tick_counts;

// The wheel's level edges are 2^shift ms: the first coarse level's, then one per level.
constexpr int kFirstEdgeShift = static_cast<int>(TimerWheel::kLevel1Shift);
constexpr int kEdgeShiftStep = static_cast<int>(TimerWheel::kRatioBits);

/// Durations: the ends, zero and one either side, and one either side of each level's span of
/// the wheel (2^14 ms, 2^20 ms, ... as far as nanoseconds reach; TimerWheel's geometry).
std::vector<Duration> durations() {
  std::vector<Duration> out{Duration::zero(), 1ns,  -1ns, 1ms - 1ns, 1ms, 1ms + 1ns, -1ms, 16ms, 530ms,
                            Duration::max(), Duration::max() - 1ns, Duration::min(), Duration::min() + 1ns};
  for (int shift = kFirstEdgeShift; shift <= 62; shift += kEdgeShiftStep) {
    const std::int64_t ms = std::int64_t{1} << shift;
    if (ms > Duration::max().count() / 1'000'000) break;
    const Duration edge = std::chrono::milliseconds(ms);
    for (Duration d : {edge - 1ms, edge - 1ns, edge, edge + 1ns, edge + 1ms, -edge}) out.push_back(d);
  }
  return out;
}

/// Where clocks start: the origin, far back, and near either end.
std::vector<Instant> starts() {
  return {Instant{}, Instant::at(ClockKind::tick, -1'000'000'000'000'000'000ns),
          Instant::at(ClockKind::tick, Duration::min() + 1h), Instant::at(ClockKind::tick, Duration::max() - 1h),
          Instant::at(ClockKind::tick, Duration::max() - 1ns)};
}

/// t + d and t - d as the header defines them: saturating at the ends of the timeline.
Instant plus(Instant t, Duration d) {
  const Duration::rep a = t.since_origin().count(), b = d.count();
  if (b > 0 && a > Duration::max().count() - b) return Instant::max_for(t.kind());
  if (b < 0 && a < Duration::min().count() - b) return Instant::at(t.kind(), Duration::min());
  return Instant::at(t.kind(), Duration{a + b});
}
Instant minus(Instant t, Duration d) {
  if (d != Duration::min()) return plus(t, -d);
  const Duration::rep a = t.since_origin().count();  // a - min = a + max + 1
  return a >= 0 ? Instant::max_for(t.kind()) : Instant::at(t.kind(), Duration{a + Duration::max().count() + 1});
}

std::string text(Duration d) { return std::to_string(d.count()) + " ns"; }

// ---- time ------------------------------------------------------------------------------------

TEST(ExtremeValuesTest, InstantArithmeticSaturatesEverywhere) {
  for (Instant t : starts()) {
    for (Duration d : durations()) {
      SCOPED_TRACE(text(t.since_origin()) + " + " + text(d));
      EXPECT_EQ(t + d, plus(t, d));
      EXPECT_EQ(t - d, minus(t, d));
      const bool pinned = plus(t, d) == Instant::max_for(t.kind()) || plus(t, d).since_origin() == Duration::min();
      if (!pinned) {
        EXPECT_EQ(plus(t, d) - t, d) << "the difference undoes the sum";
      }
      EXPECT_EQ(later_of(t, t + d), d > Duration::zero() ? t + d : t);
    }
  }
  EXPECT_EQ(Instant::at(ClockKind::tick, Duration::max()) - Instant::at(ClockKind::tick, Duration::min()), Duration::max());
  EXPECT_EQ(Instant::at(ClockKind::tick, Duration::min()) - Instant::at(ClockKind::tick, Duration::max()), Duration::min());
}

TEST(ExtremeValuesTest, ManualClockAdvancesSaturatingAndRefusesNegativeSteps) {
  for (Instant t : starts()) {
    for (Duration d : durations()) {
      SCOPED_TRACE(text(t.since_origin()) + " advance " + text(d));
      ManualClock clock(t);
      const Status s = clock.advance(d);
      if (d < Duration::zero()) {
        ASSERT_FALSE(s.ok());
        EXPECT_EQ(s.error().code, Errc::invalid_argument);
        EXPECT_NE(s.error().message.find(std::to_string(d.count())), std::string::npos);
        EXPECT_EQ(clock.now(), t) << "unchanged";
      } else {
        ASSERT_TRUE(s.ok());
        EXPECT_EQ(clock.now(), plus(t, d));
      }
      EXPECT_TRUE(clock.set(t + d).ok());
      EXPECT_EQ(clock.set(Instant::at(ClockKind::system, d)).error().code, Errc::clock_mismatch);
    }
  }
}

TEST(ExtremeValuesTest, TickSourcesOfEveryLengthSaturate) {
  for (Duration length : durations()) {
    for (std::uint64_t count : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{1} << 40, ~std::uint64_t{0}}) {
      SCOPED_TRACE(text(length) + " x " + std::to_string(count));
      const TimeSource source = TimeSource::ticks(length, [count] { return count; });
      const Duration::rep step = length.count() > 0 ? length.count() : 1;  // <= 0 counts as 1 ns
      const Duration got = source.now().since_origin();
      if (count != 0 && count > static_cast<std::uint64_t>(Duration::max().count() / step)) {
        EXPECT_EQ(got, Duration::max());
      } else {
        EXPECT_EQ(got.count(), static_cast<Duration::rep>(count) * step);
      }
    }
  }
}

// ---- timers and the runtime -------------------------------------------------------------------

TEST(ExtremeValuesTest, EveryTimerKnobIsCheckedAgainstItsRule) {
  const auto nothing = [](TimerCallbackInfo&) {};
  for (Duration d : durations()) {
    SCOPED_TRACE(text(d));
    const auto refused = [&](const Timer& t, const char* knob) {
      const Status s = t.validate();
      ASSERT_FALSE(s.ok()) << knob;
      EXPECT_EQ(s.error().code, Errc::invalid_argument);
      EXPECT_NE(s.error().message.find(knob), std::string::npos) << s.error().message;
    };
    if (d < Duration::zero()) {
      refused(Timer(nothing).with_delay(d), "delay");
      refused(Timer(nothing).with_interval(d), "interval");
      refused(Timer(nothing).with_timeout(d), "timeout");
      refused(Timer(nothing).with_slack(d), "slack");
      refused(Timer::once(d, nothing), "delay");
    } else {
      EXPECT_TRUE(Timer(nothing).with_delay(d).validate().ok());
      EXPECT_TRUE(Timer(nothing).with_timeout(d).validate().ok());
      EXPECT_TRUE(Timer(nothing).with_slack(d).validate().ok());
      EXPECT_TRUE(Timer::once(d, nothing).validate().ok());
      if (d == Duration::zero()) {
        refused(Timer(nothing).with_interval(d), "interval");
      } else {
        EXPECT_TRUE(Timer::every(d, nothing).validate().ok());
      }
    }
  }
}

TEST(ExtremeValuesTest, TimersOfEveryDelayOnEveryClockRunAtTheirDueTimeOrNever) {
  for (QueueKind queue : {QueueKind::wheel, QueueKind::heap}) {
    for (Instant start : starts()) {
      for (Duration d : durations()) {
        if (d < Duration::zero()) continue;  // refused: above
        for (Duration slack : {Duration::zero(), Duration{50ms}, Duration::max()}) {
          SCOPED_TRACE(text(start.since_origin()) + " delay " + text(d) + " slack " + text(slack));
          ManualClock clock(start);
          WindowRuntime::Options options;
          options.queue = queue;
          WindowRuntime runtime(clock.source(), options);
          std::vector<Instant> ran;
          const TimerId id = TimerId::unique();
          ASSERT_TRUE(runtime.add_timer(id, Timer::once(d, [&](TimerCallbackInfo& info) {
                                              EXPECT_GE(info.frame_start, info.due);
                                              ran.push_back(info.frame_start);
                                            }).with_slack(slack))
                          .ok());
          const Instant due = plus(start, d);
          const auto status = runtime.timer_status(id);
          ASSERT_TRUE(status && status->next_due);
          EXPECT_GE(*status->next_due, due) << "never before its due time";
          EXPECT_LE(*status->next_due - due, slack == Duration::zero() ? Duration::zero() : slack);
          const auto wake = runtime.next_wake();
          ASSERT_TRUE(wake.has_value());
          EXPECT_GE(*wake, Duration::zero());
          // Jump to each wake-up the runtime asks for, a few times: the timer runs at its due
          // instant, or (due past the end of the queue's range) never.
          for (int step = 0; step < 3 && ran.empty(); ++step) {
            const auto next = runtime.next_due();
            if (!next) break;
            if (*next > clock.now()) {
              ASSERT_TRUE(clock.set(*next).ok());
            }
            const ApplyReport report = runtime.poll(clock.now());
            EXPECT_TRUE(report.failures.empty()) << report.failures[0].error.message;
          }
          if (!ran.empty()) {
            EXPECT_GE(ran[0], due);
            EXPECT_LE(ran[0] - due, slack == Duration::zero() ? Duration::zero() : slack);
          } else {
            EXPECT_GE(runtime.next_due().value_or(Instant::max_for(ClockKind::tick)), due);
          }
        }
      }
    }
  }
}

TEST(ExtremeValuesTest, FramesAtEveryInstantAreRunOrClampedAndReported) {
  for (Instant start : starts()) {
    for (Duration d : durations()) {
      SCOPED_TRACE(text(start.since_origin()) + " frame at +" + text(d));
      ManualClock clock(start);
      WindowRuntime runtime(clock.source());
      int runs = 0;
      ASSERT_TRUE(runtime.add_timer(TimerId::unique(), Timer::animation([&](TimerCallbackInfo& info) {
                                      EXPECT_GE(info.frame_start, start) << "never before the origin";
                                      ++runs;
                                    }))
                      .ok());
      const Instant at = plus(start, d);
      const ApplyReport report = runtime.poll(at);
      if (at < start) {
        ASSERT_EQ(report.failures.size(), 1u);
        EXPECT_EQ(report.failures[0].error.code, Errc::clock_went_backwards);
      } else {
        EXPECT_TRUE(report.failures.empty());
      }
      EXPECT_EQ(runs, 1);
      const auto wake = runtime.next_wake(at);
      ASSERT_TRUE(wake.has_value());
      EXPECT_GE(*wake, Duration::zero());
      const Status interval = runtime.set_frame_interval(d);
      if (d <= Duration::zero()) {
        ASSERT_FALSE(interval.ok());
        EXPECT_EQ(interval.error().code, Errc::invalid_argument);
        EXPECT_NE(interval.error().message.find("frame interval"), std::string::npos);
      } else {
        ASSERT_TRUE(interval.ok());
        EXPECT_EQ(runtime.frame_interval(), d);
        EXPECT_GE(runtime.next_wake(at).value(), Duration::zero());
      }
    }
  }
}

TEST(ExtremeValuesTest, RuntimeOptionsOfEveryDurationAreUsable) {
  for (Duration d : durations()) {
    SCOPED_TRACE(text(d));
    ManualClock clock;
    WindowRuntime::Options options;
    options.frame_interval = d;  // <= 0: the default (60 Hz)
    options.join_deadline = d < Duration::zero() || d > 1s ? Duration::zero() : d;
    WindowRuntime runtime(clock.source(), options);
    EXPECT_EQ(runtime.frame_interval(), d > Duration::zero() ? d : WindowRuntime::Options{}.frame_interval);
  }
}

// ---- the queues -------------------------------------------------------------------------------

/// Tick counts: the ends of int64, zero, one, and one either side of every level of the wheel.
template <TimerQueue Queue>
void sweep_queue() {
  for (std::int64_t start : tick_counts()) {
    for (std::int64_t after : tick_counts()) {
      SCOPED_TRACE("start " + std::to_string(start) + " after " + std::to_string(after));
      std::vector<Token> fired;
      std::unique_ptr<Queue> made;
      if constexpr (std::is_same_v<Queue, TimerWheel>) {
        made = std::make_unique<TimerWheel>(Ticks{start});  // a start outside [0, kLastTick] is clamped
        EXPECT_EQ(made->now().count(), std::clamp<std::int64_t>(start, 0, kLastTick.count()));
      } else {
        made = std::make_unique<Queue>();
        (void)made->advance(Ticks{start}, fired);
      }
      Queue& queue = *made;
      const std::int64_t now = queue.now().count();
      const QueueId id = queue.schedule(Ticks{after}, 7);
      const std::int64_t deadline = deadline_after(now, after);
      EXPECT_GT(deadline, now) << "never in the tick it was scheduled in";
      EXPECT_LE(deadline, kMaxTick.count());
      ASSERT_TRUE(queue.next_fire().has_value());
      EXPECT_EQ(queue.next_fire()->count(), deadline);
      for (std::int64_t to : {now - 1, deadline - 1, deadline, INT64_MAX}) {
        fired.clear();
        const std::int64_t before = queue.now().count();
        const AdvanceReport report = queue.advance(Ticks{to}, fired);
        const std::int64_t clamped = clamp_to_timeline(to);  // a time before 0 counts as 0
        EXPECT_EQ(report.went_backwards(), clamped < before) << "a time before now() is clamped and reported";
        EXPECT_EQ(report.clamped_by.count(), clamped < before ? before - clamped : 0);
        EXPECT_GE(queue.now().count(), before);
        EXPECT_LE(queue.now().count(), kLastTick.count());
      }
      const bool reachable = deadline <= kLastTick.count();
      EXPECT_EQ(queue.active_count(), reachable ? 0u : 1u) << "due past the end: never fires, stays pending";
      EXPECT_EQ(queue.cancel(id), !reachable);
    }
  }
}

TEST(ExtremeValuesTest, TheWheelClampsEveryStartDelayAndTime) { sweep_queue<TimerWheel>(); }
TEST(ExtremeValuesTest, TheHeapQueueClampsEveryDelayAndTime) { sweep_queue<HeapTimerQueue>(); }

}  // namespace
}  // namespace cadence
