// Helpers for window tests: they open real windows (under Xvfb in CI) and read back what was
// rendered. The suite is shared by the backends: CTest runs it once on GLFW and once on the
// build's SDL (CADENCE_TEST_BACKEND=sdl2 or sdl3), and every window a test opens with
// test_options() uses it.
#pragma once

#include <GLFW/glfw3.h>
#include <gtest/gtest.h>
#include <imgui.h>
#if CADENCE_TEST_SDL2
#include <SDL.h>
#elif CADENCE_TEST_SDL3
#include <SDL3/SDL.h>
#endif

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "cadence/event_loop.hpp"
#include "cadence/manual_clock.hpp"
#include "cadence/window.hpp"

namespace cadence::testing {

using namespace std::chrono_literals;

/// The backend this run of the suite tests: CADENCE_TEST_BACKEND ("glfw", the default, "sdl2"
/// or "sdl3"); any other value stops the run with a message rather than test the wrong thing.
inline WindowBackend test_backend() {
  static const WindowBackend backend = [] {
    const char* name = std::getenv("CADENCE_TEST_BACKEND");
    WindowBackend b = WindowBackend::glfw;
    if (name != nullptr && std::strcmp(name, "sdl2") == 0) {
      b = WindowBackend::sdl2;
    } else if (name != nullptr && std::strcmp(name, "sdl3") == 0) {
      b = WindowBackend::sdl3;
    } else if (name != nullptr && std::strcmp(name, "glfw") != 0) {
      std::fprintf(stderr, "CADENCE_TEST_BACKEND=%s is not glfw, sdl2 or sdl3\n", name);
      std::abort();
    }
    // CTest fails an SDL run when this says glfw: the suite must not pass on the wrong backend.
    std::printf("cadence test: backend under test: %s\n", to_string(b));
    return b;
  }();
  return backend;
}

/// Options for a small test window driven by `clock` (or the system clock when null), on the
/// backend under test.
inline WindowOptions test_options(ManualClock* clock, int width = 480, int height = 320) {
  WindowOptions o;
  o.backend = test_backend();
  o.title = "cadence test";
  o.width = width;
  o.height = height;
  o.vsync = false;
  if (clock != nullptr) o.time_source = clock->source();
  o.runtime.frame_interval = 16ms;
  return o;
}

/// True while the window system shows the window (not hidden, whatever the window manager does).
inline bool shown_by_window_system(Window& w) {
#if CADENCE_TEST_SDL2
  if (w.sdl_window() != nullptr) return (SDL_GetWindowFlags(w.sdl_window()) & SDL_WINDOW_SHOWN) != 0;
#elif CADENCE_TEST_SDL3
  if (w.sdl_window() != nullptr) return (SDL_GetWindowFlags(w.sdl_window()) & SDL_WINDOW_HIDDEN) == 0;
#endif
  return glfwGetWindowAttrib(w.glfw_window(), GLFW_VISIBLE) == GLFW_TRUE;
}

/// Opens a window or fails the test with the reason.
inline std::unique_ptr<Window> open_window(WindowOptions options, Window::DrawFunction draw) {
  auto w = Window::create(std::move(options), std::move(draw));
  EXPECT_TRUE(w.ok()) << (w.ok() ? "" : w.error().message);
  if (!w.ok()) return nullptr;
  return std::move(*w);
}

/// One full-size ImGui window without decorations, so that layout is predictable.
inline void begin_full(const char* name, ImGuiWindowFlags extra = 0) {
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(ImGui::GetIO().DisplaySize);
  ImGui::Begin(name, nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoBackground | extra);
}

/// Counts pixels in a rectangle brighter than `level` on every channel.
inline int bright_pixels(const std::vector<std::uint8_t>& rgba, int width, int x0, int y0, int x1, int y1,
                         int level = 180) {
  int n = 0;
  for (int y = y0; y < y1; ++y) {
    for (int x = x0; x < x1; ++x) {
      const std::size_t i = (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)) * 4;
      if (rgba[i] > level && rgba[i + 1] > level && rgba[i + 2] > level) ++n;
    }
  }
  return n;
}

/// Runs the frames due within `interval` (the test windows' frame interval), as a loop would,
/// the clock jumping to each: start-up, the frames after input and the settle check; stops when
/// the window waits longer (the caret's next toggle, a timer). Returns the time that passed.
inline Duration settle(Window& w, ManualClock& clock, Duration interval = 16ms) {
  Duration passed{0};
  for (int frames = 0;; ++frames) {
    const auto next = w.next_wake();
    if (!next || *next > interval) break;
    if (frames == 1000) {
      ADD_FAILURE() << "the window did not settle in 1000 frames";
      break;
    }
    (void)clock.advance(*next);
    passed += *next;
    w.frame();
  }
  return passed;
}

/// Runs the frames the window asks for during `duration`, the clock jumping to each, and
/// leaves the clock at the last frame run. Returns the frames run.
inline int run_for(Window& w, ManualClock& clock, Duration duration) {
  Duration passed{0};
  int frames = 0;
  for (;;) {
    const auto next = w.next_wake();
    if (!next || passed + *next > duration) break;
    (void)clock.advance(*next);
    passed += *next;
    w.frame();
    ++frames;
  }
  return frames;
}

/// Runs the loop in real time until five iterations in a row draw nothing in `w` (2 s at most):
/// on Wayland the compositor's events for a new window (its configure, its output) may come
/// after the start-up frames.
inline void until_events_stop(EventLoop& loop, Window& w) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  for (int quiet = 0; quiet < 5 && std::chrono::steady_clock::now() < until;) {
    const std::uint64_t seen = w.stats().frames_drawn;
    loop.run_once(std::chrono::milliseconds(20));
    quiet = w.stats().frames_drawn == seen ? quiet + 1 : 0;
  }
}

/// Runs frames as a loop would, with the manual clock jumping to each wake-up, until the window
/// has nothing scheduled or `max_frames` ran. Returns the frames run.
inline int run_until_idle(Window& w, ManualClock& clock, int max_frames = 1000) {
  int frames = 0;
  while (frames < max_frames) {
    auto next = w.next_wake();
    if (!next) break;
    if (*next > Duration::zero()) (void)clock.advance(*next);
    w.frame();
    ++frames;
  }
  return frames;
}

}  // namespace cadence::testing
