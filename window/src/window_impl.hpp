// Window::Impl: what a window holds, shared by the window's source files.
#pragma once

#include <imgui.h>

#include <array>
#include <memory>
#include <optional>

#include "cadence/window.hpp"
#include "system_timers.hpp"

namespace cadence {

struct Window::Impl {
  Impl(WindowOptions o, DrawFunction d)
      : options(std::move(o)),
        draw(std::move(d)),
        caret(options.caret_blink, stats.caret_lateness_ms),
        momentum(options.momentum_decay),
        tooltips(options.tooltip_delay) {}

  WindowOptions options;
  DrawFunction draw;
  Window* owner = nullptr;
  GLFWwindow* glfw = nullptr;
  ImGuiContext* imgui = nullptr;
  WindowStats stats;

  // Frames ImGui still needs: 2 at start-up (a new ImGui window draws nothing on its first
  // frame) and after input (hover and release states settle a frame later).
  int frames_owed = 2;
  bool input = false;  // input arrived since the last frame()
  bool typed = false;  // a character or key arrived since the last drawn frame
  std::optional<Instant> last_drawn;
  Instant frame_start;  // of the frame being drawn

  // Input injected by tests; it sticks until changed, as a real pointer would.
  std::optional<ImVec2> mouse_position;
  std::array<std::optional<bool>, 5> mouse_buttons;
  bool pointer_entered = false;  // ImGui's backend was told the injected pointer is over the window

  detail::CaretBlink caret;
  detail::ScrollMomentum momentum;
  detail::DragAutoscroll autoscroll;
  detail::TooltipDelay tooltips;

  // Declared last, destroyed first: its threads are stopped and its timers (whose callbacks
  // point at the members above) are gone before anything else goes.
  std::unique_ptr<WindowRuntime> runtime;

  void make_current() const;
  void install_callbacks();
  void on_input() noexcept { input = true; }
  /// A wheel or trackpad event (notches), from GLFW or a test: to ImGui, and to the momentum.
  void on_scroll(double dx, double dy);
  /// A typed character, from GLFW or a test.
  void on_char(unsigned int codepoint);
  void report(const ApplyReport& report);
  void draw_frame();
  /// Clears the back buffer and renders `data` into it.
  void render(ImDrawData* data, int width, int height) const;
};

}  // namespace cadence
