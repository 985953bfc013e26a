// Sdl3Pacing (sdl3_pacing.hpp) on a real SDL3 window: an app's own loop driven by hand on a
// manual clock (what counts as input, what wakes the wait, a window that cannot be seen), and
// SDL3's main callbacks ("waitevent"), where SDL calls the app only after an event and poll()'s
// timer is that event for cadence's instants. ImGui's frames are built without a platform
// backend: the pacer needs none.
#include "cadence/sdl3_pacing.hpp"

#define SDL_MAIN_HANDLED  // SDL_EnterAppMainCallbacks, and no main() of SDL's
#include <SDL3/SDL.h>
#include <SDL3/SDL_main.h>
#include <gtest/gtest.h>
#include <imgui.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <thread>
#include <vector>

#include "../common/headless_imgui.hpp"
#include "../common/wake_watchdog.hpp"
#include "cadence/manual_clock.hpp"

namespace cadence {
namespace {

using namespace std::chrono_literals;

using test::headless_imgui;

class Sdl3OwnLoop : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(SDL_Init(SDL_INIT_VIDEO)) << SDL_GetError() << " (needs a display: xvfb-run)";
    window = SDL_CreateWindow("own loop", 320, 240, 0);
    ASSERT_NE(window, nullptr) << SDL_GetError();
    imgui = headless_imgui();
    drain();
  }
  void TearDown() override {
    pacing.reset();
    if (imgui != nullptr) ImGui::DestroyContext(imgui);
    if (window != nullptr) SDL_DestroyWindow(window);
    SDL_Quit();
  }
  void paced() {
    PacerOptions o;
    o.time_source = clock.source();
    o.runtime.frame_interval = 16ms;
    auto p = Sdl3Pacing::create(window, o);
    ASSERT_TRUE(p.ok()) << p.error().message;
    pacing = std::move(*p);
  }
  // The app's own event loop. Returns how many events there were.
  static int drain() {
    int n = 0;
    SDL_Event e;
    while (SDL_PollEvent(&e)) ++n;
    return n;
  }
  void draw() {
    ImGui::GetIO().DeltaTime = 1.0f / 60.0f;
    pacing->new_frame();
    ImGui::Text("hello");
    pacing->render();
  }
  // One iteration of the loop, when the pacer has something due within 100 ms (the clock jumps
  // there). True when it drew.
  bool iterate() {
    drain();
    const std::optional<Duration> wake = pacing->pacer().next_wake();
    if (!wake || *wake > 100ms) return false;
    (void)clock.advance(*wake);
    if (!pacing->wait()) return false;
    draw();
    return true;
  }
  int settle() {
    int drawn = 0;
    for (int i = 0; i < 100 && pacing->pacer().next_wake() && *pacing->pacer().next_wake() <= 100ms; ++i) {
      drawn += iterate() ? 1 : 0;
    }
    return drawn;
  }
  void push_window_event(SDL_EventType type) const {
    SDL_Event e{};
    e.type = type;
    e.window.windowID = SDL_GetWindowID(window);
    ASSERT_TRUE(SDL_PushEvent(&e)) << SDL_GetError();
  }

  ManualClock clock;
  SDL_Window* window = nullptr;
  ImGuiContext* imgui = nullptr;
  std::unique_ptr<Sdl3Pacing> pacing;
};

TEST_F(Sdl3OwnLoop, AKeyEventMakesTheAppsLoopHandleItFirstThenDraws) {
  paced();
  EXPECT_GT(settle(), 0);
  EXPECT_EQ(pacing->pacer().next_wake(), std::nullopt) << "at rest";
  SDL_Event key{};
  key.type = SDL_EVENT_KEY_DOWN;
  key.key.windowID = SDL_GetWindowID(window);
  key.key.scancode = SDL_SCANCODE_A;
  key.key.key = SDLK_A;
  key.key.down = true;
  ASSERT_TRUE(SDL_PushEvent(&key));
  EXPECT_EQ(pacing->pacer().next_wake(), Duration::zero()) << "the watch saw it as SDL queued it";
  EXPECT_FALSE(pacing->wait()) << "the event is the app's to handle before a frame";
  EXPECT_EQ(drain(), 1);
  EXPECT_TRUE(pacing->wait()) << "then the frame that shows it";
}

TEST_F(Sdl3OwnLoop, AKeyForAnotherWindowIsNotItsInput) {
  paced();
  (void)settle();
  SDL_Window* other = SDL_CreateWindow("other", 64, 64, 0);
  ASSERT_NE(other, nullptr) << SDL_GetError();
  drain();
  (void)settle();
  SDL_Event key{};
  key.type = SDL_EVENT_KEY_DOWN;
  key.key.windowID = SDL_GetWindowID(other);
  key.key.down = true;
  ASSERT_TRUE(SDL_PushEvent(&key));
  EXPECT_EQ(pacing->pacer().next_wake(), std::nullopt) << "the other window's key";
  SDL_DestroyWindow(other);
}

TEST_F(Sdl3OwnLoop, AWorkersPostWakesTheWaitAndIsDrawn) {
  paced();
  (void)settle();
  int shown = 0;
  ASSERT_TRUE(pacing->runtime()
                  .start_thread(ThreadId::unique(), Thread::create(0, &shown, [](int, ThreadSender<int*>& out, ThreadReceiver&) {
                    out.write_back(7, [](int*& s, int& v, CallbackContext&) {
                      *s = v;
                      return Update::redraw_window;
                    });
                  }))
                  .ok());
  // Nothing is scheduled: the wait sleeps until the worker's wake-up event (real time). Should
  // none come, a watchdog's event ends the wait after 20 s.
  test::WakeWatchdog watchdog(
      [] {
        SDL_Event e{};
        e.type = SDL_EVENT_USER;
        (void)SDL_PushEvent(&e);
      },
      20s);
  const std::uint64_t drawn = pacing->pacer().stats().frames_drawn;
  bool woken_by_watchdog = false;
  for (int i = 0; i < 50 && shown == 0 && !woken_by_watchdog; ++i) {
    if (pacing->wait()) draw();
    SDL_Event e;
    while (SDL_PollEvent(&e)) woken_by_watchdog = woken_by_watchdog || e.type == SDL_EVENT_USER;
  }
  EXPECT_EQ(shown, 7);
  EXPECT_GT(pacing->pacer().stats().frames_drawn, drawn);
  // Once the worker is gone (its end is a post too), a wait() takes the wake-ups it queued out of
  // SDL's queue: the app's loop is left none.
  while (pacing->runtime().thread_count() > 0 && !woken_by_watchdog) {
    if (pacing->wait()) draw();
    SDL_Event e;
    while (SDL_PollEvent(&e)) woken_by_watchdog = woken_by_watchdog || e.type == SDL_EVENT_USER;
  }
  EXPECT_FALSE(watchdog.done()) << "the worker's posts never woke the wait";
  pacing->pacer().request_redraw();  // so that this wait() does not sleep
  (void)pacing->wait();
  SDL_Event e;
  while (SDL_PollEvent(&e)) EXPECT_NE(e.type, pacing->wake_event_type()) << "its wake-ups are flushed";
}

// Apps push SDL_EVENT_USER without registering it, and cadence's wake-ups must not take those
// out of the queue (each test runs in a process of its own under ctest: cadence registers first).
TEST_F(Sdl3OwnLoop, AnUnregisteredUserEventTheAppPushesReachesItsLoop) {
  paced();
  EXPECT_NE(pacing->wake_event_type(), static_cast<unsigned>(SDL_EVENT_USER));
  (void)settle();
  SDL_Event mine{};
  mine.type = SDL_EVENT_USER;
  mine.user.code = 42;
  ASSERT_TRUE(SDL_PushEvent(&mine));
  EXPECT_FALSE(pacing->wait()) << "the app's event waits in the queue";
  SDL_Event e;
  int seen = 0;
  while (SDL_PollEvent(&e)) seen += e.type == SDL_EVENT_USER && e.user.code == 42 ? 1 : 0;
  EXPECT_EQ(seen, 1);
}

// An app that makes Sdl3Pacings again and again (a window per document) does not use up SDL's
// user event types: one is registered for cadence, once per process.
TEST_F(Sdl3OwnLoop, MadeAgainItWakesWithTheSameEventType) {
  const Uint32 before = SDL_RegisterEvents(1);
  paced();
  const unsigned first = pacing->wake_event_type();
  for (int i = 0; i < 3; ++i) {
    pacing.reset();
    paced();
    EXPECT_EQ(pacing->wake_event_type(), first);
  }
  const Uint32 after = SDL_RegisterEvents(1);
  EXPECT_LE(after - before, 3u) << "at most its one type (and SDL_EVENT_USER, skipped) since the app's";
}

// Minimized, hidden or covered whole by other windows, the window draws nothing, and each ends
// on its own: exposed while still minimized, it stays at rest.
TEST_F(Sdl3OwnLoop, AWindowThatCannotBeSeenDrawsNothingAndSeenAgainDrawsAtOnce) {
  paced();
  (void)settle();
  const struct {
    SDL_EventType unseen, seen;
  } cases[] = {{SDL_EVENT_WINDOW_MINIMIZED, SDL_EVENT_WINDOW_RESTORED},
               {SDL_EVENT_WINDOW_OCCLUDED, SDL_EVENT_WINDOW_EXPOSED},
               {SDL_EVENT_WINDOW_HIDDEN, SDL_EVENT_WINDOW_SHOWN},
               // SDL clears the minimized state when a window is shown (a tray restore: no RESTORED)
               {SDL_EVENT_WINDOW_MINIMIZED, SDL_EVENT_WINDOW_SHOWN}};
  for (const auto& c : cases) {
    push_window_event(c.unseen);
    EXPECT_TRUE(pacing->pacer().is_hidden()) << SDL_GetError();
    drain();
    pacing->pacer().request_redraw();
    EXPECT_EQ(pacing->pacer().next_wake(), std::nullopt) << "it cannot be seen: nothing to draw";
    push_window_event(c.seen);
    EXPECT_FALSE(pacing->pacer().is_hidden());
    EXPECT_EQ(pacing->pacer().next_wake(), Duration::zero());
    drain();
    (void)settle();
  }
  push_window_event(SDL_EVENT_WINDOW_MINIMIZED);
  push_window_event(SDL_EVENT_WINDOW_OCCLUDED);
  push_window_event(SDL_EVENT_WINDOW_EXPOSED);
  EXPECT_TRUE(pacing->pacer().is_hidden()) << "exposed, but still minimized";
  push_window_event(SDL_EVENT_WINDOW_RESTORED);
  EXPECT_FALSE(pacing->pacer().is_hidden());
}

TEST_F(Sdl3OwnLoop, AWindowMadeHiddenStartsAtRest) {
  SDL_Window* hidden = SDL_CreateWindow("hidden", 64, 64, SDL_WINDOW_HIDDEN);
  ASSERT_NE(hidden, nullptr) << SDL_GetError();
  auto p = Sdl3Pacing::create(hidden);
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_TRUE((*p)->pacer().is_hidden()) << "SDL says the window is hidden";
  p->reset();
  SDL_DestroyWindow(hidden);
}

TEST_F(Sdl3OwnLoop, BadInputIsAClearErrorAndChangesNothing) {
  auto none = Sdl3Pacing::create(nullptr);
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().code, Errc::invalid_argument);
  EXPECT_NE(none.error().message.find("SDL_CreateWindow"), std::string::npos) << none.error().message;
  ImGui::SetCurrentContext(nullptr);
  auto no_context = Sdl3Pacing::create(window);
  ASSERT_FALSE(no_context.ok());
  EXPECT_NE(no_context.error().message.find("ImGui::CreateContext"), std::string::npos) << no_context.error().message;
  ImGui::SetCurrentContext(imgui);
  paced();
  auto twice = Sdl3Pacing::create(window);
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(twice.error().code, Errc::already_exists);
  EXPECT_EQ(FramePacer::of(imgui), &pacing->pacer());
}

// poll() sets an SDL timer for the next instant (Sdl3MainCallbacks shows it rings); a pacing
// destroyed before it rings takes it along: no wake-up comes for a pacing that is gone.
TEST_F(Sdl3OwnLoop, DestroyedAfterPollItsWakeUpTimerGoesWithIt) {
  auto p = Sdl3Pacing::create(window);  // on the system clock: SDL's timers run in real time
  ASSERT_TRUE(p.ok()) << p.error().message;
  Sdl3Pacing& pacing3 = **p;
  const unsigned wake = pacing3.wake_event_type();
  ASSERT_TRUE(pacing3.runtime().add_timer(TimerId::unique(), Timer::once(600ms, [](TimerCallbackInfo&) {})).ok());
  // The start-up frames, each on its own wake-up, until what comes next is the timer.
  const auto give_up = std::chrono::steady_clock::now() + 20s;
  while (std::chrono::steady_clock::now() < give_up) {
    if (pacing3.poll()) {
      pacing3.new_frame();
      pacing3.render();
    }
    const std::optional<Duration> next = pacing3.pacer().next_wake();
    if (next && *next > 400ms) break;
    (void)SDL_WaitEventTimeout(nullptr, 100);
    drain();
  }
  ASSERT_GT(pacing3.pacer().next_wake().value_or(Duration::zero()), 400ms) << "settled, the timer next";
  drain();  // a wake-up a frame's own timer queued before render() replaced it
  const auto armed = std::chrono::steady_clock::now();
  p->reset();
  // Well past the timer's instant: cadence's wake-up would be in the queue by then.
  int wakes = 0;
  SDL_Event e;
  while (std::chrono::steady_clock::now() < armed + 1s) {
    if (SDL_WaitEventTimeout(&e, 50)) wakes += e.type == wake ? 1 : 0;
  }
  EXPECT_EQ(wakes, 0) << "a wake-up for a pacing that is gone";
}

// poll()'s timer rings on SDL's clock, which need not agree with the pacer's (a manual one here;
// NTP's slewing makes steady_clock and SDL's raw clock drift apart too): a timer that has rung
// is gone, and poll() sets a new one for an instant still ahead, never counts on the old one.
TEST_F(Sdl3OwnLoop, OnceItsTimerRangPollSetsANewOneForAnInstantStillAhead) {
  paced();  // a manual clock that nobody moves: the instant stays 60 ms ahead
  (void)settle();
  ASSERT_TRUE(pacing->runtime().add_timer(TimerId::unique(), Timer::once(60ms, [](TimerCallbackInfo&) {})).ok());
  const unsigned wake = pacing->wake_event_type();
  const auto rings = [wake] {  // within a generous deadline
    const auto until = std::chrono::steady_clock::now() + 10s;
    SDL_Event e;
    while (std::chrono::steady_clock::now() < until) {
      if (SDL_WaitEventTimeout(&e, 100) && e.type == wake) return true;
    }
    return false;
  };
  ASSERT_FALSE(pacing->poll()) << "nothing due";
  ASSERT_TRUE(rings()) << "the timer poll() set";
  ASSERT_FALSE(pacing->poll()) << "the clock has not moved: still nothing due";
  EXPECT_TRUE(rings()) << "poll() kept the timer that had rung: SDL would wait for good";
}

// SDL3's main callbacks with "waitevent": SDL calls SDL_AppIterate only after an event. With
// nothing but cadence to wake it, a timer due in 150 ms (system clock), a worker's post and the
// frames they ask for all come, and SDL waits between them: poll()'s timer and the runtime's
// waker are the only events.
struct CallbackApp {
  SDL_Window* window = nullptr;
  ImGuiContext* imgui = nullptr;
  std::unique_ptr<Sdl3Pacing> pacing;
  int iterations = 0;
  int frames = 0;
  std::vector<std::chrono::steady_clock::time_point> fired;  // the timer's runs
  int shown = 0;                                             // the worker's value, as drawn
  int value = 0;                                             // the worker's value, written back
  std::chrono::steady_clock::time_point due;
  bool watchdog_fired = false;
  SDL_TimerID watchdog = 0;
};

CallbackApp* current_app = nullptr;  // the app SDL_EnterAppMainCallbacks runs

SDL_AppResult app_init(void** state, int, char**) {
  *state = current_app;
  CallbackApp& app = *current_app;
  SDL_SetHint(SDL_HINT_MAIN_CALLBACK_RATE, "waitevent");
  if (!SDL_Init(SDL_INIT_VIDEO)) return SDL_APP_FAILURE;
  app.window = SDL_CreateWindow("callbacks", 320, 240, 0);
  if (app.window == nullptr) return SDL_APP_FAILURE;
  app.imgui = headless_imgui();
  auto p = Sdl3Pacing::create(app.window);
  if (!p) return SDL_APP_FAILURE;
  app.pacing = std::move(*p);
  // The watchdog: a quit event after 20 s, should cadence never wake SDL.
  app.watchdog = SDL_AddTimer(
      20000,
      [](void* a, SDL_TimerID, Uint32) -> Uint32 {
        static_cast<CallbackApp*>(a)->watchdog_fired = true;
        SDL_Event quit{};
        quit.type = SDL_EVENT_QUIT;
        (void)SDL_PushEvent(&quit);
        return 0;
      },
      &app);
  app.due = std::chrono::steady_clock::now() + 150ms;
  (void)app.pacing->runtime().add_timer(TimerId::unique(), Timer::once(150ms, [&app](TimerCallbackInfo& info) {
    app.fired.push_back(std::chrono::steady_clock::now());
    // A worker whose result is written back once it runs: its post is the next wake-up.
    (void)info.context.start_thread(
        ThreadId::unique(), Thread::create(0, &app.value, [](int, ThreadSender<int*>& out, ThreadReceiver&) {
          out.write_back(7, [](int*& v, int& got, CallbackContext&) {
            *v = got;
            return Update::redraw_window;
          });
        }));
  }));
  return SDL_APP_CONTINUE;
}

SDL_AppResult app_iterate(void* state) {
  auto& app = *static_cast<CallbackApp*>(state);
  ++app.iterations;
  if (!app.pacing->poll()) return SDL_APP_CONTINUE;
  ++app.frames;
  app.pacing->new_frame();
  ImGui::Text("%d", app.value);
  app.shown = app.value;
  app.pacing->render();
  return app.shown == 7 ? SDL_APP_SUCCESS : SDL_APP_CONTINUE;  // done once the worker's result is drawn
}

SDL_AppResult app_event(void*, SDL_Event* e) { return e->type == SDL_EVENT_QUIT ? SDL_APP_SUCCESS : SDL_APP_CONTINUE; }

void app_quit(void* state, SDL_AppResult) {
  auto& app = *static_cast<CallbackApp*>(state);
  if (app.watchdog != 0) (void)SDL_RemoveTimer(app.watchdog);
  app.pacing.reset();
  if (app.imgui != nullptr) ImGui::DestroyContext(app.imgui);
  if (app.window != nullptr) SDL_DestroyWindow(app.window);
}

TEST(Sdl3MainCallbacks, WaitingForEventsTheAppIsWokenForEachInstantAndPostAndIdlesBetween) {
  CallbackApp app;
  current_app = &app;
  char name[] = "sdl3_pacing_test";
  char* argv[] = {name, nullptr};
  EXPECT_EQ(SDL_EnterAppMainCallbacks(1, argv, app_init, app_iterate, app_event, app_quit), 0) << SDL_GetError();
  SDL_Quit();
  EXPECT_FALSE(app.watchdog_fired) << "SDL waited 20 s: no wake-up came for cadence's instants";
  ASSERT_EQ(app.fired.size(), 1u) << "the timer ran once";
  EXPECT_GE(app.fired[0], app.due) << "not before its instant";
  EXPECT_EQ(app.shown, 7) << "the worker's result was drawn";
  // The start-up frames, the timer's, the worker's: each a handful of iterations, not a spin.
  EXPECT_LE(app.iterations, 60) << app.frames << " frames drawn";
  EXPECT_GE(app.frames, 2);
  if (!app.fired.empty()) {
    std::printf("main callbacks: %d iterations, %d frames drawn; the 150 ms timer ran %.2f ms late\n", app.iterations,
                app.frames, std::chrono::duration<double, std::milli>(app.fired[0] - app.due).count());
  }
}

}  // namespace
}  // namespace cadence
