// Terminal events and the progress lane: every started thread gets exactly one ThreadOutcome, on
// the UI thread, after everything its worker sent; Thread::job hands a returned value to its done
// callback; a thread started inside a frame counts as started at once; progress(value) keeps one
// slot and wakes the UI at most once per frame. Real threads, waited on with deadlines.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "cadence/manual_clock.hpp"
#include "thread_harness.hpp"

namespace cadence::testing {
namespace {

struct None {};

/// A worker that counts the Custom messages it gets, until Terminate.
auto counts_customs_until_terminate(std::atomic<int>& customs) {
  return [&customs](int, ThreadSender<None>&, ThreadReceiver& in) {
    while (auto m = in.receive_for(Duration::max(), false)) {
      if (m->is_custom()) ++customs;
      if (m->is_terminate()) return;
    }
  };
}

struct Seen {
  int writes = 0;                          // write-backs delivered
  std::vector<ThreadOutcome> outcomes;     // finish callbacks run
  std::vector<int> writes_at_finish;       // `writes` when each ran
};

/// A worker that sends `n` write-backs and then returns, or (stop_first) waits for its stop first.
Thread counting(Seen& seen, int n, bool wait_for_stop, bool then_throw = false) {
  struct State {
    int writes = 0;
  };
  return Thread::create(
      n, State{},
      [wait_for_stop, then_throw](int count, ThreadSender<State>& out, ThreadReceiver& in) {
        for (int i = 0; i < count; ++i) out.write_back([](State& s, CallbackContext&) { ++s.writes; });
        if (wait_for_stop) {
          while (!in.stop_requested()) (void)in.receive_for(Duration::max(), false);
        }
        if (then_throw) throw std::runtime_error("disk full");
      },
      [&seen](State& s, const ThreadOutcome& outcome, CallbackContext&) {
        seen.writes = s.writes;
        seen.outcomes.push_back(outcome);
        seen.writes_at_finish.push_back(s.writes);
        return Update::redraw_window;
      });
}

TEST(ThreadOutcomeTest, AFinishedWorkerGetsOneOutcomeAfterEverythingItSent) {
  ThreadLoop loop;
  Seen seen;
  const ThreadId id = ThreadId::unique();
  ASSERT_TRUE(loop.runtime().start_thread(id, counting(seen, 300, false)));
  ASSERT_TRUE(loop.run_until([&] { return !loop.runtime().has_thread(id); }));
  ASSERT_EQ(seen.outcomes.size(), 1u);
  EXPECT_EQ(seen.outcomes[0].kind, ThreadOutcome::Kind::finished);
  EXPECT_EQ(seen.outcomes[0].id, id);
  EXPECT_TRUE(seen.outcomes[0].message.empty());
  EXPECT_EQ(seen.writes_at_finish[0], 300);
  for (int i = 0; i < 5; ++i) loop.frame();
  EXPECT_EQ(seen.outcomes.size(), 1u);  // once, never again
  EXPECT_TRUE(loop.failures().empty());
  EXPECT_EQ(loop.thread_messages(), 301u);  // 300 write-backs and the outcome
}

TEST(ThreadOutcomeTest, AWorkerAskedToStopIsStopped) {
  ThreadLoop loop;
  Seen seen;
  const ThreadId id = ThreadId::unique();
  ASSERT_TRUE(loop.runtime().start_thread(id, counting(seen, 3, true)));
  loop.frame();
  ASSERT_TRUE(loop.runtime().stop_thread(id));
  ASSERT_TRUE(loop.run_until([&] { return !seen.outcomes.empty(); }));
  EXPECT_EQ(seen.outcomes[0].kind, ThreadOutcome::Kind::stopped);
  EXPECT_EQ(seen.writes_at_finish[0], 3);
}

TEST(ThreadOutcomeTest, AStopAskedForAfterTheWorkerReturnedLeavesItFinished) {
  ThreadLoop loop;
  Seen seen;
  Latch returned;
  // The worker's own capture is destroyed on its thread after its function returned and its
  // outcome was decided: its destructor says the worker is done.
  auto guard = std::shared_ptr<Latch>(&returned, [](Latch* l) { l->open(); });
  const ThreadId id = ThreadId::unique();
  ASSERT_TRUE(loop.runtime().start_thread(
      id, Thread::create(
              0, None{}, [guard = std::move(guard)](int, ThreadSender<None>&, ThreadReceiver&) {},
              [&seen](None&, const ThreadOutcome& o, CallbackContext&) { seen.outcomes.push_back(o); })));
  ASSERT_TRUE(returned.wait());
  ASSERT_TRUE(loop.runtime().stop_thread(id));  // still in the table: not delivered yet
  ASSERT_TRUE(loop.run_until([&] { return !seen.outcomes.empty(); }));
  EXPECT_EQ(seen.outcomes[0].kind, ThreadOutcome::Kind::finished);
}

TEST(ThreadOutcomeTest, AWorkerThatThrowsFailsWithItsMessageAfterWhatItSent) {
  ThreadLoop loop;
  Seen seen;
  const ThreadId id = ThreadId::unique();
  ASSERT_TRUE(loop.runtime().start_thread(id, counting(seen, 50, false, /*then_throw=*/true)));
  ASSERT_TRUE(loop.run_until([&] { return !seen.outcomes.empty(); }));
  ASSERT_EQ(seen.outcomes.size(), 1u);
  EXPECT_EQ(seen.outcomes[0].kind, ThreadOutcome::Kind::failed);
  EXPECT_NE(seen.outcomes[0].message.find("disk full"), std::string::npos) << seen.outcomes[0].message;
  EXPECT_EQ(seen.writes_at_finish[0], 50);
  ASSERT_EQ(loop.failures().size(), 1u);  // the window's failure path hears of it too
  EXPECT_EQ(loop.failures()[0].thread, id);
  EXPECT_FALSE(loop.runtime().has_thread(id));
}

TEST(ThreadOutcomeTest, AThreadStillRunningWhenTheRuntimeGoesIsAbandonedAfterWhatItSent) {
  Seen seen;
  Status from_finish;
  std::atomic<bool> sent{false};
  {
    ThreadLoop loop;
    struct State {
      int writes = 0;
    };
    ASSERT_TRUE(loop.runtime().start_thread(
        ThreadId::unique(),
        Thread::create(
            0, State{},
            [&sent](int, ThreadSender<State>& out, ThreadReceiver& in) {
              for (int i = 0; i < 20; ++i) out.write_back([](State& s, CallbackContext&) { ++s.writes; });
              sent = true;
              while (!in.stop_requested()) (void)in.receive_for(Duration::max(), false);
            },
            [&](State& s, const ThreadOutcome& o, CallbackContext& ctx) {
              seen.outcomes.push_back(o);
              seen.writes_at_finish.push_back(s.writes);
              from_finish = ctx.add_timer(TimerId::unique(), Timer::once(1ms, [](TimerCallbackInfo&) {}));
            })));
    const auto end = std::chrono::steady_clock::now() + 20s;
    while (!sent && std::chrono::steady_clock::now() < end) std::this_thread::yield();
    ASSERT_TRUE(sent);
    EXPECT_TRUE(seen.outcomes.empty());  // no frame delivered anything
  }
  ASSERT_EQ(seen.outcomes.size(), 1u);
  EXPECT_EQ(seen.outcomes[0].kind, ThreadOutcome::Kind::abandoned);
  EXPECT_EQ(seen.writes_at_finish[0], 20);
  ASSERT_FALSE(from_finish);
  EXPECT_EQ(from_finish.error().code, Errc::closed);
}

TEST(ThreadOutcomeTest, AFinishCallbackThatThrowsIsReportedAndTheThreadStillGoes) {
  ThreadLoop loop;
  int runs = 0;
  const ThreadId id = ThreadId::unique();
  ASSERT_TRUE(loop.runtime().start_thread(
      id, Thread::create(0, None{}, [](int, ThreadSender<None>&, ThreadReceiver&) {},
                         [&runs](None&, const ThreadOutcome&, CallbackContext&) {
                           ++runs;
                           throw std::logic_error("bad finish");
                         })));
  ASSERT_TRUE(loop.run_until([&] { return !loop.runtime().has_thread(id); }));
  for (int i = 0; i < 3; ++i) loop.frame();
  EXPECT_EQ(runs, 1);
  ASSERT_EQ(loop.failures().size(), 1u);
  EXPECT_EQ(loop.failures()[0].error.code, Errc::callback_threw);
  EXPECT_NE(loop.failures()[0].error.message.find("bad finish"), std::string::npos);
}

TEST(ThreadOutcomeTest, DuringItsFinishCallbackTheThreadIsStillThereAndItsIdMayStartAgain) {
  ThreadLoop loop;
  const ThreadId id = ThreadId::unique();
  std::vector<std::string> log;
  const auto make = [&](const std::string& name, bool restart, auto& self) -> Thread {
    return Thread::create(0, None{}, [](int, ThreadSender<None>&, ThreadReceiver&) {},
                          [&log, id, name, restart, s = &self](None&, const ThreadOutcome&, CallbackContext& ctx) {
                            log.push_back(name + (ctx.has_thread(id) ? " present" : " gone"));
                            if (restart) log.push_back(ctx.start_thread(id, (*s)(name + "'", false, *s)) ? "ok" : "no");
                          });
  };
  ASSERT_TRUE(loop.runtime().start_thread(id, make("first", true, make)));
  ASSERT_TRUE(loop.run_until([&] { return log.size() == 3; }));
  EXPECT_EQ(log, (std::vector<std::string>{"first present", "ok", "first' present"}));
  ASSERT_TRUE(loop.run_until([&] { return !loop.runtime().has_thread(id); }));
}

TEST(ThreadOutcomeTest, AThreadWhoseStartWasDroppedUnappliedGetsNoOutcome) {
  ThreadLoop loop;
  Seen seen;
  {
    ChangeSet changes;
    CallbackContext ctx = loop.runtime().context(changes);
    ASSERT_TRUE(ctx.start_thread(ThreadId::unique(), counting(seen, 1, false)));
  }
  for (int i = 0; i < 3; ++i) loop.frame();
  EXPECT_TRUE(seen.outcomes.empty());
  EXPECT_EQ(loop.runtime().thread_count(), 0u);
}

// The finish callback's own capture is destroyed when the thread is removed; its destructor may
// call the runtime: inside the frame (deferred, carried out when the frame's changes apply), or
// while the runtime is destroyed (refused, closed).
struct CallsRuntimeWhenDestroyed {
  WindowRuntime* runtime = nullptr;
  Status* result = nullptr;
  ~CallsRuntimeWhenDestroyed() {
    if (runtime != nullptr) *result = runtime->add_timer(TimerId::unique(), Timer::once(1s, [](TimerCallbackInfo&) {}));
  }
};

TEST(ThreadOutcomeTest, AFinishCallbacksCaptureMayCallTheRuntimeWhenItIsDestroyed) {
  Status from_destructor = Error{Errc::invalid_argument, "not destroyed yet"};
  {
    ThreadLoop loop;
    auto capture = std::make_shared<CallsRuntimeWhenDestroyed>();  // no temporary whose destructor would call too
    capture->runtime = &loop.runtime();
    capture->result = &from_destructor;
    int runs = 0;
    const ThreadId id = ThreadId::unique();
    ASSERT_TRUE(loop.runtime().start_thread(
        id, Thread::create(0, None{}, [](int, ThreadSender<None>&, ThreadReceiver&) {},
                           [capture, &runs](None&, const ThreadOutcome&, CallbackContext&) { ++runs; })));
    capture.reset();  // the finish callback holds the only reference
    ASSERT_TRUE(loop.run_until([&] { return !loop.runtime().has_thread(id); }));
    for (int i = 0; i < 3; ++i) loop.frame();
    EXPECT_EQ(runs, 1);
    ASSERT_TRUE(from_destructor.ok()) << from_destructor.error().message;
    EXPECT_EQ(loop.runtime().timer_count(), 1u);  // added when the frame's changes were applied
    EXPECT_TRUE(loop.failures().empty());
  }
  // Abandoned: the capture goes while the runtime is destroyed, and its call is refused. The
  // callback runs inside the loop's destruction, so what it counts outlives the loop.
  Status while_closing;
  int abandoned_runs = 0;
  {
    ThreadLoop loop;
    auto capture = std::make_shared<CallsRuntimeWhenDestroyed>();  // no temporary whose destructor would call too
    capture->runtime = &loop.runtime();
    capture->result = &while_closing;
    ASSERT_TRUE(loop.runtime().start_thread(
        ThreadId::unique(),
        Thread::create(
            0, None{}, [](int, ThreadSender<None>&, ThreadReceiver& in) {
              while (!in.stop_requested()) (void)in.receive_for(Duration::max(), false);
            },
            [capture, &abandoned_runs](None&, const ThreadOutcome& o, CallbackContext&) {
              ++abandoned_runs;
              EXPECT_EQ(o.kind, ThreadOutcome::Kind::abandoned);
            })));
    capture.reset();
  }
  EXPECT_EQ(abandoned_runs, 1);
  ASSERT_FALSE(while_closing.ok());
  EXPECT_EQ(while_closing.error().code, Errc::closed);
}

// ---- Thread::job ---------------------------------------------------------------------------

TEST(ThreadJobTest, TheValueTheWorkReturnsReachesDone) {
  ThreadLoop loop;
  std::optional<std::string> got;
  std::optional<ThreadOutcome> how;
  ASSERT_TRUE(loop.runtime().start_thread(
      ThreadId::unique(), Thread::job([] { return std::string(1000, 'x'); },
                                      [&](std::optional<std::string>& value, const ThreadOutcome& o, CallbackContext&) {
                                        got = value;
                                        how = o;
                                        return Update::redraw_window;
                                      })));
  ASSERT_TRUE(loop.run_until([&] { return how.has_value(); }));
  EXPECT_EQ(how->kind, ThreadOutcome::Kind::finished);
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->size(), 1000u);
  how.reset();
  for (int i = 0; i < 5; ++i) loop.frame();
  EXPECT_FALSE(how.has_value());  // `done` ran exactly once
  EXPECT_GE(loop.redraws(), 1);
}

TEST(ThreadJobTest, AMoveOnlyResultAndWorkThatHonoursItsStopToken) {
  ThreadLoop loop;
  std::optional<int> got;
  std::optional<ThreadOutcome> how;
  std::atomic<bool> started{false};
  const ThreadId id = ThreadId::unique();
  ASSERT_TRUE(loop.runtime().start_thread(
      id, Thread::job(
              [&started](std::stop_token stop) {
                started = true;
                while (!stop.stop_requested()) std::this_thread::yield();
                return std::make_unique<int>(7);
              },
              [&](std::optional<std::unique_ptr<int>>& value, const ThreadOutcome& o, CallbackContext&) {
                if (value && *value) got = **value;
                how = o;
              })));
  const auto end = std::chrono::steady_clock::now() + 20s;
  while (!started && std::chrono::steady_clock::now() < end) std::this_thread::yield();
  ASSERT_TRUE(loop.runtime().stop_thread(id));
  ASSERT_TRUE(loop.run_until([&] { return how.has_value(); }));
  EXPECT_EQ(how->kind, ThreadOutcome::Kind::stopped);
  EXPECT_EQ(got, 7);
}

TEST(ThreadJobTest, WorkThatThrowsLeavesTheValueEmptyAndSaysWhy) {
  ThreadLoop loop;
  bool had_value = true;
  std::optional<ThreadOutcome> how;
  ASSERT_TRUE(loop.runtime().start_thread(
      ThreadId::unique(), Thread::job([]() -> int { throw std::runtime_error("no such file"); },
                                      [&](std::optional<int>& value, const ThreadOutcome& o, CallbackContext&) {
                                        had_value = value.has_value();
                                        how = o;
                                      })));
  ASSERT_TRUE(loop.run_until([&] { return how.has_value(); }));
  EXPECT_EQ(how->kind, ThreadOutcome::Kind::failed);
  EXPECT_FALSE(had_value);
  EXPECT_NE(how->message.find("no such file"), std::string::npos);
}

TEST(ThreadJobTest, WorkThatReturnsNothingGetsItsOutcomeAlone) {
  ThreadLoop loop;
  std::atomic<int> ran{0};
  std::optional<ThreadOutcome> how;
  ASSERT_TRUE(loop.runtime().start_thread(
      ThreadId::unique(),
      Thread::job([&ran] { ++ran; }, [&](const ThreadOutcome& o, CallbackContext&) { how = o; })));
  ASSERT_TRUE(loop.run_until([&] { return how.has_value(); }));
  EXPECT_EQ(how->kind, ThreadOutcome::Kind::finished);
  EXPECT_EQ(ran.load(), 1);
}

// ---- a thread started inside a frame ---------------------------------------------------------

TEST(ThreadStartInFrameTest, HasThreadIsTrueFromStartThreadOnAndItsMessagesAndStopReachIt) {
  ThreadLoop loop;
  const ThreadId id = ThreadId::unique();
  std::vector<std::string> log;
  std::atomic<int> customs{0};
  std::optional<ThreadOutcome> how;
  ASSERT_TRUE(loop.runtime().add_timer(TimerId::unique(), Timer::once(1ms, [&](TimerCallbackInfo& info) {
    Thread t = Thread::create(
        0, None{},
        counts_customs_until_terminate(customs),
        [&how](None&, const ThreadOutcome& o, CallbackContext&) { how = o; });
    log.push_back(std::string("before ") + (loop.runtime().has_thread(id) ? "yes" : "no"));
    log.push_back(info.context.start_thread(id, std::move(t)) ? "started" : "refused");
    log.push_back(std::string("runtime ") + (loop.runtime().has_thread(id) ? "yes" : "no"));
    log.push_back(std::string("context ") + (info.context.has_thread(id) ? "yes" : "no"));
    log.push_back(info.context.send_to_thread(id, Payload::of(1)) ? "sent" : "not sent");
    log.push_back(loop.runtime().send_to_thread(id, Payload::of(2)) ? "sent" : "not sent");
    log.push_back(info.context.stop_thread(id) ? "stop asked" : "stop refused");
  })));
  ASSERT_TRUE(loop.clock().advance(1ms).ok());
  loop.frame();
  EXPECT_EQ(log, (std::vector<std::string>{"before no", "started", "runtime yes", "context yes", "sent", "sent",
                                           "stop asked"}));
  EXPECT_TRUE(loop.failures().empty());
  ASSERT_TRUE(loop.run_until([&] { return how.has_value(); }));
  EXPECT_EQ(how->kind, ThreadOutcome::Kind::stopped);
  EXPECT_EQ(customs.load(), 2);  // both messages came before the stop
}

TEST(ThreadStartInFrameTest, AnAppsOwnContextSeesItsOwnStartButTheRuntimeDoesNotUntilApplied) {
  ThreadLoop loop;
  Seen seen;
  const ThreadId id = ThreadId::unique();
  ChangeSet changes;
  CallbackContext ctx = loop.runtime().context(changes);
  ASSERT_TRUE(ctx.start_thread(id, counting(seen, 0, false)));
  EXPECT_TRUE(ctx.has_thread(id));
  EXPECT_FALSE(loop.runtime().has_thread(id));  // not started: a dropped set would leave no trace
  ASSERT_TRUE(loop.runtime().apply(std::move(changes)).failures.empty());
  EXPECT_TRUE(loop.runtime().has_thread(id));
  ASSERT_TRUE(loop.run_until([&] { return !seen.outcomes.empty(); }));
}

// ---- the progress lane ---------------------------------------------------------------------------

TEST(ThreadProgressTest, TheUiSeesTheNewestValueAtMostOncePerFrameWithOneWakePerFrame) {
  ThreadLoop loop;
  constexpr int kReports = 200'000;
  Latch reported;
  const ThreadId id = ThreadId::unique();
  ASSERT_TRUE(loop.runtime().start_thread(
      id, Thread::create(0, None{}, [&reported](int, ThreadSender<None>& out, ThreadReceiver& in) {
        for (int i = 1; i <= kReports; ++i) out.progress(i);
        reported.open();
        while (!in.stop_requested()) (void)in.receive_for(Duration::max(), false);
      })));
  EXPECT_EQ(loop.runtime().thread_progress<int>(id), nullptr);  // nothing reported yet
  int changes = 0;
  int last = 0;
  const int frames_before = loop.frames();
  ASSERT_TRUE(loop.run_until([&] {
    const int* p = loop.runtime().thread_progress<int>(id);
    if (p != nullptr && *p != last) {
      EXPECT_GT(*p, last);  // only ever newer
      last = *p;
      ++changes;
    }
    return last == kReports;
  }));
  const int frames = loop.frames() - frames_before;
  EXPECT_LE(changes, frames);             // at most one delivery per frame
  EXPECT_LE(loop.wakes(), frames + 1);    // at most one wake-up per frame
  EXPECT_TRUE(reported.wait());
  EXPECT_EQ(loop.runtime().thread_progress<double>(id), nullptr);  // another type: nothing
  EXPECT_EQ(loop.runtime().thread_progress<int>(ThreadId::unique()), nullptr);
  ASSERT_TRUE(loop.runtime().stop_thread(id));
  ASSERT_TRUE(loop.run_until([&] { return !loop.runtime().has_thread(id); }));
}

TEST(ThreadProgressTest, TheLastValueIsTakenBeforeTheFinishCallbackAndEachNewOneRedraws) {
  ThreadLoop loop;
  const ThreadId id = ThreadId::unique();
  std::optional<int> at_finish;
  WindowRuntime& runtime = loop.runtime();
  ASSERT_TRUE(runtime.start_thread(
      id, Thread::create(
              0, None{},
              [](int, ThreadSender<None>& out, ThreadReceiver&) {
                for (int i = 1; i <= 1000; ++i) out.progress(i);
              },
              [&](None&, const ThreadOutcome&, CallbackContext&) {
                const int* p = runtime.thread_progress<int>(id);
                at_finish = p ? *p : -1;
              })));
  ASSERT_TRUE(loop.run_until([&] { return at_finish.has_value(); }));
  EXPECT_EQ(at_finish, 1000);
  EXPECT_GE(loop.redraws(), 1);
}

TEST(ThreadProgressTest, AMoveOnlyValueAndAChangeOfTypeBothArrive) {
  ThreadLoop loop;
  const ThreadId id = ThreadId::unique();
  Latch first_seen;
  Latch moved_on;
  ASSERT_TRUE(loop.runtime().start_thread(
      id, Thread::create(0, None{}, [&](int, ThreadSender<None>& out, ThreadReceiver& in) {
        out.progress(std::make_unique<int>(5));
        (void)first_seen.wait();
        out.progress(std::string("done"));
        moved_on.open();
        while (!in.stop_requested()) (void)in.receive_for(Duration::max(), false);
      })));
  ASSERT_TRUE(loop.run_until([&] {
    const auto* p = loop.runtime().thread_progress<std::unique_ptr<int>>(id);
    return p != nullptr && **p == 5;
  }));
  first_seen.open();
  ASSERT_TRUE(moved_on.wait());
  ASSERT_TRUE(loop.run_until([&] {
    const auto* s = loop.runtime().thread_progress<std::string>(id);
    return s != nullptr && *s == "done";
  }));
  ASSERT_TRUE(loop.runtime().stop_thread(id));
  ASSERT_TRUE(loop.run_until([&] { return !loop.runtime().has_thread(id); }));
}

TEST(ThreadProgressTest, ProgressFromAnotherThreadOrAfterTheRuntimeIsGoneIsRefused) {
  std::atomic<int> from_helper{-1};
  std::atomic<bool> after_close{true};
  Latch closed;
  {
    WindowRuntime::Options options;
    options.join_deadline = Duration::zero();  // let the worker go at once
    ThreadLoop loop(options);
      Latch ready;
    ASSERT_TRUE(loop.runtime().start_thread(
        ThreadId::unique(),
        Thread::create(0, None{}, [&](int, ThreadSender<None>& out, ThreadReceiver&) {
          std::thread helper([&] { from_helper = out.progress(1) ? 1 : 0; });
          helper.join();
          ready.open();
          (void)closed.wait();  // outlives the runtime: the join deadline lets it go
          after_close = out.progress(2);
        })));
    ASSERT_TRUE(ready.wait());
  }
  closed.open();
  const auto end = std::chrono::steady_clock::now() + 20s;
  while (after_close && std::chrono::steady_clock::now() < end) std::this_thread::yield();
  EXPECT_EQ(from_helper.load(), 0);
  EXPECT_FALSE(after_close.load());
}

// ---- found by review ------------------------------------------------------------------------

// An id started again from its own finish callback: the stop and the message sent to that id
// there are for the new thread (they used to reach the finishing one, still in the table).
TEST(ThreadOutcomeReviewTest, ARestartFromOnFinishGetsTheMessageAndTheStopSentToItsId) {
  // Everything the callbacks touch is declared before the loop: the loop's destructor may run
  // the restarted thread's finish callback (abandoned).
  const ThreadId id = ThreadId::unique();
  std::atomic<int> customs{0};
  std::optional<ThreadOutcome> second;
  Status sent = Error{Errc::invalid_argument, "not called"};
  Status stopped = Error{Errc::invalid_argument, "not called"};
  bool restarted = false;
  ThreadLoop loop;
  ASSERT_TRUE(loop.runtime().start_thread(
      id, Thread::create(
              0, None{}, [](int, ThreadSender<None>&, ThreadReceiver&) {},
              [&](None&, const ThreadOutcome&, CallbackContext& ctx) {
                if (restarted) return;
                Thread next = Thread::create(
                    0, None{},
                    counts_customs_until_terminate(customs),
                    [&second](None&, const ThreadOutcome& o, CallbackContext&) { second = o; });
                restarted = ctx.start_thread(id, std::move(next)).ok();
                sent = ctx.send_to_thread(id, Payload::of(1));
                stopped = ctx.stop_thread(id);
              })));
  ASSERT_TRUE(loop.run_until([&] { return restarted; }, std::chrono::seconds(5)));
  EXPECT_TRUE(sent.ok()) << (sent.ok() ? "" : sent.error().message);
  EXPECT_TRUE(stopped.ok());
  EXPECT_TRUE(loop.run_until([&] { return second.has_value(); }, std::chrono::seconds(3)))
      << "the restarted thread never saw the stop asked for it";
  if (second) {
    EXPECT_EQ(second->kind, ThreadOutcome::Kind::stopped);
    EXPECT_EQ(customs.load(), 1);
  }
}

// thread.hpp (Thread::job): `value` holds the result whenever the work returned, abandoned
// included: the runtime delivers what the worker sent before the outcome, even as it goes.
TEST(ThreadOutcomeReviewTest, AJobAbandonedAfterItsWorkReturnedStillHandsDoneItsValue) {
  ManualClock clock;
  std::optional<ThreadOutcome::Kind> kind;
  bool had_value = false;
  {
    WindowRuntime runtime(clock.source());
    ASSERT_TRUE(runtime.start_thread(
        ThreadId::unique(), Thread::job([] { return 42; },
                                        [&](std::optional<int>& value, const ThreadOutcome& o, CallbackContext&) {
                                          had_value = value.has_value();
                                          kind = o.kind;
                                        })));
    // No frame: wait until the worker has posted its result (messages wait: next_wake() is 0).
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (runtime.next_wake() != Duration::zero() && std::chrono::steady_clock::now() < end) {
      std::this_thread::yield();
    }
    ASSERT_EQ(runtime.next_wake(), Duration::zero());
  }  // the runtime goes before any frame delivered the result
  ASSERT_TRUE(kind.has_value());
  EXPECT_EQ(*kind, ThreadOutcome::Kind::abandoned);
  EXPECT_TRUE(had_value) << "the work returned its value before the window closed: nothing is lost";
}

// window_runtime.hpp (has_thread): a loop of the app's own sees a start its callbacks made, between
// run_timers() and apply(), only in its change-set; apply() starts it.
TEST(ThreadOutcomeReviewTest, BetweenRunTimersAndApplyAStartIsSeenInTheChangeSet) {
  ManualClock clock;
  const ThreadId id = ThreadId::unique();
  WindowRuntime runtime(clock.source());
  ASSERT_TRUE(runtime.add_timer(TimerId::unique(), Timer::once(std::chrono::milliseconds(1), [&](TimerCallbackInfo& info) {
    (void)info.context.start_thread(id, Thread::job([] {}, [](const ThreadOutcome&, CallbackContext&) {}));
  })));
  ASSERT_TRUE(clock.advance(std::chrono::milliseconds(1)).ok());
  ChangeSet changes;
  runtime.run_timers(runtime.now(), changes);
  EXPECT_TRUE(changes.starts_thread(id));
  EXPECT_FALSE(runtime.has_thread(id));
  const Status stop = runtime.stop_thread(id);
  ASSERT_FALSE(stop.ok());
  EXPECT_EQ(stop.error().code, Errc::not_found);
  runtime.run_threads(changes);
  const ApplyReport report = runtime.apply(std::move(changes));
  EXPECT_TRUE(report.failures.empty());
  EXPECT_TRUE(runtime.has_thread(id));
}

}  // namespace
}  // namespace cadence::testing
