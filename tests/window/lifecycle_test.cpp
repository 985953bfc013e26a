// A window's life as an app sees it: failures redraw at once, Update::redraw_all reaches every
// window of the loop, on_close may keep a window open, and a WindowHandle knows when its window
// is gone.
#include <gtest/gtest.h>
#include <imgui.h>

#include <GLFW/glfw3.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cadence/event_loop.hpp"
#include "window_fixture.hpp"

namespace cadence::testing {
namespace {

void draw_text(const char* name) {
  begin_full(name);
  ImGui::TextUnformatted(name);
  ImGui::End();
}

// ---- failures redraw ------------------------------------------------------------------------

TEST(WindowFailureTest, ATimerThatThrowsRedrawsTheWindowAtOnce) {
  ManualClock clock;
  std::vector<std::string> seen;
  WindowOptions options = test_options(&clock);
  options.on_failure = [&](const Failure& f) { seen.push_back(f.error.message); };
  auto w = open_window(options, [](Window&, CallbackContext&) { draw_text("failing timer"); });
  ASSERT_TRUE(w);
  settle(*w, clock);
  ASSERT_TRUE(w->runtime().add_timer(TimerId::unique(), Timer::once(100ms, [](TimerCallbackInfo&) -> TimerCallbackReturn {
    throw std::runtime_error("sensor unplugged");
  })));
  ASSERT_EQ(w->next_wake(), 100ms);
  ASSERT_TRUE(clock.advance(100ms).ok());
  const auto drawn = w->stats().frames_drawn;
  w->frame();
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_NE(seen[0].find("sensor unplugged"), std::string::npos);
  EXPECT_EQ(w->stats().frames_drawn, drawn + 1);  // drawn in the frame that failed
}

TEST(WindowFailureTest, AChangeOfTheDrawFunctionThatFailsEveryFrameRedrawsOnceNotForEver) {
  ManualClock clock;
  int failures = 0;
  WindowOptions options = test_options(&clock);
  options.on_failure = [&](const Failure&) { ++failures; };
  bool fail = false;
  auto w = open_window(options, [&](Window&, CallbackContext& ctx) {
    draw_text("failing draw");
    if (fail) ctx.changes().remove_timer(TimerId{0x4242});  // unchecked: fails when applied
  });
  ASSERT_TRUE(w);
  settle(*w, clock);
  fail = true;
  w->request_redraw();
  const auto drawn = w->stats().frames_drawn;
  settle(*w, clock);
  EXPECT_EQ(w->stats().frames_drawn, drawn + 2);  // the request, then one for its failure
  EXPECT_EQ(failures, 2);
  EXPECT_FALSE(w->next_wake().has_value() && *w->next_wake() == Duration::zero());
}

// ---- redraw_all -------------------------------------------------------------------------------

TEST(RedrawAllTest, ATimerAskingForRedrawAllDrawsEveryWindowOfTheLoop) {
  ManualClock clock;
  EventLoop loop;
  Window* a = loop.add(open_window(test_options(&clock), [](Window&, CallbackContext&) { draw_text("a"); })).get();
  Window* b = loop.add(open_window(test_options(&clock), [](Window&, CallbackContext&) { draw_text("b"); })).get();
  Window* c = loop.add(open_window(test_options(&clock), [](Window&, CallbackContext&) { draw_text("c"); })).get();
  ASSERT_TRUE(a && b && c);
  for (int i = 0; i < 20; ++i) {
    ASSERT_TRUE(clock.advance(16ms).ok());
    loop.run_once(0ms);
  }
  ASSERT_FALSE(b->next_wake().has_value());  // all three at rest
  ASSERT_TRUE(b->runtime().add_timer(TimerId::unique(), Timer::once(50ms, [](TimerCallbackInfo&) {
    return TimerCallbackReturn{Update::redraw_all, false};
  })));
  const auto drawn_a = a->stats().frames_drawn, drawn_b = b->stats().frames_drawn, drawn_c = c->stats().frames_drawn;
  ASSERT_TRUE(clock.advance(50ms).ok());
  loop.run_once(0ms);  // b runs its timer and draws; c, after it, draws in this iteration
  loop.run_once(0ms);  // a, which ran before b, draws now
  EXPECT_GE(a->stats().frames_drawn, drawn_a + 1);
  EXPECT_GE(b->stats().frames_drawn, drawn_b + 1);
  EXPECT_GE(c->stats().frames_drawn, drawn_c + 1);
}

TEST(RedrawAllTest, RedrawWindowDrawsOnlyTheWindowThatAsked) {
  ManualClock clock;
  EventLoop loop;
  Window* a = loop.add(open_window(test_options(&clock), [](Window&, CallbackContext&) { draw_text("a"); })).get();
  Window* b = loop.add(open_window(test_options(&clock), [](Window&, CallbackContext&) { draw_text("b"); })).get();
  ASSERT_TRUE(a && b);
  for (int i = 0; i < 20; ++i) {
    ASSERT_TRUE(clock.advance(16ms).ok());
    loop.run_once(0ms);
  }
  ASSERT_TRUE(b->runtime().add_timer(TimerId::unique(), Timer::once(50ms, [](TimerCallbackInfo&) {
    return TimerCallbackReturn::redraw();
  })));
  const auto drawn_a = a->stats().frames_drawn;
  ASSERT_TRUE(clock.advance(50ms).ok());
  loop.run_once(0ms);
  loop.run_once(0ms);
  EXPECT_EQ(a->stats().frames_drawn, drawn_a);
}

// ---- on_close and handles ---------------------------------------------------------------------

TEST(WindowCloseTest, OnCloseMayKeepTheWindowOpenUntilItAgrees) {
  EventLoop loop;
  int asked = 0;
  bool allow = false;
  WindowOptions options = test_options(nullptr);
  options.title = "unsaved work";
  options.on_close = [&](Window&) {
    ++asked;
    return allow;
  };
  WindowHandle h = loop.add(open_window(options, [](Window&, CallbackContext&) { draw_text("doc"); }));
  ASSERT_TRUE(h.is_open());
  loop.run_once(0ms);
  h.get()->request_close();
  EXPECT_EQ(asked, 1);
  EXPECT_FALSE(h.get()->should_close());
  loop.run_once(0ms);
  ASSERT_TRUE(h.is_open());
  EXPECT_EQ(loop.window_count(), 1u);

  allow = true;
  h.get()->request_close();
  EXPECT_EQ(asked, 2);
  EXPECT_TRUE(h.get()->should_close());
  EXPECT_FALSE(loop.run_once(0ms));  // destroyed at the end of the iteration
  EXPECT_FALSE(h.is_open());
  EXPECT_EQ(h.get(), nullptr);
  const Result<Window*> gone = h.window();
  ASSERT_FALSE(gone.ok());
  EXPECT_EQ(gone.error().code, Errc::closed);
  EXPECT_NE(gone.error().message.find("unsaved work"), std::string::npos) << gone.error().message;
}

TEST(WindowCloseTest, AnOnCloseThatThrowsKeepsTheWindowOpenAndReportsIt) {
  EventLoop loop;
  std::vector<Failure> failures;
  WindowOptions options = test_options(nullptr);
  options.on_failure = [&](const Failure& f) { failures.push_back(f); };
  options.on_close = [](Window&) -> bool { throw std::runtime_error("cannot save"); };
  WindowHandle h = loop.add(open_window(options, [](Window&, CallbackContext&) { draw_text("doc"); }));
  loop.run_once(0ms);
  const auto drawn = h.get()->stats().frames_drawn;
  h.get()->request_close();
  EXPECT_FALSE(h.get()->should_close());
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0].error.code, Errc::callback_threw);
  EXPECT_NE(failures[0].error.message.find("cannot save"), std::string::npos);
  EXPECT_EQ(h.get()->next_wake(), Duration::zero());  // the failure redraws
  loop.run_once(0ms);
  EXPECT_TRUE(h.is_open());
  EXPECT_GT(h.get()->stats().frames_drawn, drawn);
}

TEST(WindowCloseTest, ARequestCloseFromInsideOnCloseDoesNothing) {
  EventLoop loop;
  int asked = 0;
  WindowOptions options = test_options(nullptr);
  options.on_close = [&](Window& self) {
    ++asked;
    self.request_close();  // re-entry: ignored, no recursion
    return false;
  };
  WindowHandle h = loop.add(open_window(options, [](Window&, CallbackContext&) { draw_text("doc"); }));
  h.get()->request_close();
  EXPECT_EQ(asked, 1);
  EXPECT_FALSE(h.get()->should_close());
}

TEST(WindowCloseTest, TheHandleOfANullWindowRefersToNothing) {
  EventLoop loop;
  const WindowHandle h = loop.add(nullptr);
  EXPECT_FALSE(h);
  EXPECT_EQ(h.get(), nullptr);
  ASSERT_FALSE(h.window().ok());
  EXPECT_EQ(h.window().error().code, Errc::not_found);
  EXPECT_EQ(loop.window_count(), 0u);
}

TEST(WindowCloseTest, HandlesSeeTheirWindowGoWhenTheLoopIsDestroyed) {
  WindowHandle h;
  {
    EventLoop loop;
    h = loop.add(open_window(test_options(nullptr), [](Window&, CallbackContext&) { draw_text("doc"); }));
    ASSERT_TRUE(h.is_open());
  }
  EXPECT_FALSE(h.is_open());
}

// ---- minimized and hidden windows ------------------------------------------------------------

/// A window with a focused text field: its caret blinks, nothing else moves.
std::unique_ptr<Window> caret_window(ManualClock* clock, char (&text)[32], bool& focus) {
  return open_window(test_options(clock), [&text, &focus](Window&, CallbackContext&) {
    begin_full("caret");
    if (focus) ImGui::SetKeyboardFocusHere();
    focus = false;
    ImGui::InputText("##t", text, sizeof text);
    ImGui::End();
  });
}

TEST(WindowHiddenTest, AMinimizedIdleWindowWithAFocusedTextFieldHasNothingToWakeFor) {
  ManualClock clock;
  char text[32] = "";
  bool focus = true;
  auto w = caret_window(&clock, text, focus);
  ASSERT_TRUE(w);
  settle(*w, clock);
  ASSERT_TRUE(w->next_wake().has_value());  // the caret blinks
  w->inject_minimized(true);
  EXPECT_TRUE(w->is_hidden());
  EXPECT_FALSE(w->next_wake().has_value());  // nothing scheduled: the loop sleeps until an event
  const auto drawn = w->stats().frames_drawn;
  w->request_redraw();
  EXPECT_FALSE(w->next_wake().has_value());  // owed, drawn when shown
  ASSERT_TRUE(clock.advance(10s).ok());
  w->frame();  // a wake-up for another window, say
  EXPECT_EQ(w->stats().frames_drawn, drawn);
  w->inject_minimized(false);
  EXPECT_FALSE(w->is_hidden());
  EXPECT_EQ(w->next_wake(), Duration::zero());
  w->frame();
  EXPECT_EQ(w->stats().frames_drawn, drawn + 1);
  settle(*w, clock);
  const auto blink = w->next_wake();
  EXPECT_TRUE(blink && *blink > 0ms && *blink <= 530ms);  // the caret blinks again
}

TEST(WindowHiddenTest, AMinimizedIdleWindowMakesNoWakeUpsInARealLoop) {
  EventLoop loop;
  char text[32] = "";
  bool focus = true;
  Window* w = loop.add(caret_window(nullptr, text, focus)).get();
  ASSERT_TRUE(w);
  loop.run_for(300ms);
  const auto blinks_before = w->stats().caret_lateness_ms.size();
  EXPECT_GE(loop.stats().wakeups, 1u);
  w->inject_minimized(true);
  const auto wakeups = loop.stats().wakeups;
  const auto frames = w->stats().frames_run;
  loop.run_for(2s);
  // The one wake-up is run_for's own end of the wait; no frame had anything to do.
  EXPECT_LE(loop.stats().wakeups - wakeups, 1u);
  EXPECT_LE(w->stats().frames_run - frames, 1u);
  EXPECT_EQ(w->stats().caret_lateness_ms.size(), blinks_before);  // the caret did not blink
}

TEST(WindowHiddenTest, AppTimersFollowTheirPolicyWhileTheWindowIsHidden) {
  ManualClock clock;
  auto w = open_window(test_options(&clock), [](Window&, CallbackContext&) { draw_text("timers"); });
  ASSERT_TRUE(w);
  settle(*w, clock);
  int kept = 0, paused = 0;
  ASSERT_TRUE(w->runtime().add_timer(TimerId::unique(), Timer::every(100ms, [&](TimerCallbackInfo&) {
    ++kept;
    return TimerCallbackReturn::redraw();
  })));
  const TimerId p = TimerId::unique();
  ASSERT_TRUE(w->runtime().add_timer(p, Timer::every(100ms, [&](TimerCallbackInfo&) { ++paused; })
                                            .with_when_hidden(WhenHidden::pause())));
  w->set_visible(false);
  EXPECT_TRUE(w->is_hidden());
  EXPECT_TRUE(w->runtime().hidden());
  const auto drawn = w->stats().frames_drawn;
  run_for(*w, clock, 1s);
  EXPECT_EQ(kept, 10);
  EXPECT_EQ(paused, 0);
  EXPECT_EQ(w->stats().frames_drawn, drawn);  // its redraw requests wait for the window to show
  w->set_visible(true);
  EXPECT_FALSE(w->runtime().hidden());
  EXPECT_EQ(w->next_wake(), Duration::zero());
  run_for(*w, clock, 100ms);
  EXPECT_EQ(paused, 1);
  EXPECT_GT(w->stats().frames_drawn, drawn);
}

TEST(WindowHiddenTest, HidingFromATimerCallbackTakesEffectRightAfterTheTimers) {
  ManualClock clock;
  auto w = open_window(test_options(&clock), [](Window&, CallbackContext&) { draw_text("hide"); });
  ASSERT_TRUE(w);
  settle(*w, clock);
  Window* self = w.get();
  int failures_before = static_cast<int>(w->stats().failures);
  ASSERT_TRUE(w->runtime().add_timer(TimerId::unique(), Timer::once(50ms, [self](TimerCallbackInfo&) {
    self->set_visible(false);
    return TimerCallbackReturn::redraw();
  })));
  const auto drawn = w->stats().frames_drawn;
  ASSERT_TRUE(clock.advance(50ms).ok());
  w->frame();
  EXPECT_TRUE(w->is_hidden());
  EXPECT_TRUE(w->runtime().hidden());
  EXPECT_EQ(w->stats().frames_drawn, drawn);  // not drawn: hidden before the draw
  EXPECT_EQ(static_cast<int>(w->stats().failures), failures_before);
}

// ---- found by review ------------------------------------------------------------------------

struct None {};

/// A worker that waits until it is asked to stop.
Thread waits_for_stop(std::function<void(const ThreadOutcome&)> on_finish) {
  return Thread::create(
      0, None{},
      [](int, ThreadSender<None>&, ThreadReceiver& in) {
        while (!in.stop_requested()) (void)in.receive_for(Duration::max(), false);
      },
      [on_finish = std::move(on_finish)](None&, const ThreadOutcome& o, CallbackContext&) { on_finish(o); });
}

// set_visible(true) shows a window created unshown (WindowOptions::visible = false).
TEST(WindowReviewTest, AWindowCreatedUnshownIsShownBySetVisibleTrue) {
  ManualClock clock;
  WindowOptions options = test_options(&clock);
  options.visible = false;
  auto w = open_window(options, [](Window&, CallbackContext&) { draw_text("unshown"); });
  ASSERT_TRUE(w);
  ASSERT_FALSE(shown_by_window_system(*w));
  w->set_visible(true);
  EXPECT_TRUE(shown_by_window_system(*w));
  EXPECT_FALSE(w->is_hidden());
}

// An abandoned finish callback that reaches the runtime through its window, while the window is
// destroyed, finds the runtime being destroyed (an empty runtime), not a null pointer.
TEST(WindowReviewTest, AnAbandonedFinishCallbackThatAsksItsWindowsRuntimeSeesAnEmptyRuntime) {
  ManualClock clock;
  std::optional<std::size_t> count_seen;
  std::optional<ThreadOutcome::Kind> kind;
  {
    auto w = open_window(test_options(&clock), [](Window&, CallbackContext&) { draw_text("abandon"); });
    ASSERT_TRUE(w);
    Window* self = w.get();
    ASSERT_TRUE(w->runtime().start_thread(ThreadId::unique(), waits_for_stop([&, self](const ThreadOutcome& o) {
      kind = o.kind;
      count_seen = self->runtime().thread_count();
    })));
    w->frame();
  }  // ~Window destroys the runtime: the thread is abandoned
  ASSERT_TRUE(kind.has_value());
  EXPECT_EQ(*kind, ThreadOutcome::Kind::abandoned);
  ASSERT_TRUE(count_seen.has_value());
  EXPECT_EQ(*count_seen, 0u);
}

// A window's destructor runs app code (an abandoned finish callback) that draws another window,
// leaving that one's OpenGL context current: the destructor still frees its own OpenGL objects,
// not the other window's, which looks the same afterwards.
TEST(WindowReviewTest, AWindowDestroyedWhileItsFinishCallbackDrawsAnotherLeavesThatOneIntact) {
  ManualClock clock;
  auto other = open_window(test_options(&clock), [](Window&, CallbackContext&) { draw_text("still here"); });
  ASSERT_TRUE(other);
  settle(*other, clock);
  int width = 0, height = 0;
  const std::vector<std::uint8_t> before = other->read_pixels(width, height);
  ASSERT_GT(bright_pixels(before, width, 0, 0, width, height), 0);
  bool drew = false;
  {
    auto w = open_window(test_options(&clock), [](Window&, CallbackContext&) { draw_text("going"); });
    ASSERT_TRUE(w);
    ASSERT_TRUE(w->runtime().start_thread(ThreadId::unique(), waits_for_stop([&](const ThreadOutcome&) {
      other->request_redraw();
      other->frame();
      drew = true;
    })));
    w->frame();
  }  // ~Window: the thread is abandoned, its finish callback draws `other`
  ASSERT_TRUE(drew);
  other->request_redraw();
  other->frame();
  int w2 = 0, h2 = 0;
  EXPECT_EQ(other->read_pixels(w2, h2), before) << "the other window's text or shapes are gone";
}

// Reading another window's pixels from a draw function leaves the frame's own ImGui and OpenGL
// contexts current: the draw function goes on in its own window.
TEST(WindowReviewTest, ReadingAnotherWindowsPixelsFromADrawFunctionLeavesTheFramesContexts) {
  ManualClock clock;
  auto other = open_window(test_options(&clock), [](Window&, CallbackContext&) { draw_text("other"); });
  ASSERT_TRUE(other);
  settle(*other, clock);
  std::optional<bool> own_context;
  std::size_t read = 0;
  auto w = open_window(test_options(&clock), [&](Window& self, CallbackContext&) {
    int width = 0, height = 0;
    read = other->read_pixels(width, height).size();
    own_context = ImGui::GetCurrentContext() == self.imgui_context();
    draw_text("after the read");
  });
  ASSERT_TRUE(w);
  settle(*w, clock);
  EXPECT_GT(read, 0u);
  ASSERT_TRUE(own_context.has_value());
  EXPECT_TRUE(*own_context);
  int width = 0, height = 0;
  const std::vector<std::uint8_t> shown = w->read_pixels(width, height);
  EXPECT_GT(bright_pixels(shown, width, 0, 0, width, height), 0);
}

// A window added while the loop is destroyed (from an abandoned finish callback of one of its
// windows) is destroyed at once and its handle is empty.
TEST(WindowReviewTest, AWindowAddedWhileTheLoopIsDestroyedGoesWithTheLoop) {
  WindowHandle late;
  std::unique_ptr<Window> extra = open_window(test_options(nullptr), [](Window&, CallbackContext&) { draw_text("late"); });
  ASSERT_TRUE(extra);
  {
    EventLoop loop;
    WindowHandle first = loop.add(open_window(test_options(nullptr), [](Window&, CallbackContext&) { draw_text("first"); }));
    ASSERT_TRUE(first);
    loop.run_once(0ms);  // pending_ now has capacity: its buffer is what add() writes into later
    ASSERT_TRUE(first.get()->runtime().start_thread(ThreadId::unique(), waits_for_stop([&](const ThreadOutcome&) {
      if (extra) late = loop.add(std::move(extra));
    })));
  }
  EXPECT_FALSE(late.is_open()) << "a window added while the loop was destroyed outlived it";
  EXPECT_EQ(late.get(), nullptr);
}

// ---- why frames ran ------------------------------------------------------------------------------

TEST(WakeReasonsTest, EachFrameCountsUnderWhatMadeItRun) {
  ManualClock clock;
  char text[32] = "";
  bool focus = true;
  auto w = open_window(test_options(&clock), [&](Window&, CallbackContext&) {
    begin_full("reasons");
    if (focus) ImGui::SetKeyboardFocusHere();
    focus = false;
    ImGui::InputText("##t", text, sizeof text);
    ImGui::End();
  });
  ASSERT_TRUE(w);
  settle(*w, clock);
  const WakeReasons start = w->stats().wakes;
  EXPECT_GE(start.redraw, 1u);  // start-up
  EXPECT_GE(start.settle, 1u);

  // The caret's blink: a timer.
  const auto blink = w->next_wake();
  ASSERT_TRUE(blink && *blink > 400ms && *blink <= 530ms);
  ASSERT_TRUE(clock.advance(*blink).ok());
  w->frame();
  EXPECT_EQ(w->stats().wakes.timer, start.timer + 1);

  // A redraw request, then input.
  w->request_redraw();
  w->frame();
  EXPECT_EQ(w->stats().wakes.redraw, start.redraw + 1);
  w->inject_char('x');
  w->frame();
  EXPECT_EQ(w->stats().wakes.input, start.input + 1);

  // A frame for nothing.
  const auto none = w->stats().wakes.none;
  settle(*w, clock);
  w->frame();
  EXPECT_EQ(w->stats().wakes.none, none + 1);
  const WakeReasons& r = w->stats().wakes;
  EXPECT_LE(r.none, w->stats().frames_run);
}

}  // namespace
}  // namespace cadence::testing
