// Workers that misbehave and windows that go away: nothing sent is lost while the window lives,
// nothing crashes, nothing blocks for ever.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <vector>

#include "cadence/thread.hpp"
#include "thread_harness.hpp"

namespace cadence::testing {
namespace {

using Log = std::shared_ptr<std::vector<int>>;

TEST(ThreadFaultsTest, AWorkerThatNeverReadsItsChannel) {
  ThreadLoop loop;
  const ThreadId id = ThreadId::unique();
  Latch read_now, finished_reading;
  std::atomic<int> customs{0}, ticks{0};
  ASSERT_TRUE(loop.runtime()
                  .start_thread(id, Thread::create(0, 0,
                                                   [&](int, ThreadSender<int>&, ThreadReceiver& in) {
                                                     read_now.wait();
                                                     while (auto m = in.try_receive()) {
                                                       if (m->is_custom()) ++customs;
                                                       if (m->is_tick()) ++ticks;
                                                     }
                                                     finished_reading.open();
                                                   }))
                  .ok());
  for (int i = 0; i < 500; ++i) {
    ASSERT_TRUE(loop.runtime().send_to_thread(id, Payload::of(i)).ok());
    loop.frame();
  }
  EXPECT_EQ(loop.runtime().next_wake(), std::nullopt) << "an unread channel does not keep the loop awake";
  read_now.open();
  ASSERT_TRUE(finished_reading.wait());
  EXPECT_EQ(customs.load(), 500) << "nothing sent was lost";
  EXPECT_EQ(ticks.load(), 1) << "500 frames left one Tick, not 500";
  ASSERT_TRUE(loop.run_until([&] { return loop.runtime().thread_count() == 0; }));
}

TEST(ThreadFaultsTest, AFloodOfAMillionMessagesStarvesNeitherTheFrameNorOtherWorkers) {
  WindowRuntime::Options options;
  options.messages_per_frame = 4096;
  options.messages_per_thread = 256;
  ThreadLoop loop(options);
  constexpr int kFlood = 1'000'000;
  auto flood = std::make_shared<std::vector<int>>();
  flood->reserve(kFlood);
  int delivered_this_frame = 0;
  int worst_frame = 0;
  Latch flooded;
  const ThreadId flooder = ThreadId::unique();
  ASSERT_TRUE(loop.runtime()
                  .start_thread(flooder, Thread::create(0, flood,
                                                        [&](int, ThreadSender<Log>& out, ThreadReceiver&) {
                                                          for (int i = 0; i < kFlood; ++i) {
                                                            out.write_back(i, [&delivered_this_frame](Log& log, int& v, CallbackContext&) {
                                                              log->push_back(v);
                                                              ++delivered_this_frame;
                                                            });
                                                          }
                                                          flooded.open();
                                                        }))
                  .ok());
  ASSERT_TRUE(flooded.wait(60s)) << "the flood is in the channel";
  // Now a second worker posts one message: it must get through in the next frame, not after
  // the million.
  bool other_arrived = false;
  Latch other_posted;
  const ThreadId other = ThreadId::unique();
  ASSERT_TRUE(loop.runtime()
                  .start_thread(other, Thread::create(0, &other_arrived,
                                                      [&](int, ThreadSender<bool*>& out, ThreadReceiver&) {
                                                        out.write_back([](bool*& flag, CallbackContext&) { *flag = true; });
                                                        other_posted.open();
                                                      }))
                  .ok());
  ASSERT_TRUE(other_posted.wait());
  int frames_until_other = -1;
  for (int frame = 1; !other_arrived && frame < 1000; ++frame) {
    delivered_this_frame = 0;
    loop.frame();
    worst_frame = std::max(worst_frame, delivered_this_frame);
    if (other_arrived) frames_until_other = frame;
  }
  EXPECT_EQ(frames_until_other, 1) << "the other worker waited behind the flood";
  delivered_this_frame = 0;
  ASSERT_TRUE(loop.run_until([&] {
    worst_frame = std::max(worst_frame, delivered_this_frame);
    delivered_this_frame = 0;
    return loop.runtime().thread_count() == 0;
  }, 120s));
  EXPECT_LE(worst_frame, 256) << "a frame delivers at most the per-thread budget from one worker";
  ASSERT_EQ(flood->size(), static_cast<std::size_t>(kFlood));
  for (int i = 0; i < kFlood; ++i) ASSERT_EQ((*flood)[static_cast<std::size_t>(i)], i) << "order kept";
  EXPECT_TRUE(loop.failures().empty());
}

TEST(ThreadFaultsTest, AWorkerThatIgnoresTerminateDoesNotHoldUpTheWindow) {
  Latch release, exited, started;
  std::atomic<int> sends_after_close{0};
  {
    WindowRuntime::Options options;
    options.join_deadline = std::chrono::milliseconds(200);
    ThreadLoop loop(options);
    ASSERT_TRUE(loop.runtime()
                    .start_thread(ThreadId::unique(), Thread::create(0, 0,
                                                                     [&](int, ThreadSender<int>& out, ThreadReceiver&) {
                                                                       started.open();
                                                                       release.wait(60s);  // deaf to Terminate
                                                                       if (!out.update()) ++sends_after_close;
                                                                       exited.open();
                                                                     }))
                    .ok());
    ASSERT_TRUE(started.wait());
  }  // the runtime gives up on the worker after 200 ms and lets it go
  EXPECT_FALSE(exited.is_open()) << "the worker is still running, detached";
  release.open();
  ASSERT_TRUE(exited.wait());
  EXPECT_EQ(sends_after_close.load(), 1) << "its send after the window closed returned false";
}

TEST(ThreadFaultsTest, DestroyingTheRuntimeWaitsAtMostTheDeadline) {
  Latch release, started, exited;
  auto loop = std::make_unique<ThreadLoop>([] {
    WindowRuntime::Options o;
    o.join_deadline = std::chrono::milliseconds(300);
    return o;
  }());
  ASSERT_TRUE(loop->runtime()
                  .start_thread(ThreadId::unique(), Thread::create(0, 0,
                                                                   [&](int, ThreadSender<int>&, ThreadReceiver&) {
                                                                     started.open();
                                                                     release.wait(60s);
                                                                     exited.open();
                                                                   }))
                  .ok());
  ASSERT_TRUE(started.wait());
  const auto t0 = std::chrono::steady_clock::now();
  loop.reset();
  const auto took = std::chrono::steady_clock::now() - t0;
  EXPECT_GE(took, std::chrono::milliseconds(300));
  EXPECT_LT(took, std::chrono::seconds(5));
  release.open();
  ASSERT_TRUE(exited.wait()) << "the detached worker finished (and no longer uses the latches)";
}

TEST(ThreadFaultsTest, AWorkerThatThrowsIsReportedAndRemovedAfterItsMessages) {
  ThreadLoop loop;
  auto log = std::make_shared<std::vector<int>>();
  const ThreadId std_thrower = ThreadId::unique();
  const ThreadId odd_thrower = ThreadId::unique();
  const auto worker = [](bool std_exception) {
    return [std_exception](int, ThreadSender<Log>& out, ThreadReceiver&) {
      for (int i = 0; i < 3; ++i) out.write_back(i, [](Log& l, int& v, CallbackContext&) { l->push_back(v); });
      if (std_exception) throw std::runtime_error("out of disk");
      throw 7;
    };
  };
  ASSERT_TRUE(loop.runtime().start_thread(std_thrower, Thread::create(0, log, worker(true))).ok());
  ASSERT_TRUE(loop.runtime().start_thread(odd_thrower, Thread::create(0, log, worker(false))).ok());
  ASSERT_TRUE(loop.run_until([&] { return loop.runtime().thread_count() == 0; }));
  EXPECT_EQ(log->size(), 6u) << "what they sent before throwing was delivered";
  ASSERT_EQ(loop.failures().size(), 2u);
  for (const Failure& f : loop.failures()) {
    EXPECT_EQ(f.error.code, Errc::callback_threw);
    if (f.thread == std_thrower) {
      EXPECT_NE(f.error.message.find("out of disk"), std::string::npos) << f.error.message;
    } else {
      EXPECT_EQ(f.thread, odd_thrower);
      EXPECT_NE(f.error.message.find("not a std::exception"), std::string::npos) << f.error.message;
    }
  }
}

TEST(ThreadFaultsTest, AWriteBackThatThrowsIsReportedAndTheWorkerGoesOn) {
  ThreadLoop loop;
  auto log = std::make_shared<std::vector<int>>();
  const ThreadId id = ThreadId::unique();
  ASSERT_TRUE(loop.runtime()
                  .start_thread(id, Thread::create(0, log,
                                                   [](int, ThreadSender<Log>& out, ThreadReceiver&) {
                                                     out.write_back([](Log&, CallbackContext&) -> Update {
                                                       throw std::logic_error("bad state on the UI side");
                                                     });
                                                     out.write_back([](Log& l, CallbackContext&) { l->push_back(1); });
                                                   }))
                  .ok());
  ASSERT_TRUE(loop.run_until([&] { return loop.runtime().thread_count() == 0; }));
  EXPECT_EQ(*log, std::vector<int>{1}) << "the next write-back still ran";
  ASSERT_EQ(loop.failures().size(), 1u);
  EXPECT_EQ(loop.failures()[0].thread, id);
  EXPECT_NE(loop.failures()[0].error.message.find("bad state on the UI side"), std::string::npos);
}

TEST(ThreadFaultsTest, SendingToAFinishedThreadIsAClearError) {
  ThreadLoop loop;
  const ThreadId id = ThreadId::unique();
  ASSERT_TRUE(loop.runtime().start_thread(id, Thread::create(0, 0, [](int, ThreadSender<int>&, ThreadReceiver&) {})).ok());
  // The worker returns at once; its finish rings the waker. No frame has run yet.
  const auto end = std::chrono::steady_clock::now() + 20s;
  while (loop.wakes() == 0 && std::chrono::steady_clock::now() < end) std::this_thread::yield();
  ASSERT_EQ(loop.wakes(), 1);
  const Status closed = loop.runtime().send_to_thread(id, Payload::of(1));
  ASSERT_FALSE(closed.ok());
  EXPECT_EQ(closed.error().code, Errc::closed);
  EXPECT_NE(closed.error().message.find("has finished"), std::string::npos);
  loop.frame();  // delivers the finish: the thread is removed
  EXPECT_FALSE(loop.runtime().has_thread(id));
  const Status gone = loop.runtime().send_to_thread(id, Payload::of(1));
  ASSERT_FALSE(gone.ok());
  EXPECT_EQ(gone.error().code, Errc::not_found);
}

TEST(ThreadFaultsTest, TheRuntimeDestroyedWhileWorkersAreSending) {
  constexpr int kWorkers = 4;
  std::vector<std::unique_ptr<Latch>> exited;
  for (int i = 0; i < kWorkers; ++i) exited.push_back(std::make_unique<Latch>());
  std::atomic<int> running{0};
  std::atomic<long> sent{0};
  {
    ThreadLoop loop;
    for (int w = 0; w < kWorkers; ++w) {
      Latch* done = exited[static_cast<std::size_t>(w)].get();
      ASSERT_TRUE(loop.runtime()
                      .start_thread(ThreadId::unique(), Thread::create(0, std::vector<int>{},
                                                                       [&, done](int, ThreadSender<std::vector<int>>& out, ThreadReceiver&) {
                                                                         ++running;
                                                                         // Send until the window is gone.
                                                                         while (out.write_back(1, [](std::vector<int>& v, int& x, CallbackContext&) {
                                                                           v.push_back(x);
                                                                         })) {
                                                                           ++sent;
                                                                         }
                                                                         done->open();
                                                                       }))
                      .ok());
    }
    const auto end = std::chrono::steady_clock::now() + 20s;
    while ((running.load() < kWorkers || sent.load() < 100'000) && std::chrono::steady_clock::now() < end) loop.frame();
    ASSERT_EQ(running.load(), kWorkers);
  }  // the runtime goes while they send
  for (auto& e : exited) EXPECT_TRUE(e->wait()) << "each worker saw its sends fail and finished";
}

}  // namespace
}  // namespace cadence::testing
