// The progress lane's lock under contention (cadence/detail/progress_lane.hpp): threads that
// find it held sleep in the library's slot_lock_sleep() and every one of them is woken. Locks
// 1024 bytes apart share one of the 16 sleep stripes, so one lock's wake-ups must not lose
// another's sleepers. Real threads; a hang fails within the deadline instead of holding the suite.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <future>
#include <memory>
#include <thread>
#include <vector>

#include "cadence/detail/progress_lane.hpp"

namespace cadence::detail {
namespace {

// One lock and the count it guards, 1024 bytes from the next: the same sleep stripe for all.
struct alignas(1024) Guarded {
  SlotLock lock;
  long count = 0;  // not atomic: the lock is all that keeps the increments whole
};

TEST(SlotLockTest, ContendedLocksSharingASleepStripeExcludeAndWakeEverySleeper) {
  constexpr int kLocks = 4;
  constexpr int kThreadsPerLock = 3;
  constexpr int kRounds = 20'000;
  auto guarded = std::make_shared<std::vector<Guarded>>(kLocks);
  ASSERT_EQ(reinterpret_cast<std::uintptr_t>(&(*guarded)[1]) - reinterpret_cast<std::uintptr_t>(&(*guarded)[0]), 1024u);
  std::vector<std::future<void>> done;
  for (int l = 0; l < kLocks; ++l) {
    for (int t = 0; t < kThreadsPerLock; ++t) {
      auto finished = std::make_shared<std::promise<void>>();
      done.push_back(finished->get_future());
      // Detached, holding what they use: one asleep for good cannot hold the test past its deadline.
      std::thread([guarded, l, finished] {
        Guarded& g = (*guarded)[static_cast<std::size_t>(l)];
        for (int i = 0; i < kRounds; ++i) {
          const SlotLock::Held held(g.lock);
          const long seen = g.count;
          if (i % 64 == 0) std::this_thread::yield();  // held across a yield: the others sleep
          g.count = seen + 1;
        }
        finished->set_value();
      }).detach();
    }
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  for (auto& d : done) {
    ASSERT_EQ(d.wait_until(deadline), std::future_status::ready) << "a thread slept through its wake-up";
  }
  for (const Guarded& g : *guarded) EXPECT_EQ(g.count, long{kThreadsPerLock} * kRounds);
}

}  // namespace
}  // namespace cadence::detail
