// Timers run at their exact due instant, to the nanosecond of the clock, although the queue
// works in whole milliseconds: the short list, its order, its entries across pause and resume,
// and next_wake() through the cache of the queue's next tick. Runs on both queues.
#include <gtest/gtest.h>

#include <functional>
#include <vector>

#include "runtime_fixture.hpp"

namespace cadence::testing {
namespace {

class ExactDueTest : public RuntimeFixture {
 protected:
  Instant at_us(std::int64_t us) const { return Instant::at(ClockKind::tick, std::chrono::microseconds(us)); }
  /// Runs one frame at `us` microseconds.
  void frame_us(std::int64_t us) {
    ASSERT_TRUE(clock.set(at_us(us)).ok());
    last = runtime.poll(clock.now());
  }
  /// A timer that records its name, frame start and due instant on each run.
  Timer exact(char name, Duration delay) {
    return Timer::once(delay, [this, name](TimerCallbackInfo& info) { seen.push_back(Seen{name, info.frame_start, info.due}); });
  }
  struct Seen {
    char name;
    Instant frame_start;
    Instant due;
  };
  std::vector<Seen> seen;
};
INSTANTIATE_TEST_SUITE_P(Queues, ExactDueTest, ::testing::Values(QueueKind::wheel, QueueKind::heap), queue_name);

TEST_P(ExactDueTest, SubMillisecondDueTimesRunExactlyNeverEarly) {
  ASSERT_TRUE(clock.set(Instant::at(ClockKind::tick, 10'400us)).ok());
  add(TimerId::unique(), logged("t").with_delay(1ms).with_timeout(1ms));  // due at 11.4 ms
  EXPECT_EQ(runtime.next_wake(), 1ms) << "wake at 11.4 ms itself";
  ASSERT_TRUE(clock.set(Instant::at(ClockKind::tick, 11'300us)).ok());
  runtime.poll(clock.now());
  EXPECT_TRUE(runs.empty()) << "not at 11.3 ms, within its millisecond but before it";
  EXPECT_EQ(runtime.next_wake(), 100us);
  ASSERT_TRUE(clock.set(Instant::at(ClockKind::tick, 11'400us)).ok());
  runtime.poll(clock.now());
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].due_ms, 11);
}

TEST_P(ExactDueTest, AChainOfOneShotsArmedFromCallbacksRunsOnTimeWithOneWakeEach) {
  // Each run arms the next 7 ms after its frame started; frames start at sub-millisecond times.
  ASSERT_TRUE(clock.set(Instant::at(ClockKind::tick, 300us)).ok());
  std::vector<Duration> lateness;
  std::function<Timer()> next = [&] {
    return Timer::once(7ms, [&](TimerCallbackInfo& info) {
      lateness.push_back(info.frame_start - info.due);
      if (lateness.size() < 50) {
        EXPECT_TRUE(info.context.add_timer(TimerId::unique(), next()).ok());
      }
    });
  };
  add(TimerId::unique(), next());
  const RunReport report = clock.run_until_idle([&] { return runtime.next_due(); },
                                                [&](Instant now) { last = runtime.poll(now); });
  EXPECT_TRUE(report.idle);
  ASSERT_EQ(lateness.size(), 50u);
  for (Duration late : lateness) EXPECT_EQ(late, Duration::zero()) << "each ran at its exact due time";
  EXPECT_EQ(report.steps, 50u) << "one wake-up per run, none wasted";
}

TEST_P(ExactDueTest, TimersDueInOneMillisecondRunInDueOrderWhateverTheOrderAdded) {
  ASSERT_TRUE(clock.set(at_us(5'000)).ok());
  add(TimerId::unique(), exact('a', 700us));  // due at 5.7 ms, added first
  add(TimerId::unique(), exact('b', 300us));  // due at 5.3 ms
  add(TimerId::unique(), exact('c', 200us));  // due at 5.2 ms, added last
  EXPECT_EQ(runtime.next_wake(), 200us);
  frame_us(5'900);  // a late frame: the queue fires millisecond 5 with all three due
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[0].name, 'c');
  EXPECT_EQ(seen[1].name, 'b');
  EXPECT_EQ(seen[2].name, 'a');
  EXPECT_EQ(seen[0].due, at_us(5'200));
  EXPECT_EQ(seen[1].due, at_us(5'300));
  EXPECT_EQ(seen[2].due, at_us(5'700));
}

TEST_P(ExactDueTest, ABurstTimerHeldWithinItsMillisecondKeepsRunningAfterAStall) {
  int runs_seen = 0;
  add(TimerId::unique(), Timer::every(1ms, [&](TimerCallbackInfo&) { ++runs_seen; })
                             .with_delay(1'500us)
                             .with_missed_ticks(MissedTicks::burst));  // due at 1.5, 2.5, 3.5 ...
  frame_us(1'200);  // within its millisecond, before it: it waits in the short list
  EXPECT_EQ(runs_seen, 0);
  frame(250);       // a stall: the burst catches up at most 100 runs a frame
  EXPECT_EQ(runs_seen, 100);
  EXPECT_EQ(runtime.next_wake(), 0ms) << "more to catch up";
  run_until(300);
  EXPECT_EQ(runs_seen, 299) << "every tick from 1.5 to 299.5 ms ran, and it goes on";
  EXPECT_EQ(runtime.next_wake(), 500us);
}

TEST_P(ExactDueTest, PausingAndResumingAWaitingTimerLeavesItOneEntry) {
  std::vector<Instant> at;
  const TimerId id = TimerId::unique();
  add(id, Timer::every(200us, [&](TimerCallbackInfo& info) { at.push_back(info.frame_start); }).with_delay(5'300us));
  frame_us(5'100);  // due at 5.3: waits in the short list
  ASSERT_TRUE(clock.set(at_us(5'150)).ok());
  ASSERT_TRUE(runtime.pause_timer(id).ok());
  EXPECT_EQ(runtime.next_wake(), std::nullopt);
  ASSERT_TRUE(clock.set(at_us(5'160)).ok());
  ASSERT_TRUE(runtime.resume_timer(id).ok());  // 150 us left: due at 5.31
  EXPECT_EQ(runtime.next_wake(), 150us);
  frame_us(5'310);  // runs once; its next run, 5.51, is within the same millisecond again
  EXPECT_EQ(at, std::vector<Instant>{at_us(5'310)});
  EXPECT_EQ(runtime.next_wake(), 200us);
  frame_us(5'510);
  frame_us(5'710);
  EXPECT_EQ(at, (std::vector<Instant>{at_us(5'310), at_us(5'510), at_us(5'710)}));
}

TEST_P(ExactDueTest, NextWakeFollowsEveryChangeToTheQueuesNextMillisecond) {
  const TimerId a = TimerId::unique();
  const TimerId b = TimerId::unique();
  const TimerId c = TimerId::unique();
  add(a, exact('a', 5'700us));
  EXPECT_EQ(runtime.next_wake(), 5'700us);
  add(b, exact('b', 5'200us));  // the same millisecond of the queue, earlier
  EXPECT_EQ(runtime.next_wake(), 5'200us);
  ASSERT_TRUE(runtime.remove_timer(b).ok());
  EXPECT_EQ(runtime.next_wake(), 5'700us);
  add(c, exact('c', 5'100us));
  EXPECT_EQ(runtime.next_wake(), 5'100us);
  ASSERT_TRUE(runtime.pause_timer(c).ok());
  EXPECT_EQ(runtime.next_wake(), 5'700us);
  ASSERT_TRUE(runtime.pause_timer(a).ok());
  EXPECT_EQ(runtime.next_wake(), std::nullopt);
  ASSERT_TRUE(runtime.resume_timer(c).ok());
  EXPECT_EQ(runtime.next_wake(), 5'100us);
}

// More timers in one millisecond than the queue lists (64), and a timer far enough out to sit
// on a coarse level of the wheel: next_wake() may then be early (the start of the millisecond),
// never late, and each timer still runs at its exact instant.
TEST_P(ExactDueTest, WhenTheQueueCannotListItsNextMillisecondWakesAreEarlyNeverLate) {
  for (int i = 0; i < 100; ++i) add(TimerId::unique(), exact('m', 5'200us + i * 2us));
  add(TimerId::unique(), exact('f', 20'000'300us));
  const auto first = runtime.next_wake();
  ASSERT_TRUE(first.has_value());
  EXPECT_LE(*first, 5'200us);
  EXPECT_GE(*first, 5ms);
  const RunReport report = clock.run_until_idle([&] { return runtime.next_due(); },
                                                [&](Instant now) { last = runtime.poll(now); });
  EXPECT_TRUE(report.idle);
  ASSERT_EQ(seen.size(), 101u);
  for (const Seen& s : seen) EXPECT_EQ(s.frame_start, s.due) << s.name << " ran at its exact instant";
  EXPECT_EQ(seen.back().due, at_us(20'000'300));
  EXPECT_LE(report.steps, 104u) << "at most one early wake per millisecond it could not list";
}

// The wheel's coarse level moving down (timers 20-32 s away) must not hide a level-0 timer
// that is alone in its millisecond: next_wake() is its exact instant, and no frame is wasted.
TEST_P(ExactDueTest, AMovingCoarseLevelDoesNotMakeNextWakeEarly) {
  add(TimerId::unique(), exact('x', 15'000'500us));
  for (int i = 0; i < 100; ++i) add(TimerId::unique(), exact('c', 20s + i * 120ms + 7us));
  frame_us(5'000'000);
  EXPECT_EQ(runtime.next_due(), at_us(15'000'500));
  std::size_t frames = 0;
  clock.run_until_idle([&] { return runtime.next_due(); }, [&](Instant now) {
    ++frames;
    last = runtime.poll(now);
  });
  ASSERT_EQ(seen.size(), 101u);
  EXPECT_EQ(seen.front().name, 'x');
  for (const Seen& s : seen) EXPECT_EQ(s.frame_start, s.due);
  EXPECT_EQ(frames, 101u) << "one frame per timer: none found nothing due";
}

// A timer first asked about while it is more than 16.4 s away (on a coarse level of the wheel,
// where it cannot be listed) is listed once the wheel has brought it down: from 16.4 s away on,
// next_wake() is its exact instant again, and no frame is wasted on the start of its millisecond.
TEST_P(ExactDueTest, ATimerFirstSeenOnACoarseLevelWakesExactlyOnceItIsWithinSixteenSeconds) {
  add(TimerId::unique(), exact('t', 20'000'500us));
  EXPECT_LE(runtime.next_due(), at_us(20'000'500)) << "20 s away: early is allowed, late is not";
  for (std::int64_t ms = 100; ms <= 18'000; ms += 100) {  // input drives frames meanwhile
    frame_us(ms * 1000);
    if (ms >= 3'700) {
      ASSERT_EQ(runtime.next_due(), at_us(20'000'500)) << ms << " ms: within 16.4 s, exact";
    }
  }
  const std::optional<Instant> wake = runtime.next_due();
  ASSERT_TRUE(wake.has_value());
  ASSERT_TRUE(clock.set(*wake).ok());
  last = runtime.poll(clock.now());
  ASSERT_EQ(seen.size(), 1u) << "the frame at next_wake() runs it";
  EXPECT_EQ(seen[0].frame_start, at_us(20'000'500));
}

}  // namespace
}  // namespace cadence::testing
