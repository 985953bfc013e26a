// cadence/sdl_pacing.hpp: cadence's pacing, timers and workers for an app's own SDL2 + Dear
// ImGui main loop, in a few changed lines.
//
// The app keeps its loop and its event handling; one line after its SDL_PollEvent loop, and two
// replacing ImGui's, make it draw only when something changed and sleep in between:
//
//     #include <cadence/sdl_pacing.hpp>
//     #include <SDL.h>
//     #include <backends/imgui_impl_opengl3.h>
//     #include <backends/imgui_impl_sdl2.h>   // imgui_impl_sdl.h before Dear ImGui 1.89.3
//     #include <imgui.h>
//     #include <cstdio>
//     SDL_Window* window = SDL_GL_GetCurrentWindow();  // the app's, with ImGui and its backends set up
//     auto paced = cadence::SdlPacing::create(window);
//     if (!paced) { std::fprintf(stderr, "%s\n", paced.error().message.c_str()); return; }
//     cadence::SdlPacing& pacing = **paced;
//     for (bool done = false; !done;) {
//       SDL_Event event;
//       while (SDL_PollEvent(&event)) {
//         ImGui_ImplSDL2_ProcessEvent(&event);
//         done = done || event.type == SDL_QUIT;
//       }
//       if (!pacing.wait()) continue;  // sleeps until input, a timer or a worker; draw now?
//       ImGui_ImplOpenGL3_NewFrame();
//       ImGui_ImplSDL2_NewFrame();
//       pacing.new_frame();            // was ImGui::NewFrame()
//       ImGui::Text("Hello");
//       pacing.render();               // was ImGui::Render()
//       ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
//       SDL_GL_SwapWindow(window);
//     }
//
// When and why a frame is drawn is FramePacer's rule (frame_pacer.hpp, "When a frame is
// drawn"); content that changes in every frame (the examples' io.Framerate line) goes in a
// cadence::Volatile scope (volatile.hpp). docs/own_loop.md has the whole change for Dear ImGui's
// SDL2 example, as a diff.
//
// Events: an SDL event watch (SDL_AddEventWatch) sees each event as SDL queues it and tells the
// pacer (input, wheel motion for scroll momentum, minimized and restored); an event that names
// another window is that window's alone. The app's own event handling is untouched. Workers (its
// runtime's threads) wake the wait with an event of a type cadence registers for itself once
// per process (SDL_RegisterEvents; never SDL_USEREVENT, which apps push without registering
// it), marked so that wait() takes out those alone: an event the app pushes, of any type,
// reaches its loop. The app's loop may see cadence's events and ignores them, as
// ImGui_ImplSDL2_ProcessEvent does.
#pragma once

#include <memory>

#include "cadence/export.hpp"
#include "cadence/frame_pacer.hpp"
#include "cadence/result.hpp"

struct SDL_Window;

namespace cadence {

/// For every member: Thread: its creator's, which pumps SDL's events; elsewhere undefined (SDL's rule).
/// Where: anywhere.
/// Errors: none; failures of the frames go to PacerOptions::on_failure (default: stderr).
/// Cost: O(1).
class CADENCE_SDL_API SdlPacing {
 public:
  /// Paces `window`'s frames for the current ImGui context. Call it once SDL's video subsystem
  /// and the context exist. It decides when to draw and never renders, so the window may draw
  /// with OpenGL, SDL_Renderer or Vulkan alike (it needs no OpenGL context).
  /// `options.runtime.frame_interval` left at its default follows the window's display refresh.
  /// One SdlPacing per ImGui context; resource means SDL has no user event type left to wake the
  /// loop with. Each error's message says what to do; nothing is installed.
  /// Errors: invalid_argument (null window, no current ImGui context, bad options); already_exists; resource.
  /// Cost: a FramePacer (microseconds) and an event watch.
  static Result<std::unique_ptr<SdlPacing>> create(SDL_Window* window, PacerOptions options = {});
  /// Removes the event watch; the runtime's threads are stopped and joined.
  /// Where: not inside its runtime's own calls (a timer callback, a write-back): as ~FramePacer.
  /// Cost: ~FramePacer's.
  ~SdlPacing();
  SdlPacing(const SdlPacing&) = delete;
  SdlPacing& operator=(const SdlPacing&) = delete;

  /// After the app's SDL_PollEvent loop: sleeps (SDL_WaitEventTimeout) until an event, a worker's
  /// post or the next instant something is due in any window paced now (SDL waits for all their
  /// events at once), then runs this window's timers and workers' messages (FramePacer::begin).
  /// True: draw the frame with new_frame() and render(). False: go round the loop again (an event
  /// arrived for the app's loop to handle first: the next wait() draws for one of this window's
  /// own; or nothing to draw).
  /// Where: the app's loop, after its SDL_PollEvent loop; while a frame is built: false.
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
  SDL_Window* window() const noexcept;
  /// The SDL event type cadence wakes the loop with: registered for it alone, once per process,
  /// so every SdlPacing has the same one.
  unsigned wake_event_type() const noexcept;

  struct Impl;

 private:
  explicit SdlPacing(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace cadence
