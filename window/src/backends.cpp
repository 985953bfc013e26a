// Which window systems this build has, and the rule that the windows open at one time use one.
#include <string>

#include "surface.hpp"

namespace cadence {
namespace detail {

extern const WindowSystem kGlfwSystem;  // glfw_surface.cpp
#if CADENCE_WINDOW_SDL2
extern const WindowSystem kSdlSystem;  // sdl_surface.cpp
#endif

namespace {

// Windows open (or opening) per backend, UI thread only.
int open_count[2] = {0, 0};

int& count(WindowBackend b) { return open_count[b == WindowBackend::glfw ? 0 : 1]; }

}  // namespace

const WindowSystem* window_system(WindowBackend backend) noexcept {
  switch (backend) {
    case WindowBackend::glfw: return &kGlfwSystem;
    case WindowBackend::sdl2:
#if CADENCE_WINDOW_SDL2
      return &kSdlSystem;
#else
      return nullptr;
#endif
  }
  return nullptr;
}

Status acquire_backend(WindowBackend backend) {
  if (backend != WindowBackend::glfw && backend != WindowBackend::sdl2) {
    return Error{Errc::invalid_argument, "window backend " + std::to_string(static_cast<int>(backend)) +
                                             " is not one of WindowBackend::glfw and WindowBackend::sdl2"};
  }
  const WindowSystem* system = window_system(backend);
  if (system == nullptr) {
    return Error{Errc::invalid_argument, std::string("this build of cadence::window has no ") + to_string(backend) +
                                             " backend: build cadence with SDL >= 2.0.22 (apt-get install libsdl2-dev) "
                                             "and Debian's libimgui-dev rather than CADENCE_IMGUI_DIR, or open the "
                                             "window with WindowBackend::glfw"};
  }
  const WindowBackend other = backend == WindowBackend::glfw ? WindowBackend::sdl2 : WindowBackend::glfw;
  if (count(other) > 0) {
    return Error{Errc::invalid_argument,
                 std::string("cannot open a ") + to_string(backend) + " window while " + std::to_string(count(other)) +
                     " " + to_string(other) +
                     " window(s) are open: the windows open at one time all use one backend (the loop waits in "
                     "one window system's event queue)"};
  }
  if (Status s = system->acquire(); !s) return s;
  ++count(backend);
  return {};
}

void release_backend(WindowBackend backend) {
  const WindowSystem* system = window_system(backend);
  if (system == nullptr || count(backend) == 0) return;
  --count(backend);
  system->release();
}

}  // namespace detail

const char* to_string(WindowBackend backend) noexcept {
  switch (backend) {
    case WindowBackend::glfw: return "glfw";
    case WindowBackend::sdl2: return "sdl2";
  }
  return "unknown";
}

bool backend_available(WindowBackend backend) noexcept { return detail::window_system(backend) != nullptr; }

}  // namespace cadence
