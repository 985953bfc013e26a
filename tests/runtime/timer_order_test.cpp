// The order timers run in within one frame (timer.hpp): due timers by due instant, ties in the
// order they were added, whatever was queued when; then animation timers in the order they were
// added, whatever their delays, pauses and resumes. Both queues.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "runtime_fixture.hpp"

namespace cadence::testing {
namespace {

using Names = std::vector<std::string>;

class TimerOrderTest : public RuntimeFixture {
 protected:
  /// The names of the timers that ran in the frame at `ms`, in order.
  Names ran_at(std::int64_t ms) const {
    Names out;
    for (const TimerRun& r : runs) {
      if (r.at_ms == ms) out.push_back(r.name);
    }
    return out;
  }
};
INSTANTIATE_TEST_SUITE_P(Queues, TimerOrderTest, ::testing::Values(QueueKind::wheel, QueueKind::heap), queue_name);

TEST_P(TimerOrderTest, EqualDueTimesRunInTheOrderAddedNotTheOrderQueued) {
  // The interval timer is queued again at 90 ms for 120 ms, after the one-shot was queued (at
  // 0 ms) for 120 ms; it was added first, so it runs first.
  add(TimerId::unique(), logged("every").with_delay(30ms).with_interval(30ms));
  add(TimerId::unique(), logged("once").with_delay(120ms).with_timeout(120ms));
  run_until(120);
  EXPECT_EQ(ran_at(120), (Names{"every", "once"}));
}

TEST_P(TimerOrderTest, TiesAcrossAQueueHandOverAndTheShortListKeepTheOrderAdded) {
  // Added in the order a, b, c, d; all due at 50.5 ms, queued at different times and some
  // re-queued from a run, some through the sub-millisecond short list.
  add(TimerId::unique(), logged("a").with_delay(10'100us).with_interval(10'100us));  // 10.1, 20.2, ... 50.5
  add(TimerId::unique(), logged("b").with_delay(50'500us).with_timeout(50'500us));
  add(TimerId::unique(), logged("c").with_delay(25'250us).with_interval(25'250us));  // 25.25, 50.5
  add(TimerId::unique(), logged("d").with_delay(50'500us).with_timeout(50'500us));
  clock.run_until(Instant::at(ClockKind::tick, 50'500us), [&] { return runtime.next_due(); },
                  [&](Instant now) { last = runtime.poll(now); });
  Names at_end;
  for (const TimerRun& r : runs) {
    if (r.at_ms == 50) at_end.push_back(r.name);
  }
  EXPECT_EQ(at_end, (Names{"a", "b", "c", "d"}));
}

TEST_P(TimerOrderTest, ARestartedTimerCountsAsAddedAgain) {
  const TimerId first = TimerId::unique();
  add(first, logged("first").with_delay(100ms).with_timeout(100ms));
  add(TimerId::unique(), logged("second").with_delay(100ms).with_timeout(100ms));
  ASSERT_TRUE(runtime.remove_timer(first).ok());
  add(first, logged("first").with_delay(100ms).with_timeout(100ms));  // the documented restart
  frame(100);
  EXPECT_EQ(ran_at(100), (Names{"second", "first"}));
}

TEST_P(TimerOrderTest, ADelayedAnimationAddedFirstRunsFirst) {
  add(TimerId::unique(), logged("delayed").with_delay(20ms));
  add(TimerId::unique(), logged("now"));
  for (std::int64_t ms : {0, 16, 32, 48}) frame(ms);
  EXPECT_EQ(ran_at(0), (Names{"now"}));
  EXPECT_EQ(ran_at(32), (Names{"delayed", "now"})) << "its delay ended: due phase, then animations";
  EXPECT_EQ(ran_at(48), (Names{"delayed", "now"})) << "both every frame now, in the order added";
}

TEST_P(TimerOrderTest, PauseAndResumeKeepAnAnimationsPlace) {
  const TimerId a = TimerId::unique();
  add(a, logged("a"));
  add(TimerId::unique(), logged("b"));
  add(TimerId::unique(), logged("c"));
  frame(0);
  ASSERT_TRUE(runtime.pause_timer(a).ok());
  frame(16);
  ASSERT_TRUE(runtime.resume_timer(a).ok());
  frame(32);
  EXPECT_EQ(ran_at(0), (Names{"a", "b", "c"}));
  EXPECT_EQ(ran_at(16), (Names{"b", "c"}));
  EXPECT_EQ(ran_at(32), (Names{"a", "b", "c"}));
}

TEST_P(TimerOrderTest, AnAnimationPausedBeforeItsDelayEndedKeepsItsPlaceToo) {
  const TimerId a = TimerId::unique();
  add(a, logged("a").with_delay(10ms));
  add(TimerId::unique(), logged("b"));
  frame(0);
  ASSERT_TRUE(runtime.pause_timer(a).ok());
  frame(16);
  ASSERT_TRUE(runtime.resume_timer(a).ok());  // 10 ms left to its delay
  frame(32);
  frame(48);
  EXPECT_EQ(ran_at(32), (Names{"a", "b"}));
  EXPECT_EQ(ran_at(48), (Names{"a", "b"}));
}

TEST_P(TimerOrderTest, DueTimersRunBeforeAnimationsAddedEarlier) {
  add(TimerId::unique(), logged("anim"));
  add(TimerId::unique(), logged("tick").with_delay(16ms).with_interval(16ms));
  frame(0);
  frame(16);
  EXPECT_EQ(ran_at(16), (Names{"tick", "anim"}));
}

}  // namespace
}  // namespace cadence::testing
