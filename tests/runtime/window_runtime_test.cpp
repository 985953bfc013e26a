// When timers run: delay, interval, timeout, missed ticks, slack, pause, next_wake. Every
// expectation is an exact time on the manual clock. Runs on both queues.
#include "cadence/window_runtime.hpp"

#include <gtest/gtest.h>

#include "runtime_fixture.hpp"

namespace cadence::testing {
namespace {

using Times = std::vector<std::int64_t>;

class WindowRuntimeTest : public RuntimeFixture {};
INSTANTIATE_TEST_SUITE_P(Queues, WindowRuntimeTest, ::testing::Values(QueueKind::wheel, QueueKind::heap), queue_name);

TEST_P(WindowRuntimeTest, EmptyRuntimeSleepsUntilAnEvent) {
  EXPECT_EQ(runtime.next_wake(), std::nullopt);
  EXPECT_EQ(runtime.next_due(), std::nullopt);
  EXPECT_EQ(frame(1000).update, Update::nothing);
}

TEST_P(WindowRuntimeTest, DelayRunsTheFirstTimeAfterItAndNotBefore) {
  ASSERT_TRUE(runtime.add_timer(TimerId::unique(), logged("t").with_delay(250ms).with_timeout(250ms)).ok());
  EXPECT_EQ(runtime.next_wake(), 250ms);
  frame(249);
  EXPECT_TRUE(runs.empty());
  EXPECT_EQ(runtime.next_wake(), 1ms);
  frame(250);
  EXPECT_EQ(times("t"), Times{250});
}

TEST_P(WindowRuntimeTest, IntervalKeepsItsGridWhateverTheFrameTimes) {
  ASSERT_TRUE(runtime.add_timer(TimerId::unique(), Timer::every(100ms, [this](TimerCallbackInfo& i) {
                                  runs.push_back(TimerRun{"t", ms_of(i.frame_start), ms_of(i.due), i.call_count, i.missed_ticks, false});
                                })).ok());
  for (std::int64_t ms : {50, 103, 150, 201, 299, 300, 399}) frame(ms);
  EXPECT_EQ(times("t"), (Times{103, 201, 300}));
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[2].call_count, 2u);
  EXPECT_EQ(runtime.next_wake(), 1ms) << "due at 400, now 399";
}

TEST_P(WindowRuntimeTest, AnIntervalTimerRunsOnScheduleWhenFramesFollowItsWakeUps) {
  ASSERT_TRUE(runtime.add_timer(TimerId::unique(), logged("t").with_delay(30ms).with_interval(100ms)).ok());
  run_until(500);
  EXPECT_EQ(times("t"), (Times{30, 130, 230, 330, 430}));
}

TEST_P(WindowRuntimeTest, NoIntervalMeansEveryFrameAfterTheDelay) {
  ASSERT_TRUE(runtime.add_timer(TimerId::unique(), logged("anim").with_delay(40ms)).ok());
  frame(10);
  EXPECT_TRUE(runs.empty());
  EXPECT_EQ(runtime.next_wake(), 30ms);
  frame(40);
  frame(41);
  frame(45);
  EXPECT_EQ(times("anim"), (Times{40, 41, 45}));
  EXPECT_EQ(runtime.next_wake(), 3ms) << "while animating, wake at the frame grid's next instant (48 ms)";
}

// Animation frames keep to the frame grid (whole frame intervals from the origin): a frame in
// between (a timer's, input's) does not move the ones after it, as it would if each came a frame
// interval after the last (a drag autoscroll pulled 14 ms off the screen's cadence by a caret
// toggle, found by review).
TEST_P(WindowRuntimeTest, AnimationFramesKeepToTheFrameGridWhateverFramesComeBetween) {
  add(TimerId::unique(), logged("anim"));
  add(TimerId::unique(), logged("blink").with_delay(754ms).with_timeout(754ms));
  std::vector<std::int64_t> wakes;
  clock.run_until(at_ms(820), [&] { return runtime.next_due(); }, [&](Instant now) {
    wakes.push_back(ms_of(now));
    (void)runtime.poll(now);
  });
  ASSERT_GE(wakes.size(), 5u);
  const std::vector<std::int64_t> tail(wakes.end() - 5, wakes.end());
  EXPECT_EQ(tail, (Times{754, 768, 784, 800, 816})) << "768 after the timer's frame at 754, not 770";
}

TEST_P(WindowRuntimeTest, TimeoutEndsWithOneFlaggedRunAtTheTimeout) {
  const TimerId id = TimerId::unique();
  ASSERT_TRUE(runtime.add_timer(id, logged("t").with_delay(100ms).with_interval(100ms).with_timeout(250ms)).ok());
  run_until(1000);
  EXPECT_EQ(times("t"), (Times{100, 200, 250}));
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_FALSE(runs[1].last);
  EXPECT_TRUE(runs[2].last);
  EXPECT_FALSE(runtime.has_timer(id));
  EXPECT_EQ(runtime.timer_count(), 0u);
}

TEST_P(WindowRuntimeTest, AnimationWithTimeoutWakesForItsLastRun) {
  const TimerId id = TimerId::unique();
  ASSERT_TRUE(runtime.add_timer(id, logged("fade").with_timeout(40ms)).ok());
  run_until(200);
  // Frames every 16 ms from the first run at 0, and one more at the timeout (40 ms), flagged.
  EXPECT_EQ(times("fade"), (Times{0, 16, 32, 40}));
  EXPECT_TRUE(runs.back().last);
  EXPECT_FALSE(runtime.has_timer(id));
}

TEST_P(WindowRuntimeTest, OnceRunsOnceFlaggedAsLast) {
  const TimerId id = TimerId::unique();
  ASSERT_TRUE(runtime.add_timer(id, Timer::once(500ms, [this](TimerCallbackInfo& i) {
                                  runs.push_back(TimerRun{"once", ms_of(i.frame_start), ms_of(i.due), i.call_count, 0, i.is_about_to_finish});
                                })).ok());
  run_until(5000);
  ASSERT_EQ(times("once"), Times{500});
  EXPECT_TRUE(runs[0].last);
  EXPECT_FALSE(runtime.has_timer(id));
}

TEST_P(WindowRuntimeTest, TerminateRemovesTheTimerAfterThatRun) {
  const TimerId id = TimerId::unique();
  ASSERT_TRUE(runtime.add_timer(id, logged("t", TimerCallbackReturn::stop()).with_interval(10ms)).ok());
  run_until(100);
  EXPECT_EQ(times("t"), Times{0});
  EXPECT_FALSE(runtime.has_timer(id));
}

TEST_P(WindowRuntimeTest, AllTimersOfAFrameSeeOneFrameStartInDueOrder) {
  add(TimerId::unique(), logged("c").with_delay(30ms).with_timeout(30ms));
  add(TimerId::unique(), logged("a").with_delay(10ms).with_timeout(10ms));
  add(TimerId::unique(), logged("b").with_delay(20ms).with_timeout(20ms));
  add(TimerId::unique(), logged("a2").with_delay(10ms).with_timeout(10ms));
  add(TimerId::unique(), logged("anim").with_delay(5ms));
  frame(35);
  EXPECT_EQ(names(), (std::vector<std::string>{"anim", "a", "a2", "b", "c"}));
  for (const TimerRun& r : runs) EXPECT_EQ(r.at_ms, 35);
}

TEST_P(WindowRuntimeTest, RedrawRequestsMergeToTheLargest) {
  add(TimerId::unique(), logged("a", TimerCallbackReturn::redraw()).with_delay(10ms).with_timeout(10ms));
  add(TimerId::unique(), logged("b").with_delay(10ms).with_timeout(10ms));
  EXPECT_EQ(frame(10).update, Update::redraw_window);
  add(TimerId::unique(), logged("c", {Update::redraw_all, false}).with_delay(5ms).with_timeout(5ms));
  add(TimerId::unique(), logged("d", TimerCallbackReturn::redraw()).with_delay(5ms).with_timeout(5ms));
  EXPECT_EQ(frame(15).update, Update::redraw_all);
  EXPECT_EQ(frame(16).update, Update::nothing);
}

// A 100 ms interval timer; the app stalls from 0 to 5,050 ms.
class MissedTicksTest : public RuntimeFixture {
 protected:
  void stall(MissedTicks policy) {
    ASSERT_TRUE(runtime.add_timer(TimerId::unique(), logged("t").with_interval(100ms).with_missed_ticks(policy)).ok());
    frame(0);
    frame(5050);
  }
};
INSTANTIATE_TEST_SUITE_P(Queues, MissedTicksTest, ::testing::Values(QueueKind::wheel, QueueKind::heap), queue_name);

TEST_P(MissedTicksTest, SkipRunsOnceReportsTheMissedTicksAndKeepsTheGrid) {
  stall(MissedTicks::skip);
  ASSERT_EQ(times("t"), (Times{0, 5050}));
  EXPECT_EQ(runs[1].missed, 49u) << "due at 100..5000 (50 times), ran once";
  EXPECT_EQ(runs[0].due_ms, 0);
  EXPECT_EQ(runs[1].due_ms, 5000) << "the run stands for the last due time reached: 50 ms late";
  EXPECT_EQ(runtime.next_wake(), 50ms) << "next on the grid: 5,100";
}

TEST_P(MissedTicksTest, BurstRunsEveryMissedTickThenKeepsTheGrid) {
  stall(MissedTicks::burst);
  EXPECT_EQ(runs.size(), 1u + 50u);
  EXPECT_EQ(runs.back().call_count, 50u);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    EXPECT_EQ(runs[i].due_ms, 100 * static_cast<std::int64_t>(i)) << "each run carries its own due time";
  }
  EXPECT_EQ(runtime.next_wake(), 50ms);
}

TEST_P(MissedTicksTest, DelayRestartsFromTheLateRun) {
  stall(MissedTicks::delay);
  ASSERT_EQ(times("t"), (Times{0, 5050}));
  EXPECT_EQ(runs[1].missed, 0u);
  EXPECT_EQ(runs[1].due_ms, 100) << "the first due time missed";
  EXPECT_EQ(runtime.next_wake(), 100ms) << "next at 5,150";
}

TEST_P(MissedTicksTest, BurstCatchesUpAtMostAHundredRunsPerFrame) {
  ASSERT_TRUE(runtime.add_timer(TimerId::unique(),
                                logged("t").with_delay(1ms).with_interval(1ms).with_missed_ticks(MissedTicks::burst)).ok());
  frame(250);  // due at 1..250: 250 runs owed
  EXPECT_EQ(runs.size(), std::size_t{Timer::kMaxBurstRuns});
  EXPECT_EQ(runtime.next_wake(), 0ms) << "still behind: due again at once";
  frame(250);
  EXPECT_EQ(runs.size(), 200u);
  frame(250);
  EXPECT_EQ(runs.size(), 250u) << "caught up";
  EXPECT_EQ(runtime.next_wake(), 1ms) << "next due at 251";
}

TEST_P(WindowRuntimeTest, SlackGathersTimersOnASharedWakeUp) {
  // Slack 50 ms: run at the next multiple of 32 ms; due at 1,003 and 1,020: both at 1,024.
  add(TimerId::unique(), logged("a").with_delay(1003ms).with_timeout(1003ms).with_slack(50ms));
  add(TimerId::unique(), logged("b").with_delay(1020ms).with_timeout(1020ms).with_slack(50ms));
  add(TimerId::unique(), logged("strict").with_delay(1010ms).with_timeout(1010ms));
  run_until(2000);
  EXPECT_EQ(times("strict"), Times{1010});
  EXPECT_EQ(times("a"), Times{1024});
  EXPECT_EQ(times("b"), Times{1024});
}

TEST_P(WindowRuntimeTest, PauseKeepsTheTimeLeftAndShiftsTheTimeout) {
  const TimerId id = TimerId::unique();
  ASSERT_TRUE(runtime.add_timer(id, logged("t").with_delay(100ms).with_interval(100ms).with_timeout(350ms)).ok());
  run_until(130);
  ASSERT_EQ(times("t"), Times{100});
  ASSERT_TRUE(runtime.pause_timer(id).ok());
  ASSERT_TRUE(runtime.pause_timer(id).ok()) << "pausing twice changes nothing";
  EXPECT_EQ(runtime.next_wake(), std::nullopt);
  EXPECT_TRUE(runtime.timer_status(id)->paused);
  run_until(1000);
  EXPECT_EQ(times("t"), Times{100});
  ASSERT_TRUE(runtime.resume_timer(id).ok());  // 70 ms left to the next run, 220 ms to the timeout
  ASSERT_TRUE(runtime.resume_timer(id).ok()) << "resuming a running timer changes nothing";
  run_until(2000);
  EXPECT_EQ(times("t"), (Times{100, 1070, 1170, 1220}));
  EXPECT_TRUE(runs.back().last);
}

TEST_P(WindowRuntimeTest, PausedAnimationResumesRunningEveryFrame) {
  const TimerId id = TimerId::unique();
  add(id, logged("anim"));
  frame(0);
  frame(16);
  ASSERT_TRUE(runtime.pause_timer(id).ok());
  frame(32);
  EXPECT_EQ(runtime.next_wake(), std::nullopt);
  ASSERT_TRUE(runtime.resume_timer(id).ok());
  frame(48);
  frame(64);
  EXPECT_EQ(times("anim"), (Times{0, 16, 48, 64}));
  EXPECT_TRUE(runtime.timer_status(id)->every_frame);
}

TEST_P(WindowRuntimeTest, StatusReportsTheSchedule) {
  const TimerId id = TimerId::unique();
  frame(40);
  add(id, logged("t").with_delay(100ms).with_interval(50ms).with_timeout(1s));
  auto s = runtime.timer_status(id);
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->created, at_ms(40));
  EXPECT_EQ(s->next_due, at_ms(140));
  EXPECT_EQ(s->expires, at_ms(1040));
  EXPECT_EQ(s->run_count, 0u);
  frame(140);
  s = runtime.timer_status(id);
  EXPECT_EQ(s->run_count, 1u);
  EXPECT_EQ(s->last_run, at_ms(140));
  EXPECT_EQ(s->next_due, at_ms(190));
  EXPECT_EQ(runtime.timer_status(TimerId::unique()), std::nullopt);
}

TEST_P(WindowRuntimeTest, StatusNextDueIsWhenItRunsWithSlack) {
  // docs/timers.md's slack example: due at 1003 ms, rounded up to the 32 ms grid.
  const TimerId id = TimerId::unique();
  add(id, logged("t").with_delay(1003ms).with_timeout(1003ms).with_slack(50ms));
  EXPECT_EQ(runtime.timer_status(id)->next_due, at_ms(1024));
  EXPECT_EQ(runtime.next_due(), at_ms(1024));
  run_until(2000);
  EXPECT_EQ(times("t"), Times{1024});
}

TEST_P(WindowRuntimeTest, FrameAfterIsTheNextInstantOfTheFrameGrid) {
  EXPECT_EQ(runtime.frame_after(at_ms(0)), at_ms(16));
  EXPECT_EQ(runtime.frame_after(at_ms(15)), at_ms(16));
  EXPECT_EQ(runtime.frame_after(at_ms(16)), at_ms(32)) << "strictly after";
  EXPECT_EQ(runtime.frame_after(at_ms(-5)), at_ms(0)) << "before the origin: the origin";
  const Instant end = Instant::max_for(ClockKind::tick);
  EXPECT_EQ(runtime.frame_after(end - 1ms), end) << "saturates";
  EXPECT_EQ(runtime.frame_after(end), end);
  ASSERT_TRUE(runtime.set_frame_interval(1ns).ok());  // found by the fuzzer: one step past the end overflowed
  EXPECT_EQ(runtime.frame_after(end), end);
  EXPECT_EQ(runtime.frame_after(end - 1ns), end);
  EXPECT_THROW((void)runtime.frame_after(Instant::at(ClockKind::system, 1s)), ClockMismatch);
}

TEST_P(WindowRuntimeTest, FrameIntervalIsAdjustableAndChecked) {
  EXPECT_EQ(runtime.frame_interval(), 16ms);
  const Status bad = runtime.set_frame_interval(0ms);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, Errc::invalid_argument);
  EXPECT_EQ(runtime.frame_interval(), 16ms);
  ASSERT_TRUE(runtime.set_frame_interval(7ms).ok());
  add(TimerId::unique(), logged("anim"));
  frame(100);
  EXPECT_EQ(runtime.next_wake(), 5ms) << "the grid of 7 ms frames: 105";
}

}  // namespace
}  // namespace cadence::testing
