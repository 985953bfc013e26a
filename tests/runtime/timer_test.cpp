#include "cadence/timer.hpp"

#include <gtest/gtest.h>

#include <string>

namespace cadence {
namespace {

using namespace std::chrono_literals;

TimerCallbackReturn nothing(TimerCallbackInfo&) { return {}; }

void expect_refused(const Timer& t, const std::string& mentions) {
  const Status s = t.validate();
  ASSERT_FALSE(s.ok()) << "expected a refusal mentioning " << mentions;
  EXPECT_EQ(s.error().code, Errc::invalid_argument);
  EXPECT_NE(s.error().message.find(mentions), std::string::npos) << s.error().message;
}

TEST(TimerTest, BuildersSetTheKnobs) {
  const Timer every = Timer::every(100ms, nothing);
  EXPECT_EQ(every.delay(), 100ms);
  EXPECT_EQ(every.interval(), 100ms);
  EXPECT_FALSE(every.timeout());
  const Timer once = Timer::once(500ms, nothing);
  EXPECT_EQ(once.delay(), 500ms);
  EXPECT_EQ(once.timeout(), 500ms);
  EXPECT_FALSE(once.interval());
  const Timer anim = Timer::animation(nothing).with_timeout(300ms).with_owner(WidgetId{7}).with_slack(5ms);
  EXPECT_FALSE(anim.interval());
  EXPECT_EQ(anim.owner(), WidgetId{7});
  EXPECT_EQ(anim.slack(), 5ms);
  EXPECT_EQ(Timer(nothing).missed_ticks(), MissedTicks::skip);
  for (const Timer* t : {&every, &once, &anim}) EXPECT_TRUE(t->validate().ok());
}

TEST(TimerTest, NegativeDelayIsRefused) { expect_refused(Timer(nothing).with_delay(-5ms), "delay -5 ms"); }

TEST(TimerTest, NegativeIntervalIsRefused) { expect_refused(Timer(nothing).with_interval(-1s), "interval -1 s"); }

TEST(TimerTest, ZeroIntervalIsRefusedWithTheAlternative) {
  expect_refused(Timer(nothing).with_interval(0ms), "leave the interval unset");
}

TEST(TimerTest, NegativeTimeoutIsRefused) { expect_refused(Timer(nothing).with_timeout(-250ms), "timeout -250 ms"); }

TEST(TimerTest, TimeoutShorterThanDelayIsRefused) {
  expect_refused(Timer(nothing).with_delay(500ms).with_timeout(100ms), "shorter than delay 500 ms");
  EXPECT_TRUE(Timer(nothing).with_delay(500ms).with_timeout(500ms).validate().ok()) << "equal: one last run";
}

TEST(TimerTest, NegativeSlackIsRefused) { expect_refused(Timer(nothing).with_slack(-1ms), "slack -1 ms"); }

TEST(TimerTest, MergeKeepsTheLargestUpdate) {
  EXPECT_EQ(merge(Update::nothing, Update::redraw_window), Update::redraw_window);
  EXPECT_EQ(merge(Update::redraw_all, Update::redraw_window), Update::redraw_all);
}

}  // namespace
}  // namespace cadence
