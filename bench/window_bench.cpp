// Window measurements, in one run (under Xvfb when there is no display):
// - idle CPU: a window with a focused text field (so the caret blinks) and nothing else to do,
//   beside the same window rendered on every frame, the way most ImGui apps run;
// - worker post to write-back latency while the loop sleeps: p50 and p99;
// - timer lateness while idle: p50 and p99;
// - the baseline for lateness: how late a plain thread wakes from sleep_until on this machine.
// Prints one JSON object; scripts/bench turns it into tables.
#include <imgui.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cadence/event_loop.hpp"
#include "cadence/window.hpp"

#include <GLFW/glfw3.h>
#include <functional>

namespace {

using namespace cadence;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const auto i = static_cast<std::size_t>(p * static_cast<double>(v.size() - 1) + 0.5);
  return v[std::min(i, v.size() - 1)];
}

// The same content for both loops: a text field (focused) and a few widgets.
struct Content {
  char text[128] = "";
  bool focus = true;
  float value = 0.3f;
  void draw() {
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImGui::GetIO().DisplaySize);
    ImGui::Begin("bench", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoBackground);
    ImGui::TextUnformatted("An idle window: only the caret blinks.");
    if (focus) {
      ImGui::SetKeyboardFocusHere();
      focus = false;
    }
    ImGui::InputText("##text", text, sizeof text);
    ImGui::SliderFloat("value", &value, 0, 1);
    for (int i = 0; i < 20; ++i) ImGui::Text("row %d of some text to draw", i);
    ImGui::End();
  }
};

WindowOptions options() {
  WindowOptions o;
  o.title = "cadence bench";
  o.width = 900;
  o.height = 720;
  o.vsync = false;
  return o;
}

struct CpuResult {
  double seconds = 0, cpu_percent = 0, frames_per_second = 0, wakeups_per_second = 0;
};

CpuResult idle_cpu(double seconds) {
  Content content;
  EventLoop loop;
  Window* w = loop.add(*Window::create(options(), [&](Window&, CallbackContext&) { content.draw(); })).get();
  loop.run_for(1s);  // start-up and the shaders' first compile do not count
  const double cpu0 = cpu_seconds();
  const auto t0 = Clock::now();
  const auto frames0 = w->stats().frames_drawn;
  const auto wakeups0 = loop.stats().wakeups;
  loop.run_for(std::chrono::duration_cast<Duration>(std::chrono::duration<double>(seconds)));
  CpuResult r;
  r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  r.cpu_percent = 100.0 * (cpu_seconds() - cpu0) / r.seconds;
  r.frames_per_second = static_cast<double>(w->stats().frames_drawn - frames0) / r.seconds;
  r.wakeups_per_second = static_cast<double>(loop.stats().wakeups - wakeups0) / r.seconds;
  return r;
}

CpuResult every_frame_cpu(double seconds) {
  Content content;
  auto w = *Window::create(options(), [&](Window&, CallbackContext&) { content.draw(); });
  const auto warm = Clock::now();
  while (Clock::now() - warm < 1s) {
    w->request_redraw();
    w->frame();
  }
  const double cpu0 = cpu_seconds();
  const auto t0 = Clock::now();
  const auto frames0 = w->stats().frames_drawn;
  while (std::chrono::duration<double>(Clock::now() - t0).count() < seconds) {
    glfwPollEvents();  // what a render-every-frame loop does: poll, draw, swap, again
    w->request_redraw();
    w->frame();
  }
  CpuResult r;
  r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  r.cpu_percent = 100.0 * (cpu_seconds() - cpu0) / r.seconds;
  r.frames_per_second = static_cast<double>(w->stats().frames_drawn - frames0) / r.seconds;
  return r;
}

// A window showing one line of text, past its start-up frames, so that only what the caller
// schedules wakes the loop.
Window* open_quiet_window(EventLoop& loop, const char* text) {
  Window* w = loop.add(*Window::create(options(), [text](Window&, CallbackContext&) {
    ImGui::Begin("quiet");
    ImGui::TextUnformatted(text);
    ImGui::End();
  })).get();
  loop.run_for(500ms);
  return w;
}

// A worker posts 300 write-backs at random moments; each measures post to run on the UI thread.
std::vector<double> post_latency_us() {
  EventLoop loop;
  Window* w = open_quiet_window(loop, "waiting for workers");
  std::vector<double> samples;
  constexpr int kPosts = 300;
  (void)w->runtime().start_thread(ThreadId::unique(), Thread::create(kPosts, &samples,
      [](int posts, ThreadSender<std::vector<double>*>& out, ThreadReceiver& in) {
        std::mt19937 rng(7);
        for (int i = 0; i < posts; ++i) {
          // Work for 5-25 ms (a wait that frames do not end), then report.
          (void)in.receive_for(std::chrono::milliseconds(5 + rng() % 20), /*ticks=*/false);
          out.write_back(Clock::now(), [](std::vector<double>*& s, Clock::time_point& posted, CallbackContext&) {
            s->push_back(std::chrono::duration<double, std::micro>(Clock::now() - posted).count());
          });
        }
      }));
  const auto deadline = Clock::now() + 60s;
  while (samples.size() < kPosts && Clock::now() < deadline) loop.run_once(1s);
  return samples;
}

// 300 one-shot timers, one after the other, 5-30 ms apart, in an otherwise idle window.
std::vector<double> timer_lateness_us() {
  EventLoop loop;
  Window* w = open_quiet_window(loop, "timers only");
  std::vector<double> samples;
  std::mt19937 rng(11);
  std::function<void(CallbackContext&)> arm = [&](CallbackContext& ctx) {
    const auto delay = std::chrono::milliseconds(5 + rng() % 25);
    (void)ctx.add_timer(TimerId::unique(), Timer::once(delay, [&](TimerCallbackInfo& info) {
      samples.push_back(std::chrono::duration<double, std::micro>(w->runtime().now() - info.due).count());
      if (samples.size() < 300) arm(info.context);
    }));
  };
  ChangeSet first;
  CallbackContext ctx = w->runtime().context(first);
  arm(ctx);
  (void)w->runtime().apply(std::move(first));
  const auto deadline = Clock::now() + 60s;
  while (samples.size() < 300 && Clock::now() < deadline) loop.run_once(1s);
  return samples;
}

// The baseline for lateness: what the OS alone gives a thread that sleeps until exact deadlines
// 5-30 ms apart (no window, no loop). A loop cannot be more punctual than its sleeps.
std::vector<double> sleep_lateness_us() {
  std::vector<double> samples;
  std::mt19937 rng(11);
  while (samples.size() < 300) {
    const auto deadline = Clock::now() + std::chrono::milliseconds(5 + rng() % 25);
    std::this_thread::sleep_until(deadline);
    samples.push_back(std::chrono::duration<double, std::micro>(Clock::now() - deadline).count());
  }
  return samples;
}

// The caret's blink timer while `workers` CPU-bound workers (one per core) crunch at `priority`:
// how late it runs, in microseconds. The caret blinks every 20 ms here, so that a few seconds
// give a full sample (the last WindowStats::kLatenessSamples runs).
std::vector<double> caret_lateness_under_load_us(int workers, ThreadPriority priority, double seconds) {
  Content content;
  EventLoop loop;
  WindowOptions o = options();
  o.caret_blink = 20ms;
  Window* w = loop.add(*Window::create(o, [&](Window&, CallbackContext&) { content.draw(); })).get();
  loop.run_for(500ms);
  struct None {};
  for (int i = 0; i < workers; ++i) {
    Thread t = Thread::create(0, None{}, [](int, ThreadSender<None>&, ThreadReceiver& in) {
      volatile std::uint64_t x = 1;
      while (!in.stop_requested()) {
        for (int k = 0; k < 100000; ++k) x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      }
    });
    (void)w->runtime().start_thread(ThreadId::unique(), std::move(t).with_priority(priority));
  }
  loop.run_for(std::chrono::duration_cast<Duration>(std::chrono::duration<double>(seconds)));
  std::vector<double> samples;
  for (float ms : w->stats().caret_lateness_ms) samples.push_back(static_cast<double>(ms) * 1000.0);
  return samples;  // the window's runtime stops and joins the workers as the loop goes
}

std::string distribution(const std::vector<double>& v) {
  std::ostringstream o;
  o << "{\"samples\": " << v.size() << ", \"p50\": " << percentile(v, 0.5) << ", \"p99\": " << percentile(v, 0.99)
    << ", \"max\": " << percentile(v, 1.0) << "}";
  return o.str();
}

double median(std::vector<double> v) { return percentile(std::move(v), 0.5); }

void append(std::vector<double>& to, const std::vector<double>& from) { to.insert(to.end(), from.begin(), from.end()); }

}  // namespace

// Usage: cadence_bench_window [--out FILE.json] [--seconds SECONDS] [--rounds N]
// Each round measures everything once, in turn, so that noise spreads over all figures; CPU
// figures are medians over rounds, latency percentiles are over the samples of every round.
int main(int argc, char** argv) {
  std::string out_path;
  double seconds = 4;
  int rounds = 3;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--out") out_path = argv[i + 1];
    if (a == "--seconds") seconds = std::max(1.0, std::atof(argv[i + 1]));
    if (a == "--rounds") rounds = std::max(1, std::atoi(argv[i + 1]));
  }
  if (auto probe = Window::create(options(), nullptr); !probe) {
    std::fprintf(stderr, "cadence_bench_window: %s\n", probe.error().message.c_str());
    return 2;
  }
  std::vector<double> idle_cpu_pct, idle_fps, idle_wakes, busy_cpu_pct, busy_fps;
  std::vector<double> latency, lateness, sleep_lateness, caret_idle, caret_normal, caret_background;
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  for (int r = 0; r < rounds; ++r) {
    std::fprintf(stderr, "window bench: round %d of %d\n", r + 1, rounds);
    const CpuResult idle = idle_cpu(seconds);
    idle_cpu_pct.push_back(idle.cpu_percent);
    idle_fps.push_back(idle.frames_per_second);
    idle_wakes.push_back(idle.wakeups_per_second);
    const CpuResult busy = every_frame_cpu(seconds / 2);
    busy_cpu_pct.push_back(busy.cpu_percent);
    busy_fps.push_back(busy.frames_per_second);
    append(latency, post_latency_us());
    append(sleep_lateness, sleep_lateness_us());
    append(lateness, timer_lateness_us());
    append(caret_idle, caret_lateness_under_load_us(0, ThreadPriority::normal, seconds));
    append(caret_normal, caret_lateness_under_load_us(cores, ThreadPriority::normal, seconds));
    append(caret_background, caret_lateness_under_load_us(cores, ThreadPriority::background, seconds));
  }
  std::ostringstream json;
  json << "{\n"
       << "  \"rounds\": " << rounds << ",\n"
       << "  \"idle\": {\"seconds\": " << seconds << ", \"cpu_percent\": " << median(idle_cpu_pct)
       << ", \"frames_per_second\": " << median(idle_fps) << ", \"wakeups_per_second\": " << median(idle_wakes) << "},\n"
       << "  \"every_frame\": {\"seconds\": " << seconds / 2 << ", \"cpu_percent\": " << median(busy_cpu_pct)
       << ", \"frames_per_second\": " << median(busy_fps) << "},\n"
       << "  \"post_to_write_back_us\": " << distribution(latency) << ",\n"
       << "  \"timer_lateness_us\": " << distribution(lateness) << ",\n"
       << "  \"sleep_lateness_us\": " << distribution(sleep_lateness) << ",\n"
       << "  \"caret_lateness_us\": {\"workers\": " << cores << ", \"no_workers\": " << distribution(caret_idle)
       << ", \"normal_priority\": " << distribution(caret_normal)
       << ", \"background_priority\": " << distribution(caret_background) << "}\n"
       << "}\n";
  std::fputs(json.str().c_str(), stdout);
  if (!out_path.empty()) std::ofstream(out_path) << json.str();
  return 0;
}
