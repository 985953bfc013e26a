// TickQueue: the timer table's queue, on both kinds, and the listing of its next tick that the
// table finds exact due times with: fire order, cancelled entries, the limit, the wheel's coarse
// levels, and the cached answer following every schedule, cancel and firing advance.
#include "due_queue.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "runtime_fixture.hpp"

namespace cadence::detail {
namespace {

using Tokens = std::vector<Token>;

class TickQueueTest : public ::testing::TestWithParam<QueueKind> {
 protected:
  /// The listing, or {999} for "cannot list".
  Tokens listed() {
    const Tokens* t = queue_.next_tokens();
    return t == nullptr ? Tokens{999} : *t;
  }
  TickQueue queue_{GetParam()};
};
INSTANTIATE_TEST_SUITE_P(Queues, TickQueueTest, ::testing::Values(QueueKind::wheel, QueueKind::heap),
                         testing::queue_name);

TEST_P(TickQueueTest, ListsTheTimersOfTheNextTickInFireOrderAndFollowsEveryChange) {
  EXPECT_EQ(listed(), Tokens{}) << "an empty queue lists nothing";
  EXPECT_EQ(queue_.next_tick(), std::nullopt);
  queue_.schedule(40, 1);
  const QueueId b = queue_.schedule(30, 2);
  queue_.schedule(30, 3);
  EXPECT_EQ(listed(), (Tokens{2, 3}));
  EXPECT_EQ(listed(), (Tokens{2, 3})) << "asking again changes nothing";
  queue_.schedule(30, 4);
  EXPECT_EQ(listed(), (Tokens{2, 3, 4})) << "a schedule into the listed tick is seen";
  queue_.schedule(20, 5);
  EXPECT_EQ(listed(), Tokens{5}) << "an earlier tick replaces the listing";
  EXPECT_EQ(queue_.advance(20), Tokens{5});
  EXPECT_EQ(listed(), (Tokens{2, 3, 4})) << "a firing advance is seen";
  queue_.cancel(b);
  EXPECT_EQ(listed(), (Tokens{3, 4})) << "a cancelled timer is not listed";
  queue_.cancel(b);  // stale: ignored
  EXPECT_EQ(queue_.advance(25), Tokens{});
  EXPECT_EQ(listed(), (Tokens{3, 4}));
  EXPECT_EQ(queue_.advance(30), (Tokens{3, 4}));
  EXPECT_EQ(queue_.next_tick(), 40);
  EXPECT_EQ(listed(), Tokens{1});
}

TEST_P(TickQueueTest, ABusierTickThanTheLimitIsNotListedAndNothingIsTakenOut) {
  for (Token t = 1; t <= TickQueue::kListMax; ++t) queue_.schedule(5, t);
  EXPECT_EQ(listed().size(), TickQueue::kListMax) << "exactly the limit is listed";
  queue_.schedule(5, 1000);
  EXPECT_EQ(queue_.next_tokens(), nullptr);
  EXPECT_EQ(queue_.next_tick(), 5);
  EXPECT_EQ(queue_.advance(5).size(), TickQueue::kListMax + 1) << "nothing was taken out";
  EXPECT_EQ(listed(), Tokens{});
}

TEST(TickQueueWheelTest, ATickOnACoarseLevelIsListedOnceTheWheelHasBroughtItDown) {
  TickQueue queue(QueueKind::wheel);
  const std::int64_t far = 3 * (std::int64_t{1} << WheelCore::kLevel1Shift) + 123;  // level 1 at first
  queue.schedule(far, 1);
  queue.schedule(far, 2);
  EXPECT_EQ(queue.next_tokens(), nullptr) << "its entries still sit in a coarse slot";
  EXPECT_EQ(queue.next_tick(), far) << "the tick itself is known";
  // Frames carry it down to level 0 well before it is due; advances that fire nothing ask again.
  for (std::int64_t now = 16; now < far - 16; now += 16) ASSERT_TRUE(queue.advance(now).empty());
  ASSERT_NE(queue.next_tokens(), nullptr);
  EXPECT_EQ(*queue.next_tokens(), (Tokens{1, 2}));
}

TEST(TickQueueWheelTest, ACoarseTickIsAskedAboutAgainFromTheTickItsBlockBeginsToMoveDown) {
  TickQueue queue(QueueKind::wheel);
  constexpr std::int64_t kWidth = std::int64_t{1} << WheelCore::kLevel1Shift;  // a level-1 block
  const std::int64_t far = 3 * kWidth + 123;  // in level-1 block 3, whose move opens at 2 * kWidth
  queue.schedule(far, 7);
  ASSERT_EQ(queue.next_tokens(), nullptr);
  ASSERT_TRUE(queue.advance(2 * kWidth).empty());
  EXPECT_EQ(queue.next_tokens(), nullptr) << "at the window's start the block has not begun to move";
  ASSERT_TRUE(queue.advance(2 * kWidth + 1).empty());
  ASSERT_NE(queue.next_tokens(), nullptr) << "one tick later it has, and the table is told at once";
  EXPECT_EQ(*queue.next_tokens(), Tokens{7});
}

TEST(TickQueueWheelTest, ABlockLargerThanOnePeekMovesIsListedOnlyOnceItsDrainHasShrunkIt) {
  TickQueue queue(QueueKind::wheel);
  constexpr std::int64_t kWidth = std::int64_t{1} << WheelCore::kLevel1Shift;
  const std::int64_t far = 3 * kWidth;  // the first tick of level-1 block 3
  queue.schedule(far, 1);
  queue.schedule(far, 2);
  constexpr Token kMore = WheelCore::kListDrainMax + 100;  // later ticks of the same block
  for (Token t = 0; t < kMore; ++t) queue.schedule(far + 1 + static_cast<std::int64_t>(t % 1000), 100 + t);
  ASSERT_TRUE(queue.advance(2 * kWidth + 1).empty());
  EXPECT_EQ(queue.next_tokens(), nullptr) << "the block has begun moving but holds more than one peek moves";
  // The drain moves a share at every advance; the listing comes as soon as what is left is small
  // enough, and in any case before the tick is due.
  std::int64_t listed_at = -1;
  for (std::int64_t now = 2 * kWidth + 2; now < far; ++now) {
    ASSERT_TRUE(queue.advance(now).empty());
    if (const Tokens* t = queue.next_tokens()) {
      EXPECT_EQ(*t, (Tokens{1, 2}));
      listed_at = now;
      break;
    }
  }
  ASSERT_GT(listed_at, 2 * kWidth + 1);
  EXPECT_LT(listed_at, far);
  EXPECT_EQ(queue.advance(far), (Tokens{1, 2}));
}

}  // namespace
}  // namespace cadence::detail
