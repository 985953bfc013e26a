// Probes of drag autoscroll (window.hpp "drag autoscroll"; system_timers.hpp DragAutoscroll).
#include <GLFW/glfw3.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "window_pair.hpp"

namespace cadence::testing {
namespace {

struct List {
  int lines = 200;
  float set_scroll = -1;
  float scroll = 0, max = 0;
  ImVec4 rect{};
  void draw() {
    begin_full("outer");
    ImGui::Text("a list:");
    ImGui::BeginChild("list", ImVec2(0, 200), true);
    if (set_scroll >= 0) { ImGui::SetScrollY(set_scroll); set_scroll = -1; }
    for (int i = 0; i < lines; ++i) ImGui::Text("line %d", i);
    scroll = ImGui::GetScrollY();
    max = ImGui::GetScrollMaxY();
    ImGui::EndChild();
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    rect = ImVec4(a.x, a.y, b.x, b.y);
    ImGui::End();
  }
};

struct ScrollPair {
  List l[2];
  Pair pair{[this](Window&, CallbackContext&, int i) { l[i].draw(); }};
  Duration t = 96ms;
  Duration at(Duration step) { return t += step; }
  void move(float x, float y, Duration step = 16ms) {
    pair.input_at(at(step), [&](Window& w) { w.inject_mouse_position(x, y); });
  }
  void button(bool down) { pair.input_at(at(16ms * 2), [&](Window& w) { w.inject_mouse_button(0, down); }); }
  // Compares scroll and pixels at every grid instant up to t + d.
  int scan(Duration d, const std::string& what) {
    int bad = 0;
    std::string first;
    const Duration end = t + d;
    for (Duration g = (t / kGrid + 1) * kGrid; g <= end; g += kGrid) {
      const std::size_t before = pair.live_frame_times.size();
      const int n = pair.compare_at(g, what, false);
      if (std::getenv("PROBE_TRACE")) {
        std::printf("%s +%lld: scroll %.1f/%.1f px %d frames:", what.c_str(), static_cast<long long>((g - t).count() / 1000000),
                    l[0].scroll, l[1].scroll, n);
        for (std::size_t k = before; k < pair.live_frame_times.size(); ++k)
          std::printf(" %.1f", static_cast<double>(pair.live_frame_times[k].count()) / 1e6);
        std::printf("\n");
      }
      if (n != 0 || l[0].scroll != l[1].scroll) {
        if (bad == 0) {
          char buf[200];
          std::snprintf(buf, sizeof buf, "%d px differ, scroll live %.1f every %.1f, at %lld ms into %s", n, l[0].scroll,
                        l[1].scroll, static_cast<long long>((g - t).count() / 1'000'000), what.c_str());
          first = buf;
        }
        ++bad;
      }
    }
    t = (end / kGrid) * kGrid;  // inputs stay on the reference's frame grid
    EXPECT_EQ(bad, 0) << what << ": " << bad << " grid checkpoints differ; first: " << first;
    return bad;
  }
  void set_scroll(float s) {
    pair.input_at(at(16ms * 2), [&](Window& w) {
      l[&w == &pair.live() ? 0 : 1].set_scroll = s;
      w.inject_mouse_position(2, 2);  // input: a frame and its settle frame (see ProbeMisc.SetScrollY...)
    });
    scan(16ms * 6, "scroll set");
  }
  // Frames of the live window drawn off the 16 ms grid since index `from`.
  int off_grid(std::size_t from) const {
    int n = 0;
    for (std::size_t i = from; i < pair.live_frame_times.size(); ++i) n += pair.live_frame_times[i] % kGrid != Duration::zero();
    return n;
  }
};

// Past the top edge, the pointer leaving the OS window: scrolls up as drawing every frame does, stops at 0.
TEST(PairAutoscrollTest, PastTheTopEdgeLooksLikeEveryFrame) {
  ScrollPair s;
  ASSERT_TRUE(s.pair.ok());
  s.scan(16ms * 4, "start");
  const ImVec4 r = s.l[0].rect;
  s.set_scroll(600);
  ASSERT_EQ(s.l[0].scroll, 600);
  s.move(r.x + 60, r.y + 100, 16ms * 2);
  s.button(true);
  const std::size_t from = s.pair.live_frame_times.size();
  for (int i = 1; i <= 6; ++i) s.move(r.x + 60, r.y + 100 - 30.0f * static_cast<float>(i));  // to y = -80 (outside)
  s.scan(560ms, "held above the top edge");
  EXPECT_GT(s.l[0].scroll, 0) << "still gliding";
  EXPECT_EQ(s.off_grid(from), 0) << "a drag autoscroll stays on the frame interval";
  s.scan(940ms, "held above the top edge, later");
  EXPECT_EQ(s.l[0].scroll, 0) << "reached the top";
  s.button(false);
  s.scan(16ms * 10, "released");
}

// The drag started with the button pressed inside; released far outside the OS window.
TEST(PairAutoscrollTest, ReleasedOutsideStopsLikeEveryFrame) {
  ScrollPair s;
  ASSERT_TRUE(s.pair.ok());
  const ImVec4 r = s.l[0].rect;
  s.move(r.x + 60, r.y + 40, 16ms * 2);
  s.button(true);
  for (int i = 1; i <= 4; ++i) s.move(r.x + 60, r.y + 40 + 60.0f * static_cast<float>(i));  // below, 280 px
  s.move(r.x + 60, 400);  // outside the 320 px OS window
  s.scan(700ms, "held below, outside the window");
  EXPECT_GT(s.l[0].scroll, 200);
  s.button(false);
  s.scan(600ms, "released outside");
  EXPECT_FALSE(s.pair.live().runtime().has_timer(kDragAutoscrollTimer));
  const auto drawn = s.pair.live().stats().frames_drawn;
  s.scan(1000ms, "idle");
  EXPECT_LE(s.pair.live().stats().frames_drawn, drawn + 1);
}

// The wheel used during the drag (with its momentum).
TEST(PairAutoscrollTest, WheelDuringTheDragLooksLikeEveryFrame) {
  ScrollPair s;
  ASSERT_TRUE(s.pair.ok());
  const ImVec4 r = s.l[0].rect;
  s.move(r.x + 60, r.y + 40, 16ms * 2);
  s.button(true);
  for (int i = 1; i <= 4; ++i) s.move(r.x + 60, r.w - 4.0f - (r.w - 4.0f - (r.y + 40)) * (1.0f - static_cast<float>(i) / 4));
  s.scan(300ms, "at the bottom edge");
  s.pair.input_at(s.at(16ms * 2), [](Window& w) { w.inject_scroll(0, 2); });  // up, against the glide
  s.scan(700ms, "wheel up during the drag");
  s.pair.input_at(s.at(16ms * 2), [](Window& w) { w.inject_scroll(0, -3); });
  s.scan(700ms, "wheel down during the drag");
  s.button(false);
  s.scan(1500ms, "released");
}

// Scrolling up while the list shrinks under the glide (a timer every 64 ms, on the frame grid),
// or while an app timer's frames come between the glide's (every 70 ms, a redraw that changes
// nothing): the glide stays on the frame grid, as drawing every frame. (Known difference: both at
// once, ImGui clamps the scroll to the shrunk list in an off-grid frame, one frame before a loop
// drawing every frame does, and the glide goes on from there.)
void shrink_while_scrolling_up(bool shrink, bool frames_between) {
  ScrollPair s;
  ASSERT_TRUE(s.pair.ok());
  const ImVec4 r = s.l[0].rect;
  s.set_scroll(2000);  // the bottom
  s.move(r.x + 60, r.y + 100, 16ms * 2);
  s.button(true);
  for (int i = 1; i <= 4; ++i) s.move(r.x + 60, r.y + 100 - 22.0f * static_cast<float>(i));  // 12 px above the inner top
  for (int i = 0; i < 2; ++i) {
    List* list = &s.l[i];
    if (shrink) {
      (void)s.pair.win(i).runtime().add_timer(TimerId::unique(), Timer::every(64ms, [list](TimerCallbackInfo&) {
        if (list->lines > 60) list->lines -= 6;
        return TimerCallbackReturn::redraw();
      }));
    }
    if (frames_between) {
      (void)s.pair.win(i).runtime().add_timer(TimerId::unique(),
                                              Timer::every(70ms, [](TimerCallbackInfo&) { return TimerCallbackReturn::redraw(); }));
    }
  }
  s.scan(2000ms, "scrolling up");
  s.button(false);
  s.scan(300ms, "released");
}

TEST(PairAutoscrollTest, ContentShrinkingUnderTheGlideLooksLikeEveryFrame) { shrink_while_scrolling_up(true, false); }
TEST(PairAutoscrollTest, AppTimerFramesBetweenTheGlidesLookLikeEveryFrame) { shrink_while_scrolling_up(false, true); }

// Content that grows under a pointer held at the bottom edge: the glide starts in a frame
// drawn for an app timer (off the grid in the live window).
TEST(PairAutoscrollTest, ContentGrowingUnderAHeldPointerLooksLikeEveryFrame) {
  ScrollPair s;
  s.l[0].lines = s.l[1].lines = 5;
  ASSERT_TRUE(s.pair.ok());
  s.scan(16ms * 4, "start");
  const ImVec4 r = s.l[0].rect;
  s.move(r.x + 60, r.y + 40, 16ms * 2);
  s.button(true);
  for (int i = 1; i <= 4; ++i) s.move(r.x + 60, r.y + 40 + (r.w - 6 - (r.y + 40)) * static_cast<float>(i) / 4);
  s.scan(200ms, "held at the bottom edge, nothing to scroll");
  for (int i = 0; i < 2; ++i) {
    List* list = &s.l[i];
    (void)s.pair.win(i).runtime().add_timer(TimerId::unique(), Timer::once(37ms, [list](TimerCallbackInfo&) {
      list->lines = 200;
      return TimerCallbackReturn::redraw();
    }));
  }
  s.scan(1000ms, "grown: scrolling");
  s.button(false);
  s.scan(300ms, "released");
}

// Holding the list's scrollbar grab still near the bottom edge: a still screen costs nothing?
TEST(PairAutoscrollTest, AScrollbarGrabHeldStillNearTheEdgeDoesNotDrawForever) {
  ScrollPair s;
  ASSERT_TRUE(s.pair.ok());
  const ImVec4 r = s.l[0].rect;
  const float sx = r.z - 6;  // on the scrollbar
  s.move(sx, r.y + 12, 16ms * 2);
  s.button(true);
  for (int i = 1; i <= 5; ++i) s.move(sx, r.y + 12 + (r.w - 8 - (r.y + 12)) * static_cast<float>(i) / 5);
  s.scan(300ms, "grab dragged to the bottom edge");
  const auto drawn = s.pair.live().stats().frames_drawn;
  const float scroll = s.l[0].scroll;
  s.scan(1000ms, "held still");
  EXPECT_EQ(s.l[0].scroll, scroll) << "the screen is still";
  EXPECT_LE(s.pair.live().stats().frames_drawn - drawn, 8u) << "a still screen costs nothing";
  s.button(false);
}

// A drag-select in a multiline field, past its bottom edge.
TEST(PairAutoscrollTest, DragSelectInAMultilineFieldPastItsEdgeLooksLikeEveryFrame) {
  struct M {
    char text[4096];
    ImVec4 rect{};
    M() {
      text[0] = 0;
      for (int i = 0; i < 60; ++i) std::snprintf(text + std::strlen(text), 40, "row %d\n", i);
    }
    void draw() {
      begin_full("m");
      ImGui::InputTextMultiline("##m", text, sizeof text, ImVec2(300, 200));
      const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
      rect = ImVec4(a.x, a.y, b.x, b.y);
      ImGui::End();
    }
  } m[2];
  Pair pair([&](Window&, CallbackContext&, int i) { m[i].draw(); });
  ASSERT_TRUE(pair.ok());
  Duration t = 96ms;
  pair.run_to(t);
  const ImVec4 r = m[0].rect;
  pair.input_at(t += 32ms, [&](Window& w) { w.inject_mouse_position(r.x + 40, r.y + 30); });
  pair.input_at(t += 32ms, [&](Window& w) { w.inject_mouse_button(0, true); });
  for (int i = 1; i <= 4; ++i) {
    pair.input_at(t += 16ms, [&](Window& w) { w.inject_mouse_position(r.x + 40, r.y + 30 + (r.w - 36 - r.y) * static_cast<float>(i) / 4); });
  }
  int bad = 0;
  for (int k = 1; k <= 80; ++k) {
    const std::size_t before = pair.live_frame_times.size();
    const int n = pair.compare_at(t += 16ms, "multiline held at its bottom edge", false);
    bad += n != 0;
    if (std::getenv("PROBE_TRACE")) {
      std::printf("multiline +%d: px %d frames:", k * 16, n);
      for (std::size_t q = before; q < pair.live_frame_times.size(); ++q) std::printf(" %.1f", static_cast<double>(pair.live_frame_times[q].count()) / 1e6);
      std::printf("\n");
    }
  }
  EXPECT_EQ(bad, 0) << "checkpoints that differ while held";
  pair.input_at(t += 32ms, [&](Window& w) { w.inject_mouse_button(0, false); });
  bad = 0;
  for (int k = 1; k <= 80; ++k) bad += pair.compare_at(t += 16ms, "released", false) != 0;
  EXPECT_EQ(bad, 0) << "checkpoints that differ after release";
}

}  // namespace
}  // namespace cadence::testing
