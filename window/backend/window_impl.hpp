// Window::Impl: what a window holds, shared by the window's source files.
#pragma once

#include <imgui.h>

#include <memory>

#include "cadence/frame_pacer.hpp"
#include "cadence/window.hpp"
#include "surface.hpp"

namespace cadence {
namespace detail {

/// Makes the ImGui context current at its construction current again when it goes, and the
/// OpenGL context too unless `gl_too` is false. `system`: the window system of the windows open
/// now (it is started).
struct RestoreContexts {
  explicit RestoreContexts(const WindowSystem& s, bool gl_too = true)
      : system(s), restore_gl(gl_too), gl(gl_too ? s.current_gl() : CurrentGl{}) {}
  RestoreContexts(const RestoreContexts&) = delete;
  RestoreContexts& operator=(const RestoreContexts&) = delete;
  ~RestoreContexts() {
    if (ImGui::GetCurrentContext() != imgui) ImGui::SetCurrentContext(imgui);
    if (restore_gl) system.make_current_gl(gl);
  }
  const WindowSystem& system;
  bool restore_gl;
  ImGuiContext* imgui = ImGui::GetCurrentContext();
  CurrentGl gl;
};

}  // namespace detail

struct Window::Impl {
  Impl(WindowOptions o, DrawFunction d) : options(std::move(o)), draw(std::move(d)) {}

  WindowOptions options;
  DrawFunction draw;
  Window* owner = nullptr;
  const detail::WindowSystem* system = nullptr;  // of options.backend, started for this window
  std::unique_ptr<detail::Surface> surface;       // the native window and its OpenGL context
  ImGuiContext* imgui = nullptr;
  bool in_frame = false;      // frame() is running: a call from inside it does nothing
  std::shared_ptr<Window*> life = std::make_shared<Window*>(nullptr);  // what handles see
  bool closing = false;       // the window agreed to close
  bool minimized = false;     // iconified, as the window system reports it
  bool occluded = false;      // covered whole by other windows, as the window system reports it (SDL3)
  bool shown = true;          // not hidden with set_visible(false)
  bool asking_close = false;  // on_close runs

  // Input injected by tests; it sticks until changed, as a real pointer would.
  detail::InjectedPointer pointer;

  // When a frame is drawn, and the runtime (frame_pacer.hpp). Declared last, destroyed first:
  // its threads are stopped and its timers gone before anything else goes.
  std::unique_ptr<FramePacer> pacer;

  void make_current() const;
  void on_input() noexcept {
    if (pacer) pacer->on_input();  // an event before create() made the pacer changes nothing
  }
  /// Runs `f` with this window's ImGui context current, then restores the previous one: events
  /// of one window must never reach another window's ImGui.
  template <class F>
  void in_context(F&& f) {
    ImGuiContext* previous = ImGui::GetCurrentContext();
    ImGui::SetCurrentContext(imgui);
    f();
    ImGui::SetCurrentContext(previous);
  }
  /// A wheel or trackpad movement (notches) that ImGui has: to the scroll momentum.
  void scrolled(double dx, double dy) {
    if (pacer) pacer->on_scroll(dx, dy);
  }
  /// The window being minimized or restored, as the window system reports it.
  void set_minimized(bool now) {
    minimized = now;
    update_hidden();
  }
  /// The window being covered whole by others or seen again, as the window system reports it:
  /// an occluded window follows the hidden-window policy, as a minimized one does.
  void set_occluded(bool now) {
    occluded = now;
    update_hidden();
  }
  /// Asks on_close (if any) and closes unless it says no; a failure if it throws.
  void ask_close();
  /// After `minimized`, `occluded` or `shown` changed: tells the pacer.
  void update_hidden() {
    if (pacer) pacer->set_hidden(minimized || occluded || !shown);
  }
  /// Clears the back buffer and renders `data` into it.
  void render(ImDrawData* data, int width, int height) const;
};

}  // namespace cadence
