// Probes of the caret promises (window.hpp "cursor blink"; docs/window.md "System timers").
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>

#include "window_pair.hpp"

namespace cadence::testing {
namespace {

struct Fields {
  char a[64] = "hello";
  char b[64] = "world";
  char full[4] = "abc";   // at capacity (3 chars + NUL)
  char empty[16] = "";
  char multi[1024] = "";
  bool show_a = true;
  std::map<std::string, ImVec4> rects;
  void mark(const char* n) {
    const ImVec2 p = ImGui::GetItemRectMin(), q = ImGui::GetItemRectMax();
    rects[n] = ImVec4(p.x, p.y, q.x, q.y);
  }
  ImVec2 at(const char* n, float fx = 0.5f) {
    const ImVec4 r = rects[n];
    return ImVec2(r.x + (r.z - r.x) * fx, (r.y + r.w) / 2);
  }
  void draw() {
    begin_full("fields");
    if (show_a) { ImGui::InputText("##a", a, sizeof a); mark("a"); }
    ImGui::InputText("##b", b, sizeof b); mark("b");
    ImGui::InputText("##full", full, sizeof full); mark("full");
    ImGui::InputText("##empty", empty, sizeof empty); mark("empty");
    ImGui::InputTextMultiline("##multi", multi, sizeof multi, ImVec2(300, 100)); mark("multi");
    ImGui::End();
  }
};

struct CaretPair {
  Fields f[2];
  Pair pair{[this](Window&, CallbackContext&, int i) { f[i].draw(); }};
  Duration t = 96ms;
  int every_hidden = 0;  // checkpoints of the last scan where the reference hid its caret
  Duration at(Duration step) { return t += step; }
  void click(ImVec2 p) {
    pair.input_at(at(16ms * 2), [&](Window& w) { move_to(w, p); });
    pair.input_at(at(16ms * 2), [](Window& w) { w.inject_mouse_button(0, true); });
    pair.input_at(at(16ms * 2), [](Window& w) { w.inject_mouse_button(0, false); });
  }
  void key(Key k, KeyAction action, KeyMods mods = {}) {
    pair.input_at(at(16ms * 2), [&](Window& w) { (void)w.inject_key(k, action, mods); });
  }
  // Compares at every grid instant in (t, t + d]; returns how many differed (reports the first).
  int scan(Duration d, const std::string& what, int* caret_mismatch = nullptr) {
    int bad = 0, mism = 0;
    every_hidden = 0;
    std::string first;
    const Duration end = t + d;
    for (Duration g = (t / kGrid + 1) * kGrid; g <= end; g += kGrid) {
      const int n = pair.compare_at(g, what, false);
      if (std::getenv("PROBE_TRACE"))
        std::printf("%s +%lld: live %d every %d px %d drawn %llu\n", what.c_str(), static_cast<long long>((g - t).count() / 1000000),
                    caret_shown(pair.live()), caret_shown(pair.every()), n,
                    static_cast<unsigned long long>(pair.live().stats().frames_drawn));
      if (!caret_shown(pair.every())) ++every_hidden;
      if (caret_shown(pair.live()) != caret_shown(pair.every())) {
        ++mism;
        if (first.empty()) first = "caret live=" + std::to_string(caret_shown(pair.live())) + " every=" +
                                   std::to_string(caret_shown(pair.every())) + " at " +
                                   std::to_string((g - t).count() / 1'000'000) + " ms into " + what;
      }
      if (n != 0) {
        if (bad == 0 && first.empty()) first = std::to_string(n) + " px differ at " + std::to_string((g - t).count() / 1'000'000) + " ms into " + what;
        ++bad;
      }
    }
    t = (end / kGrid) * kGrid;  // inputs stay on the reference's frame grid
    if (caret_mismatch) *caret_mismatch = mism;
    EXPECT_EQ(bad, 0) << what << ": " << bad << " grid checkpoints differ; first: " << first;
    EXPECT_EQ(mism, 0) << what << ": caret state differs at " << mism << " checkpoints; first: " << first;
    return bad;
  }
};

// window.hpp: "shows again at once whenever ImGui would restart its own blink: on every edit
// (a typed character, each repeat of a held key) ... so it stays shown while the user types or
// holds Backspace". Backspace held in an EMPTY field: ImGui resets its blink on each repeat.
TEST(PairCaretTest, BackspaceHeldInAnEmptyFieldKeepsTheCaretShownLikeEveryFrame) {
  CaretPair c;
  ASSERT_TRUE(c.pair.ok());
  c.click(c.f[0].at("empty"));
  c.scan(16ms * 8, "after click");
  c.key(Key::backspace, KeyAction::press);
  int mism = 0;
  c.scan(2000ms, "Backspace held in an empty field", &mism);
  EXPECT_EQ(c.every_hidden, 0) << "the reference shows the caret all along (the probe probes something)";
  EXPECT_NE(c.pair.live().imgui_context()->ActiveId, 0u);
  c.key(Key::backspace, KeyAction::release);
  c.scan(1200ms, "Backspace released");
}

// Same with Right arrow held at the end of the text (ImGui resets the blink on every repeat).
TEST(PairCaretTest, RightArrowHeldAtTheEndKeepsTheCaretShownLikeEveryFrame) {
  CaretPair c;
  ASSERT_TRUE(c.pair.ok());
  c.click(c.f[0].at("a", 0.95f));
  c.key(Key::end, KeyAction::press);
  c.key(Key::end, KeyAction::release);
  c.scan(16ms * 8, "after End");
  c.key(Key::right, KeyAction::press);
  c.scan(2000ms, "Right held at the end");
  EXPECT_EQ(c.every_hidden, 0) << "the reference shows the caret all along";
  c.key(Key::right, KeyAction::release);
  c.scan(1200ms, "Right released");
}

// Tab from one field to the next: the new field's caret shows at once, then blinks as the timer says.
TEST(PairCaretTest, TabBetweenTwoFieldsLooksLikeEveryFrame) {
  CaretPair c;
  ASSERT_TRUE(c.pair.ok());
  c.click(c.f[0].at("a"));
  c.scan(700ms, "field a active");  // caret hides at 530 ms
  c.key(Key::tab, KeyAction::press);
  c.key(Key::tab, KeyAction::release);
  c.scan(1200ms, "after Tab");
  EXPECT_EQ(c.pair.live().imgui_context()->InputTextState.ID, c.pair.every().imgui_context()->InputTextState.ID);
  c.key(Key::tab, KeyAction::press, KeyMods{.shift = true});
  c.key(Key::tab, KeyAction::release, KeyMods{.shift = true});
  c.scan(1200ms, "after Shift+Tab");
}

// A multiline field: typing lines, holding Up (caret moves, the field scrolls).
TEST(PairCaretTest, MultilineFieldLooksLikeEveryFrame) {
  CaretPair c;
  ASSERT_TRUE(c.pair.ok());
  c.click(c.f[0].at("multi"));
  for (int line = 0; line < 12; ++line) {
    c.pair.input_at(c.at(16ms * 2), [&](Window& w) { w.inject_char(static_cast<unsigned>('a' + line)); });
    c.key(Key::enter, KeyAction::press);
    c.key(Key::enter, KeyAction::release);
  }
  c.scan(800ms, "typed 12 lines");
  c.key(Key::up, KeyAction::press);
  c.scan(1500ms, "Up held");
  c.key(Key::up, KeyAction::release);
  c.scan(1200ms, "Up released");
}

// A field at capacity receiving characters: ImGui resets its blink on each (nothing is inserted).
TEST(PairCaretTest, AFieldAtCapacityReceivingCharactersLooksLikeEveryFrame) {
  CaretPair c;
  ASSERT_TRUE(c.pair.ok());
  c.click(c.f[0].at("full", 0.9f));
  c.scan(600ms, "full field active");
  for (int i = 0; i < 8; ++i) {
    c.pair.input_at(c.at(16ms * 10), [&](Window& w) { w.inject_char('x'); });
    c.scan(16ms * 6, "after a refused character");
  }
  EXPECT_STREQ(c.f[0].full, "abc");
  c.scan(1200ms, "idle after");
}

// A click in the active field while the caret is hidden: shown at once.
TEST(PairCaretTest, AClickInTheFieldShowsTheCaretAtOnce) {
  CaretPair c;
  ASSERT_TRUE(c.pair.ok());
  c.click(c.f[0].at("a", 0.9f));
  c.scan(16ms * 40, "caret hidden by now");  // 640 ms
  EXPECT_FALSE(caret_shown(c.pair.live()));
  c.click(c.f[0].at("a", 0.05f));
  EXPECT_TRUE(caret_shown(c.pair.live()));
  c.scan(1500ms, "after a click in the field");
}

// Mouse drag-select in a field.
TEST(PairCaretTest, DragSelectInAFieldLooksLikeEveryFrame) {
  CaretPair c;
  ASSERT_TRUE(c.pair.ok());
  c.click(c.f[0].at("b", 0.9f));
  c.scan(16ms * 40, "caret hidden by now");
  c.pair.input_at(c.at(16ms * 2), [&](Window& w) { move_to(w, c.f[0].at("b", 0.02f)); });
  c.pair.input_at(c.at(16ms * 2), [](Window& w) { w.inject_mouse_button(0, true); });
  for (int i = 1; i <= 10; ++i) {
    c.pair.input_at(c.at(16ms * 3), [&](Window& w) { move_to(w, c.f[0].at("b", 0.02f + 0.02f * static_cast<float>(i))); });
  }
  c.scan(1200ms, "button held still after a drag-select");
  c.pair.input_at(c.at(16ms * 2), [](Window& w) { w.inject_mouse_button(0, false); });
  c.scan(1200ms, "released");
}

// A field that becomes inactive while the window is hidden: once shown, no caret wake-ups.
TEST(PairCaretTest, AFieldThatGoesAwayWhileHiddenStopsTheCaretTimer) {
  ManualClock clock;
  Fields f;
  auto w = open_window(test_options(&clock), [&](Window&, CallbackContext&) { f.draw(); });
  ASSERT_TRUE(w);
  run_until_idle(*w, clock, 10);
  settle(*w, clock);
  w->inject_mouse_position(f.at("a").x, f.at("a").y);
  w->inject_mouse_button(0, true);
  settle(*w, clock);
  w->inject_mouse_button(0, false);
  settle(*w, clock);
  ASSERT_TRUE(w->runtime().has_timer(kCursorBlinkTimer));
  (void)clock.advance(600ms);  // the caret's toggle is due (not run: hidden first)
  w->set_visible(false);
  EXPECT_EQ(w->next_wake(), std::nullopt) << "hidden with an active field: nothing to wake for";
  f.show_a = false;
  w->frame();
  EXPECT_EQ(w->stats().frames_drawn, w->stats().frames_drawn);
  (void)clock.advance(2s);
  w->set_visible(true);
  EXPECT_EQ(w->next_wake(), Duration::zero()) << "shown again: draws at once";
  run_for(*w, clock, 3s);
  EXPECT_FALSE(w->runtime().has_timer(kCursorBlinkTimer)) << "the field went away";
  EXPECT_EQ(w->next_wake(), std::nullopt);
  const auto drawn = w->stats().frames_drawn;
  run_for(*w, clock, 3s);
  EXPECT_EQ(w->stats().frames_drawn, drawn);
}

}  // namespace
}  // namespace cadence::testing
