// cadence-demo: an ImGui app showing what cadence is for.
//
//   cadence-demo [--backend glfw|sdl|sdl2|sdl3]  interactive, on GLFW (the default) or SDL
//       (sdl: the build's SDL, SDL3 or SDL2)
//   cadence-demo --headless-for 10 [--idle-for 5] --screenshot shot.png --stats stats.json
//       a scripted run of 10 s (on the display, or under Xvfb when there is none): idle for the
//       first part (default: half, at most 5 s), measured; then it starts jobs and timers and
//       opens a second window by itself; saves a screenshot of the main window and the
//       measurements.
#include <algorithm>
#include <cmath>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <cadence/event_loop.hpp>

#include "demo_app.hpp"
#include "stats_panel.hpp"

namespace {

struct Args {
  double headless_for = 0;  // seconds; 0 = interactive
  double idle_for = -1;     // seconds of the headless run spent idle, measured (default: up to 5)
  std::string screenshot;
  std::string stats;
  cadence::WindowBackend backend = cadence::WindowBackend::glfw;
};

constexpr double kStartup = 0.6;  // seconds of start-up frames before the idle measurement

int usage(const std::string& why) {
  std::fprintf(stderr,
               "cadence-demo: %s\n"
               "usage: cadence-demo [--backend glfw|sdl|sdl2|sdl3] [--headless-for SECONDS [--idle-for SECONDS] "
               "[--screenshot FILE.png] [--stats FILE.json]]\n",
               why.c_str());
  return 2;
}

// A number of seconds: finite and not negative; false for anything else ("abc", "nan", "-1").
bool parse_seconds(const char* text, double& out) {
  char* end = nullptr;
  const double v = std::strtod(text, &end);
  if (end == text || *end != '\0' || !std::isfinite(v) || v < 0) return false;
  out = v;
  return true;
}

bool parse(int argc, char** argv, Args& args, std::string& why) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool has_value = i + 1 < argc;
    if ((a == "--headless-for" || a == "--idle-for") && has_value) {
      const char* value = argv[++i];
      if (!parse_seconds(value, a == "--headless-for" ? args.headless_for : args.idle_for)) {
        why = a + " " + value + ": expected a number of seconds >= 0";
        return false;
      }
    } else if (a == "--backend" && has_value) {
      const std::string name = argv[++i];
      if (name == "glfw") {
        args.backend = cadence::WindowBackend::glfw;
      } else if (name == "sdl") {
        const bool sdl3 = cadence::backend_available(cadence::WindowBackend::sdl3);
        args.backend = sdl3 ? cadence::WindowBackend::sdl3 : cadence::WindowBackend::sdl2;
      } else if (name == "sdl2") {
        args.backend = cadence::WindowBackend::sdl2;
      } else if (name == "sdl3") {
        args.backend = cadence::WindowBackend::sdl3;
      } else {
        why = "--backend " + name + ": expected glfw, sdl, sdl2 or sdl3";
        return false;
      }
      if (!cadence::backend_available(args.backend)) {
        why = "--backend " + name + ": this build has no " + name +
              " windows (a build has one SDL, CMake's CADENCE_WINDOW_SDL: SDL2 needs libsdl2-dev and Debian's "
              "libimgui-dev, SDL3 needs libsdl3-dev and an ImGui whose SDL3 backend builds against it)";
        return false;
      }
    } else if (a == "--screenshot" && has_value) {
      args.screenshot = argv[++i];
    } else if (a == "--stats" && has_value) {
      args.stats = argv[++i];
    } else {
      why = "unknown or incomplete argument '" + a + "'";
      return false;
    }
  }
  if (args.headless_for == 0) return true;  // interactive
  if (args.idle_for < 0) args.idle_for = std::clamp(args.headless_for / 2, kStartup + 1, 5.0);
  // The first 0.6 s are start-up; the idle measurement needs at least a second after that.
  if (args.idle_for < kStartup + 1 || args.idle_for >= args.headless_for) {
    char text[200];
    std::snprintf(text, sizeof text, "--idle-for %g must be at least %g s and shorter than --headless-for %g s",
                  args.idle_for, kStartup + 1, args.headless_for);
    why = text;
    return false;
  }
  return true;
}

struct Phase {
  double seconds = 0;
  std::uint64_t wakeups = 0;
  std::uint64_t frames = 0;
  double cpu_percent = 0;
};

}  // namespace

int main(int argc, char** argv) {
  Args args;
  std::string why;
  if (!parse(argc, argv, args, why)) return usage(why);

  auto loop = std::make_unique<cadence::EventLoop>();
  demo::DemoApp app(*loop, "cadence demo", args.backend);
  // On every way out, the windows close (their workers stop) before the app state their
  // callbacks point at goes.
  struct CloseWindowsFirst {
    std::unique_ptr<cadence::EventLoop>& loop;
    ~CloseWindowsFirst() { loop.reset(); }
  } close_windows_first{loop};
  cadence::Window* main_window = app.open(900, 720);
  if (main_window == nullptr) return 1;  // the reason is printed already

  if (args.headless_for == 0) {
    loop->run();
    return 0;
  }

  // Headless: idle first (only the caret blinks), then the script, then the screenshot.
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const auto seconds_since = [&](Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); };
  const auto run_until = [&](double seconds) {
    const double left = seconds - seconds_since(start);
    if (left > 0) loop->run_for(std::chrono::duration_cast<cadence::Duration>(std::chrono::duration<double>(left)));
  };
  // Start-up frames and the first caret toggle do not count as idle.
  run_until(kStartup);
  Phase idle;
  const auto idle_start = Clock::now();
  const auto idle_cpu = demo::process_cpu_time();
  const std::uint64_t idle_wakeups = loop->stats().wakeups;
  const std::uint64_t idle_frames = main_window->stats().frames_drawn;
  run_until(args.idle_for);
  idle.seconds = seconds_since(idle_start);
  idle.wakeups = loop->stats().wakeups - idle_wakeups;
  idle.frames = main_window->stats().frames_drawn - idle_frames;
  idle.cpu_percent = 100.0 * (demo::process_cpu_time() - idle_cpu).count() / idle.seconds;

  // The script runs as an app timer, through its context, like any callback would.
  (void)main_window->runtime().add_timer(cadence::TimerId::unique(), cadence::Timer::once(std::chrono::milliseconds(1), [&](cadence::TimerCallbackInfo& info) {
                                           app.run_script(info.context);
                                           return cadence::TimerCallbackReturn::redraw();
                                         }));
  const auto busy_start = Clock::now();
  const auto busy_cpu = demo::process_cpu_time();
  run_until(args.headless_for);
  const double busy_seconds = seconds_since(busy_start);
  const double busy_cpu_percent = 100.0 * (demo::process_cpu_time() - busy_cpu).count() / busy_seconds;

  if (!args.screenshot.empty()) {
    main_window->request_redraw();
    main_window->frame();
    if (cadence::Status s = main_window->screenshot(args.screenshot); !s) {
      std::fprintf(stderr, "cadence-demo: %s\n", s.error().message.c_str());
      return 1;
    }
    std::printf("screenshot: %s\n", args.screenshot.c_str());
  }
  if (!args.stats.empty()) {
    std::ofstream out(args.stats);
    std::vector<float> lateness(main_window->stats().caret_lateness_ms.begin(),
                                main_window->stats().caret_lateness_ms.end());
    std::sort(lateness.begin(), lateness.end());
    const auto at = [&](double q) {
      return lateness.empty() ? 0.0f : lateness[static_cast<std::size_t>(q * static_cast<double>(lateness.size() - 1))];
    };
    out << "{\n"
        << "  \"idle\": {\"seconds\": " << idle.seconds << ", \"wakeups\": " << idle.wakeups
        << ", \"wakeups_per_second\": " << static_cast<double>(idle.wakeups) / idle.seconds
        << ", \"frames_drawn\": " << idle.frames << ", \"cpu_percent\": " << idle.cpu_percent << "},\n"
        << "  \"busy\": {\"seconds\": " << busy_seconds << ", \"cpu_percent\": " << busy_cpu_percent
        << ", \"windows\": " << loop->window_count() << "},\n"
        << "  \"caret_lateness_ms\": {\"runs\": " << lateness.size() << ", \"median\": " << at(0.5)
        << ", \"p99\": " << at(0.99) << ", \"worst\": " << at(1.0) << "},\n"
        << "  \"frames_drawn\": " << main_window->stats().frames_drawn << ",\n"
        << "  \"loop_wakeups\": " << loop->stats().wakeups << "\n"
        << "}\n";
    if (!out) {
      std::fprintf(stderr, "cadence-demo: could not write %s\n", args.stats.c_str());
      return 1;
    }
    std::printf("stats: %s\n", args.stats.c_str());
  }
  std::printf("idle: %.1f wake-ups/s, %.2f %% CPU over %.1f s\n", static_cast<double>(idle.wakeups) / idle.seconds,
              idle.cpu_percent, idle.seconds);
  return 0;
}
