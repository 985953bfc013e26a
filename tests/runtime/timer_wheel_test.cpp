// TimerWheel specifics: levels, draining, exact next_fire, memory. The shared contract is in
// timer_queue_test.cpp; the random comparison with the heap and a model is in
// timer_queue_differential_test.cpp.
#include "cadence/timer_wheel.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <vector>

namespace cadence {
namespace {

constexpr std::int64_t kLevel1Width = std::int64_t{1} << TimerWheel::kLevel1Shift;  // 16,384 ms

TEST(TimerWheelTest, TimersWithinSixteenSecondsAreNeverMoved) {
  TimerWheel wheel;
  std::mt19937_64 rng(1);
  for (Token t = 0; t < 20'000; ++t) wheel.schedule(Ticks{1 + static_cast<std::int64_t>(rng() % (kLevel1Width - 1))}, t);
  std::vector<Token> fired;
  for (std::int64_t now = 16; fired.size() < 20'000; now += 16) wheel.advance(Ticks{now}, fired);
  EXPECT_EQ(wheel.stats().moved, 0u);
  EXPECT_EQ(wheel.stats().fired, 20'000u);
}

TEST(TimerWheelTest, LongTimersMoveDownAndFireAtTheirExactTick) {
  TimerWheel wheel;
  const std::vector<std::int64_t> delays = {20'000, 3'000'000, 900'000'123, 5'000'000'000'017LL, 7LL << 50};
  std::map<Token, std::int64_t> due;
  for (std::size_t i = 0; i < delays.size(); ++i) {
    wheel.schedule(Ticks{delays[i]}, i);
    due[i] = delays[i];
  }
  std::vector<Token> fired;
  while (auto next = wheel.next_fire()) {
    // Stop one tick short first: nothing may fire early.
    fired.clear();
    wheel.advance(*next - Ticks{1}, fired);
    EXPECT_TRUE(fired.empty());
    wheel.advance(*next, fired);
    ASSERT_EQ(fired.size(), 1u);
    EXPECT_EQ(due.at(fired[0]), next->count());
    due.erase(fired[0]);
  }
  EXPECT_TRUE(due.empty());
  EXPECT_GT(wheel.stats().moved, delays.size());  // the far ones crossed several levels
}

TEST(TimerWheelTest, ACoarseSlotMovesDownInSharesNotAllAtOnce) {
  // 100,000 timers due within one 16.4 s level-1 slot, scheduled far enough ahead to sit on
  // level 1. They move to level 0 during the 16.4 s before the slot begins, a share per frame.
  TimerWheel wheel;
  std::mt19937_64 rng(2);
  constexpr std::uint64_t kCount = 100'000;
  std::vector<std::int64_t> deadlines;
  for (Token t = 0; t < kCount; ++t) {
    const std::int64_t d = 2 * kLevel1Width + static_cast<std::int64_t>(rng() % kLevel1Width);
    wheel.schedule(Ticks{d}, t);
    deadlines.push_back(d);
  }
  std::sort(deadlines.begin(), deadlines.end());
  std::vector<Token> fired;
  std::uint64_t worst_moves = 0;
  std::size_t fired_before = 0;
  for (std::int64_t now = 16; now <= 3 * kLevel1Width + 16; now += 16) {
    const std::uint64_t moved_before = wheel.stats().moved;
    wheel.advance(Ticks{now}, fired);
    worst_moves = std::max(worst_moves, wheel.stats().moved - moved_before);
    // Exactly the timers due by now have fired.
    const auto due = static_cast<std::size_t>(std::upper_bound(deadlines.begin(), deadlines.end(), now) - deadlines.begin());
    ASSERT_EQ(fired.size(), due) << "at " << now;
    fired_before = fired.size();
  }
  EXPECT_EQ(fired_before, kCount);
  EXPECT_EQ(wheel.stats().moved, kCount);
  // A 16 ms frame is 1/1024 of the window: about 98 moves, never the whole slot.
  EXPECT_LE(worst_moves, 2 * (kCount * 16 / kLevel1Width + 1));
}

TEST(TimerWheelTest, NextFireStaysExactWhenTheEarliestCoarseTimerIsCancelled) {
  TimerWheel wheel;
  std::vector<QueueId> ids;
  for (std::int64_t d : {70'000, 71'000, 72'000, 73'000}) ids.push_back(wheel.schedule(Ticks{d}, 0));
  EXPECT_EQ(wheel.next_fire(), Ticks{70'000});
  ASSERT_TRUE(wheel.cancel(ids[0]));
  EXPECT_EQ(wheel.next_fire(), Ticks{71'000});
  EXPECT_EQ(wheel.stats().slot_rescans, 1u) << "one walk of one slot to relearn its minimum";
  ASSERT_TRUE(wheel.cancel(ids[2]));  // not the minimum: nothing to relearn
  EXPECT_EQ(wheel.next_fire(), Ticks{71'000});
  EXPECT_EQ(wheel.stats().slot_rescans, 1u);
}

TEST(TimerWheelTest, DrainingKeepsTheEarliestTimersForLast) {
  // While a slot drains, next_fire() must not need to walk it.
  TimerWheel wheel;
  std::mt19937_64 rng(3);
  for (Token t = 0; t < 1000; ++t) wheel.schedule(Ticks{3 * kLevel1Width + 10 + static_cast<std::int64_t>(rng() % 16'000)}, t);
  wheel.schedule(Ticks{3 * kLevel1Width + 5}, 5000);  // the earliest, scheduled last
  std::vector<Token> fired;
  for (std::int64_t now = 2 * kLevel1Width; now < 3 * kLevel1Width; now += 16) {
    wheel.advance(Ticks{now}, fired);
    ASSERT_EQ(wheel.next_fire(), Ticks{3 * kLevel1Width + 5}) << now;
  }
  EXPECT_TRUE(fired.empty());
  EXPECT_EQ(wheel.stats().slot_rescans, 0u);
}

TEST(TimerWheelTest, ATimerAimedAtADrainingSlotGoesStraightToTheLevelBelow) {
  TimerWheel wheel;
  const std::int64_t deadline = 3 * kLevel1Width + 5000;
  wheel.schedule(Ticks{deadline}, 1);  // level 1, slot 3, at the head of the slot's list
  for (Token t = 100; t < 1100; ++t) wheel.schedule(Ticks{3 * kLevel1Width + static_cast<std::int64_t>(t)}, t);
  std::vector<Token> fired;
  wheel.advance(Ticks{2 * kLevel1Width + 100}, fired);  // slot 3 has begun to drain, from its tail
  const std::uint64_t moved = wheel.stats().moved;
  ASSERT_GT(moved, 0u);
  ASSERT_LT(moved, 1001u) << "timer 1 is still on level 1";
  // 16,484 ms ahead would be level 1 by distance, but that slot is draining: it goes below.
  wheel.schedule(Ticks{deadline - (2 * kLevel1Width + 100)}, 2);
  EXPECT_EQ(wheel.stats().moved, moved) << "placing is not moving";
  wheel.advance(Ticks{deadline}, fired);
  ASSERT_EQ(fired.size(), 1002u);
  EXPECT_EQ(fired[1000], 1u) << "scheduled first, fires first";
  EXPECT_EQ(fired[1001], 2u);
}

TEST(TimerWheelTest, EntriesCostTwentyEightBytes) {
  TimerWheel wheel;
  const std::size_t empty = wheel.memory_bytes();
  constexpr std::size_t kCount = 1 << 20;
  for (Token t = 0; t < kCount; ++t) wheel.schedule(Ticks{1 + static_cast<std::int64_t>(t % 10'000)}, t);
  const double per_timer = static_cast<double>(wheel.memory_bytes() - empty) / kCount;
  EXPECT_LE(per_timer, 28.25);
  EXPECT_LE(static_cast<double>(wheel.memory_bytes()) / kCount, 32.0) << "fixed part included";
}

TEST(TimerWheelTest, FreedEntriesComeBackLastFreedFirstThenInAddressOrder) {
  TimerWheel wheel;
  constexpr std::size_t kCount = 300;  // more than one word of 64 free bits
  std::vector<QueueId> ids;
  for (Token t = 0; t < kCount; ++t) ids.push_back(wheel.schedule(Ticks{1 + static_cast<std::int64_t>(t)}, t));
  const auto index = [](QueueId id) { return static_cast<std::uint32_t>(id.value); };
  std::vector<QueueId> order = ids;
  std::shuffle(order.begin(), order.end(), std::mt19937_64(7));
  for (const QueueId id : order) ASSERT_TRUE(wheel.cancel(id));
  std::vector<std::uint32_t> reused;
  for (Token t = 0; t < kCount; ++t) reused.push_back(index(wheel.schedule(Ticks{5}, t)));
  EXPECT_EQ(reused.front(), index(order.back())) << "the entry freed last is reused first";
  EXPECT_TRUE(std::is_sorted(reused.begin() + 1, reused.end())) << "then the others, lowest first";
  std::vector<std::uint32_t> before;
  for (const QueueId id : ids) before.push_back(index(id));
  std::sort(before.begin(), before.end());
  std::sort(reused.begin(), reused.end());
  EXPECT_EQ(reused, before) << "every freed entry, each once, and no fresh one";
  for (const QueueId id : ids) EXPECT_FALSE(wheel.cancel(id)) << "the old ids are stale";
  std::vector<Token> fired;
  wheel.advance(Ticks{5}, fired);
  EXPECT_EQ(fired.size(), kCount);
  EXPECT_EQ(wheel.check_invariants(), "");
}

TEST(TimerWheelTest, AnEntryWhoseGenerationRunsOutIsNeverHandedOutAgain) {
  detail::WheelEntryPool pool;
  const std::uint32_t first = pool.allocate();
  std::uint64_t id = pool.id_of(first);
  // Live, as the wheel marks it, and a thousand generations short of the end (counting all
  // 2^28 takes seconds under the sanitizers).
  pool.links(first).tag = ((detail::kMaxGeneration - 1000) << 4) | 0u;
  id = pool.id_of(first);
  std::uint32_t wrong = 0;  // generations at which a check failed (gtest asserts are slow here)
  for (std::uint32_t g = detail::kMaxGeneration - 1000; g < detail::kMaxGeneration; ++g) {
    pool.release(first);
    // The last freed comes back at once; once live again, its new id names it and the old not.
    if (pool.allocate() != first) ++wrong;
    pool.links(first).set_level(0);
    if (pool.find_live(id) != detail::kNil || pool.find_live(pool.id_of(first)) != first) ++wrong;
    id = pool.id_of(first);
  }
  ASSERT_EQ(wrong, 0u);
  ASSERT_EQ(id >> 32, detail::kMaxGeneration);
  ASSERT_EQ(pool.find_live(id), first);
  pool.release(first);  // retired
  EXPECT_EQ(pool.find_live(id), detail::kNil);
  const std::uint32_t next = pool.allocate();
  EXPECT_NE(next, first) << "a retired entry is not handed out again";
  pool.release(next);
  EXPECT_EQ(pool.allocate(), next);
}

TEST(TimerWheelTest, DeadlineOfAndStats) {
  TimerWheel wheel(Ticks{500});
  const QueueId id = wheel.schedule(Ticks{250}, 1);
  EXPECT_EQ(wheel.deadline_of(id), Ticks{750});
  std::vector<Token> fired;
  wheel.advance(Ticks{100}, fired);
  EXPECT_EQ(wheel.stats().backwards_steps, 1u);
  wheel.advance(Ticks{750}, fired);
  EXPECT_EQ(wheel.deadline_of(id), std::nullopt);
  EXPECT_EQ(wheel.stats().scheduled, 1u);
  EXPECT_EQ(wheel.stats().fired, 1u);
}

TEST(TimerWheelTest, AGapOfYearsCostsLittle) {
  TimerWheel wheel;
  wheel.schedule(Ticks{10}, 1);
  wheel.schedule(Ticks{std::int64_t{1} << 45}, 2);  // about 1,100 years
  std::vector<Token> fired;
  wheel.advance(Ticks{std::int64_t{1} << 46}, fired);
  EXPECT_EQ(fired, (std::vector<Token>{1, 2}));
  EXPECT_LE(wheel.stats().moved, 2u * TimerWheel::kLevels) << "each timer moves at most once per level";
}

}  // namespace
}  // namespace cadence
