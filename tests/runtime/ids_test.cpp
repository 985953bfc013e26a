#include "cadence/ids.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <thread>
#include <unordered_set>
#include <vector>

namespace cadence {
namespace {

TEST(IdsTest, SystemTimerIdsAreTheReservedOnes) {
  EXPECT_EQ(kCursorBlinkTimer.value, 0x0001u);
  EXPECT_EQ(kScrollMomentumTimer.value, 0x0002u);
  EXPECT_EQ(kDragAutoscrollTimer.value, 0x0003u);
  EXPECT_EQ(kTooltipDelayTimer.value, 0x0004u);
  for (TimerId id : {kCursorBlinkTimer, kScrollMomentumTimer, kDragAutoscrollTimer, kTooltipDelayTimer}) {
    EXPECT_TRUE(id.is_system());
  }
  EXPECT_TRUE(TimerId{0x00FF}.is_system());
  EXPECT_FALSE(TimerId{0x0100}.is_system());
  EXPECT_FALSE(TimerId{}.is_valid());
  EXPECT_FALSE(TimerId{}.is_system());
}

TEST(IdsTest, UniqueTimerIdsStartAboveTheReservedRange) {
  const TimerId a = TimerId::unique();
  const TimerId b = TimerId::unique();
  EXPECT_GE(a.value, kFirstUserTimerId);
  EXPECT_FALSE(a.is_system());
  EXPECT_NE(a, b);
}

TEST(IdsTest, UniqueThreadIdsStartAtFive) {
  const ThreadId a = ThreadId::unique();
  EXPECT_GE(a.value, 5u);
  EXPECT_FALSE(a.is_system());
  EXPECT_TRUE(ThreadId{4}.is_system());
  EXPECT_FALSE(ThreadId{5}.is_system());
}

TEST(IdsTest, IdsAreUniqueAcrossThreads) {
  constexpr std::size_t kThreads = 4;
  constexpr int kPerThread = 20000;
  std::vector<std::vector<std::uint64_t>> timers(kThreads);
  std::vector<std::vector<std::uint64_t>> threads_seen(kThreads);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        timers[t].push_back(TimerId::unique().value);
        threads_seen[t].push_back(ThreadId::unique().value);
      }
    });
  }
  for (auto& th : threads) th.join();
  std::unordered_set<std::uint64_t> all_timers;
  std::unordered_set<std::uint64_t> all_threads;
  for (std::size_t t = 0; t < kThreads; ++t) {
    // Within one thread, a counter only grows.
    EXPECT_TRUE(std::is_sorted(timers[t].begin(), timers[t].end()));
    EXPECT_TRUE(std::is_sorted(threads_seen[t].begin(), threads_seen[t].end()));
    all_timers.insert(timers[t].begin(), timers[t].end());
    all_threads.insert(threads_seen[t].begin(), threads_seen[t].end());
  }
  EXPECT_EQ(all_timers.size(), std::size_t{kThreads} * kPerThread);
  EXPECT_EQ(all_threads.size(), std::size_t{kThreads} * kPerThread);
}

}  // namespace
}  // namespace cadence
