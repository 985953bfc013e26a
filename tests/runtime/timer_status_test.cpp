// What TimerStatus says (time left, frozen while paused; lateness of each run) and the calls on
// every timer of one owner, at once and inside a frame, on both queues.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "runtime_fixture.hpp"

namespace cadence::testing {
namespace {

class TimerStatusTest : public RuntimeFixture {
 protected:
  // Inside a frame, timer `x` of `old_owner` is restarted (removed, then added again) for
  // `new_owner`, and then `call` acts on `acted_on`'s timers from the same callback. Returns what
  // `call` returned. The stopped predecessor stays listed under its owner until the frame's
  // changes are applied: the call must reach the new timer only through its own owner.
  template <class Call>
  std::size_t restart_then(TimerId x, WidgetId old_owner, WidgetId new_owner, WidgetId acted_on,
                           Call call) {
    EXPECT_TRUE(runtime.add_timer(x, Timer::every(100ms, [](TimerCallbackInfo&) {}).with_owner(old_owner)));
    std::size_t result = 99;
    EXPECT_TRUE(runtime.add_timer(TimerId::unique(), Timer::once(10ms, [&](TimerCallbackInfo& info) {
      ASSERT_TRUE(info.context.remove_timer(x));
      ASSERT_TRUE(info.context.add_timer(x, Timer::every(20ms, [](TimerCallbackInfo&) {}).with_owner(new_owner)));
      result = call(info.context, acted_on).value();
    })));
    EXPECT_TRUE(clock.set(at_ms(10)).ok());
    EXPECT_TRUE(runtime.poll(clock.now()).failures.empty());
    return result;
  }
};
INSTANTIATE_TEST_SUITE_P(Queues, TimerStatusTest, ::testing::Values(QueueKind::wheel, QueueKind::heap), queue_name);

// ---- time left -----------------------------------------------------------------------------

TEST_P(TimerStatusTest, TimeLeftCountsDownAndFreezesWhilePaused) {
  const TimerId id = TimerId::unique();
  add(id, logged("countdown").with_delay(1000ms).with_interval(1000ms).with_timeout(5000ms));
  frame(300);
  auto st = runtime.timer_status(id);
  ASSERT_TRUE(st);
  EXPECT_EQ(st->remaining, 700ms);
  EXPECT_EQ(st->remaining_lifetime, 4700ms);
  EXPECT_EQ(st->expires, at_ms(5000));

  ASSERT_TRUE(runtime.pause_timer(id));
  for (std::int64_t ms : {300, 900, 4000}) {  // frozen, however long it stays paused
    frame(ms);
    st = runtime.timer_status(id);
    EXPECT_TRUE(st->paused);
    EXPECT_EQ(st->remaining, 700ms) << ms;
    EXPECT_EQ(st->remaining_lifetime, 4700ms) << ms;
    EXPECT_FALSE(st->expires.has_value());  // not known until it resumes
    EXPECT_FALSE(st->next_due.has_value());
  }
  ASSERT_TRUE(runtime.resume_timer(id));
  st = runtime.timer_status(id);
  EXPECT_EQ(st->remaining, 700ms);
  EXPECT_EQ(st->next_due, at_ms(4700));
  EXPECT_EQ(st->expires, at_ms(8700));
  run_until(4700);
  EXPECT_EQ(times("countdown"), (std::vector<std::int64_t>{4700}));
  EXPECT_EQ(runtime.timer_status(id)->remaining, 1000ms);
}

TEST_P(TimerStatusTest, TimeLeftOfADueTimerIsZeroAndOfAnAnimationTimerToo) {
  const TimerId once = TimerId::unique(), anim = TimerId::unique();
  add(once, logged("once").with_delay(100ms).with_timeout(100ms));
  add(anim, Timer::animation([](TimerCallbackInfo&) {}).with_timeout(1000ms));
  frame(0);
  ASSERT_TRUE(clock.set(at_ms(250)).ok());  // due, but no frame has run it yet
  EXPECT_EQ(runtime.timer_status(once)->remaining, 0ms);
  EXPECT_EQ(runtime.timer_status(anim)->remaining, 0ms);
  EXPECT_EQ(runtime.timer_status(anim)->remaining_lifetime, 750ms);
  ASSERT_TRUE(runtime.pause_timer(anim));
  ASSERT_TRUE(clock.set(at_ms(900)).ok());
  EXPECT_EQ(runtime.timer_status(anim)->remaining, 0ms);
  EXPECT_EQ(runtime.timer_status(anim)->remaining_lifetime, 750ms);
  EXPECT_FALSE(runtime.timer_status(once)->remaining_lifetime.has_value() &&
               *runtime.timer_status(once)->remaining_lifetime > 0ms);
}

TEST_P(TimerStatusTest, ATimerWithoutATimeoutHasNoLifetime) {
  const TimerId id = TimerId::unique();
  add(id, logged("tick").with_delay(10ms).with_interval(10ms));
  EXPECT_FALSE(runtime.timer_status(id)->remaining_lifetime.has_value());
  ASSERT_TRUE(runtime.pause_timer(id));
  EXPECT_FALSE(runtime.timer_status(id)->remaining_lifetime.has_value());
  EXPECT_EQ(runtime.timer_status(id)->remaining, 10ms);
}

// ---- lateness ------------------------------------------------------------------------------

TEST_P(TimerStatusTest, EachRunsLatenessGoesIntoLastWorstAndTheHistogram) {
  const TimerId id = TimerId::unique();
  add(id, logged("tick").with_delay(10ms).with_interval(10ms));
  frame(10);   // on time: 0
  frame(23);   // due 20: 3 ms late (bucket [2, 4) ms)
  frame(30);   // due 30: 0
  frame(70);   // skip: the run stands for 70: 0
  frame(80);   // 0
  ASSERT_TRUE(clock.set(at_ms(90) + std::chrono::microseconds(300)).ok());  // 0.3 ms late
  (void)runtime.poll(clock.now());
  frame(120);  // skip: the run stands for 120 (100 and 110 were missed): 0
  const TimerLateness l = runtime.timer_status(id)->lateness;
  EXPECT_EQ(l.last, 0ms);
  EXPECT_EQ(l.worst, 3ms);
  EXPECT_EQ(l.histogram[0], 5u);  // < 250 us: 10, 30, 70, 80, 120
  EXPECT_EQ(l.histogram[1], 1u);  // [250, 500) us: 90.3
  EXPECT_EQ(l.histogram[4], 1u);  // [2, 4) ms: 23
  std::uint32_t total = 0;
  for (std::uint32_t n : l.histogram) total += n;
  EXPECT_EQ(total, runtime.timer_status(id)->run_count);
}

TEST_P(TimerStatusTest, ABurstCountsEachCatchUpRunAsLateAsItWas) {
  const TimerId id = TimerId::unique();
  add(id, logged("b").with_delay(10ms).with_interval(10ms).with_missed_ticks(MissedTicks::burst));
  frame(45);  // due 10, 20, 30, 40: 35, 25, 15 and 5 ms late
  const TimerLateness l = runtime.timer_status(id)->lateness;
  EXPECT_EQ(l.worst, 35ms);
  EXPECT_EQ(l.last, 5ms);
  EXPECT_EQ(l.histogram[6], 1u);  // [8, 16) ms: 15
  EXPECT_EQ(l.histogram[7], 2u);  // >= 16 ms: 35, 25
  EXPECT_EQ(l.histogram[5], 1u);  // [4, 8) ms: 5
}

TEST(TimerLatenessTest, BucketEdgesBelongToTheBucketAboveAndCountsSaturate) {
  TimerLateness l;
  l.record(Duration{-5});
  l.record(std::chrono::microseconds(250));
  l.record(std::chrono::milliseconds(16));
  l.record(Duration::max());
  EXPECT_EQ(l.histogram[0], 1u);
  EXPECT_EQ(l.histogram[1], 1u);
  EXPECT_EQ(l.histogram[7], 2u);
  EXPECT_EQ(l.worst, Duration::max());
  l.histogram[3] = UINT32_MAX;
  l.record(std::chrono::microseconds(1500));
  EXPECT_EQ(l.histogram[3], UINT32_MAX);
}

// ---- every timer of an owner ---------------------------------------------------------------------

TEST_P(TimerStatusTest, AWidgetsTimersArePausedResumedAndRemovedTogetherAndNoOthers) {
  const WidgetId panel{7}, other{8};
  const TimerId a = TimerId::unique(), b = TimerId::unique(), c = TimerId::unique();
  add(a, logged("a").with_delay(100ms).with_interval(100ms).with_owner(panel));
  add(b, logged("b").with_delay(100ms).with_interval(100ms).with_owner(panel));
  add(c, logged("c").with_delay(100ms).with_interval(100ms).with_owner(other));
  EXPECT_EQ(runtime.timer_status(a)->owner, panel);

  frame(50);
  ASSERT_EQ(runtime.pause_timers_of(panel).value(), 2u);
  run_until(250);
  EXPECT_EQ(times("a"), std::vector<std::int64_t>{});
  EXPECT_EQ(times("c"), (std::vector<std::int64_t>{100, 200}));
  EXPECT_EQ(runtime.timer_status(a)->remaining, 50ms);
  ASSERT_EQ(runtime.resume_timers_of(panel).value(), 2u);
  run_until(300);
  EXPECT_EQ(times("a"), (std::vector<std::int64_t>{300}));

  ASSERT_EQ(runtime.remove_timers_of(panel).value(), 2u);
  EXPECT_FALSE(runtime.has_timer(a));
  EXPECT_FALSE(runtime.has_timer(b));
  EXPECT_TRUE(runtime.has_timer(c));
  EXPECT_EQ(runtime.remove_timers_of(panel).value(), 0u);  // none left: not an error
  EXPECT_EQ(runtime.pause_timers_of(WidgetId{12345}).value(), 0u);
}

TEST_P(TimerStatusTest, InsideAFrameAnOwnersTimersStopAtOnceIncludingThoseTheFrameAdds) {
  const WidgetId panel{3};
  const TimerId a = TimerId::unique(), late = TimerId::unique(), added = TimerId::unique();
  add(TimerId::unique(), Timer::once(10ms, [&](TimerCallbackInfo& info) {
    ASSERT_TRUE(info.context.add_timer(added, logged("added").with_delay(5ms).with_owner(panel)));
    EXPECT_EQ(info.context.remove_timers_of(panel).value(), 3u);  // a, late (due later this frame), added
  }));
  add(a, logged("a").with_delay(50ms).with_owner(panel));
  add(late, logged("late").with_delay(10ms).with_owner(panel));  // due at 10 too, after the first
  frame(10);
  EXPECT_TRUE(names().empty());  // `late` was stopped before its turn
  EXPECT_TRUE(last.failures.empty());
  EXPECT_FALSE(runtime.has_timer(a));
  EXPECT_FALSE(runtime.has_timer(late));
  EXPECT_FALSE(runtime.has_timer(added));
  run_until(100);
  EXPECT_TRUE(names().empty());
}

TEST_P(TimerStatusTest, ARestartedIdKeepsItsNewOwnerOnly) {
  const TimerId id = TimerId::unique();
  add(id, logged("x").with_delay(10ms).with_owner(WidgetId{1}));
  ASSERT_TRUE(runtime.remove_timer(id));
  add(id, logged("x").with_delay(10ms).with_owner(WidgetId{2}));
  EXPECT_EQ(runtime.remove_timers_of(WidgetId{1}).value(), 0u);
  EXPECT_TRUE(runtime.has_timer(id));
  EXPECT_EQ(runtime.remove_timers_of(WidgetId{2}).value(), 1u);
}

TEST_P(TimerStatusTest, ACaptureThatRemovesItsSiblingWhenDestroyedIsCountedOnce) {
  const WidgetId panel{9};
  const TimerId a = TimerId::unique(), b = TimerId::unique();
  struct RemovesOnDestroy {
    WindowRuntime* runtime;
    TimerId sibling;
    ~RemovesOnDestroy() {
      if (runtime != nullptr) (void)runtime->remove_timer(sibling);
    }
  };
  auto guard = std::make_shared<RemovesOnDestroy>(RemovesOnDestroy{&runtime, b});
  add(a, Timer::once(100ms, [guard](TimerCallbackInfo&) {}).with_owner(panel));
  guard.reset();
  add(b, logged("b").with_delay(100ms).with_owner(panel));
  const Result<std::size_t> removed = runtime.remove_timers_of(panel);
  ASSERT_TRUE(removed.ok());
  EXPECT_FALSE(runtime.has_timer(a));
  EXPECT_FALSE(runtime.has_timer(b));
  EXPECT_GE(removed.value(), 1u);
  EXPECT_LE(removed.value(), 2u);
}

// ---- found by review ------------------------------------------------------------------------

// timer_status.hpp (remaining): paused, the time it had left to its due time or its timeout,
// whichever is sooner: here the timeout, 40 ms away (the next due time is 90 ms away).
TEST_P(TimerStatusTest, PausedRemainingIsWhatWasLeftWhenTheTimeoutComesFirst) {
  const TimerId id = TimerId::unique();
  add(id, logged("t").with_delay(100ms).with_interval(100ms).with_timeout(150ms));
  frame(100);  // first run; next due 200, its timeout at 150 comes first
  ASSERT_TRUE(clock.set(at_ms(110)).ok());
  const Duration before = runtime.timer_status(id)->remaining;
  EXPECT_EQ(before, 40ms);
  ASSERT_TRUE(runtime.pause_timer(id));
  EXPECT_EQ(runtime.timer_status(id)->remaining, before);
  EXPECT_EQ(runtime.timer_status(id)->remaining_lifetime, 40ms);
  EXPECT_LE(runtime.timer_status(id)->remaining, *runtime.timer_status(id)->remaining_lifetime);
  ASSERT_TRUE(runtime.resume_timer(id));
  run_until(200);
  EXPECT_EQ(times("t"), (std::vector<std::int64_t>{100, 150}));
}

// With slack: running, remaining counts to the slack grid (128 ms); paused, to the bare due time
// (90 ms, as documented: the grid depends on when it resumes); resumed, to the grid again.
TEST_P(TimerStatusTest, PausedRemainingIsBeforeSlackAndTheGridComesBackOnResume) {
  const TimerId id = TimerId::unique();
  add(id, logged("s").with_delay(100ms).with_interval(100ms).with_slack(50ms));
  frame(10);
  EXPECT_EQ(runtime.timer_status(id)->remaining, 118ms);  // due 100, on the 32 ms grid at 128
  ASSERT_TRUE(runtime.pause_timer(id));
  EXPECT_EQ(runtime.timer_status(id)->remaining, 90ms);
  ASSERT_TRUE(runtime.resume_timer(id));
  EXPECT_EQ(runtime.timer_status(id)->remaining, 118ms);
}

TEST_P(TimerStatusTest, InsideAFrameAWidgetsRemovalLeavesAnotherWidgetsTimerUnderARestartedId) {
  const TimerId x = TimerId::unique();
  EXPECT_EQ(restart_then(x, WidgetId{21}, WidgetId{22}, WidgetId{21},
                         [](CallbackContext& c, WidgetId w) { return c.remove_timers_of(w); }),
            0u);
  ASSERT_TRUE(runtime.has_timer(x));
  EXPECT_EQ(runtime.timer_status(x)->owner, WidgetId{22});
}

TEST_P(TimerStatusTest, InsideAFrameAWidgetsPauseLeavesAnotherWidgetsTimerUnderARestartedId) {
  const TimerId x = TimerId::unique();
  EXPECT_EQ(restart_then(x, WidgetId{23}, WidgetId{24}, WidgetId{23},
                         [](CallbackContext& c, WidgetId w) { return c.pause_timers_of(w); }),
            0u);
  EXPECT_FALSE(runtime.timer_status(x)->paused);
}

TEST_P(TimerStatusTest, PausingAWidgetsTimersCountsATimerRestartedUnderTheSameOwnerOnce) {
  const TimerId x = TimerId::unique();
  EXPECT_EQ(restart_then(x, WidgetId{31}, WidgetId{31}, WidgetId{31},
                         [](CallbackContext& c, WidgetId w) { return c.pause_timers_of(w); }),
            1u);
  EXPECT_TRUE(runtime.timer_status(x)->paused);
}

// Two timers of one widget end in the same frame; the first one's capture removes the widget's
// timers when destroyed (inside apply). The second, stopped, is left to the frame's own removal:
// no not_found failure for an app that did nothing wrong.
TEST_P(TimerStatusTest, ACaptureThatRemovesItsWidgetsTimersWhenTheyEndTogetherMakesNoFailure) {
  const WidgetId panel{41};
  struct RemovesWidget {
    WindowRuntime* runtime = nullptr;
    WidgetId owner{};
    ~RemovesWidget() {
      if (runtime != nullptr) (void)runtime->remove_timers_of(owner);
    }
  };
  auto guard = std::make_shared<RemovesWidget>();
  guard->runtime = &runtime;
  guard->owner = panel;
  add(TimerId::unique(), Timer::once(10ms, [guard](TimerCallbackInfo&) {}).with_owner(panel));
  guard.reset();
  add(TimerId::unique(), Timer::once(10ms, [](TimerCallbackInfo&) {}).with_owner(panel));
  frame(10);
  for (const Failure& f : last.failures) ADD_FAILURE() << to_string(f.error.code) << ": " << f.error.message;
  EXPECT_EQ(runtime.timer_count(), 0u);
}

TEST(TimerOwnerTest, FromAnotherThreadTheOwnerCallsAreRefused) {
  ManualClock clock;
  WindowRuntime runtime(clock.source());
  const TimerId id = TimerId::unique();
  ASSERT_TRUE(runtime.add_timer(id, Timer::once(10ms, [](TimerCallbackInfo&) {}).with_owner(WidgetId{4})));
  Result<std::size_t> r = std::size_t{0};
  std::thread([&] { r = runtime.remove_timers_of(WidgetId{4}); }).join();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, Errc::wrong_thread);
  EXPECT_TRUE(runtime.has_timer(id));
}

}  // namespace
}  // namespace cadence::testing

namespace cadence::testing {
namespace {

TEST_P(TimerStatusTest, TheReportCountsEveryTimerRunOfTheFrame) {
  add(TimerId::unique(), logged("b").with_delay(10ms).with_interval(10ms).with_missed_ticks(MissedTicks::burst));
  add(TimerId::unique(), logged("once").with_delay(40ms).with_timeout(40ms));
  EXPECT_EQ(frame(5).timers_run, 0u);
  EXPECT_EQ(frame(45).timers_run, 5u);  // four catch-up runs and the one-shot
  EXPECT_EQ(frame(45).thread_messages, 0u);
}

}  // namespace
}  // namespace cadence::testing
