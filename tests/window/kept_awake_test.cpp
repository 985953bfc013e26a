// What keeps a window awake (window.hpp, WindowOptions::on_kept_awake and Volatile): a frame
// counter drawn in the draw function changes in every frame, so the settle check never ends;
// the window names the ImGui window and the text once, and a Volatile scope around the counter
// lets it idle. "Draw again at" requests from a widget with a clock of its own. Manual clock.
#include <gtest/gtest.h>
#include <imgui.h>

#include <cstdio>
#include <string>
#include <vector>

#include "../common/cpu_seconds.hpp"
#include "cadence/event_loop.hpp"
#include "window_fixture.hpp"

namespace cadence::testing {
namespace {

using test::cpu_seconds;

// A focused text field (its caret blinks) and a "Stats" window showing the frames drawn so far.
struct CounterApp {
  char text[32] = "edit me";
  bool focus = true;
  bool volatile_counter = false;
  void draw(Window& w) {
    ImGui::SetNextWindowPos(ImVec2(10, 10));
    ImGui::SetNextWindowSize(ImVec2(300, 120));
    ImGui::Begin("Stats", nullptr, ImGuiWindowFlags_NoDecoration);
    if (focus) {
      ImGui::SetKeyboardFocusHere();
      focus = false;
    }
    ImGui::InputText("##field", text, sizeof text);
    if (volatile_counter) {
      const Volatile counter;
      ImGui::Text("frames drawn: %llu", static_cast<unsigned long long>(w.stats().frames_drawn));
      const Volatile nested;  // scopes may nest
      ImGui::Text("frames run: %llu", static_cast<unsigned long long>(w.stats().frames_run));
    } else {
      ImGui::Text("frames drawn: %llu", static_cast<unsigned long long>(w.stats().frames_drawn));
    }
    ImGui::End();
  }
};

TEST(KeptAwakeTest, AFrameCounterIsNamedOnceWithItsImGuiWindowAndText) {
  ManualClock clock;
  CounterApp app;
  std::vector<AwakeCause> told;
  WindowOptions options = test_options(&clock);
  options.on_kept_awake = [&](Window&, const AwakeCause& cause) { told.push_back(cause); };
  auto w = open_window(options, [&](Window& win, CallbackContext&) { app.draw(win); });
  ASSERT_TRUE(w);
  const int frames = run_for(*w, clock, 5s);
  EXPECT_GT(frames, 250) << "the counter keeps the window drawing at the frame interval";
  ASSERT_EQ(told.size(), 1u) << "named once";
  EXPECT_EQ(told[0].imgui_window, "Stats");
  EXPECT_EQ(told[0].text.rfind("frames drawn: ", 0), 0u) << told[0].text;
  EXPECT_GT(told[0].x, 10.0f);
  EXPECT_GT(told[0].y, 10.0f);
  EXPECT_GE(told[0].over, 3s);
  EXPECT_LT(told[0].over, 3100ms) << "named as soon as it had drawn 3 s for nothing else";
  EXPECT_GE(told[0].frames, 180u);
  ASSERT_TRUE(w->stats().kept_awake.has_value());
  EXPECT_EQ(w->stats().kept_awake->text, told[0].text);
  (void)run_for(*w, clock, 5s);
  EXPECT_EQ(told.size(), 1u) << "once per window";
}

TEST(KeptAwakeTest, TheDefaultMessageOnStderrNamesTheImGuiWindowAndTheText) {
  ManualClock clock;
  CounterApp app;
  auto w = open_window(test_options(&clock), [&](Window& win, CallbackContext&) { app.draw(win); });
  ASSERT_TRUE(w);
  ::testing::internal::CaptureStderr();
  (void)run_for(*w, clock, 4s);
  const std::string said = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(said.find("ImGui window \"Stats\""), std::string::npos) << said;
  EXPECT_NE(said.find("text \"frames drawn: "), std::string::npos) << said;
  EXPECT_NE(said.find("cadence::Volatile"), std::string::npos) << "it says how to fix it: " << said;
  EXPECT_EQ(said.find("cadence: window"), said.rfind("cadence: window")) << "once: " << said;
}

// Dear ImGui's examples print io.Framerate in every frame; with the frame counter and that
// line marked Volatile, a window with a focused text field idles at the caret's wake-ups, in
// real time (the loop sleeps between them).
TEST(KeptAwakeTest, AnAppShowingItsFrameRateIdlesAtTheCaretsWakeUpsInRealTime) {
  CounterApp app;
  app.volatile_counter = true;
  auto w = open_window(test_options(nullptr), [&](Window& win, CallbackContext&) {
    app.draw(win);
    ImGui::Begin("Stats");  // appends to it
    { const Volatile fps; ImGui::Text("Application average %.3f ms/frame (%.1f FPS)", 1000.0f / ImGui::GetIO().Framerate, ImGui::GetIO().Framerate); }
    ImGui::End();
  });
  ASSERT_TRUE(w);
  EventLoop loop;
  Window* window = loop.add(std::move(w)).get();
  loop.run_for(300ms);  // start-up, the field taking focus
  const std::uint64_t wakeups = loop.stats().wakeups;
  const std::uint64_t drawn = window->stats().frames_drawn;
  const double cpu = cpu_seconds();
  loop.run_for(4s);
  const double per_second = static_cast<double>(loop.stats().wakeups - wakeups) / 4.0;
  std::printf("an app showing its frame rate, idle with a focused field: %.2f wake-ups/s, %llu frames drawn in 4 s, "
              "%.2f %% of a core\n",
              per_second, static_cast<unsigned long long>(window->stats().frames_drawn - drawn),
              100.0 * (cpu_seconds() - cpu) / 4.0);
  EXPECT_LE(per_second, 2.5);
  EXPECT_FALSE(window->stats().kept_awake.has_value());
}

TEST(KeptAwakeTest, AVolatileCounterLetsTheWindowIdleAndIsNeverNamed) {
  ManualClock clock;
  CounterApp app;
  app.volatile_counter = true;
  int told = 0;
  WindowOptions options = test_options(&clock);
  options.on_kept_awake = [&](Window&, const AwakeCause&) { ++told; };
  auto w = open_window(options, [&](Window& win, CallbackContext&) { app.draw(win); });
  ASSERT_TRUE(w);
  settle(*w, clock);
  const std::uint64_t drawn = w->stats().frames_drawn;
  (void)run_for(*w, clock, 10s);
  // 10 s of a 530 ms blink: 18 or 19 toggles, one frame each, and nothing else.
  EXPECT_LE(w->stats().frames_drawn - drawn, 19u);
  EXPECT_EQ(told, 0);
  EXPECT_FALSE(w->stats().kept_awake.has_value());
}

TEST(KeptAwakeTest, AVolatileScopeOutsideAnImGuiFrameDoesNothing) {
  ManualClock clock;
  auto w = open_window(test_options(&clock), [](Window&, CallbackContext&) {});
  ASSERT_TRUE(w);
  settle(*w, clock);
  ImGui::SetCurrentContext(w->imgui_context());  // current, but between frames
  { const Volatile outside; }
  ImGui::SetCurrentContext(nullptr);
  { const Volatile no_context; }
  const std::uint64_t drawn = w->stats().frames_drawn;
  w->request_redraw();
  w->frame();
  EXPECT_EQ(w->stats().frames_drawn, drawn + 1) << "the window draws on as before";
}

TEST(KeptAwakeTest, ContentThatChangesWithTimeKeepsDrawingAndIsNotNamedWhileInputComes) {
  // A plot of ImGui::GetTime() must keep drawing (that is the settle check's point); with the
  // pointer moving every 500 ms, the settle-only runs are short and nothing is named.
  ManualClock clock;
  int told = 0;
  WindowOptions options = test_options(&clock);
  options.on_kept_awake = [&](Window&, const AwakeCause&) { ++told; };
  auto w = open_window(options, [](Window&, CallbackContext&) {
    begin_full("plot");
    ImGui::ProgressBar(static_cast<float>(ImGui::GetTime() - static_cast<int>(ImGui::GetTime())));
    ImGui::End();
  });
  ASSERT_TRUE(w);
  int frames = 0;
  for (int i = 0; i < 10; ++i) {
    w->inject_mouse_position(static_cast<float>(20 + i), 20);
    frames += run_for(*w, clock, 500ms);
  }
  EXPECT_GT(frames, 250) << "5 s at the frame interval";
  EXPECT_EQ(told, 0);
}

// A widget with a clock of its own (a toast that hides 700 ms after it was shown) asks for the
// frame it needs; the window draws then, exactly, and is otherwise idle.
TEST(RedrawAtTest, AWidgetsOwnClockGetsTheFrameItAsksForAndNoOther) {
  ManualClock clock;
  std::optional<Instant> shown_at;
  bool showing = false;
  auto w = open_window(test_options(&clock), [&](Window&, CallbackContext& ctx) {
    begin_full("toast");
    showing = shown_at && ctx.frame_start() < *shown_at + 700ms;
    if (showing) {
      ImGui::Text("saved");
      (void)ctx.request_redraw_at(*shown_at + 700ms);  // every frame that shows it asks again
    }
    ImGui::End();
  });
  ASSERT_TRUE(w);
  settle(*w, clock);
  ASSERT_FALSE(w->next_wake().has_value()) << "idle: no caret, nothing animating";
  shown_at = clock.now();
  w->request_redraw();
  settle(*w, clock);
  ASSERT_TRUE(showing);
  const auto wake = w->next_wake();
  ASSERT_TRUE(wake.has_value());
  EXPECT_EQ(clock.now() + *wake, *shown_at + 700ms) << "exactly when the toast hides";
  const std::uint64_t drawn = w->stats().frames_drawn;
  (void)clock.advance(*wake);
  w->frame();
  EXPECT_FALSE(showing);
  EXPECT_EQ(w->stats().frames_drawn, drawn + 1);
  settle(*w, clock);
  EXPECT_FALSE(w->next_wake().has_value()) << "nothing left over";
  EXPECT_GE(w->stats().wakes.redraw, 1u);
}

}  // namespace
}  // namespace cadence::testing
