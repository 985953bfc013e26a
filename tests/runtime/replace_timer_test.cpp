// replace_timer(): starts a timer, or replaces the one that has the id, from everywhere a change
// can be made: outside a frame, from a callback (its own timer too), through an app's own
// context; and what it promises on error (the old timer keeps running). Runs on both queues.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <thread>
#include <utility>

#include "runtime_fixture.hpp"

namespace cadence::testing {
namespace {

using Times = std::vector<std::int64_t>;

class ReplaceTimerTest : public RuntimeFixture {
 protected:
  /// A logged timer that runs once, `delay` after it is added.
  Timer once(std::string name, Duration delay) { return logged(std::move(name)).with_delay(delay).with_timeout(delay); }
};
INSTANTIATE_TEST_SUITE_P(Queues, ReplaceTimerTest, ::testing::Values(QueueKind::wheel, QueueKind::heap), queue_name);

/// Runs `last_words` when the last copy of the callback that holds it is destroyed (timer
/// callbacks are copyable, so a capture holds it through a shared_ptr).
class OnDestroy {
 public:
  explicit OnDestroy(std::function<void()> f) : last_words_(std::move(f)) {}
  OnDestroy(const OnDestroy&) = delete;
  OnDestroy& operator=(const OnDestroy&) = delete;
  ~OnDestroy() { last_words_(); }

 private:
  std::function<void()> last_words_;
};
std::shared_ptr<OnDestroy> on_destroy(std::function<void()> f) { return std::make_shared<OnDestroy>(std::move(f)); }

TEST_P(ReplaceTimerTest, WithoutATimerItStartsOne) {
  const TimerId id = TimerId::unique();
  ASSERT_TRUE(runtime.replace_timer(id, once("new", 30ms)).ok());
  EXPECT_EQ(runtime.timer_count(), 1u);
  run_until(100);
  EXPECT_EQ(times("new"), Times{30});
}

TEST_P(ReplaceTimerTest, ARunningTimerIsReplacedAndItsCallbackDestroyed) {
  const TimerId id = TimerId::unique();
  bool old_gone = false;
  add(id, Timer::every(10ms, [this, keep = on_destroy([&] { old_gone = true; })](TimerCallbackInfo& info) {
        runs.push_back(TimerRun{"old", ms_of(info.frame_start), 0, 0, 0, false});
        return TimerCallbackReturn{};
      }));
  run_until(25);
  EXPECT_FALSE(old_gone);
  ASSERT_TRUE(runtime.replace_timer(id, once("new", 50ms)).ok());
  EXPECT_TRUE(old_gone) << "outside a frame the old timer goes at once";
  EXPECT_EQ(runtime.timer_count(), 1u);
  run_until(200);
  EXPECT_EQ(times("old"), (Times{10, 20}));
  EXPECT_EQ(times("new"), Times{75}) << "due 50 ms from the replacement, not from the old timer's schedule";
}

TEST_P(ReplaceTimerTest, APausedTimerIsReplacedByARunningOne) {
  const TimerId id = TimerId::unique();
  add(id, once("old", 10ms));
  ASSERT_TRUE(runtime.pause_timer(id).ok());
  ASSERT_TRUE(runtime.replace_timer(id, once("new", 20ms)).ok());
  ASSERT_TRUE(runtime.timer_status(id).has_value());
  EXPECT_FALSE(runtime.timer_status(id)->paused);
  run_until(100);
  EXPECT_TRUE(times("old").empty());
  EXPECT_EQ(times("new"), Times{20});
}

TEST_P(ReplaceTimerTest, ARefusedTimerLeavesTheOldOneRunning) {
  const TimerId id = TimerId::unique();
  add(id, once("old", 10ms));
  const Status bad = runtime.replace_timer(id, once("new", -1ms));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, Errc::invalid_argument) << bad.error().message;
  EXPECT_TRUE(runtime.has_timer(id));
  run_until(100);
  EXPECT_EQ(times("old"), Times{10});
  EXPECT_TRUE(times("new").empty());
}

TEST_P(ReplaceTimerTest, IdZeroIsRefused) {
  const Status s = runtime.replace_timer(TimerId{}, logged("new"));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, Errc::invalid_argument);
  EXPECT_EQ(runtime.timer_count(), 0u);
}

TEST_P(ReplaceTimerTest, ASystemIdMakesASystemTimer) {
  const TimerId caret{0x01};
  ASSERT_TRUE(runtime.replace_timer(caret, once("caret", 10ms)).ok());
  ASSERT_TRUE(runtime.replace_timer(caret, once("caret2", 20ms)).ok());
  EXPECT_EQ(runtime.timer_count(), 1u);
  // A system timer takes no when-hidden policy: refused as add_system_timer refuses it, and the
  // one running stays.
  const Status s = runtime.replace_timer(caret, logged("bad").with_when_hidden(WhenHidden::pause()));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, Errc::invalid_argument) << s.error().message;
  ASSERT_TRUE(runtime.set_hidden(true).ok());
  run_until(100);
  EXPECT_TRUE(times("caret2").empty()) << "system timers pause while hidden";
  ASSERT_TRUE(runtime.set_hidden(false).ok());
  run_until(200);
  EXPECT_EQ(times("caret2").size(), 1u);
  EXPECT_TRUE(times("caret").empty());
}

TEST_P(ReplaceTimerTest, FromACallbackTheOldTimerStopsAtOnceAndTheNewOneComesWithTheChanges) {
  const TimerId victim = TimerId::unique();
  add(TimerId::unique(), Timer::once(50ms, [&](TimerCallbackInfo& info) {
        ASSERT_TRUE(info.context.replace_timer(victim, once("new", 10ms)).ok());
        EXPECT_FALSE(info.context.has_timer(victim)) << "the old one is stopped, the new one not added yet";
      }));
  add(victim, once("old", 50ms));  // due in the same frame, after the first
  frame(50);
  EXPECT_TRUE(times("old").empty()) << "stopped at once: it does not run later in that frame";
  EXPECT_TRUE(runtime.has_timer(victim));
  EXPECT_EQ(runtime.timer_count(), 1u);
  run_until(100);
  EXPECT_EQ(times("new"), Times{60});
  EXPECT_TRUE(last.failures.empty());
}

TEST_P(ReplaceTimerTest, ACallbackMayReplaceItsOwnTimer) {
  const TimerId self = TimerId::unique();
  add(self, Timer::every(10ms, [&](TimerCallbackInfo& info) {
        runs.push_back(TimerRun{"self", ms_of(info.frame_start), 0, 0, 0, false});
        EXPECT_TRUE(info.context.replace_timer(info.id, once("next", 25ms)).ok());
        return TimerCallbackReturn{};
      }));
  run_until(100);
  EXPECT_EQ(times("self"), Times{10});
  EXPECT_EQ(times("next"), Times{35});
  EXPECT_FALSE(runtime.has_timer(self));
  EXPECT_TRUE(last.failures.empty());
}

TEST_P(ReplaceTimerTest, ATimerTheSameSetAddsIsReplacedNotAddedTwice) {
  const TimerId id = TimerId::unique();
  ChangeSet set;
  CallbackContext context = runtime.context(set);
  ASSERT_TRUE(context.add_timer(id, once("first", 10ms)).ok());
  ASSERT_TRUE(context.replace_timer(id, once("second", 20ms)).ok());
  EXPECT_FALSE(runtime.has_timer(id)) << "an app's own set changes nothing until applied";
  const ApplyReport report = runtime.apply(std::move(set));
  EXPECT_TRUE(report.failures.empty());
  EXPECT_EQ(runtime.timer_count(), 1u);
  run_until(100);
  EXPECT_TRUE(times("first").empty());
  EXPECT_EQ(times("second"), Times{20});
}

TEST_P(ReplaceTimerTest, ASetDroppedUnappliedLeavesTheOldTimer) {
  const TimerId id = TimerId::unique();
  add(id, once("old", 10ms));
  {
    ChangeSet set;
    CallbackContext context = runtime.context(set);
    ASSERT_TRUE(context.replace_timer(id, once("new", 20ms)).ok());
    EXPECT_TRUE(runtime.has_timer(id));
  }
  run_until(100);
  EXPECT_EQ(times("old"), Times{10});
  EXPECT_TRUE(times("new").empty());
}

TEST_P(ReplaceTimerTest, AnOldTimerWhoseDestructorTakesTheIdMakesItAlreadyExists) {
  const TimerId id = TimerId::unique();
  auto thief = on_destroy([this, id] {
    (void)runtime.add_timer(id, Timer::once(5ms, [](TimerCallbackInfo&) { return TimerCallbackReturn{}; }));
  });
  add(id, Timer::once(10ms, [t = std::move(thief)](TimerCallbackInfo&) { return TimerCallbackReturn{}; }));
  const Status s = runtime.replace_timer(id, once("new", 20ms));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, Errc::already_exists) << s.error().message;
  EXPECT_TRUE(runtime.has_timer(id)) << "the destructor's timer holds the id";
  run_until(100);
  EXPECT_TRUE(times("new").empty());
}

TEST_P(ReplaceTimerTest, FromAnotherThreadNothingChanges) {
  const TimerId id = TimerId::unique();
  add(id, once("old", 10ms));
  Status s;
  std::thread other([&] { s = runtime.replace_timer(id, once("new", 20ms)); });
  other.join();
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, Errc::wrong_thread);
  run_until(100);
  EXPECT_EQ(times("old"), Times{10});
  EXPECT_TRUE(times("new").empty());
}

TEST_P(ReplaceTimerTest, WhileTheRuntimeIsDestroyedItIsClosed) {
  auto result = std::make_shared<Status>();
  {
    WindowRuntime doomed(clock.source(), options());
    WindowRuntime* target = &doomed;
    auto asker = on_destroy([target, result] {
      *result = target->replace_timer(TimerId::unique(), Timer::once(1ms, [](TimerCallbackInfo&) {
                                        return TimerCallbackReturn{};
                                      }));
    });
    ASSERT_TRUE(doomed.add_timer(TimerId::unique(), Timer::once(10ms, [a = std::move(asker)](TimerCallbackInfo&) {
                                   return TimerCallbackReturn{};
                                 })).ok());
  }
  ASSERT_FALSE(result->ok());
  EXPECT_EQ(result->error().code, Errc::closed);
}

}  // namespace
}  // namespace cadence::testing
