// The edges of the thread contract: waits of every length (Duration::max() waits for good),
// join deadlines of every length, the first Tick a new worker sees, a worker that goes on
// receiving after Terminate, and a Thread that was moved from. Real threads; a worker that must
// be blocked is seen blocked in /proc before the test goes on, never assumed after a sleep.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "../common/thread_state.hpp"
#include "thread_harness.hpp"

namespace cadence::testing {
namespace {

using test::current_tid;
using test::wait_until_asleep;

enum class Got { nothing_yet, none, tick, terminate, custom };

Got got(const std::optional<ThreadMessage>& m) {
  if (!m) return Got::none;
  if (m->is_tick()) return Got::tick;
  if (m->is_terminate()) return Got::terminate;
  return Got::custom;
}

// ---- receive_for() with every timeout ---------------------------------------------------------

TEST(ThreadContractTest, ReceiveForTheLongestDurationWaitsUntilAMessageComes) {
  for (const bool ticks : {false, true}) {
    ThreadLoop loop;
    const ThreadId id = ThreadId::unique();
    auto tid = std::make_shared<std::atomic<test::os_thread_id>>(0);
    auto result = std::make_shared<std::atomic<Got>>(Got::nothing_yet);
    auto returned = std::make_shared<Latch>();
    ASSERT_TRUE(loop.runtime()
                    .start_thread(id, Thread::create(0, 0, [=](int, ThreadSender<int>&, ThreadReceiver& in) {
                      tid->store(current_tid());
                      *result = got(in.receive_for(Duration::max(), ticks));
                      returned->open();
                    }))
                    .ok());
    ASSERT_TRUE(wait_until_asleep(*tid, [&] { return returned->is_open(); }))
        << "receive_for(Duration::max()) returned at once instead of waiting (ticks " << ticks << ")";
    if (ticks) {
      loop.frame();  // a Tick ends a wait that asked for Ticks
    } else {
      ASSERT_TRUE(loop.runtime().send_to_thread(id, Payload::of(7)).ok());
    }
    ASSERT_TRUE(returned->wait());
    EXPECT_EQ(result->load(), ticks ? Got::tick : Got::custom);
    ASSERT_TRUE(loop.run_until([&] { return !loop.runtime().has_thread(id); }));
  }
}

TEST(ThreadContractTest, ReceiveForZeroNegativeAndTheShortestDurationReturnAtOnce) {
  ThreadLoop loop;
  const ThreadId id = ThreadId::unique();
  auto results = std::make_shared<std::vector<Got>>();
  auto done = std::make_shared<Latch>();
  ASSERT_TRUE(loop.runtime()
                  .start_thread(id, Thread::create(0, 0, [=](int, ThreadSender<int>&, ThreadReceiver& in) {
                    for (Duration d : {Duration::zero(), Duration{-1}, Duration{-1h}, Duration::min()}) {
                      results->push_back(got(in.receive_for(d, false)));
                      results->push_back(got(in.receive_for(d, true)));
                    }
                    done->open();
                  }))
                  .ok());
  ASSERT_TRUE(done->wait());
  EXPECT_EQ(*results, std::vector<Got>(8, Got::none)) << "nothing waits, nothing overflows";
  ASSERT_TRUE(loop.run_until([&] { return !loop.runtime().has_thread(id); }));
}

TEST(ThreadContractTest, AWorkerThatGoesOnReceivingAfterTerminateWaitsInsteadOfSpinning) {
  ThreadLoop loop;
  const ThreadId id = ThreadId::unique();
  auto tid = std::make_shared<std::atomic<test::os_thread_id>>(0);
  auto after = std::make_shared<std::atomic<Got>>(Got::nothing_yet);
  auto second_try = std::make_shared<std::atomic<Got>>(Got::nothing_yet);
  auto saw_terminate = std::make_shared<Latch>();
  auto returned = std::make_shared<Latch>();
  ASSERT_TRUE(loop.runtime()
                  .start_thread(id, Thread::create(0, 0, [=](int, ThreadSender<int>&, ThreadReceiver& in) {
                    while (got(in.receive_for(Duration::max(), false)) != Got::terminate) {
                    }
                    *second_try = got(in.try_receive());  // Terminate comes once
                    saw_terminate->open();
                    tid->store(current_tid());
                    *after = got(in.receive_for(Duration::max(), false));  // draining the last jobs
                    returned->open();
                  }))
                  .ok());
  ASSERT_TRUE(loop.runtime().stop_thread(id).ok());
  ASSERT_TRUE(saw_terminate->wait());
  EXPECT_EQ(second_try->load(), Got::none);
  ASSERT_TRUE(wait_until_asleep(*tid, [&] { return returned->is_open(); }))
      << "after Terminate, receive_for() returned at once: a worker that loops on it spins";
  ASSERT_TRUE(loop.runtime().send_to_thread(id, Payload::of(1)).ok());
  ASSERT_TRUE(returned->wait());
  EXPECT_EQ(after->load(), Got::custom);
  ASSERT_TRUE(loop.run_until([&] { return !loop.runtime().has_thread(id); }));
}

// ---- the first Tick -------------------------------------------------------------------------

TEST(ThreadContractTest, ANewWorkerSeesNoTickUntilAFrameStartsAfterIt) {
  ThreadLoop loop;
  for (int i = 0; i < 5; ++i) loop.frame();  // frames before the worker exists
  const ThreadId id = ThreadId::unique();
  auto first = std::make_shared<std::atomic<Got>>(Got::nothing_yet);
  auto next = std::make_shared<std::atomic<Got>>(Got::nothing_yet);
  auto checked = std::make_shared<Latch>();
  auto done = std::make_shared<Latch>();
  ASSERT_TRUE(loop.runtime()
                  .start_thread(id, Thread::create(0, 0, [=](int, ThreadSender<int>&, ThreadReceiver& in) {
                    *first = got(in.try_receive());
                    checked->open();
                    *next = got(in.receive_for(20s));
                    done->open();
                  }))
                  .ok());
  ASSERT_TRUE(checked->wait());
  EXPECT_EQ(first->load(), Got::none) << "no frame has started since it started";
  loop.frame();
  ASSERT_TRUE(done->wait());
  EXPECT_EQ(next->load(), Got::tick);
  ASSERT_TRUE(loop.run_until([&] { return !loop.runtime().has_thread(id); }));
}

TEST(ThreadContractTest, AWorkerStartedFromACallbackSeesNoTickFromTheFrameThatStartedIt) {
  ThreadLoop loop;
  loop.frame();
  auto first = std::make_shared<std::atomic<Got>>(Got::nothing_yet);
  auto checked = std::make_shared<Latch>();
  const ThreadId id = ThreadId::unique();
  ASSERT_TRUE(loop.runtime()
                  .add_timer(TimerId::unique(), Timer::once(0ms, [&](TimerCallbackInfo& info) {
                    EXPECT_TRUE(info.context
                                    .start_thread(id, Thread::create(0, 0, [=](int, ThreadSender<int>&, ThreadReceiver& in) {
                                      *first = got(in.try_receive());
                                      checked->open();
                                    }))
                                    .ok());
                  }))
                  .ok());
  loop.frame();  // the timer runs, the thread starts as the changes are applied
  ASSERT_TRUE(loop.runtime().has_thread(id));
  ASSERT_TRUE(checked->wait());
  EXPECT_EQ(first->load(), Got::none);
  ASSERT_TRUE(loop.run_until([&] { return !loop.runtime().has_thread(id); }));
}

// ---- join deadlines -------------------------------------------------------------------------

TEST(ThreadContractTest, TheLongestJoinDeadlineWaitsForTheWorker) {
  auto tid = std::make_shared<std::atomic<test::os_thread_id>>(0);
  auto finished = std::make_shared<std::atomic<bool>>(false);
  auto stopping = std::make_shared<Latch>();
  auto release = std::make_shared<Latch>();
  WindowRuntime::Options options;
  options.join_deadline = Duration::max();
  auto loop = std::make_unique<ThreadLoop>(options);
  ASSERT_TRUE(loop->runtime()
                  .start_thread(ThreadId::unique(), Thread::create(0, 0, [=](int, ThreadSender<int>&, ThreadReceiver& in) {
                    while (got(in.receive_for(Duration::max(), false)) != Got::terminate) {
                    }
                    stopping->open();
                    release->wait(20s);  // finishing takes a while
                    finished->store(true);
                  }))
                  .ok());
  // The destructor must still be waiting when the worker finishes: let it finish only once the
  // destroying thread is seen asleep.
  std::atomic<test::os_thread_id> destroyer{0};
  std::thread helper([&] {
    if (stopping->wait()) {
      wait_until_asleep(destroyer, [] { return false; });
    }
    release->open();
  });
  destroyer = current_tid();
  loop.reset();
  const bool waited = finished->load();
  helper.join();
  EXPECT_TRUE(waited) << "join_deadline = Duration::max() must wait for the worker, not let it go";
}

TEST(ThreadContractTest, ZeroAndNegativeJoinDeadlinesLetAWorkerGoAtOnce) {
  for (Duration deadline : {Duration::zero(), Duration{-1}, Duration::min()}) {
    auto started = std::make_shared<Latch>();
    auto release = std::make_shared<Latch>();
    auto exited = std::make_shared<Latch>();
    {
      WindowRuntime::Options options;
      options.join_deadline = deadline;
      ThreadLoop loop(options);
      ASSERT_TRUE(loop.runtime()
                      .start_thread(ThreadId::unique(), Thread::create(0, 0, [=](int, ThreadSender<int>&, ThreadReceiver&) {
                        started->open();
                        release->wait(20s);  // deaf to Terminate
                        exited->open();
                      }))
                      .ok());
      ASSERT_TRUE(started->wait());
    }
    EXPECT_FALSE(exited->is_open()) << "let go, not joined";
    release->open();
    ASSERT_TRUE(exited->wait());
  }
}

// ---- a moved-from Thread --------------------------------------------------------------------

TEST(ThreadContractTest, StartingAMovedFromThreadIsAClearError) {
  ThreadLoop loop;
  std::atomic<int> ran{0};
  Thread job = Thread::create(0, 0, [&](int, ThreadSender<int>&, ThreadReceiver&) { ++ran; });
  Thread taken = std::move(job);
  const ThreadId id = ThreadId::unique();
  const Status s = loop.runtime().start_thread(id, std::move(job));  // NOLINT: use after move, on purpose
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, Errc::invalid_argument);
  EXPECT_NE(s.error().message.find("moved from"), std::string::npos) << s.error().message;
  EXPECT_FALSE(loop.runtime().has_thread(id));
  EXPECT_EQ(loop.runtime().thread_count(), 0u);

  ChangeSet changes;
  CallbackContext context = loop.runtime().context(changes);
  Thread again = std::move(taken);
  const Status deferred = context.start_thread(id, std::move(taken));  // NOLINT: on purpose
  ASSERT_FALSE(deferred.ok());
  EXPECT_EQ(deferred.error().code, Errc::invalid_argument);
  EXPECT_TRUE(changes.empty()) << "refused at once, nothing recorded";

  ASSERT_TRUE(loop.runtime().start_thread(id, std::move(again)).ok()) << "the thread it moved to still works";
  ASSERT_TRUE(loop.run_until([&] { return !loop.runtime().has_thread(id); }));
  EXPECT_EQ(ran.load(), 1);
}

// ---- calls that are refused -------------------------------------------------------------------

TEST(ThreadContractTest, AWriteBackThatRunsAFrameIsRefusedAndTheFrameGoesOn) {
  ThreadLoop loop;
  const ThreadId id = ThreadId::unique();
  std::vector<Errc> nested;
  std::size_t handed_on = 0;
  bool second_ran = false;
  ASSERT_TRUE(loop.runtime()
                  .start_thread(id, Thread::create(0, 0, [&](int, ThreadSender<int>& out, ThreadReceiver&) {
                    out.write_back([&](int&, CallbackContext& ctx) {
                      ChangeSet mine;
                      ctx.runtime().run_threads(mine);
                      ctx.runtime().run_timers(ctx.frame_start(), mine);
                      for (const Change& c : mine.changes()) nested.push_back(std::get<FrameError>(c).error.code);
                      handed_on = ctx.runtime().poll(ctx.frame_start()).deferred;
                    });
                    out.write_back([&](int&, CallbackContext&) { second_ran = true; });
                  }))
                  .ok());
  ASSERT_TRUE(loop.run_until([&] { return !loop.runtime().has_thread(id); }));
  EXPECT_EQ(nested, (std::vector<Errc>{Errc::reentrant_call, Errc::reentrant_call}));
  EXPECT_EQ(handed_on, 2u) << "poll() inside: its two refusals go to the frame";
  EXPECT_TRUE(second_ran) << "the frame delivered the rest";
  ASSERT_EQ(loop.failures().size(), 2u);
  EXPECT_EQ(loop.failures()[0].error.code, Errc::reentrant_call);
}

TEST(ThreadContractTest, TheChannelsRefuseEveryThreadButTheWorkers) {
  ThreadLoop loop;
  const ThreadId id = ThreadId::unique();
  auto results = std::make_shared<std::vector<int>>();
  auto sent = std::make_shared<Latch>();
  ASSERT_TRUE(loop.runtime()
                  .start_thread(id, Thread::create(0, 0, [results, sent](int, ThreadSender<int>& out, ThreadReceiver& in) {
                    std::thread helper([&] {  // a thread the worker started: not the worker
                      results->push_back(out.write_back([](int& v, CallbackContext&) { v = -1; }) ? 1 : 0);
                      results->push_back(out.update() ? 1 : 0);
                      results->push_back(in.try_receive().has_value() ? 1 : 0);
                      results->push_back(in.receive_for(Duration::max()).has_value() ? 1 : 0);
                      results->push_back(out.connected() ? 1 : 0);  // a plain question: answered
                    });
                    helper.join();
                    results->push_back(out.write_back([](int& v, CallbackContext&) { v = 7; }) ? 1 : 0);
                    sent->open();
                  }))
                  .ok());
  int* data = loop.runtime().thread_data<int>(id);
  ASSERT_NE(data, nullptr);
  int seen = 0;
  ASSERT_TRUE(loop.run_until([&] {
    if (loop.runtime().has_thread(id)) seen = *data;
    return !loop.runtime().has_thread(id);
  }));
  EXPECT_EQ(*results, (std::vector<int>{0, 0, 0, 0, 1, 1})) << "refused off the worker; the worker's own send went";
  EXPECT_TRUE(seen == 0 || seen == 7) << "the helper's write-back never ran";
}

// window_runtime.hpp, set_waker: "never called once the runtime is gone", by a worker the
// runtime let go that goes on posting after it.
TEST(ThreadContractTest, TheWakerIsNeverCalledOnceTheRuntimeIsGone) {
  auto wakes = std::make_shared<std::atomic<int>>(0);
  auto started = std::make_shared<Latch>();
  auto release = std::make_shared<Latch>();
  auto exited = std::make_shared<Latch>();
  auto refused = std::make_shared<std::atomic<int>>(0);
  {
    ManualClock clock;
    WindowRuntime::Options options;
    options.join_deadline = Duration::zero();  // let go at once
    WindowRuntime runtime(clock.source(), options);
    runtime.set_waker([wakes] { ++*wakes; });
    ASSERT_TRUE(runtime
                    .start_thread(ThreadId::unique(), Thread::create(0, 0, [=](int, ThreadSender<int>& out, ThreadReceiver&) {
                      (void)out.write_back([](int&, CallbackContext&) { return Update::nothing; });
                      started->open();
                      release->wait(20s);  // deaf to Terminate: it outlives the runtime
                      for (int i = 0; i < 100; ++i) {
                        if (!out.write_back([](int&, CallbackContext&) { return Update::nothing; })) ++*refused;
                      }
                      exited->open();
                    }))
                    .ok());
    ASSERT_TRUE(started->wait());
  }
  const int at_destruction = wakes->load();
  EXPECT_EQ(at_destruction, 1) << "the one post while the runtime lived rang it once";
  release->open();
  ASSERT_TRUE(exited->wait());
  EXPECT_EQ(wakes->load(), at_destruction) << "100 posts after the runtime went: no call";
  EXPECT_EQ(refused->load(), 100) << "and each post was refused";
}

}  // namespace
}  // namespace cadence::testing
