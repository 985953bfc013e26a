// "Draw again at this instant": WindowRuntime::request_redraw_at/after, the callback context's
// calls and RedrawHandle from other threads. Exact on the manual clock, the soonest request
// wins, one wake-up for many requests, nothing left over after the frame it asked for.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <thread>
#include <vector>

#include "../common/thread_state.hpp"
#include "thread_harness.hpp"

namespace cadence::testing {
namespace {

Instant at_ms(std::int64_t ms) { return Instant::at(ClockKind::tick, std::chrono::milliseconds(ms)); }

class RedrawRequestTest : public ::testing::Test {
 protected:
  ApplyReport frame(std::int64_t ms) {
    EXPECT_TRUE(clock.set(at_ms(ms)).ok());
    return runtime.poll(clock.now());
  }
  ManualClock clock;
  WindowRuntime runtime{clock.source()};
};

TEST_F(RedrawRequestTest, AFrameRedrawsExactlyAtTheInstantAndNotBefore) {
  ASSERT_TRUE(runtime.request_redraw_after(250ms).ok());
  EXPECT_EQ(runtime.next_wake(), 250ms) << "counted from the call";
  EXPECT_EQ(runtime.next_due(), at_ms(250));
  ASSERT_TRUE(clock.set(at_ms(250) - 1ns).ok());
  const ApplyReport early = runtime.poll(clock.now());
  EXPECT_EQ(early.update, Update::nothing);
  EXPECT_EQ(early.redraws_came, 0u);
  const ApplyReport on_time = frame(250);
  EXPECT_EQ(on_time.update, Update::redraw_window);
  EXPECT_EQ(on_time.redraws_came, 1u);
  EXPECT_FALSE(runtime.next_due().has_value()) << "nothing left over after the frame it asked for";
  EXPECT_EQ(frame(300).update, Update::nothing);
}

TEST_F(RedrawRequestTest, ManyRequestsCoalesceToTheSoonest) {
  for (const int ms : {500, 200, 300, 200, 900}) ASSERT_TRUE(runtime.request_redraw_at(at_ms(ms)).ok());
  EXPECT_EQ(runtime.next_due(), at_ms(200));
  int redraws = 0;
  clock.run_until(at_ms(1000), [&] { return runtime.next_due(); }, [&](Instant now) {
    redraws += runtime.poll(now).redraws_came > 0 ? 1 : 0;
    EXPECT_EQ(now, at_ms(200)) << "one frame, at the soonest";
  });
  EXPECT_EQ(redraws, 1);
}

TEST_F(RedrawRequestTest, AnInstantAlreadyPastIsDueAtOnceAndAnotherClocksIsRefused) {
  frame(100);
  ASSERT_TRUE(runtime.request_redraw_at(at_ms(40)).ok());
  EXPECT_EQ(runtime.next_wake(), 0ms);
  ASSERT_TRUE(runtime.request_redraw_after(-5s).ok());
  EXPECT_EQ(runtime.next_wake(), 0ms);
  EXPECT_EQ(frame(100).redraws_came, 1u);
  const Status foreign = runtime.request_redraw_at(Instant::at(ClockKind::system, 1s));
  ASSERT_FALSE(foreign.ok());
  EXPECT_EQ(foreign.error().code, Errc::clock_mismatch);
  EXPECT_NE(foreign.error().message.find("system"), std::string::npos) << foreign.error().message;
  EXPECT_FALSE(runtime.next_due().has_value()) << "a refused request changes nothing";
  EXPECT_TRUE(runtime.request_redraw_at(Instant::max_for(ClockKind::tick)).ok()) << "the end of the timeline";
}

// Found by the fuzzer: a frame at the very end of the timeline took "nothing asked for" (kept as
// the largest instant) for a request and redrew.
TEST_F(RedrawRequestTest, AFrameAtTheEndOfTheTimelineFindsNoRequestWhereNoneWasMade) {
  ASSERT_TRUE(clock.set(Instant::max_for(ClockKind::tick)).ok());
  const ApplyReport end = runtime.poll(clock.now());
  EXPECT_EQ(end.redraws_came, 0u);
  EXPECT_EQ(end.update, Update::nothing);
  ASSERT_TRUE(runtime.request_redraw_at(Instant::max_for(ClockKind::tick)).ok());
  EXPECT_EQ(runtime.poll(clock.now()).redraws_came, 1u) << "one asked for at the end comes there";
}

TEST_F(RedrawRequestTest, ATimerCallbackAsksThroughItsContextForALaterFrame) {
  std::vector<std::int64_t> fired;
  ASSERT_TRUE(runtime
                  .add_timer(TimerId::unique(), Timer::once(100ms, [&](TimerCallbackInfo& info) {
                               fired.push_back(info.frame_start.since_origin().count() / 1'000'000);
                               EXPECT_TRUE(info.context.request_redraw_after(30ms).ok());
                             }))
                  .ok());
  std::vector<std::int64_t> redrawn;
  clock.run_until_idle([&] { return runtime.next_due(); }, [&](Instant now) {
    if (runtime.poll(now).redraws_came > 0) redrawn.push_back(now.since_origin().count() / 1'000'000);
  });
  EXPECT_EQ(fired, std::vector<std::int64_t>{100});
  EXPECT_EQ(redrawn, std::vector<std::int64_t>{130});
}

// Two timers of one frame: one asks for a frame 500 ms on, the other for its own frame's
// instant. The second gets the frame it runs in, and leaves the first one's request as it was.
TEST_F(RedrawRequestTest, ACallbackAskingForItsOwnFrameLeavesALaterRequestOfThatFrame) {
  for (const bool own_first : {false, true}) {
    const Instant start = clock.now();
    const auto later = [&](TimerCallbackInfo& info) { EXPECT_TRUE(info.context.request_redraw_at(info.frame_start + 500ms).ok()); };
    const auto own = [&](TimerCallbackInfo& info) { EXPECT_TRUE(info.context.request_redraw_at(info.frame_start).ok()); };
    ASSERT_TRUE(runtime.add_timer(TimerId::unique(), own_first ? Timer::once(100ms, own) : Timer::once(100ms, later)).ok());
    ASSERT_TRUE(runtime.add_timer(TimerId::unique(), own_first ? Timer::once(100ms, later) : Timer::once(100ms, own)).ok());
    std::vector<Duration> redrawn;
    clock.run_until_idle([&] { return runtime.next_due(); }, [&](Instant now) {
      if (runtime.poll(now).redraws_came > 0) redrawn.push_back(now - start);
    });
    EXPECT_EQ(redrawn, (std::vector<Duration>{100ms, 600ms})) << (own_first ? "own instant first" : "later first");
  }
}

TEST(RedrawHandleTest, ManyRequestsFromAnotherThreadWakeTheLoopOnceAndItDrawsOnceAtTheSoonest) {
  ThreadLoop loop;
  RedrawHandle handle = loop.runtime().redraw_handle();
  ASSERT_FALSE(loop.runtime().next_due().has_value());  // the loop looked: it sleeps with no timeout
  std::thread other([&] {
    for (int i = 100; i >= 1; --i) ASSERT_TRUE(handle.after(std::chrono::milliseconds(10 * i)).ok());
  });
  other.join();
  EXPECT_EQ(loop.wakes(), 1) << "one wake-up to re-arm the loop for 100 requests, each sooner";
  EXPECT_EQ(loop.runtime().next_due(), loop.clock().now() + 10ms);
  ASSERT_TRUE(loop.clock().advance(10ms).ok());
  EXPECT_EQ(loop.frame().redraws_came, 1u);
  EXPECT_FALSE(loop.runtime().next_due().has_value());
  // The loop looked (the frame's next_wake): a request from another thread wakes it again only
  // when it is sooner than what the loop sleeps for; one from the UI thread never needs to.
  ASSERT_TRUE(handle.after(60ms).ok());
  EXPECT_EQ(loop.wakes(), 1) << "on the UI thread the loop is not asleep";
  (void)loop.runtime().next_due();
  std::thread sooner([&] { ASSERT_TRUE(handle.after(50ms).ok()); });
  sooner.join();
  EXPECT_EQ(loop.wakes(), 2) << "sooner than what the loop sleeps for: woken to re-arm";
  (void)loop.runtime().next_due();
  std::thread later([&] { ASSERT_TRUE(handle.after(80ms).ok()); });
  later.join();
  EXPECT_EQ(loop.wakes(), 2) << "not sooner than what the loop sleeps for: no wake-up";
}

TEST(RedrawHandleTest, AHandleOutlivesItsRuntimeAndAnEmptyOneRefuses) {
  RedrawHandle kept;
  EXPECT_EQ(kept.after(1ms).error().code, Errc::closed);
  {
    ManualClock clock;
    WindowRuntime runtime(clock.source());
    kept = runtime.redraw_handle();
    EXPECT_TRUE(kept.after(1ms).ok());
  }
  const Status gone = kept.after(1ms);
  ASSERT_FALSE(gone.ok());
  EXPECT_EQ(gone.error().code, Errc::closed);
}

// The handle's thread keeps asking while the runtime, and then the clock it read, are destroyed:
// after the runtime is gone a call reads neither (ASan sees a read of the dead clock).
TEST(RedrawHandleTest, AHandleAskingWhileItsRuntimeAndClockDieReadsNeither) {
  RedrawHandle handle;
  std::atomic<bool> started{false};
  std::atomic<int> refused{0};
  std::thread asker;
  {
    auto clock = std::make_unique<ManualClock>();
    auto runtime = std::make_unique<WindowRuntime>(clock->source());
    handle = runtime->redraw_handle();
    asker = std::thread([&] {
      for (;;) {
        const Status s = handle.after(1ms);
        started.store(true);
        if (!s.ok()) {
          EXPECT_EQ(s.error().code, Errc::closed);
          if (refused.fetch_add(1) >= 100) return;
        }
      }
    });
    while (!started.load()) std::this_thread::yield();
    runtime.reset();
    clock.reset();
  }
  asker.join();
  EXPECT_GT(refused.load(), 100);
}

// Ends the process with exit code 3 when `deadline` passes first: a deadlock in a death
// test's child ends there instead of hanging the suite.
void exit_after(std::chrono::seconds deadline) {
  std::thread([deadline] {
    std::this_thread::sleep_for(deadline);
    std::_Exit(3);
  }).detach();
}

// A waker that itself asks through a handle (a loop that wakes by asking for a frame) runs while
// the runtime's lock is held: it must not wait for that lock again.
TEST(RedrawHandleDeathTest, AWakerThatAsksThroughAHandleDoesNotDeadlock) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        exit_after(10s);
        ManualClock clock;
        WindowRuntime runtime(clock.source());
        RedrawHandle handle = runtime.redraw_handle();
        std::atomic<int> asked_in_waker{0};
        runtime.set_waker([&] {
          if (handle.after(1ms).ok()) ++asked_in_waker;
          if (handle.at(clock.now()).ok()) ++asked_in_waker;
        });
        std::thread([&] { (void)handle.after(5ms); }).join();
        std::_Exit(asked_in_waker.load() == 2 && runtime.next_wake() == 0ms ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}


// Two windows whose wakers forward to each other (a tool window and its main window): A's
// waker asks B for a frame, then A; B's asks A, then B. One request from another thread runs
// each waker once, and both loops are woken.
TEST(RedrawHandleDeathTest, WakersThatAskEachOthersRuntimeDoNotDeadlock) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        exit_after(20s);
        ManualClock clock;
        WindowRuntime a(clock.source());
        WindowRuntime b(clock.source());
        const RedrawHandle to_a = a.redraw_handle();
        const RedrawHandle to_b = b.redraw_handle();
        std::atomic<int> a_woke{0};
        std::atomic<int> b_woke{0};
        a.set_waker([&] {
          ++a_woke;
          if (!to_b.after(1ms).ok() || !to_a.after(2ms).ok()) std::_Exit(4);
        });
        b.set_waker([&] {
          ++b_woke;
          if (!to_a.after(1ms).ok() || !to_b.after(2ms).ok()) std::_Exit(4);
        });
        ASSERT_EQ(a.next_wake(), std::nullopt);  // both loops look, and would sleep without a timeout
        ASSERT_EQ(b.next_wake(), std::nullopt);
        std::thread([&] { (void)to_a.after(5ms); }).join();
        std::_Exit(a_woke == 1 && b_woke == 1 && a.next_wake() == 1ms && b.next_wake() == 1ms ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

// The same two wakers, run on two threads at once, over and over: neither holds a lock of its
// own runtime while it asks the other.
TEST(RedrawHandleDeathTest, WakersThatAskEachOthersRuntimeFromTwoThreadsAtOnceDoNotDeadlock) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        exit_after(60s);
        ManualClock clock;
        WindowRuntime a(clock.source());
        WindowRuntime b(clock.source());
        const RedrawHandle to_a = a.redraw_handle();
        const RedrawHandle to_b = b.redraw_handle();
        std::atomic<int> wakes{0};
        a.set_waker([&] {
          ++wakes;
          (void)to_b.after(0ms);
        });
        b.set_waker([&] {
          ++wakes;
          (void)to_a.after(0ms);
        });
        constexpr int kRounds = 2000;
        for (int round = 0; round < kRounds; ++round) {
          (void)a.poll(clock.now());  // takes the last round's requests
          (void)b.poll(clock.now());
          (void)a.next_wake();  // both look again: the next requests wake them
          (void)b.next_wake();
          std::atomic<int> ready{0};
          const auto ask = [&](const RedrawHandle& h) {
            ++ready;
            while (ready.load() < 2) {
            }
            (void)h.after(0ms);
          };
          std::thread one(ask, std::cref(to_a));
          std::thread two(ask, std::cref(to_b));
          one.join();
          two.join();
        }
        std::_Exit(wakes.load() == 2 * kRounds ? 0 : 1);  // each runtime woken once a round
      },
      ::testing::ExitedWithCode(0), "");
}

// A request made from inside a runtime's waker after its loop woke and looked again (the waker
// thread was held up) calls that waker once more when it returns: the loop must not sleep past it.
TEST(RedrawHandleTest, ARequestFromInsideAWakerAfterTheLoopLookedWakesItOnceMore) {
  ManualClock clock;
  WindowRuntime a(clock.source());
  WindowRuntime b(clock.source());
  const RedrawHandle to_a = a.redraw_handle();
  const RedrawHandle to_b = b.redraw_handle();
  std::atomic<int> a_calls{0};
  std::atomic<bool> entered{false}, looked{false};
  a.set_waker([&] {
    if (++a_calls > 1) return;  // called once more: the loop's second wake-up
    entered = true;
    while (!looked.load()) std::this_thread::yield();  // held up until the loop has looked
    (void)to_b.after(0ms);
  });
  b.set_waker([&] { (void)to_a.after(10min); });  // forwards to A, whose waker runs on this thread
  ASSERT_EQ(a.next_wake(), std::nullopt);
  ASSERT_EQ(b.next_wake(), std::nullopt);
  std::thread worker([&] { (void)to_a.after(1h); });
  while (!entered.load()) std::this_thread::yield();
  EXPECT_EQ(a.next_wake(), 1h) << "the loop woke and looked: it would sleep for the hour";
  looked = true;
  worker.join();
  EXPECT_EQ(a_calls.load(), 2) << "the 10 min request, made while the waker ran, woke the loop again";
  EXPECT_EQ(a.next_wake(), 10min);
}

// set_waker() on the UI thread while the old waker runs on a worker's thread: the old one is
// destroyed only after that call has returned.
TEST(RedrawHandleTest, SetWakerDestroysTheOldWakerOnlyAfterItsRunningCallReturns) {
  ManualClock clock;
  WindowRuntime runtime(clock.source());
  const RedrawHandle handle = runtime.redraw_handle();
  std::atomic<bool> entered{false}, release{false}, returned{false};
  std::atomic<int> destroyed_while_running{0};
  struct Watch {
    Watch(std::atomic<bool>& r, std::atomic<int>& b) : returned(r), bad(b) {}
    Watch(const Watch&) = delete;
    Watch& operator=(const Watch&) = delete;
    ~Watch() {
      if (!returned.load()) ++bad;
    }
    std::atomic<bool>& returned;
    std::atomic<int>& bad;
  };
  auto watch = std::make_shared<Watch>(returned, destroyed_while_running);
  runtime.set_waker([&, watch] {
    entered = true;
    while (!release.load()) std::this_thread::yield();
    returned = true;
  });
  watch.reset();  // the waker holds the only copy
  ASSERT_EQ(runtime.next_wake(), std::nullopt);
  std::thread asker([&] { (void)handle.after(1ms); });
  while (!entered.load()) std::this_thread::yield();
  // Let the waker return only once this thread is seen asleep in set_waker()'s wait.
  std::atomic<test::os_thread_id> ui_thread{0};
  bool saw_wait = false;
  std::thread releaser([&] {
    saw_wait = test::wait_until_asleep(ui_thread, [] { return false; });
    release = true;
  });
  ui_thread = test::current_tid();
  runtime.set_waker({});
  EXPECT_TRUE(returned.load()) << "set_waker() returned while the old waker still ran";
  EXPECT_EQ(destroyed_while_running.load(), 0);
  asker.join();
  releaser.join();
  EXPECT_TRUE(saw_wait) << "set_waker() never waited for the running waker (20 s)";
}

TEST(RedrawHandleTest, ARequestLaterThanWhatTheLoopSleepsForDoesNotWakeIt) {
  ThreadLoop loop;
  ASSERT_TRUE(loop.runtime().add_timer(TimerId::unique(), Timer::once(10ms, [](TimerCallbackInfo&) {})).ok());
  ASSERT_EQ(loop.runtime().next_wake(), 10ms);  // the loop looked: it sleeps 10 ms
  RedrawHandle handle = loop.runtime().redraw_handle();
  std::thread([&] { EXPECT_TRUE(handle.after(1s).ok()); }).join();
  EXPECT_EQ(loop.wakes(), 0) << "1 s is not sooner than the 10 ms the loop sleeps for";
  std::thread([&] { EXPECT_TRUE(handle.after(5ms).ok()); }).join();
  EXPECT_EQ(loop.wakes(), 1) << "5 ms is";
  EXPECT_EQ(loop.runtime().next_wake(), 5ms);
  (void)loop.clock().advance(5ms);
  (void)loop.frame();
  std::thread([&] { EXPECT_TRUE(handle.after(1s).ok()); }).join();  // before the loop looks again
  EXPECT_EQ(loop.runtime().next_wake(), 5ms) << "the timer; the request is not lost either way";
  (void)loop.clock().advance(5ms);
  (void)loop.frame();
  EXPECT_EQ(loop.runtime().next_wake(), 995ms);
}

TEST_F(RedrawRequestTest, AfterAClockStepBackARedrawAndATimerOfTheSameDelayComeTogether) {
  (void)frame(1000);
  ASSERT_TRUE(clock.set(at_ms(500)).ok());  // the source steps back
  ASSERT_TRUE(runtime.request_redraw_after(100ms).ok());
  bool ran = false;
  ASSERT_TRUE(runtime.add_timer(TimerId::unique(), Timer::once(100ms, [&](TimerCallbackInfo&) { ran = true; })).ok());
  const std::optional<Duration> wake = runtime.next_wake();
  ASSERT_TRUE(wake);
  ASSERT_TRUE(clock.advance(*wake - 1ns).ok());
  EXPECT_EQ(runtime.poll(clock.now()).redraws_came, 0u);
  EXPECT_FALSE(ran);
  ASSERT_TRUE(clock.advance(1ns).ok());
  const ApplyReport r = runtime.poll(clock.now());
  EXPECT_EQ(r.redraws_came, 1u);
  EXPECT_TRUE(ran) << "both count from the runtime's time, which never goes back";
}

TEST_F(RedrawRequestTest, ARequestForNowFromACallbackIsDrawnByThatFrameAlone) {
  ASSERT_TRUE(runtime
                  .add_timer(TimerId::unique(), Timer::once(100ms, [](TimerCallbackInfo& info) {
                               EXPECT_TRUE(info.context.request_redraw_after(0ms).ok());
                             }))
                  .ok());
  const ApplyReport r = frame(100);
  EXPECT_EQ(r.redraws_came, 1u);
  EXPECT_EQ(r.update, Update::redraw_window);
  EXPECT_EQ(runtime.next_due(), std::nullopt) << "no second frame at the same instant";
}

TEST_F(RedrawRequestTest, ARequestForNowFromAWriteBackIsDrawnByThatFrameAlone) {
  const ThreadId id = ThreadId::unique();
  ASSERT_TRUE(runtime
                  .start_thread(id, Thread::create(0, 0, [](int, ThreadSender<int>& out, ThreadReceiver&) {
                    out.write_back([](int&, CallbackContext& ctx) { EXPECT_TRUE(ctx.request_redraw_after(0ms).ok()); });
                  }))
                  .ok());
  std::size_t came = 0;
  // Until the worker has finished and its write-back ran: a generous deadline, not a count of
  // tries (2,000 polls were too few under the sanitizers).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (runtime.has_thread(id) && std::chrono::steady_clock::now() < deadline) {
    came += runtime.poll(clock.now()).redraws_came;
    std::this_thread::yield();
  }
  ASSERT_FALSE(runtime.has_thread(id)) << "the worker did not finish in 30 s";
  EXPECT_EQ(came, 1u);
  EXPECT_EQ(runtime.next_due(), std::nullopt);
}

}  // namespace
}  // namespace cadence::testing
