// Injected keys and focus, the frame's re-entry rule, and the settle_frames option.
#include <gtest/gtest.h>
#include <imgui.h>

#include "cadence/imgui_features.hpp"

#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "window_fixture.hpp"

namespace cadence::testing {
namespace {

// A text field that takes keyboard focus in its first frame.
struct FieldProbe {
  char text[32] = "abc";
  bool focus = true;
  int entered = 0;
  void draw() {
    begin_full("field");
    if (focus) {
      ImGui::SetKeyboardFocusHere();
      focus = false;
    }
    if (ImGui::InputText("##f", text, sizeof text, ImGuiInputTextFlags_EnterReturnsTrue)) ++entered;
    ImGui::End();
  }
};

// ImGui::IsKeyPressed on both versions' key APIs.
bool pressed(ImGuiKey k, bool repeat) {
#if CADENCE_IMGUI_INPUT_EVENTS
  return ImGui::IsKeyPressed(k, repeat);
#else
  return ImGui::IsKeyPressed(ImGui::GetKeyIndex(k), repeat);
#endif
}

Status key(Window& w, ManualClock& clock, Key k, KeyMods mods = {}) {
  if (Status s = w.inject_key(k, KeyAction::press, mods); !s) return s;
  settle(w, clock);
  if (Status s = w.inject_key(k, KeyAction::release, mods); !s) return s;
  settle(w, clock);
  return {};
}

TEST(InjectKeyTest, KeysReachTheFocusedFieldWithTheirModifiers) {
  ManualClock clock;
  FieldProbe probe;
  auto w = open_window(test_options(&clock), [&](Window&, CallbackContext&) { probe.draw(); });
  ASSERT_TRUE(w);
  settle(*w, clock);
  ASSERT_TRUE(key(*w, clock, Key::end));
  // Shift+Left selects the last character; Backspace deletes the selection.
  ASSERT_TRUE(w->inject_key(Key::left_shift, KeyAction::press, KeyMods{.shift = true}));
  ASSERT_TRUE(key(*w, clock, Key::left, KeyMods{.shift = true}));
  ASSERT_TRUE(w->inject_key(Key::left_shift, KeyAction::release));
  ASSERT_TRUE(key(*w, clock, Key::backspace));
  EXPECT_STREQ(probe.text, "ab");
  // Ctrl+A selects everything; a typed character replaces it.
  ASSERT_TRUE(w->inject_key(Key::left_control, KeyAction::press, KeyMods{.control = true}));
  ASSERT_TRUE(key(*w, clock, Key::a, KeyMods{.control = true}));
  ASSERT_TRUE(w->inject_key(Key::left_control, KeyAction::release));
  w->inject_char('z');
  settle(*w, clock);
  EXPECT_STREQ(probe.text, "z");
  ASSERT_TRUE(key(*w, clock, Key::enter));
  EXPECT_EQ(probe.entered, 1);
  // A repeat event changes nothing in ImGui (it repeats held keys itself), but is input.
  const auto drawn = w->stats().frames_drawn;
  ASSERT_TRUE(w->inject_key(Key::backspace, KeyAction::repeat));
  settle(*w, clock);
  EXPECT_STREQ(probe.text, "z");
  EXPECT_GT(w->stats().frames_drawn, drawn);
}

// The keys ImGui holds down in the frame just built: by ImGui's own names from 1.87 (the
// modifiers' own entries, "ModCtrl" and the like, left out), by the backend's own key codes
// with 1.86 (io.KeysDown).
std::vector<std::string> keys_down() {
  std::vector<std::string> down;
#if CADENCE_IMGUI_INPUT_EVENTS
  for (int k = ImGuiKey_NamedKey_BEGIN; k < ImGuiKey_NamedKey_END; ++k) {
    const std::string name = ImGui::GetKeyName(static_cast<ImGuiKey>(k));
    if (ImGui::IsKeyDown(static_cast<ImGuiKey>(k)) && name.find("Mod") == std::string::npos) down.push_back(name);
  }
#else
  const ImGuiIO& io = ImGui::GetIO();
  for (int k = 0; k < IM_ARRAYSIZE(io.KeysDown); ++k) {
    if (io.KeysDown[k]) down.push_back(std::to_string(k));
  }
#endif
  return down;
}

// ImGui's name of a key (ImGui::GetKeyName from 1.87; ImGuiKey_<name> in 1.86), from cadence's,
// written out here apart from the tables that the test checks.
std::string imgui_name(const std::string& cadence) {
  static const std::map<std::string, std::string> named = {
      {"space", "Space"}, {"escape", "Escape"}, {"enter", "Enter"}, {"tab", "Tab"}, {"backspace", "Backspace"},
      {"insert", "Insert"}, {"delete", "Delete"}, {"left", "LeftArrow"}, {"right", "RightArrow"}, {"up", "UpArrow"},
      {"down", "DownArrow"}, {"page_up", "PageUp"}, {"page_down", "PageDown"}, {"home", "Home"}, {"end", "End"},
      {"keypad_enter", "KeypadEnter"}, {"left_shift", "LeftShift"}, {"left_control", "LeftCtrl"},
      {"left_alt", "LeftAlt"}, {"left_super", "LeftSuper"}, {"right_shift", "RightShift"},
      {"right_control", "RightCtrl"}, {"right_alt", "RightAlt"}, {"right_super", "RightSuper"}};
  if (const auto it = named.find(cadence); it != named.end()) return it->second;
  if (cadence.rfind("digit_", 0) == 0) return cadence.substr(6);
  std::string upper = cadence;  // "a" -> "A", "f7" -> "F7"
  upper[0] = static_cast<char>(upper[0] - 'a' + 'A');
  return upper;
}

#if !CADENCE_IMGUI_INPUT_EVENTS
// The backend's own code of a key that 1.86's backend maps for ImGui (io.KeyMap), by ImGui's
// name; -1 for the others.
int keymap_code(const std::string& imgui) {
  static const std::map<std::string, ImGuiKey> keys = {
      {"Tab", ImGuiKey_Tab}, {"LeftArrow", ImGuiKey_LeftArrow}, {"RightArrow", ImGuiKey_RightArrow},
      {"UpArrow", ImGuiKey_UpArrow}, {"DownArrow", ImGuiKey_DownArrow}, {"PageUp", ImGuiKey_PageUp},
      {"PageDown", ImGuiKey_PageDown}, {"Home", ImGuiKey_Home}, {"End", ImGuiKey_End}, {"Insert", ImGuiKey_Insert},
      {"Delete", ImGuiKey_Delete}, {"Backspace", ImGuiKey_Backspace}, {"Space", ImGuiKey_Space},
      {"Enter", ImGuiKey_Enter}, {"Escape", ImGuiKey_Escape}, {"KeypadEnter", ImGuiKey_KeyPadEnter},
      {"A", ImGuiKey_A}, {"C", ImGuiKey_C}, {"V", ImGuiKey_V}, {"X", ImGuiKey_X}, {"Y", ImGuiKey_Y}, {"Z", ImGuiKey_Z}};
  const auto it = keys.find(imgui);
  return it != keys.end() ? ImGui::GetIO().KeyMap[it->second] : -1;
}
#endif

// Every Key reaches ImGui as that key, alone, on the backend under test: by ImGui's name of it
// from 1.87; with 1.86 as a backend code of its own, the one ImGui's backend maps it to
// (io.KeyMap) where it maps it. Each has a name of its own.
TEST(InjectKeyTest, EveryKeyReachesImGuiAsItself) {
  ManualClock clock;
  std::vector<std::string> down;
  std::string pressed;  // ImGui's name of the key pressed
#if !CADENCE_IMGUI_INPUT_EVENTS
  int expected_code = -1;  // io.KeyMap's code for it, where 1.86's backend maps it
#endif
  auto w = open_window(test_options(&clock), [&](Window&, CallbackContext&) {
    ImGui::Text("keys");
    down = keys_down();
#if !CADENCE_IMGUI_INPUT_EVENTS
    expected_code = keymap_code(pressed);
#endif
  });
  ASSERT_TRUE(w);
  settle(*w, clock);
  std::set<std::string> names, codes;
  for (int k = 0; k < kKeyCount; ++k) {
    const Key key = static_cast<Key>(k);
    ASSERT_NE(to_string(key), nullptr) << k;
    const std::string name = to_string(key);
    names.insert(name);
    pressed = imgui_name(name);
    ASSERT_TRUE(w->inject_key(key, KeyAction::press, {.alt = true})) << name;
    ASSERT_TRUE(w->inject_key(key, KeyAction::repeat)) << name;
    settle(*w, clock);
    ASSERT_EQ(down.size(), 1u) << name << ": " << ::testing::PrintToString(down);
#if CADENCE_IMGUI_INPUT_EVENTS
    EXPECT_EQ(down[0], imgui_name(name));
#else
    EXPECT_TRUE(codes.insert(down[0]).second) << name << " has the backend code of another key: " << down[0];
    if (expected_code >= 0) {
      EXPECT_EQ(down[0], std::to_string(expected_code)) << name << ": not io.KeyMap's code";
    }
#endif
    ASSERT_TRUE(w->inject_key(key, KeyAction::release)) << name;
    settle(*w, clock);
    EXPECT_TRUE(down.empty()) << name << " released: " << ::testing::PrintToString(down);
  }
  EXPECT_EQ(names.size(), static_cast<std::size_t>(kKeyCount));
  EXPECT_STREQ(to_string(Key::delete_), "delete");
  EXPECT_STREQ(to_string(Key::digit_7), "digit_7");
  EXPECT_EQ(to_string(static_cast<Key>(kKeyCount)), nullptr);
}

TEST(InjectKeyTest, BadKeysAndActionsAreRefusedAndNothingIsSent) {
  ManualClock clock;
  FieldProbe probe;
  auto w = open_window(test_options(&clock), [&](Window&, CallbackContext&) { probe.draw(); });
  ASSERT_TRUE(w);
  settle(*w, clock);
  const auto drawn = w->stats().frames_drawn;
  const auto wake = w->next_wake();
  struct Case {
    Key key;
    KeyAction action;
    const char* names;  // what the message must name
  };
  const std::string past_last = "key " + std::to_string(kKeyCount);
  for (const Case c : {Case{static_cast<Key>(kKeyCount), KeyAction::press, past_last.c_str()},
                       Case{static_cast<Key>(255), KeyAction::release, "key 255"},
                       Case{Key::backspace, static_cast<KeyAction>(3), "action 3"},
                       Case{Key::backspace, static_cast<KeyAction>(255), "action 255"}}) {
    const Status s = w->inject_key(c.key, c.action, {.shift = true});
    ASSERT_FALSE(s.ok()) << c.names;
    EXPECT_EQ(s.error().code, Errc::invalid_argument);
    EXPECT_NE(s.error().message.find(c.names), std::string::npos) << s.error().message;
  }
  EXPECT_EQ(w->next_wake(), wake) << "no input was counted";
  settle(*w, clock);
  EXPECT_EQ(w->stats().frames_drawn, drawn) << "nothing was drawn for refused keys";
  EXPECT_STREQ(probe.text, "abc") << "nothing reached the field";
  ASSERT_TRUE(key(*w, clock, Key::end)) << "the window takes good keys after bad ones";
  ASSERT_TRUE(key(*w, clock, Key::backspace));
  EXPECT_STREQ(probe.text, "ab");
}

TEST(InjectFocusTest, LosingFocusLetsGoOfAHeldKey) {
  ManualClock clock;
  FieldProbe probe;
  std::strcpy(probe.text, "a long line of text to delete");
  auto w = open_window(test_options(&clock), [&](Window&, CallbackContext&) { probe.draw(); });
  ASSERT_TRUE(w);
  settle(*w, clock);
  ASSERT_TRUE(key(*w, clock, Key::end));
  ASSERT_TRUE(w->inject_key(Key::backspace, KeyAction::press));
  run_until_idle(*w, clock, 40);  // ImGui repeats the held key at its instants
  const std::size_t while_held = std::strlen(probe.text);
  EXPECT_LT(while_held, std::strlen("a long line of text to delete") - 3);
  w->inject_focus(false);
  settle(*w, clock);
  const std::size_t after_blur = std::strlen(probe.text);
  (void)clock.advance(2s);
  w->frame();
  settle(*w, clock);
  EXPECT_EQ(std::strlen(probe.text), after_blur) << "the window lost focus: no more repeats";
  EXPECT_GT(after_blur, 0u);
}

TEST(WindowFrameTest, AFrameCalledFromInsideItsOwnFrameDoesNothing) {
  ManualClock clock;
  int draws = 0;
  auto w = open_window(test_options(&clock), [&](Window& self, CallbackContext&) {
    ++draws;
    self.frame();  // re-entry: ignored
    begin_full("reentry");
    ImGui::Text("re-entry");  // not the count: a counter shown live never settles
    ImGui::End();
  });
  ASSERT_TRUE(w);
  w->frame();
  EXPECT_EQ(draws, 1);
  EXPECT_EQ(w->stats().frames_run, 1u);
  EXPECT_EQ(w->stats().frames_drawn, 1u);
  settle(*w, clock);
  EXPECT_GE(draws, 2) << "the window goes on drawing";
}

TEST(WindowFrameTest, WithoutTheSettleCheckAnimationsWaitForTheApp) {
  ManualClock clock;
  WindowOptions options = test_options(&clock);
  options.settle_frames = false;
  // A progress bar on ImGui's clock: it changes in every frame.
  const auto animated = [](int& draws) {
    return [&draws](Window&, CallbackContext&) {
      ++draws;
      begin_full("animated");
      ImGui::ProgressBar(std::fmod(static_cast<float>(ImGui::GetTime()), 1.0f));
      ImGui::End();
    };
  };
  int draws = 0;
  auto w = open_window(options, animated(draws));
  ASSERT_TRUE(w);
  run_until_idle(*w, clock);
  EXPECT_EQ(draws, 2) << "ImGui's two start-up frames only";
  w->inject_mouse_position(10, 10);
  run_until_idle(*w, clock);
  EXPECT_EQ(draws, 4) << "two frames after input, then the app decides";

  WindowOptions settling = test_options(&clock);
  int settled_draws = 0;
  auto s = open_window(settling, animated(settled_draws));
  ASSERT_TRUE(s);
  run_until_idle(*s, clock, 50);
  EXPECT_EQ(settled_draws, 50) << "with the settle check, changing content draws every frame interval";
}

TEST(SettleTest, AChildOutOfSightLetsTheWindowRest) {
  ManualClock clock;
  auto w = open_window(test_options(&clock), [](Window&, CallbackContext&) {
    begin_full("host");
    ImGui::SetCursorPosY(2000);  // far below the 320 px window: ImGui hides the child every frame
    ImGui::BeginChild("off", ImVec2(100, 100), true);
    ImGui::Text("out of sight");
    ImGui::EndChild();
    ImGui::End();
  });
  ASSERT_TRUE(w);
  EXPECT_LT(run_until_idle(*w, clock, 300), 10);
  EXPECT_EQ(w->next_wake(), std::nullopt) << "at rest: nothing scheduled";
}

TEST(SettleTest, WhatInputChangesLateInAFrameReachesTheScreen) {
  ManualClock clock;
  int presses = 0;
  int shown = -1;
  auto w = open_window(test_options(&clock), [&](Window&, CallbackContext&) {
    begin_full("late");
    ImGui::Text("%d", presses);  // drawn before the key is handled, as apps often do
    shown = presses;
    if (pressed(ImGuiKey_Space, false)) ++presses;
    ImGui::End();
  });
  ASSERT_TRUE(w);
  run_until_idle(*w, clock);
  ASSERT_TRUE(w->inject_key(Key::space, KeyAction::press));
  run_until_idle(*w, clock, 100);
  EXPECT_EQ(presses, 1);
  EXPECT_EQ(shown, 1) << "the frame after the input frame shows it, with the key still held";
}

TEST(SettleTest, AKeyHeldForTheAppRepeatsWithoutAnActiveItem) {
  ManualClock clock;
  int moves = 0;
  auto w = open_window(test_options(&clock), [&](Window&, CallbackContext&) {
    begin_full("keys");
    if (pressed(ImGuiKey_RightArrow, true)) ++moves;
    ImGui::Text("%d", moves);
    ImGui::End();
  });
  ASSERT_TRUE(w);
  run_until_idle(*w, clock);
  ASSERT_TRUE(w->inject_key(Key::right, KeyAction::press));
  run_for(*w, clock, 1s);
  // The press, then repeats from io.KeyRepeatDelay on, every io.KeyRepeatRate (0.05 s).
  EXPECT_GE(moves, 12) << "the held arrow goes on repeating";
}

TEST(SettleTest, AnImGuiDelayOfForeverIsNotWaitedFor) {
  ManualClock clock;
  auto w = open_window(test_options(&clock), [](Window&, CallbackContext&) {
    ImGui::GetIO().KeyRepeatDelay = 3.0e38f;
    begin_full("never");
    ImGui::Button("held", ImVec2(100, 40));
    ImGui::End();
  });
  ASSERT_TRUE(w);
  run_until_idle(*w, clock);
  w->inject_mouse_position(20, 20);
  w->inject_mouse_button(0, true);
  EXPECT_LT(run_until_idle(*w, clock, 100), 10);
  EXPECT_EQ(w->next_wake(), std::nullopt) << "no wake-up at the end of time, and no overflow";
}

TEST(WindowFrameTest, AFrameRunFromAnotherWindowLeavesThatWindowsContextsCurrent) {
  ManualClock clock;
  auto other = open_window(test_options(&clock), [](Window&, CallbackContext&) {
    begin_full("other");
    ImGui::End();
  });
  ASSERT_TRUE(other);
  ImGuiContext* seen = nullptr;
  auto w = open_window(test_options(&clock), [&](Window& self, CallbackContext&) {
    other->request_redraw();
    other->frame();
    seen = ImGui::GetCurrentContext();
    EXPECT_EQ(seen, self.imgui_context());
    begin_full("self");
    ImGui::End();
  });
  ASSERT_TRUE(w);
  w->frame();
  EXPECT_EQ(seen, w->imgui_context());
  EXPECT_GE(other->stats().frames_drawn, 1u);
}

}  // namespace
}  // namespace cadence::testing
