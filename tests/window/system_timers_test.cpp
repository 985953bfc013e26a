// The window's system timers, driven by a manual clock: scroll momentum, tooltip delay, drag
// autoscroll. Each keeps its timer only while it has work.
#include <gtest/gtest.h>
#include <imgui.h>

#include <vector>

#include "window_fixture.hpp"

namespace cadence::testing {
namespace {

// A window whose one ImGui window holds 300 lines: scrollable.
struct ScrollProbe {
  float scroll = 0;
  float max_scroll = 0;
  void draw() {
    begin_full("list");
    for (int i = 0; i < 300; ++i) ImGui::Text("line %d", i);
    scroll = ImGui::GetScrollY();
    max_scroll = ImGui::GetScrollMaxY();
    ImGui::End();
  }
};

TEST(ScrollMomentumTest, AFlickKeepsScrollingThenStops) {
  ManualClock clock;
  ScrollProbe probe;
  auto w = open_window(test_options(&clock), [&](Window&, CallbackContext&) { probe.draw(); });
  ASSERT_TRUE(w);
  w->inject_mouse_position(200, 150);
  run_until_idle(*w, clock);
  ASSERT_GT(probe.max_scroll, 1000.0f);
  ASSERT_EQ(probe.scroll, 0.0f);

  w->inject_scroll(0, -1);  // one notch down
  std::vector<float> positions;
  for (int frame = 0; frame < 400; ++frame) {
    auto next = w->next_wake();
    if (!next) break;
    (void)clock.advance(*next);
    w->frame();
    positions.push_back(probe.scroll);
  }
  ASSERT_GE(positions.size(), 10u) << "the scroll went on for many frames after the event";
  EXPECT_GT(positions.back(), positions.front()) << "and kept moving down";
  // It slows down: the last steps are smaller than the early ones, and it comes to rest.
  const float early = positions[3] - positions[2];
  const float late = positions[positions.size() - 3] - positions[positions.size() - 4];
  EXPECT_GT(early, late);
  EXPECT_FALSE(w->runtime().has_timer(kScrollMomentumTimer)) << "the momentum timer is gone";
  EXPECT_EQ(w->next_wake(), std::nullopt) << "at rest, nothing is scheduled";
  const float rest = probe.scroll;
  (void)clock.advance(1s);
  w->request_redraw();
  w->frame();
  EXPECT_EQ(probe.scroll, rest) << "it stays where it stopped";
}

TEST(TooltipDelayTest, ATooltipAppearsAfterItsDelayAndNotBefore) {
  ManualClock clock;
  ImVec2 center{};
  bool shown = false;
  auto w = open_window(test_options(&clock), [&](Window& win, CallbackContext&) {
    begin_full("tips");
    ImGui::Button("hover me", ImVec2(120, 40));
    center = ImVec2((ImGui::GetItemRectMin().x + ImGui::GetItemRectMax().x) / 2,
                    (ImGui::GetItemRectMin().y + ImGui::GetItemRectMax().y) / 2);
    shown = win.tooltip("a tip");
    ImGui::End();
  });
  ASSERT_TRUE(w);
  run_until_idle(*w, clock);
  w->inject_mouse_position(center.x, center.y);
  w->frame();
  const Duration settling = settle(*w, clock);  // the hover highlight settles
  EXPECT_FALSE(shown);
  ASSERT_TRUE(w->runtime().has_timer(kTooltipDelayTimer));
  EXPECT_EQ(w->next_wake(), 500ms - settling) << "one wake-up, at the delay; no frames meanwhile";
  const std::uint64_t drawn = w->stats().frames_drawn;
  (void)clock.advance(499ms - settling);
  w->request_redraw();  // a frame just before the delay (as if something else drew)
  w->frame();
  EXPECT_FALSE(shown) << "not before the delay";
  EXPECT_EQ(w->next_wake(), 1ms);
  (void)clock.advance(1ms);
  w->frame();
  EXPECT_TRUE(shown) << "at the delay";
  EXPECT_EQ(w->stats().frames_drawn, drawn + 2);
  // Moving away hides it and drops the timer.
  w->inject_mouse_position(5, 300);
  while (w->next_wake() == Duration::zero()) w->frame();
  EXPECT_FALSE(shown);
  EXPECT_FALSE(w->runtime().has_timer(kTooltipDelayTimer));
}

TEST(DragAutoscrollTest, DraggingNearTheBottomEdgeScrollsUntilReleased) {
  ManualClock clock;
  ScrollProbe probe;
  auto w = open_window(test_options(&clock), [&](Window&, CallbackContext&) { probe.draw(); });
  ASSERT_TRUE(w);
  w->inject_mouse_position(200, 150);
  run_until_idle(*w, clock);
  w->inject_mouse_button(0, true);
  while (w->next_wake() == Duration::zero()) w->frame();
  w->inject_mouse_position(200, 315);  // dragged to 5 px from the bottom edge
  for (int i = 0; i < 30; ++i) {
    (void)clock.advance(16ms);
    w->frame();
  }
  EXPECT_TRUE(w->runtime().has_timer(kDragAutoscrollTimer));
  const float scrolled = probe.scroll;
  EXPECT_GT(scrolled, 50.0f) << "about 0.5 s near the edge scrolls a good way";
  w->inject_mouse_position(200, 360);  // on past the edge, out of the window: full speed
  for (int i = 0; i < 10; ++i) {
    (void)clock.advance(16ms);
    w->frame();
  }
  EXPECT_GT(probe.scroll, scrolled + 100.0f) << "10 frames at 900 px/s, still scrolling outside the window";
  w->inject_mouse_button(0, false);
  for (int i = 0; i < 5; ++i) {
    (void)clock.advance(16ms);
    w->frame();
  }
  EXPECT_FALSE(w->runtime().has_timer(kDragAutoscrollTimer)) << "released: the timer is gone";
  const float after = probe.scroll;
  (void)clock.advance(500ms);
  w->request_redraw();
  w->frame();
  EXPECT_EQ(probe.scroll, after);
}

}  // namespace
}  // namespace cadence::testing
