// Window::Impl: what a window holds, shared by the window's source files.
#pragma once

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>

#include "cadence/frame_pacer.hpp"
#include "cadence/window.hpp"

namespace cadence {
namespace detail {

/// Makes the ImGui and OpenGL contexts current at its construction current again when it goes.
struct RestoreContexts {
  ImGuiContext* imgui = ImGui::GetCurrentContext();
  GLFWwindow* gl = glfwGetCurrentContext();
  RestoreContexts() = default;
  RestoreContexts(const RestoreContexts&) = delete;
  RestoreContexts& operator=(const RestoreContexts&) = delete;
  ~RestoreContexts() {
    if (ImGui::GetCurrentContext() != imgui) ImGui::SetCurrentContext(imgui);
    if (glfwGetCurrentContext() != gl) glfwMakeContextCurrent(gl);
  }
};

}  // namespace detail

struct Window::Impl {
  Impl(WindowOptions o, DrawFunction d) : options(std::move(o)), draw(std::move(d)) {}

  WindowOptions options;
  DrawFunction draw;
  Window* owner = nullptr;
  GLFWwindow* glfw = nullptr;
  ImGuiContext* imgui = nullptr;
  bool in_frame = false;      // frame() is running: a call from inside it does nothing
  std::shared_ptr<Window*> life = std::make_shared<Window*>(nullptr);  // what handles see
  bool closing = false;       // the window agreed to close
  bool minimized = false;     // iconified, as GLFW reports it
  bool shown = true;          // not hidden with set_visible(false)
  bool asking_close = false;  // on_close runs

  // Input injected by tests; it sticks until changed, as a real pointer would.
  std::optional<ImVec2> mouse_position;
  std::array<std::optional<bool>, 5> mouse_buttons;
  bool pointer_entered = false;  // ImGui's backend was told the injected pointer is over the window

  // When a frame is drawn, and the runtime (frame_pacer.hpp). Declared last, destroyed first:
  // its threads are stopped and its timers gone before anything else goes.
  std::unique_ptr<FramePacer> pacer;

  void make_current() const;
  void install_callbacks();
  void on_input() noexcept { pacer->on_input(); }
  /// A wheel or trackpad event (notches), from GLFW or a test: to ImGui, and to the momentum.
  void on_scroll(double dx, double dy);
  /// A typed character, from GLFW or a test.
  void on_char(unsigned int codepoint);
  /// Asks on_close (if any) and closes unless it says no; a failure if it throws.
  void ask_close();
  /// After `minimized` or `shown` changed: tells the pacer.
  void update_hidden() { pacer->set_hidden(minimized || !shown); }
  /// Clears the back buffer and renders `data` into it.
  void render(ImDrawData* data, int width, int height) const;
};

}  // namespace cadence
