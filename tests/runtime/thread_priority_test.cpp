// Workers run below the UI thread by default (Linux: nice + kBackgroundNice; Windows:
// THREAD_PRIORITY_BELOW_NORMAL), and at the starting thread's priority when asked. The priority
// is read by each worker from its own thread and handed back through Thread::job.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>

#include "thread_harness.hpp"

#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#elif defined(_WIN32)
#include <windows.h>
#endif

namespace cadence::testing {
namespace {

#if defined(__linux__) || defined(_WIN32)
#if defined(__linux__)
int my_priority() { return ::getpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid))); }
int background_of(int ui) { return std::min(ui + kBackgroundNice, 19); }
#else
int my_priority() { return ::GetThreadPriority(::GetCurrentThread()); }
int background_of(int) { return THREAD_PRIORITY_BELOW_NORMAL; }
#endif

std::optional<int> worker_priority(std::optional<ThreadPriority> priority) {
  ThreadLoop loop;
  std::optional<int> seen;
  bool done = false;
  Thread t = Thread::job([] { return my_priority(); },
                         [&](std::optional<int>& value, const ThreadOutcome&, CallbackContext&) {
                           seen = value;
                           done = true;
                         });
  if (priority) t.with_priority(*priority);
  EXPECT_TRUE(loop.runtime().start_thread(ThreadId::unique(), std::move(t)));
  EXPECT_TRUE(loop.run_until([&] { return done; }));
  return seen;
}

TEST(ThreadPriorityTest, WorkersRunAtBackgroundPriorityByDefault) {
  const int ui = my_priority();
  EXPECT_EQ(worker_priority(std::nullopt), background_of(ui));
  EXPECT_EQ(worker_priority(ThreadPriority::background), background_of(ui));
  EXPECT_EQ(my_priority(), ui);  // the UI thread is untouched
}

TEST(ThreadPriorityTest, ANormalPriorityWorkerKeepsTheStartingThreadsPriority) {
  EXPECT_EQ(worker_priority(ThreadPriority::normal), my_priority());
}
#endif

TEST(ThreadPriorityTest, ThePriorityIsKeptByTheThreadUntilItStarts) {
  struct NoProgress {};
  Thread t = Thread::create(0, NoProgress{}, [](int, ThreadSender<NoProgress>&, ThreadReceiver&) {});
  EXPECT_EQ(t.priority(), ThreadPriority::background);
  Thread moved = std::move(t).with_priority(ThreadPriority::normal);
  EXPECT_EQ(moved.priority(), ThreadPriority::normal);
}

}  // namespace
}  // namespace cadence::testing
