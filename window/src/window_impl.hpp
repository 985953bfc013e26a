// Window::Impl: what a window holds, shared by the window's source files.
#pragma once

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>

#include "cadence/window.hpp"
#include "awake_watch.hpp"
#include "draw_hash.hpp"
#include "system_timers.hpp"

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

  // When a frame is drawn (window.hpp, "When a window draws"): at once for input and for
  // redraw requests, at the frame interval while ImGui settles, at ImGui's own instants (the
  // kImGuiTimingTimer), and for the caret's toggles.
  int frames_owed = 1;  // frames to draw at once: start-up, redraw requests (and 2 after input without settling)
  bool input = false;   // input arrived since the last frame(), or waits in ImGui's queue
  bool in_frame = false;  // frame() is running: a call from inside it does nothing
  std::optional<Instant> settle_at;    // the next frame to see whether ImGui has come to rest
  bool timing_due = false;   // the kImGuiTimingTimer ran since the last drawn frame
  int idle_repeats = 0;      // frames drawn for a repeat instant in a row that changed nothing
  int needy_streak = 0;      // identical frames in a row drawn because ImGui said it needs one
  std::optional<std::uint64_t> last_hash;  // of the last drawn frame's draw data
  std::vector<detail::ListHash> list_hashes;  // per draw list, of the last drawn frame
  detail::AwakeWatch awake;
  std::optional<Instant> last_drawn;
  Instant frame_start;  // of the frame being drawn
  std::shared_ptr<Window*> life = std::make_shared<Window*>(nullptr);  // what handles see
  bool closing = false;       // the window agreed to close
  bool minimized = false;     // iconified, as GLFW reports it
  bool shown = true;          // not hidden with set_visible(false)
  bool hidden = false;        // minimized or not shown: draws nothing (the runtime knows)
  bool hidden_pending = false;  // changed from inside the runtime's frame: applied right after it
  bool asking_close = false;  // on_close runs
  bool redraw_all_asked = false;   // Update::redraw_all came: the EventLoop redraws every window
  bool failure_owed = false;       // a failure owes the next frame
  bool drawn_for_failure = false;  // the frame being drawn was owed to a failure

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
  /// Passes a frame's failures to on_failure and owes the frames its redraw request and its
  /// failures ask for. `from_draw`: the report of the draw function's own changes.
  void report(const ApplyReport& report, bool from_draw);
  /// Counts a failure and passes it to on_failure (default: stderr).
  void report_failure(const Failure& f);
  /// Asks on_close (if any) and closes unless it says no; a failure if it throws.
  void ask_close();
  /// After `minimized` or `shown` changed: tells the runtime, and owes a frame when shown again.
  void update_hidden();
  /// Builds, renders and presents one ImGui frame. `settle`: follow it with the settle check
  /// (false for a frame drawn only for the caret's toggle, which changes nothing else);
  /// `settle_only`: nothing but the settle check asked for it (AwakeWatch).
  void draw_frame(bool settle, bool for_input, bool settle_only = false);
  /// Tells on_kept_awake (default: stderr) what keeps the window drawing.
  void report_kept_awake(const AwakeCause& cause);
  /// After a drawn frame: when the next is due, from what it showed and what ImGui waits for.
  void plan_next_frames(bool changed, bool settle, bool drawn_for_input);
  /// Clears the back buffer and renders `data` into it.
  void render(ImDrawData* data, int width, int height) const;
};

}  // namespace cadence
