// SharedTimingWheel in one process: the contract (rounds, tie order, the fixed pool, stale ids,
// bad arguments), the ways to share it (anonymous, memfd, descriptor), and a random comparison
// with a plain model. Files are in shared_wheel_file_test.cpp, processes and crashes in
// shared_wheel_process_test.cpp.
#include "cadence/shared_timing_wheel.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <limits>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "advance_plan.hpp"

namespace cadence {
namespace {

using Payloads = std::vector<std::uint64_t>;

SharedTimingWheel make(std::uint32_t slots = 16, std::uint32_t capacity = 64) {
  auto w = SharedTimingWheel::anonymous(slots, capacity);
  EXPECT_TRUE(w.ok()) << (w.ok() ? "" : w.error().message);
  return std::move(*w);
}

Payloads advance(SharedTimingWheel& w, std::int64_t ticks) {
  auto fired = w.advance(ticks);
  EXPECT_TRUE(fired.ok()) << (fired.ok() ? "" : fired.error().message);
  return fired.ok() ? *fired : Payloads{};
}

TEST(SharedTimingWheelTest, FiresEachPayloadAtItsTick) {
  SharedTimingWheel w = make();
  ASSERT_TRUE(w.add(3, 30).ok());
  ASSERT_TRUE(w.add(1, 10).ok());
  ASSERT_TRUE(w.add(2, 20).ok());
  EXPECT_EQ(w.count(), 3u);
  EXPECT_EQ(advance(w, 1), Payloads{10});
  EXPECT_EQ(advance(w, 1), Payloads{20});
  EXPECT_EQ(advance(w, 0), Payloads{}) << "advance(0) moves nothing";
  EXPECT_EQ(advance(w, 1), Payloads{30});
  EXPECT_EQ(w.now(), 3u);
  EXPECT_EQ(w.count(), 0u);
  EXPECT_EQ(w.check(), "");
}

TEST(SharedTimingWheelTest, ADelayBelowOneCountsAsOne) {
  SharedTimingWheel w = make();
  ASSERT_TRUE(w.add(0, 1).ok());
  ASSERT_TRUE(w.add(-5, 2).ok());
  ASSERT_TRUE(w.add(std::numeric_limits<std::int64_t>::min(), 3).ok());
  EXPECT_EQ(advance(w, 1), (Payloads{1, 2, 3}));
}

TEST(SharedTimingWheelTest, TimersOfOneTickFireInTheOrderTheyWereAdded) {
  SharedTimingWheel w = make(8);
  ASSERT_TRUE(w.add(5, 1).ok());
  ASSERT_TRUE(w.add(13, 9).ok());  // the same bucket, one round later
  ASSERT_TRUE(advance(w, 2).empty());
  ASSERT_TRUE(w.add(3, 2).ok());   // also due at 5, added later
  ASSERT_TRUE(w.add(3, 3).ok());
  EXPECT_EQ(advance(w, 3), (Payloads{1, 2, 3}));
  EXPECT_EQ(advance(w, 7), Payloads{});
  EXPECT_EQ(advance(w, 1), Payloads{9});
}

TEST(SharedTimingWheelTest, LongDelaysWaitTheirRoundsTickByTickAndInOneJump) {
  for (const bool jump : {false, true}) {
    SharedTimingWheel w = make(4);
    ASSERT_TRUE(w.add(2, 1).ok());
    ASSERT_TRUE(w.add(10, 2).ok());  // bucket 2, third pass
    ASSERT_TRUE(w.add(6, 3).ok());   // bucket 2, second pass
    ASSERT_TRUE(w.add(9, 4).ok());
    Payloads fired;
    std::vector<std::uint64_t> at;
    if (jump) {
      fired = advance(w, 100);  // more than a rotation: one sweep, in tick order
    } else {
      for (int t = 1; t <= 12; ++t) {
        for (std::uint64_t p : advance(w, 1)) {
          fired.push_back(p);
          at.push_back(w.now());
        }
      }
      EXPECT_EQ(at, (std::vector<std::uint64_t>{2, 6, 9, 10}));
    }
    EXPECT_EQ(fired, (Payloads{1, 3, 4, 2})) << (jump ? "one jump" : "tick by tick");
    EXPECT_EQ(w.check(), "");
  }
}

TEST(SharedWheelAdvancePlanTest, WalksBelowARotationAndSweepsWhenTheWalkWouldCostMore) {
  using detail::walk_is_cheaper;
  constexpr std::uint32_t kSlots = 4096;
  EXPECT_TRUE(walk_is_cheaper(0, kSlots, 0));
  EXPECT_TRUE(walk_is_cheaper(kSlots - 1, kSlots, 0)) << "below a rotation: always the walk";
  EXPECT_TRUE(walk_is_cheaper(kSlots - 1, kSlots, 1'000'000));
  EXPECT_TRUE(walk_is_cheaper(kSlots, kSlots, 0)) << "one rotation of an empty wheel: a tie goes to the walk";
  EXPECT_FALSE(walk_is_cheaper(kSlots + 1, kSlots, 0)) << "past that, an empty wheel is swept";
  // A busy wheel (100,000 timers): walked for three rotations, swept from about four.
  EXPECT_TRUE(walk_is_cheaper(3 * std::uint64_t{kSlots}, kSlots, 100'000));
  EXPECT_FALSE(walk_is_cheaper(5 * std::uint64_t{kSlots}, kSlots, 100'000));
  // The extremes neither overflow nor walk.
  EXPECT_FALSE(walk_is_cheaper(std::uint64_t{1} << 62, kSlots, 100'000));
  EXPECT_FALSE(walk_is_cheaper(std::uint64_t{1} << 62, 1, ~std::uint32_t{0}));
  EXPECT_FALSE(walk_is_cheaper(~std::uint64_t{0}, SharedTimingWheel::kMaxSlots, ~std::uint32_t{0}));
}

TEST(SharedTimingWheelTest, AWalkOfSeveralRotationsAndASweepFireTheSameTimersInTheSameOrder) {
  // 256 buckets, 2,000 timers over 1-12 rotations: three rotations are walked, twelve swept.
  for (const std::int64_t rotations : {3, 12}) {
    SharedTimingWheel stepped = make(256, 4096);
    SharedTimingWheel whole = make(256, 4096);
    std::mt19937_64 rng(static_cast<std::uint64_t>(rotations));
    for (std::uint64_t p = 0; p < 2000; ++p) {
      const auto delay = static_cast<std::int64_t>(1 + rng() % (12 * 256));
      ASSERT_TRUE(stepped.add(delay, p).ok());
      ASSERT_TRUE(whole.add(delay, p).ok());
    }
    Payloads expected;
    for (std::int64_t t = 0; t < rotations * 256; ++t) {
      for (std::uint64_t p : advance(stepped, 1)) expected.push_back(p);
    }
    ASSERT_FALSE(expected.empty());
    EXPECT_EQ(advance(whole, rotations * 256), expected) << rotations << " rotations in one advance";
    EXPECT_EQ(whole.now(), stepped.now());
    EXPECT_EQ(whole.count(), stepped.count());
    EXPECT_EQ(whole.check(), "");
  }
}

TEST(SharedTimingWheelTest, AHugeAdvanceOnAnEmptyWheelIsImmediate) {
  SharedTimingWheel w = make();
  EXPECT_EQ(advance(w, std::int64_t{1} << 61), Payloads{});
  EXPECT_EQ(w.now(), std::uint64_t{1} << 61);
  ASSERT_TRUE(w.add(1, 7).ok());
  EXPECT_EQ(advance(w, 1), Payloads{7});
}

TEST(SharedTimingWheelTest, TheFullPoolRefusesWithAClearErrorAndLosesNothing) {
  SharedTimingWheel w = make(16, 4);
  std::vector<SharedTimerId> ids;
  for (std::uint64_t p = 0; p < 4; ++p) ids.push_back(*w.add(static_cast<std::int64_t>(p + 1), p));
  auto more = w.add(1, 99);
  ASSERT_FALSE(more.ok());
  EXPECT_EQ(more.error().code, Errc::full);
  EXPECT_NE(more.error().message.find("all 4 timers"), std::string::npos) << more.error().message;
  EXPECT_EQ(w.count(), 4u);
  EXPECT_EQ(w.check(), "");
  ASSERT_TRUE(w.cancel(ids[3]));
  ASSERT_TRUE(w.add(1, 99).ok()) << "a cancelled timer's room is free again";
  EXPECT_EQ(advance(w, 3), (Payloads{0, 99, 1, 2}));
}

TEST(SharedTimingWheelTest, CancelIsFalseForFiredCancelledUnknownAndZeroIds) {
  SharedTimingWheel w = make();
  const SharedTimerId fired = *w.add(1, 1);
  const SharedTimerId cancelled = *w.add(5, 2);
  const SharedTimerId pending = *w.add(5, 3);
  ASSERT_EQ(advance(w, 1), Payloads{1});
  EXPECT_FALSE(w.cancel(fired));
  EXPECT_TRUE(w.cancel(cancelled));
  EXPECT_FALSE(w.cancel(cancelled));
  EXPECT_FALSE(w.cancel(SharedTimerId{}));
  EXPECT_FALSE(w.cancel(SharedTimerId{std::uint64_t{7} << 32 | 60}));  // a slot never used
  EXPECT_FALSE(w.cancel(SharedTimerId{1000}));                          // beyond the pool
  EXPECT_FALSE(w.cancel(SharedTimerId{~std::uint64_t{0}}));
  EXPECT_EQ(w.count(), 1u);
  EXPECT_EQ(advance(w, 4), Payloads{3}) << "the pending timer survived every bad cancel";
  (void)pending;
}

TEST(SharedTimingWheelTest, AStaleIdCannotCancelTheTimerThatReusedItsSlot) {
  SharedTimingWheel w = make(16, 1);  // one slot in the pool: reuse is certain
  const SharedTimerId old_id = *w.add(3, 1);
  ASSERT_TRUE(w.cancel(old_id));
  const SharedTimerId new_id = *w.add(3, 2);
  EXPECT_NE(new_id, old_id);
  EXPECT_EQ(new_id.value & 0xffff'ffffu, old_id.value & 0xffff'ffffu) << "the same pool slot";
  EXPECT_FALSE(w.cancel(old_id));
  EXPECT_EQ(advance(w, 3), Payloads{2});
}

TEST(SharedTimingWheelTest, BadArgumentsAreRefusedAndChangeNothing) {
  SharedTimingWheel w = make();
  ASSERT_TRUE(w.add(2, 5).ok());
  auto negative = w.advance(-1);
  ASSERT_FALSE(negative.ok());
  EXPECT_EQ(negative.error().code, Errc::invalid_argument);
  EXPECT_NE(negative.error().message.find("-1"), std::string::npos) << negative.error().message;
  auto huge_delay = w.add(SharedTimingWheel::kMaxTicks + 1, 6);
  ASSERT_FALSE(huge_delay.ok());
  EXPECT_EQ(huge_delay.error().code, Errc::invalid_argument);
  EXPECT_NE(huge_delay.error().message.find("2^62"), std::string::npos) << huge_delay.error().message;
  ASSERT_TRUE(w.advance(SharedTimingWheel::kMaxTicks - 10).ok());
  auto too_late = w.add(11, 7);
  ASSERT_FALSE(too_late.ok()) << "due past the end of the clock: it could never fire";
  EXPECT_EQ(too_late.error().code, Errc::invalid_argument);
  EXPECT_NE(too_late.error().message.find("past 2^62"), std::string::npos) << too_late.error().message;
  auto last = w.add(10, 8);
  ASSERT_TRUE(last.ok()) << "due at the last tick: allowed";
  auto past_end = w.advance(10);
  ASSERT_TRUE(past_end.ok()) << "exactly to the end is allowed";
  EXPECT_EQ(*past_end, std::vector<std::uint64_t>{8});
  auto beyond = w.advance(1);
  ASSERT_FALSE(beyond.ok());
  EXPECT_EQ(w.now(), static_cast<std::uint64_t>(SharedTimingWheel::kMaxTicks));
  EXPECT_EQ(w.check(), "");
}

TEST(SharedTimingWheelTest, GeometryOutOfRangeIsRefusedByEveryConstructor) {
  for (auto [slots, capacity] : {std::pair{0u, 10u}, std::pair{10u, 0u}, std::pair{(1u << 24) + 1, 10u},
                                 std::pair{10u, (1u << 24) + 1}}) {
    auto a = SharedTimingWheel::anonymous(slots, capacity);
    auto m = SharedTimingWheel::memfd("bad", slots, capacity);
    auto s = SharedTimingWheel::mapping_size(slots, capacity);
    for (const Error* e : {&a.error(), &m.error(), &s.error()}) {
      EXPECT_EQ(e->code, Errc::invalid_argument);
      EXPECT_NE(e->message.find("[1, 2^24]"), std::string::npos) << e->message;
    }
  }
  EXPECT_FALSE(SharedTimingWheel::from_fd(-1).ok());
}

TEST(SharedTimingWheelTest, MemoryIsFourBytesASlotAndThirtyTwoATimer) {
  EXPECT_EQ(*SharedTimingWheel::mapping_size(512, 10'000), 128u + 512u * 4 + 10'000u * 32);
  SharedTimingWheel w = make(512, 10'000);
  EXPECT_EQ(w.stats().mmap_size, 128u + 512u * 4 + 10'000u * 32);
  EXPECT_EQ(w.num_slots(), 512u);
  EXPECT_EQ(w.capacity(), 10'000u);
}

TEST(SharedTimingWheelTest, StatsAndClear) {
  SharedTimingWheel w = make(8, 16);
  const SharedTimerId a = *w.add(3, 1);
  (void)w.add(20, 2);
  (void)advance(w, 11);
  const SharedWheelStats s = w.stats();
  EXPECT_EQ(s.now, 11u);
  EXPECT_EQ(s.count, 1u);
  EXPECT_EQ(s.cur, 3u);
  EXPECT_EQ(s.ops, 3u);
  EXPECT_EQ(s.recoveries, 0u);
  w.clear();
  EXPECT_EQ(w.now(), 0u);
  EXPECT_EQ(w.count(), 0u);
  EXPECT_FALSE(w.cancel(a));
  EXPECT_EQ(advance(w, 100), Payloads{}) << "cleared timers never fire";
  EXPECT_EQ(w.check(), "");
  const SharedTimerId b = *w.add(1, 3);
  EXPECT_NE(b, a);
  EXPECT_EQ(advance(w, 1), Payloads{3});
}

TEST(SharedTimingWheelTest, AMemfdWheelIsSharedThroughItsDescriptor) {
  auto first = SharedTimingWheel::memfd("cadence-test", 32, 100);
  ASSERT_TRUE(first.ok()) << first.error().message;
  EXPECT_TRUE(first->path().empty());
  ASSERT_GE(first->memfd(), 0);
  ASSERT_TRUE(first->add(4, 42).ok());
  const int passed = ::dup(first->memfd());  // what another process would receive
  auto second = SharedTimingWheel::from_fd(passed);
  ASSERT_TRUE(second.ok()) << second.error().message;
  ::close(passed);  // it was duplicated: closing ours disturbs nothing
  EXPECT_EQ(second->num_slots(), 32u);
  EXPECT_EQ(second->count(), 1u);
  EXPECT_EQ(*second->advance(4), Payloads{42});
  EXPECT_EQ(first->now(), 4u) << "one clock";
  EXPECT_TRUE(first->sync().ok()) << "a no-op without a file";
  EXPECT_EQ(first->unlink().error().code, Errc::invalid_argument);
}

TEST(SharedTimingWheelTest, ADescriptorWithoutAWheelIsRefused) {
  const int fd = ::memfd_create("empty", MFD_CLOEXEC);
  ASSERT_GE(fd, 0);
  auto w = SharedTimingWheel::from_fd(fd);
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error().code, Errc::corrupt);
  EXPECT_NE(w.error().message.find("descriptor"), std::string::npos) << w.error().message;
  ::close(fd);
}

TEST(SharedTimingWheelTest, ADescriptorThatCannotHoldAWheelIsRefusedBeforeItIsTouched) {
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  auto piped = SharedTimingWheel::from_fd(pipe_fds[0]);
  ASSERT_FALSE(piped.ok());
  EXPECT_EQ(piped.error().code, Errc::unsafe);
  EXPECT_NE(piped.error().message.find("not a regular file"), std::string::npos) << piped.error().message;
  ::close(pipe_fds[0]);
  ::close(pipe_fds[1]);

  auto wheel = SharedTimingWheel::memfd("read-only", 8, 8);
  ASSERT_TRUE(wheel.ok());
  const int read_only = ::open(("/proc/self/fd/" + std::to_string(wheel->memfd())).c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(read_only, 0);
  auto refused = SharedTimingWheel::from_fd(read_only);
  ASSERT_FALSE(refused.ok()) << "a read-only descriptor gives no right to write the wheel";
  EXPECT_EQ(refused.error().code, Errc::invalid_argument);
  EXPECT_NE(refused.error().message.find("reading and writing"), std::string::npos) << refused.error().message;
  ::close(read_only);
}

// Random adds (short and long), cancels (live, fired, stale) and advances (one tick, several,
// more than a rotation), against a model ordered by (tick, add order).
TEST(SharedTimingWheelTest, AgreesWithAModelOnRandomOperations) {
  SharedTimingWheel w = make(64, 4096);
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::uint64_t> model;  // (tick, seq) -> payload
  std::vector<std::pair<SharedTimerId, std::pair<std::uint64_t, std::uint64_t>>> ids;
  std::mt19937_64 rng(2026);
  std::uint64_t seq = 0, now = 0, fired_total = 0;
  for (int step = 0; step < 200'000; ++step) {
    const int op = static_cast<int>(rng() % 100);
    if (op < 45 && model.size() < 4000) {
      const std::int64_t delay = rng() % 4 == 0 ? static_cast<std::int64_t>(rng() % 2000) : static_cast<std::int64_t>(rng() % 60);
      const std::uint64_t payload = seq;
      auto id = w.add(delay, payload);
      ASSERT_TRUE(id.ok());
      const auto key = std::pair{now + static_cast<std::uint64_t>(std::max<std::int64_t>(delay, 1)), seq++};
      model[key] = payload;
      ids.emplace_back(*id, key);
    } else if (op < 70 && !ids.empty()) {
      const std::size_t k = rng() % ids.size();
      const bool live = model.contains(ids[k].second);
      EXPECT_EQ(w.cancel(ids[k].first), live);
      model.erase(ids[k].second);
      ids[k] = ids.back();
      ids.pop_back();
    } else {
      const int kind = static_cast<int>(rng() % 10);
      const std::int64_t ticks = kind < 6 ? 1 : kind < 9 ? static_cast<std::int64_t>(rng() % 40) : static_cast<std::int64_t>(64 + rng() % 300);
      now += static_cast<std::uint64_t>(ticks);
      Payloads expected;
      while (!model.empty() && model.begin()->first.first <= now) {
        expected.push_back(model.begin()->second);
        model.erase(model.begin());
      }
      ASSERT_EQ(advance(w, ticks), expected) << "step " << step;
      fired_total += expected.size();
    }
    ASSERT_EQ(w.count(), model.size());
    if (step % 20'000 == 0) {
      ASSERT_EQ(w.check(), "");
    }
  }
  EXPECT_GT(fired_total, 50'000u);
  EXPECT_EQ(w.check(), "");
}

}  // namespace
}  // namespace cadence
