// TickQueue keeps an unlisted answer until now() reaches the wheel's ask_again, and
// WheelCore::list_next chains ask_again values down the coarse levels; the ends of the
// timeline, time going backwards and busy ticks. Each test says the promise it checks. No test
// here runs for more than a few thousand advances.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "runtime_fixture.hpp"
#include "due_queue.hpp"
#include "runtime/wheel_widths.hpp"

namespace cadence::detail {
namespace {

using Tokens = std::vector<Token>;


/// The tick a level-1 block's move down begins after (its window is (open1, block start]).
constexpr std::int64_t open1(std::int64_t tick) { return ((tick >> WheelCore::kLevel1Shift) - 1) * kW1; }

/// The listing, or {999999} for "not listed".
Tokens listed(TickQueue& q) {
  const Tokens* t = q.next_tokens();
  return t == nullptr ? Tokens{999999} : *t;
}
const Tokens kNotListed{999999};

// For a level-2 timer the answers chain: not listed while its level-2 block has not
// begun moving, still not listed (asked again at the level-1 block's opening) once it has been
// moved to level 1, and listed exactly from the tick after the level-1 block opens.
//
TEST(TickQueueAskAgainTest, ALevelTwoTickIsAskedAboutAgainAtEachOpeningOfItsChain) {
  TickQueue q(QueueKind::wheel);
  const std::int64_t d = 5 * kW2 + 3 * kW1 + 77;  // level 2 from 0: block 5, opening at 4 * kW2
  q.schedule(d, 1);
  // Ten later timers in the same level-2 block keep its drain from moving d's entry by itself
  // (a partial drain leaves the earliest for last), so the peek has to finish the block's move.
  for (Token t = 0; t < 10; ++t) q.schedule(d + (static_cast<std::int64_t>(t) + 1) * kW1, 100 + t);
  EXPECT_EQ(listed(q), kNotListed);
  ASSERT_TRUE(q.advance(4 * kW2).empty());
  EXPECT_EQ(listed(q), kNotListed) << "the level-2 window opens only after its start";
  ASSERT_TRUE(q.advance(4 * kW2 + 1).empty());
  EXPECT_EQ(listed(q), kNotListed) << "now on level 1, whose block has not begun moving";
  ASSERT_TRUE(q.advance(open1(d)).empty());
  EXPECT_EQ(listed(q), kNotListed);
  ASSERT_TRUE(q.advance(open1(d) + 1).empty());
  EXPECT_EQ(listed(q), Tokens{1}) << "the level-1 block began moving: listed at once";
  EXPECT_EQ(q.next_tick(), d);
  EXPECT_EQ(q.advance(d), Tokens{1});
  EXPECT_EQ(q.next_tick(), d + kW1);
  EXPECT_EQ(listed(q), Tokens{100}) << "the next level-1 block opened at d - 77";
}

// One advance that jumps over every opening of a level-3 timer's chain (level 3 ->
// 2 -> 1, none of them asked about in between) still makes the tick listable; the listing
// holds the tick's tokens in fire order and no later ones.
TEST(TickQueueAskAgainTest, OneAdvanceJumpingOverEveryOpeningLeavesTheTickListable) {
  TickQueue q(QueueKind::wheel);
  const std::int64_t d = 7 * kW3 + 5 * kW2 + 9 * kW1 + 3;  // level 3 from 0 (about 5.5 days)
  q.schedule(d, 1);
  q.schedule(d + kW1, 2);
  q.schedule(d + kW2, 3);
  q.schedule(d, 4);
  EXPECT_EQ(listed(q), kNotListed);
  ASSERT_TRUE(q.advance(d - 100).empty());
  EXPECT_EQ(listed(q), (Tokens{1, 4}));
  EXPECT_EQ(q.advance(d), (Tokens{1, 4}));
  EXPECT_EQ(listed(q), Tokens{2});

  // The same jump landing exactly on the level-1 opening: not yet, then one tick later.
  TickQueue r(QueueKind::wheel);
  r.schedule(d, 1);
  r.schedule(d + kW2, 3);
  EXPECT_EQ(listed(r), kNotListed);
  ASSERT_TRUE(r.advance(open1(d)).empty());
  EXPECT_EQ(listed(r), kNotListed);
  ASSERT_TRUE(r.advance(open1(d) + 1).empty());
  EXPECT_EQ(listed(r), Tokens{1});
}

// Cancelling the earliest timers of a coarse block (its minimum becomes unknown and is
// relearned) never leaves a cancelled token in the listing, and the next tick is listed once
// its block opens. The second half builds the case where the level-1 block's minimum is
// unknown while the next tick is the block's very first millisecond, on level 0 (next_fire()
// then skips the relearn, and list_next must move the block down rather than trust it).
//
TEST(TickQueueAskAgainTest, CancellingTheEarliestCoarseTimersNeverLeavesThemListed) {
  {
    TickQueue q(QueueKind::wheel);
    const QueueId a = q.schedule(10 * kW1 + 5, 1);
    const QueueId b = q.schedule(10 * kW1 + 5, 2);
    const QueueId c = q.schedule(10 * kW1 + 9, 3);
    q.schedule(10 * kW1 + 9, 4);
    EXPECT_EQ(listed(q), kNotListed);
    q.cancel(a);
    q.cancel(b);
    EXPECT_EQ(q.next_tick(), 10 * kW1 + 9);
    EXPECT_EQ(listed(q), kNotListed);
    ASSERT_TRUE(q.advance(9 * kW1).empty());
    EXPECT_EQ(listed(q), kNotListed);
    ASSERT_TRUE(q.advance(9 * kW1 + 1).empty());
    EXPECT_EQ(listed(q), (Tokens{3, 4}));
    q.cancel(c);
    EXPECT_EQ(listed(q), Tokens{4});
    q.cancel(a);  // stale: nothing changes
    EXPECT_EQ(listed(q), Tokens{4});
  }
  {
    TickQueue q(QueueKind::wheel);
    const std::int64_t block = 20 * kW1;
    const QueueId x = q.schedule(block + 5, 10);
    q.schedule(block + 9, 11);
    q.schedule(block + 10, 13);
    q.schedule(block + 11, 14);
    q.schedule(block + 12, 15);
    ASSERT_TRUE(q.advance(19 * kW1 + 100).empty());  // the block's drain has begun (one entry moved)
    q.schedule(block, 12);                           // placed on level 0: the block is open
    q.cancel(x);                                     // the block's earliest: its minimum is unknown
    EXPECT_EQ(q.next_tick(), block);
    EXPECT_EQ(listed(q), Tokens{12});
    EXPECT_EQ(q.advance(block), Tokens{12});
    EXPECT_EQ(q.next_tick(), block + 9);
    EXPECT_EQ(listed(q), Tokens{11});
  }
}

// A schedule into a block that has begun moving goes to a lower level (I4), and the
// listing of that tick still holds every token in schedule order, whether the listing was made
// before or after that schedule.
TEST(TickQueueAskAgainTest, AScheduleBelowADrainingBlockKeepsTheListingInScheduleOrder) {
  const std::int64_t d = 30 * kW1 + 50;
  for (const bool ask_first : {false, true}) {
    SCOPED_TRACE(ask_first ? "listed before the schedule" : "listed after the schedule");
    TickQueue q(QueueKind::wheel);
    q.schedule(d, 1);
    const QueueId two = q.schedule(d, 2);
    q.schedule(d + 1, 90);
    q.schedule(d + 2, 91);
    q.schedule(d + 3, 92);
    ASSERT_TRUE(q.advance(29 * kW1 + 10).empty());  // the block is open; its drain moved a little
    if (ask_first) {
      EXPECT_EQ(listed(q), (Tokens{1, 2}));
    }
    q.schedule(d, 3);
    EXPECT_EQ(listed(q), (Tokens{1, 2, 3}));
    q.schedule(d, 4);
    EXPECT_EQ(listed(q), (Tokens{1, 2, 3, 4}));
    q.cancel(two);
    EXPECT_EQ(listed(q), (Tokens{1, 3, 4}));
    EXPECT_EQ(q.advance(d), (Tokens{1, 3, 4}));
    EXPECT_EQ(listed(q), Tokens{90});
  }
}

// A level-2 block too large for one peek (more than kListDrainMax) answers "ask
// again next tick"; the chain then goes on to level 1 and the tick is listed from the tick
// after its level-1 block opens, never before, and never with a wrong token.
TEST(TickQueueAskAgainTest, ALargeLevelTwoBlockHandsOnToLevelOneAndIsListedOnTime) {
  TickQueue q(QueueKind::wheel);
  const std::int64_t d = 5 * kW2 + 3 * kW1 + 77;
  q.schedule(d, 1);
  const std::int64_t later = 5 * kW2 + 10 * kW1;  // level-1 blocks 330..383 of level-2 block 5
  constexpr Token kMore = WheelCore::kListDrainMax + 104;
  for (Token t = 0; t < kMore; ++t) {
    q.schedule(later + static_cast<std::int64_t>((t * 97) % static_cast<Token>(54 * kW1)), 1000 + t);
  }
  EXPECT_EQ(listed(q), kNotListed);
  std::int64_t steps = 0;
  for (std::int64_t now = 4 * kW2 + 1; now < open1(d) - 1000; now += 997) {
    ASSERT_TRUE(q.advance(now).empty());
    ASSERT_EQ(listed(q), kNotListed) << "at " << now << ": d cannot be on level 0 yet";
    if (++steps % 64 == 0) {
      ASSERT_EQ(q.next_tick(), d);
    }
  }
  ASSERT_TRUE(q.advance(open1(d)).empty());
  EXPECT_EQ(listed(q), kNotListed);
  ASSERT_TRUE(q.advance(open1(d) + 1).empty());
  EXPECT_EQ(listed(q), Tokens{1});
  EXPECT_EQ(q.advance(d), Tokens{1});
}

class TickQueueEdgeTest : public ::testing::TestWithParam<QueueKind> {
 protected:
  bool wheel() const { return GetParam() == QueueKind::wheel; }
};
INSTANTIATE_TEST_SUITE_P(Queues, TickQueueEdgeTest, ::testing::Values(QueueKind::wheel, QueueKind::heap),
                         testing::queue_name);

// An advance to an earlier tick (or before the origin) leaves now() and the cached
// answer alone: an unlisted tick is not listed early, a listed one stays listed with the same
// tokens, and the ask_again rule still fires once time really reaches it.
TEST_P(TickQueueEdgeTest, TimeGoingBackwardsNeitherListsEarlyNorForgetsAListing) {
  TickQueue q(GetParam());
  const std::int64_t far = 3 * kW1 + 123;
  q.schedule(far, 7);
  EXPECT_EQ(listed(q), wheel() ? kNotListed : Tokens{7});
  ASSERT_TRUE(q.advance(2 * kW1).empty());
  ASSERT_TRUE(q.advance(5).empty());
  EXPECT_EQ(q.now(), 2 * kW1);
  ASSERT_TRUE(q.advance(-100).empty());
  ASSERT_TRUE(q.advance(std::numeric_limits<std::int64_t>::min()).empty());
  EXPECT_EQ(q.now(), 2 * kW1);
  EXPECT_EQ(listed(q), wheel() ? kNotListed : Tokens{7}) << "the block has not begun moving";
  ASSERT_TRUE(q.advance(2 * kW1 + 1).empty());
  EXPECT_EQ(listed(q), Tokens{7});
  ASSERT_TRUE(q.advance(2 * kW1).empty());
  EXPECT_EQ(listed(q), Tokens{7});
  q.schedule(2 * kW1 + 2, 8);
  EXPECT_EQ(listed(q), Tokens{8});
  ASSERT_TRUE(q.advance(0).empty());
  EXPECT_EQ(listed(q), Tokens{8});
  EXPECT_EQ(q.advance(2 * kW1 + 2), Tokens{8});
  EXPECT_EQ(listed(q), Tokens{7});
  EXPECT_EQ(q.advance(far), Tokens{7});
  EXPECT_EQ(listed(q), Tokens{});
}

// At the end of the timeline (kLastTick, kMaxTick = 2^62 - 1, ticks past it clamped),
// ask_again = opens + 1 and now + 1 neither overflow nor point past the timeline: the last
// firing tick is listed from its block's opening, and the never-firing kMaxTick timers are
// listed in schedule order once time stops.
TEST_P(TickQueueEdgeTest, TheEndOfTheTimelineIsListedAndNothingOverflows) {
  TickQueue q(GetParam());
  const std::int64_t start = kLast - 40'000;
  ASSERT_TRUE(q.advance(start).empty());
  ASSERT_EQ(q.now(), start);
  q.schedule(kLast, 1);
  q.schedule(kMax, 2);
  const QueueId three = q.schedule(kMax + 1000, 3);                     // clamped to kMaxTick
  q.schedule(std::numeric_limits<std::int64_t>::max(), 4);              // clamped to kMaxTick
  EXPECT_EQ(q.next_tick(), kLast);
  EXPECT_EQ(listed(q), wheel() ? kNotListed : Tokens{1});
  ASSERT_TRUE(q.advance(open1(kLast)).empty());
  EXPECT_EQ(listed(q), wheel() ? kNotListed : Tokens{1});
  ASSERT_TRUE(q.advance(open1(kLast) + 1).empty());
  EXPECT_EQ(listed(q), Tokens{1});
  EXPECT_EQ(q.advance(kLast), Tokens{1});
  EXPECT_EQ(q.now(), kLast);
  EXPECT_EQ(q.next_tick(), kMax);
  EXPECT_EQ(listed(q), (Tokens{2, 3, 4}));
  ASSERT_TRUE(q.advance(std::numeric_limits<std::int64_t>::max()).empty());
  EXPECT_EQ(q.now(), kLast);
  EXPECT_EQ(listed(q), (Tokens{2, 3, 4}));
  q.cancel(three);
  EXPECT_EQ(listed(q), (Tokens{2, 4}));
  q.schedule(kMax, 5);
  EXPECT_EQ(listed(q), (Tokens{2, 4, 5}));
  ASSERT_TRUE(q.advance(kLast + 5).empty());
  EXPECT_EQ(listed(q), (Tokens{2, 4, 5}));
}

// From 0, timers at the very end (level 8) are listed after one advance that jumps to
// within a few ticks of them, however many opening ticks it jumped over.
TEST_P(TickQueueEdgeTest, ATimerAtTheEndIsListedAfterOneJumpFromTheOrigin) {
  TickQueue q(GetParam());
  q.schedule(kMax, 9);
  q.schedule(kMax - 5, 8);  // kLastTick - 4: it fires
  EXPECT_EQ(listed(q), wheel() ? kNotListed : Tokens{8});
  ASSERT_TRUE(q.advance(kLast - 10).empty());
  EXPECT_EQ(listed(q), Tokens{8});
  EXPECT_EQ(q.advance(kLast), Tokens{8});
  EXPECT_EQ(listed(q), Tokens{9});
}

// More than kListMax (64) tokens in one tick are never listed (ask_again kMaxTick:
// only a change helps), on level 0 and when they come down from a coarse level; one cancel
// brings the tick to 64 and it is listed at once, in fire order.
TEST_P(TickQueueEdgeTest, ABusyTickIsListedTheMomentACancelBringsItToTheLimit) {
  for (const std::int64_t tick : {std::int64_t{100}, 3 * kW1 + 5}) {
    SCOPED_TRACE(tick);
    TickQueue q(GetParam());
    std::vector<QueueId> ids;
    for (Token t = 0; t <= TickQueue::kListMax; ++t) ids.push_back(q.schedule(tick, t));
    EXPECT_EQ(q.next_tokens(), nullptr);
    ASSERT_TRUE(q.advance(tick / 2).empty());
    EXPECT_EQ(q.next_tokens(), nullptr);
    if (tick > kW1) {
      ASSERT_TRUE(q.advance(open1(tick) + 1).empty());  // the block moves down: still 65
      EXPECT_EQ(q.next_tokens(), nullptr);
      ASSERT_TRUE(q.advance(open1(tick) + 2).empty());
      EXPECT_EQ(q.next_tokens(), nullptr);
    }
    q.cancel(ids[0]);
    Tokens want;
    for (Token t = 1; t <= TickQueue::kListMax; ++t) want.push_back(t);
    EXPECT_EQ(listed(q), want);
    q.schedule(tick, 500);
    EXPECT_EQ(q.next_tokens(), nullptr);
    want.push_back(500);
    EXPECT_EQ(q.advance(tick), want);
    EXPECT_EQ(listed(q), Tokens{});
  }
}

}  // namespace
}  // namespace cadence::detail
