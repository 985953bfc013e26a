// The shared wheel swept with the tick counts at the edges (extreme_ticks.hpp): every delay
// and step out of range is refused with a message naming it, and nothing changes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cadence/shared_timing_wheel.hpp"
#include "extreme_ticks.hpp"

namespace cadence {
namespace {

using testing::tick_counts;

TEST(ExtremeValuesTest, TheSharedWheelRefusesOutOfRangeDelaysAndSteps) {
  auto wheel = SharedTimingWheel::anonymous(64, 64);
  ASSERT_TRUE(wheel.ok());
  for (std::int64_t delay : tick_counts()) {
    SCOPED_TRACE("delay " + std::to_string(delay));
    auto id = wheel->add(delay, 1);
    if (delay > SharedTimingWheel::kMaxTicks) {
      ASSERT_FALSE(id.ok());
      EXPECT_EQ(id.error().code, Errc::invalid_argument);
      EXPECT_NE(id.error().message.find(std::to_string(delay)), std::string::npos);
    } else {
      ASSERT_TRUE(id.ok()) << id.error().message;  // below 1 counts as 1
      EXPECT_TRUE(wheel->cancel(*id));
    }
  }
  for (std::int64_t step : tick_counts()) {
    SCOPED_TRACE("advance " + std::to_string(step));
    wheel->clear();
    std::vector<std::uint64_t> fired;
    const Status s = wheel->advance(step, fired);
    if (step < 0 || step > SharedTimingWheel::kMaxTicks) {
      ASSERT_FALSE(s.ok());
      EXPECT_EQ(s.error().code, Errc::invalid_argument);
      EXPECT_EQ(wheel->now(), 0u) << "nothing changes";
    } else {
      ASSERT_TRUE(s.ok()) << s.error().message;
      EXPECT_EQ(wheel->now(), static_cast<std::uint64_t>(step));
    }
  }
}

}  // namespace
}  // namespace cadence
