// Runs one of Dear ImGui's example programs, patched as docs/own_loop.md shows and compiled with
// its main() renamed example_main, in real time (under Xvfb in CI), and measures it from outside
// its code: FramePacer::set_created_hook reaches the pacer the example creates, and ImGui context
// hooks draw a probe window into the example's own frames (a focused text field, and the last
// value a worker posted).
//   1. idle: 4 s with the text field focused; wake-ups a second (target <= 2.5), frames drawn,
//      CPU time (all threads, the software renderer's included);
//   2. latency: a worker posts 100 values 20 ms apart; for each, the time from its post to the
//      ImGui::Render of the first frame that shows it (targets: median <= 5 ms, p99 <= 20 ms).
// Prints the figures and exits non-zero when a target is missed, then closes the example's window.
#include <cadence/frame_pacer.hpp>
#include <imgui.h>
#include <imgui_internal.h>  // ImGui context hooks
#include <sys/resource.h>

#if defined(CADENCE_HARNESS_SDL)
#include <SDL.h>
#else
#include <GLFW/glfw3.h>
#endif

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>
#include <utility>
#include <vector>

int example_main(int argc, char** argv);

namespace {

using namespace std::chrono_literals;
using Steady = std::chrono::steady_clock;

constexpr int kPosts = 100;
constexpr auto kIdleStart = 1500ms;
constexpr auto kIdleLength = 4s;
constexpr auto kPostEvery = 20ms;

struct Probe {
  cadence::FramePacer* pacer = nullptr;
  char text[32] = "focused";
  bool focus = true;
  bool field_active = false;  // the text field is active (its caret blinks) in the last frame
  int received = -1;   // the last value the worker's write-backs delivered (UI thread)
  int shown = -1;      // the value the frame being built shows
  int measured = -1;   // the last value whose latency was taken
  std::array<std::atomic<std::int64_t>, kPosts> posted{};  // steady-clock ns of each post
  std::vector<double> latency_ms;
  std::uint64_t idle_runs = 0, idle_drawn = 0;
  double idle_cpu = 0;
  bool idle_focused = false;  // the text field was active when the idle phase began and ended
  int failures = 0;
};
Probe probe;

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

void draw_probe(ImGuiContext*, ImGuiContextHook*) {
  ImGui::SetNextWindowPos(ImVec2(20, 520), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(320, 90), ImGuiCond_Always);
  if (probe.focus) ImGui::SetNextWindowFocus();
  ImGui::Begin("cadence probe");
  if (probe.focus) ImGui::SetKeyboardFocusHere();
  ImGui::InputText("field", probe.text, sizeof probe.text);
  probe.field_active = ImGui::IsItemActive();
  if (probe.field_active) probe.focus = false;  // asked until it took
  ImGui::Text("worker: %d", probe.received);
  ImGui::End();
  probe.shown = probe.received;
}

void on_render(ImGuiContext*, ImGuiContextHook*) {
  if (probe.shown < 0 || probe.shown == probe.measured) return;
  probe.measured = probe.shown;
  const auto posted = Steady::time_point(Steady::duration(probe.posted[static_cast<std::size_t>(probe.shown)].load()));
  probe.latency_ms.push_back(std::chrono::duration<double, std::milli>(Steady::now() - posted).count());
}

void close_example() {
#if defined(CADENCE_HARNESS_SDL)
  SDL_Event quit{};
  quit.type = SDL_QUIT;
  SDL_PushEvent(&quit);
#else
  glfwSetWindowShouldClose(glfwGetCurrentContext(), GLFW_TRUE);
#endif
}

double percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<std::size_t>(p * static_cast<double>(v.size() - 1) + 0.5))];
}

void report() {
  const double seconds = std::chrono::duration<double>(kIdleLength).count();
  const double wakeups = static_cast<double>(probe.idle_runs) / seconds;
  std::printf("own-loop idle: %.2f wake-ups/s, %llu frames drawn in %.0f s, %.2f %% of a core\n", wakeups,
              static_cast<unsigned long long>(probe.idle_drawn), seconds, 100.0 * probe.idle_cpu / seconds);
  if (!probe.idle_focused) {
    std::printf("FAIL: the probe's text field was not active through the idle phase\n");
    ++probe.failures;
  }
  if (wakeups > 2.5) {
    std::printf("FAIL: more than 2.5 wake-ups a second with a focused text field\n");
    ++probe.failures;
  }
  if (probe.latency_ms.size() != kPosts) {
    std::printf("FAIL: %zu of %d worker posts were drawn\n", probe.latency_ms.size(), kPosts);
    ++probe.failures;
    if (probe.latency_ms.empty()) return;
  }
  const double median = percentile(probe.latency_ms, 0.5), p99 = percentile(probe.latency_ms, 0.99);
  std::printf("own-loop worker latency (post to drawn): median %.2f ms, p99 %.2f ms, max %.2f ms (%zu posts)\n",
              median, p99, percentile(probe.latency_ms, 1.0), probe.latency_ms.size());
  if (median > 5.0 || p99 > 20.0) {
    std::printf("FAIL: worker latency over the targets (median <= 5 ms, p99 <= 20 ms)\n");
    ++probe.failures;
  }
}

using cadence::CallbackContext;
using cadence::Thread;
using cadence::ThreadReceiver;
using cadence::ThreadSender;
using cadence::Timer;
using cadence::TimerCallbackInfo;
using cadence::TimerCallbackReturn;
using cadence::Update;

void start_worker(CallbackContext& context) {
  (void)context.start_thread(cadence::ThreadId::unique(), Thread::create(0, &probe, [](int, ThreadSender<Probe*>& out, ThreadReceiver&) {
    for (int i = 0; i < kPosts; ++i) {
      std::this_thread::sleep_for(kPostEvery);  // the pace of the posts, not a wait for a result
      probe.posted[static_cast<std::size_t>(i)] = Steady::now().time_since_epoch().count();
      out.write_back(i, [](Probe*& p, int& v, CallbackContext&) {
        p->received = v;
        return Update::redraw_window;
      });
    }
  }));
}

// The measurement, as timers on the example's own runtime.
void attach(cadence::FramePacer& pacer) {
  probe.pacer = &pacer;
  ImGuiContextHook draw{};
  draw.Type = ImGuiContextHookType_NewFramePost;
  draw.Callback = draw_probe;
  ImGui::AddContextHook(pacer.imgui_context(), &draw);
  ImGuiContextHook render{};
  render.Type = ImGuiContextHookType_RenderPre;
  render.Callback = on_render;
  ImGui::AddContextHook(pacer.imgui_context(), &render);

  cadence::WindowRuntime& runtime = pacer.runtime();
  (void)runtime.add_timer(cadence::TimerId::unique(), Timer::once(kIdleStart, [](TimerCallbackInfo&) {
    const cadence::WindowStats& s = probe.pacer->stats();
    probe.idle_focused = probe.field_active;
    probe.idle_runs = s.frames_run;
    probe.idle_drawn = s.frames_drawn;
    probe.idle_cpu = cpu_seconds();
    return TimerCallbackReturn::keep();
  }));
  (void)runtime.add_timer(cadence::TimerId::unique(), Timer::once(kIdleStart + kIdleLength, [](TimerCallbackInfo& info) {
    const cadence::WindowStats& s = probe.pacer->stats();
    probe.idle_runs = s.frames_run - probe.idle_runs - 1;  // not this timer's own wake-up
    probe.idle_drawn = s.frames_drawn - probe.idle_drawn;
    probe.idle_cpu = cpu_seconds() - probe.idle_cpu;
    probe.idle_focused = probe.idle_focused && probe.field_active;
    start_worker(info.context);
    return TimerCallbackReturn::keep();
  }));
  (void)runtime.add_timer(cadence::TimerId::unique(),
                          Timer::once(kIdleStart + kIdleLength + kPosts * kPostEvery + 1s, [](TimerCallbackInfo&) {
                            report();
                            close_example();
                            return TimerCallbackReturn::keep();
                          }));
}

}  // namespace

int main(int argc, char** argv) {
  cadence::FramePacer::set_created_hook(attach);
  const int code = example_main(argc, argv);
  if (probe.pacer == nullptr) {
    std::printf("FAIL: the example created no pacer\n");
    return 2;
  }
  return code != 0 ? code : (probe.failures > 0 ? 3 : 0);
}
