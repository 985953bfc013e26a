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
// wait() sleeps in glfwWaitEventsTimeout until input, a worker's post (glfwPostEmptyEvent) or
// the next instant something is due, and says whether this iteration draws; when and why is
// FramePacer's rule (frame_pacer.hpp, "When a frame is drawn"). Content that changes in every
// frame (the examples' io.Framerate line) goes in a cadence::Volatile scope (volatile.hpp).
// docs/own_loop.md has the whole change for Dear ImGui's GLFW example, as a diff.
//
// Input: GlfwPacing chains its own GLFW callbacks (mouse, scroll, keys, characters, focus,
// cursor, resize, expose, iconify, file drop, content scale) after those already installed, ImGui's included, which still
// get every event first; an app that installs its callbacks later must chain to the previous
// ones, as ImGui's backend does. The callbacks stay installed after the GlfwPacing is gone and
// then only pass events on; a GlfwPacing made again for the window installs again over whatever
// was chained over them (ImGui's backend set up after the first), and each event still passes
// down the whole chain once. The app's callbacks may make and destroy GlfwPacings, for this
// window or others, while an event passes.
//
// Thread: every member function runs on the thread that created the GlfwPacing (GLFW's main
// thread). Workers reach it through its runtime's threads.
#pragma once

#include <memory>

#include "cadence/export.hpp"
#include "cadence/frame_pacer.hpp"
#include "cadence/result.hpp"

struct GLFWwindow;

namespace cadence {

class CADENCE_WINDOW_API GlfwPacing {
 public:
  /// Paces `window`'s frames for the current ImGui context. Call it once GLFW and the context
  /// exist (after ImGui_ImplGlfw_InitForOpenGL, or before it: the callbacks chain either way).
  /// `options.runtime.frame_interval` left at its default follows the primary monitor's refresh.
  /// Errors, each with a message that says what to do; nothing is installed:
  /// - invalid_argument: a null window; no current ImGui context; options out of range;
  /// - already_exists: `window` or the ImGui context is paced already.
  static Result<std::unique_ptr<GlfwPacing>> create(GLFWwindow* window, PacerOptions options = {});
  ~GlfwPacing();
  GlfwPacing(const GlfwPacing&) = delete;
  GlfwPacing& operator=(const GlfwPacing&) = delete;

  /// Instead of glfwPollEvents(): processes the pending events, sleeps (glfwWaitEventsTimeout)
  /// for as long as nothing is due, in this window or any other paced now (GLFW waits for all
  /// windows' events at once, so a loop that paces several sleeps for the soonest of them),
  /// then runs this window's due timers and workers' messages. True when
  /// this iteration draws a frame: build it with new_frame() and render(); false: go round the
  /// loop again (check glfwWindowShouldClose and wait again).
  bool wait();
  /// Instead of ImGui::NewFrame(), after the backends' NewFrame (FramePacer::new_frame).
  void new_frame();
  /// Instead of ImGui::Render(), before rendering ImGui::GetDrawData() (FramePacer::render).
  void render();

  /// The runtime, for the app's timers and workers. O(1).
  WindowRuntime& runtime() noexcept;
  /// The pacer, for its stats, its context() in a frame, tooltip(), request_redraw(). O(1).
  FramePacer& pacer() noexcept;
  /// The window it paces. O(1).
  GLFWwindow* window() const noexcept;

  struct Impl;

 private:
  explicit GlfwPacing(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace cadence
