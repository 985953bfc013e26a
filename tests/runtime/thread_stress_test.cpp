// Many workers at once: every message delivered exactly once, in each worker's order.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "cadence/thread.hpp"
#include "thread_harness.hpp"

namespace cadence::testing {
namespace {

TEST(ThreadStressTest, EightWorkersTimesAHundredThousandMessagesExactlyOnceInOrder) {
  constexpr int kWorkers = 8;
  constexpr int kMessages = 100'000;
  ThreadLoop loop;
  // Writeback data per worker: what arrived, on the UI thread.
  std::vector<std::shared_ptr<std::vector<int>>> received;
  for (int w = 0; w < kWorkers; ++w) {
    received.push_back(std::make_shared<std::vector<int>>());
    received.back()->reserve(kMessages);
    ASSERT_TRUE(loop.runtime()
                    .start_thread(ThreadId::unique(),
                                  Thread::create(kMessages, received.back(),
                                                 [](int count, ThreadSender<std::shared_ptr<std::vector<int>>>& out,
                                                    ThreadReceiver&) {
                                                   for (int i = 0; i < count; ++i) {
                                                     // Alternate both kinds of message.
                                                     if (i % 2 == 0) {
                                                       out.write_back(i, [](auto& log, int& v, CallbackContext&) { log->push_back(v); });
                                                     } else {
                                                       out.write_back([i](auto& log, CallbackContext&) { log->push_back(i); });
                                                     }
                                                   }
                                                 }))
                    .ok());
  }
  ASSERT_TRUE(loop.run_until([&] { return loop.runtime().thread_count() == 0; }, std::chrono::minutes(5)));
  for (int w = 0; w < kWorkers; ++w) {
    const auto& log = *received[static_cast<std::size_t>(w)];
    ASSERT_EQ(log.size(), static_cast<std::size_t>(kMessages)) << "worker " << w;
    for (int i = 0; i < kMessages; ++i) ASSERT_EQ(log[static_cast<std::size_t>(i)], i) << "worker " << w;
  }
  EXPECT_TRUE(loop.failures().empty());
  // Frames are bounded by the budget: 800,000 messages need at least 800,000 / 4,096 frames.
  EXPECT_GE(loop.frames(), kWorkers * kMessages / 4096);
}

}  // namespace
}  // namespace cadence::testing
