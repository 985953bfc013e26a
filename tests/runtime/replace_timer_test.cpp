// replace_timer(): starts a timer, or replaces the one that has the id, from everywhere a change
// can be made: outside a frame, from a callback (its own timer too), through an app's own
// context; and what it promises on error (the old timer keeps running). Runs on both queues.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <stdexcept>
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

// ---- a set of the app's own: what it records comes after the running frame's changes ---------

namespace cadence::testing {
namespace {

class OwnSetTest : public RuntimeFixture {
 protected:
  Timer once(std::string name, Duration delay) { return logged(std::move(name)).with_delay(delay).with_timeout(delay); }
  /// One frame at `ms` the way window_runtime.hpp's loop runs it: `events` first, into the
  /// frame's own change-set, then the timers, the threads and apply().
  void frame_with_events(std::int64_t ms, const std::function<void(CallbackContext&)>& events) {
    ASSERT_TRUE(clock.set(at_ms(ms)).ok());
    ChangeSet changes;
    CallbackContext context = runtime.context(changes);
    events(context);
    runtime.run_timers(runtime.now(), changes);
    runtime.run_threads(changes);
    last = runtime.apply(std::move(changes));
  }
};
INSTANTIATE_TEST_SUITE_P(Queues, OwnSetTest, ::testing::Values(QueueKind::wheel, QueueKind::heap), queue_name);

TEST_P(OwnSetTest, AnEventHandlersReplacementSurvivesTheOldTimersLastRunInThatFrame) {
  const TimerId tip = TimerId::unique();
  add(tip, once("old", 300ms));
  frame_with_events(300, [&](CallbackContext& events) { ASSERT_TRUE(events.replace_timer(tip, once("new", 300ms)).ok()); });
  EXPECT_TRUE(last.failures.empty());
  EXPECT_EQ(times("old"), Times{300}) << "a removal in the frame's set waits for apply(): the old one runs";
  EXPECT_TRUE(runtime.has_timer(tip)) << "its last run does not remove the replacement";
  run_until(1000);
  EXPECT_EQ(times("new"), Times{600});
}

TEST_P(OwnSetTest, AnEventHandlersReplacementSurvivesTheOldTimerThrowing) {
  const TimerId tip = TimerId::unique();
  add(tip, Timer::once(300ms, [](TimerCallbackInfo&) -> TimerCallbackReturn { throw std::runtime_error("old broke"); }));
  frame_with_events(300, [&](CallbackContext& events) { ASSERT_TRUE(events.replace_timer(tip, once("new", 300ms)).ok()); });
  ASSERT_EQ(last.failures.size(), 1u);
  EXPECT_EQ(last.failures[0].error.code, Errc::callback_threw);
  EXPECT_TRUE(runtime.has_timer(tip));
  run_until(1000);
  EXPECT_EQ(times("new"), Times{600});
}

TEST_P(OwnSetTest, InsideAFrameAnOwnSetIsCheckedAgainstWhatTheFrameAdds) {
  const TimerId y = TimerId::unique();
  Status replaced;
  Status added;
  add(TimerId::unique(), Timer::once(10ms, [&](TimerCallbackInfo& info) {
        ASSERT_TRUE(info.context.add_timer(y, once("frame's", 10ms)).ok());
        ChangeSet mine;
        CallbackContext own = runtime.context(mine);
        added = own.add_timer(y, once("mine, added", 10ms));
        replaced = own.replace_timer(y, once("mine, replaced", 20ms));
        EXPECT_EQ(runtime.apply(std::move(mine)).deferred, 2u);
      }));
  frame(10);
  ASSERT_FALSE(added.ok()) << "the frame adds y first";
  EXPECT_EQ(added.error().code, Errc::already_exists) << added.error().message;
  EXPECT_TRUE(replaced.ok()) << replaced.error().message;
  EXPECT_TRUE(last.failures.empty()) << last.failures[0].error.message;
  run_until(100);
  EXPECT_TRUE(times("frame's").empty()) << "replaced before it ran";
  EXPECT_EQ(times("mine, replaced"), Times{30});
}

TEST_P(OwnSetTest, RemovingAWidgetsTimersLeavesAnotherWidgetsReplacement) {
  const TimerId x = TimerId::unique();
  const WidgetId w1{1};
  const WidgetId w2{2};
  add(x, once("w1's", 50ms).with_owner(w1));
  ChangeSet mine;
  CallbackContext own = runtime.context(mine);
  ASSERT_TRUE(own.replace_timer(x, once("w2's", 50ms).with_owner(w2)).ok());
  const Result<std::size_t> removed = own.remove_timers_of(w1);
  ASSERT_TRUE(removed.ok());
  EXPECT_EQ(removed.value(), 0u) << "w1's timer is on its way out already";
  EXPECT_EQ(own.pause_timers_of(w1).value(), 0u);
  EXPECT_TRUE(runtime.apply(std::move(mine)).failures.empty());
  run_until(100);
  EXPECT_EQ(times("w2's"), Times{50});
  EXPECT_TRUE(times("w1's").empty());
}

// Inside a frame, a callback adds timer x of widget w; then an own set's owner-group calls reach
// x as the single-timer calls through that set do: the frame's new timers count.
TEST_P(OwnSetTest, OwnerGroupCallsThroughAnOwnSetReachTheTimersTheFrameAdds) {
  const WidgetId w{7};
  const TimerId live = TimerId::unique();
  const TimerId x = TimerId::unique();
  const TimerId y = TimerId::unique();
  add(live, once("live", 50ms).with_owner(w));
  Result<std::size_t> removed = std::size_t{0};
  Result<std::size_t> paused = std::size_t{0};
  add(TimerId::unique(), Timer::once(10ms, [&](TimerCallbackInfo& info) {
        ASSERT_TRUE(info.context.add_timer(x, once("x", 10ms).with_owner(w)).ok());
        ASSERT_TRUE(info.context.add_timer(y, once("y", 10ms).with_owner(w)).ok());
        ChangeSet first;
        CallbackContext own = runtime.context(first);
        ASSERT_TRUE(own.remove_timer(y).ok()) << "the single-timer call reaches the frame's y";
        paused = own.pause_timers_of(w);  // live and x: y is removed by this set already
        EXPECT_EQ(runtime.apply(std::move(first)).deferred, 3u);
        ChangeSet second;
        CallbackContext again = runtime.context(second);
        removed = again.remove_timers_of(w);
        (void)runtime.apply(std::move(second));
      }));
  frame(10);
  ASSERT_TRUE(paused.ok());
  EXPECT_EQ(paused.value(), 2u) << "the live timer and x";
  ASSERT_TRUE(removed.ok());
  EXPECT_EQ(removed.value(), 2u) << "the live timer and x, which the frame adds";
  EXPECT_TRUE(last.failures.empty()) << last.failures[0].error.message;
  EXPECT_FALSE(runtime.has_timer(x)) << "x did not survive the frame";
  EXPECT_FALSE(runtime.has_timer(live));
  EXPECT_FALSE(runtime.has_timer(y));
  run_until(100);
  EXPECT_TRUE(times("x").empty());
  EXPECT_TRUE(times("y").empty());
  EXPECT_TRUE(times("live").empty());
}

// ...but not one the own set gave to another widget meanwhile: x is the frame's new timer of
// widget w, and the set replaces it with one of widget v before asking for w's timers.
TEST_P(OwnSetTest, OwnerGroupCallsThroughAnOwnSetLeaveATimerItGaveToAnotherWidget) {
  const WidgetId w{7};
  const WidgetId v{8};
  const TimerId x = TimerId::unique();
  Result<std::size_t> removed = std::size_t{9};
  Result<std::size_t> paused = std::size_t{9};
  add(TimerId::unique(), Timer::once(10ms, [&](TimerCallbackInfo& info) {
        ASSERT_TRUE(info.context.add_timer(x, once("w's", 10ms).with_owner(w)).ok());
        ChangeSet mine;
        CallbackContext own = runtime.context(mine);
        ASSERT_TRUE(own.replace_timer(x, once("v's", 20ms).with_owner(v)).ok());
        paused = own.pause_timers_of(w);
        removed = own.remove_timers_of(w);
        (void)runtime.apply(std::move(mine));
      }));
  frame(10);
  ASSERT_TRUE(paused.ok() && removed.ok());
  EXPECT_EQ(paused.value(), 0u) << "x is v's now";
  EXPECT_EQ(removed.value(), 0u) << "x is v's now";
  EXPECT_TRUE(last.failures.empty()) << last.failures[0].error.message;
  run_until(100);
  EXPECT_EQ(times("v's"), Times{30});
  EXPECT_TRUE(times("w's").empty());
}

TEST_P(OwnSetTest, AnOwnSetReachesAThreadTheFrameStarts) {
  const ThreadId t = ThreadId::unique();
  Status stopped;
  Status sent;
  bool had = false;
  add(TimerId::unique(), Timer::once(10ms, [&](TimerCallbackInfo& info) {
        ASSERT_TRUE(info.context.start_thread(t, Thread::create(0, 0, [](int, ThreadSender<int>&, ThreadReceiver&) {})).ok());
        ChangeSet mine;
        CallbackContext own = runtime.context(mine);
        had = own.has_thread(t);
        sent = own.send_to_thread(t, Payload::of(1));
        stopped = own.stop_thread(t);
        const Status again = own.start_thread(t, Thread::create(0, 0, [](int, ThreadSender<int>&, ThreadReceiver&) {}));
        ASSERT_FALSE(again.ok());
        EXPECT_EQ(again.error().code, Errc::already_exists) << "the frame starts it";
      }));
  frame(10);
  EXPECT_TRUE(had);
  EXPECT_TRUE(sent.ok()) << sent.error().message;
  EXPECT_TRUE(stopped.ok()) << stopped.error().message;
}

TEST_P(OwnSetTest, ApplyingTheRunningSetFromItsOwnCallbackCountsEachRunOnce) {
  add(TimerId::unique(), Timer::once(10ms, [&](TimerCallbackInfo& info) {
        (void)runtime.apply(std::move(info.context.changes()));
      }));
  add(TimerId::unique(), once("other", 10ms));
  frame(10);
  EXPECT_EQ(last.timers_run, 2u);
}

TEST(ChangeSetMove, AMovedFromSetIsEmpty) {
  ChangeSet a;
  a.add_timer(TimerId::unique(), Timer::once(1ms, [](TimerCallbackInfo&) {}));
  a.request(Update::redraw_window);
  a.count_ran(3, 4);
  ChangeSet b(std::move(a));
  EXPECT_TRUE(a.empty());  // NOLINT(bugprone-use-after-move): the promise under test
  EXPECT_EQ(b.changes().size(), 1u);
  EXPECT_EQ(b.update(), Update::redraw_window);
  ChangeSet c;
  c.remove_timer(TimerId::unique());
  c = std::move(b);
  EXPECT_TRUE(b.empty());  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(c.changes().size(), 1u);
  EXPECT_TRUE(std::holds_alternative<AddTimer>(c.changes()[0]));
}

}  // namespace
}  // namespace cadence::testing
