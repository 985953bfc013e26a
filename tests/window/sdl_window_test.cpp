// The SDL2 backend's own paths, beside the suite both backends share: real SDL events reach the
// window they name through the loop, SDL_QUIT asks every window, wake-ups from another thread
// leave no memory behind, and the windows open at one time use one backend.
#include <GLFW/glfw3.h>
#include <SDL.h>
#include <gtest/gtest.h>
#include <imgui.h>

#include <chrono>
#include <cstring>
#include <optional>
#include <string>

#include "cadence/event_loop.hpp"
#include "sdl_wake_leak.hpp"
#include "window_fixture.hpp"

namespace cadence::testing {
namespace {

WindowOptions sdl_options(ManualClock* clock) {
  WindowOptions o = test_options(clock);
  o.backend = WindowBackend::sdl2;
  return o;
}

void push_window_event(Window& w, SDL_WindowEventID what) {
  SDL_Event e{};
  e.type = SDL_WINDOWEVENT;
  e.window.windowID = SDL_GetWindowID(w.sdl_window());
  e.window.event = static_cast<Uint8>(what);
  ASSERT_EQ(SDL_PushEvent(&e), 1) << SDL_GetError();
}

// SDL2's API on SDL3 (sdl2-compat, Debian testing's libsdl2): it says so with a patch level of 50
// or more.
bool sdl2_compat() {
  SDL_version v;
  SDL_GetVersion(&v);
  return v.major == 2 && v.patch >= 50;
}

// Runs loop iterations until `done` or 10 s of real time.
bool run_until(EventLoop& loop, const std::function<bool()>& done) {
  Result<bool> r = loop.run_until(done, std::chrono::seconds(10));
  return r.ok() && *r;
}

TEST(SdlWindowTest, TextAndKeysQueuedBySdlReachTheFocusedFieldOfTheWindowTheyName) {
  char text[32] = "";
  int drawn_after = 0;
  bool focus = true;
  auto made = open_window(sdl_options(nullptr), [&](Window&, CallbackContext&) {
    begin_full("field");
    if (focus) ImGui::SetKeyboardFocusHere();
    focus = false;
    ImGui::InputText("##f", text, sizeof text);
    ImGui::End();
    ++drawn_after;
  });
  ASSERT_TRUE(made);
  // A second window: the events name the first, and must not reach the second's ImGui.
  char other[32] = "";
  auto second = open_window(sdl_options(nullptr), [&](Window&, CallbackContext&) {
    begin_full("other");
    ImGui::SetKeyboardFocusHere();
    ImGui::InputText("##o", other, sizeof other);
    ImGui::End();
  });
  ASSERT_TRUE(second);
  Window& w = *made;
  EventLoop loop;
  const Uint32 id = SDL_GetWindowID(w.sdl_window());
  loop.add(std::move(made));
  loop.add(std::move(second));
  ASSERT_TRUE(run_until(loop, [&] { return drawn_after >= 2; }));

  if (sdl2_compat()) {
    // sdl2-compat turns an SDL_TEXTINPUT an app pushes into a null event and crashes in
    // SDL_PushEvent: the text comes in through the window here, and only the keys through SDL.
    w.inject_char('h');
    w.inject_char(0xE9);
  } else {
    SDL_Event typed{};
    typed.type = SDL_TEXTINPUT;
    typed.text.windowID = id;
    std::strcpy(typed.text.text, "hé");
    ASSERT_EQ(SDL_PushEvent(&typed), 1);
  }
  EXPECT_TRUE(run_until(loop, [&] { return std::string(text) == "hé"; })) << "field holds \"" << text << "\"";
  SDL_Event back{};
  back.type = SDL_KEYDOWN;
  back.key.windowID = id;
  back.key.state = SDL_PRESSED;
  back.key.keysym.scancode = SDL_SCANCODE_BACKSPACE;
  back.key.keysym.sym = SDLK_BACKSPACE;
  ASSERT_EQ(SDL_PushEvent(&back), 1);
  // Released once a frame saw it down: ImGui 1.86 reads the keys' state once per frame.
  EXPECT_TRUE(run_until(loop, [&] { return std::string(text) == "h"; })) << "field holds \"" << text << "\"";
  back.type = SDL_KEYUP;
  back.key.state = SDL_RELEASED;
  ASSERT_EQ(SDL_PushEvent(&back), 1);
  loop.run_once(std::chrono::milliseconds(20));
  EXPECT_STREQ(other, "") << "the other window's field saw the first window's events";
}

TEST(SdlWindowTest, ACloseEventAsksOnCloseAndSdlQuitAsksEveryWindow) {
  int asked_first = 0, asked_second = 0;
  bool agree = false;
  WindowOptions first = sdl_options(nullptr);
  first.on_close = [&](Window&) {
    ++asked_first;
    return agree;
  };
  WindowOptions second = sdl_options(nullptr);
  second.on_close = [&](Window&) {
    ++asked_second;
    return true;
  };
  auto a = open_window(first, nullptr);
  auto b = open_window(second, nullptr);
  ASSERT_TRUE(a && b);
  Window& wa = *a;
  EventLoop loop;
  const WindowHandle ha = loop.add(std::move(a));
  const WindowHandle hb = loop.add(std::move(b));
  push_window_event(wa, SDL_WINDOWEVENT_CLOSE);
  ASSERT_TRUE(run_until(loop, [&] { return asked_first == 1; }));
  EXPECT_TRUE(ha.is_open()) << "on_close said no";
  EXPECT_EQ(asked_second, 0) << "the close event named the first window only";

  agree = true;
  SDL_Event quit{};
  quit.type = SDL_QUIT;
  ASSERT_EQ(SDL_PushEvent(&quit), 1);
  ASSERT_TRUE(run_until(loop, [&] { return !ha.is_open() && !hb.is_open(); }));
  EXPECT_EQ(asked_first, 2);
  EXPECT_EQ(asked_second, 1);
}

// on_close runs while the loop hands out SDL's events: that is inside an iteration too.
TEST(SdlWindowTest, AnOnCloseRunByAnSdlEventIsInsideTheIteration) {
  EventLoop loop;
  std::optional<Errc> nested;
  WindowOptions o = sdl_options(nullptr);
  o.on_close = [&](Window&) {
    Result<bool> r = loop.run_until([] { return true; }, std::chrono::seconds(1));
    nested = r.ok() ? std::optional<Errc>() : std::optional<Errc>(r.error().code);
    return true;
  };
  auto made = open_window(o, nullptr);
  ASSERT_TRUE(made);
  push_window_event(*made, SDL_WINDOWEVENT_CLOSE);
  const WindowHandle h = loop.add(std::move(made));
  ASSERT_TRUE(run_until(loop, [&] { return !h.is_open(); }));
  EXPECT_EQ(nested, Errc::reentrant_call);
}

TEST(SdlWindowTest, MinimizedAndRestoredBySdlEventsTheWindowRestsThenDraws) {
  int draws = 0;
  auto made = open_window(sdl_options(nullptr), [&](Window&, CallbackContext&) { ++draws; });
  ASSERT_TRUE(made);
  Window& w = *made;
  EventLoop loop;
  loop.add(std::move(made));
  ASSERT_TRUE(run_until(loop, [&] { return draws >= 2 && w.next_wake() == std::nullopt; }));
  push_window_event(w, SDL_WINDOWEVENT_MINIMIZED);
  ASSERT_TRUE(run_until(loop, [&] { return w.is_hidden(); }));
  w.request_redraw();
  const int before = draws;
  loop.run_once(std::chrono::milliseconds(20));
  EXPECT_EQ(draws, before) << "a minimized window draws nothing";
  push_window_event(w, SDL_WINDOWEVENT_RESTORED);
  EXPECT_TRUE(run_until(loop, [&] { return !w.is_hidden() && draws > before; }));
}

TEST(SdlWindowTest, EventsForAWindowThatIsNotCadencesAndAnAppsUserEventsAreLeftAlone) {
  int draws = 0;
  auto made = open_window(sdl_options(nullptr), [&](Window&, CallbackContext&) { ++draws; });
  ASSERT_TRUE(made);
  SDL_Window* foreign = SDL_CreateWindow("not cadence's", 0, 0, 64, 64, SDL_WINDOW_HIDDEN);
  ASSERT_NE(foreign, nullptr) << SDL_GetError();
  Window& w = *made;
  EventLoop loop;
  loop.add(std::move(made));
  ASSERT_TRUE(run_until(loop, [&] { return draws >= 2 && w.next_wake() == std::nullopt; }));
  until_events_stop(loop, w);  // the compositor's, on Wayland
  SDL_Event e{};
  e.type = SDL_WINDOWEVENT;
  e.window.windowID = SDL_GetWindowID(foreign);
  e.window.event = SDL_WINDOWEVENT_CLOSE;
  ASSERT_EQ(SDL_PushEvent(&e), 1);
  SDL_Event user{};
  user.type = SDL_USEREVENT;
  ASSERT_EQ(SDL_PushEvent(&user), 1);
  const int before = draws;
  loop.run_once(std::chrono::milliseconds(50));
  EXPECT_FALSE(w.should_close());
  EXPECT_EQ(draws, before) << "nothing for this window: nothing drawn";
  SDL_DestroyWindow(foreign);
}

// An app that opens a game controller (as ImGui's SDL2 backend does from 1.90 on): a button is
// input for the windows, and a stick drifting inside its dead zone is not.
TEST(SdlWindowTest, AGameControllerButtonDrawsAndAStickDriftingInItsDeadZoneDoesNot) {
  // The app's game controller, let go of however the test ends.
  struct Pad {
    Pad() {
      // SDL drops an unfocused app's joystick events, and a compositor without a seat (the
      // headless weston of scripts/test's Wayland runs) never focuses a window.
      SDL_SetHint(SDL_HINT_JOYSTICK_ALLOW_BACKGROUND_EVENTS, "1");
      if (SDL_InitSubSystem(SDL_INIT_GAMECONTROLLER) != 0) return;
      index = SDL_JoystickAttachVirtual(SDL_JOYSTICK_TYPE_GAMECONTROLLER, SDL_CONTROLLER_AXIS_MAX,
                                        SDL_CONTROLLER_BUTTON_MAX, 0);
      controller = index >= 0 ? SDL_GameControllerOpen(index) : nullptr;
    }
    ~Pad() {
      if (controller != nullptr) SDL_GameControllerClose(controller);
      if (index >= 0) (void)SDL_JoystickDetachVirtual(index);
      SDL_QuitSubSystem(SDL_INIT_GAMECONTROLLER);
      SDL_SetHint(SDL_HINT_JOYSTICK_ALLOW_BACKGROUND_EVENTS, "0");
    }
    Pad(const Pad&) = delete;
    Pad& operator=(const Pad&) = delete;
    int index = -1;
    SDL_GameController* controller = nullptr;
  } pad;
  ASSERT_NE(pad.controller, nullptr) << SDL_GetError();
  SDL_Joystick* stick = SDL_GameControllerGetJoystick(pad.controller);
  int draws = 0;
  auto made = open_window(sdl_options(nullptr), [&](Window&, CallbackContext&) {
    ImGui::GetIO().ConfigFlags |= ImGuiConfigFlags_NavEnableGamepad;
    begin_full("pad");
    ImGui::Button("A");
    ImGui::End();
    ++draws;
  });
  ASSERT_TRUE(made);
  Window& w = *made;
  EventLoop loop;
  loop.add(std::move(made));
  ASSERT_TRUE(run_until(loop, [&] { return draws >= 2 && w.next_wake() == std::nullopt; }));
  // The virtual controller's first update reports every axis (its triggers among them): news,
  // once. Then at rest again.
  ASSERT_EQ(SDL_JoystickSetVirtualAxis(stick, SDL_CONTROLLER_AXIS_LEFTX, 1200), 0) << SDL_GetError();
  for (int i = 0; i < 3; ++i) loop.run_once(std::chrono::milliseconds(5));
  ASSERT_TRUE(run_until(loop, [&] { return w.next_wake() == std::nullopt; }));
  until_events_stop(loop, w);
  const int before = draws;
  for (int i = 0; i < 20; ++i) {  // within ImGui's dead zone: 8000 of 32767
    ASSERT_EQ(SDL_JoystickSetVirtualAxis(stick, SDL_CONTROLLER_AXIS_LEFTX, static_cast<Sint16>(i % 2 == 0 ? 900 : 1200)), 0);
    loop.run_once(std::chrono::milliseconds(5));
  }
  loop.run_once(std::chrono::milliseconds(20));
  EXPECT_EQ(draws, before) << "a stick drifting inside its dead zone";
  EXPECT_EQ(w.next_wake(), std::nullopt);
  ASSERT_EQ(SDL_JoystickSetVirtualButton(stick, SDL_CONTROLLER_BUTTON_A, 1), 0) << SDL_GetError();
  EXPECT_TRUE(run_until(loop, [&] { return draws > before; })) << "a button is input";
}

// A hundred thousand wake-ups from another thread, sent one at a time to this thread waiting in
// SDL, leave no memory behind (sdl_wake_leak.hpp).
TEST(SdlWindowTest, AHundredThousandWakeUpsFromAnotherThreadLeaveNoMemoryBehind) {
  auto w = open_window(sdl_options(nullptr), nullptr);
  ASSERT_TRUE(w);
  const Uint32 type = SDL_RegisterEvents(1);
  ASSERT_NE(type, static_cast<Uint32>(-1)) << SDL_GetError();
  const auto push = [type] {
    SDL_Event e{};
    e.type = type;
    return SDL_PushEvent(&e) == 1;
  };
  const auto take = [type] {
    SDL_Event e{};
    return SDL_WaitEventTimeout(&e, 1000) == 1 && e.type == type;
  };
  expect_wake_ups_leave_no_memory(push, take, SDL_GetCurrentVideoDriver(), SDL_GetError);
}

TEST(SdlWindowTest, TheWindowsOpenAtOneTimeUseOneBackendAndSayWhy) {
  auto sdl = open_window(sdl_options(nullptr), nullptr);
  ASSERT_TRUE(sdl);
  WindowOptions glfw = test_options(nullptr);
  glfw.backend = WindowBackend::glfw;
  auto refused = Window::create(glfw, nullptr);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, Errc::invalid_argument);
  EXPECT_NE(refused.error().message.find("cannot open a glfw window while 1 sdl2 window(s) are open"), std::string::npos)
      << refused.error().message;
  // The SDL window is untouched, and once it is gone a GLFW window opens.
  EXPECT_NE(sdl->sdl_window(), nullptr);
  sdl.reset();
  auto now = Window::create(glfw, nullptr);
  ASSERT_TRUE(now.ok()) << now.error().message;
  auto other_way = Window::create(sdl_options(nullptr), nullptr);
  ASSERT_FALSE(other_way.ok());
  EXPECT_NE(other_way.error().message.find("cannot open a sdl2 window while 1 glfw window(s) are open"),
            std::string::npos)
      << other_way.error().message;
}

}  // namespace
}  // namespace cadence::testing
