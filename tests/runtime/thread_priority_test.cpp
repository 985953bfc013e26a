// Workers run below the UI thread by default (Linux: nice + kBackgroundNice), and at the
// starting thread's priority when asked. The nice value is read by each worker from its own
// thread and handed back through Thread::job.
#include <gtest/gtest.h>

#include <optional>

#include "thread_harness.hpp"

#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace cadence::testing {
namespace {

#if defined(__linux__)
int my_nice() { return ::getpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid))); }

std::optional<int> worker_nice(std::optional<ThreadPriority> priority) {
  ThreadLoop loop;
  std::optional<int> seen;
  bool done = false;
  Thread t = Thread::job([] { return my_nice(); },
                         [&](std::optional<int>& nice, const ThreadOutcome&, CallbackContext&) {
                           seen = nice;
                           done = true;
                         });
  if (priority) t.with_priority(*priority);
  EXPECT_TRUE(loop.runtime().start_thread(ThreadId::unique(), std::move(t)));
  EXPECT_TRUE(loop.run_until([&] { return done; }));
  return seen;
}

TEST(ThreadPriorityTest, WorkersRunAtBackgroundPriorityByDefault) {
  const int ui = my_nice();
  EXPECT_EQ(worker_nice(std::nullopt), std::min(ui + kBackgroundNice, 19));
  EXPECT_EQ(worker_nice(ThreadPriority::background), std::min(ui + kBackgroundNice, 19));
  EXPECT_EQ(my_nice(), ui);  // the UI thread is untouched
}

TEST(ThreadPriorityTest, ANormalPriorityWorkerKeepsTheStartingThreadsPriority) {
  EXPECT_EQ(worker_nice(ThreadPriority::normal), my_nice());
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
