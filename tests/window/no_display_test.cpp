// Without a display, opening a window is a clear error, not a crash.
#include <gtest/gtest.h>

#include <cstdlib>

#include "cadence/window.hpp"

namespace cadence {
namespace {

TEST(NoDisplayTest, OpeningAWindowFailsWithAClearMessage) {
  ::unsetenv("DISPLAY");
  ::unsetenv("WAYLAND_DISPLAY");
  auto w = Window::create(WindowOptions{}, nullptr);
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error().code, Errc::resource);
  EXPECT_NE(w.error().message.find("GLFW could not start"), std::string::npos) << w.error().message;
  EXPECT_NE(w.error().message.find("xvfb-run"), std::string::npos) << "says what to do";
  // And again: a failed start leaves nothing half-open.
  auto again = Window::create(WindowOptions{}, nullptr);
  EXPECT_FALSE(again.ok());
}

}  // namespace
}  // namespace cadence
