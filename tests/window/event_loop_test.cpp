// Several windows in one loop, each with its own runtime.
#include "cadence/event_loop.hpp"

#include <gtest/gtest.h>
#include <imgui.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
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
  Window* wa = loop.add(std::move(a)).get();
  Window* wb = loop.add(std::move(b)).get();
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
      if (w.ok()) second = loop.add(std::move(*w)).get();
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

TEST(EventLoopTest, RunOnceFromInsideAnIterationDoesNothing) {
  ManualClock clock;
  EventLoop loop;
  bool inner = false;
  int frames = 0;
  auto w = open_window(test_options(&clock), [&](Window& self, CallbackContext&) {
    ++frames;
    inner = loop.run_once(0ms);
    self.request_close();  // the nested call must not destroy this window while it draws
  });
  ASSERT_TRUE(w);
  loop.add(std::move(w));
  EXPECT_FALSE(loop.run_once(0ms)) << "the window closed after its frame";
  EXPECT_TRUE(inner);
  EXPECT_EQ(frames, 1);
  EXPECT_EQ(loop.window_count(), 0u);
}

TEST(EventLoopTest, RunAndRunForFromInsideAnIterationReturnAtOnce) {
  ManualClock clock;
  EventLoop loop;
  int frames = 0;
  bool returned = false;
  std::chrono::steady_clock::duration nested_took{};
  auto w = open_window(test_options(&clock), [&](Window& self, CallbackContext&) {
    if (++frames > 1) return;
    loop.stop();  // the outer run() ends after this iteration, whatever the nested calls do
    const auto start = std::chrono::steady_clock::now();
    loop.run_for(5s);  // would spin for its whole duration
    loop.run();          // would never return
    nested_took = std::chrono::steady_clock::now() - start;
    returned = true;
    self.request_redraw();  // one more frame wanted: only stop() ends the outer run
  });
  ASSERT_TRUE(w);
  loop.add(std::move(w));
  loop.run();
  EXPECT_TRUE(returned);
  EXPECT_LT(nested_took, 5s) << "run_for() inside an iteration ran for its duration";
  EXPECT_EQ(frames, 1) << "the stop() asked for before the nested calls still ended the outer run";
  EXPECT_EQ(loop.window_count(), 1u);
}

TEST(EventLoopRunUntilTest, RunsUntilAWorkersResultIsOnTheScreen) {
  EventLoop loop;
  int shown = 0;  // what the last drawn frame showed
  int value = 0;
  auto w = open_window(test_options(nullptr), [&](Window&, CallbackContext&) {
    begin_full("result");
    ImGui::Text("%d", value);
    ImGui::End();
    shown = value;
  });
  ASSERT_TRUE(w);
  ASSERT_TRUE(w->runtime()
                  .start_thread(ThreadId::unique(),
                                Thread::create(0, &value, [](int, ThreadSender<int*>& out, ThreadReceiver&) {
                                  out.write_back(42, [](int*& target, int& v, CallbackContext&) {
                                    *target = v;
                                    return Update::redraw_window;
                                  });
                                }))
                  .ok());
  loop.add(std::move(w));
  const auto result = loop.run_until([&] { return shown == 42; }, 20s);
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_TRUE(*result) << "the worker's value was drawn";
  EXPECT_EQ(shown, 42);
}

TEST(EventLoopRunUntilTest, APredicateThatHoldsAtOnceRunsNothing) {
  EventLoop loop;
  auto w = open_window(test_options(nullptr), [](Window&, CallbackContext&) {});
  ASSERT_TRUE(w);
  Window* raw = loop.add(std::move(w)).get();
  const auto result = loop.run_until([] { return true; }, 10s);
  ASSERT_TRUE(result.ok());
  EXPECT_TRUE(*result);
  EXPECT_EQ(raw->stats().frames_run, 0u);
  EXPECT_EQ(loop.stats().wakeups, 0u);
}

TEST(EventLoopRunUntilTest, TimesOutAtItsDeadlineWithFalse) {
  ManualClock clock;  // the window's time stands still: nothing it schedules comes due
  EventLoop loop;
  auto w = open_window(test_options(&clock), [](Window&, CallbackContext&) {});
  ASSERT_TRUE(w);
  ASSERT_TRUE(w->runtime().add_timer(TimerId::unique(), Timer::once(1h, [](TimerCallbackInfo&) {})).ok());
  loop.add(std::move(w));
  int asked = 0;
  const auto before = std::chrono::steady_clock::now();
  const auto result = loop.run_until([&] { return ++asked < 0; }, 200ms);
  const auto waited = std::chrono::steady_clock::now() - before;
  ASSERT_TRUE(result.ok());
  EXPECT_FALSE(*result);
  EXPECT_GE(waited, 200ms) << "not before the deadline";
  EXPECT_LT(waited, 20s) << "and not for the window's hour-long timer";
  EXPECT_GE(asked, 2) << "asked before the first iteration and after each";
  const auto zero = loop.run_until([] { return false; }, 0ms);
  ASSERT_TRUE(zero.ok());
  EXPECT_FALSE(*zero);
}

TEST(EventLoopRunUntilTest, EndsWithFalseWhenTheLastWindowCloses) {
  EventLoop loop;
  auto w = open_window(test_options(nullptr), [](Window& self, CallbackContext&) { self.request_close(); });
  ASSERT_TRUE(w);
  loop.add(std::move(w));
  const auto result = loop.run_until([] { return false; }, 20s);
  ASSERT_TRUE(result.ok());
  EXPECT_FALSE(*result);
  EXPECT_EQ(loop.window_count(), 0u);
  const auto empty = loop.run_until([] { return false; }, 20s);  // no window: at once
  ASSERT_TRUE(empty.ok());
  EXPECT_FALSE(*empty);
}

TEST(EventLoopRunUntilTest, BadInputIsRefusedWithAMessageAndTheLoopStaysUsable) {
  ManualClock clock;
  EventLoop loop;
  int frames_seen = 0;
  auto w = open_window(test_options(&clock), [&](Window&, CallbackContext&) {
    ++frames_seen;
    ImGui::Begin("w");
    ImGui::End();
  });
  ASSERT_TRUE(w);
  Window* raw = loop.add(std::move(w)).get();

  const auto negative = loop.run_until([] { return true; }, -1ms);
  ASSERT_FALSE(negative.ok());
  EXPECT_EQ(negative.error().code, Errc::invalid_argument);
  EXPECT_NE(negative.error().message.find("-1000000 ns"), std::string::npos) << negative.error().message;
  EXPECT_NE(negative.error().message.find("zero or more"), std::string::npos) << negative.error().message;

  const auto empty = loop.run_until(std::function<bool()>{}, 1s);
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.error().code, Errc::invalid_argument);
  EXPECT_NE(empty.error().message.find("empty"), std::string::npos) << empty.error().message;
  EXPECT_EQ(loop.stats().wakeups, 0u) << "nothing ran for a refused call";

  int calls = 0;
  const auto threw = loop.run_until([&]() -> bool {
    if (++calls == 2) throw std::runtime_error("probe failed");
    return false;
  }, 20s);
  ASSERT_FALSE(threw.ok());
  EXPECT_EQ(threw.error().code, Errc::callback_threw);
  EXPECT_NE(threw.error().message.find("probe failed"), std::string::npos) << threw.error().message;
  EXPECT_EQ(calls, 2);

  // From inside an iteration: refused, and the frame goes on.
  Result<bool> inner = true;
  bool asked_inside = false;
  ASSERT_TRUE(raw->runtime().add_timer(TimerId::unique(), Timer::once(0ms, [&](TimerCallbackInfo&) {
    inner = loop.run_until([&] { return asked_inside = true; }, 1s);
  })).ok());
  (void)clock.advance(1ms);
  const auto after = loop.run_until([&] { return !inner.ok(); }, 20s);
  ASSERT_TRUE(after.ok()) << after.error().message;
  EXPECT_TRUE(*after);
  EXPECT_EQ(inner.error().code, Errc::reentrant_call);
  EXPECT_NE(inner.error().message.find("inside"), std::string::npos) << inner.error().message;
  EXPECT_FALSE(asked_inside) << "the inner predicate never ran";
  EXPECT_EQ(loop.window_count(), 1u);
  const int before = frames_seen;
  raw->request_redraw();
  const auto usable = loop.run_until([&] { return frames_seen > before; }, 20s);
  ASSERT_TRUE(usable.ok());
  EXPECT_TRUE(*usable) << "the window still draws after every refusal";
}

}  // namespace
}  // namespace cadence::testing
