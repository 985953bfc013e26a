// FramePacer on a manual clock: frames come when something asks (the caret, animations, input,
// requests) and never otherwise, and what is drawn is what that instant shows.
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

TEST_F(FramePacerTest, AStillScreenComesToRestAndThenSleepsUntilAnEvent) {
  auto pacer = make();
  const auto drawn = run(*pacer, 10s, [] { window("Still", [] { ImGui::Text("Hello"); }); });
  EXPECT_GE(drawn.size(), 2u);
  EXPECT_LE(drawn.size(), 6u) << "start-up and the settle check only";
  EXPECT_LT(drawn.back() - drawn.front(), 200ms);
  EXPECT_EQ(pacer->next_wake(), std::nullopt);
  EXPECT_EQ(pacer->stats().frames_drawn, drawn.size());
}

TEST_F(FramePacerTest, AFocusedTextFieldWakesForTheCaretAlone) {
  auto pacer = make();
  char text[32] = "abc";
  bool focus = true;
  auto widgets = [&] {
    window("Field", [&] {
      if (std::exchange(focus, false)) ImGui::SetKeyboardFocusHere();
      ImGui::InputText("##f", text, sizeof text);
    });
  };
  (void)run(*pacer, 1s, widgets);
  const std::uint64_t before = pacer->stats().frames_drawn;
  const auto drawn = run(*pacer, 5300ms, widgets);
  EXPECT_EQ(drawn.size(), 10u) << "one frame per caret toggle, every 530 ms";
  EXPECT_EQ(pacer->stats().frames_drawn - before, drawn.size());
  for (std::size_t i = 1; i < drawn.size(); ++i) EXPECT_EQ(drawn[i] - drawn[i - 1], 530ms) << i;
}

// Tools draw into an app's frames from ImGui's own hooks (a test harness, an overlay): a text
// field drawn from a NewFramePost hook added after the pacer blinks as the app's own would. A
// frame asked for in the middle of each blink phase, long after the frame before it, shows the
// caret as that frame did (the field used to be drawn before the pacer's hooks ran, so that a
// long sleep showed the caret in a hidden phase).
TEST_F(FramePacerTest, AFieldDrawnFromALaterNewFrameHookBlinksAsTheAppsOwn) {
  auto pacer = make();
  struct Hooked {
    char text[32] = "abc";
    bool focus = true;
    std::vector<bool> caret;  // per frame drawn: the caret shown, by ImGui's own rule
  } hooked;
  ImGuiContextHook draw{};
  draw.Type = ImGuiContextHookType_NewFramePost;
  draw.UserData = &hooked;
  draw.Callback = [](ImGuiContext*, ImGuiContextHook* h) {
    Hooked& f = *static_cast<Hooked*>(h->UserData);
    ImGui::Begin("Hooked");
    if (std::exchange(f.focus, false)) ImGui::SetKeyboardFocusHere();
    ImGui::InputText("##f", f.text, sizeof f.text);
    ImGui::End();
    // What the field drew its caret from (ImGui 1.86-1.92: shown while the phase is <= 0 or
    // within the first 0.8 s of each 1.2 s).
    const float anim = ImGui::GetCurrentContext()->InputTextState.CursorAnim;
    f.caret.push_back(anim <= 0.0f || std::fmod(anim, 1.2f) <= 0.8f);
  };
  const ImGuiID draw_id = ImGui::AddContextHook(imgui.context(), &draw);

  (void)run(*pacer, 1s, [] {});
  std::vector<Instant> toggled;
  while (toggled.empty()) toggled = run(*pacer, 1ms, [] {});  // to the next toggle
  Instant toggle = toggled[0];
  std::vector<bool> shown_by_phase;
  for (int phase = 0; phase < 6; ++phase) {
    const bool screen = hooked.caret.back();
    // Halfway to the next toggle: a frame drawn then must show what the screen shows.
    ASSERT_TRUE(pacer->runtime().request_redraw_at(toggle + 265ms).ok());
    const std::size_t before = hooked.caret.size();
    const std::vector<Instant> asked = run(*pacer, toggle + 265ms - clock.now(), [] {});
    ASSERT_GE(asked.size(), 1u);
    EXPECT_EQ(hooked.caret[before], screen) << "phase " << phase << ": a frame 265 ms into it differs from the screen";
    EXPECT_EQ(asked.size(), 1u) << "phase " << phase << ": the asked-for frame started a settle check";
    shown_by_phase.push_back(screen);
    toggled = run(*pacer, toggle + 530ms - clock.now(), [] {});
    ASSERT_EQ(toggled.size(), 1u) << "phase " << phase;
    EXPECT_EQ(toggled[0] - toggle, 530ms) << "phase " << phase;
    toggle = toggled[0];
  }
  for (std::size_t i = 1; i < shown_by_phase.size(); ++i) {
    EXPECT_NE(shown_by_phase[i], shown_by_phase[i - 1]) << "the caret blinks: phase " << i;
  }
  ImGui::RemoveContextHook(imgui.context(), draw_id);
}

TEST_F(FramePacerTest, IoDeltaTimeIsTheTimeBetweenDrawnFramesOnTheClock) {
  auto pacer = make();
  std::vector<float> deltas;
  const auto drawn = run(*pacer, 1s, [&] {
    deltas.push_back(ImGui::GetIO().DeltaTime);
    window("Still", [] { ImGui::Text("Hello"); });
  });
  ASSERT_GE(drawn.size(), 2u);
  for (std::size_t i = 1; i < drawn.size(); ++i) {
    EXPECT_FLOAT_EQ(deltas[i], std::chrono::duration<float>(drawn[i] - drawn[i - 1]).count()) << i;
  }
}

TEST_F(FramePacerTest, ATimeDrivenAnimationKeepsDrawingAtTheFrameInterval) {
  auto pacer = make();
  const auto drawn = run(*pacer, 1s, [] {
    window("Anim", [] { ImGui::ProgressBar(static_cast<float>(std::fmod(ImGui::GetTime(), 1.0))); });
  });
  EXPECT_GE(drawn.size(), 60u);
  for (std::size_t i = 1; i < drawn.size(); ++i) EXPECT_LE(drawn[i] - drawn[i - 1], 16ms) << i;
}

TEST_F(FramePacerTest, ContentThatChangesInEveryFrameIsNamedOnceWithItsWindowAndText) {
  auto pacer = make_naming();
  int frames = 0;
  const auto drawn = run(*pacer, 5s, [&] { window("Counter", [&] { ImGui::Text("frames: %d", ++frames); }); });
  EXPECT_GT(drawn.size(), 250u) << "it never comes to rest";
  ASSERT_EQ(named.size(), 1u);
  EXPECT_EQ(named[0].imgui_window, "Counter");
  EXPECT_NE(named[0].text.find("frames: "), std::string::npos) << named[0].text;
  ASSERT_TRUE(pacer->stats().kept_awake);
  EXPECT_EQ(pacer->stats().kept_awake->imgui_window, "Counter");
}

TEST_F(FramePacerTest, VolatileContentLetsTheScreenRest) {
  auto pacer = make_naming();
  int frames = 0;
  const auto drawn = run(*pacer, 5s, [&] {
    window("Counter", [&] {
      ImGui::Text("still");
      const Volatile counter;
      ImGui::Text("frames: %d", ++frames);
    });
  });
  EXPECT_LE(drawn.size(), 6u);
  EXPECT_EQ(pacer->next_wake(), std::nullopt);
  EXPECT_TRUE(named.empty());
}

// A top-level scope around a second Begin() of a window begun earlier in the frame marks what
// that Begin() appends (the first Begin()'s content is not the scope's).
TEST_F(FramePacerTest, VolatileAroundASecondBeginOfAWindowMarksWhatItAppends) {
  auto pacer = make_naming();
  int frames = 0;
  const auto drawn = run(*pacer, 5s, [&] {
    window("Main", [] { ImGui::Text("still"); });
    {
      const Volatile counter;
      ImGui::Begin("Main");
      ImGui::Text("frames: %d", ++frames);
      ImGui::End();
    }
  });
  EXPECT_LE(drawn.size(), 6u);
  EXPECT_EQ(pacer->next_wake(), std::nullopt);
  EXPECT_TRUE(named.empty()) << named.front().imgui_window << ": " << named.front().text;
}

// ...and only that: what a third Begin() appends after the scope still keeps the window awake.
TEST_F(FramePacerTest, VolatileAroundASecondBeginLeavesWhatComesAfterTheScope) {
  auto pacer = make_naming();
  int frames = 0;
  (void)run(*pacer, 5s, [&] {
    window("Main", [] { ImGui::Text("still"); });
    {
      const Volatile marked;
      ImGui::Begin("Main");
      ImGui::Text("marked: %d", frames);
      ImGui::End();
    }
    ImGui::Begin("Main");
    ImGui::Text("after: %d", ++frames);
    ImGui::End();
  });
  ASSERT_FALSE(named.empty()) << "the text after the scope changes in every frame";
  EXPECT_EQ(named.front().imgui_window, "Main");
  EXPECT_EQ(named.front().text.rfind("after", 0), 0u) << named.front().text;
}

// Draw code that asks for its own frame's instant (or for "now" on a clock that has not moved)
// gets the frame it is drawing, not a second, identical one.
TEST_F(FramePacerTest, ADrawThatAsksForItsOwnFramesInstantGetsThatFrame) {
  auto pacer = make();
  bool ask = false;
  std::vector<Instant> asked_at;
  auto widgets = [&] {
    window("Still", [] { ImGui::Text("Hello"); });
    if (!std::exchange(ask, false)) return;
    CallbackContext& ctx = pacer->context();
    asked_at.push_back(ctx.frame_start());
    EXPECT_TRUE(ctx.request_redraw_at(ctx.frame_start()).ok());
    EXPECT_TRUE(ctx.request_redraw_after(0ms).ok());
    EXPECT_TRUE(ctx.request_redraw_at(ctx.frame_start() - 5ms).ok());
  };
  (void)run(*pacer, 1s, widgets);
  ASSERT_EQ(pacer->next_wake(), std::nullopt);
  ASSERT_TRUE(pacer->runtime().request_redraw_after(10ms).ok());
  ask = true;
  const auto drawn = run(*pacer, 1s, widgets);
  ASSERT_EQ(asked_at.size(), 1u);
  EXPECT_EQ(drawn, std::vector<Instant>{asked_at.front()}) << "one frame, at the instant asked for from outside";
  EXPECT_EQ(pacer->next_wake(), std::nullopt);
}

// Two widgets of one draw: one asks for a frame 500 ms on (a toast that fades then), the other
// for its own frame's instant. Either order, the 500 ms frame comes.
TEST_F(FramePacerTest, ADrawAskingForItsOwnInstantLeavesALaterRequestOfTheSameDraw) {
  for (const bool own_first : {false, true}) {
    auto pacer = make();
    bool ask = false;
    std::optional<Instant> asked;
    auto widgets = [&] {
      window("Still", [] { ImGui::Text("Hello"); });
      if (!std::exchange(ask, false)) return;
      CallbackContext& ctx = pacer->context();
      asked = ctx.frame_start();
      if (own_first) {
        EXPECT_TRUE(ctx.request_redraw_after(0ms).ok());
      }
      EXPECT_TRUE(ctx.request_redraw_at(*asked + 500ms).ok());
      if (!own_first) {
        EXPECT_TRUE(ctx.request_redraw_at(*asked).ok());
      }
    };
    (void)run(*pacer, 1s, widgets);
    ASSERT_TRUE(pacer->runtime().request_redraw_after(10ms).ok());
    ask = true;
    const auto drawn = run(*pacer, 1s, widgets);
    ASSERT_TRUE(asked);
    EXPECT_EQ(drawn, (std::vector<Instant>{*asked, *asked + 500ms})) << (own_first ? "own instant first" : "later first");
  }
}

// Another thread that asks, during the draw, for an instant the frame has passed (its data came
// after the widgets read it) gets a frame of its own: only the draw code's requests are the frame's.
TEST_F(FramePacerTest, AnotherThreadsRequestDuringTheDrawGetsAFrame) {
  auto pacer = make();
  const RedrawHandle handle = pacer->runtime().redraw_handle();
  bool ask = false;
  int shown = 0;
  std::atomic<int> data{0};
  auto widgets = [&] {
    shown = data.load();
    window("Value", [&] { ImGui::Text("value %d", shown); });
    if (!std::exchange(ask, false)) return;
    const Instant start = pacer->context().frame_start();
    std::thread([&] {
      data = 42;
      EXPECT_TRUE(handle.at(start - 1ms).ok());
    }).join();
  };
  (void)run(*pacer, 1s, widgets);
  ASSERT_TRUE(pacer->runtime().request_redraw_after(10ms).ok());
  ask = true;
  (void)run(*pacer, 1s, widgets);
  EXPECT_EQ(shown, 42) << "the worker's value reached the screen";
}

// Volatile scopes that overlap without nesting, ending in the order they began.
TEST_F(FramePacerTest, OverlappingVolatileScopesEachMarkWhatTheyCovered) {
  auto pacer = make_naming();
  int frames = 0;
  const auto drawn = run(*pacer, 5s, [&] {
    ++frames;
    window("Main", [&] {
      ImGui::Text("still");
      std::optional<Volatile> a, b;
      a.emplace();
      ImGui::Text("a %d", frames);
      b.emplace();
      a.reset();
      ImGui::Text("b %d", frames);
      b.reset();
    });
  });
  EXPECT_LE(drawn.size(), 6u);
  EXPECT_TRUE(named.empty()) << named.front().imgui_window << ": " << named.front().text;
}

TEST_F(FramePacerTest, ARedrawAskedForAtAnInstantComesExactlyThen) {
  auto pacer = make();
  auto widgets = [] { window("Still", [] { ImGui::Text("Hello"); }); };
  (void)run(*pacer, 1s, widgets);
  const Instant at = clock.now() + 250ms + 3us;
  ASSERT_TRUE(pacer->runtime().request_redraw_at(at).ok());
  const auto drawn = run(*pacer, 1s, widgets);
  ASSERT_FALSE(drawn.empty());
  EXPECT_EQ(drawn.front(), at);
}

TEST_F(FramePacerTest, InputDrawsAtOnceAndAHiddenWindowDrawsNothingUntilShown) {
  auto pacer = make();
  auto widgets = [] { window("Still", [] { ImGui::Text("Hello"); }); };
  (void)run(*pacer, 1s, widgets);
  pacer->on_input();
  EXPECT_EQ(pacer->next_wake(), Duration::zero());
  EXPECT_EQ(pacer->begin(), FrameKind::full);
  pacer->new_frame();
  widgets();
  pacer->render();
  (void)run(*pacer, 1s, widgets);
  pacer->set_hidden(true);
  EXPECT_TRUE(pacer->is_hidden());
  pacer->request_redraw();
  pacer->on_input();
  EXPECT_TRUE(run(*pacer, 2s, widgets).empty());
  pacer->set_hidden(false);
  EXPECT_EQ(pacer->next_wake(), Duration::zero()) << "shown again, it draws at once";
  EXPECT_FALSE(run(*pacer, 1s, widgets).empty());
}

TEST_F(FramePacerTest, ABeginFromInsideAFrameDrawsNothing) {
  auto pacer = make();
  ASSERT_EQ(pacer->begin(), FrameKind::full);
  pacer->new_frame();
  EXPECT_EQ(pacer->begin(), FrameKind::none);
  window("Still", [] { ImGui::Text("Hello"); });
  pacer->render();
  EXPECT_EQ(pacer->stats().frames_drawn, 1u);
}

// An app may skip a frame it began: a minimized window, a loop that decides late not to draw
// (new_frame() never called), or one that ends ImGui's frame with ImGui::EndFrame() instead of
// render(). The frame stays owed and the pacer goes on: it used to refuse every begin() after,
// while next_wake() said zero for ever.
TEST_F(FramePacerTest, AFrameBegunAndSkippedIsOwedAgainAndThePacerGoesOn) {
  auto pacer = make();
  auto widgets = [] { window("Still", [] { ImGui::Text("Hello"); }); };
  (void)run(*pacer, 1s, widgets);
  const std::uint64_t before = pacer->stats().frames_drawn;
  pacer->request_redraw();
  ASSERT_EQ(pacer->begin(), FrameKind::full);  // and the app skips it
  EXPECT_EQ(pacer->next_wake(), Duration::zero()) << "the skipped frame is still owed";
  ASSERT_EQ(pacer->begin(), FrameKind::full);
  pacer->new_frame();
  widgets();
  ImGui::EndFrame();  // skipped after new_frame(): ImGui's frame ended, nothing rendered
  EXPECT_EQ(pacer->next_wake(), Duration::zero());
  ASSERT_EQ(pacer->begin(), FrameKind::full);
  pacer->new_frame();
  widgets();
  pacer->render();
  EXPECT_EQ(pacer->stats().frames_drawn, before + 1) << "only rendered frames count as drawn";
  const std::uint64_t drawn = pacer->stats().frames_drawn;
  (void)run(*pacer, 1s, widgets);
  EXPECT_EQ(pacer->next_wake(), std::nullopt) << "it comes to rest again";
  EXPECT_LE(pacer->stats().frames_drawn - drawn, 4u);
}

TEST_F(FramePacerTest, ChangesMadeThroughTheFramesContextApplyInRender) {
  auto pacer = make();
  bool ran = false;
  ASSERT_EQ(pacer->begin(), FrameKind::full);
  pacer->new_frame();
  EXPECT_EQ(pacer->context().frame_start(), clock.now());
  (void)pacer->context().add_timer(TimerId::unique(), Timer::once(100ms, [&](TimerCallbackInfo&) {
                                     ran = true;
                                     return TimerCallbackReturn::redraw();
                                   }));
  window("Still", [] { ImGui::Text("Hello"); });
  pacer->render();
  (void)run(*pacer, 1s, [] { window("Still", [] { ImGui::Text("Hello"); }); });
  EXPECT_TRUE(ran);
}

// What the app scheduled through context() and no render() applied yet goes with the pacer,
// while its runtime still answers: a timer capture's destructor may ask it something (it used
// to find the runtime gone).
TEST_F(FramePacerTest, ChangesNotYetAppliedGoWithThePacerWhileItsRuntimeStillAnswers) {
  auto pacer = make();
  struct Probe {
    FramePacer* pacer = nullptr;
    int* asked = nullptr;
    ~Probe() {
      if (pacer == nullptr) return;
      (void)pacer->runtime().timer_count();
      if (pacer->runtime().request_redraw_after(1ms).ok()) ++*asked;
    }
  };
  int asked = 0;
  auto probe = std::make_shared<Probe>();
  probe->pacer = pacer.get();
  probe->asked = &asked;
  ASSERT_TRUE(pacer->context()
                  .add_timer(TimerId::unique(), Timer::once(1s, [probe](TimerCallbackInfo&) { return TimerCallbackReturn::keep(); }))
                  .ok());
  probe.reset();
  pacer.reset();
  EXPECT_EQ(asked, 1);
}

}  // namespace
}  // namespace cadence::testing
