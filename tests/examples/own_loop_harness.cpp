// Runs one of Dear ImGui's example programs, patched as docs/own_loop.md shows and compiled with
// its main() renamed example_main, in real time (under Xvfb in CI), and measures it from outside
// its code: FramePacer::set_created_hook reaches the pacer the example creates, and ImGui context
// hooks draw a probe window into the example's own frames (a focused text field, and the last
// value a worker posted).
//   1. idle: 4 s with the text field focused; wake-ups a second (target <= 2.5), frames drawn,
//      CPU time (all threads, the software renderer's included);
//   2. latency: a worker posts 100 values 20 ms apart; for each, the time from its post to the
//      ImGui::Render of the first frame that shows it (targets: median <= 5 ms, p99 <= 20 ms);
//   3. fidelity: text typed into the field, its caret blinking, a Backspace, a worker's post; at
//      checkpoints between them, what the screen shows (the last frame drawn) must equal a frame
//      drawn at that instant, as a program drawing every frame would show it: the same
//      triangles, vertices, textures and clip rectangles. The examples' io.Framerate line, the
//      one the diff marks Volatile, is held at one value for this phase.
// Prints the figures and exits non-zero when a target is missed, then closes the example's window.
#include <cadence/frame_pacer.hpp>
#include <cadence/imgui_features.hpp>
#include <imgui.h>
#include <imgui_internal.h>  // ImGui context hooks
#include <sys/resource.h>

#if defined(CADENCE_HARNESS_SDL)
#include <SDL.h>
#elif defined(CADENCE_HARNESS_SDL3)
#include <SDL3/SDL.h>
#else
#include <GLFW/glfw3.h>
#endif

#include <algorithm>
#include <array>
#include <cstring>
#include <functional>
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
constexpr auto kFidelityStart = kIdleStart + kIdleLength + kPosts * kPostEvery + 500ms;
constexpr int kFidelityValue = 1000;  // the fidelity phase's worker posts it
constexpr int kCheckpoints = 6;

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
  bool fidelity = false;       // the fidelity phase runs: frames are fingerprinted
  std::uint64_t screen = 0;    // the fingerprint of the last frame drawn: what the screen shows
  const char* checkpoint = nullptr;  // a checkpoint waits for the frame drawn at its instant
  std::uint64_t checkpoint_screen = 0;
  int checkpoints_passed = 0;
  std::vector<std::pair<const char*, std::uint64_t>> checkpoint_frames;  // each checkpoint's frame
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
  if (probe.fidelity) ImGui::GetIO().Framerate = 60.0f;  // the Volatile line, held (see the top)
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

// What the renderer draws: every triangle's vertices in order, each with its command's texture
// and clip rectangle (how ImGui splits them into commands and buffers does not show). FNV-1a.
std::uint64_t fingerprint(const ImDrawData& data) {
  std::uint64_t h = 1469598103934665603ull;
  const auto mix = [&h](const void* bytes, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) h = (h ^ static_cast<const unsigned char*>(bytes)[i]) * 1099511628211ull;
  };
  mix(&data.DisplaySize, sizeof data.DisplaySize);
  for (const ImDrawList* in : cadence::detail::draw_lists(data)) {
    const ImDrawList& list = *in;
    for (const ImDrawCmd& cmd : list.CmdBuffer) {
      if (cmd.UserCallback != nullptr) continue;
      const ImTextureID texture = cmd.GetTexID();
      for (unsigned int i = 0; i < cmd.ElemCount; ++i) {
        const ImDrawVert& v = list.VtxBuffer[static_cast<int>(cmd.VtxOffset + list.IdxBuffer[static_cast<int>(cmd.IdxOffset + i)])];
        mix(&texture, sizeof texture);
        mix(&cmd.ClipRect, sizeof cmd.ClipRect);
        mix(&v.pos, sizeof v.pos);
        mix(&v.uv, sizeof v.uv);
        mix(&v.col, sizeof v.col);
      }
    }
  }
  return h;
}

// After ImGui::Render: the checkpoint's frame is compared with what the screen showed before it.
void after_render(ImGuiContext*, ImGuiContextHook*) {
  if (!probe.fidelity) return;
  const std::uint64_t drawn = fingerprint(*ImGui::GetDrawData());
  if (probe.checkpoint != nullptr) {
    probe.checkpoint_frames.emplace_back(probe.checkpoint, drawn);
    if (drawn == probe.checkpoint_screen) {
      ++probe.checkpoints_passed;
    } else {
      std::printf("FAIL: fidelity at \"%s\": the screen differs from a frame drawn at that instant\n", probe.checkpoint);
      ++probe.failures;
    }
    probe.checkpoint = nullptr;
  }
  probe.screen = drawn;
}

void on_render(ImGuiContext*, ImGuiContextHook*) {
  if (probe.shown < 0 || probe.shown >= kPosts || probe.shown == probe.measured) return;
  probe.measured = probe.shown;
  const auto posted = Steady::time_point(Steady::duration(probe.posted[static_cast<std::size_t>(probe.shown)].load()));
  probe.latency_ms.push_back(std::chrono::duration<double, std::milli>(Steady::now() - posted).count());
}

void close_example() {
#if defined(CADENCE_HARNESS_SDL)
  SDL_Event quit{};
  quit.type = SDL_QUIT;
  SDL_PushEvent(&quit);
#elif defined(CADENCE_HARNESS_SDL3)
  SDL_Event quit{};
  quit.type = SDL_EVENT_QUIT;
  (void)SDL_PushEvent(&quit);
#else
  glfwSetWindowShouldClose(glfwGetCurrentContext(), GLFW_TRUE);
#endif
}

// Input as the window system delivers it: SDL events pushed on SDL's queue; for GLFW, which
// cannot synthesise events, a call of the callback chain GLFW would call (cadence's, then ImGui's).
void type_text(const char* text) {
#if defined(CADENCE_HARNESS_SDL)
  SDL_version v;
  SDL_GetVersion(&v);
  if (v.patch >= 50) {
    // sdl2-compat (SDL2's API on SDL3: a patch level of 50 or more) crashes on an SDL_TEXTINPUT
    // an app pushes: the text goes to ImGui as its backend would pass it, and the pacer hears of it.
    ImGui::GetIO().AddInputCharactersUTF8(text);
    probe.pacer->on_input();
    return;
  }
  SDL_Event e{};
  e.type = SDL_TEXTINPUT;
  e.text.windowID = SDL_GetWindowID(SDL_GL_GetCurrentWindow());
  std::strncpy(e.text.text, text, sizeof e.text.text - 1);
  SDL_PushEvent(&e);
#elif defined(CADENCE_HARNESS_SDL3)
  SDL_Event e{};
  e.type = SDL_EVENT_TEXT_INPUT;
  e.text.windowID = SDL_GetWindowID(SDL_GL_GetCurrentWindow());
  e.text.text = text;  // a string literal: it outlives the event
  (void)SDL_PushEvent(&e);
#else
  GLFWwindow* window = glfwGetCurrentContext();
  const GLFWcharfun chain = glfwSetCharCallback(window, nullptr);
  glfwSetCharCallback(window, chain);
  for (const char* c = text; *c != '\0'; ++c) chain(window, static_cast<unsigned int>(*c));
#endif
}

void backspace(bool down) {
#if defined(CADENCE_HARNESS_SDL)
  SDL_Event e{};
  e.type = down ? SDL_KEYDOWN : SDL_KEYUP;
  e.key.windowID = SDL_GetWindowID(SDL_GL_GetCurrentWindow());
  e.key.state = down ? SDL_PRESSED : SDL_RELEASED;
  e.key.keysym.scancode = SDL_SCANCODE_BACKSPACE;
  e.key.keysym.sym = SDLK_BACKSPACE;
  SDL_PushEvent(&e);
#elif defined(CADENCE_HARNESS_SDL3)
  SDL_Event e{};
  e.type = down ? SDL_EVENT_KEY_DOWN : SDL_EVENT_KEY_UP;
  e.key.windowID = SDL_GetWindowID(SDL_GL_GetCurrentWindow());
  e.key.down = down;
  e.key.scancode = SDL_SCANCODE_BACKSPACE;
  e.key.key = SDLK_BACKSPACE;
  (void)SDL_PushEvent(&e);
#else
  GLFWwindow* window = glfwGetCurrentContext();
  const GLFWkeyfun chain = glfwSetKeyCallback(window, nullptr);
  glfwSetKeyCallback(window, chain);
  chain(window, GLFW_KEY_BACKSPACE, glfwGetKeyScancode(GLFW_KEY_BACKSPACE), down ? GLFW_PRESS : GLFW_RELEASE, 0);
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
  std::printf("own-loop fidelity: %d of %d checkpoints show what a frame drawn then shows\n", probe.checkpoints_passed,
              kCheckpoints);
  if (probe.checkpoints_passed != kCheckpoints) {
    std::printf("FAIL: %d fidelity checkpoints failed or were not reached\n", kCheckpoints - probe.checkpoints_passed);
    ++probe.failures;
  }
  // Something changed between each two checkpoints (the caret, the text, the worker's value):
  // equal frames would mean the input missed the field, and the comparison proved nothing.
  for (std::size_t i = 1; i < probe.checkpoint_frames.size(); ++i) {
    if (probe.checkpoint_frames[i].second == probe.checkpoint_frames[i - 1].second) {
      std::printf("FAIL: the frames at \"%s\" and \"%s\" are the same; the input did not reach the field\n",
                  probe.checkpoint_frames[i - 1].first, probe.checkpoint_frames[i].first);
      ++probe.failures;
    }
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

void post_once(CallbackContext& context) {
  (void)context.start_thread(cadence::ThreadId::unique(), Thread::create(0, &probe, [](int, ThreadSender<Probe*>& out, ThreadReceiver&) {
    out.write_back(kFidelityValue, [](Probe*& p, int& v, CallbackContext&) {
      p->received = v;
      return Update::redraw_window;
    });
  }));
}

// At `at` from the start, on the example's runtime.
void at(std::chrono::milliseconds when, std::function<void(TimerCallbackInfo&)> action) {
  (void)probe.pacer->runtime().add_timer(cadence::TimerId::unique(),
                                         Timer::once(when, [action = std::move(action)](TimerCallbackInfo& info) {
                                           action(info);
                                           return TimerCallbackReturn::keep();
                                         }));
}

// A checkpoint: what the screen shows now, against the frame this instant draws (a request for
// the timer's own frame instant is that frame).
void checkpoint(std::chrono::milliseconds when, const char* name) {
  at(when, [name](TimerCallbackInfo& info) {
    probe.checkpoint = name;
    probe.checkpoint_screen = probe.screen;
    (void)info.context.request_redraw_at(info.frame_start);
  });
}

// The fidelity phase. The pacer blinks the caret (PacerOptions::caret_blink, 530 ms by default):
// shown for 530 ms from an edit, hidden for 530 ms, and so on. The checkpoints sit at least
// 230 ms from any change, so that lateness cannot move a change across one.
void schedule_fidelity() {
  using std::chrono::duration_cast;
  using std::chrono::milliseconds;
  const milliseconds f = duration_cast<milliseconds>(kFidelityStart);
  at(f, [](TimerCallbackInfo&) {
    probe.fidelity = true;
    type_text("abc");
  });
  checkpoint(f + 300ms, "typed");
  checkpoint(f + 800ms, "caret hidden");
  checkpoint(f + 1300ms, "caret shown again");
  at(f + 2000ms, [](TimerCallbackInfo&) { backspace(true); });
  at(f + 2100ms, [](TimerCallbackInfo&) { backspace(false); });
  checkpoint(f + 2300ms, "after a Backspace");
  at(f + 2500ms, [](TimerCallbackInfo& info) { post_once(info.context); });
  checkpoint(f + 2800ms, "a worker's post, caret hidden");
  checkpoint(f + 3300ms, "caret shown after the Backspace");
  at(f + 3600ms, [](TimerCallbackInfo&) {
    report();
    close_example();
  });
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
  ImGuiContextHook rendered{};
  rendered.Type = ImGuiContextHookType_RenderPost;
  rendered.Callback = after_render;
  ImGui::AddContextHook(pacer.imgui_context(), &rendered);

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
  schedule_fidelity();
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
