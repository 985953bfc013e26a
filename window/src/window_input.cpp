// Input: GLFW's callbacks, routed to the right window's ImGui context, and input that tests
// inject.
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <imgui.h>

#include "imgui_input.hpp"
#include "window_impl.hpp"

namespace cadence {
namespace {

Window::Impl& impl_of(GLFWwindow* w) { return *static_cast<Window::Impl*>(glfwGetWindowUserPointer(w)); }

// Runs `f` with this window's ImGui context current, then restores the previous one: events of
// one window must never reach another window's ImGui.
template <class F>
void in_context(Window::Impl& w, F&& f) {
  ImGuiContext* previous = ImGui::GetCurrentContext();
  ImGui::SetCurrentContext(w.imgui);
  f();
  ImGui::SetCurrentContext(previous);
}

}  // namespace

void Window::Impl::install_callbacks() {
  glfwSetWindowUserPointer(glfw, this);
  glfwSetCursorPosCallback(glfw, [](GLFWwindow* gw, double x, double y) {
    Impl& w = impl_of(gw);
    in_context(w, [&] { detail::pointer_moved(gw, x, y); });
    w.on_input();
  });
  glfwSetMouseButtonCallback(glfw, [](GLFWwindow* gw, int button, int action, int mods) {
    Impl& w = impl_of(gw);
    in_context(w, [&] { ImGui_ImplGlfw_MouseButtonCallback(gw, button, action, mods); });
    w.on_input();
  });
  glfwSetScrollCallback(glfw, [](GLFWwindow* gw, double dx, double dy) { impl_of(gw).on_scroll(dx, dy); });
  glfwSetKeyCallback(glfw, [](GLFWwindow* gw, int key, int scancode, int action, int mods) {
    Impl& w = impl_of(gw);
    in_context(w, [&] { ImGui_ImplGlfw_KeyCallback(gw, key, scancode, action, mods); });
    w.on_input();
  });
  glfwSetCharCallback(glfw, [](GLFWwindow* gw, unsigned int c) { impl_of(gw).on_char(c); });
  glfwSetWindowFocusCallback(glfw, [](GLFWwindow* gw, int focused) {
    Impl& w = impl_of(gw);
    in_context(w, [&] { ImGui_ImplGlfw_WindowFocusCallback(gw, focused); });
    w.on_input();
  });
  glfwSetCursorEnterCallback(glfw, [](GLFWwindow* gw, int entered) {
    Impl& w = impl_of(gw);
    in_context(w, [&] { ImGui_ImplGlfw_CursorEnterCallback(gw, entered); });
    w.on_input();
  });
  glfwSetFramebufferSizeCallback(glfw, [](GLFWwindow* gw, int, int) { impl_of(gw).on_input(); });
  glfwSetWindowRefreshCallback(glfw, [](GLFWwindow* gw) { impl_of(gw).on_input(); });
  glfwSetWindowIconifyCallback(glfw, [](GLFWwindow* gw, int iconified) {
    Impl& w = impl_of(gw);
    w.minimized = iconified == GLFW_TRUE;
    w.update_hidden();
  });
  // GLFW has set its close flag already: the window closes only if on_close agrees.
  glfwSetWindowCloseCallback(glfw, [](GLFWwindow* gw) {
    glfwSetWindowShouldClose(gw, GLFW_FALSE);
    impl_of(gw).ask_close();
  });
}

void Window::inject_mouse_position(float x, float y) {
  impl_->mouse_position = ImVec2(x, y);
  impl_->on_input();
}

void Window::inject_mouse_button(int button, bool down) {
  if (button < 0 || button >= static_cast<int>(impl_->mouse_buttons.size())) return;
  impl_->mouse_buttons[static_cast<std::size_t>(button)] = down;
  impl_->on_input();
}

void Window::Impl::on_scroll(double dx, double dy) {
  in_context(*this, [&] { ImGui_ImplGlfw_ScrollCallback(glfw, dx, dy); });
  pacer->on_scroll(dx, dy);
}

void Window::Impl::on_char(unsigned int codepoint) {
  in_context(*this, [&] { ImGui_ImplGlfw_CharCallback(glfw, codepoint); });
  on_input();
}

void Window::inject_scroll(double dx, double dy) { impl_->on_scroll(dx, dy); }
void Window::inject_char(unsigned int codepoint) { impl_->on_char(codepoint); }

Status Window::inject_key(int key, int action, int mods) {
  Impl& w = *impl_;
  Status s;
  in_context(w, [&] { s = detail::key_event(w.glfw, key, action, mods); });
  if (!s) return s;
  w.on_input();
  return {};
}

void Window::inject_focus(bool focused) {
  Impl& w = *impl_;
  in_context(w, [&] { ImGui_ImplGlfw_WindowFocusCallback(w.glfw, focused ? GLFW_TRUE : GLFW_FALSE); });
  w.on_input();
}

void Window::inject_minimized(bool minimized) {
  impl_->minimized = minimized;
  impl_->update_hidden();
}

}  // namespace cadence
