#include "cadence/ids.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <thread>
#include <unordered_set>
#include <vector>

#include "cadence/cadence.h"
#include "id_counters.hpp"

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

// The C API's fresh ids (id 0) skip the ids an app chose itself: one near the counter makes it
// jump past; one further ahead is left alone (64 bits must last) and skipped when reached.
TEST(IdsTest, SkippingAnIdNearTheCounterMovesItPastAndLeavesAFarOneToTheCaller) {
  const TimerId a = TimerId::unique();
  EXPECT_TRUE(detail::skip_timer_id(a.value + 3));
  EXPECT_EQ(TimerId::unique().value, a.value + 4);
  EXPECT_TRUE(detail::skip_timer_id(a.value)) << "behind the counter: never handed out again";
  EXPECT_FALSE(detail::skip_timer_id(a.value + 5 + detail::kNearIds + 1));
  EXPECT_FALSE(detail::skip_timer_id(UINT64_MAX));
  EXPECT_EQ(TimerId::unique().value, a.value + 5) << "a far id leaves the counter alone";
  const ThreadId t = ThreadId::unique();
  EXPECT_TRUE(detail::skip_thread_id(t.value + 1));
  EXPECT_EQ(ThreadId::unique().value, t.value + 2);
  EXPECT_FALSE(detail::skip_thread_id(UINT64_MAX));
}

TEST(IdsTest, AFreshCIdSkipsAnIdTheAppChoseFarAheadWhenTheCounterGetsThere) {
  cadence_runtime_options o;
  cadence_runtime_options_init(&o);
  o.clock = CADENCE_CLOCK_MANUAL;
  cadence_runtime* rt = nullptr;
  ASSERT_EQ(cadence_runtime_create(&o, &rt), CADENCE_OK);
  const auto keep = [](void*, cadence_runtime*, const cadence_timer_info*) { return 0; };
  const std::uint64_t far = TimerId::unique().value + detail::kNearIds + 10;
  ASSERT_EQ(cadence_timer_add(rt, far, nullptr, keep, nullptr, nullptr, nullptr), CADENCE_OK);
  ASSERT_EQ(cadence_timer_remove(rt, far), CADENCE_OK);
  // Bring the counter to `far` as a long-running process would, a jump at a time.
  for (std::uint64_t next = TimerId::unique().value + 1; next < far; next = TimerId::unique().value + 1) {
    ASSERT_TRUE(detail::skip_timer_id(std::min(far - 2, next + detail::kNearIds)));
  }
  // The counter stands at `far` now: the next fresh id would be it.
  std::uint64_t fresh = 0;
  ASSERT_EQ(cadence_timer_add(rt, 0, nullptr, keep, nullptr, nullptr, &fresh), CADENCE_OK);
  EXPECT_EQ(fresh, far + 1) << "the counter reached " << far << ", which the app chose";
  EXPECT_EQ(cadence_runtime_destroy(rt), CADENCE_OK);
}

// Ids chosen 2^40 apart, over and over, walk the counter up; it stops short of 2^63, so that it
// never wraps to 0 or to the reserved ids, and ids chosen above that are left to the caller.
TEST(IdsTest, JumpsStopBelowTwoToThe63SoTheCounterNeverWraps) {
  std::uint64_t next = TimerId::unique().value + 1;
  while (next < detail::kHighestJump - detail::kNearIds) {
    ASSERT_TRUE(detail::skip_timer_id(next + detail::kNearIds - 1));
    next += detail::kNearIds;
  }
  EXPECT_TRUE(detail::skip_timer_id(detail::kHighestJump - 1));
  EXPECT_FALSE(detail::skip_timer_id(detail::kHighestJump)) << "near, but at the ceiling";
  EXPECT_FALSE(detail::skip_timer_id(UINT64_MAX));
  const TimerId after = TimerId::unique();
  EXPECT_EQ(after.value, detail::kHighestJump);
  // Through the C API: fresh ids go on from there, valid, and skip what the app took.
  cadence_runtime_options o;
  cadence_runtime_options_init(&o);
  o.clock = CADENCE_CLOCK_MANUAL;
  cadence_runtime* rt = nullptr;
  ASSERT_EQ(cadence_runtime_create(&o, &rt), CADENCE_OK);
  const auto keep = [](void*, cadence_runtime*, const cadence_timer_info*) { return 0; };
  ASSERT_EQ(cadence_timer_add(rt, after.value + 2, nullptr, keep, nullptr, nullptr, nullptr), CADENCE_OK);
  ASSERT_EQ(cadence_timer_add(rt, UINT64_MAX, nullptr, keep, nullptr, nullptr, nullptr), CADENCE_OK);
  std::uint64_t fresh[3] = {};
  for (std::uint64_t& id : fresh) ASSERT_EQ(cadence_timer_add(rt, 0, nullptr, keep, nullptr, nullptr, &id), CADENCE_OK);
  EXPECT_EQ(fresh[0], after.value + 1);
  EXPECT_EQ(fresh[1], after.value + 3) << "the app's own id, after.value + 2, is skipped";
  EXPECT_EQ(fresh[2], after.value + 4);
  EXPECT_EQ(cadence_runtime_destroy(rt), CADENCE_OK);
}

}  // namespace
}  // namespace cadence
