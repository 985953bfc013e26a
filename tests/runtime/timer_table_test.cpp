// TimerTable outside a frame: an add, a resume or a change of visibility after an idle moves the
// queue on only over time in which nothing is due, and only to the millisecond before now, so
// it never fills the short list: not with the timers that came due meanwhile (a frame takes
// those), nor with timers filed at now itself. Runs on both queues.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

#include "runtime_fixture.hpp"
#include "timer_table.hpp"

namespace cadence::testing {
namespace {

using detail::TimerTable;

Timer quiet(Duration delay) {
  return Timer::once(delay, [](TimerCallbackInfo&) {});
}

class TimerTableTest : public ::testing::TestWithParam<QueueKind> {
 protected:
  TimerTable table{at_ms(0), GetParam()};
};
INSTANTIATE_TEST_SUITE_P(Queues, TimerTableTest, ::testing::Values(QueueKind::wheel, QueueKind::heap), queue_name);

TEST_P(TimerTableTest, AnAddAfterTimersCameDueLeavesThemInTheQueueForTheFrame) {
  for (std::int64_t ms = 1; ms <= 1'000; ++ms) {
    ASSERT_TRUE(table.add(TimerId::unique(), quiet(std::chrono::milliseconds(ms)), at_ms(0)).ok());
  }
  ASSERT_TRUE(table.add(TimerId::unique(), quiet(1ms), at_ms(5'000)).ok());
  EXPECT_EQ(table.held_size(), 0u) << "the 1,000 due timers stay queued: nothing is fired outside a frame";
  const TimerId paused = TimerId::unique();
  ASSERT_TRUE(table.add(paused, quiet(10ms), at_ms(0)).ok());
  ASSERT_TRUE(table.pause(paused, at_ms(0)).ok());
  ASSERT_TRUE(table.resume(paused, at_ms(6'000)).ok());
  table.set_hidden(true, at_ms(7'000));
  table.set_hidden(false, at_ms(8'000));
  EXPECT_EQ(table.held_size(), 0u);
  EXPECT_EQ(table.size(), 1'002u);
  EXPECT_EQ(table.next_timer_due(), at_ms(1)) << "the earliest due timer, which the next frame runs";
}

// Timers overdue when the window hid pause with nothing left; shown (or resumed) after an idle
// with nothing due, they are due at that very instant, which the queue, one millisecond behind,
// still holds: none waits in the short list, whose removals would search it.
TEST_P(TimerTableTest, TimersShownOrResumedWithNothingLeftAfterAnIdleWaitInTheQueue) {
  std::vector<TimerId> ids;
  for (int i = 0; i < 1'000; ++i) {
    ids.push_back(TimerId::unique());
    ASSERT_TRUE(table.add(ids.back(), quiet(1ms).with_when_hidden(WhenHidden::pause()), at_ms(0)).ok());
  }
  table.set_hidden(true, at_ms(5'000));  // all overdue: paused with nothing left
  table.set_hidden(false, at_ms(6'000));
  EXPECT_EQ(table.held_size(), 0u);
  EXPECT_EQ(table.next_timer_due(), at_ms(6'000)) << "due at once";
  for (const TimerId id : ids) ASSERT_TRUE(table.pause(id, at_ms(6'000)).ok());
  for (const TimerId id : ids) ASSERT_TRUE(table.resume(id, at_ms(9'000)).ok());
  EXPECT_EQ(table.held_size(), 0u);
  EXPECT_EQ(table.next_timer_due(), at_ms(9'000));
  const std::optional<TimerStatus> status = table.status(ids.front(), at_ms(9'000));
  ASSERT_TRUE(status.has_value());
  EXPECT_EQ(status->next_due, at_ms(9'000));
}

TEST_P(TimerTableTest, AnAddAfterAnIdleWithNothingDueIsFiledFromNow) {
  const TimerId far = TimerId::unique();
  ASSERT_TRUE(table.add(far, quiet(std::chrono::hours(2)), at_ms(0)).ok());
  ASSERT_TRUE(table.add(TimerId::unique(), quiet(1'500us), at_ms(100'000)).ok());
  EXPECT_EQ(table.held_size(), 0u);
  EXPECT_EQ(table.next_timer_due(), at_ms(100'000) + 1'500us) << "exact: listed on level 0";
  ASSERT_TRUE(table.remove(far).ok());
  EXPECT_EQ(table.next_timer_due(), at_ms(100'000) + 1'500us);
}

}  // namespace
}  // namespace cadence::testing
