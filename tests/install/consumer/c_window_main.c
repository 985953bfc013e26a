/* A C program against the installed window library's C API: it links as C (the C++ runtime and
   Dear ImGui come with the library) and asks which backends it has, opening no window. */
#include <cadence/cadence_window.h>

#include <stdio.h>

int main(void) {
  const int glfw = cadence_backend_available(CADENCE_BACKEND_GLFW);
  const int sdl2 = cadence_backend_available(CADENCE_BACKEND_SDL2);
  const int sdl3 = cadence_backend_available(CADENCE_BACKEND_SDL3);
  if (glfw != 1) {
    fprintf(stderr, "C window consumer: the window library has no GLFW windows\n");
    return 1;
  }
  if (sdl2 && sdl3) {
    fprintf(stderr, "C window consumer: the window library has SDL2 and SDL3 windows, which cannot share a process\n");
    return 1;
  }
  printf("C window consumer: ok (glfw, sdl2 %s, sdl3 %s)\n", sdl2 ? "yes" : "no", sdl3 ? "yes" : "no");
  return 0;
}
