#include "cadence/time.hpp"

#include <gtest/gtest.h>

#include <string>

#include "tick_instants.hpp"

namespace cadence {
namespace {

using namespace std::chrono_literals;

using testing::tick_at;
Instant system_at(Duration d) { return Instant::at(ClockKind::system, d); }

TEST(InstantTest, ArithmeticWithinOneClock) {
  const Instant a = tick_at(10ms);
  const Instant b = a + 250ms;
  EXPECT_EQ(b.since_origin(), 260ms);
  EXPECT_EQ(b - a, 250ms);
  EXPECT_EQ(a - b, -250ms);
  EXPECT_LT(a, b);
  EXPECT_EQ(b - 250ms, a);
  EXPECT_EQ(b.kind(), ClockKind::tick);
}

TEST(InstantTest, AddingAnEnormousDurationSaturatesInsteadOfWrapping) {
  const Instant a = tick_at(5s);
  const Instant far = a + Duration::max();
  EXPECT_EQ(far, Instant::max_for(ClockKind::tick));
  EXPECT_GT(far, a);  // a wrapped-around deadline would be in the past
  const Instant early = tick_at(-5s) - Duration::max();
  EXPECT_EQ(early.since_origin(), Duration::min());
  EXPECT_LT(early, a);
}

TEST(InstantTest, DifferenceOfFarApartInstantsSaturates) {
  const Instant lo = tick_at(Duration::min());
  const Instant hi = tick_at(Duration::max());
  EXPECT_EQ(hi - lo, Duration::max());
  EXPECT_EQ(lo - hi, Duration::min());
}

TEST(InstantTest, MixingClockKindsIsAClearErrorNotACrash) {
  const Instant t = tick_at(1s);
  const Instant s = system_at(1s);
  EXPECT_FALSE(t == s);  // equality is defined: different clocks are never equal
  try {
    (void)(t - s);
    FAIL() << "subtracting instants of two clocks must throw";
  } catch (const ClockMismatch& e) {
    EXPECT_EQ(e.left(), ClockKind::tick);
    EXPECT_EQ(e.right(), ClockKind::system);
    const std::string what = e.what();
    EXPECT_NE(what.find("tick"), std::string::npos);
    EXPECT_NE(what.find("system"), std::string::npos);
    EXPECT_NE(what.find("TimeSource"), std::string::npos) << "the message says how to avoid it";
  }
  EXPECT_THROW((void)(t < s), ClockMismatch);
  EXPECT_THROW((void)later_of(t, s), ClockMismatch);
}

TEST(InstantTest, SaturatingHelpers) {
  EXPECT_EQ(saturating_add(Duration::max(), 1ns), Duration::max());
  EXPECT_EQ(saturating_add(Duration::min(), -1ns), Duration::min());
  EXPECT_EQ(saturating_sub(Duration::min(), 1ns), Duration::min());
  EXPECT_EQ(saturating_sub(Duration::max(), -1ns), Duration::max());
  EXPECT_EQ(saturating_add(2ms, 3ms), 5ms);
  // The edges of both directions, where a careless check would overflow itself.
  EXPECT_EQ(saturating_add(Duration::max(), Duration::min()), Duration{-1});
  EXPECT_EQ(saturating_add(Duration::min(), Duration::min()), Duration::min());
  EXPECT_EQ(saturating_add(Duration::max(), Duration::max()), Duration::max());
  EXPECT_EQ(saturating_add(Duration::max() - 1ns, 1ns), Duration::max());
  EXPECT_EQ(saturating_sub(Duration::zero(), Duration::min()), Duration::max());
  EXPECT_EQ(saturating_sub(Duration{-1}, Duration::min()), Duration::max());
  EXPECT_EQ(saturating_sub(Duration::min(), Duration::max()), Duration::min());
  EXPECT_EQ(saturating_sub(Duration::min() + 1ns, 1ns), Duration::min());
  EXPECT_EQ(saturating_sub(Duration::max(), Duration::max()), Duration::zero());
  static_assert(saturating_add(Duration::max(), 1ns) == Duration::max(), "usable in constant expressions");
}

TEST(InstantTest, ClockKindNames) {
  EXPECT_STREQ(to_string(ClockKind::system), "system");
  EXPECT_STREQ(to_string(ClockKind::tick), "tick");
}

}  // namespace
}  // namespace cadence
