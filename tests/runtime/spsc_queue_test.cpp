#include "cadence/detail/spsc_queue.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <thread>

namespace cadence::detail {
namespace {

TEST(SpscQueueTest, FifoAcrossBlocks) {
  SpscQueue<int, 4> q;
  EXPECT_TRUE(q.empty());
  EXPECT_FALSE(q.pop().has_value());
  for (int i = 0; i < 11; ++i) q.push(i);
  EXPECT_FALSE(q.empty());
  for (int i = 0; i < 11; ++i) {
    auto v = q.pop();
    ASSERT_TRUE(v.has_value());
    EXPECT_EQ(*v, i);
  }
  EXPECT_TRUE(q.empty());
  // Blocks are recycled: a second round reuses them.
  for (int i = 0; i < 9; ++i) q.push(i);
  for (int i = 0; i < 9; ++i) EXPECT_EQ(*q.pop(), i);
}

TEST(SpscQueueTest, MoveOnlyItemsAndLeftoversAreDestroyed) {
  auto counter = std::make_shared<int>(0);
  {
    SpscQueue<std::shared_ptr<int>, 8> q;
    for (int i = 0; i < 20; ++i) q.push(counter);
    EXPECT_EQ(counter.use_count(), 21);
    (void)q.pop();
    EXPECT_EQ(counter.use_count(), 20);
  }
  EXPECT_EQ(counter.use_count(), 1) << "the queue destroyed what was left";
}

TEST(SpscQueueTest, OneProducerOneConsumerLoseNothing) {
  SpscQueue<std::uint64_t, 64> q;
  constexpr std::uint64_t kCount = 1'000'000;
  std::thread producer([&] {
    for (std::uint64_t i = 0; i < kCount; ++i) q.push(i);
  });
  std::uint64_t next = 0;
  while (next < kCount) {
    if (auto v = q.pop()) {
      ASSERT_EQ(*v, next);
      ++next;
    } else {
      std::this_thread::yield();
    }
  }
  producer.join();
  EXPECT_TRUE(q.empty());
}

}  // namespace
}  // namespace cadence::detail
