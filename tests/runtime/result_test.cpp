#include "cadence/result.hpp"

#include <gtest/gtest.h>

#include <string>

namespace cadence {
namespace {

TEST(ResultTest, HoldsAValue) {
  Result<int> r = 42;
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, 42);
  EXPECT_THROW((void)r.error(), BadResultAccess);
}

TEST(ResultTest, HoldsAnErrorWithItsMessage) {
  Result<std::string> r = Error{Errc::not_found, "no timer 0x123"};
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, Errc::not_found);
  EXPECT_EQ(r.error().message, "no timer 0x123");
  try {
    (void)r.value();
    FAIL() << "value() of an error must throw";
  } catch (const BadResultAccess& e) {
    EXPECT_NE(std::string(e.what()).find("no timer 0x123"), std::string::npos);
  }
}

TEST(ResultTest, StatusIsSuccessOrError) {
  Status good;
  EXPECT_TRUE(good.ok());
  EXPECT_THROW((void)good.error(), BadResultAccess);
  Status bad = Error{Errc::invalid_argument, "delay -5 ms"};
  EXPECT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, Errc::invalid_argument);
}

TEST(ResultTest, ErrcNamesAreStable) {
  EXPECT_STREQ(to_string(Errc::stale), "stale");
  EXPECT_STREQ(to_string(Errc::clock_mismatch), "clock_mismatch");
  EXPECT_STREQ(to_string(Errc::full), "full");
  EXPECT_STREQ(to_string(Errc::unsafe), "unsafe");
  EXPECT_STREQ(to_string(Errc::corrupt), "corrupt");
  EXPECT_STREQ(to_string(Errc::system), "system");
  EXPECT_STREQ(to_string(Errc::wrong_thread), "wrong_thread");
}

}  // namespace
}  // namespace cadence
