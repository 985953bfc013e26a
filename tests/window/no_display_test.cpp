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

// SDL would fall back to its off-screen driver and draw into a window nobody sees: the same
// clear error instead, unless the app chose that driver itself (SDL_VIDEODRIVER).
TEST(NoDisplayTest, AnSdlWindowFailsTooRatherThanOpenOffScreen) {
  const WindowBackend sdl = backend_available(WindowBackend::sdl3) ? WindowBackend::sdl3 : WindowBackend::sdl2;
  if (!backend_available(sdl)) GTEST_SKIP() << "this build has no SDL backend";
  ::unsetenv("DISPLAY");
  ::unsetenv("WAYLAND_DISPLAY");
  ::unsetenv("SDL_VIDEODRIVER");
  ::unsetenv("SDL_VIDEO_DRIVER");  // SDL3's name for it
  WindowOptions o;
  o.backend = sdl;
  auto w = Window::create(o, nullptr);
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error().code, Errc::resource);
  EXPECT_NE(w.error().message.find("SDL could not start"), std::string::npos) << w.error().message;
  EXPECT_NE(w.error().message.find("xvfb-run"), std::string::npos) << "says what to do";
  auto again = Window::create(o, nullptr);
  EXPECT_FALSE(again.ok());
  // A GLFW window afterwards meets GLFW's error, not the one-backend rule: nothing was held.
  auto glfw = Window::create(WindowOptions{}, nullptr);
  ASSERT_FALSE(glfw.ok());
  EXPECT_NE(glfw.error().message.find("GLFW could not start"), std::string::npos) << glfw.error().message;
}

}  // namespace
}  // namespace cadence
