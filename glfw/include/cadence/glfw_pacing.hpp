// cadence/glfw_pacing.hpp: cadence's pacing, timers and workers for an app's own GLFW + Dear
// ImGui main loop, in a few changed lines.
//
// An app that owns its loop (as Dear ImGui's example programs do) keeps it; three of its lines
// change and it draws only when something changed, sleeping in between:
//
//     #include <cadence/glfw_pacing.hpp>
//     #include <GLFW/glfw3.h>
//     #include <backends/imgui_impl_glfw.h>
//     #include <backends/imgui_impl_opengl3.h>
//     #include <imgui.h>
//     #include <cstdio>
//     GLFWwindow* window = glfwGetCurrentContext();  // the app's, with ImGui and its backends set up
//     auto paced = cadence::GlfwPacing::create(window);
//     if (!paced) { std::fprintf(stderr, "%s\n", paced.error().message.c_str()); return; }
//     cadence::GlfwPacing& pacing = **paced;
//     while (!glfwWindowShouldClose(window)) {
//       if (!pacing.wait()) continue;  // was glfwPollEvents()
//       ImGui_ImplOpenGL3_NewFrame();
//       ImGui_ImplGlfw_NewFrame();
//       pacing.new_frame();            // was ImGui::NewFrame()
//       ImGui::Text("Hello");
//       pacing.render();               // was ImGui::Render()
//       ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
//       glfwSwapBuffers(window);
//     }
//
// When and why a frame is drawn is FramePacer's rule (frame_pacer.hpp, "When a frame is
// drawn"). Content that changes in every frame (the examples' io.Framerate line) goes in a
// cadence::Volatile scope (volatile.hpp). docs/own_loop.md has the whole change for Dear ImGui's
// GLFW example, as a diff. Workers reach a GlfwPacing only through its runtime's threads.
//
// Input: GlfwPacing chains its own GLFW callbacks (mouse, scroll, keys, characters, focus,
// cursor, resize, expose, iconify, file drop, content scale) after those already installed,
// ImGui's included, which still get every event first; an app that installs its callbacks later
// must chain to the previous ones, as ImGui's backend does. The callbacks stay installed after
// the GlfwPacing is gone and then only pass events on; a GlfwPacing made again for the window
// installs again over whatever was chained over them (ImGui's backend set up after the first),
// and each event still passes down the whole chain once.
#pragma once

#include <memory>

#include "cadence/event_loop.hpp"
#include "cadence/export.hpp"
#include "cadence/frame_pacer.hpp"
#include "cadence/result.hpp"

struct GLFWwindow;

namespace cadence {

/// For every member: Thread: the one that created it (GLFW's main thread); elsewhere undefined (GLFW's rule).
/// Where: anywhere, inside GLFW callbacks included (while an event passes down the chain).
/// Errors: none; failures of the frames go to PacerOptions::on_failure (default: stderr).
/// Cost: O(1).
class CADENCE_WINDOW_API GlfwPacing {
 public:
  /// Paces `window`'s frames for the current ImGui context. Call it once GLFW and the context
  /// exist (after ImGui_ImplGlfw_InitForOpenGL, or before it: the callbacks chain either way).
  /// `options.runtime.frame_interval` left at its default follows the primary monitor's refresh.
  /// One GlfwPacing per window and per ImGui context. Each error's message says what to do;
  /// nothing is installed.
  /// Errors: invalid_argument (null window, no current ImGui context, options out of range); already_exists.
  /// Cost: a FramePacer (microseconds), plus O(windows ever paced) to find the window's chain.
  static Result<std::unique_ptr<GlfwPacing>> create(GLFWwindow* window, PacerOptions options = {});
  /// The pacer goes (its runtime's threads are stopped and joined); the callbacks pass events on.
  /// Where: not inside its runtime's own calls (a timer callback, a write-back): as ~FramePacer.
  /// Cost: ~FramePacer's.
  ~GlfwPacing();
  GlfwPacing(const GlfwPacing&) = delete;
  GlfwPacing& operator=(const GlfwPacing&) = delete;

  /// Instead of glfwPollEvents(): processes the pending events, sleeps (glfwWaitEventsTimeout)
  /// until input, a worker's post or the next instant something is due in any window paced now
  /// (GLFW waits for all their events at once), then runs this window's timers and workers'
  /// messages (FramePacer::begin). True: draw the frame with new_frame() and render(). False: go
  /// round the loop again (check glfwWindowShouldClose and wait again).
  /// Where: the app's loop, not a GLFW callback (GLFW's rule); while a frame is built: false.
  /// Cost: the wait, next_wake() of every paced window, and FramePacer::begin().
  bool wait();
  /// Instead of ImGui::NewFrame(), after the backends' NewFrame: FramePacer::new_frame(), tags and all.
  void new_frame();
  /// Instead of ImGui::Render(), before rendering ImGui::GetDrawData(): FramePacer::render(), tags and all.
  void render();

  /// The runtime, for the app's timers and workers.
  WindowRuntime& runtime() noexcept;
  /// The pacer, for its stats, its context() in a frame, tooltip(), request_redraw().
  FramePacer& pacer() noexcept;
  /// The window it paces.
  GLFWwindow* window() const noexcept;

  struct Impl;

 private:
  explicit GlfwPacing(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

/// Converts a sleep length for glfwWaitEventsTimeout: negative, zero or NaN becomes 0 (Debian's
/// GLFW aborts on a negative timeout), anything above kMaxWaitSeconds (infinity included)
/// becomes kMaxWaitSeconds.
/// Cost: O(1).
CADENCE_WINDOW_API double glfw_timeout_seconds(double seconds) noexcept;

}  // namespace cadence
