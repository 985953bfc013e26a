// The TimerQueue contract, run against both queues with the same expectations.
#include "cadence/timer_queue.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <tuple>
#include <vector>

#include "cadence/heap_timer_queue.hpp"
#include "cadence/timer_wheel.hpp"

namespace cadence {
namespace {

template <class Q>
class TimerQueueTest : public ::testing::Test {
 protected:
  std::vector<Token> advance(std::int64_t now_ms) {
    std::vector<Token> fired;
    last_ = queue_.advance(Ticks{now_ms}, fired);
    EXPECT_EQ(last_.fired, fired.size());
    return fired;
  }
  Q queue_;
  AdvanceReport last_;
};

using Queues = ::testing::Types<TimerWheel, HeapTimerQueue>;
TYPED_TEST_SUITE(TimerQueueTest, Queues);

using Tokens = std::vector<Token>;

TYPED_TEST(TimerQueueTest, FiresOnceAtItsDeadline) {
  this->queue_.schedule(Ticks{100}, 7);
  EXPECT_EQ(this->queue_.next_fire(), Ticks{100});
  EXPECT_EQ(this->advance(99), Tokens{});
  EXPECT_EQ(this->advance(100), Tokens{7});
  EXPECT_EQ(this->advance(10'000), Tokens{});
  EXPECT_EQ(this->queue_.active_count(), 0u);
  EXPECT_EQ(this->queue_.next_fire(), std::nullopt);
}

TYPED_TEST(TimerQueueTest, ZeroAndNegativeDelaysFireOnTheNextTickNotThisOne) {
  this->advance(50);
  this->queue_.schedule(Ticks{0}, 1);
  this->queue_.schedule(Ticks{-40}, 2);
  this->queue_.schedule(Ticks::min(), 3);
  EXPECT_EQ(this->queue_.next_fire(), Ticks{51});
  EXPECT_EQ(this->advance(50), Tokens{}) << "never in the tick it was scheduled in";
  EXPECT_EQ(this->advance(51), (Tokens{1, 2, 3}));
}

TYPED_TEST(TimerQueueTest, EnormousDelayMeansNeverAndHarmsNothing) {
  this->queue_.schedule(Ticks{20}, 1);
  const QueueId huge = this->queue_.schedule(Ticks::max(), 2);  // now + max overflows the counter
  this->queue_.schedule(Ticks{30}, 3);
  EXPECT_EQ(this->queue_.next_fire(), Ticks{20});
  EXPECT_EQ(this->advance(30), (Tokens{1, 3}));
  EXPECT_EQ(this->queue_.next_fire(), kMaxTick);
  EXPECT_EQ(this->queue_.active_count(), 1u);
  EXPECT_EQ(this->advance(Ticks::max().count()), Tokens{}) << "time stops one tick short of never";
  EXPECT_EQ(this->queue_.now(), kLastTick);
  EXPECT_EQ(this->queue_.active_count(), 1u);
  // At the end of time a new timer is clamped to never as well, not wrapped into the past.
  const QueueId late = this->queue_.schedule(Ticks{5}, 4);
  EXPECT_EQ(this->queue_.active_count(), 2u);
  EXPECT_EQ(this->advance(Ticks::max().count()), Tokens{});
  EXPECT_TRUE(this->queue_.cancel(huge)) << "a never-firing timer can still be cancelled";
  EXPECT_TRUE(this->queue_.cancel(late));
  EXPECT_EQ(this->queue_.next_fire(), std::nullopt);
}

TYPED_TEST(TimerQueueTest, TheLastTickStillFires) {
  TypeParam queue(kLastTick - Ticks{10});
  queue.schedule(Ticks{10}, 1);
  std::vector<Token> fired;
  queue.advance(kMaxTick, fired);
  EXPECT_EQ(fired, Tokens{1});
}

TYPED_TEST(TimerQueueTest, EqualDeadlinesFireInScheduleOrder) {
  // One deadline (40,000 ms) reached from four distances: each sits on a different level of
  // the wheel when scheduled, and they meet in one slot.
  this->queue_.schedule(Ticks{40'000}, 1);
  this->advance(10'000);
  this->queue_.schedule(Ticks{30'000}, 2);
  this->queue_.schedule(Ticks{5}, 100);
  this->advance(30'000);
  this->queue_.schedule(Ticks{10'000}, 3);
  this->advance(39'990);
  this->queue_.schedule(Ticks{10}, 4);
  this->queue_.schedule(Ticks{10}, 5);
  EXPECT_EQ(this->advance(40'000), (Tokens{1, 2, 3, 4, 5}));
}

TYPED_TEST(TimerQueueTest, StartingTheSameTokenTwiceMakesTwoTimers) {
  const QueueId a = this->queue_.schedule(Ticks{10}, 9);
  const QueueId b = this->queue_.schedule(Ticks{10}, 9);
  EXPECT_NE(a, b);
  EXPECT_EQ(this->queue_.active_count(), 2u);
  EXPECT_TRUE(this->queue_.cancel(a));
  EXPECT_EQ(this->advance(10), Tokens{9});
}

TYPED_TEST(TimerQueueTest, CancelIsFalseForFiredCancelledUnknownAndZeroIds) {
  const QueueId fired = this->queue_.schedule(Ticks{1}, 1);
  const QueueId cancelled = this->queue_.schedule(Ticks{50}, 2);
  const QueueId keep = this->queue_.schedule(Ticks{60}, 3);
  ASSERT_TRUE(this->queue_.cancel(cancelled));
  EXPECT_EQ(this->advance(1), Tokens{1});
  EXPECT_FALSE(this->queue_.cancel(fired));
  EXPECT_FALSE(this->queue_.cancel(cancelled));
  EXPECT_FALSE(this->queue_.cancel(QueueId{}));
  EXPECT_FALSE(this->queue_.cancel(QueueId{0xdeadbeefcafe}));
  EXPECT_FALSE(this->queue_.cancel(QueueId{~std::uint64_t{0}}));
  EXPECT_FALSE(this->queue_.cancel(QueueId{keep.value + (std::uint64_t{1} << 32)})) << "a generation not issued yet";
  EXPECT_EQ(this->queue_.active_count(), 1u);
  EXPECT_EQ(this->advance(100), Tokens{3});
}

TYPED_TEST(TimerQueueTest, StaleIdCannotCancelTheTimerThatReusedItsSlot) {
  // Fill and empty the queue repeatedly so slots are reused; keep every old id.
  std::vector<QueueId> old;
  for (int round = 0; round < 5; ++round) {
    for (Token t = 0; t < 20; ++t) old.push_back(this->queue_.schedule(Ticks{5}, t));
    this->advance(this->queue_.now().count() + 5);
  }
  std::vector<QueueId> live;
  for (Token t = 100; t < 120; ++t) live.push_back(this->queue_.schedule(Ticks{5}, t));
  for (QueueId id : old) EXPECT_FALSE(this->queue_.cancel(id));
  EXPECT_EQ(this->queue_.active_count(), 20u);
  Tokens expected;
  for (Token t = 100; t < 120; ++t) expected.push_back(t);
  EXPECT_EQ(this->advance(this->queue_.now().count() + 5), expected);
}

TYPED_TEST(TimerQueueTest, CancelledIdOfAReusedSlotLeavesTheNewTimerAlone) {
  const QueueId first = this->queue_.schedule(Ticks{10}, 1);
  ASSERT_TRUE(this->queue_.cancel(first));
  this->advance(20);  // lets the heap drop its lazily deleted entry, so the slot is free
  const QueueId second = this->queue_.schedule(Ticks{10}, 2);
  EXPECT_EQ(first.value & 0xffffffffu, second.value & 0xffffffffu) << "the slot is reused";
  EXPECT_FALSE(this->queue_.cancel(first));
  EXPECT_EQ(this->queue_.active_count(), 1u);
  EXPECT_EQ(this->advance(30), Tokens{2});
}

TYPED_TEST(TimerQueueTest, TimeGoingBackwardsIsClampedAndReported) {
  this->queue_.schedule(Ticks{100}, 1);
  this->queue_.schedule(Ticks{300}, 2);
  EXPECT_EQ(this->advance(150), Tokens{1});
  EXPECT_FALSE(this->last_.went_backwards());
  EXPECT_EQ(this->advance(40), Tokens{});
  EXPECT_TRUE(this->last_.went_backwards());
  EXPECT_EQ(this->last_.clamped_by, Ticks{110});
  EXPECT_EQ(this->queue_.now(), Ticks{150}) << "time stays where it was";
  EXPECT_EQ(this->queue_.active_count(), 1u);
  EXPECT_EQ(this->queue_.next_fire(), Ticks{300});
  this->queue_.schedule(Ticks{10}, 3);  // relative to 150, not to 40
  EXPECT_EQ(this->advance(159), Tokens{});
  EXPECT_EQ(this->advance(160), Tokens{3});
  EXPECT_EQ(this->advance(300), Tokens{2});
}

TYPED_TEST(TimerQueueTest, ALongJumpFiresEverythingInDeadlineOrder) {
  std::mt19937_64 rng(42);
  std::vector<std::tuple<std::int64_t, Token>> expected;  // (deadline, token); tokens rise
  for (Token t = 0; t < 5000; ++t) {
    const auto delay = static_cast<std::int64_t>(rng() % 50'000'000);  // up to ~14 hours
    this->queue_.schedule(Ticks{delay}, t);
    expected.emplace_back(std::max<std::int64_t>(delay, 1), t);
  }
  std::stable_sort(expected.begin(), expected.end(),
                   [](const auto& a, const auto& b) { return std::get<0>(a) < std::get<0>(b); });
  Tokens order;
  for (const auto& e : expected) order.push_back(std::get<1>(e));
  EXPECT_EQ(this->advance(7LL * 24 * 3600 * 1000), order);  // one week in one call
  EXPECT_EQ(this->queue_.active_count(), 0u);
}

TYPED_TEST(TimerQueueTest, NextFireIsTheTrueEarliestDeadline) {
  EXPECT_EQ(this->queue_.next_fire(), std::nullopt);
  const QueueId a = this->queue_.schedule(Ticks{90'000}, 1);  // a coarse level in the wheel
  EXPECT_EQ(this->queue_.next_fire(), Ticks{90'000});
  const QueueId b = this->queue_.schedule(Ticks{70'123}, 2);
  EXPECT_EQ(this->queue_.next_fire(), Ticks{70'123});
  this->queue_.schedule(Ticks{75'000}, 3);
  ASSERT_TRUE(this->queue_.cancel(b));
  EXPECT_EQ(this->queue_.next_fire(), Ticks{75'000}) << "after the earliest one is cancelled";
  this->queue_.schedule(Ticks{5}, 4);
  EXPECT_EQ(this->queue_.next_fire(), Ticks{5});
  EXPECT_EQ(this->advance(5), Tokens{4});
  EXPECT_EQ(this->queue_.next_fire(), Ticks{75'000});
  ASSERT_TRUE(this->queue_.cancel(a));
  EXPECT_EQ(this->advance(75'000), Tokens{3});
  EXPECT_EQ(this->queue_.next_fire(), std::nullopt);
}

TYPED_TEST(TimerQueueTest, ActiveCountExcludesCancelledTimers) {
  std::vector<QueueId> ids;
  for (Token t = 0; t < 100; ++t) ids.push_back(this->queue_.schedule(Ticks{static_cast<std::int64_t>(t) * 1000}, t));
  for (std::size_t i = 0; i < ids.size(); i += 2) ASSERT_TRUE(this->queue_.cancel(ids[i]));
  EXPECT_EQ(this->queue_.active_count(), 50u);
}

TYPED_TEST(TimerQueueTest, IdsAreNeverZeroAndNeverRepeatWhileLive) {
  std::vector<std::uint64_t> ids;
  for (Token t = 0; t < 10'000; ++t) ids.push_back(this->queue_.schedule(Ticks{1 + static_cast<std::int64_t>(t % 97)}, t).value);
  std::sort(ids.begin(), ids.end());
  EXPECT_NE(ids.front(), 0u);
  EXPECT_EQ(std::adjacent_find(ids.begin(), ids.end()), ids.end());
}

TYPED_TEST(TimerQueueTest, AStartTimeIsHonouredAndClamped) {
  TypeParam late(Ticks{1'000'000});
  EXPECT_EQ(late.now(), Ticks{1'000'000});
  late.schedule(Ticks{20'000}, 1);
  EXPECT_EQ(late.next_fire(), Ticks{1'020'000});
  TypeParam negative(Ticks{-5});
  EXPECT_EQ(negative.now(), Ticks{0});
  TypeParam beyond(Ticks::max());
  EXPECT_EQ(beyond.now(), kLastTick);
}

}  // namespace
}  // namespace cadence
