// Changes made from inside callbacks: adding, removing (itself, another timer due in the same
// frame, every timer), pausing, throwing. Runs on both queues.
#include "cadence/callback_context.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "runtime_fixture.hpp"

namespace cadence::testing {
namespace {

using Times = std::vector<std::int64_t>;

class CallbackContextTest : public RuntimeFixture {};
INSTANTIATE_TEST_SUITE_P(Queues, CallbackContextTest, ::testing::Values(QueueKind::wheel, QueueKind::heap), queue_name);

TEST_P(CallbackContextTest, ATimerAddedInACallbackNeverRunsInThatFrame) {
  const TimerId child = TimerId::unique();
  add(TimerId::unique(), Timer::once(100ms, [&](TimerCallbackInfo& info) {
                      ASSERT_TRUE(info.context.add_timer(child, logged("child")).ok());  // no delay
                      EXPECT_FALSE(info.context.has_timer(child)) << "added when the frame is applied";
                    }));
  frame(100);
  EXPECT_TRUE(runs.empty());
  EXPECT_TRUE(runtime.has_timer(child));
  EXPECT_EQ(runtime.next_wake(), 0ms) << "it is due at once";
  frame(100);
  EXPECT_EQ(times("child"), Times{100}) << "the next frame runs it, even at the same instant";
}

TEST_P(CallbackContextTest, TimersAddedInAFrameCountFromThatFrame) {
  add(TimerId::unique(), Timer::once(100ms, [&](TimerCallbackInfo& info) {
                      EXPECT_TRUE(info.context.add_timer(TimerId::unique(), logged("child").with_delay(50ms).with_timeout(50ms)).ok());
                    }));
  run_until(1000);
  EXPECT_EQ(times("child"), Times{150});
}

TEST_P(CallbackContextTest, ACallbackMayRemoveItself) {
  const TimerId self = TimerId::unique();
  add(self, Timer::every(10ms, [&](TimerCallbackInfo& info) {
                      runs.push_back(TimerRun{"self", ms_of(info.frame_start), ms_of(info.due), info.call_count, 0, false});
                      if (info.call_count == 2) {
                        EXPECT_TRUE(info.context.remove_timer(info.id).ok());
                        EXPECT_FALSE(info.context.has_timer(info.id));
                      }
                    }));
  run_until(100);
  EXPECT_EQ(times("self"), (Times{10, 20, 30}));
  EXPECT_FALSE(runtime.has_timer(self));
  EXPECT_TRUE(last.failures.empty());
}

TEST_P(CallbackContextTest, RemovingAnotherTimerDueInTheSameFrameStopsItAtOnce) {
  const TimerId victim = TimerId::unique();
  add(TimerId::unique(), Timer::once(50ms, [&](TimerCallbackInfo& info) {
                      runs.push_back(TimerRun{"killer", 50, 50, 0, 0, true});
                      EXPECT_TRUE(info.context.remove_timer(victim).ok());
                    }));
  add(victim, logged("victim").with_delay(50ms).with_timeout(50ms));  // due in the same frame, later in order
  frame(50);
  EXPECT_EQ(names(), std::vector<std::string>{"killer"});
  EXPECT_FALSE(runtime.has_timer(victim));
  EXPECT_TRUE(last.failures.empty());
}

TEST_P(CallbackContextTest, RemovingATimerAddedInTheSameFrameCancelsTheAdd) {
  const TimerId temp = TimerId::unique();
  add(TimerId::unique(), Timer::once(10ms, [&](TimerCallbackInfo& info) {
                      ASSERT_TRUE(info.context.add_timer(temp, logged("temp")).ok());
                      ASSERT_TRUE(info.context.remove_timer(temp).ok());
                      ASSERT_TRUE(info.context.add_timer(temp, logged("temp2").with_delay(5ms).with_timeout(5ms)).ok())
                          << "the id is free again";
                    }));
  run_until(100);
  EXPECT_EQ(times("temp"), Times{});
  EXPECT_EQ(times("temp2"), Times{15});
}

TEST_P(CallbackContextTest, ACallbackThatRemovesEveryTimer) {
  std::vector<TimerId> ids;
  for (int i = 0; i < 50; ++i) {
    ids.push_back(TimerId::unique());
    add(ids.back(), logged("other").with_delay(20ms).with_interval(20ms));
  }
  add(TimerId::unique(), Timer::once(20ms, [&](TimerCallbackInfo& info) {
                      for (TimerId id : ids) EXPECT_TRUE(info.context.remove_timer(id).ok());
                    }));
  // The killer was added last, so the others run first in the frame at 20 ms; none runs after.
  run_until(200);
  EXPECT_EQ(times("other").size(), 50u);
  EXPECT_EQ(runtime.timer_count(), 0u);
  EXPECT_EQ(runtime.next_wake(), std::nullopt);
}

TEST_P(CallbackContextTest, ACallbackThatAddsAHundredThousandTimers) {
  std::uint64_t fired = 0;
  add(TimerId::unique(), Timer::once(10ms, [&](TimerCallbackInfo& info) {
                      for (int i = 0; i < 100'000; ++i) {
                        ASSERT_TRUE(info.context
                                        .add_timer(TimerId::unique(), Timer::once(std::chrono::milliseconds(1 + i % 1000),
                                                                                  [&](TimerCallbackInfo&) { ++fired; }))
                                        .ok());
                      }
                    }));
  frame(10);
  EXPECT_EQ(fired, 0u);
  EXPECT_EQ(last.applied, 100'000u + 1u) << "the adds and the finished timer's removal";
  EXPECT_EQ(runtime.timer_count(), 100'000u);
  run_until(2000);
  EXPECT_EQ(fired, 100'000u);
  EXPECT_EQ(runtime.timer_count(), 0u);
}

TEST_P(CallbackContextTest, PauseAndResumeFromCallbacksApplyAfterTheFrame) {
  const TimerId target = TimerId::unique();
  add(target, logged("target").with_delay(10ms).with_interval(10ms));
  add(TimerId::unique(), Timer::once(25ms, [&](TimerCallbackInfo& info) {
                      EXPECT_TRUE(info.context.pause_timer(target).ok());
                    }));
  add(TimerId::unique(), Timer::once(100ms, [&](TimerCallbackInfo& info) {
                      EXPECT_TRUE(info.context.resume_timer(target).ok());
                    }));
  run_until(130);
  // Paused at 25 with 5 ms left, resumed at 100.
  EXPECT_EQ(times("target"), (Times{10, 20, 105, 115, 125}));
}

TEST_P(CallbackContextTest, AThrowingCallbackIsRemovedAndReported) {
  const TimerId bad = TimerId::unique();
  const TimerId weird = TimerId::unique();
  add(bad, Timer::every(10ms, [](TimerCallbackInfo&) -> TimerCallbackReturn {
                      throw std::runtime_error("disk full");
                    }));
  add(weird, Timer::every(10ms, [](TimerCallbackInfo&) -> TimerCallbackReturn { throw 42; }));
  add(TimerId::unique(), logged("good").with_delay(10ms).with_interval(10ms));
  const ApplyReport report = frame(10);
  EXPECT_EQ(times("good"), Times{10}) << "the others in the frame still ran";
  ASSERT_EQ(report.failures.size(), 2u);
  EXPECT_EQ(report.failures[0].timer, bad);
  EXPECT_EQ(report.failures[0].error.code, Errc::callback_threw);
  EXPECT_NE(report.failures[0].error.message.find("disk full"), std::string::npos);
  EXPECT_EQ(report.failures[1].timer, weird);
  EXPECT_NE(report.failures[1].error.message.find("not a std::exception"), std::string::npos);
  EXPECT_FALSE(runtime.has_timer(bad));
  EXPECT_FALSE(runtime.has_timer(weird));
  frame(20);
  EXPECT_EQ(times("good"), (Times{10, 20}));
  EXPECT_TRUE(last.failures.empty());
}

TEST_P(CallbackContextTest, DirectRuntimeCallsInsideACallbackAreDeferredToo) {
  const TimerId later = TimerId::unique();
  const TimerId victim = TimerId::unique();
  add(TimerId::unique(), Timer::once(10ms, [&](TimerCallbackInfo&) {
                      EXPECT_TRUE(runtime.add_timer(later, logged("later")).ok());
                      EXPECT_TRUE(runtime.remove_timer(victim).ok());
                      EXPECT_FALSE(runtime.has_timer(victim));
                    }));
  add(victim, logged("victim").with_delay(10ms).with_timeout(10ms));
  frame(10);
  EXPECT_EQ(names(), std::vector<std::string>{});
  EXPECT_TRUE(runtime.has_timer(later));
  frame(11);
  EXPECT_EQ(times("later"), Times{11});
}

TEST_P(CallbackContextTest, EventCallbacksUseAContextToo) {
  ChangeSet changes;
  CallbackContext ctx = runtime.context(changes);
  ASSERT_TRUE(ctx.add_timer(TimerId::unique(), logged("clicked").with_delay(300ms).with_timeout(300ms)).ok());
  ctx.request_redraw();
  runtime.run_timers(clock.now(), changes);
  const ApplyReport report = runtime.apply(std::move(changes));
  EXPECT_EQ(report.update, Update::redraw_window);
  run_until(1000);
  EXPECT_EQ(times("clicked"), Times{300});
}

TEST_P(CallbackContextTest, RunTimersFromInsideACallbackIsRefused) {
  add(TimerId::unique(), Timer::once(5ms, [&](TimerCallbackInfo& info) {
                      runtime.run_timers(info.frame_start, info.context.changes());
                    }));
  const ApplyReport report = frame(5);
  ASSERT_EQ(report.failures.size(), 1u);
  EXPECT_EQ(report.failures[0].error.code, Errc::reentrant_call);
}

TEST_P(CallbackContextTest, ATimerThatRestartsItselfAndThenThrowsKeepsTheNewTimer) {
  const TimerId id = TimerId::unique();
  add(id, Timer::once(10ms, [&](TimerCallbackInfo& info) {
        ASSERT_TRUE(info.context.remove_timer(id).ok());  // the documented restart: remove + add
        ASSERT_TRUE(info.context.add_timer(id, logged("restarted").with_delay(20ms).with_timeout(20ms)).ok());
        throw std::runtime_error("after the restart");
      }));
  frame(10);
  ASSERT_EQ(last.failures.size(), 1u);
  EXPECT_EQ(last.failures[0].error.code, Errc::callback_threw);
  EXPECT_EQ(last.failures[0].timer, id);
  EXPECT_NE(last.failures[0].error.message.find("after the restart"), std::string::npos);
  EXPECT_TRUE(runtime.has_timer(id)) << "the throw ends the old timer, not its successor";
  run_until(100);
  EXPECT_EQ(times("restarted"), Times{30});
}

TEST_P(CallbackContextTest, ATimerThatThrowsWithoutRestartingIsRemoved) {
  const TimerId id = TimerId::unique();
  add(id, Timer::every(10ms, [&](TimerCallbackInfo& info) {
        ASSERT_TRUE(info.context.pause_timer(id).ok());
        throw std::runtime_error("paused, then threw");
      }));
  frame(10);
  ASSERT_EQ(last.failures.size(), 1u);
  EXPECT_EQ(last.failures[0].timer, id);
  EXPECT_FALSE(runtime.has_timer(id));
  EXPECT_EQ(runtime.timer_count(), 0u);
}

}  // namespace
}  // namespace cadence::testing
