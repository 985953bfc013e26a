// SharedTimingWheel::advance() over more than a rotation takes one of two paths, the walk or the
// sweep (advance_plan.hpp), chosen from the wheel's size and count. These twins differ only in
// "ballast" timers due long after the advance, which change the count and so the path: damage
// and a killed process must leave each where the header says.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <string>
#include <vector>

#include "advance_plan.hpp"
#include "cadence/shared_timing_wheel.hpp"
#include "shared_wheel_layout.hpp"
#include "shared_wheel_scribbler.hpp"

namespace cadence {
namespace {

using detail::walk_is_cheaper;
using Payloads = std::vector<std::uint64_t>;

// ---- both paths, damaged ------------------------------------------------------------------------

constexpr std::uint32_t kAdvanceSlots = 64;
constexpr std::uint32_t kAdvanceCapacity = 64;
constexpr std::int64_t kTicks = 2 * kAdvanceSlots;  // two rotations: walked when busy, swept when idle
constexpr std::int64_t kBallastDelay = 1001;  // bucket 41, long after the advance

using testing::Scribbler;

std::uint32_t link_of(SharedTimerId id) { return static_cast<std::uint32_t>(id.value & 0xffff'ffffu); }

// 64 buckets: P1 due at tick 1, P2 at 5, P3 at 9, each alone in its bucket, plus `ballast`
// timers at tick 1001. advance(128) walks with 20 ballast (23 pending) and sweeps with 1 (4).
struct Twin {
  SharedTimingWheel wheel;
  std::vector<SharedTimerId> p;  // P1, P2, P3
};
Twin make_twin(const char* name, int ballast) {
  auto w = SharedTimingWheel::memfd(name, kAdvanceSlots, kAdvanceCapacity);
  EXPECT_TRUE(w.ok());
  Twin t{std::move(*w), {}};
  for (const std::int64_t delay : {1, 5, 9}) t.p.push_back(*t.wheel.add(delay, static_cast<std::uint64_t>(delay)));
  for (int i = 0; i < ballast; ++i) EXPECT_TRUE(t.wheel.add(kBallastDelay, 1000 + static_cast<std::uint64_t>(i)).ok());
  return t;
}
constexpr int kWalkBallast = 20;
constexpr int kSweepBallast = 1;

struct Outcome {
  bool ok = false;
  Errc code{};
  Payloads fired;
  std::uint64_t now = 0;
};
Outcome advance_once(SharedTimingWheel& w) {
  Outcome o;
  const Status s = w.advance(kTicks, o.fired);
  o.ok = s.ok();
  if (!s.ok()) o.code = s.error().code;
  o.now = w.now();
  return o;
}

// A slot head beyond the timers in use, in bucket 40, after the buckets of P1..P3 (1, 5, 9).
// The walk fires P1..P3, meets the head at tick 40 and stops there: now() = 39. The sweep
// checks every list before it fires anything, so it fires nothing and leaves now() = 0. Both
// are what the header says (what fired before the damage was met, the clock at the last tick
// done), and nothing is lost: the next advance fires the rest.
TEST(SharedWheelAdvanceDamageTest, ABadHeadLosesNothingWalkedOrSwept) {
  Twin walk = make_twin("walk", kWalkBallast);
  Twin sweep = make_twin("sweep", kSweepBallast);
  ASSERT_TRUE(walk_is_cheaper(static_cast<std::uint64_t>(kTicks), kAdvanceSlots, walk.wheel.count()));
  ASSERT_FALSE(walk_is_cheaper(static_cast<std::uint64_t>(kTicks), kAdvanceSlots, sweep.wheel.count()));
  for (Twin* t : {&walk, &sweep}) {
    Scribbler s(t->wheel.memfd(), kAdvanceSlots, kAdvanceCapacity);
    ASSERT_TRUE(s.ok());
    s.head(40) = 0xffff'ffffu;
  }
  const Outcome a = advance_once(walk.wheel);
  const Outcome b = advance_once(sweep.wheel);
  EXPECT_EQ(a.code, Errc::corrupt);
  EXPECT_EQ(b.code, Errc::corrupt);
  EXPECT_EQ(a.fired, (Payloads{1, 5, 9}));
  EXPECT_EQ(a.now, 39u);
  EXPECT_EQ(b.fired, Payloads{});
  EXPECT_EQ(b.now, 0u);
  for (Twin* t : {&walk, &sweep}) {
    Payloads all = t == &walk ? a.fired : b.fired;
    const Outcome again = advance_once(t->wheel);
    EXPECT_TRUE(again.ok);
    all.insert(all.end(), again.fired.begin(), again.fired.end());
    EXPECT_EQ(all, (Payloads{1, 5, 9}));
    EXPECT_EQ(t->wheel.check(), "");
  }
}

// P2's backward link names P1 instead of itself (a lone node is its own tail), which neither
// path checks before it fires P2 (the sweep's gathering pass follows only forward links). Both
// fire P1 (tick 1) and stop at P2 (tick 5), with the clock at the last tick done: 4.
TEST(SharedWheelAdvanceDamageTest, DamageMetWhileFiringLeavesTheClockAtTheLastTickDoneWalkedOrSwept) {
  Twin walk = make_twin("walk-prev", kWalkBallast);
  Twin sweep = make_twin("sweep-prev", kSweepBallast);
  ASSERT_TRUE(walk_is_cheaper(static_cast<std::uint64_t>(kTicks), kAdvanceSlots, walk.wheel.count()));
  ASSERT_FALSE(walk_is_cheaper(static_cast<std::uint64_t>(kTicks), kAdvanceSlots, sweep.wheel.count()));
  for (Twin* t : {&walk, &sweep}) {
    Scribbler s(t->wheel.memfd(), kAdvanceSlots, kAdvanceCapacity);
    ASSERT_TRUE(s.ok());
    s.node(link_of(t->p[1])).prev = link_of(t->p[0]);
  }
  const Outcome a = advance_once(walk.wheel);
  const Outcome b = advance_once(sweep.wheel);
  EXPECT_EQ(a.code, Errc::corrupt);
  EXPECT_EQ(b.code, Errc::corrupt);
  EXPECT_EQ(a.fired, (Payloads{1}));
  EXPECT_EQ(b.fired, (Payloads{1}));
  EXPECT_EQ(a.now, 4u) << "walk: the last tick done is 4";
  EXPECT_EQ(b.now, a.now) << "sweep: tick 1 fired, but the clock still reads its start";
  EXPECT_EQ(walk.wheel.check(), "");
  EXPECT_EQ(sweep.wheel.check(), "");
}

// ---- the fault hook -------------------------------------------------------------------------------

const SharedTimingWheel* g_watched = nullptr;
std::vector<std::uint64_t>* g_seen = nullptr;
void record_now(detail::SharedWheelFault point) {
  if (point == detail::SharedWheelFault::advance_mid_tick && g_watched != nullptr) g_seen->push_back(g_watched->now());
}
struct HookGuard {
  HookGuard() { detail::shared_wheel_fault_hook = record_now; }
  ~HookGuard() {
    detail::shared_wheel_fault_hook = nullptr;
    g_watched = nullptr;
    g_seen = nullptr;
  }
  HookGuard(const HookGuard&) = delete;
  HookGuard& operator=(const HookGuard&) = delete;
};

// advance_mid_tick ("some of a tick's timers fired, the clock not yet moved"): what now() reads
// at each fault point is what a process killed there leaves behind (the repair does not touch
// the clock). Two hook calls per fired timer (after its tag, after its unlink): the tick before
// each timer's, [0, 0, 4, 4, 8, 8], on both paths.
TEST(SharedWheelAdvanceDamageTest, AKilledAdvanceLeavesTheClockWhereTheWalkWouldWhenSwept) {
  Twin walk = make_twin("walk-hook", kWalkBallast);
  Twin sweep = make_twin("sweep-hook", kSweepBallast);
  ASSERT_TRUE(walk_is_cheaper(static_cast<std::uint64_t>(kTicks), kAdvanceSlots, walk.wheel.count()));
  ASSERT_FALSE(walk_is_cheaper(static_cast<std::uint64_t>(kTicks), kAdvanceSlots, sweep.wheel.count()));
  std::vector<std::uint64_t> seen_walk, seen_sweep;
  Outcome a, b;
  {
    HookGuard guard;
    g_watched = &walk.wheel;
    g_seen = &seen_walk;
    a = advance_once(walk.wheel);
    g_watched = &sweep.wheel;
    g_seen = &seen_sweep;
    b = advance_once(sweep.wheel);
  }
  ASSERT_TRUE(a.ok);
  ASSERT_TRUE(b.ok);
  EXPECT_EQ(a.fired, (Payloads{1, 5, 9}));
  EXPECT_EQ(b.fired, (Payloads{1, 5, 9}));
  EXPECT_EQ(a.now, b.now);
  EXPECT_EQ(seen_walk, (std::vector<std::uint64_t>{0, 0, 4, 4, 8, 8}));
  EXPECT_EQ(seen_sweep, seen_walk) << "what a process killed at each point would leave";
}

}  // namespace
}  // namespace cadence
