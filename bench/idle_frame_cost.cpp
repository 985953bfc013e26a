// The cost of a window's idle frame: frame() when nothing is due and nothing is drawn (a
// wake-up for another window, or one that found nothing). Meant for callgrind, which counts
// instructions exactly, so that two builds compare without timing noise:
//   valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*run_idle_frames*' <this>
// and divide the instructions (Ir) by the frames it prints. Needs a display (xvfb-run).
// `<this> sdl2` measures a window on the SDL2 backend instead of GLFW.
#include <cadence/manual_clock.hpp>
#include <cadence/window.hpp>
#include <imgui.h>

#include <cstdio>
#include <cstring>

namespace {

constexpr int kFrames = 100'000;

[[gnu::noinline]] void run_idle_frames(cadence::Window& window, int frames) {
  for (int i = 0; i < frames; ++i) window.frame();
}

}  // namespace

int main(int argc, char** argv) {
  using namespace std::chrono_literals;
  cadence::ManualClock clock;
  cadence::WindowOptions options;
  if (argc > 1 && std::strcmp(argv[1], "sdl2") == 0) options.backend = cadence::WindowBackend::sdl2;
  options.title = "idle frame cost";
  options.width = 320;
  options.height = 200;
  options.vsync = false;
  options.visible = false;
  options.time_source = clock.source();
  options.runtime.frame_interval = 16ms;
  auto window = cadence::Window::create(options, [](cadence::Window&, cadence::CallbackContext&) {
    ImGui::Begin("Idle");
    ImGui::TextUnformatted("Nothing changes here.");
    ImGui::End();
  });
  if (!window) {
    std::fprintf(stderr, "%s\n", window.error().message.c_str());
    return 1;
  }
  // Start-up and the settle check, until nothing is scheduled.
  for (int i = 0; i < 100; ++i) {
    const std::optional<cadence::Duration> wake = (*window)->next_wake();
    if (!wake) break;
    (void)clock.advance(*wake);
    (*window)->frame();
  }
  if ((*window)->next_wake()) {
    std::fprintf(stderr, "the window did not come to rest\n");
    return 1;
  }
  const auto drawn = (*window)->stats().frames_drawn;
  run_idle_frames(**window, kFrames);
  if ((*window)->stats().frames_drawn != drawn) {
    std::fprintf(stderr, "an idle frame drew\n");
    return 1;
  }
  std::printf("idle frames: %d\n", kFrames);
  return 0;
}
