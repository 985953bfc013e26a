// Which window system a GLFW window starts on (glfw/src/glfw_platform.hpp). The Wayland tests run
// under scripts/test's headless weston (CADENCE_TEST_DISPLAY=wayland), which offers no seat, with
// an Xvfb server beside it standing in for XWayland (CADENCE_TEST_X_DISPLAY).
#include <GLFW/glfw3.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "../common/memory_in_use.hpp"
#include "cadence/window.hpp"

namespace cadence {
namespace {

#if defined(GLFW_PLATFORM_WAYLAND)
int started_on() { return glfwGetPlatform(); }
constexpr int kX11 = GLFW_PLATFORM_X11;
constexpr int kWayland = GLFW_PLATFORM_WAYLAND;
#else  // GLFW 3.3: one platform per build, and no way to ask which
int started_on() { return 0; }
constexpr int kX11 = -1;
constexpr int kWayland = -2;
#endif

bool glfw_version_is(int major, int minor) {
  int a = 0, b = 0, c = 0;
  glfwGetVersion(&a, &b, &c);
  return a == major && b == minor;
}

// On a Wayland run, WAYLAND_DISPLAY is the compositor and DISPLAY is unset; elsewhere, skipped.
bool on_wayland() {
  const char* kind = std::getenv("CADENCE_TEST_DISPLAY");
  const bool wayland_run = kind != nullptr && std::string(kind) == "wayland";
  if (wayland_run) {
    EXPECT_NE(std::getenv("WAYLAND_DISPLAY"), nullptr) << "a Wayland run names its compositor (tests/on_display)";
    EXPECT_EQ(std::getenv("DISPLAY"), nullptr);
  }
  return wayland_run && std::getenv("WAYLAND_DISPLAY") != nullptr;
}

TEST(GlfwPlatform, AnUnknownChoiceIsNamedWithTheRule) {
  ::setenv("CADENCE_GLFW_PLATFORM", "mir", 1);
  auto w = Window::create(WindowOptions{}, nullptr);
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error().code, Errc::invalid_argument);
  EXPECT_NE(w.error().message.find("\"mir\""), std::string::npos) << w.error().message;
  EXPECT_NE(w.error().message.find("auto, x11 or wayland"), std::string::npos) << w.error().message;
  // Nothing was held: with the choice fixed, the window opens.
  ::setenv("CADENCE_GLFW_PLATFORM", "auto", 1);
  if (on_wayland() && glfw_version_is(3, 4)) return;  // the next test's case
  auto again = Window::create(WindowOptions{}, nullptr);
  EXPECT_TRUE(again.ok()) << again.error().message;
}

// GLFW 3.4 crashes inside glfwInit on a compositor with no seat (GLFW issue 2517): without an X
// server to go to, opening the window is a clear error and the app lives on. GLFW 3.5 starts there.
TEST(GlfwPlatform, OnASeatlessCompositorGlfw34IsAClearErrorNotACrash) {
  if (!on_wayland()) GTEST_SKIP() << "runs under CADENCE_TEST_DISPLAY=wayland";
  if (glfw_version_is(3, 3)) GTEST_SKIP() << "GLFW 3.3 here is built for X11 alone";
  auto w = Window::create(WindowOptions{}, nullptr);
  if (glfw_version_is(3, 4)) {
    ASSERT_FALSE(w.ok());
    EXPECT_EQ(w.error().code, Errc::resource);
    for (const char* said : {"GLFW 3.4", "wl_seat", "cadence-wayland-", "DISPLAY", "CADENCE_GLFW_PLATFORM=x11"}) {
      EXPECT_NE(w.error().message.find(said), std::string::npos) << said << " in: " << w.error().message;
    }
    // Asked for Wayland by name, the same.
    ::setenv("CADENCE_GLFW_PLATFORM", "wayland", 1);
    auto asked = Window::create(WindowOptions{}, nullptr);
    ASSERT_FALSE(asked.ok());
    EXPECT_NE(asked.error().message.find("wl_seat"), std::string::npos) << asked.error().message;
  } else {
    ASSERT_TRUE(w.ok()) << w.error().message;
    EXPECT_EQ(started_on(), kWayland);
  }
}

// With an X server beside the compositor (XWayland), GLFW 3.4 starts on X11 by itself, and on
// Wayland only when asked, where it meets the same error.
TEST(GlfwPlatform, BesideAnXServerGlfw34StartsOnX11) {
  if (!on_wayland()) GTEST_SKIP() << "runs under CADENCE_TEST_DISPLAY=wayland";
  if (glfw_version_is(3, 3)) GTEST_SKIP() << "GLFW 3.3 here is built for X11 alone";
  const char* x = std::getenv("CADENCE_TEST_X_DISPLAY");
  ASSERT_NE(x, nullptr) << "tests/on_display names the X server beside the compositor";
  ::setenv("DISPLAY", x, 1);
  {
    auto w = Window::create(WindowOptions{}, nullptr);
    ASSERT_TRUE(w.ok()) << w.error().message;
    if (glfw_version_is(3, 4)) {
      EXPECT_EQ(started_on(), kX11);
    }
  }
  ::setenv("CADENCE_GLFW_PLATFORM", "wayland", 1);
  auto asked = Window::create(WindowOptions{}, nullptr);
  if (glfw_version_is(3, 4)) {
    ASSERT_FALSE(asked.ok());
    EXPECT_NE(asked.error().message.find("wl_seat"), std::string::npos) << asked.error().message;
  } else {
    ASSERT_TRUE(asked.ok()) << asked.error().message;
    EXPECT_EQ(started_on(), kWayland);
  }
}

// Every worker post that finds the loop asleep wakes it with glfwPostEmptyEvent. GLFW before 3.5
// leaked a Wayland object (a wl_display.sync callback) on each; on X11 and on GLFW 3.5's Wayland a
// hundred thousand wake-ups leave nothing behind. (An object of about 100 bytes each would be
// 10 MB.)
TEST(GlfwPlatform, AHundredThousandWakeUpsLeaveNoMemoryBehind) {
  auto w = Window::create(WindowOptions{}, nullptr);
  if (on_wayland() && glfw_version_is(3, 4)) {
    ASSERT_FALSE(w.ok()) << "GLFW 3.4 does not start on this compositor (above)";
    return;
  }
  ASSERT_TRUE(w.ok()) << w.error().message;
  const auto wake = [](int times) {
    for (int i = 1; i <= times; ++i) {
      glfwPostEmptyEvent();  // the GLFW window's waker
      if (i % 100 == 0) glfwPollEvents();
    }
    glfwPollEvents();
  };
  wake(10'000);  // GLFW's and the allocator's own growth first
  const long before = test::memory_in_use_kib();
  ASSERT_GT(before, 0) << test::memory_in_use_name();
  wake(100'000);
  const long after = test::memory_in_use_kib();
  ASSERT_GT(after, 0) << test::memory_in_use_name();
  const long grown = after - before;
  std::printf("100,000 wake-ups: %s grew by %ld KiB\n", test::memory_in_use_name(), grown);
  EXPECT_LT(grown, 1024) << "KiB";
}

}  // namespace
}  // namespace cadence
