// Injected keys and focus, the frame's re-entry rule, and the settle_frames option.
#include <gtest/gtest.h>
#include <imgui.h>

#include "cadence/imgui_features.hpp"

#include <GLFW/glfw3.h>

#include <cmath>
#include <cstring>
#include <string>

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

Status key(Window& w, ManualClock& clock, int k, int mods = 0) {
  if (Status s = w.inject_key(k, GLFW_PRESS, mods); !s) return s;
  settle(w, clock);
  if (Status s = w.inject_key(k, GLFW_RELEASE, mods); !s) return s;
  settle(w, clock);
  return {};
}

TEST(InjectKeyTest, KeysReachTheFocusedFieldWithTheirModifiers) {
  ManualClock clock;
  FieldProbe probe;
  auto w = open_window(test_options(&clock), [&](Window&, CallbackContext&) { probe.draw(); });
  ASSERT_TRUE(w);
  settle(*w, clock);
  ASSERT_TRUE(key(*w, clock, GLFW_KEY_END));
  // Shift+Left selects the last character; Backspace deletes the selection.
  ASSERT_TRUE(w->inject_key(GLFW_KEY_LEFT_SHIFT, GLFW_PRESS, GLFW_MOD_SHIFT));
  ASSERT_TRUE(key(*w, clock, GLFW_KEY_LEFT, GLFW_MOD_SHIFT));
  ASSERT_TRUE(w->inject_key(GLFW_KEY_LEFT_SHIFT, GLFW_RELEASE, 0));
  ASSERT_TRUE(key(*w, clock, GLFW_KEY_BACKSPACE));
  EXPECT_STREQ(probe.text, "ab");
  // Ctrl+A selects everything; a typed character replaces it.
  ASSERT_TRUE(w->inject_key(GLFW_KEY_LEFT_CONTROL, GLFW_PRESS, GLFW_MOD_CONTROL));
  ASSERT_TRUE(key(*w, clock, GLFW_KEY_A, GLFW_MOD_CONTROL));
  ASSERT_TRUE(w->inject_key(GLFW_KEY_LEFT_CONTROL, GLFW_RELEASE, 0));
  w->inject_char('z');
  settle(*w, clock);
  EXPECT_STREQ(probe.text, "z");
  ASSERT_TRUE(key(*w, clock, GLFW_KEY_ENTER));
  EXPECT_EQ(probe.entered, 1);
  // A repeat event changes nothing in ImGui (it repeats held keys itself), but is input.
  const auto drawn = w->stats().frames_drawn;
  ASSERT_TRUE(w->inject_key(GLFW_KEY_BACKSPACE, GLFW_REPEAT));
  settle(*w, clock);
  EXPECT_STREQ(probe.text, "z");
  EXPECT_GT(w->stats().frames_drawn, drawn);
}

TEST(InjectKeyTest, BadKeysActionsAndModsAreRefusedAndNothingIsSent) {
  ManualClock clock;
  FieldProbe probe;
  auto w = open_window(test_options(&clock), [&](Window&, CallbackContext&) { probe.draw(); });
  ASSERT_TRUE(w);
  settle(*w, clock);
  const auto drawn = w->stats().frames_drawn;
  const auto wake = w->next_wake();
  struct Case {
    int key, action, mods;
    const char* names;  // what the message must name
  };
  for (const Case c : {Case{-5, GLFW_PRESS, 0, "key -5"}, Case{GLFW_KEY_LAST + 1, GLFW_PRESS, 0, "key 349"},
                       Case{GLFW_KEY_UNKNOWN, GLFW_PRESS, 0, "key -1"}, Case{GLFW_KEY_BACKSPACE, 7, 0, "action 7"},
                       Case{GLFW_KEY_BACKSPACE, -1, 0, "action -1"},
                       Case{GLFW_KEY_BACKSPACE, GLFW_PRESS, 0x400, "mods 1024"},
                       Case{GLFW_KEY_BACKSPACE, GLFW_PRESS, -1, "mods -1"}}) {
    const Status s = w->inject_key(c.key, c.action, c.mods);
    ASSERT_FALSE(s.ok()) << c.names;
    EXPECT_EQ(s.error().code, Errc::invalid_argument);
    EXPECT_NE(s.error().message.find(c.names), std::string::npos) << s.error().message;
  }
  EXPECT_EQ(w->next_wake(), wake) << "no input was counted";
  settle(*w, clock);
  EXPECT_EQ(w->stats().frames_drawn, drawn) << "nothing was drawn for refused keys";
  EXPECT_STREQ(probe.text, "abc") << "nothing reached the field";
  ASSERT_TRUE(key(*w, clock, GLFW_KEY_END)) << "the window takes good keys after bad ones";
  ASSERT_TRUE(key(*w, clock, GLFW_KEY_BACKSPACE));
  EXPECT_STREQ(probe.text, "ab");
}

TEST(InjectFocusTest, LosingFocusLetsGoOfAHeldKey) {
  ManualClock clock;
  FieldProbe probe;
  std::strcpy(probe.text, "a long line of text to delete");
  auto w = open_window(test_options(&clock), [&](Window&, CallbackContext&) { probe.draw(); });
  ASSERT_TRUE(w);
  settle(*w, clock);
  ASSERT_TRUE(key(*w, clock, GLFW_KEY_END));
  ASSERT_TRUE(w->inject_key(GLFW_KEY_BACKSPACE, GLFW_PRESS));
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
  ASSERT_TRUE(w->inject_key(GLFW_KEY_SPACE, GLFW_PRESS));
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
  ASSERT_TRUE(w->inject_key(GLFW_KEY_RIGHT, GLFW_PRESS));
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
