#include "cadence/payload.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace cadence {
namespace {

TEST(PayloadTest, HoldsMoveOnlyValues) {
  Payload p = Payload::of(std::make_unique<int>(7));
  ASSERT_TRUE(p.has_value());
  ASSERT_NE(p.get<std::unique_ptr<int>>(), nullptr);
  EXPECT_EQ(**p.get<std::unique_ptr<int>>(), 7);
  Result<std::unique_ptr<int>> v = std::move(p).take<std::unique_ptr<int>>();
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(**v, 7);
}

TEST(PayloadTest, TheWrongTypeIsAnErrorAndLeavesTheValue) {
  Payload p = Payload::of(std::string("hello"));
  EXPECT_EQ(p.get<int>(), nullptr);
  Result<int> wrong = std::move(p).take<int>();
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.error().code, Errc::mismatch);
  ASSERT_NE(p.get<std::string>(), nullptr);  // NOLINT: take() on error leaves it
  EXPECT_EQ(*p.get<std::string>(), "hello");
}

TEST(PayloadTest, EmptyPayload) {
  Payload p;
  EXPECT_FALSE(p.has_value());
  EXPECT_STREQ(p.type_name(), "empty");
  EXPECT_FALSE(std::move(p).take<int>().ok());
}

}  // namespace
}  // namespace cadence
