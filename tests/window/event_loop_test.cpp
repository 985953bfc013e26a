// Several windows in one loop, each with its own runtime.
#include "cadence/event_loop.hpp"

#include <gtest/gtest.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include "window_fixture.hpp"

namespace cadence::testing {
namespace {

TEST(EventLoopTest, TwoWindowsEachRunTheirOwnTimers) {
  // Both runtimes read one manual clock; the test moves it to the soonest wake-up of the two
  // and lets the loop run without sleeping, as its own wait would have.
  ManualClock clock;
  const Instant t0 = clock.now();
  EventLoop loop;
  std::vector<Duration> a_runs, b_runs;
  auto a = open_window(test_options(&clock), [](Window&, CallbackContext&) {
    begin_full("a");
    ImGui::Text("window a");
    ImGui::End();
  });
  auto b = open_window(test_options(&clock), [](Window&, CallbackContext&) {
    begin_full("b");
    ImGui::Text("window b");
    ImGui::End();
  });
  ASSERT_TRUE(a && b);
  ASSERT_TRUE(a->runtime().add_timer(TimerId::unique(), Timer::every(40ms, [&](TimerCallbackInfo& info) {
    a_runs.push_back(info.frame_start - t0);
  })).ok());
  ASSERT_TRUE(b->runtime().add_timer(TimerId::unique(), Timer::every(70ms, [&](TimerCallbackInfo& info) {
    b_runs.push_back(info.frame_start - t0);
  })).ok());
  EXPECT_FALSE(a->runtime().has_timer(TimerId{}));
  Window* wa = loop.add(std::move(a));
  Window* wb = loop.add(std::move(b));
  EXPECT_EQ(loop.window_count(), 2u);
  loop.run_once(0ms);  // both join the loop
  while (clock.now() - t0 < 500ms) {
    const Duration left = 500ms - (clock.now() - t0);
    const Duration next = std::min({wa->next_wake().value_or(1s), wb->next_wake().value_or(1s), left});
    (void)clock.advance(next);
    loop.run_once(0ms);
  }
  // Each window's timer ran on its own period, unaffected by the other's frames.
  ASSERT_EQ(a_runs.size(), 12u);  // 40, 80, ..., 480 ms
  ASSERT_EQ(b_runs.size(), 7u);   // 70, 140, ..., 490 ms
  for (std::size_t i = 0; i < a_runs.size(); ++i) EXPECT_EQ(a_runs[i], 40ms * static_cast<int>(i + 1));
  for (std::size_t i = 0; i < b_runs.size(); ++i) EXPECT_EQ(b_runs[i], 70ms * static_cast<int>(i + 1));
  EXPECT_GE(wa->stats().frames_drawn, 2u);
  EXPECT_GE(wb->stats().frames_drawn, 2u);
  // Closing one leaves the other running.
  wa->request_close();
  loop.run_once(0ms);
  EXPECT_EQ(loop.window_count(), 1u);
  wb->request_close();
  EXPECT_FALSE(loop.run_once(0ms));
}

TEST(EventLoopTest, AWindowOpenedFromADrawFunctionJoinsTheLoop) {
  EventLoop loop;
  bool opened = false;
  Window* second = nullptr;
  auto first = open_window(test_options(nullptr), [&](Window&, CallbackContext&) {
    begin_full("first");
    if (!opened) {
      opened = true;
      auto w = Window::create(test_options(nullptr), [](Window&, CallbackContext&) {
        begin_full("second");
        ImGui::Text("second window");
        ImGui::End();
      });
      if (w.ok()) second = loop.add(std::move(*w));
    }
    ImGui::End();
  });
  ASSERT_TRUE(first);
  loop.add(std::move(first));
  for (int i = 0; i < 20 && (second == nullptr || second->stats().frames_drawn < 2); ++i) loop.run_once(1s);
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(loop.window_count(), 2u);
  EXPECT_GE(second->stats().frames_drawn, 2u);
}

}  // namespace
}  // namespace cadence::testing
