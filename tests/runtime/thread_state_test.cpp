// The helper that tests use to see a thread blocked (tests/common/thread_state.hpp) must tell a
// blocked thread from a busy one, on every system it reads: a helper that called every thread
// asleep would let the tests that wait on it pass without checking.
#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "../common/thread_state.hpp"

namespace cadence::testing {
namespace {

TEST(ThreadStateTest, AThreadBlockedOnAConditionVariableIsSeenAsleep) {
  std::mutex m;
  std::condition_variable cv;
  bool release = false;
  std::atomic<test::os_thread_id> tid{0};
  std::thread blocked([&] {
    tid = test::current_tid();
    std::unique_lock lock(m);
    cv.wait(lock, [&] { return release; });
  });
  EXPECT_TRUE(test::wait_until_asleep(tid, [] { return false; }));
  {
    std::lock_guard lock(m);
    release = true;
  }
  cv.notify_one();
  blocked.join();
}

TEST(ThreadStateTest, ASpinningThreadIsNotSeenAsleep) {
  std::atomic<bool> stop{false};
  std::atomic<test::os_thread_id> tid{0};
  std::thread spinning([&] {
    tid = test::current_tid();
    while (!stop.load()) {
    }
  });
  while (tid.load() == 0) std::this_thread::yield();
  // A spinning thread kept off the CPU for a whole look (on Windows, 50 ms) may look asleep
  // once; not ten times in a row.
  int asleep = 0;
  for (int look = 0; look < 10; ++look) asleep += test::thread_is_sleeping(tid.load()) ? 1 : 0;
  stop = true;
  spinning.join();
  EXPECT_LT(asleep, 10) << "a thread that never waits was seen asleep at every look";
}

}  // namespace
}  // namespace cadence::testing
