// When GLFW starts but the window's OpenGL 3.0 context cannot be made (ctest runs this under
// Xvfb with Mesa limited to OpenGL 2.1), opening a window is a clear error, not a crash, and it
// leaves the caller's contexts as they were.
#include <GLFW/glfw3.h>
#include <gtest/gtest.h>
#include <imgui.h>

#include <cstdlib>
#include <string>

#include "cadence/window.hpp"

namespace cadence {
namespace {

TEST(NoOpenGl3Test, OpeningAWindowFailsWithGlfwsReasonAndNoCrash) {
  ASSERT_STREQ(std::getenv("MESA_GL_VERSION_OVERRIDE"), "2.1") << "run through ctest";
  ImGuiContext* mine = ImGui::CreateContext();  // the caller's own ImGui context stays current
  for (int attempt = 0; attempt < 2; ++attempt) {  // GLFW starts and stops cleanly each time
    WindowOptions o;
    o.visible = false;
    auto w = Window::create(o, nullptr);
    ASSERT_FALSE(w.ok());
    EXPECT_EQ(w.error().code, Errc::resource);
    EXPECT_NE(w.error().message.find("OpenGL 3.0 context"), std::string::npos) << w.error().message;
    EXPECT_NE(w.error().message.find("GLFW error"), std::string::npos) << "GLFW's reason: " << w.error().message;
    EXPECT_EQ(ImGui::GetCurrentContext(), mine);
  }
  ImGui::DestroyContext(mine);
}

TEST(NoOpenGl3Test, AnSdlWindowFailsWithSdlsReasonAndNoCrash) {
  const WindowBackend sdl = backend_available(WindowBackend::sdl3) ? WindowBackend::sdl3 : WindowBackend::sdl2;
  if (!backend_available(sdl)) GTEST_SKIP() << "this build has no SDL backend";
  ASSERT_STREQ(std::getenv("MESA_GL_VERSION_OVERRIDE"), "2.1") << "run through ctest";
  ImGuiContext* mine = ImGui::CreateContext();
  for (int attempt = 0; attempt < 2; ++attempt) {  // SDL's video starts and stops cleanly each time
    WindowOptions o;
    o.backend = sdl;
    o.visible = false;
    auto w = Window::create(o, nullptr);
    ASSERT_FALSE(w.ok());
    EXPECT_EQ(w.error().code, Errc::resource);
    EXPECT_NE(w.error().message.find("SDL window with an OpenGL 3.0 context: SDL_GL_CreateContext failed: "),
              std::string::npos)
        << w.error().message;
    EXPECT_EQ(ImGui::GetCurrentContext(), mine);
  }
  // Nothing held: a GLFW window meets its own error next, not the one-backend rule.
  WindowOptions hidden;
  hidden.visible = false;
  auto glfw = Window::create(hidden, nullptr);
  ASSERT_FALSE(glfw.ok());
  EXPECT_NE(glfw.error().message.find("GLFW error"), std::string::npos) << glfw.error().message;
  ImGui::DestroyContext(mine);
}

}  // namespace
}  // namespace cadence
