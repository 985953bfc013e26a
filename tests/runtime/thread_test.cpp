// Background threads: write-back, completion, the two channels, ticks, stopping, and starting
// threads from every kind of callback. Real threads; every wait has a deadline and ends on a
// condition, never on a sleep.
#include "cadence/thread.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "thread_harness.hpp"

namespace cadence::testing {
namespace {

struct Progress {
  std::vector<int> steps;
  std::string result;
  std::thread::id applied_on;
};

using SharedProgress = std::shared_ptr<Progress>;

TEST(ThreadTest, WritesBackInOrderOnTheUiThreadAndIsRemovedWhenFinished) {
  ThreadLoop loop;
  const ThreadId id = ThreadId::unique();
  auto progress = std::make_shared<Progress>();
  ASSERT_TRUE(loop.runtime()
                  .start_thread(id, Thread::create(std::make_unique<int>(5), progress,
                                                   [](std::unique_ptr<int> n, ThreadSender<SharedProgress>& out,
                                                      ThreadReceiver&) {
                                                     for (int i = 1; i <= *n; ++i) {
                                                       out.write_back(i, [](SharedProgress& p, int& step, CallbackContext&) {
                                                         p->steps.push_back(step);
                                                         p->applied_on = std::this_thread::get_id();
                                                         return Update::redraw_window;
                                                       });
                                                     }
                                                     out.write_back([](SharedProgress& p, CallbackContext&) { p->result = "done"; });
                                                   }))
                  .ok());
  ASSERT_NE(loop.runtime().thread_data<SharedProgress>(id), nullptr);
  EXPECT_EQ(loop.runtime().thread_data<int>(id), nullptr) << "wrong type: no data";
  ASSERT_TRUE(loop.run_until([&] { return !loop.runtime().has_thread(id); }));
  EXPECT_EQ(progress->steps, (std::vector<int>{1, 2, 3, 4, 5}));
  EXPECT_EQ(progress->result, "done") << "the last write-back came before the thread was removed";
  EXPECT_EQ(progress->applied_on, std::this_thread::get_id()) << "write-backs run on the UI thread";
  EXPECT_TRUE(loop.failures().empty());
  EXPECT_GE(loop.redraws(), 1);
  EXPECT_EQ(loop.runtime().thread_count(), 0u);
}

TEST(ThreadTest, EveryMessageIsDeliveredBeforeTheThreadIsRemoved) {
  ThreadLoop loop;
  const ThreadId id = ThreadId::unique();
  auto seen = std::make_shared<std::vector<int>>();
  ASSERT_TRUE(loop.runtime()
                  .start_thread(id, Thread::create(0, seen,
                                                   [](int, ThreadSender<std::shared_ptr<std::vector<int>>>& out,
                                                      ThreadReceiver&) {
                                                     for (int i = 0; i < 10'000; ++i) {
                                                       out.write_back(i, [](auto& v, int& x, CallbackContext&) { v->push_back(x); });
                                                     }
                                                   }))
                  .ok());
  ASSERT_TRUE(loop.run_until([&] { return !loop.runtime().has_thread(id); }));
  ASSERT_EQ(seen->size(), 10'000u);
  for (int i = 0; i < 10'000; ++i) ASSERT_EQ((*seen)[static_cast<std::size_t>(i)], i);
}

TEST(ThreadTest, UpdateRequestsReachTheFrame) {
  ThreadLoop loop;
  Latch sent;
  ASSERT_TRUE(loop.runtime()
                  .start_thread(ThreadId::unique(), Thread::create(0, 0,
                                                                   [&](int, ThreadSender<int>& out, ThreadReceiver&) {
                                                                     out.update(Update::redraw_all);
                                                                     sent.open();
                                                                   }))
                  .ok());
  ASSERT_TRUE(sent.wait());
  EXPECT_EQ(loop.frame().update, Update::redraw_all);
}

TEST(ThreadTest, CustomMessagesArriveInOrderAndMayBeMoveOnly) {
  ThreadLoop loop;
  const ThreadId id = ThreadId::unique();
  std::atomic<int> sum{0};
  Latch done;
  ASSERT_TRUE(loop.runtime()
                  .start_thread(id, Thread::create(0, 0,
                                                   [&](int, ThreadSender<int>&, ThreadReceiver& in) {
                                                     int expected = 1;
                                                     while (expected <= 3) {
                                                       auto m = in.receive_for(10s);
                                                       if (!m) return;
                                                       if (!m->is_custom()) continue;
                                                       auto v = std::move(m->payload).take<std::unique_ptr<int>>();
                                                       EXPECT_TRUE(v.ok());
                                                       EXPECT_EQ(**v, expected);
                                                       sum += **v;
                                                       ++expected;
                                                     }
                                                     done.open();
                                                   }))
                  .ok());
  for (int i = 1; i <= 3; ++i) ASSERT_TRUE(loop.runtime().send_to_thread(id, Payload::of(std::make_unique<int>(i))).ok());
  ASSERT_TRUE(done.wait());
  EXPECT_EQ(sum.load(), 6);
  ASSERT_TRUE(loop.run_until([&] { return !loop.runtime().has_thread(id); }));
}

TEST(ThreadTest, TicksArriveOncePerFrameAndNeverPileUp) {
  ThreadLoop loop;
  const ThreadId id = ThreadId::unique();
  Latch go, counted;
  std::atomic<int> ticks{0};
  ASSERT_TRUE(loop.runtime()
                  .start_thread(id, Thread::create(0, 0,
                                                   [&](int, ThreadSender<int>&, ThreadReceiver& in) {
                                                     go.wait();  // does not read while the UI runs 100 frames
                                                     while (auto m = in.try_receive()) {
                                                       if (m->is_tick()) ++ticks;
                                                     }
                                                     counted.open();
                                                   }))
                  .ok());
  for (int i = 0; i < 100; ++i) loop.frame();
  go.open();
  ASSERT_TRUE(counted.wait());
  EXPECT_EQ(ticks.load(), 1) << "100 frames, one Tick waiting: ticks coalesce";
}

TEST(ThreadTest, AWaitingWorkerWakesForEachTick) {
  ThreadLoop loop;
  const ThreadId id = ThreadId::unique();
  std::atomic<int> ticks{0};
  ASSERT_TRUE(loop.runtime()
                  .start_thread(id, Thread::create(0, 0,
                                                   [&](int, ThreadSender<int>& out, ThreadReceiver& in) {
                                                     while (auto m = in.receive_for(10s)) {
                                                       if (m->is_terminate()) return;
                                                       if (m->is_tick()) {
                                                         ++ticks;
                                                         out.update(Update::nothing);  // "seen"
                                                       }
                                                     }
                                                   }))
                  .ok());
  // Each frame sends a Tick; the worker answers each; wait for each answer before the next frame.
  for (int i = 1; i <= 20; ++i) {
    loop.frame();
    const auto end = std::chrono::steady_clock::now() + 20s;
    while (ticks.load() < i && std::chrono::steady_clock::now() < end) std::this_thread::yield();
    ASSERT_EQ(ticks.load(), i) << "the worker slept through a Tick";
  }
  ASSERT_TRUE(loop.runtime().stop_thread(id).ok());
  ASSERT_TRUE(loop.run_until([&] { return !loop.runtime().has_thread(id); }));
}

TEST(ThreadTest, AWorkerWaitingForJobsIsNotWokenByFrames) {
  ThreadLoop loop;
  const ThreadId id = ThreadId::unique();
  std::atomic<int> woke{0}, jobs{0}, ticks{0};
  Latch job_done;
  ASSERT_TRUE(loop.runtime()
                  .start_thread(id, Thread::create(0, 0,
                                                   [&](int, ThreadSender<int>&, ThreadReceiver& in) {
                                                     while (auto m = in.receive_for(60s, /*ticks=*/false)) {
                                                       ++woke;
                                                       if (m->is_tick()) ++ticks;
                                                       if (m->is_terminate()) return;
                                                       if (m->is_custom()) {
                                                         ++jobs;
                                                         job_done.open();
                                                       }
                                                     }
                                                   }))
                  .ok());
  for (int i = 0; i < 200; ++i) loop.frame();
  ASSERT_TRUE(loop.runtime().send_to_thread(id, Payload::of(1)).ok());
  ASSERT_TRUE(job_done.wait());
  for (int i = 0; i < 200; ++i) loop.frame();
  ASSERT_TRUE(loop.runtime().stop_thread(id).ok());
  ASSERT_TRUE(loop.run_until([&] { return !loop.runtime().has_thread(id); }));
  EXPECT_EQ(jobs.load(), 1);
  EXPECT_EQ(ticks.load(), 0);
  EXPECT_EQ(woke.load(), 2) << "woken for the job and for Terminate; 400 frames cost it nothing";
}

TEST(ThreadTest, StopDeliversTerminateAndTheStopToken) {
  ThreadLoop loop;
  const ThreadId id = ThreadId::unique();
  std::atomic<bool> saw_terminate{false}, saw_token{false};
  bool final_applied = false;  // UI thread only
  Latch running;
  ASSERT_TRUE(loop.runtime()
                  .start_thread(id, Thread::create(0, 0,
                                                   [&](int, ThreadSender<int>& out, ThreadReceiver& in, std::stop_token stop) {
                                                     running.open();
                                                     while (auto m = in.receive_for(10s)) {
                                                       if (m->is_terminate()) {
                                                         saw_terminate = true;
                                                         saw_token = stop.stop_requested();
                                                         out.write_back([&](int& v, CallbackContext&) {
                                                           v = 42;
                                                           final_applied = true;
                                                         });
                                                         return;
                                                       }
                                                     }
                                                   }))
                  .ok());
  ASSERT_TRUE(running.wait());
  int* data = loop.runtime().thread_data<int>(id);
  ASSERT_TRUE(loop.runtime().stop_thread(id).ok());
  int last_value = 0;
  ASSERT_TRUE(loop.run_until([&] {
    if (!loop.runtime().has_thread(id)) return true;
    last_value = *data;  // still alive: its data is readable
    return false;
  }));
  EXPECT_TRUE(saw_terminate.load());
  EXPECT_TRUE(saw_token.load());
  EXPECT_TRUE(loop.failures().empty());
  EXPECT_TRUE(final_applied) << "what it sent after Terminate was delivered before removal";
  EXPECT_TRUE(last_value == 0 || last_value == 42);
}

TEST(ThreadTest, ThreadsStartFromTimersEventsAndWriteBacks) {
  ThreadLoop loop;
  std::atomic<int> started{0};
  const auto worker = [&](int, ThreadSender<int>& out, ThreadReceiver&) {
    ++started;
    out.write_back([](int&, CallbackContext& ctx) {
      // A write-back starts the next generation, once.
      if (!ctx.has_thread(ThreadId{1000})) {
        (void)ctx.start_thread(ThreadId{1000}, Thread::create(0, 0, [](int, ThreadSender<int>&, ThreadReceiver&) {}));
      }
    });
  };
  // From a timer callback.
  ASSERT_TRUE(loop.runtime()
                  .add_timer(TimerId::unique(), Timer::once(0ms, [&](TimerCallbackInfo& info) {
                               EXPECT_TRUE(info.context.start_thread(ThreadId::unique(), Thread::create(0, 0, worker)).ok());
                             }))
                  .ok());
  // From an event callback.
  ChangeSet changes;
  CallbackContext ctx = loop.runtime().context(changes);
  ASSERT_TRUE(ctx.start_thread(ThreadId::unique(), Thread::create(0, 0, worker)).ok());
  ApplyReport r = loop.runtime().apply(std::move(changes));
  EXPECT_TRUE(r.failures.empty());
  ASSERT_TRUE(loop.run_until([&] { return started.load() == 2 && loop.runtime().thread_count() == 0; }));
  EXPECT_TRUE(loop.failures().empty());
}

TEST(ThreadTest, ThreadIdsAreCheckedAndUnique) {
  ThreadLoop loop;
  const auto idle = [](int, ThreadSender<int>&, ThreadReceiver& in) {
    while (auto m = in.receive_for(10s)) {
      if (m->is_terminate()) return;
    }
  };
  Status reserved = loop.runtime().start_thread(ThreadId{3}, Thread::create(0, 0, idle));
  ASSERT_FALSE(reserved.ok());
  EXPECT_EQ(reserved.error().code, Errc::invalid_argument);
  EXPECT_EQ(loop.runtime().start_thread(ThreadId{}, Thread::create(0, 0, idle)).error().code, Errc::invalid_argument);
  const ThreadId id = ThreadId::unique();
  ASSERT_TRUE(loop.runtime().start_thread(id, Thread::create(0, 0, idle)).ok());
  Status twice = loop.runtime().start_thread(id, Thread::create(0, 0, idle));
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(twice.error().code, Errc::already_exists);
  EXPECT_EQ(loop.runtime().thread_count(), 1u);
  EXPECT_EQ(loop.runtime().stop_thread(ThreadId{0x777}).error().code, Errc::not_found);
  ASSERT_TRUE(loop.runtime().stop_thread(id).ok());
  ASSERT_TRUE(loop.run_until([&] { return loop.runtime().thread_count() == 0; }));
}

TEST(ThreadTest, OneWakeUpPerBatchNotPerMessage) {
  ThreadLoop loop;
  Latch sent;
  ASSERT_TRUE(loop.runtime()
                  .start_thread(ThreadId::unique(), Thread::create(0, 0,
                                                                   [&](int, ThreadSender<int>& out, ThreadReceiver&) {
                                                                     for (int i = 0; i < 1000; ++i) out.update(Update::nothing);
                                                                     sent.open();
                                                                   }))
                  .ok());
  ASSERT_TRUE(sent.wait());
  EXPECT_EQ(loop.wakes(), 1) << "1,000 messages while the loop slept: one wake-up";
  EXPECT_EQ(loop.runtime().next_wake(), Duration::zero()) << "messages wait: do not sleep";
  ASSERT_TRUE(loop.run_until([&] { return loop.runtime().thread_count() == 0; }));
  EXPECT_LE(loop.wakes(), 2) << "at most one more, for the thread finishing";
}

}  // namespace
}  // namespace cadence::testing
