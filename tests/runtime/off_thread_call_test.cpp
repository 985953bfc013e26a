// A worker thread calling the runtime's mutators while the UI thread runs frames: every call is
// refused with wrong_thread before it reads anything of the UI thread's (TSan, in CI, reports
// a race if one does).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "cadence/manual_clock.hpp"
#include "cadence/window_runtime.hpp"

namespace cadence {
namespace {

using namespace std::chrono_literals;

TEST(OffThreadCallTest, AddTimerFromAnotherThreadDuringFramesIsRefusedWithoutARace) {
  ManualClock clock;
  WindowRuntime runtime(clock.source());
  int runs = 0;
  ASSERT_TRUE(runtime.add_timer(TimerId::unique(), Timer::animation([&runs](TimerCallbackInfo&) { ++runs; })).ok());

  std::atomic<bool> go{false};
  std::atomic<bool> done{false};
  std::atomic<int> refused{0};
  std::atomic<int> other{0};
  std::thread intruder([&] {
    while (!go.load()) std::this_thread::yield();
    for (int i = 0; i < 20000; ++i) {
      const Status s = runtime.add_timer(TimerId::unique(), Timer::once(1ms, [](TimerCallbackInfo&) {}));
      if (!s.ok() && s.error().code == Errc::wrong_thread) {
        ++refused;
      } else {
        ++other;
      }
      const Status r = runtime.remove_timer(TimerId::unique());
      if (r.ok() || r.error().code != Errc::wrong_thread) ++other;
    }
    done.store(true);
  });
  go.store(true);
  while (!done.load()) {
    (void)clock.advance(1ms);
    (void)runtime.poll(clock.now());  // Impl::Running sets/clears calls.running around the callback
  }
  intruder.join();
  EXPECT_EQ(refused.load(), 20000);
  EXPECT_EQ(other.load(), 0);
  EXPECT_GT(runs, 0);
}

}  // namespace
}  // namespace cadence
