// The event-driven window against ImGui drawing every frame (window_pair.hpp) for held keys with
// keyboard navigation on, and for a sub-menu that opens on a hover delay: the two windows are
// compared at every frame-grid instant of each hold, where ImGui's own repeats and delays land.
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include "cadence/imgui_features.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "window_pair.hpp"

namespace cadence::testing {
namespace {

// Keyboard navigation, which Dear ImGui's example programs turn on: a held arrow moves the focus
// and tweaks an active slider faster than io.KeyRepeatRate (ImGui waits 0.72 times the delay,
// then repeats at 0.80 times the rate for a move, 0.30 times for a tweak), and a held Space
// presses a repeating button. The two windows are
// compared at every frame-grid instant of each hold, so at the frame after each of ImGui's repeats.
struct NavApp {
  int presses = 0;  // of the repeating button
  int value = 0;
  ImGuiID nav_id = 0;  // the focused item after the frame
  ImGuiID button_id = 0, slider_id = 0;
  ImGuiID text_state_id = 0;  // what ImGui's text editing state names after the frame
  std::vector<ImGuiID> items;
  void draw() {
    ImGui::GetIO().ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
    ImGui::SetNextWindowPos(ImVec2(10, 10));
    ImGui::SetNextWindowSize(ImVec2(300, 440));
    ImGui::Begin("nav", nullptr, ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse);
    if (repeating_arrow_button("##more", ImGuiDir_Right)) ++presses;
    button_id = ImGui::GetItemID();
    ImGui::SameLine();
    ImGui::Text("%d", presses);
    ImGui::SliderInt("##tweak", &value, 0, 100);
    slider_id = ImGui::GetItemID();
    items.clear();
    for (int i = 0; i < 60; ++i) {
      char label[24];
      std::snprintf(label, sizeof label, "item %d", i);
      ImGui::Selectable(label);
      items.push_back(ImGui::GetItemID());
    }
    ImGui::End();
    nav_id = ImGui::GetCurrentContext()->NavId;
    text_state_id = ImGui::GetCurrentContext()->InputTextState.ID;
  }
  int item() const { return static_cast<int>(std::find(items.begin(), items.end(), nav_id) - items.begin()); }
};

// Keys pressed and held on both windows of a pair, on the frame grid, from `t` on.
struct KeyScript {
  Pair& p;
  Duration t = 96ms;
  void key(Duration at, Key k, KeyAction action) {
    t = at;
    p.input_at(t, [&](Window& w) { ASSERT_TRUE(w.inject_key(k, action).ok()); });
  }
  void tap(Key k) {
    key(t + 16ms * 2, k, KeyAction::press);
    key(t + 16ms * 2, k, KeyAction::release);
    p.compare_at(t += 16ms * 4, "after a tap");
  }
  // Holds `k` for `held` (whole grid intervals), comparing both windows at every grid instant;
  // `check` each time too. Returns the frames the event-driven window drew while `k` was held.
  std::uint64_t hold(Key k, Duration held, const std::string& what, const std::function<void()>& check = [] {}) {
    key(t + 16ms * 2, k, KeyAction::press);
    const Duration pressed_at = t;
    const std::uint64_t frames_before = p.live().stats().frames_drawn;
    for (Duration d = kGrid; d <= held; d += kGrid) {
      p.compare_at(pressed_at + d, what + ", " + std::to_string(d.count() / 1'000'000) + " ms after the press");
      check();
    }
    const std::uint64_t frames = p.live().stats().frames_drawn - frames_before;
    key(pressed_at + held + kGrid, k, KeyAction::release);
    p.compare_at(t += 16ms * 4, what + ": released");
    return frames;
  }
};

TEST(FidelityTest, KeyboardNavigationRepeatsLookTheSameAsDrawingEveryFrame) {
  NavApp apps[2];
  Pair p([&](Window&, CallbackContext&, int i) { apps[i].draw(); }, 480, 460);
  ASSERT_TRUE(p.ok());
  KeyScript keys{p};
  p.compare_at(keys.t, "start-up");
  keys.tap(Key::down);  // the focus goes to the window's first item, or past it,
  keys.tap(Key::up);    // and back up to it: the repeating button
  ASSERT_EQ(apps[0].nav_id, apps[0].button_id);
  ASSERT_EQ(apps[1].nav_id, apps[1].button_id);
  // Space held on it presses it at each repeat: before 1.89 on navigation's schedule, from 1.89
  // at io.KeyRepeatRate.
  keys.hold(Key::space, 16ms * 62, "Space held on the repeating button", [&] { EXPECT_EQ(apps[0].presses, apps[1].presses); });
  EXPECT_GT(apps[1].presses, 10) << "the button repeated";
  EXPECT_EQ(apps[0].presses, apps[1].presses);
  keys.tap(Key::down);
  ASSERT_EQ(apps[0].nav_id, apps[0].slider_id);
  ASSERT_EQ(apps[1].nav_id, apps[1].slider_id);
  keys.tap(Key::space);  // activates it: the arrows tweak its value
  keys.hold(Key::right, 16ms * 62, "Right held on the active slider", [&] { EXPECT_EQ(apps[0].value, apps[1].value); });
  EXPECT_GT(apps[1].value, 30) << "the slider was tweaked";
  EXPECT_EQ(apps[0].value, apps[1].value);
  keys.tap(Key::space);  // done tweaking
  keys.hold(Key::down, 16ms * 62, "Down held in the list", [&] { EXPECT_EQ(apps[0].item(), apps[1].item()); });
  EXPECT_GT(apps[1].item(), 15) << "the focus moved down the list";
  EXPECT_EQ(apps[0].item(), apps[1].item());
  std::printf("keyboard navigation: ImGui %s, button pressed %d times, slider at %d, focus on item %d; event-driven "
              "drew %llu frames, every-frame %llu\n",
              IMGUI_VERSION, apps[0].presses, apps[0].value, apps[0].item(), static_cast<unsigned long long>(p.live().stats().frames_drawn),
              static_cast<unsigned long long>(p.every().stats().frames_drawn));
}

// A slider once edited as text (Enter on it) leaves ImGui's text editing state naming it; when
// it is later active as a slider, its tweaks are still navigation's, not a text field's keys.
TEST(FidelityTest, ASliderOnceEditedAsTextTweaksAsWhenDrawingEveryFrame) {
  NavApp apps[2];
  Pair p([&](Window&, CallbackContext&, int i) { apps[i].draw(); }, 480, 460);
  ASSERT_TRUE(p.ok());
  KeyScript keys{p};
  p.compare_at(keys.t, "start-up");
  for (const Key k : {Key::down, Key::up, Key::down}) keys.tap(k);  // to the slider
  ASSERT_EQ(apps[0].nav_id, apps[0].slider_id);
  keys.tap(Key::enter);  // edits it as text,
  keys.tap(Key::enter);  // and keeps the value
  for (const NavApp& app : apps) {
    ASSERT_EQ(app.text_state_id, app.slider_id) << "ImGui's text state still names the slider";
    ASSERT_EQ(app.nav_id, app.slider_id);
  }
  keys.tap(Key::space);  // active as a slider: the arrows tweak it
  // A slider has no caret: an idle second and a half draws nothing.
  const std::uint64_t frames = p.live().stats().frames_drawn;
  p.compare_at(keys.t += 1500ms, "the slider active, idle");
  EXPECT_EQ(p.live().stats().frames_drawn, frames) << "frames drawn for the active slider left alone";
  keys.hold(Key::right, 16ms * 62, "Right held on the active slider", [&] { EXPECT_EQ(apps[0].value, apps[1].value); });
  EXPECT_GT(apps[1].value, 30) << "the slider was tweaked";
  EXPECT_EQ(apps[0].value, apps[1].value);
}

// Holds `key` for 992 ms in an active text field with keyboard navigation on, comparing both
// windows at every frame-grid instant; returns the frames the event-driven window drew meanwhile.
std::uint64_t hold_in_a_text_field(Key key) {
  struct App {
    char text[256] = "type here";
    bool focus = true;
    void draw() {
      ImGui::GetIO().ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
      ImGui::SetNextWindowPos(ImVec2(10, 10));
      ImGui::SetNextWindowSize(ImVec2(300, 100));
      ImGui::Begin("text", nullptr, ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse);
      if (focus) ImGui::SetKeyboardFocusHere();
      focus = false;
      ImGui::InputText("##field", text, sizeof text);
      ImGui::End();
    }
  } apps[2];
  Pair p([&](Window&, CallbackContext&, int i) { apps[i].draw(); }, 320, 120);
  EXPECT_TRUE(p.ok());
  if (!p.ok()) return 0;
  KeyScript keys{p};
  p.compare_at(keys.t, "start-up: the field is being edited");
  return keys.hold(key, kGrid * 62, std::string(to_string(key)) + " held");
}

// A text field reads the keys it takes at io.KeyRepeatRate alone, a letter as an arrow (the
// arrows Left and Right are its own, not navigation's), and the event-driven window wakes for
// those repeats only (the caret runs, so each may edit), not at navigation's 40 ms or the 15 ms
// of a slider's tweak. ImGui repeats the key at 275 ms, then every 50 ms: 15 repeats in the
// 992 ms held; the caret may add a blink or two.
TEST(FidelityTest, ALetterHeldInATextFieldWakesOnlyAtItsOwnRepeats) {
  EXPECT_LE(hold_in_a_text_field(Key::a), 15u + 4u) << "frames drawn while A was held";
}

TEST(FidelityTest, AnArrowHeldInATextFieldWakesOnlyAtItsOwnRepeats) {
  EXPECT_LE(hold_in_a_text_field(Key::right), 15u + 4u) << "frames drawn while Right was held";
}

// With keyboard navigation on, a held arrow repeats on two schedules: navigation's, which moves
// the focus (sooner and faster), and the key's own, which the app reads with IsKeyPressed(key,
// true). Where navigation has no item to move to, its repeats change nothing: that must not end
// the wait for the key's, whose every repeat moves the app's own cursor.
TEST(FidelityTest, AnArrowTheAppReadsRepeatsWhereNavigationFindsNoItem) {
  struct App {
    int steps = 0;
    void draw() {
      ImGui::GetIO().ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
      ImGui::SetNextWindowPos(ImVec2(10, 10));
      ImGui::SetNextWindowSize(ImVec2(300, 100));
      ImGui::Begin("canvas", nullptr, ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse);
#if CADENCE_IMGUI_INPUT_EVENTS
      if (ImGui::IsKeyPressed(ImGuiKey_RightArrow, true)) ++steps;
#else
      if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow), true)) ++steps;
#endif
      ImGui::Text("the app's cursor at %d", steps);
      ImGui::End();
    }
  } apps[2];
  Pair p([&](Window&, CallbackContext&, int i) { apps[i].draw(); }, 320, 120);
  ASSERT_TRUE(p.ok());
  KeyScript keys{p};
  p.compare_at(keys.t, "start-up");
  keys.hold(Key::right, kGrid * 62, "Right held", [&] { EXPECT_EQ(apps[0].steps, apps[1].steps); });
  EXPECT_GE(apps[1].steps, 15) << "the key repeated for the app";
}

// A sub-menu the pointer stops over while heading for another sub-menu's open popup does not
// open at once (ImGui thinks the pointer is on its way to the open one); from 1.90.1, it opens
// once hovered and still for 0.30 s. No input comes then: the window must wake for it.
TEST(FidelityTest, ASubMenuHoveredStillOpensAsWhenDrawingEveryFrame) {
  struct App {
    ImVec4 file, alpha, beta;  // item rectangles: min x, min y, max x, max y
    bool beta_open = false;
    static ImVec4 rect() {
      const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
      return ImVec4(a.x, a.y, b.x, b.y);
    }
    void draw() {
      ImGui::SetNextWindowPos(ImVec2(10, 10));
      ImGui::SetNextWindowSize(ImVec2(400, 300));
      ImGui::Begin("menus", nullptr, ImGuiWindowFlags_MenuBar | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                                         ImGuiWindowFlags_NoCollapse);
      beta_open = false;
      if (ImGui::BeginMenuBar()) {
        const bool open = ImGui::BeginMenu("File");
        file = rect();
        if (open) {
          const bool a = ImGui::BeginMenu("alpha sub-menu");
          alpha = rect();
          if (a) {
            for (const char* item : {"a1", "a2", "a3", "a4", "a5", "a6"}) ImGui::MenuItem(item);
            ImGui::EndMenu();
          }
          const bool b = ImGui::BeginMenu("beta sub-menu");
          beta = rect();
          if (b) {
            beta_open = true;
            ImGui::MenuItem("b1");
            ImGui::EndMenu();
          }
          ImGui::EndMenu();
        }
        ImGui::EndMenuBar();
      }
      ImGui::End();
    }
  } apps[2];
  Pair p([&](Window&, CallbackContext&, int i) { apps[i].draw(); }, 480, 320);
  ASSERT_TRUE(p.ok());
  Duration t = 96ms;
  p.compare_at(t, "start-up");
  const auto move = [&](float x, float y) {
    p.input_at(t += kGrid * 2, [&](Window& w) { w.inject_mouse_position(x, y); });
    p.compare_at(t += kGrid * 2, "the pointer moved");
  };
  const auto centre = [](const ImVec4& r) { return ImVec2((r.x + r.z) / 2, (r.y + r.w) / 2); };
  const ImVec2 file = centre(apps[0].file);
  move(file.x, file.y);
  p.input_at(t += kGrid * 2, [](Window& w) { w.inject_mouse_button(0, true); });
  p.input_at(t += kGrid * 2, [](Window& w) { w.inject_mouse_button(0, false); });
  p.compare_at(t += kGrid * 4, "File open");
  const ImVec2 alpha = centre(apps[0].alpha);
  move(alpha.x, alpha.y);
  ASSERT_GT(apps[1].alpha.w, 0) << "the File menu shows its sub-menus";
  // From the middle of alpha to the right end of beta, just below: towards alpha's popup.
  move(apps[0].beta.z - 3, (apps[0].beta.y + apps[0].beta.w) / 2);
  EXPECT_FALSE(apps[1].beta_open) << "ImGui waits: the pointer may be heading for alpha's popup";
  for (Duration d = kGrid; d <= kGrid * 40; d += kGrid) {
    p.compare_at(t + d, "stopped over beta, " + std::to_string(d.count() / 1'000'000) + " ms on");
  }
  EXPECT_EQ(apps[0].beta_open, apps[1].beta_open);
  EXPECT_EQ(apps[1].beta_open, CADENCE_IMGUI_MENU_HOVER_TIMEOUT != 0) << "beta opens after 0.30 s still from 1.90.1 only";
  std::printf("sub-menu hovered still: ImGui %s, beta %s\n", IMGUI_VERSION, apps[1].beta_open ? "opened" : "stayed shut");
}

}  // namespace
}  // namespace cadence::testing
