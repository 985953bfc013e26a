// timer_status() of a timer its frame is running, or has just run for the last time: next_due is
// still the instant it was filed for (its due time or its timeout, whichever is sooner, rounded
// up for slack), from its own callback, an earlier timer of the frame, and an app's loop between
// run_timers() and apply().
#include <gtest/gtest.h>

#include <optional>

#include "runtime/runtime_fixture.hpp"

namespace cadence::testing {
namespace {

class StatusWhileDueTest : public RuntimeFixture {};
INSTANTIATE_TEST_SUITE_P(Queues, StatusWhileDueTest, ::testing::Values(QueueKind::wheel, QueueKind::heap),
                         queue_name);

// every 100 ms with a 250 ms timeout: after the run at 200 it is filed for 250 (its timeout),
// with times.due = 300.

TEST_P(StatusWhileDueTest, InItsOwnLastRunATimerIsDueAtItsTimeoutNotPastIt) {
  const TimerId id = TimerId::unique();
  std::optional<TimerStatus> inside;
  add(id, Timer::every(100ms, [&](TimerCallbackInfo& info) {
            if (info.is_about_to_finish) inside = runtime.timer_status(id);
          }).with_timeout(250ms));
  frame(100);
  frame(200);
  frame(250);
  ASSERT_TRUE(inside.has_value());
  ASSERT_TRUE(inside->next_due.has_value());
  ASSERT_TRUE(inside->expires.has_value());
  EXPECT_EQ(*inside->next_due, at_ms(250)) << "actual: " << ms_of(*inside->next_due) << " ms";
  EXPECT_LE(*inside->next_due, *inside->expires) << "timer_status.hpp: its due time or timeout, whichever is sooner";
  EXPECT_EQ(inside->remaining, 0ms) << "it is running now";
}

TEST_P(StatusWhileDueTest, AnEarlierTimerOfTheFrameSeesALaterOneDueNowNot50msAway) {
  const TimerId first = TimerId::unique(), second = TimerId::unique();
  std::optional<TimerStatus> seen;
  add(first, Timer::once(250ms, [&](TimerCallbackInfo&) { seen = runtime.timer_status(second); }));
  add(second, Timer::every(100ms, [](TimerCallbackInfo&) {}).with_timeout(250ms));
  frame(100);
  frame(200);
  ASSERT_EQ(runtime.timer_status(second)->next_due, at_ms(250)) << "between frames it is right";
  frame(250);  // both due at 250: `first` (added first) runs, then `second`
  ASSERT_TRUE(seen.has_value());
  ASSERT_TRUE(seen->next_due.has_value());
  EXPECT_EQ(*seen->next_due, at_ms(250)) << "actual: " << ms_of(*seen->next_due) << " ms";
  EXPECT_EQ(seen->remaining, 0ms) << "it runs later in this very frame";
}

TEST_P(StatusWhileDueTest, BetweenRunTimersAndApplyAnEndedTimerSaysNoTimeLeft) {
  const TimerId id = TimerId::unique();
  add(id, Timer::every(100ms, [](TimerCallbackInfo&) {}).with_timeout(250ms));
  frame(100);
  frame(200);
  ASSERT_TRUE(clock.set(at_ms(250)).ok());
  ChangeSet changes;
  runtime.run_timers(clock.now(), changes);  // an app's own loop (window_runtime.hpp)
  const std::optional<TimerStatus> st = runtime.timer_status(id);  // removal waits in `changes`
  ASSERT_TRUE(st.has_value());
  ASSERT_TRUE(st->next_due.has_value());
  EXPECT_EQ(*st->next_due, at_ms(250)) << "actual: " << ms_of(*st->next_due) << " ms";
  EXPECT_EQ(st->remaining, 0ms);
  (void)runtime.apply(std::move(changes));
  EXPECT_FALSE(runtime.timer_status(id).has_value());
}

TEST_P(StatusWhileDueTest, ATimerWithSlackStaysRoundedUpWhileItsFrameRunsIt) {
  // every 100 ms with 8 ms slack: filed for 104 ms (the 8 ms grid).
  const TimerId first = TimerId::unique(), slacked = TimerId::unique();
  std::optional<TimerStatus> seen;
  add(first, Timer::once(104ms, [&](TimerCallbackInfo&) { seen = runtime.timer_status(slacked); }));
  add(slacked, Timer::every(100ms, [](TimerCallbackInfo&) {}).with_slack(8ms));
  ASSERT_EQ(runtime.timer_status(slacked)->next_due, at_ms(104)) << "outside a frame: rounded up";
  frame(104);
  ASSERT_TRUE(seen.has_value());
  ASSERT_TRUE(seen->next_due.has_value());
  EXPECT_EQ(*seen->next_due, at_ms(104)) << "timer_status.hpp: rounded up for slack; actual "
                                         << ms_of(*seen->next_due) << " ms";
}

}  // namespace
}  // namespace cadence::testing
