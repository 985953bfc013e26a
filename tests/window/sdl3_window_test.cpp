// The SDL3 backend's own paths, beside the suite every backend shares: real SDL events reach the
// window they name through the loop, SDL_EVENT_QUIT asks every window, a window covered whole
// by others (occluded) rests as a minimized one does, wake-ups from another thread leave no
// memory behind, and a build has one SDL.
#include <SDL3/SDL.h>
#include <gtest/gtest.h>
#include <imgui.h>

#include <chrono>
#include <cstring>
#include <functional>
#include <optional>
#include <string>

#include "cadence/event_loop.hpp"
#include "sdl_wake_leak.hpp"
#include "window_fixture.hpp"

namespace cadence::testing {
namespace {

WindowOptions sdl3_options(ManualClock* clock) {
  WindowOptions o = test_options(clock);
  o.backend = WindowBackend::sdl3;
  return o;
}

void push_window_event(Window& w, SDL_EventType what) {
  SDL_Event e{};
  e.type = what;
  e.window.windowID = SDL_GetWindowID(w.sdl_window());
  ASSERT_TRUE(SDL_PushEvent(&e)) << SDL_GetError();
}

// Runs loop iterations until `done` or 10 s of real time.
bool run_until_sdl3(EventLoop& loop, const std::function<bool()>& done) {
  Result<bool> r = loop.run_until(done, std::chrono::seconds(10));
  return r.ok() && *r;
}

TEST(Sdl3WindowTest, TextAndKeysQueuedBySdlReachTheFocusedFieldOfTheWindowTheyName) {
  char text[32] = "";
  int drawn_after = 0;
  bool focus = true;
  auto made = open_window(sdl3_options(nullptr), [&](Window&, CallbackContext&) {
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
  auto second = open_window(sdl3_options(nullptr), [&](Window&, CallbackContext&) {
    begin_full("other");
    ImGui::SetKeyboardFocusHere();
    ImGui::InputText("##o", other, sizeof other);
    ImGui::End();
  });
  ASSERT_TRUE(second);
  Window& w = *made;
  EventLoop loop;
  const SDL_WindowID id = SDL_GetWindowID(w.sdl_window());
  loop.add(std::move(made));
  loop.add(std::move(second));
  ASSERT_TRUE(run_until_sdl3(loop, [&] { return drawn_after >= 2; }));

  // SDL3 events carry their text by pointer, and SDL_PushEvent keeps the pointer: a literal.
  SDL_Event typed{};
  typed.type = SDL_EVENT_TEXT_INPUT;
  typed.text.windowID = id;
  typed.text.text = "hé";
  ASSERT_TRUE(SDL_PushEvent(&typed)) << SDL_GetError();
  EXPECT_TRUE(run_until_sdl3(loop, [&] { return std::string(text) == "hé"; })) << "field holds \"" << text << "\"";
  SDL_Event back{};
  back.type = SDL_EVENT_KEY_DOWN;
  back.key.windowID = id;
  back.key.down = true;
  back.key.scancode = SDL_SCANCODE_BACKSPACE;
  back.key.key = SDLK_BACKSPACE;
  ASSERT_TRUE(SDL_PushEvent(&back)) << SDL_GetError();
  EXPECT_TRUE(run_until_sdl3(loop, [&] { return std::string(text) == "h"; })) << "field holds \"" << text << "\"";
  back.type = SDL_EVENT_KEY_UP;
  back.key.down = false;
  ASSERT_TRUE(SDL_PushEvent(&back)) << SDL_GetError();
  loop.run_once(std::chrono::milliseconds(20));
  EXPECT_STREQ(other, "") << "the other window's field saw the first window's events";
}

// SDL3 sends text only between SDL_StartTextInput and SDL_StopTextInput: on while an ImGui text
// field is active, off once none is (Dear ImGui's IME hook; cadence's own where it adapts an
// ImGui 1.90 backend to SDL 3.2).
TEST(Sdl3WindowTest, SdlSendsTextWhileAFieldIsActiveAndStopsWhenNoneIs) {
  bool field = true;
  bool focus = true;
  int drawn = 0;
  char text[32] = "";
  auto made = open_window(sdl3_options(nullptr), [&](Window&, CallbackContext&) {
    begin_full("ime");
    if (field) {
      if (focus) ImGui::SetKeyboardFocusHere();
      focus = false;
      ImGui::InputText("##f", text, sizeof text);
    }
    ImGui::End();
    ++drawn;
  });
  ASSERT_TRUE(made);
  Window& w = *made;
  EventLoop loop;
  loop.add(std::move(made));
  EXPECT_TRUE(run_until_sdl3(loop, [&] { return drawn >= 2 && SDL_TextInputActive(w.sdl_window()); }))
      << "a focused field, and SDL's text input is still off";
  // The field goes: ImGui lets go of it over a frame or two, which the predicate asks for.
  field = false;
  EXPECT_TRUE(run_until_sdl3(loop, [&] {
    if (!SDL_TextInputActive(w.sdl_window())) return true;
    w.request_redraw();
    return false;
  })) << "no field, and SDL's text input is still on";
}

TEST(Sdl3WindowTest, ACloseRequestAsksOnCloseAndSdlQuitAsksEveryWindow) {
  int asked_first = 0, asked_second = 0;
  bool agree = false;
  WindowOptions first = sdl3_options(nullptr);
  first.on_close = [&](Window&) {
    ++asked_first;
    return agree;
  };
  WindowOptions second = sdl3_options(nullptr);
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
  push_window_event(wa, SDL_EVENT_WINDOW_CLOSE_REQUESTED);
  ASSERT_TRUE(run_until_sdl3(loop, [&] { return asked_first == 1; }));
  EXPECT_TRUE(ha.is_open()) << "on_close said no";
  EXPECT_EQ(asked_second, 0) << "the close request named the first window only";

  agree = true;
  SDL_Event quit{};
  quit.type = SDL_EVENT_QUIT;
  ASSERT_TRUE(SDL_PushEvent(&quit)) << SDL_GetError();
  ASSERT_TRUE(run_until_sdl3(loop, [&] { return !ha.is_open() && !hb.is_open(); }));
  EXPECT_EQ(asked_first, 2);
  EXPECT_EQ(asked_second, 1);
}

// A minimized window and one covered whole by other windows rest alike: a redraw asked for
// meanwhile comes once the window can be seen again, and not before.
void rests_while_unseen(SDL_EventType unseen, SDL_EventType seen) {
  int draws = 0;
  auto made = open_window(sdl3_options(nullptr), [&](Window&, CallbackContext&) { ++draws; });
  ASSERT_TRUE(made);
  Window& w = *made;
  EventLoop loop;
  loop.add(std::move(made));
  ASSERT_TRUE(run_until_sdl3(loop, [&] { return draws >= 2 && w.next_wake() == std::nullopt; }));
  push_window_event(w, unseen);
  ASSERT_TRUE(run_until_sdl3(loop, [&] { return w.is_hidden(); }));
  w.request_redraw();
  const int before = draws;
  loop.run_once(std::chrono::milliseconds(20));
  EXPECT_EQ(draws, before) << "a window that cannot be seen draws nothing";
  EXPECT_EQ(w.next_wake(), std::nullopt) << "and the loop sleeps";
  push_window_event(w, seen);
  EXPECT_TRUE(run_until_sdl3(loop, [&] { return !w.is_hidden() && draws > before; }));
}

TEST(Sdl3WindowTest, MinimizedAndRestoredBySdlEventsTheWindowRestsThenDraws) {
  rests_while_unseen(SDL_EVENT_WINDOW_MINIMIZED, SDL_EVENT_WINDOW_RESTORED);
}

// SDL clears a window's minimized state when it is shown (a tray restore: no RESTORED comes).
TEST(Sdl3WindowTest, MinimizedThenShownTheWindowRestsThenDraws) {
  rests_while_unseen(SDL_EVENT_WINDOW_MINIMIZED, SDL_EVENT_WINDOW_SHOWN);
}

TEST(Sdl3WindowTest, OccludedAndExposedBySdlEventsTheWindowRestsThenDraws) {
  rests_while_unseen(SDL_EVENT_WINDOW_OCCLUDED, SDL_EVENT_WINDOW_EXPOSED);
}

// Exposed again while still minimized: the window stays at rest until restored.
TEST(Sdl3WindowTest, AnExposedWindowThatIsStillMinimizedStaysAtRest) {
  int draws = 0;
  auto made = open_window(sdl3_options(nullptr), [&](Window&, CallbackContext&) { ++draws; });
  ASSERT_TRUE(made);
  Window& w = *made;
  EventLoop loop;
  loop.add(std::move(made));
  ASSERT_TRUE(run_until_sdl3(loop, [&] { return draws >= 2 && w.next_wake() == std::nullopt; }));
  push_window_event(w, SDL_EVENT_WINDOW_MINIMIZED);
  push_window_event(w, SDL_EVENT_WINDOW_OCCLUDED);
  push_window_event(w, SDL_EVENT_WINDOW_EXPOSED);
  loop.run_once(std::chrono::milliseconds(20));
  EXPECT_TRUE(w.is_hidden()) << "exposed, but still minimized";
  push_window_event(w, SDL_EVENT_WINDOW_RESTORED);
  EXPECT_TRUE(run_until_sdl3(loop, [&] { return !w.is_hidden(); }));
}

TEST(Sdl3WindowTest, EventsForAWindowThatIsNotCadencesAndAnAppsUserEventsAreLeftAlone) {
  int draws = 0;
  auto made = open_window(sdl3_options(nullptr), [&](Window&, CallbackContext&) { ++draws; });
  ASSERT_TRUE(made);
  SDL_Window* foreign = SDL_CreateWindow("not cadence's", 64, 64, SDL_WINDOW_HIDDEN);
  ASSERT_NE(foreign, nullptr) << SDL_GetError();
  Window& w = *made;
  EventLoop loop;
  loop.add(std::move(made));
  ASSERT_TRUE(run_until_sdl3(loop, [&] { return draws >= 2 && w.next_wake() == std::nullopt; }));
  SDL_Event e{};
  e.type = SDL_EVENT_WINDOW_CLOSE_REQUESTED;
  e.window.windowID = SDL_GetWindowID(foreign);
  ASSERT_TRUE(SDL_PushEvent(&e)) << SDL_GetError();
  SDL_Event user{};
  user.type = SDL_EVENT_USER;
  ASSERT_TRUE(SDL_PushEvent(&user)) << SDL_GetError();
  const int before = draws;
  loop.run_once(std::chrono::milliseconds(50));
  EXPECT_FALSE(w.should_close());
  EXPECT_EQ(draws, before) << "nothing for this window: nothing drawn";
  SDL_DestroyWindow(foreign);
}

// An app that starts SDL's gamepads (ImGui's SDL3 backend opens the first one): a button is
// input for the windows, and a stick drifting inside its dead zone is not. Once the last window
// is gone, the backend has let go of the gamepad (an open one makes SDL poll it every ms).
TEST(Sdl3WindowTest, AGamepadButtonDrawsAndAStickDriftingInItsDeadZoneDoesNot) {
  // The app's gamepads, let go of however the test ends.
  struct Pad {
    Pad() {
      // SDL drops an unfocused app's joystick events, and a compositor without a seat (the
      // headless weston of scripts/test's Wayland runs) never focuses a window.
      SDL_SetHint(SDL_HINT_JOYSTICK_ALLOW_BACKGROUND_EVENTS, "1");
      if (!SDL_InitSubSystem(SDL_INIT_GAMEPAD)) return;
      SDL_VirtualJoystickDesc desc;
      SDL_INIT_INTERFACE(&desc);
      desc.type = SDL_JOYSTICK_TYPE_GAMEPAD;
      desc.naxes = SDL_GAMEPAD_AXIS_COUNT;
      desc.nbuttons = SDL_GAMEPAD_BUTTON_COUNT;
      id = SDL_AttachVirtualJoystick(&desc);
      stick = id != 0 ? SDL_OpenJoystick(id) : nullptr;
    }
    ~Pad() {
      if (stick != nullptr) SDL_CloseJoystick(stick);
      if (id != 0) (void)SDL_DetachVirtualJoystick(id);
      SDL_QuitSubSystem(SDL_INIT_GAMEPAD);
      SDL_ResetHint(SDL_HINT_JOYSTICK_ALLOW_BACKGROUND_EVENTS);
    }
    Pad(const Pad&) = delete;
    Pad& operator=(const Pad&) = delete;
    SDL_JoystickID id = 0;
    SDL_Joystick* stick = nullptr;
  } pad;
  ASSERT_NE(pad.stick, nullptr) << SDL_GetError();
  SDL_Joystick* stick = pad.stick;
  {
    int draws = 0;
    auto made = open_window(sdl3_options(nullptr), [&](Window&, CallbackContext&) {
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
    ASSERT_TRUE(run_until_sdl3(loop, [&] { return draws >= 2 && w.next_wake() == std::nullopt; }));
    // The virtual pad's first update reports every axis (its triggers among them): news, once.
    // Then at rest again.
    ASSERT_TRUE(SDL_SetJoystickVirtualAxis(stick, SDL_GAMEPAD_AXIS_LEFTX, 1200));
    for (int i = 0; i < 3; ++i) loop.run_once(std::chrono::milliseconds(5));
    ASSERT_TRUE(run_until_sdl3(loop, [&] { return w.next_wake() == std::nullopt; }));
    const int before = draws;
    for (int i = 0; i < 20; ++i) {  // within ImGui's dead zone: 8000 of 32767
      ASSERT_TRUE(SDL_SetJoystickVirtualAxis(stick, SDL_GAMEPAD_AXIS_LEFTX, static_cast<Sint16>(i % 2 == 0 ? 900 : 1200)));
      loop.run_once(std::chrono::milliseconds(5));
    }
    loop.run_once(std::chrono::milliseconds(20));
    EXPECT_EQ(draws, before) << "a stick drifting inside its dead zone";
    EXPECT_EQ(w.next_wake(), std::nullopt);
    ASSERT_TRUE(SDL_SetJoystickVirtualButton(stick, SDL_GAMEPAD_BUTTON_SOUTH, true));
    EXPECT_TRUE(run_until_sdl3(loop, [&] { return draws > before; })) << "a button is input";
    EXPECT_NE(SDL_GetGamepadFromID(pad.id), nullptr) << "ImGui's backend opened the gamepad";
  }
  EXPECT_EQ(SDL_GetGamepadFromID(pad.id), nullptr) << "the window is gone and its gamepad is still open";
}

// A hundred thousand wake-ups from another thread, sent one at a time to this thread waiting in
// SDL, leave no memory behind (sdl_wake_leak.hpp).
TEST(Sdl3WindowTest, AHundredThousandWakeUpsFromAnotherThreadLeaveNoMemoryBehind) {
  auto w = open_window(sdl3_options(nullptr), nullptr);
  ASSERT_TRUE(w);
  const Uint32 type = SDL_RegisterEvents(1);
  ASSERT_NE(type, 0u) << SDL_GetError();
  const auto push = [type] {
    SDL_Event e{};
    e.type = type;
    return SDL_PushEvent(&e);
  };
  const auto take = [type] {
    SDL_Event e{};
    return SDL_WaitEventTimeout(&e, 1000) && e.type == type;
  };
  expect_wake_ups_leave_no_memory(push, take, SDL_GetCurrentVideoDriver(), SDL_GetError);
}

TEST(Sdl3WindowTest, ABuildHasOneSdlAndSaysHowToGetTheOther) {
  EXPECT_TRUE(backend_available(WindowBackend::sdl3));
  EXPECT_FALSE(backend_available(WindowBackend::sdl2)) << "SDL2 and SDL3 cannot share a process";
  WindowOptions o = test_options(nullptr);
  o.backend = WindowBackend::sdl2;
  auto refused = Window::create(o, nullptr);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, Errc::invalid_argument);
  EXPECT_NE(refused.error().message.find("-DCADENCE_WINDOW_SDL=2"), std::string::npos) << refused.error().message;
}

TEST(Sdl3WindowTest, TheWindowsOpenAtOneTimeUseOneBackendAndSayWhy) {
  auto sdl = open_window(sdl3_options(nullptr), nullptr);
  ASSERT_TRUE(sdl);
  WindowOptions glfw = test_options(nullptr);
  glfw.backend = WindowBackend::glfw;
  auto refused = Window::create(glfw, nullptr);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("cannot open a glfw window while 1 sdl3 window(s) are open"), std::string::npos)
      << refused.error().message;
  sdl.reset();
  auto now = Window::create(glfw, nullptr);
  ASSERT_TRUE(now.ok()) << now.error().message;
}

}  // namespace
}  // namespace cadence::testing
