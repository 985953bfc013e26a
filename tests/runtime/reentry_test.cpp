// Re-entry: the runtime called from inside its own callbacks and from the destructors of what
// they captured, while it runs a frame, applies changes, or is being destroyed. Every call has
// a defined result; none touches freed memory (this file runs under ASan in CI). Both queues.
#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <thread>
#include <memory>
#include <utility>
#include <vector>

#include "runtime_fixture.hpp"

namespace cadence::testing {
namespace {

using Times = std::vector<std::int64_t>;

/// Runs `fn` when the last copy of the capture that holds it is destroyed.
class OnDestroy {
 public:
  explicit OnDestroy(std::function<void()> fn) : fn_(std::move(fn)) {}
  OnDestroy(const OnDestroy&) = delete;
  OnDestroy& operator=(const OnDestroy&) = delete;
  ~OnDestroy() {
    if (fn_) fn_();
  }

 private:
  std::function<void()> fn_;
};

/// A callback that does nothing and runs `on_destroy` when the timer holding it goes.
Timer guarded(Timer timer, std::function<void()> on_destroy) {
  auto guard = std::make_shared<OnDestroy>(std::move(on_destroy));
  TimerCallback inner = timer.callback();
  Timer out([guard, inner](TimerCallbackInfo& info) { return inner(info); });
  out.with_delay(timer.delay());
  if (timer.interval()) out.with_interval(*timer.interval());
  if (timer.timeout()) out.with_timeout(*timer.timeout());
  return out;
}

class ReentryTest : public RuntimeFixture {
 protected:
  /// The helper an app writes for event handlers: a change-set of its own, applied at once.
  ApplyReport add_batch(std::vector<TimerId>& ids, int count, Duration delay) {
    ChangeSet changes;
    CallbackContext context = runtime.context(changes);
    for (int i = 0; i < count; ++i) {
      ids.push_back(TimerId::unique());
      EXPECT_TRUE(context.add_timer(ids.back(), logged("batch").with_delay(delay).with_timeout(delay)).ok());
    }
    return runtime.apply(std::move(changes));
  }
};
INSTANTIATE_TEST_SUITE_P(Queues, ReentryTest, ::testing::Values(QueueKind::wheel, QueueKind::heap), queue_name);

// ---- apply() from inside a frame ------------------------------------------------------------

TEST_P(ReentryTest, ApplyFromInsideATimerCallbackIsDeferredToTheFrame) {
  std::vector<TimerId> outside, inside;
  const ApplyReport now = add_batch(outside, 4, 10ms);
  EXPECT_EQ(now.applied, 4u) << "from an event handler it applies at once";
  ApplyReport nested;
  add(TimerId::unique(), Timer::once(20ms, [&](TimerCallbackInfo&) {
        nested = add_batch(inside, 100, 10ms);  // grows the timer table: more than its capacity
        for (TimerId id : inside) EXPECT_FALSE(runtime.has_timer(id)) << "not before the frame's changes apply";
      }));
  frame(20);
  EXPECT_EQ(nested.applied, 0u);
  EXPECT_EQ(nested.deferred, 100u);
  EXPECT_TRUE(nested.failures.empty());
  EXPECT_TRUE(last.failures.empty());
  EXPECT_EQ(last.applied, 100u + 1u + 4u) << "the batch, and the removals of the one-shot and the first batch";
  for (TimerId id : inside) EXPECT_TRUE(runtime.has_timer(id));
  run_until(100);
  EXPECT_EQ(times("batch").size(), 104u);
  EXPECT_EQ(runtime.timer_count(), 0u);
}

TEST_P(ReentryTest, ApplyFromInsideATimerCallbackReportsItsFailuresWithTheFrame) {
  const TimerId taken = TimerId::unique();
  add(taken, logged("taken").with_delay(1s).with_timeout(1s));
  add(TimerId::unique(), Timer::once(10ms, [&](TimerCallbackInfo& info) {
        ChangeSet mine;
        mine.add_timer(taken, logged("dup"));       // unchecked: apply() finds the id taken
        mine.remove_timer(TimerId::unique());       // and this one unknown
        mine.request(Update::redraw_all);
        const ApplyReport r = info.context.runtime().apply(std::move(mine));
        EXPECT_EQ(r.deferred, 2u);
        EXPECT_TRUE(r.failures.empty()) << "known only when the frame applies them";
      }));
  frame(10);
  ASSERT_EQ(last.failures.size(), 2u);
  EXPECT_EQ(last.failures[0].error.code, Errc::already_exists);
  EXPECT_EQ(last.failures[1].error.code, Errc::not_found);
  EXPECT_EQ(last.update, Update::redraw_all) << "its redraw request joins the frame's";
  EXPECT_TRUE(runtime.has_timer(taken)) << "the existing timer is untouched";
}

TEST_P(ReentryTest, PollFromInsideATimerCallbackRunsNothingAndSaysSo) {
  int outer = 0;
  add(TimerId::unique(), Timer::every(10ms, [&](TimerCallbackInfo& info) {
        ++outer;
        const ApplyReport r = runtime.poll(info.frame_start);
        EXPECT_EQ(r.deferred, 2u) << "the two refusals go to the frame";
      }));
  frame(10);
  EXPECT_EQ(outer, 1);
  ASSERT_EQ(last.failures.size(), 2u);
  EXPECT_EQ(last.failures[0].error.code, Errc::reentrant_call);
  EXPECT_EQ(last.failures[1].error.code, Errc::reentrant_call);
  frame(20);
  EXPECT_EQ(outer, 2) << "the timer goes on";
}

// ---- destructors of callbacks -----------------------------------------------------------------

TEST_P(ReentryTest, AOneShotWhoseCaptureAddsTimersWhenDestroyed) {
  // A widget kept alive by its own timer schedules a fade-out when it dies: here, when its
  // one-shot has run and is removed as the frame's changes are applied.
  std::vector<TimerId> fades;
  for (int i = 0; i < 15; ++i) add(TimerId::unique(), logged("idle").with_delay(1h).with_timeout(1h));
  add(TimerId::unique(), guarded(Timer::once(10ms, [](TimerCallbackInfo&) {}), [&] {
        for (int i = 0; i < 40; ++i) {  // more than the table's spare capacity
          fades.push_back(TimerId::unique());
          EXPECT_TRUE(runtime.add_timer(fades.back(), logged("fade").with_delay(5ms).with_timeout(5ms)).ok());
        }
      }));
  frame(10);
  EXPECT_TRUE(last.failures.empty());
  ASSERT_EQ(fades.size(), 40u);
  for (TimerId id : fades) EXPECT_TRUE(runtime.has_timer(id));
  EXPECT_EQ(runtime.timer_count(), 15u + 40u);
  run_until(100);
  EXPECT_EQ(times("fade"), Times(40, 15));
}

TEST_P(ReentryTest, RemovingATimerWhoseCaptureRemovesAndAddsOthersWhenDestroyed) {
  const TimerId victim = TimerId::unique();
  const TimerId owner = TimerId::unique();
  add(victim, logged("victim").with_delay(50ms).with_interval(50ms));
  Status removed_self, removed_victim;
  add(owner, guarded(Timer::every(10ms, [](TimerCallbackInfo&) {}), [&] {
        removed_self = runtime.remove_timer(owner);  // already gone: not_found
        removed_victim = runtime.remove_timer(victim);
        for (int i = 0; i < 40; ++i) EXPECT_TRUE(runtime.add_timer(TimerId::unique(), logged("new").with_delay(1ms).with_timeout(1ms)).ok());
      }));
  ASSERT_TRUE(runtime.remove_timer(owner).ok());  // from an event handler: at once
  ASSERT_FALSE(removed_self);
  EXPECT_EQ(removed_self.error().code, Errc::not_found);
  EXPECT_TRUE(removed_victim.ok());
  EXPECT_FALSE(runtime.has_timer(victim));
  EXPECT_EQ(runtime.timer_count(), 40u);
  run_until(100);
  EXPECT_EQ(times("new").size(), 40u);
  EXPECT_TRUE(times("victim").empty());
}

TEST_P(ReentryTest, ACaptureThatAppliesAChangeSetWhenDestroyedInsideApply) {
  std::vector<TimerId> ids;
  add(TimerId::unique(), guarded(Timer::once(10ms, [](TimerCallbackInfo&) {}), [&] {
        const ApplyReport r = add_batch(ids, 40, 5ms);  // apply() inside apply()
        EXPECT_EQ(r.applied, 40u);
      }));
  frame(10);
  EXPECT_TRUE(last.failures.empty());
  EXPECT_EQ(runtime.timer_count(), 40u);
  run_until(100);
  EXPECT_EQ(times("batch").size(), 40u);
}

// ---- destroying the runtime -----------------------------------------------------------------

TEST_P(ReentryTest, CapturesThatCallTheRuntimeWhileItIsDestroyed) {
  auto doomed = std::make_unique<WindowRuntime>(clock.source(), options());
  WindowRuntime& rt = *doomed;
  const TimerId other = TimerId::unique();
  ASSERT_TRUE(rt.add_timer(other, logged("other").with_delay(1s).with_interval(1s)).ok());
  std::vector<Status> seen;
  std::vector<bool> queries;
  std::vector<ApplyReport> polls;
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(rt.add_timer(TimerId::unique(), guarded(Timer::every(1s, [](TimerCallbackInfo&) {}), [&] {
                                seen.push_back(rt.remove_timer(other));
                                seen.push_back(rt.add_timer(TimerId::unique(), logged("late").with_delay(1ms).with_timeout(1ms)));
                                seen.push_back(rt.pause_timer(other));
                                seen.push_back(rt.start_thread(ThreadId::unique(), Thread::create(0, 0, [](int, ThreadSender<int>&, ThreadReceiver&) {})));
                                queries.push_back(rt.has_timer(other));
                                queries.push_back(rt.timer_count() == 0);
                                queries.push_back(rt.next_wake() == std::nullopt);
                                ChangeSet changes;
                                changes.add_timer(TimerId::unique(), logged("late"));
                                const ApplyReport r = rt.apply(std::move(changes));
                                queries.push_back(r.failures.size() == 1 && r.failures[0].error.code == Errc::closed);
                                polls.push_back(rt.poll(rt.now()));
                                ChangeSet reports;
                                reports.thread_failed(ThreadId::unique(), Error{Errc::callback_threw, "worker gone"});
                                const ApplyReport passed = rt.apply(std::move(reports));
                                queries.push_back(passed.failures.size() == 1 &&
                                                  passed.failures[0].error.message == "worker gone" &&
                                                  passed.applied == 0);
                              }))
                    .ok());
  }
  doomed.reset();
  ASSERT_EQ(seen.size(), 12u);
  for (const Status& s : seen) {
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code, Errc::closed) << s.error().message;
  }
  ASSERT_EQ(queries.size(), 15u);
  for (std::size_t i = 0; i < queries.size(); i += 5) {
    EXPECT_FALSE(queries[i]) << "has_timer() is false while the runtime is destroyed";
    EXPECT_TRUE(queries[i + 1]);
    EXPECT_TRUE(queries[i + 2]);
    EXPECT_TRUE(queries[i + 3]);
    EXPECT_TRUE(queries[i + 4]) << "a set of reports alone is passed on, with nothing said dropped";
  }
  ASSERT_EQ(polls.size(), 3u);
  for (const ApplyReport& p : polls) {
    ASSERT_EQ(p.failures.size(), 1u) << "poll() ran nothing and says why, once";
    EXPECT_EQ(p.failures[0].error.code, Errc::closed);
    EXPECT_EQ(p.failures[0].error.message.find("dropped"), std::string::npos)
        << "poll() had no changes to drop: " << p.failures[0].error.message;
  }
  EXPECT_TRUE(runs.empty());
}

// ---- another thread ---------------------------------------------------------------------------

TEST_P(ReentryTest, EveryCallFromAnotherThreadIsRefusedOrAnsweredAsEmpty) {
  const TimerId id = TimerId::unique();
  add(id, logged("mine").with_delay(10ms).with_interval(10ms));
  ChangeSet from_ui;
  CallbackContext ui_context = runtime.context(from_ui);
  std::vector<Status> refused;
  std::vector<bool> empty;
  ApplyReport applied, polled, own_frame_applied;
  ChangeSet frame_changes;
  const TimeSource* source_seen = nullptr;  // time_source(): "Thread: any (it never changes)"
  std::thread other([&] {
    source_seen = &runtime.time_source();
    refused.push_back(runtime.add_timer(TimerId::unique(), logged("stray")));
    refused.push_back(runtime.add_system_timer(TimerId{0x42}, logged("stray")));
    refused.push_back(runtime.remove_timer(id));
    refused.push_back(runtime.pause_timer(id));
    refused.push_back(runtime.resume_timer(id));
    refused.push_back(runtime.start_thread(ThreadId::unique(), Thread::create(0, 0, [](int, ThreadSender<int>&, ThreadReceiver&) {})));
    refused.push_back(runtime.stop_thread(ThreadId::unique()));
    refused.push_back(runtime.send_to_thread(ThreadId::unique(), Payload::of(1)));
    refused.push_back(runtime.set_frame_interval(5ms));
    refused.push_back(ui_context.add_timer(TimerId::unique(), logged("stray")));
    refused.push_back(ui_context.remove_timer(id));
    refused.push_back(ui_context.pause_timer(id));
    refused.push_back(ui_context.start_thread(ThreadId::unique(), Thread::create(0, 0, [](int, ThreadSender<int>&, ThreadReceiver&) {})));
    empty.push_back(!runtime.has_timer(id));
    empty.push_back(runtime.timer_status(id) == std::nullopt);
    empty.push_back(runtime.timer_count() == 0);
    empty.push_back(runtime.next_due() == std::nullopt);
    empty.push_back(runtime.thread_count() == 0);
    empty.push_back(runtime.frame_interval() == WindowRuntime::Options{}.frame_interval);
    runtime.run_timers(runtime.now(), frame_changes);
    runtime.run_threads(frame_changes);
    ChangeSet mine;
    mine.add_timer(TimerId::unique(), logged("stray"));
    applied = runtime.apply(std::move(mine));
    polled = runtime.poll(runtime.now());
    ChangeSet own_frame;
    runtime.run_timers(runtime.now(), own_frame);
    own_frame.timer_failed(id, "boom");
    own_frame.add_timer(TimerId::unique(), logged("stray"));
    own_frame_applied = runtime.apply(std::move(own_frame));
  });
  other.join();
  ASSERT_EQ(refused.size(), 13u);
  for (const Status& s : refused) {
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code, Errc::wrong_thread);
    EXPECT_NE(s.error().message.find("UI-thread only"), std::string::npos) << s.error().message;
  }
  EXPECT_EQ(empty, std::vector<bool>(6, true));
  EXPECT_EQ(source_seen, &runtime.time_source()) << "the same source, from any thread";
  ASSERT_EQ(applied.failures.size(), 1u);
  EXPECT_EQ(applied.failures[0].error.code, Errc::wrong_thread);
  EXPECT_NE(applied.failures[0].error.message.find("1 changes were dropped"), std::string::npos);
  ASSERT_EQ(polled.failures.size(), 1u) << "poll() ran nothing and says why";
  EXPECT_EQ(polled.failures[0].error.code, Errc::wrong_thread);
  EXPECT_EQ(polled.failures[0].error.message.find("dropped"), std::string::npos) << polled.failures[0].error.message;
  ASSERT_EQ(own_frame_applied.failures.size(), 3u) << "the frame's reports, then the one change dropped";
  EXPECT_EQ(own_frame_applied.failures[0].error.code, Errc::wrong_thread);
  EXPECT_EQ(own_frame_applied.failures[0].error.message.find("dropped"), std::string::npos)
      << own_frame_applied.failures[0].error.message;
  EXPECT_EQ(own_frame_applied.failures[1].error.code, Errc::callback_threw);
  EXPECT_EQ(own_frame_applied.failures[1].error.message, "boom");
  EXPECT_EQ(own_frame_applied.failures[1].timer, id);
  EXPECT_NE(own_frame_applied.failures[2].error.message.find("; 1 changes were dropped"), std::string::npos)
      << own_frame_applied.failures[2].error.message;
  EXPECT_TRUE(from_ui.empty()) << "the context recorded nothing";
  // The frame pieces called from the other thread reported why they did nothing.
  const ApplyReport report = runtime.apply(std::move(frame_changes));
  ASSERT_EQ(report.failures.size(), 2u);
  EXPECT_EQ(report.failures[0].error.code, Errc::wrong_thread);
  EXPECT_EQ(report.failures[1].error.code, Errc::wrong_thread);
  // Nothing changed: the timer runs on schedule, 16 ms frames are still the frame interval.
  EXPECT_EQ(runtime.frame_interval(), 16ms);
  EXPECT_EQ(runtime.timer_count(), 1u);
  run_until(30);
  EXPECT_EQ(times("mine"), (Times{10, 20, 30}));
  EXPECT_TRUE(times("stray").empty());
}

// ---- the one call that may not be made --------------------------------------------------------

TEST_P(ReentryTest, DestroyingTheRuntimeInsideItsOwnFrameStopsWithAMessage) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        ManualClock c;
        auto* doomed = new WindowRuntime(c.source(), options());
        (void)doomed->add_timer(TimerId::unique(), Timer::once(1ms, [doomed](TimerCallbackInfo&) { delete doomed; }));
        (void)c.advance(1ms);
        (void)doomed->poll(c.now());
      },
      "destroyed from inside one of its own calls");
}

// window_runtime.hpp, ~WindowRuntime: "Thread: UI".
TEST_P(ReentryTest, DestroyingTheRuntimeOnAnotherThreadStopsWithAMessage) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        ManualClock c;
        auto doomed = std::make_unique<WindowRuntime>(c.source(), options());
        std::thread([&] { doomed.reset(); }).join();
      },
      "destroyed on a thread other than the one that made it");
}

TEST_P(ReentryTest, DestroyingTheRuntimeFromADestructorThatApplySetOffStopsWithAMessage) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        ManualClock c;
        auto* doomed = new WindowRuntime(c.source(), options());
        const TimerId id = TimerId::unique();
        (void)doomed->add_timer(id, guarded(Timer::every(1s, [](TimerCallbackInfo&) {}), [doomed] { delete doomed; }));
        ChangeSet changes;
        changes.remove_timer(id);  // the capture goes inside apply(), which goes on after it
        changes.add_timer(TimerId::unique(), Timer::every(1s, [](TimerCallbackInfo&) {}));
        (void)doomed->apply(std::move(changes));
      },
      "destroyed from inside one of its own calls");
  EXPECT_DEATH(
      {
        ManualClock c;
        auto* doomed = new WindowRuntime(c.source(), options());
        const TimerId id = TimerId::unique();
        (void)doomed->add_timer(id, guarded(Timer::every(1s, [](TimerCallbackInfo&) {}), [doomed] { delete doomed; }));
        (void)doomed->remove_timer(id);
      },
      "destroyed from inside one of its own calls");
}

// ---- found by review: each a probe that failed before ----------------------------------------

TEST_P(ReentryTest, AChangeSetDroppedUnappliedLeavesNoTrace) {
  const TimerId id = TimerId::unique();
  add(id, logged("kept").with_delay(10ms).with_interval(10ms));
  {
    ChangeSet dropped;
    CallbackContext own = runtime.context(dropped);
    ASSERT_TRUE(own.remove_timer(id).ok());
    EXPECT_TRUE(runtime.has_timer(id)) << "nothing happens until the set is applied";
    EXPECT_EQ(own.remove_timer(id).error().code, Errc::not_found) << "the set removes it already";
  }
  run_until(30);
  EXPECT_EQ(times("kept"), (Times{10, 20, 30})) << "the timer goes on";
  ChangeSet again;
  CallbackContext context = runtime.context(again);
  EXPECT_TRUE(context.remove_timer(id).ok());
  EXPECT_TRUE(context.add_timer(id, logged("restarted").with_delay(5ms).with_timeout(5ms)).ok())
      << "a restart through the app's own set: the set removes the old one first";
  EXPECT_TRUE(runtime.apply(std::move(again)).failures.empty());
  run_until(100);
  EXPECT_EQ(times("kept"), (Times{10, 20, 30}));
  EXPECT_EQ(times("restarted"), Times{35});
}

TEST_P(ReentryTest, ARemovalHandedOnToTheFrameStopsItsTimerAtOnce) {
  const TimerId victim = TimerId::unique();
  add(TimerId::unique(), Timer::once(10ms, [&](TimerCallbackInfo&) {
        ChangeSet mine;
        CallbackContext own = runtime.context(mine);
        ASSERT_TRUE(own.remove_timer(victim).ok());
        EXPECT_TRUE(runtime.has_timer(victim)) << "not yet: the set is not applied";
        EXPECT_EQ(runtime.apply(std::move(mine)).deferred, 1u);
        EXPECT_FALSE(runtime.has_timer(victim)) << "handed on to the frame: stopped now";
      }));
  add(victim, logged("victim").with_delay(10ms).with_timeout(10ms));  // due in the same frame, later
  frame(10);
  EXPECT_TRUE(times("victim").empty());
  EXPECT_FALSE(runtime.has_timer(victim));
  EXPECT_TRUE(last.failures.empty());
}

TEST_P(ReentryTest, AFrameFromADestructorThatApplySetOffRunsNothing) {
  // The set adds a timer and removes it again; a frame between the two would run it.
  const TimerId first = TimerId::unique();
  ApplyReport nested;
  add(first, guarded(Timer::every(1s, [](TimerCallbackInfo&) {}), [&] { nested = runtime.poll(runtime.now()); }));
  const TimerId brief = TimerId::unique();
  ChangeSet changes;
  CallbackContext context = runtime.context(changes);
  ASSERT_TRUE(context.add_timer(brief, logged("brief")).ok());  // due at once
  ASSERT_TRUE(context.remove_timer(first).ok());
  ASSERT_TRUE(context.remove_timer(brief).ok());  // not added after all
  EXPECT_TRUE(runtime.apply(std::move(changes)).failures.empty());
  ASSERT_EQ(nested.failures.size(), 2u);
  EXPECT_EQ(nested.failures[0].error.code, Errc::reentrant_call);
  EXPECT_NE(nested.failures[0].error.message.find("inside apply()"), std::string::npos);
  EXPECT_TRUE(times("brief").empty());
  run_until(100);
  EXPECT_TRUE(times("brief").empty()) << "a timer removed in the set that added it never runs";
  EXPECT_EQ(runtime.timer_count(), 0u);
}

TEST_P(ReentryTest, ChangesAppliedAfterADestructorUsedALaterInstantCountFromIt) {
  const TimerId first = TimerId::unique();
  add(first, guarded(Timer::every(1s, [](TimerCallbackInfo&) {}), [&] {
        ASSERT_TRUE(clock.set(at_ms(100)).ok());
        EXPECT_TRUE(runtime.add_timer(TimerId::unique(), logged("direct").with_delay(1ms).with_timeout(1ms)).ok());
      }));
  ASSERT_TRUE(clock.set(at_ms(0)).ok());
  ChangeSet changes;
  changes.remove_timer(first);
  const TimerId later = TimerId::unique();
  changes.add_timer(later, logged("later").with_delay(50ms).with_timeout(50ms));
  EXPECT_TRUE(runtime.apply(std::move(changes)).failures.empty());
  EXPECT_EQ(runtime.timer_status(later)->created, at_ms(100)) << "never before an instant the runtime has used";
  run_until(200);
  EXPECT_EQ(times("later"), Times{150});
}

TEST_P(ReentryTest, ReplacingTheWakerFromTheOldWakersDestructor) {
  int calls = 0;
  auto guard = std::make_shared<OnDestroy>([&] { runtime.set_waker([&] { ++calls; }); });
  runtime.set_waker([guard] {});
  guard.reset();
  runtime.set_waker([] {});  // destroys the first waker, which sets a third: no deadlock
  const ThreadId id = ThreadId::unique();
  auto posted = std::make_shared<std::atomic<bool>>(false);
  ASSERT_TRUE(runtime.start_thread(id, Thread::create(0, 0, [posted](int, ThreadSender<int>& out, ThreadReceiver&) {
    out.update();
    posted->store(true);
  })).ok());
  while (!posted->load()) std::this_thread::yield();
  EXPECT_EQ(calls, 1) << "the waker set last, from the destructor, is the one in place";
}

TEST_P(ReentryTest, WhileTheRuntimeIsDestroyedItsTablesAreEmptyToEveryDestructor) {
  auto doomed = std::make_unique<WindowRuntime>(clock.source(), options());
  WindowRuntime& rt = *doomed;
  const TimerId timer = TimerId::unique();
  ASSERT_TRUE(rt.add_timer(timer, logged("t").with_delay(1s).with_interval(1s)).ok());
  std::vector<bool> seen;
  struct Data {
    std::shared_ptr<OnDestroy> guard;
  };
  const ThreadId thread = ThreadId::unique();
  ASSERT_TRUE(rt.start_thread(thread, Thread::create(0, Data{std::make_shared<OnDestroy>([&] {
                                                    seen.push_back(rt.has_timer(timer));
                                                    seen.push_back(rt.timer_count() != 0);
                                                    seen.push_back(rt.timer_status(timer).has_value());
                                                    seen.push_back(rt.next_due().has_value());
                                                    seen.push_back(rt.has_thread(thread));
                                                    seen.push_back(rt.set_frame_interval(5ms).ok());
                                                  })},
                                                  [](int, ThreadSender<Data>&, ThreadReceiver&) {}))
                  .ok());
  doomed.reset();
  EXPECT_EQ(seen, std::vector<bool>(6, false)) << "thread data destroyed with the runtime sees it empty and closed";
}

TEST_P(ReentryTest, AtTheEndOfTheTimelineATimerRunsOnceMore) {
  ManualClock end(Instant::max_for(ClockKind::tick) - 10ms);
  WindowRuntime rt(end.source(), options());
  int small = 0, huge = 0;
  ASSERT_TRUE(rt.add_timer(TimerId::unique(), Timer::every(1ms, [&](TimerCallbackInfo&) { ++small; })).ok());
  ASSERT_TRUE(rt.add_timer(TimerId::unique(), Timer::every(Duration::max(), [&](TimerCallbackInfo&) { ++huge; })).ok());
  ASSERT_TRUE(end.set(Instant::max_for(ClockKind::tick)).ok());
  for (int k = 0; k < 5; ++k) (void)rt.poll(end.now());
  EXPECT_EQ(small, 1) << "its next due time saturates to the last instant: it never runs again";
  EXPECT_EQ(huge, 1);
  EXPECT_EQ(rt.timer_count(), 2u) << "both stay until removed";
  EXPECT_NE(rt.next_wake(), Duration::zero()) << "and the loop does not spin on them";
}

// window_runtime.hpp, add_timer: "deferred inside a frame (it never runs in the frame that
// added it)", for timers due at once, added while the frame is still running its timers.
TEST(ReentryTest, ATimerAddedInsideAFrameNeverRunsInThatFrameEvenWhenDueAtOnce) {
  ManualClock clock;
  WindowRuntime runtime(clock.source());
  std::vector<int> ran;
  ASSERT_TRUE(runtime.add_timer(TimerId::unique(), Timer::once(10ms, [&](TimerCallbackInfo&) {
    ran.push_back(0);
    for (int k = 1; k <= 4; ++k) {  // all due at once (a negative delay is refused: Timer::validate)
      EXPECT_TRUE(runtime.add_timer(TimerId::unique(), Timer::once(0ms, [&ran, k](TimerCallbackInfo&) { ran.push_back(k); }))
                      .ok());
    }
  })).ok());
  (void)clock.advance(10ms);
  (void)runtime.poll(clock.now());
  EXPECT_EQ(ran, std::vector<int>{0}) << "none of the timers it added ran in its frame";
  EXPECT_EQ(runtime.next_wake(), Duration::zero());
  (void)runtime.poll(clock.now());  // the next frame, at the same instant
  EXPECT_EQ(ran, (std::vector<int>{0, 1, 2, 3, 4})) << "the next frame runs them, in the order added";
}

// ids.hpp: "unique() may be called from any thread, callbacks and destructors included".
TEST(ReentryTest, UniqueIdsFromCallbacksAndDestructorsAreFreshAndGrow) {
  std::vector<std::uint64_t> seen{TimerId::unique().value};
  {
    ManualClock clock;
    WindowRuntime runtime(clock.source());
    ASSERT_TRUE(runtime.add_timer(TimerId::unique(), guarded(Timer::once(1ms, [&](TimerCallbackInfo&) {
                                                                seen.push_back(TimerId::unique().value);
                                                              }),
                                                              [&] { seen.push_back(TimerId::unique().value); })).ok());
    ASSERT_TRUE(runtime.add_timer(TimerId::unique(), guarded(Timer::once(1h, [](TimerCallbackInfo&) {}),
                                                              [&] { seen.push_back(TimerId::unique().value); })).ok());
    (void)clock.advance(1ms);
    (void)runtime.poll(clock.now());  // the first runs, and is destroyed when it is done
  }  // the second's capture is destroyed with the runtime
  ASSERT_EQ(seen.size(), 4u);
  for (std::size_t i = 1; i < seen.size(); ++i) EXPECT_GT(seen[i], seen[i - 1]) << i;
}

}  // namespace
}  // namespace cadence::testing
