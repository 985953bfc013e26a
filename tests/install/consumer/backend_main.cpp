// Links against an installed cadence::window and asks which window systems it has, without
// opening a window (so it runs with no display).
#include <cadence/window.hpp>

#include <cstdio>

int main() {
  if (!cadence::backend_available(cadence::WindowBackend::glfw)) {
    std::fprintf(stderr, "window consumer: cadence::window says it has no GLFW backend\n");
    return 1;
  }
  const bool sdl2 = cadence::backend_available(cadence::WindowBackend::sdl2);
  const bool sdl3 = cadence::backend_available(cadence::WindowBackend::sdl3);
  if (sdl2 && sdl3) {
    std::fprintf(stderr, "window consumer: cadence::window says it has SDL2 and SDL3, which cannot share a process\n");
    return 1;
  }
  std::printf("window consumer: ok (glfw, sdl2 %s, sdl3 %s)\n", sdl2 ? "yes" : "no", sdl3 ? "yes" : "no");
  return 0;
}
