// Input that tests and scripts inject, the same on every backend: the surface hands it to
// ImGui's backend as a real event would go.
#include <imgui.h>

#include "window_impl.hpp"

namespace cadence {

void Window::inject_mouse_position(float x, float y) {
  impl_->pointer.position = ImVec2(x, y);
  impl_->on_input();
}

void Window::inject_mouse_button(int button, bool down) {
  if (button < 0 || button >= static_cast<int>(impl_->pointer.buttons.size())) return;
  impl_->pointer.buttons[static_cast<std::size_t>(button)] = down;
  impl_->on_input();
}

void Window::inject_scroll(double dx, double dy) {
  Impl& w = *impl_;
  w.in_context([&] { w.surface->scroll(dx, dy); });
  w.scrolled(dx, dy);
}

void Window::inject_char(unsigned int codepoint) {
  Impl& w = *impl_;
  w.in_context([&] { w.surface->character(codepoint); });
  w.on_input();
}

Status Window::inject_key(Key key, KeyAction action, KeyMods mods) {
  Impl& w = *impl_;
  Status s;
  w.in_context([&] { s = w.surface->key(key, action, mods); });
  if (!s) return s;
  w.on_input();
  return {};
}

void Window::inject_focus(bool focused) {
  Impl& w = *impl_;
  w.in_context([&] { w.surface->focus(focused); });
  w.on_input();
}

void Window::inject_minimized(bool minimized) { impl_->set_minimized(minimized); }

}  // namespace cadence
