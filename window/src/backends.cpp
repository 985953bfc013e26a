// The window systems this build has (each backend's folder defines CADENCE_WINDOW_<NAME> when it
// adds its surface: window/CMakeLists.txt), and the rule that the windows open at one time use
// one. Adding a backend: its folder, a WindowBackend value, and a line in each list below.
#include <array>
#include <cstddef>
#include <string>

#include "surface.hpp"

namespace cadence {
namespace detail {

#ifdef CADENCE_WINDOW_GLFW
extern const WindowSystem kGlfwSystem;  // glfw/src/glfw_surface.cpp
#endif
#ifdef CADENCE_WINDOW_SDL2
extern const WindowSystem kSdl2System;  // sdl2/src/sdl2_surface.cpp
#endif
#ifdef CADENCE_WINDOW_SDL3
extern const WindowSystem kSdl3System;  // sdl3/src/sdl3_surface.cpp
#endif

namespace {

struct Backend {
  WindowBackend backend;
  const char* name;
  const WindowSystem* system;  // nullptr: not in this build
  const char* missing;         // how to get it, when not
};

// Every WindowBackend, in the enum's order.
constexpr Backend kBackends[] = {
#ifdef CADENCE_WINDOW_GLFW
    {WindowBackend::glfw, "glfw", &kGlfwSystem, ""},
#else
    {WindowBackend::glfw, "glfw", nullptr, "build cadence with GLFW (apt-get install libglfw3-dev)"},
#endif
#ifdef CADENCE_WINDOW_SDL2
    {WindowBackend::sdl2, "sdl2", &kSdl2System, ""},
#elif defined(CADENCE_WINDOW_SDL3)
    {WindowBackend::sdl2, "sdl2", nullptr,
     "it was built with SDL3, and SDL2 and SDL3 cannot share a process (configure with -DCADENCE_WINDOW_SDL=2)"},
#else
    {WindowBackend::sdl2, "sdl2", nullptr,
     "build cadence with SDL >= 2.0.22 (apt-get install libsdl2-dev) and Debian's libimgui-dev rather than "
     "CADENCE_IMGUI_DIR"},
#endif
#ifdef CADENCE_WINDOW_SDL3
    {WindowBackend::sdl3, "sdl3", &kSdl3System, ""},
#elif defined(CADENCE_WINDOW_SDL2)
    {WindowBackend::sdl3, "sdl3", nullptr,
     "it was built with SDL2, and SDL2 and SDL3 cannot share a process (configure with -DCADENCE_WINDOW_SDL=3)"},
#else
    {WindowBackend::sdl3, "sdl3", nullptr,
     "build cadence with SDL 3 (apt-get install libsdl3-dev, Debian 13 and later) and a Dear ImGui whose SDL3 "
     "backend builds against it (Debian testing's)"},
#endif
};
constexpr std::size_t kCount = std::size(kBackends);
static_assert([] {
  for (std::size_t i = 0; i < kCount; ++i) {
    if (static_cast<std::size_t>(kBackends[i].backend) != i) return false;
  }
  return true;
}(), "kBackends lists every WindowBackend in the enum's order");

const Backend* find(WindowBackend backend) noexcept {
  const auto i = static_cast<std::size_t>(backend);
  return i < kCount ? &kBackends[i] : nullptr;
}

// Windows open (or opening) per backend, UI thread only.
std::array<int, kCount> open_count{};

}  // namespace

const WindowSystem* window_system(WindowBackend backend) noexcept {
  const Backend* b = find(backend);
  return b != nullptr ? b->system : nullptr;
}

Status acquire_backend(WindowBackend backend) {
  const Backend* b = find(backend);
  if (b == nullptr) {
    std::string names;
    for (const Backend& known : kBackends) names += std::string(names.empty() ? "" : ", ") + "WindowBackend::" + known.name;
    return Error{Errc::invalid_argument,
                 "window backend " + std::to_string(static_cast<int>(backend)) + " is not one of " + names};
  }
  if (b->system == nullptr) {
    return Error{Errc::invalid_argument, std::string("this build of cadence::window has no ") + b->name + " backend: " +
                                             b->missing + "; or open the window on another backend"};
  }
  for (const Backend& other : kBackends) {
    const int open = open_count[static_cast<std::size_t>(other.backend)];
    if (other.backend == backend || open == 0) continue;
    return Error{Errc::invalid_argument,
                 std::string("cannot open a ") + b->name + " window while " + std::to_string(open) + " " + other.name +
                     " window(s) are open: the windows open at one time all use one backend (the loop waits in "
                     "one window system's event queue)"};
  }
  if (Status s = b->system->acquire(); !s) return s;
  ++open_count[static_cast<std::size_t>(backend)];
  return {};
}

void release_backend(WindowBackend backend) {
  const Backend* b = find(backend);
  if (b == nullptr || b->system == nullptr) return;
  int& open = open_count[static_cast<std::size_t>(backend)];
  if (open == 0) return;
  --open;
  b->system->release();
}

}  // namespace detail

const char* to_string(WindowBackend backend) noexcept {
  const detail::Backend* b = detail::find(backend);
  return b != nullptr ? b->name : "unknown";
}

bool backend_available(WindowBackend backend) noexcept { return detail::window_system(backend) != nullptr; }

}  // namespace cadence
