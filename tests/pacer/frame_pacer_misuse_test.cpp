// FramePacer misused: bad options, durations at the limits, a pacer destroyed from its own
// timer, two pacers on one context, a context destroyed or not current, another thread.
#include "cadence/frame_pacer.hpp"

#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>  // ImGui context hooks

#include <atomic>
#include <cmath>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "cadence/manual_clock.hpp"
#include "cadence/redraw_handle.hpp"
#include "frame_pacer_fixture.hpp"

namespace cadence::testing {
namespace {

TEST_F(FramePacerTest, BadInputIsAClearErrorThatNamesTheValueAndTheRule) {
  auto none = FramePacer::create(nullptr, {});
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().code, Errc::invalid_argument);
  EXPECT_NE(none.error().message.find("ImGui::CreateContext"), std::string::npos) << none.error().message;
  PacerOptions o;
  o.caret_blink = 0ms;
  auto caret = FramePacer::create(imgui.context(), o);
  ASSERT_FALSE(caret.ok());
  EXPECT_NE(caret.error().message.find("caret_blink 0 ms must be positive"), std::string::npos) << caret.error().message;
  o = {};
  o.tooltip_delay = -1ms;
  EXPECT_NE(FramePacer::check(o).error().message.find("tooltip_delay -1 ms must not be negative"), std::string::npos);
  o = {};
  o.momentum_decay = Duration::min();
  EXPECT_FALSE(FramePacer::check(o).ok());
}

// The longest durations the checks let through work as "never": the caret stays shown, the
// tooltip never comes, a flick glides on; nothing overflows (UBSan runs this).
TEST_F(FramePacerTest, TheLongestDurationsTheOptionsAllowMeanNever) {
  PacerOptions o;
  o.caret_blink = Duration::max();
  o.tooltip_delay = Duration::max();
  o.momentum_decay = Duration::max();
  auto pacer = make(o);
  char text[16] = "abc";
  bool focus = true;
  bool tooltip_shown = false;
  auto widgets = [&] {
    window("Long", [&] {
      if (std::exchange(focus, false)) ImGui::SetKeyboardFocusHere();
      ImGui::InputText("##f", text, sizeof text);
      ImGui::Button("hover me");
      tooltip_shown = pacer->tooltip("tip") || tooltip_shown;
      const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
      ImGui::GetIO().MousePos = ImVec2((a.x + b.x) / 2, (a.y + b.y) / 2);  // hovered from the next frame
      for (int i = 0; i < 40; ++i) ImGui::Text("line %d", i);  // something to scroll
    });
  };
  (void)run(*pacer, 1s, widgets);
  pacer->on_scroll(0, 3);
  (void)run(*pacer, 50ms, widgets);
  const std::uint64_t before = pacer->stats().frames_drawn;
  (void)run(*pacer, 10s, widgets);
  EXPECT_FALSE(tooltip_shown);
  EXPECT_EQ(pacer->stats().failures, 0u);
  EXPECT_LE(pacer->stats().frames_drawn - before, 10s / 16ms + 1) << "no blink; a glide at most at the frame interval";
}

TEST_F(FramePacerTest, DestroyedFromItsOwnTimerItStopsTheProcessWithAMessage) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        std::unique_ptr<FramePacer> pacer = make();
        FramePacer& p = *pacer;
        (void)p.runtime().add_timer(TimerId::unique(), Timer::once(0ms, [&pacer](TimerCallbackInfo&) {
                                      pacer.reset();
                                      return TimerCallbackReturn::keep();
                                    }));
        (void)p.begin();
      },
      "destroyed from inside one of its own calls");
}

TEST_F(FramePacerTest, OneContextHasOnePacerAndWidgetsFindIt) {
  auto pacer = make();
  EXPECT_EQ(FramePacer::of(imgui.context()), pacer.get());
  EXPECT_EQ(FramePacer::of(nullptr), nullptr);
  auto second = FramePacer::create(imgui.context(), {});
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.error().code, Errc::already_exists);
  EXPECT_NE(second.error().message.find("one pacer per context"), std::string::npos) << second.error().message;
  EXPECT_EQ(FramePacer::of(imgui.context()), pacer.get()) << "a refused create changes nothing";
  pacer.reset();
  EXPECT_EQ(FramePacer::of(imgui.context()), nullptr);
  EXPECT_TRUE(FramePacer::create(imgui.context(), {}).ok()) << "the context is free again";
}

TEST_F(FramePacerTest, APacerWhoseContextWasDestroyedRefusesToTouchIt) {
  std::vector<Failure> failures;
  ImGuiContext* other = ImGui::CreateContext();
  PacerOptions o;
  o.time_source = clock.source();
  o.on_failure = [&](const Failure& f) { failures.push_back(f); };
  auto pacer = FramePacer::create(other, o);
  ASSERT_TRUE(pacer.ok()) << pacer.error().message;
  ImGui::DestroyContext(other);  // also leaves no context current
  ImGui::SetCurrentContext(imgui.context());
  EXPECT_EQ(FramePacer::of(other), nullptr);
  EXPECT_EQ((*pacer)->next_wake(), std::nullopt) << "a loop sleeps instead of spinning on refusals";
  EXPECT_EQ((*pacer)->begin(), FrameKind::none);
  (*pacer)->new_frame();
  (*pacer)->render();
  ASSERT_EQ(failures.size(), 3u);
  EXPECT_EQ(failures[0].error.code, Errc::closed);
  EXPECT_NE(failures[0].error.message.find("destroy the pacer first"), std::string::npos) << failures[0].error.message;
  EXPECT_EQ((*pacer)->stats().frames_drawn, 0u);
  pacer->reset();  // and it goes without touching the context
}

TEST_F(FramePacerTest, ANewFrameWithAnotherContextCurrentDoesNothing) {
  std::vector<Failure> failures;
  PacerOptions o;
  o.on_failure = [&](const Failure& f) { failures.push_back(f); };
  auto pacer = make(o);
  ASSERT_EQ(pacer->begin(), FrameKind::full);
  ImGuiContext* other = ImGui::CreateContext();
  ImGui::SetCurrentContext(other);
  pacer->new_frame();
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0].error.code, Errc::invalid_argument);
  EXPECT_NE(failures[0].error.message.find("ImGui::SetCurrentContext(pacer.imgui_context())"), std::string::npos);
  EXPECT_EQ(ImGui::GetFrameCount(), 0) << "the other context got no frame";
  ImGui::DestroyContext(other);
  ImGui::SetCurrentContext(imgui.context());
  pacer->new_frame();
  window("Still", [] { ImGui::Text("Hello"); });
  pacer->render();
  EXPECT_EQ(pacer->stats().frames_drawn, 1u);
}

TEST_F(FramePacerTest, AnotherThreadIsRefusedOnStderrAndChangesNothing) {
  auto pacer = make();
  ::testing::internal::CaptureStderr();
  FrameKind kind = FrameKind::full;
  std::thread([&] { kind = pacer->begin(); }).join();
  const std::string said = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(kind, FrameKind::none);
  EXPECT_NE(said.find("wrong_thread"), std::string::npos) << said;
  EXPECT_EQ(pacer->stats().frames_run, 0u);
  EXPECT_EQ(pacer->begin(), FrameKind::full) << "the start-up frame is still owed";
}

}  // namespace
}  // namespace cadence::testing
