// Probes of request_redraw/request_close from the draw function, the settle rule with held
// keys, tooltip delay with moves, hidden windows, next_wake() and WakeReasons.
#include <stdexcept>

#include "window_pair.hpp"

namespace cadence::testing {
namespace {

// window.hpp: "request_redraw(): Makes the next frame() build and render an ImGui frame."
// Called from the draw function of a frame that changes nothing.
TEST(PairWindowTest, RequestRedrawFromTheDrawFunctionDrawsTheNextFrame) {
  ManualClock clock;
  bool ask = false;
  int draws = 0;
  auto w = open_window(test_options(&clock), [&](Window& win, CallbackContext&) {
    ++draws;
    begin_full("x");
    ImGui::Text("static");
    ImGui::End();
    if (std::exchange(ask, false)) win.request_redraw();
  });
  ASSERT_TRUE(w);
  run_until_idle(*w, clock);
  ASSERT_EQ(w->next_wake(), std::nullopt);
  (void)clock.advance(1s);
  w->request_redraw();
  ask = true;
  w->frame();  // draws; its draw function asks for another
  const int after_first = draws;
  EXPECT_EQ(w->next_wake(), Duration::zero()) << "a redraw was asked for from the draw function";
  (void)clock.advance(100ms);
  w->frame();
  EXPECT_EQ(draws, after_first + 1) << "the next frame() draws";
}

// window.hpp on_failure: "Each failure also redraws the window"; on_close: "If it throws, the
// window stays open and the error goes to on_failure". request_close() from the draw function.
TEST(PairWindowTest, AThrowingOnCloseAskedFromTheDrawFunctionRedraws) {
  ManualClock clock;
  bool ask = false;
  int failures = 0, draws = 0;
  WindowOptions o = test_options(&clock);
  o.on_close = [](Window&) -> bool { throw std::runtime_error("nope"); };
  o.on_failure = [&](const Failure&) { ++failures; };
  auto w = open_window(o, [&](Window& win, CallbackContext&) {
    ++draws;
    begin_full("x");
    ImGui::Text("failures %d", 0);
    ImGui::End();
    if (std::exchange(ask, false)) win.request_close();
  });
  ASSERT_TRUE(w);
  run_until_idle(*w, clock);
  (void)clock.advance(1s);
  w->request_redraw();
  ask = true;
  w->frame();
  EXPECT_EQ(failures, 1);
  EXPECT_FALSE(w->should_close());
  const int d = draws;
  EXPECT_EQ(w->next_wake(), Duration::zero()) << "the failure owes a frame";
  (void)clock.advance(100ms);
  w->frame();
  EXPECT_EQ(draws, d + 1) << "the failure redraws the window";
}

// request_close() from the draw function, default on_close: closes; no more frames.
TEST(PairWindowTest, RequestCloseFromTheDrawFunctionCloses) {
  ManualClock clock;
  bool ask = false;
  int draws = 0;
  auto w = open_window(test_options(&clock), [&](Window& win, CallbackContext&) {
    ++draws;
    if (std::exchange(ask, false)) win.request_close();
  });
  ASSERT_TRUE(w);
  run_until_idle(*w, clock);
  ask = true;
  w->request_redraw();
  w->frame();
  EXPECT_TRUE(w->should_close());
  const int d = draws;
  w->request_redraw();
  w->frame();
  EXPECT_EQ(draws, d);
}

// "at the frame interval ... after any frame drawn for input (immediate mode shows what input
// changed late in a frame only in the next)". A click on a button whose count shows above it,
// while an unrelated key (A) is held: compared with drawing every frame at each grid instant.
TEST(PairWindowTest, WhatAClickChangesShowsAtTheNextFrameWhileAKeyIsHeld) {
  struct App {
    int count = 0;
    ImVec2 button{};
    void draw() {
      begin_full("x");
      ImGui::Text("count %d", count);
      if (ImGui::Button("add", ImVec2(100, 30))) ++count;
      button = ImVec2((ImGui::GetItemRectMin().x + ImGui::GetItemRectMax().x) / 2,
                      (ImGui::GetItemRectMin().y + ImGui::GetItemRectMax().y) / 2);
      ImGui::End();
    }
  } app[2];
  Pair pair([&](Window&, CallbackContext&, int i) { app[i].draw(); });
  ASSERT_TRUE(pair.ok());
  Duration t = 96ms;
  pair.input_at(t += 32ms, [&](Window& w) { move_to(w, app[0].button); });
  pair.input_at(t += 32ms, [](Window& w) { (void)w.inject_key(Key::a, KeyAction::press); });
  const Duration pressed = t;
  int bad = 0, clicks = 0;
  std::string first;
  // Clicks at several phases against the key's 50 ms repeat.
  for (Duration c = pressed + 400ms; c < pressed + 2000ms; c += 112ms) {
    pair.input_at(c, [](Window& w) { w.inject_mouse_button(0, true); });
    pair.input_at(c + 32ms, [](Window& w) { w.inject_mouse_button(0, false); });
    ++clicks;
    for (Duration g = c + 48ms; g <= c + 96ms; g += kGrid) {
      const int n = pair.compare_at(g, "after a click", false);
      if (n != 0 && bad++ == 0) {
        first = std::to_string(n) + " px differ " + std::to_string((g - c - 32ms).count() / 1'000'000) +
                " ms after the release; counts " + std::to_string(app[0].count) + " vs " + std::to_string(app[1].count);
      }
    }
  }
  EXPECT_EQ(app[0].count, clicks);
  EXPECT_EQ(bad, 0) << "grid checkpoints that differ: " << first;
  pair.input_at(pressed + 2100ms, [](Window& w) { (void)w.inject_key(Key::a, KeyAction::release); });
}

// Tooltip delay with moves: between items, within an item, off and back.
TEST(PairWindowTest, TooltipDelayWithMovesLooksLikeEveryFrame) {
  struct App {
    ImVec4 a{}, b{};
    bool shown = false;
    void draw(Window& w) {
      begin_full("x");
      ImGui::Button("first", ImVec2(120, 40));
      a = ImVec4(ImGui::GetItemRectMin().x, ImGui::GetItemRectMin().y, ImGui::GetItemRectMax().x, ImGui::GetItemRectMax().y);
      shown = w.tooltip("first tip");
      ImGui::Button("second", ImVec2(120, 40));
      b = ImVec4(ImGui::GetItemRectMin().x, ImGui::GetItemRectMin().y, ImGui::GetItemRectMax().x, ImGui::GetItemRectMax().y);
      shown = w.tooltip("second tip") || shown;
      ImGui::End();
    }
  } app[2];
  Pair pair([&](Window& w, CallbackContext&, int i) { app[i].draw(w); });
  ASSERT_TRUE(pair.ok());
  Duration t = 96ms;
  pair.run_to(t);
  const ImVec4 a = app[0].a, b = app[0].b;
  int bad = 0;
  std::string first;
  auto scan = [&](Duration d, const char* what) {
    const Duration end = t + d;
    for (Duration g = (t / kGrid + 1) * kGrid; g <= end; g += kGrid) {
      const int n = pair.compare_at(g, what, false);
      if (n != 0 && bad++ == 0)
        first = std::string(what) + ": " + std::to_string(n) + " px, shown " + std::to_string(app[0].shown) + "/" +
                std::to_string(app[1].shown) + " at +" + std::to_string((g - t).count() / 1'000'000) + " ms";
    }
    t = (end / kGrid) * kGrid;
  };
  pair.input_at(t += 32ms, [&](Window& w) { w.inject_mouse_position(a.x + 10, a.y + 10); });
  scan(300ms, "first hovered 300 ms");
  EXPECT_FALSE(app[0].shown);
  pair.input_at(t += 16ms, [&](Window& w) { w.inject_mouse_position(a.x + 60, a.y + 30); });  // within
  scan(300ms, "moved within first");
  EXPECT_TRUE(app[0].shown) << "hovered 616 ms in all";
  pair.input_at(t += 16ms, [&](Window& w) { w.inject_mouse_position(b.x + 10, b.y + 10); });
  scan(400ms, "second hovered 400 ms");
  EXPECT_FALSE(app[0].shown);
  pair.input_at(t += 16ms, [&](Window& w) { w.inject_mouse_position(b.z + 100, b.w + 100); });  // off
  pair.input_at(t += 16ms, [&](Window& w) { w.inject_mouse_position(b.x + 10, b.y + 10); });  // back
  scan(400ms, "back on second 400 ms");
  EXPECT_FALSE(app[0].shown) << "the hover restarted";
  scan(300ms, "second, 700 ms");
  EXPECT_TRUE(app[0].shown);
  EXPECT_EQ(bad, 0) << "checkpoints that differ: " << first;
}

// set_visible(false): nothing drawn, no wake-ups for system timers, a redraw asked meanwhile
// drawn at once when shown; is_hidden() at once.
TEST(PairWindowTest, AHiddenWindowWithWorkPendingWakesForNothing) {
  ManualClock clock;
  char text[32] = "abc";
  auto w = open_window(test_options(&clock), [&](Window& win, CallbackContext&) {
    begin_full("x");
    ImGui::InputText("##t", text, sizeof text);
    ImGui::Button("tip");
    win.tooltip("tip");
    for (int i = 0; i < 100; ++i) ImGui::Text("line %d", i);
    ImGui::End();
  });
  ASSERT_TRUE(w);
  run_until_idle(*w, clock, 10);
  w->inject_mouse_position(40, 12);
  w->inject_mouse_button(0, true);
  w->frame();
  w->inject_mouse_button(0, false);
  w->frame();
  (void)w->inject_key(Key::left, KeyAction::press);  // held: ImGui repeat instants
  w->inject_scroll(0, -2);                          // momentum
  w->frame();
  ASSERT_NE(w->next_wake(), std::nullopt);
  w->set_visible(false);
  EXPECT_TRUE(w->is_hidden());
  EXPECT_EQ(w->next_wake(), std::nullopt) << "hidden: nothing to wake for";
  const auto drawn = w->stats().frames_drawn;
  w->request_redraw();
  EXPECT_EQ(w->next_wake(), std::nullopt);
  (void)clock.advance(5s);
  w->frame();
  EXPECT_EQ(w->stats().frames_drawn, drawn);
  (void)w->inject_key(Key::left, KeyAction::release);
  w->set_visible(true);
  EXPECT_EQ(w->next_wake(), Duration::zero());
  w->frame();
  EXPECT_EQ(w->stats().frames_drawn, drawn + 1);
}

// set_visible(false) from the draw function: is_hidden() says so, and nothing more is drawn.
TEST(PairWindowTest, SetVisibleFalseFromTheDrawFunctionHides) {
  ManualClock clock;
  bool hide = false;
  auto w = open_window(test_options(&clock), [&](Window& win, CallbackContext&) {
    begin_full("x");
    ImGui::Text("t");
    ImGui::End();
    if (std::exchange(hide, false)) win.set_visible(false);
  });
  ASSERT_TRUE(w);
  run_until_idle(*w, clock);
  hide = true;
  w->request_redraw();
  w->frame();
  EXPECT_TRUE(w->is_hidden()) << "hidden with set_visible(false) from the draw function";
  const auto drawn = w->stats().frames_drawn;
  for (int i = 0; i < 5; ++i) {
    (void)clock.advance(16ms);
    w->frame();
  }
  EXPECT_EQ(w->stats().frames_drawn, drawn) << "draws nothing while hidden";
}

// next_wake() vs frames: while idle with a caret, frames run before the wake draw nothing; the
// frame at the wake draws exactly once (the toggle).
TEST(PairWindowTest, NextWakeSaysWhenTheNextFrameDraws) {
  ManualClock clock;
  char text[32] = "abc";
  auto w = open_window(test_options(&clock), [&](Window&, CallbackContext&) {
    begin_full("x");
    ImGui::InputText("##t", text, sizeof text);
    ImGui::End();
  });
  ASSERT_TRUE(w);
  run_until_idle(*w, clock, 10);
  w->inject_mouse_position(40, 12);
  w->inject_mouse_button(0, true);
  w->frame();
  w->inject_mouse_button(0, false);
  w->frame();
  settle(*w, clock);
  for (int k = 0; k < 6; ++k) {
    const auto next = w->next_wake();
    ASSERT_TRUE(next);
    const auto drawn = w->stats().frames_drawn;
    (void)clock.advance(*next - 1ms);
    w->frame();
    EXPECT_EQ(w->stats().frames_drawn, drawn) << "nothing drawn before the wake";
    EXPECT_EQ(w->next_wake(), 1ms);
    (void)clock.advance(1ms);
    w->frame();
    EXPECT_EQ(w->stats().frames_drawn, drawn + 1) << "one frame per toggle";
  }
}

// WakeReasons: "A frame counts once under every reason that applies to it" / input: "input
// arrived". Input that arrives while hidden, with an app timer running while hidden.
TEST(PairWindowTest, InputWhileHiddenCountsOnce) {
  ManualClock clock;
  auto w = open_window(test_options(&clock), [&](Window&, CallbackContext&) {});
  ASSERT_TRUE(w);
  run_until_idle(*w, clock);
  (void)w->runtime().add_timer(TimerId::unique(), Timer::every(100ms, [](TimerCallbackInfo&) { return TimerCallbackReturn::keep(); }));
  w->set_visible(false);
  w->inject_mouse_position(10, 10);
  const auto input_before = w->stats().wakes.input;
  for (int i = 0; i < 10; ++i) {
    (void)clock.advance(*w->next_wake());
    w->frame();
  }
  EXPECT_LE(w->stats().wakes.input - input_before, 1u) << "one input event, counted under input in every frame";
}

// window.hpp: "The rule: the window draws while ImGui still needs frames". ImGui::SetScrollY()
// from a frame drawn for request_redraw() takes effect in the next frame.
TEST(PairWindowTest, SetScrollYInAFrameDrawnForARedrawRequestReachesTheScreen) {
  struct App {
    bool jump = false;
    float scroll = 0;
    void draw() {
      begin_full("x");
      if (std::exchange(jump, false)) ImGui::SetScrollY(300);
      for (int i = 0; i < 200; ++i) ImGui::Text("line %d", i);
      scroll = ImGui::GetScrollY();
      ImGui::End();
    }
  } app[2];
  Pair pair([&](Window&, CallbackContext&, int i) { app[i].draw(); });
  ASSERT_TRUE(pair.ok());
  pair.input_at(160ms, [&](Window& w) {
    app[&w == &pair.live() ? 0 : 1].jump = true;
    w.request_redraw();
  });
  pair.compare_at(160ms + 16ms * 10, "160 ms after SetScrollY(300)");
  EXPECT_EQ(app[1].scroll, 300.0f);
  EXPECT_EQ(app[0].scroll, app[1].scroll) << "event-driven window vs every frame";
}

}  // namespace
}  // namespace cadence::testing
