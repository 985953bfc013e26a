// Links against an installed cadence::window and asks which window systems it has, without
// opening a window (so it runs with no display).
#include <cadence/window.hpp>

#include <cstdio>

int main() {
  if (!cadence::backend_available(cadence::WindowBackend::glfw)) {
    std::fprintf(stderr, "window consumer: cadence::window says it has no GLFW backend\n");
    return 1;
  }
  std::printf("window consumer: ok (glfw, sdl2 %s)\n", cadence::backend_available(cadence::WindowBackend::sdl2) ? "yes" : "no");
  return 0;
}
