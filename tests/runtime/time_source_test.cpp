#include "cadence/time_source.hpp"

#include <gtest/gtest.h>

#include <cstdint>

namespace cadence {
namespace {

using namespace std::chrono_literals;

TEST(TimeSourceTest, SystemSourceIsMonotonicAndStampedSystem) {
  const TimeSource source = TimeSource::system();
  EXPECT_EQ(source.kind(), ClockKind::system);
  Instant prev = source.now();
  for (int i = 0; i < 1000; ++i) {
    const Instant next = source.now();
    EXPECT_EQ(next.kind(), ClockKind::system);
    EXPECT_GE(next, prev);
    prev = next;
  }
}

TEST(TimeSourceTest, TickSourceScalesTheCounter) {
  std::uint64_t counter = 0;
  const TimeSource source = TimeSource::ticks(1ms, [&] { return counter; });
  EXPECT_EQ(source.kind(), ClockKind::tick);
  EXPECT_EQ(source.now().since_origin(), 0ms);
  counter = 530;
  EXPECT_EQ(source.now().since_origin(), 530ms);
}

TEST(TimeSourceTest, TickSourceSaturatesAHugeCount) {
  std::uint64_t counter = UINT64_MAX;
  const TimeSource source = TimeSource::ticks(1s, [&] { return counter; });
  EXPECT_EQ(source.now(), Instant::max_for(ClockKind::tick));
}

TEST(TimeSourceTest, NonPositiveTickLengthIsTreatedAsOneNanosecond) {
  std::uint64_t counter = 7;
  EXPECT_EQ(TimeSource::ticks(0ns, [&] { return counter; }).now().since_origin(), 7ns);
  EXPECT_EQ(TimeSource::ticks(-5ms, [&] { return counter; }).now().since_origin(), 7ns);
}

TEST(TimeSourceTest, CustomSourceKeepsItsKind) {
  const TimeSource source = TimeSource::custom(ClockKind::system, [] { return 42ms; });
  EXPECT_EQ(source.now(), Instant::at(ClockKind::system, 42ms));
}

}  // namespace
}  // namespace cadence
