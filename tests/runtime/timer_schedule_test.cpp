// The schedule arithmetic (due_queue.hpp) on its own, at its edges: ticks before the origin and
// at the end of the timeline, slack below, at and above 1 ms, every missed-ticks policy at
// exact multiples and in between, burst's cap, saturation, and the hidden window's throttle.
#include "due_queue.hpp"

#include <gtest/gtest.h>

#include <chrono>

namespace cadence::detail {
namespace {

using namespace std::chrono_literals;

Instant at(Duration d) { return Instant::at(ClockKind::tick, d); }
const Instant kEnd = Instant::max_for(ClockKind::tick);

TEST(TimelineTest, TicksRoundDownAndUpOnBothSidesOfTheOrigin) {
  const Timeline line(at(10ms));
  EXPECT_EQ(line.floor(at(10ms)), 0);
  EXPECT_EQ(line.ceil(at(10ms)), 0);
  EXPECT_EQ(line.floor(at(11'400us)), 1);
  EXPECT_EQ(line.ceil(at(11'400us)), 2);
  EXPECT_EQ(line.floor(at(12ms - 1ns)), 1);
  EXPECT_EQ(line.floor(at(9'999'999ns)), -1) << "one nanosecond before the origin is tick -1";
  EXPECT_EQ(line.ceil(at(9'999'999ns)), 0);
  EXPECT_EQ(line.start_of(3), at(13ms));
}

TEST(TimelineTest, TheLastTickIsTheOneTheEndOfTheTimelineFallsIn) {
  const Timeline line(at(0ns));
  EXPECT_EQ(line.last_tick(), Duration::max().count() / 1'000'000);
  EXPECT_LE(line.start_of(line.last_tick()), kEnd);
  EXPECT_EQ(line.start_of(line.last_tick() + 1000), line.start_of(line.last_tick()))
      << "past the span a Duration covers, start_of saturates instead of overflowing";
  EXPECT_EQ(Timeline(at(Duration::max())).last_tick(), 0) << "an origin at the end leaves one tick";
}

TEST(PlaceTest, WithoutSlackATimerIsFiledUnderItsMillisecondAndRunsAtItsInstant) {
  const Timeline line(at(0ns));
  const Placement p = place(line, at(5'300us), 0ns);
  EXPECT_EQ(p.tick, 5);
  EXPECT_EQ(p.exact, at(5'300us));
  const Placement sub = place(line, at(5'300us), 999us);
  EXPECT_EQ(sub.tick, 5) << "slack under 1 ms does nothing";
  EXPECT_EQ(sub.exact, at(5'300us));
  const Placement before = place(line, at(-3ms), 0ns);
  EXPECT_EQ(before.tick, 0) << "before the origin: the first tick";
  EXPECT_EQ(before.exact, at(-3ms)) << "and still due at its own instant";
}

TEST(PlaceTest, SlackRoundsUpToTheLargestPowerOfTwoMillisecondsNotAboveIt) {
  const Timeline line(at(0ns));
  EXPECT_EQ(place(line, at(5'300us), 1ms).tick, 6);
  EXPECT_EQ(place(line, at(5'300us), 1ms).exact, at(6ms));
  EXPECT_EQ(place(line, at(5'300us), 7ms).tick, 8) << "grid of 4 ms";
  EXPECT_EQ(place(line, at(8ms), 7ms).tick, 8) << "on the grid already: not moved";
  EXPECT_EQ(place(line, at(8ms), 7ms).exact, at(8ms));
  EXPECT_EQ(place(line, at(1'000'001us), 1000ms).tick, 1024) << "grid of 512 ms";
  for (Duration slack : {Duration{1ms}, Duration{3ms}, Duration{64ms}, Duration{1000ms}}) {
    for (Duration t : {Duration{1ms}, Duration{1'001us}, Duration{999'999us}, Duration{123'456'789ns}}) {
      const Placement p = place(line, at(t), slack);
      EXPECT_GE(p.exact, at(t)) << "never early";
      EXPECT_LE(p.exact - at(t), slack) << "never more than its slack late";
    }
  }
}

TEST(PlaceTest, AtTheEndOfTheTimelineSlackStaysOnTheLastTickAndNeverBeforeTheDueTime) {
  const Timeline line(at(0ns));
  const Placement p = place(line, kEnd, 1000ms);
  EXPECT_EQ(p.tick, line.last_tick());
  EXPECT_EQ(p.exact, kEnd);
  const Placement near = place(line, kEnd - 2ms, 1000ms);
  EXPECT_EQ(near.tick, line.last_tick());
  EXPECT_GE(near.exact, kEnd - 2ms);
}

TEST(QueueTargetTest, TheDueTimeHeldBackButNeverPastTheExpiry) {
  EXPECT_EQ(queue_target(at(5ms), std::nullopt, std::nullopt, false), at(5ms));
  EXPECT_EQ(queue_target(at(5ms), at(3ms), std::nullopt, false), at(3ms)) << "the expiry comes first";
  EXPECT_EQ(queue_target(at(5ms), std::nullopt, at(9ms), false), at(9ms)) << "held back";
  EXPECT_EQ(queue_target(at(5ms), at(7ms), at(9ms), false), at(7ms)) << "held back, but not past its expiry";
  EXPECT_EQ(queue_target(at(5ms), std::nullopt, at(2ms), false), at(5ms)) << "an earlier hold does nothing";
  EXPECT_EQ(queue_target(at(5ms), at(20ms), std::nullopt, true), at(20ms)) << "animating: queued for its expiry";
}

TEST(NthDueTest, SaturatesAtTheEndOfTheTimeline) {
  EXPECT_EQ(nth_due(at(1ms), 10ms, 0), at(1ms));
  EXPECT_EQ(nth_due(at(1ms), 10ms, 3), at(31ms));
  EXPECT_EQ(nth_due(at(1ms), Duration::max(), 2), kEnd);
  EXPECT_EQ(nth_due(at(1ms), 1ns, ~std::uint64_t{0}), kEnd);
  EXPECT_EQ(nth_due(at(0ns), 1ns, static_cast<std::uint64_t>(Duration::max().count())), kEnd);
}

TEST(CatchUpTest, SkipRunsOnceForTheLastDueTimeReachedAndCountsTheRest) {
  const CatchUp on_time = catch_up(at(10ms), 10ms, at(10ms), MissedTicks::skip);
  EXPECT_EQ(on_time.runs, 1u);
  EXPECT_EQ(on_time.first_due, at(10ms));
  EXPECT_EQ(on_time.missed, 0u);
  EXPECT_EQ(on_time.next, at(20ms));
  const CatchUp between = catch_up(at(10ms), 10ms, at(39'999us), MissedTicks::skip);
  EXPECT_EQ(between.first_due, at(30ms)) << "10, 20 and 30 reached";
  EXPECT_EQ(between.missed, 2u);
  EXPECT_EQ(between.next, at(40ms));
  const CatchUp exact = catch_up(at(10ms), 10ms, at(40ms), MissedTicks::skip);
  EXPECT_EQ(exact.first_due, at(40ms)) << "a frame exactly on a due time reaches it";
  EXPECT_EQ(exact.missed, 3u);
  EXPECT_EQ(exact.next, at(50ms));
}

TEST(CatchUpTest, BurstRunsOncePerDueTimeReachedUpToItsCap) {
  const CatchUp three = catch_up(at(10ms), 10ms, at(35ms), MissedTicks::burst);
  EXPECT_EQ(three.runs, 3u);
  EXPECT_EQ(three.first_due, at(10ms));
  EXPECT_EQ(three.missed, 0u);
  EXPECT_EQ(three.next, at(40ms));
  const CatchUp capped = catch_up(at(0ns), 1ms, at(10s), MissedTicks::burst);
  EXPECT_EQ(capped.runs, Timer::kMaxBurstRuns);
  EXPECT_EQ(capped.next, at(std::chrono::milliseconds(Timer::kMaxBurstRuns))) << "the rest wait for the next frame";
}

TEST(CatchUpTest, DelayRunsOnceAndCountsTheNextIntervalFromTheFrame) {
  const CatchUp late = catch_up(at(10ms), 10ms, at(37ms), MissedTicks::delay);
  EXPECT_EQ(late.runs, 1u);
  EXPECT_EQ(late.first_due, at(10ms));
  EXPECT_EQ(late.missed, 0u);
  EXPECT_EQ(late.next, at(47ms));
}

TEST(CatchUpTest, AFrameAtTheEndOfTheTimelineSaturatesEveryPolicy) {
  for (MissedTicks policy : {MissedTicks::skip, MissedTicks::burst, MissedTicks::delay}) {
    const CatchUp plan = catch_up(at(0ns), 1ms, kEnd, policy);
    EXPECT_LE(plan.next, kEnd);
    EXPECT_GE(plan.next, plan.first_due);
  }
  const CatchUp skip = catch_up(at(0ns), Duration::max(), kEnd, MissedTicks::skip);
  EXPECT_EQ(skip.first_due, kEnd) << "one interval of Duration::max() reaches the end";
  EXPECT_EQ(skip.next, kEnd);
  const CatchUp huge = catch_up(kEnd - 1ns, Duration::max(), kEnd, MissedTicks::delay);
  EXPECT_EQ(huge.next, kEnd);
}

// The table holds a throttled timer back to `last run + period` through queue_target().
TEST(QueueTargetTest, AThrottleHoldSaturatesAndNeverPassesTheExpiry) {
  const Instant hold = (kEnd - 1ms) + Duration::max();
  EXPECT_EQ(hold, kEnd) << "last run + the longest period saturates at the end of the timeline";
  EXPECT_EQ(queue_target(at(5ms), std::nullopt, hold, false), kEnd);
  EXPECT_EQ(queue_target(at(5ms), at(400ms), hold, false), at(400ms)) << "its last run, at its expiry, is not held back";
}

}  // namespace
}  // namespace cadence::detail
