// An own SDL3 loop with a gamepad connected (SDL's virtual joystick, as a gamepad), measured in
// real time: cadence's own wake-ups (wait() returning), the frames drawn, and the CPU the
// process spends (getrusage: SDL's threads and its wait included). While a joystick is open,
// SDL's SDL_WaitEventTimeout polls it every millisecond instead of sleeping (SDL's rule, to
// read joysticks that have no event to wake it): that costs CPU, never a wake-up of cadence's
// own. A stick that drifts inside its dead zone sends axis events that change nothing ImGui
// shows. Prints the figures (docs/own_loop.md quotes them).
#include "cadence/sdl3_pacing.hpp"

#include <SDL3/SDL.h>
#include <gtest/gtest.h>
#include <imgui.h>

#include <chrono>
#include <cstdio>
#include <memory>

#include "../common/cpu_seconds.hpp"
#include "../common/headless_imgui.hpp"

namespace cadence {
namespace {

using namespace std::chrono_literals;

using test::cpu_seconds;

struct Idle {
  int axis_events = 0;  // gamepad axis events the app's loop saw
  double wakeups_per_second = 0;
  double frames_per_second = 0;
  double cpu_percent = 0;
};

class Sdl3Gamepad : public ::testing::Test {
 protected:
  void SetUp() override {
    // SDL drops an unfocused app's joystick events, and a compositor without a seat (the
    // headless weston of scripts/test's Wayland runs) never focuses a window.
    SDL_SetHint(SDL_HINT_JOYSTICK_ALLOW_BACKGROUND_EVENTS, "1");
    ASSERT_TRUE(SDL_Init(SDL_INIT_VIDEO | SDL_INIT_GAMEPAD)) << SDL_GetError() << " (needs a display: xvfb-run)";
    window = SDL_CreateWindow("gamepad", 320, 240, 0);
    ASSERT_NE(window, nullptr) << SDL_GetError();
    imgui = test::headless_imgui();
    auto p = Sdl3Pacing::create(window);  // the system clock: measured in real time
    ASSERT_TRUE(p.ok()) << p.error().message;
    pacing = std::move(*p);
  }
  void TearDown() override {
    pacing.reset();
    if (pad != nullptr) SDL_CloseGamepad(pad);
    if (pad_id != 0) (void)SDL_DetachVirtualJoystick(pad_id);
    if (imgui != nullptr) ImGui::DestroyContext(imgui);
    if (window != nullptr) SDL_DestroyWindow(window);
    SDL_Quit();
  }
  // The app's loop for `length` of real time once at rest; a timer at the end wakes it.
  Idle idle(std::chrono::milliseconds length) {
    settle();
    bool over = false;
    EXPECT_TRUE(pacing->runtime().add_timer(TimerId::unique(), Timer::once(length, [&over](TimerCallbackInfo&) { over = true; })).ok());
    const std::uint64_t frames = pacing->pacer().stats().frames_drawn;
    const double cpu = cpu_seconds();
    const auto start = std::chrono::steady_clock::now();
    int wakeups = 0;
    Idle r;
    while (!over && std::chrono::steady_clock::now() < start + length + 5s) {
      SDL_Event e;
      while (SDL_PollEvent(&e)) r.axis_events += e.type == SDL_EVENT_GAMEPAD_AXIS_MOTION ? 1 : 0;
      const bool draw = pacing->wait();
      ++wakeups;
      if (draw) frame();
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    r.wakeups_per_second = wakeups / seconds;
    r.frames_per_second = static_cast<double>(pacing->pacer().stats().frames_drawn - frames) / seconds;
    r.cpu_percent = 100.0 * (cpu_seconds() - cpu) / seconds;
    return r;
  }
  void settle() {
    const auto give_up = std::chrono::steady_clock::now() + 10s;
    while (pacing->pacer().next_wake() && std::chrono::steady_clock::now() < give_up) {
      SDL_Event e;
      while (SDL_PollEvent(&e)) {
      }
      if (pacing->wait()) frame();
    }
  }
  void frame() {
    pacing->new_frame();
    ImGui::Text("hello");
    pacing->render();
  }
  void connect_pad() {
    SDL_VirtualJoystickDesc desc;
    SDL_INIT_INTERFACE(&desc);
    desc.type = SDL_JOYSTICK_TYPE_GAMEPAD;
    desc.naxes = SDL_GAMEPAD_AXIS_COUNT;
    desc.nbuttons = SDL_GAMEPAD_BUTTON_COUNT;
    desc.name = "cadence's virtual gamepad";
    pad_id = SDL_AttachVirtualJoystick(&desc);
    ASSERT_NE(pad_id, 0u) << SDL_GetError();
    pad = SDL_OpenGamepad(pad_id);  // as Dear ImGui's SDL3 backend opens the first one
    ASSERT_NE(pad, nullptr) << SDL_GetError();
    // A virtual pad's first update reports every axis, its triggers among them (news): once,
    // before anything is measured.
    ASSERT_TRUE(SDL_SetJoystickVirtualAxis(SDL_GetGamepadJoystick(pad), SDL_GAMEPAD_AXIS_LEFTX, 100));
    SDL_PumpEvents();
    settle();
  }

  SDL_Window* window = nullptr;
  ImGuiContext* imgui = nullptr;
  std::unique_ptr<Sdl3Pacing> pacing;
  SDL_JoystickID pad_id = 0;
  SDL_Gamepad* pad = nullptr;
};

void print(const char* what, const Idle& r) {
  std::printf("gamepad: %-46s %5.2f wake-ups/s, %6.2f frames/s, %5.2f %% of a core\n", what, r.wakeups_per_second,
              r.frames_per_second, r.cpu_percent);
}

TEST_F(Sdl3Gamepad, AConnectedGamepadCostsSdlsPollingButNoWakeUpOfCadences) {
  const Idle none = idle(1000ms);
  print("none connected", none);
  connect_pad();
  const Idle open = idle(1000ms);
  print("one connected and open, at rest", open);
  EXPECT_LE(none.wakeups_per_second, 2.5);
  EXPECT_LE(open.wakeups_per_second, 2.5) << "SDL polls the gamepad inside its wait: no wake-up of cadence's";
  EXPECT_LE(open.frames_per_second, 1.0) << "a gamepad at rest draws nothing";
}

// A stick that drifts inside its dead zone (ImGui's SDL3 backend ignores the first 8000 of
// 32767), as worn sticks do: SDL sends an axis event for every change.
TEST_F(Sdl3Gamepad, AStickDriftingInsideItsDeadZone) {
  connect_pad();
  struct Drift {
    SDL_Joystick* stick;
    int step = 0;
  };
  static Drift drift;  // static: SDL may still be running the callback as its timer is removed
  drift = Drift{SDL_GetGamepadJoystick(pad)};
  const SDL_TimerID timer = SDL_AddTimer(
      10,
      [](void* d, SDL_TimerID, Uint32 interval) -> Uint32 {
        auto& s = *static_cast<Drift*>(d);
        (void)SDL_SetJoystickVirtualAxis(s.stick, SDL_GAMEPAD_AXIS_LEFTX, static_cast<Sint16>(++s.step % 2 == 0 ? 900 : 1200));
        return interval;
      },
      &drift);
  const Idle drifting = idle(1000ms);
  (void)SDL_RemoveTimer(timer);
  print("one connected, its stick drifting every 10 ms", drifting);
  EXPECT_GT(drifting.axis_events, 50) << "the stick drifted";
  EXPECT_LE(drifting.frames_per_second, 1.0) << "a drift inside the dead zone shows nothing new: nothing drawn";
}

// What ImGui does read is input: a button, and a stick pushed out of its dead zone.
TEST_F(Sdl3Gamepad, AButtonOrAStickOutOfItsDeadZoneIsInput) {
  connect_pad();
  ASSERT_EQ(pacing->pacer().next_wake(), std::nullopt) << "at rest";
  SDL_Joystick* stick = SDL_GetGamepadJoystick(pad);
  ASSERT_TRUE(SDL_SetJoystickVirtualButton(stick, SDL_GAMEPAD_BUTTON_SOUTH, true));
  SDL_PumpEvents();  // SDL reads the pad, and queues its events
  EXPECT_EQ(pacing->pacer().next_wake(), Duration::zero()) << "a button";
  settle();
  ASSERT_TRUE(SDL_SetJoystickVirtualAxis(stick, SDL_GAMEPAD_AXIS_LEFTX, 20000));
  SDL_PumpEvents();
  EXPECT_EQ(pacing->pacer().next_wake(), Duration::zero()) << "a stick pushed out of its dead zone";
  settle();
  ASSERT_TRUE(SDL_SetJoystickVirtualAxis(stick, SDL_GAMEPAD_AXIS_LEFTX, 100));
  SDL_PumpEvents();
  EXPECT_EQ(pacing->pacer().next_wake(), Duration::zero()) << "and back into it";
}

}  // namespace
}  // namespace cadence
