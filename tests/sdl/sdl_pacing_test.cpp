// SdlPacing (sdl_pacing.hpp) in an app's own SDL2 + ImGui setup, as Dear ImGui's SDL2 example
// makes it, driven by hand on a manual clock: what counts as input, what wakes the wait, and
// bad input that changes nothing.
#include "cadence/sdl_pacing.hpp"

#include <SDL.h>
#include <backends/imgui_impl_opengl3.h>
#include <gtest/gtest.h>
#include <imgui.h>

#include "cadence/imgui_features.hpp"
#include CADENCE_IMGUI_IMPL_SDL2

#include <memory>
#include <thread>

#include "../common/wake_watchdog.hpp"
#include "cadence/manual_clock.hpp"
#include "sdl_events.hpp"
#include "wait_ms.hpp"

namespace cadence {
namespace {

using namespace std::chrono_literals;

class SdlOwnLoop : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(SDL_Init(SDL_INIT_VIDEO), 0) << SDL_GetError() << " (needs a display: xvfb-run)";
    window = SDL_CreateWindow("own loop", 0, 0, 320, 240, SDL_WINDOW_OPENGL | SDL_WINDOW_HIDDEN);
    ASSERT_NE(window, nullptr) << SDL_GetError();
    gl = SDL_GL_CreateContext(window);
    ASSERT_NE(gl, nullptr) << SDL_GetError();
    imgui = ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;
    ImGui_ImplSDL2_InitForOpenGL(window, gl);
    ImGui_ImplOpenGL3_Init("#version 130");
    drain();
  }
  void TearDown() override {
    pacing.reset();
    if (imgui != nullptr) {
      ImGui_ImplOpenGL3_Shutdown();
      ImGui_ImplSDL2_Shutdown();
      ImGui::DestroyContext(imgui);
    }
    if (gl != nullptr) SDL_GL_DeleteContext(gl);
    if (window != nullptr) SDL_DestroyWindow(window);
    SDL_Quit();
  }
  void paced() {
    PacerOptions o;
    o.time_source = clock.source();
    o.runtime.frame_interval = 16ms;
    auto p = SdlPacing::create(window, o);
    ASSERT_TRUE(p.ok()) << p.error().message;
    pacing = std::move(*p);
  }
  // The app's own event loop: every queued event to ImGui. Returns how many there were.
  int drain() {
    int n = 0;
    SDL_Event e;
    while (SDL_PollEvent(&e)) {
      ImGui_ImplSDL2_ProcessEvent(&e);
      ++n;
    }
    return n;
  }
  // One iteration of the example's loop, when the pacer has something due within 100 ms (the
  // clock jumps there). True when it drew.
  bool iterate() {
    drain();
    const std::optional<Duration> wake = pacing->pacer().next_wake();
    if (!wake || *wake > 100ms) return false;
    (void)clock.advance(*wake);
    if (!pacing->wait()) return false;
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplSDL2_NewFrame();
    pacing->new_frame();
    ImGui::Text("hello");
    pacing->render();
    return true;
  }
  int settle() {
    int drawn = 0;
    for (int i = 0; i < 100 && pacing->pacer().next_wake() && *pacing->pacer().next_wake() <= 100ms; ++i) {
      drawn += iterate() ? 1 : 0;
    }
    return drawn;
  }
  void push_key() {
    SDL_Event key{};
    key.type = SDL_KEYDOWN;
    key.key.windowID = SDL_GetWindowID(window);
    key.key.keysym.scancode = SDL_SCANCODE_A;
    key.key.keysym.sym = SDLK_a;
    SDL_PushEvent(&key);
  }

  ManualClock clock;
  SDL_Window* window = nullptr;
  SDL_GLContext gl = nullptr;
  ImGuiContext* imgui = nullptr;
  std::unique_ptr<SdlPacing> pacing;
};

TEST_F(SdlOwnLoop, AKeyEventMakesTheAppsLoopHandleItFirstThenDraws) {
  paced();
  EXPECT_GT(settle(), 0);
  EXPECT_EQ(pacing->pacer().next_wake(), std::nullopt) << "at rest";
  push_key();
  EXPECT_EQ(pacing->pacer().next_wake(), Duration::zero()) << "the watch saw it as SDL queued it";
  EXPECT_FALSE(pacing->wait()) << "the event is the app's to handle before a frame";
  EXPECT_EQ(drain(), 1);
  EXPECT_TRUE(pacing->wait()) << "then the frame that shows it";
}

TEST_F(SdlOwnLoop, SdlsPollMarkersAreNotInput) {
  paced();
  (void)settle();
  for (int i = 0; i < 5; ++i) (void)drain();  // each SDL_PollEvent cycle queues a marker
  EXPECT_EQ(pacing->pacer().next_wake(), std::nullopt);
}

TEST_F(SdlOwnLoop, AWorkersPostWakesTheWaitAndIsDrawn) {
  paced();
  (void)settle();
  int shown = 0;
  const ThreadId id = ThreadId::unique();
  ASSERT_TRUE(pacing->runtime()
                  .start_thread(id, Thread::create(0, &shown, [](int, ThreadSender<int*>& out, ThreadReceiver&) {
                    out.write_back(7, [](int*& s, int& v, CallbackContext&) {
                      *s = v;
                      return Update::redraw_window;
                    });
                  }))
                  .ok());
  // Nothing is scheduled: the wait sleeps until the worker's wake-up event (real time). Should
  // none come, a watchdog's event ends each wait after 20 s, and the loop after 50 of them.
  test::WakeWatchdog watchdog(
      [] {
        SDL_Event e{};
        e.type = SDL_USEREVENT;
        SDL_PushEvent(&e);
      },
      20s);
  const std::uint64_t drawn = pacing->pacer().stats().frames_drawn;
  bool woken_by_watchdog = false;
  const auto drain_watching = [&woken_by_watchdog] {
    SDL_Event e;
    while (SDL_PollEvent(&e)) woken_by_watchdog = woken_by_watchdog || e.type == SDL_USEREVENT;
  };
  for (int i = 0; i < 50 && shown == 0 && !woken_by_watchdog; ++i) {
    if (pacing->wait()) {
      ImGui_ImplOpenGL3_NewFrame();
      ImGui_ImplSDL2_NewFrame();
      pacing->new_frame();
      ImGui::Text("%d", shown);
      pacing->render();
    }
    drain_watching();
  }
  EXPECT_EQ(shown, 7);
  EXPECT_GT(pacing->pacer().stats().frames_drawn, drawn);
  // Once the worker is gone (its end is a post too), a wait() takes the wake-ups it queued out of
  // SDL's queue: the app's loop is left none.
  while (pacing->runtime().thread_count() > 0 && !woken_by_watchdog) {
    (void)pacing->wait();
    drain_watching();
  }
  EXPECT_FALSE(watchdog.done()) << "the worker's posts never woke the wait";
  pacing->pacer().request_redraw();  // so that this wait() does not sleep
  (void)pacing->wait();
  SDL_Event e;
  while (SDL_PollEvent(&e)) EXPECT_NE(e.type, pacing->wake_event_type()) << "its wake-ups are flushed";
}

TEST_F(SdlOwnLoop, AnEventFromAnotherThreadDrawsAndTheWakeTypeIsItsOwn) {
  const Uint32 apps = SDL_RegisterEvents(1);
  paced();
  EXPECT_NE(pacing->wake_event_type(), apps) << "never a type the app registered";
  (void)settle();
  std::thread([apps] {
    SDL_Event mine{};
    mine.type = apps;
    SDL_PushEvent(&mine);
  }).join();
  EXPECT_FALSE(pacing->wait()) << "the app's event waits in the queue";
  EXPECT_EQ(drain(), 1);
  EXPECT_TRUE(pacing->wait());
}

// Apps push SDL_USEREVENT without registering it, and cadence's own wake-ups must not take
// those out of the queue: the first type SDL_RegisterEvents hands out is SDL_USEREVENT itself
// (each test runs in a process of its own under ctest, so cadence registers first here).
TEST_F(SdlOwnLoop, AnUnregisteredUserEventTheAppPushesReachesItsLoop) {
  paced();
  EXPECT_NE(pacing->wake_event_type(), static_cast<unsigned>(SDL_USEREVENT));
  (void)settle();
  SDL_Event mine{};
  mine.type = SDL_USEREVENT;
  mine.user.code = 42;
  SDL_PushEvent(&mine);
  EXPECT_FALSE(pacing->wait()) << "the app's event waits in the queue";
  SDL_Event e;
  int seen = 0;
  while (SDL_PollEvent(&e)) seen += e.type == SDL_USEREVENT && e.user.code == 42 ? 1 : 0;
  EXPECT_EQ(seen, 1);
}

// An app that makes SdlPacings again and again (a window per document) does not use up SDL's
// user event types: one is registered for cadence, once.
TEST_F(SdlOwnLoop, MadeAgainItWakesWithTheSameEventType) {
  const Uint32 before = SDL_RegisterEvents(1);
  paced();
  const unsigned first = pacing->wake_event_type();
  for (int i = 0; i < 3; ++i) {
    pacing.reset();
    paced();
    EXPECT_EQ(pacing->wake_event_type(), first);
  }
  const Uint32 after = SDL_RegisterEvents(1);
  EXPECT_LE(after - before, 3u) << "at most its one type (and SDL_USEREVENT, skipped) since the app's";
}

TEST_F(SdlOwnLoop, AMinimizedWindowDrawsNothingAndRestoredDrawsAtOnce) {
  paced();
  (void)settle();
  SDL_Event e{};
  e.type = SDL_WINDOWEVENT;
  e.window.windowID = SDL_GetWindowID(window);
  e.window.event = SDL_WINDOWEVENT_MINIMIZED;
  SDL_PushEvent(&e);
  EXPECT_TRUE(pacing->pacer().is_hidden());
  drain();
  pacing->pacer().request_redraw();
  EXPECT_EQ(pacing->pacer().next_wake(), std::nullopt) << "hidden: nothing to draw";
  e.window.event = SDL_WINDOWEVENT_RESTORED;
  SDL_PushEvent(&e);
  EXPECT_FALSE(pacing->pacer().is_hidden());
  EXPECT_EQ(pacing->pacer().next_wake(), Duration::zero());
}

// A loop that paces two windows, each with its ImGui context.
class SdlTwoWindows : public SdlOwnLoop {
 protected:
  void SetUp() override {
    SdlOwnLoop::SetUp();
    paced();
    second_window = SDL_CreateWindow("second", 0, 0, 64, 64, SDL_WINDOW_OPENGL | SDL_WINDOW_HIDDEN);
    ASSERT_NE(second_window, nullptr) << SDL_GetError();
    second_imgui = ImGui::CreateContext();
    ImGui::SetCurrentContext(second_imgui);
    auto p = SdlPacing::create(second_window);
    ImGui::SetCurrentContext(imgui);
    ASSERT_TRUE(p.ok()) << p.error().message;
    second = std::move(*p);
    drain();
    (void)settle();
    ASSERT_EQ(pacing->pacer().next_wake(), std::nullopt) << "at rest";
  }
  void TearDown() override {
    second.reset();
    if (second_imgui != nullptr) ImGui::DestroyContext(second_imgui);
    ImGui::SetCurrentContext(imgui);
    if (second_window != nullptr) SDL_DestroyWindow(second_window);
    SdlOwnLoop::TearDown();
  }
  SDL_Window* second_window = nullptr;
  ImGuiContext* second_imgui = nullptr;
  std::unique_ptr<SdlPacing> second;
};

TEST_F(SdlTwoWindows, AnEventForOneWindowIsNotTheOthersInput) {
  SDL_Event key{};
  key.type = SDL_KEYDOWN;
  key.key.windowID = SDL_GetWindowID(second_window);
  key.key.keysym.scancode = SDL_SCANCODE_A;
  SDL_PushEvent(&key);
  EXPECT_EQ(pacing->pacer().next_wake(), std::nullopt) << "the second window's key is not the first's input";
  EXPECT_EQ(second->pacer().next_wake(), Duration::zero());
}

// SDL waits for every window's events at once: one window's wait() must not sleep while the
// other has a frame due (it used to sleep until the next event).
TEST_F(SdlTwoWindows, OneWindowsWaitSleepsNoLongerThanTheOtherNeeds) {
  second->pacer().request_redraw();
  // A watchdog wakes SDL if the first wait() sleeps through the second window's frame.
  test::WakeWatchdog watchdog(
      [] {
        SDL_Event e{};
        e.type = SDL_USEREVENT;
        SDL_PushEvent(&e);
      },
      10s);
  EXPECT_FALSE(pacing->wait()) << "nothing to draw in the first window";
  EXPECT_FALSE(watchdog.done()) << "the first wait() slept while the second window had a frame due";
  EXPECT_TRUE(second->wait()) << "the second window draws";
}

TEST_F(SdlOwnLoop, BadInputIsAClearErrorAndChangesNothing) {
  auto none = SdlPacing::create(nullptr);
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().code, Errc::invalid_argument);
  EXPECT_NE(none.error().message.find("SDL_CreateWindow"), std::string::npos) << none.error().message;
  ImGui::SetCurrentContext(nullptr);
  auto no_context = SdlPacing::create(window);
  ASSERT_FALSE(no_context.ok());
  EXPECT_NE(no_context.error().message.find("ImGui::CreateContext"), std::string::npos) << no_context.error().message;
  ImGui::SetCurrentContext(imgui);
  paced();
  auto twice = SdlPacing::create(window);
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(twice.error().code, Errc::already_exists);
  EXPECT_EQ(FramePacer::of(imgui), &pacing->pacer());
}

// The pacer never renders: a window without OpenGL (an SDL_Renderer app, or Vulkan) is paced
// the same, frame after frame.
TEST(SdlPacingWithoutOpenGl, AWindowWithNoOpenGlContextIsPacedAndItsFramesBuilt) {
  ASSERT_EQ(SDL_Init(SDL_INIT_VIDEO), 0) << SDL_GetError() << " (needs a display: xvfb-run)";
  SDL_Window* window = SDL_CreateWindow("no OpenGL", 0, 0, 320, 240, SDL_WINDOW_HIDDEN);
  ASSERT_NE(window, nullptr) << SDL_GetError();
  ImGuiContext* imgui = ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.DisplaySize = ImVec2(320, 240);
  unsigned char* pixels = nullptr;
  int w = 0, h = 0;
  io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);  // what a renderer backend would upload
  ManualClock clock;
  PacerOptions o;
  o.time_source = clock.source();
  o.runtime.frame_interval = 16ms;
  {
    auto p = SdlPacing::create(window, o);
    ASSERT_TRUE(p.ok()) << p.error().message;
    SdlPacing& pacing = **p;
    int drawn = 0;
    for (int i = 0; i < 10 && pacing.pacer().next_wake(); ++i) {
      (void)clock.advance(*pacing.pacer().next_wake());
      SDL_Event e;
      while (SDL_PollEvent(&e)) {
      }
      if (!pacing.wait()) continue;
      pacing.new_frame();
      ImGui::Text("no OpenGL here");
      pacing.render();
      ASSERT_NE(ImGui::GetDrawData(), nullptr);
      ++drawn;
    }
    EXPECT_GE(drawn, 2) << "the start-up frames";
    EXPECT_EQ(pacing.pacer().next_wake(), std::nullopt) << "then it rests";
  }
  ImGui::DestroyContext(imgui);
  SDL_DestroyWindow(window);
  SDL_Quit();
}

// What SDL_WaitEventTimeout gets: never a sleep that ends before the instant (which would
// wake, find nothing due and wait again), never a negative one, never one that overflows.
TEST(SdlWaitLength, RoundsUpClampsAndMeansForeverForNone) {
  using detail::wait_ms;
  EXPECT_EQ(wait_ms(std::nullopt), -1);
  EXPECT_EQ(wait_ms(Duration::zero()), 0);
  EXPECT_EQ(wait_ms(-5s), 0);
  EXPECT_EQ(wait_ms(Duration::min()), 0);
  EXPECT_EQ(wait_ms(1ns), 1);
  EXPECT_EQ(wait_ms(300us), 1);
  EXPECT_EQ(wait_ms(1ms), 1);
  EXPECT_EQ(wait_ms(1ms + 1ns), 2);
  EXPECT_EQ(wait_ms(std::chrono::hours(24 * 365)), 1'000'000'000);
  EXPECT_EQ(wait_ms(Duration::max()), 1'000'000'000);
}

}  // namespace
}  // namespace cadence
