// HeapTimerQueue specifics; the shared contract is in timer_queue_test.cpp.
#include "cadence/heap_timer_queue.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace cadence {
namespace {

TEST(HeapTimerQueueTest, CancelledEntriesStayUntilTheyReachTheRoot) {
  HeapTimerQueue queue;
  const QueueId a = queue.schedule(Ticks{100}, 1);
  queue.schedule(Ticks{200}, 2);
  ASSERT_TRUE(queue.cancel(a));
  EXPECT_EQ(queue.active_count(), 1u);
  EXPECT_EQ(queue.heap().size(), 2u) << "lazy deletion: the entry is still held";
  EXPECT_EQ(queue.next_fire(), Ticks{200});  // peeking drops the cancelled root
  EXPECT_EQ(queue.heap().size(), 1u);
  EXPECT_EQ(queue.heap().freed_count(), 1u);
}

TEST(HeapTimerQueueTest, FiredTokensAreNotCountedAsFreed) {
  HeapTimerQueue queue;
  queue.schedule(Ticks{1}, 1);
  std::vector<Token> fired;
  queue.advance(Ticks{1}, fired);
  EXPECT_EQ(fired, std::vector<Token>{1});
  EXPECT_EQ(queue.heap().freed_count(), 0u);
}

}  // namespace
}  // namespace cadence
