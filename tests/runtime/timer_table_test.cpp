// TimerTable outside a frame: an add, a resume or a change of visibility after an idle moves the
// queue on only over time in which nothing is due, so it never fills the short list with the
// timers that came due meanwhile (a frame takes those). Runs on both queues.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>

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
  EXPECT_EQ(table.next_due(16ms, std::nullopt), at_ms(1)) << "the earliest due timer, which the next frame runs";
}

TEST_P(TimerTableTest, AnAddAfterAnIdleWithNothingDueIsFiledFromNow) {
  const TimerId far = TimerId::unique();
  ASSERT_TRUE(table.add(far, quiet(std::chrono::hours(2)), at_ms(0)).ok());
  ASSERT_TRUE(table.add(TimerId::unique(), quiet(1'500us), at_ms(100'000)).ok());
  EXPECT_EQ(table.held_size(), 0u);
  EXPECT_EQ(table.next_due(16ms, std::nullopt), at_ms(100'000) + 1'500us) << "exact: listed on level 0";
  ASSERT_TRUE(table.remove(far).ok());
  EXPECT_EQ(table.next_due(16ms, std::nullopt), at_ms(100'000) + 1'500us);
}

}  // namespace
}  // namespace cadence::testing
