// WindowRuntime::next_due() / next_wake(): never late, and exact (no frame that finds nothing
// due) once the queue can list its next millisecond, including for a timer filed from outside
// a frame after a long idle. A brute-force model of once-timers with nanosecond due times says
// what next_due() must be. Runs on both queues; each test runs a few thousand polls at most.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <vector>

#include "runtime_fixture.hpp"

namespace cadence::testing {
namespace {

constexpr std::int64_t kNsPerMs = 1'000'000;
constexpr std::int64_t kShift1 = 14;  // TimerWheel::kLevel1Shift: a level-1 block is 2^14 ms

Instant at_ns(std::int64_t ns) { return Instant::at(ClockKind::tick, Duration{ns}); }
std::int64_t ns_of(Instant t) { return t.since_origin().count(); }

class ExactWakeTest : public RuntimeFixture {};
INSTANTIATE_TEST_SUITE_P(Queues, ExactWakeTest, ::testing::Values(QueueKind::wheel, QueueKind::heap),
                         queue_name);

// window_runtime.hpp: "next_wake() is exact ... early only when more than 64 timers share the
// next millisecond, or, on the wheel, when the next timer still sits on a coarse level". A timer
// 1.5 ms away, added by an event handler after 100 s without a frame, is on neither: the queue
// catches up to now before filing it. (It used to be filed by its distance from the last frame,
// 100 s, on level 1 of the wheel, and next_wake() was the start of its millisecond: one frame
// that found nothing due.)
TEST_P(ExactWakeTest, ATimerAddedAfterALongIdleIsWokenForExactly) {
  ASSERT_TRUE(clock.set(at_ms(100'000)).ok());  // 100 s without a frame: nothing was scheduled
  add(TimerId::unique(), logged("t").with_delay(1'500us).with_timeout(1'500us));
  EXPECT_EQ(runtime.next_wake(), 1'500us) << "due at 100,001.5 ms";
  const RunReport report = clock.run_until_idle([&] { return runtime.next_due(); },
                                                [&](Instant now) { last = runtime.poll(now); });
  EXPECT_TRUE(report.idle);
  EXPECT_EQ(times("t"), std::vector<std::int64_t>{100'001});
  EXPECT_EQ(report.steps, 1u) << "one wake for one timer";
}

// The same for a timer resumed, and for one the window shows again, after a long idle: each is
// filed from outside a frame, 1.5 ms from now.
TEST_P(ExactWakeTest, ATimerResumedOrShownAfterALongIdleIsWokenForExactly) {
  const TimerId resumed = TimerId::unique();
  add(resumed, logged("resumed").with_delay(1'500us).with_timeout(1'500us));
  ASSERT_TRUE(runtime.pause_timer(resumed).ok());
  const TimerId shown{0x0001};
  ASSERT_TRUE(runtime.add_system_timer(shown, logged("shown").with_delay(1'700us).with_timeout(1'700us)).ok());
  ASSERT_TRUE(runtime.set_hidden(true).ok());  // a system timer pauses while hidden
  ASSERT_TRUE(clock.set(at_ms(200'000)).ok());
  ASSERT_TRUE(runtime.resume_timer(resumed).ok());
  ASSERT_TRUE(runtime.set_hidden(false).ok());
  EXPECT_EQ(runtime.next_wake(), 1'500us) << "due at 200,001.5 ms";
  const RunReport report = clock.run_until_idle([&] { return runtime.next_due(); },
                                                [&](Instant now) { last = runtime.poll(now); });
  EXPECT_TRUE(report.idle);
  EXPECT_EQ(times("resumed"), std::vector<std::int64_t>{200'001});
  EXPECT_EQ(times("shown"), std::vector<std::int64_t>{200'001});
  EXPECT_EQ(report.steps, 2u) << "one wake each: 200,001.5 and 200,001.7 ms";
}

// An add after timers came due leaves them for the next frame, which runs them in due order;
// nothing runs outside a frame, and the timer added then is exact too.
TEST_P(ExactWakeTest, TimersDueBeforeAnAddRunAtTheNextFrameInDueOrder) {
  add(TimerId::unique(), logged("b").with_delay(20ms).with_timeout(20ms));
  add(TimerId::unique(), logged("a").with_delay(10ms).with_timeout(10ms));
  add(TimerId::unique(), logged("c").with_delay(40'000ms).with_timeout(40'000ms));
  ASSERT_TRUE(clock.set(at_ms(30'000)).ok());
  add(TimerId::unique(), logged("d").with_delay(1ms).with_timeout(1ms));
  EXPECT_TRUE(runs.empty()) << "an add runs no timer";
  EXPECT_EQ(runtime.next_wake(), 0ms) << "a and b are overdue";
  frame(30'000);
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].name, "a");
  EXPECT_EQ(runs[1].name, "b");
  EXPECT_EQ(runtime.next_wake(), 1ms);
  frame(30'001);
  EXPECT_EQ(times("d"), std::vector<std::int64_t>{30'001});
  EXPECT_EQ(runtime.next_wake(), 9'999ms) << "c, exactly, at 40 s";
}

// A timer hours away (level 2 of the wheel at first) is never woken for late, and
// next_due() is its exact instant from the first frame after its level-1 block has begun
// moving (and at every frame on the heap). Frames come every second, as input would drive
// them.
TEST_P(ExactWakeTest, AnHoursAwayTimerIsExactFromItsLevelOneOpeningOn) {
  const std::int64_t due_ns = 7'200'007'654'321;  // 2 h 7.654321 ms
  std::vector<Instant> ran;
  add(TimerId::unique(), Timer::once(Duration{due_ns}, [&](TimerCallbackInfo& info) { ran.push_back(info.frame_start); }));
  const std::int64_t d = due_ns / kNsPerMs;
  const std::int64_t opens = ((d >> kShift1) - 1) << kShift1;
  std::size_t exact_frames = 0;
  for (std::int64_t ms = 1'000; ms < d; ms += 1'000) {
    frame(ms);
    const std::optional<Instant> due = runtime.next_due();
    ASSERT_TRUE(due.has_value());
    ASSERT_LE(ns_of(*due), due_ns) << ms << " ms: late";
    ASSERT_GE(ns_of(*due), d * kNsPerMs) << ms << " ms: earlier than its millisecond";
    if (GetParam() == QueueKind::heap || ms > opens) {
      ASSERT_EQ(ns_of(*due), due_ns) << ms << " ms: past the opening at " << opens << " ms, the wheel can list it";
      ++exact_frames;
    }
  }
  EXPECT_GT(exact_frames, 10u);
  ASSERT_TRUE(ran.empty());
  const RunReport report = clock.run_until_idle([&] { return runtime.next_due(); },
                                                [&](Instant now) { last = runtime.poll(now); });
  EXPECT_EQ(report.steps, 1u);
  EXPECT_EQ(ran, std::vector<Instant>{at_ns(due_ns)});
}

// Driven only by its own wake-ups, an hours-away timer costs at most one early wake
// (the start of its millisecond, when nothing else woke the runtime since).
TEST_P(ExactWakeTest, AnHoursAwayTimerAloneCostsAtMostOneEarlyWake) {
  const std::int64_t due_ns = 3 * 3'600'000'000'000 + 123'456'789;
  std::vector<Instant> ran;
  add(TimerId::unique(), Timer::once(Duration{due_ns}, [&](TimerCallbackInfo& info) { ran.push_back(info.frame_start); }));
  const RunReport report = clock.run_until_idle([&] { return runtime.next_due(); },
                                                [&](Instant now) { last = runtime.poll(now); });
  EXPECT_TRUE(report.idle);
  EXPECT_LE(report.steps, 2u);
  EXPECT_EQ(ran, std::vector<Instant>{at_ns(due_ns)});
}

// 65 timers in one millisecond make next_wake() early (the start of it); removing one
// makes it exact at once, and every timer then costs exactly one wake.
TEST_P(ExactWakeTest, ABusyMillisecondIsExactAgainOnceItHoldsSixtyFour) {
  std::vector<TimerId> ids;
  std::vector<Instant> ran;
  for (int i = 0; i < 65; ++i) {
    ids.push_back(TimerId::unique());
    add(ids.back(), Timer::once(5'200us + i * 3us, [&](TimerCallbackInfo& info) { ran.push_back(info.frame_start); }));
  }
  EXPECT_EQ(runtime.next_wake(), 5ms) << "65 cannot be listed: the start of the millisecond";
  ASSERT_TRUE(runtime.remove_timer(ids[0]).ok());
  EXPECT_EQ(runtime.next_wake(), 5'203us);
  const RunReport report = clock.run_until_idle([&] { return runtime.next_due(); },
                                                [&](Instant now) { last = runtime.poll(now); });
  EXPECT_EQ(report.steps, 64u);
  ASSERT_EQ(ran.size(), 64u);
  for (int i = 1; i < 65; ++i) EXPECT_EQ(ran[static_cast<std::size_t>(i - 1)], at_ns((5'200 + i * 3) * 1'000));
}

// ---- a differential run against a model --------------------------------------------------

struct Pending {
  std::uint64_t key;  // add order
  TimerId id;
  std::int64_t due_ns;
};
struct Ran {
  std::uint64_t key;
  std::int64_t frame_ns;
  std::int64_t due_ns;
};

// With random once-timers (sub-millisecond to hours away, ties, 66 in one
// millisecond), random removals, and frames at next_due(), at the model's next due time, just
// before it, at random later times, and with the clock set backwards:
// - each frame runs exactly the timers due by its start, in due order, ties in add order;
// - next_due() is never later than the earliest pending due time;
// - it is that due time exactly unless the queue's next millisecond cannot be listed (more
//   than 64 timers; on the wheel, or its level-1 block has not begun moving as seen from the
//   queue's now(), the latest frame's millisecond or the one before an add's), and then it is
//   the start of that millisecond (or a held timer's instant, if sooner).
TEST_P(ExactWakeTest, NextDueMatchesAModelOfOnceTimers) {
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    SCOPED_TRACE(seed);
    std::mt19937_64 rng(seed * 7919);
    auto r = [&](std::int64_t lo, std::int64_t hi) { return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng); };
    std::vector<Ran> ran;
    std::vector<Pending> pending;
    ManualClock c;
    WindowRuntime rt(c.source(), options());
    std::uint64_t next_key = 0;
    std::int64_t clock_ns = 0;
    std::int64_t latest_ns = 0;      // the runtime's `latest`: changes apply from here
    std::int64_t last_frame_ns = 0;  // frames start at or after it (the origin before the first)
    std::int64_t queue_ms = 0;       // the queue's now(): the latest frame's millisecond, or the one before a catching-up add's

    auto add_one = [&](std::int64_t delay_ns) {
      if (delay_ns < 0) delay_ns = 0;
      const std::uint64_t key = next_key++;
      const TimerId id = TimerId::unique();
      // An add first moves the queue up to the millisecond before now's, unless a queued timer
      // is due by then.
      const std::int64_t catch_up_ms = latest_ns / kNsPerMs - 1;
      std::int64_t next_queued_ms = std::numeric_limits<std::int64_t>::max();
      for (const Pending& p : pending) {
        if (p.due_ns / kNsPerMs > queue_ms) next_queued_ms = std::min(next_queued_ms, p.due_ns / kNsPerMs);
      }
      if (next_queued_ms > catch_up_ms) queue_ms = std::max(queue_ms, catch_up_ms);
      ASSERT_TRUE(rt.add_timer(id, Timer::once(Duration{delay_ns}, [&ran, key](TimerCallbackInfo& info) {
                          ran.push_back(Ran{key, ns_of(info.frame_start), ns_of(info.due)});
                        })).ok());
      pending.push_back(Pending{key, id, latest_ns + delay_ns});
    };

    for (int step = 0; step < 2500; ++step) {
      const std::int64_t k = r(0, 99);
      if (k < 38 && pending.size() < 300) {
        if (r(0, 99) < 30) {  // an event handler some time after the frame
          clock_ns = std::max(clock_ns, last_frame_ns) + r(0, 5 * kNsPerMs);
          ASSERT_TRUE(c.set(at_ns(clock_ns)).ok());
        }
        latest_ns = std::max(latest_ns, clock_ns);
        const std::int64_t how = r(0, 99);
        if (how < 15) {
          add_one(r(0, kNsPerMs - 1));
        } else if (how < 40) {
          add_one(r(kNsPerMs, 16'300 * kNsPerMs));
        } else if (how < 50) {
          add_one(r(16'300 * kNsPerMs, 40'000 * kNsPerMs));
        } else if (how < 58) {
          add_one(r(60'000 * kNsPerMs, 3'600'000 * kNsPerMs));
        } else if (how < 62) {
          add_one(r(3'600'000 * kNsPerMs, 3 * 3'600'000 * kNsPerMs));
        } else if (how < 86 && !pending.empty()) {  // a tie: the same millisecond as another timer
          const Pending& p = pending[static_cast<std::size_t>(r(0, static_cast<std::int64_t>(pending.size()) - 1))];
          add_one((p.due_ns / kNsPerMs) * kNsPerMs + r(0, kNsPerMs - 1) - latest_ns);
        } else if (how < 90) {  // 66 in one millisecond
          const std::int64_t ms = latest_ns / kNsPerMs + r(2, 40'000);
          for (int i = 0; i < 66; ++i) add_one(ms * kNsPerMs + r(0, kNsPerMs - 1) - latest_ns);
        } else {  // on a millisecond's start
          add_one((latest_ns / kNsPerMs + r(1, 40'000)) * kNsPerMs - latest_ns);
        }
        if (HasFatalFailure()) return;
      } else if (k < 48 && !pending.empty()) {
        const auto i = static_cast<std::size_t>(r(0, static_cast<std::int64_t>(pending.size()) - 1));
        ASSERT_TRUE(rt.remove_timer(pending[i].id).ok());
        pending.erase(pending.begin() + static_cast<std::ptrdiff_t>(i));
      } else {
        std::int64_t min_due = std::numeric_limits<std::int64_t>::max();
        for (const Pending& p : pending) min_due = std::min(min_due, p.due_ns);
        const std::int64_t how = r(0, 99);
        std::int64_t target = last_frame_ns;
        const std::optional<Instant> wake = rt.next_due();
        if (how < 35 && wake) {
          target = ns_of(*wake);
        } else if (how < 45 && !pending.empty()) {
          target = min_due;
        } else if (how < 55 && !pending.empty()) {
          target = min_due - r(1, kNsPerMs - 1);
        } else if (how < 72) {
          target = last_frame_ns + r(1'000, 20 * kNsPerMs);
        } else if (how < 85) {
          target = last_frame_ns + r(20 * kNsPerMs, 60'000 * kNsPerMs);
        } else if (how < 90) {
          target = last_frame_ns + r(60'000 * kNsPerMs, 2 * 3'600'000 * kNsPerMs);
        } else if (how < 96) {
          target = last_frame_ns - r(1, 10 * kNsPerMs);  // the clock went back
        }
        if (target < 0) target = 0;
        clock_ns = target;
        ASSERT_TRUE(c.set(at_ns(clock_ns)).ok());
        const std::int64_t frame_ns = std::max(last_frame_ns, target);
        ran.clear();
        rt.poll(c.now());
        last_frame_ns = frame_ns;
        latest_ns = std::max(latest_ns, frame_ns);
        queue_ms = std::max(queue_ms, frame_ns / kNsPerMs);
        std::vector<Pending> due;
        std::vector<Pending> keep;
        for (const Pending& p : pending) (p.due_ns <= frame_ns ? due : keep).push_back(p);
        std::sort(due.begin(), due.end(), [](const Pending& a, const Pending& b) {
          return a.due_ns != b.due_ns ? a.due_ns < b.due_ns : a.key < b.key;
        });
        pending = std::move(keep);
        ASSERT_EQ(ran.size(), due.size()) << "step " << step << ": frame at " << frame_ns << " ns";
        for (std::size_t i = 0; i < due.size(); ++i) {
          ASSERT_EQ(ran[i].key, due[i].key) << "step " << step << ": run " << i;
          ASSERT_EQ(ran[i].frame_ns, frame_ns);
          ASSERT_EQ(ran[i].due_ns, due[i].due_ns);
        }
      }

      // next_due() against the model.
      const std::optional<Instant> got = rt.next_due();
      if (pending.empty()) {
        ASSERT_FALSE(got.has_value()) << "step " << step;
        continue;
      }
      ASSERT_TRUE(got.has_value()) << "step " << step;
      std::int64_t min_due = std::numeric_limits<std::int64_t>::max();
      std::int64_t held_min = std::numeric_limits<std::int64_t>::max();
      std::int64_t next_ms = std::numeric_limits<std::int64_t>::max();
      for (const Pending& p : pending) {
        min_due = std::min(min_due, p.due_ns);
        const std::int64_t ms = p.due_ns / kNsPerMs;
        if (ms <= queue_ms) {
          held_min = std::min(held_min, p.due_ns);  // waits in the table's short list
        } else {
          next_ms = std::min(next_ms, ms);
        }
      }
      const std::int64_t g = ns_of(*got);
      ASSERT_LE(g, min_due) << "step " << step << ": next_due() is late";
      if (clock_ns < last_frame_ns && min_due <= last_frame_ns) {
        // The clock is behind the last frame: a frame now starts at the last frame's instant
        // and runs what is due by then, so the wake is now.
        ASSERT_EQ(g, clock_ns) << "step " << step << ": due by the last frame, with the clock behind it";
        continue;
      }
      if (next_ms == std::numeric_limits<std::int64_t>::max()) {
        ASSERT_EQ(g, min_due) << "step " << step << ": only held timers";
        continue;
      }
      std::size_t ties = 0;
      std::size_t queued = 0;
      for (const Pending& p : pending) {
        const std::int64_t ms = p.due_ns / kNsPerMs;
        if (ms > queue_ms) ++queued;
        if (ms == next_ms) ++ties;
      }
      const std::int64_t early = std::min(held_min, next_ms * kNsPerMs);
      const bool listable =
          ties <= 64 && (GetParam() == QueueKind::heap ||
                         (queue_ms > (((next_ms >> kShift1) - 1) << kShift1) && queued <= 4096));
      if (listable) {
        ASSERT_EQ(g, min_due) << "step " << step << ": queue at " << queue_ms << " ms, next millisecond " << next_ms
                              << " (" << ties << " timers) can be listed, so next_due() must be exact";
      } else if (ties > 64) {
        ASSERT_EQ(g, early) << "step " << step << ": more than 64 cannot be listed";
      } else {
        ASSERT_TRUE(g == min_due || g == early) << "step " << step << ": got " << g << ", exact " << min_due
                                                << ", start of the millisecond " << early;
      }
    }
  }
}

}  // namespace
}  // namespace cadence::testing
