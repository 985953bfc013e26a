// The error-message helpers (runtime/src/text.hpp) take every integer type as it is: which of
// int64_t, long and long long are the same type differs between Linux and Windows, and an
// overload set written for one was ambiguous or a redefinition on the other.
#include "text.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <limits>

namespace cadence::detail {
namespace {

TEST(TextTest, NumWritesEveryIntegerTypeAsItIs) {
  EXPECT_EQ(num(42), "42");
  EXPECT_EQ(num(-5L), "-5");
  EXPECT_EQ(num(-5LL), "-5");
  EXPECT_EQ(num(7U), "7");
  EXPECT_EQ(num(7UL), "7");
  EXPECT_EQ(num(7ULL), "7");
  EXPECT_EQ(num(static_cast<short>(-3)), "-3");
  EXPECT_EQ(num(std::size_t{12}), "12");
  EXPECT_EQ(num(std::numeric_limits<std::int64_t>::min()), "-9223372036854775808");
  EXPECT_EQ(num(std::numeric_limits<std::uint64_t>::max()), "18446744073709551615");
  EXPECT_EQ(num(std::numeric_limits<std::int32_t>::min()), "-2147483648");
}

}  // namespace
}  // namespace cadence::detail
