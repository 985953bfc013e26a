// cadence/sdl3_pacing.hpp: cadence's pacing, timers and workers for an app's own SDL3 + Dear
// ImGui main loop, in a few changed lines: SdlPacing's counterpart for SDL3 (sdl_pacing.hpp).
//
// An app with its own loop, as Dear ImGui's example_sdl3_opengl3 has, changes three lines:
//
//     #include <cadence/sdl3_pacing.hpp>
//     #include <SDL3/SDL.h>
//     #include <backends/imgui_impl_opengl3.h>
//     #include <backends/imgui_impl_sdl3.h>
//     #include <imgui.h>
//     #include <cstdio>
//     SDL_Window* window = SDL_GL_GetCurrentWindow();  // the app's, with ImGui and its backends set up
//     auto paced = cadence::Sdl3Pacing::create(window);
//     if (!paced) { std::fprintf(stderr, "%s\n", paced.error().message.c_str()); return; }
//     cadence::Sdl3Pacing& pacing = **paced;
//     for (bool done = false; !done;) {
//       SDL_Event event;
//       while (SDL_PollEvent(&event)) {
//         ImGui_ImplSDL3_ProcessEvent(&event);
//         done = done || event.type == SDL_EVENT_QUIT;
//       }
//       if (!pacing.wait()) continue;  // sleeps until input, a timer or a worker; draw now?
//       ImGui_ImplOpenGL3_NewFrame();
//       ImGui_ImplSDL3_NewFrame();
//       pacing.new_frame();            // was ImGui::NewFrame()
//       ImGui::Text("Hello");
//       pacing.render();               // was ImGui::Render()
//       ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
//       SDL_GL_SwapWindow(window);
//     }
//
// An app on SDL3's main callbacks (SDL_MAIN_USE_CALLBACKS: SDL_AppIterate, SDL_AppEvent) lets
// SDL wait instead: with the hint SDL_HINT_MAIN_CALLBACK_RATE set to "waitevent", SDL calls
// SDL_AppIterate only after an event, and poll() in SDL_AppIterate (where wait() would go) sets
// an SDL timer that queues cadence's wake-up event at the next instant something is due:
//
//     SDL_SetHint(SDL_HINT_MAIN_CALLBACK_RATE, "waitevent");  // in SDL_AppInit, before its window
//     ...
//     SDL_AppResult SDL_AppIterate(void* appstate) {
//       cadence::Sdl3Pacing& pacing = *static_cast<cadence::Sdl3Pacing*>(appstate);  // the app's own state
//       if (!pacing.poll()) return SDL_APP_CONTINUE;  // nothing to draw: SDL waits for the next event
//       ImGui_ImplOpenGL3_NewFrame();
//       ImGui_ImplSDL3_NewFrame();
//       pacing.new_frame();
//       ImGui::Text("Hello");
//       pacing.render();
//       ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
//       SDL_GL_SwapWindow(SDL_GL_GetCurrentWindow());
//       return SDL_APP_CONTINUE;
//     }
//
// When and why a frame is drawn is FramePacer's rule (frame_pacer.hpp, "When a frame is
// drawn"). Events: an SDL event watch (SDL_AddEventWatch) sees each event as SDL queues it and
// tells the pacer: input; wheel motion, for scroll momentum; minimized, hidden or covered whole
// by other windows (occluded), and back. An event that names another window is that window's
// alone. Of a gamepad's events, those ImGui reads are input: a button, a trigger, a stick's
// motion that is not all inside ImGui's dead zone (8000 of 32767); a stick drifting inside it,
// raw joystick events, touchpads and sensors are not: an app that shows what it reads from them
// itself asks for its frame (pacer().request_redraw()).
//
// Gamepads: while one is open (ImGui's SDL3 backend opens the first one when the app started
// SDL_INIT_GAMEPAD, as ImGui's example does), SDL's wait polls it every millisecond instead of
// sleeping. That is CPU, not wake-ups of cadence's (measured: 3-5 % of a core at rest against
// 0.03 % without; docs/own_loop.md); an app that reads no gamepad leaves SDL_INIT_GAMEPAD out. Workers (its runtime's threads) wake the wait with an event of a type cadence registers
// for itself once per process (never SDL_EVENT_USER, which apps push without registering it),
// marked so that wait() takes out those alone; the app's loop, or SDL_AppEvent, may see them and
// ignores them, as ImGui_ImplSDL3_ProcessEvent does.
//
// SDL2 and SDL3 cannot share a process (they define functions of the same names): an app links
// cadence::sdl3 or cadence::sdl, never both.
#pragma once

#include <memory>

#include "cadence/export.hpp"
#include "cadence/frame_pacer.hpp"
#include "cadence/result.hpp"

struct SDL_Window;

namespace cadence {

/// For every member: Thread: the main thread, which pumps SDL's events (SDL3 pumps them there
/// alone); elsewhere undefined.
/// Where: anywhere.
/// Errors: none; failures of the frames go to PacerOptions::on_failure (default: stderr).
/// Cost: O(1).
class CADENCE_SDL3_API Sdl3Pacing {
 public:
  /// Paces `window`'s frames for the current ImGui context. Call it once SDL's video subsystem
  /// and the context exist. It decides when to draw and never renders, so the window may draw
  /// with OpenGL, SDL_Renderer, SDL_GPU or Vulkan alike. `options.runtime.frame_interval` left
  /// at its default follows the window's display refresh. One Sdl3Pacing per ImGui context;
  /// resource means SDL has no user event type left to wake the loop with, or refused the event
  /// watch. Each error's message says what to do; nothing is installed.
  /// Errors: invalid_argument (null window, no current ImGui context, bad options); already_exists; resource.
  /// Cost: a FramePacer (microseconds) and an event watch.
  static Result<std::unique_ptr<Sdl3Pacing>> create(SDL_Window* window, PacerOptions options = {});
  /// Removes the event watch and a wake-up timer poll() set; the runtime's threads are stopped
  /// and joined.
  /// Where: not inside its runtime's own calls (a timer callback, a write-back): as ~FramePacer.
  /// Cost: ~FramePacer's.
  ~Sdl3Pacing();
  Sdl3Pacing(const Sdl3Pacing&) = delete;
  Sdl3Pacing& operator=(const Sdl3Pacing&) = delete;

  /// After the app's SDL_PollEvent loop: sleeps (SDL_WaitEventTimeout) until an event, a worker's
  /// post or the next instant something is due in any window paced now (SDL waits for all their
  /// events at once), then runs this window's timers and workers' messages (FramePacer::begin).
  /// True: draw the frame with new_frame() and render(). False: go round the loop again (an event
  /// arrived for the app's loop to handle first: the next wait() draws for one of this window's
  /// own; or nothing to draw).
  /// Where: the app's loop, after its SDL_PollEvent loop; while a frame is built: false.
  /// Cost: the wait, next_wake() of every paced window, and FramePacer::begin().
  bool wait();
  /// For SDL's main callbacks, in SDL_AppIterate: never sleeps. Runs this window's timers and
  /// workers' messages (FramePacer::begin) and keeps one SDL timer (SDL_AddTimerNS) that queues
  /// cadence's wake-up event at the next instant something is due in this window, so that SDL,
  /// waiting for an event ("waitevent"), calls SDL_AppIterate then: set here when there is
  /// nothing to draw, and by render() once a frame is drawn (until then one frame interval on,
  /// so that a frame the app skips, which stays owed, still gets its iteration). Nothing
  /// scheduled: no timer. The timer runs in real time (SDL's clock), whatever the pacer's time
  /// source. Should SDL refuse a timer, the wake-up is queued at once instead (SDL_AppIterate
  /// then runs again at once: a spin, never a stall). True: draw the frame.
  /// Where: SDL_AppIterate (or any loop that waits elsewhere); while a frame is built: false.
  /// Cost: FramePacer::begin(), next_wake(), and SDL_RemoveTimer/SDL_AddTimerNS when the
  /// instant moved by more than a millisecond.
  bool poll();
  /// Instead of ImGui::NewFrame(), after the backends' NewFrame: FramePacer::new_frame(), tags and all.
  void new_frame();
  /// Instead of ImGui::Render(), before rendering ImGui::GetDrawData(): FramePacer::render(), tags
  /// and all; once poll() has been called, it also sets poll()'s timer for the next instant.
  void render();

  /// The runtime, for the app's timers and workers.
  WindowRuntime& runtime() noexcept;
  /// The pacer, for its stats, its context() in a frame, tooltip(), request_redraw().
  FramePacer& pacer() noexcept;
  /// The window it paces.
  SDL_Window* window() const noexcept;
  /// The SDL event type cadence wakes the loop with: registered for it alone, once per process,
  /// so every Sdl3Pacing has the same one.
  unsigned wake_event_type() const noexcept;

  struct Impl;

 private:
  explicit Sdl3Pacing(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace cadence
