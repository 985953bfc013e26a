#include "cadence/manual_clock.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "cadence/timer_wheel.hpp"

#include "tick_instants.hpp"

namespace cadence {
namespace {

using namespace std::chrono_literals;

using testing::tick_at;

TEST(ManualClockTest, StartsWhereToldAndAdvancesExactly) {
  ManualClock clock(tick_at(5ms));
  EXPECT_EQ(clock.now(), tick_at(5ms));
  ASSERT_TRUE(clock.advance(100ms).ok());
  EXPECT_EQ(clock.now(), tick_at(105ms));
  ASSERT_TRUE(clock.advance(0ms).ok());
  EXPECT_EQ(clock.now(), tick_at(105ms));
}

TEST(ManualClockTest, NegativeAdvanceIsRefusedAndTimeStays) {
  ManualClock clock(tick_at(1s));
  const Status s = clock.advance(-1ms);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, Errc::invalid_argument);
  EXPECT_NE(s.error().message.find("-1000000"), std::string::npos) << s.error().message;
  EXPECT_NE(s.error().message.find("set()"), std::string::npos) << "names the way to go backwards";
  EXPECT_EQ(clock.now(), tick_at(1s));
}

TEST(ManualClockTest, AdvanceSaturatesAtTheEndOfTime) {
  ManualClock clock(tick_at(1s));
  ASSERT_TRUE(clock.advance(Duration::max()).ok());
  EXPECT_EQ(clock.now(), Instant::max_for(ClockKind::tick));
}

TEST(ManualClockTest, SetMovesEitherWayButOnlyOnItsOwnTimeline) {
  ManualClock clock(tick_at(1s));
  ASSERT_TRUE(clock.set(tick_at(400ms)).ok());
  EXPECT_EQ(clock.now(), tick_at(400ms));
  const Status s = clock.set(Instant::at(ClockKind::system, 2s));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, Errc::clock_mismatch);
  EXPECT_EQ(clock.now(), tick_at(400ms));
}

TEST(ManualClockTest, SourceReadsTheClock) {
  ManualClock clock;
  const TimeSource source = clock.source();
  EXPECT_EQ(source.kind(), ClockKind::tick);
  ASSERT_TRUE(clock.advance(16ms).ok());
  EXPECT_EQ(source.now(), tick_at(16ms));
}

// Drives a TimerWheel whose ticks are the clock's milliseconds.
struct WheelDriver {
  TimerWheel wheel;
  std::vector<std::pair<Token, Duration>> log;  // token and when it fired

  std::optional<Instant> next_due() {
    auto next = wheel.next_fire();
    if (!next) return std::nullopt;
    return tick_at(*next);
  }
  void poll(Instant now) {
    std::vector<Token> fired;
    wheel.advance(std::chrono::duration_cast<Ticks>(now.since_origin()), fired);
    for (Token t : fired) log.emplace_back(t, now.since_origin());
  }
};

TEST(ManualClockTest, RunUntilIdleJumpsToEachDeadline) {
  ManualClock clock;
  WheelDriver d;
  d.wheel.schedule(Ticks{30}, 3);
  d.wheel.schedule(Ticks{10}, 1);
  d.wheel.schedule(Ticks{20'000}, 4);  // on a coarse level: still exact
  d.wheel.schedule(Ticks{10}, 2);
  const RunReport r = clock.run_until_idle([&] { return d.next_due(); }, [&](Instant now) { d.poll(now); });
  EXPECT_TRUE(r.idle);
  EXPECT_EQ(r.steps, 3u);  // 10 ms (two timers), 30 ms, 20 s
  const std::vector<std::pair<Token, Duration>> expected = {{1, 10ms}, {2, 10ms}, {3, 30ms}, {4, 20s}};
  EXPECT_EQ(d.log, expected);
  EXPECT_EQ(clock.now(), tick_at(20s));
}

TEST(ManualClockTest, RunUntilIdleStopsAfterMaxSteps) {
  ManualClock clock;
  int polls = 0;
  // Something always due one millisecond later: never idle.
  const RunReport r = clock.run_until_idle([&] { return std::optional<Instant>(clock.now() + 1ms); },
                                           [&](Instant) { ++polls; }, 50);
  EXPECT_FALSE(r.idle);
  EXPECT_EQ(r.steps, 50u);
  EXPECT_EQ(polls, 50);
  EXPECT_EQ(clock.now(), tick_at(50ms));
}

TEST(ManualClockTest, RunUntilStopsAtTheLimit) {
  ManualClock clock;
  WheelDriver d;
  d.wheel.schedule(Ticks{10}, 1);
  d.wheel.schedule(Ticks{500}, 2);
  const RunReport r = clock.run_until(tick_at(100ms), [&] { return d.next_due(); }, [&](Instant now) { d.poll(now); });
  EXPECT_FALSE(r.idle);
  EXPECT_EQ(r.steps, 1u);
  EXPECT_EQ(clock.now(), tick_at(100ms));
  ASSERT_EQ(d.log.size(), 1u);
  EXPECT_EQ(d.log[0].first, 1u);
}

TEST(ManualClockTest, RunUntilIdleRejectsASystemInstant) {
  ManualClock clock;
  EXPECT_THROW(clock.run_until_idle([] { return std::optional<Instant>(Instant::at(ClockKind::system, 1s)); },
                                    [](Instant) {}),
               ClockMismatch);
  EXPECT_EQ(clock.now(), tick_at(0ms));
}

}  // namespace
}  // namespace cadence
