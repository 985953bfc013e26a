// Workers run below the thread that started them by default (Linux: nice + kBackgroundNice;
// Windows: one level lower), and at that thread's priority when asked, whatever it is. The
// priority is read by each worker from its own thread and handed back through Thread::job; the
// starting thread is one of the test's own, so that its priority can be changed and forgotten.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <thread>
#include <vector>

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
// Raising a nice value needs no privilege, lowering it does: the UI threads take the values at
// or above this process's own.
bool set_my_priority(int nice) { return ::setpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid)), nice) == 0; }
std::vector<int> ui_priorities() {
  std::vector<int> out;
  for (const int nice : {0, 5, 15, 19}) {
    if (nice >= my_priority()) out.push_back(nice);
  }
  return out;
}
#else
int my_priority() { return ::GetThreadPriority(::GetCurrentThread()); }
int background_of(int ui) {
  if (ui > THREAD_PRIORITY_HIGHEST) return THREAD_PRIORITY_HIGHEST;
  return ui > THREAD_PRIORITY_LOWEST ? ui - 1 : ui;
}
bool set_my_priority(int level) { return ::SetThreadPriority(::GetCurrentThread(), level) != 0; }
std::vector<int> ui_priorities() {
  return {THREAD_PRIORITY_NORMAL, THREAD_PRIORITY_ABOVE_NORMAL, THREAD_PRIORITY_HIGHEST, THREAD_PRIORITY_TIME_CRITICAL,
          THREAD_PRIORITY_BELOW_NORMAL, THREAD_PRIORITY_LOWEST, THREAD_PRIORITY_IDLE};
}
#endif

// On a UI thread of its own at priority `ui`: the priority of a worker it starts.
std::optional<int> worker_priority(int ui, std::optional<ThreadPriority> priority) {
  std::optional<int> seen;
  std::thread([&] {
    if (!set_my_priority(ui) || my_priority() != ui) {
      ADD_FAILURE() << "the test's UI thread could not take priority " << ui;
      return;
    }
    ThreadLoop loop;
    bool done = false;
    Thread t = Thread::job([] { return my_priority(); },
                           [&](std::optional<int>& value, const ThreadOutcome&, CallbackContext&) {
                             seen = value;
                             done = true;
                           });
    if (priority) t.with_priority(*priority);
    EXPECT_TRUE(loop.runtime().start_thread(ThreadId::unique(), std::move(t)));
    EXPECT_TRUE(loop.run_until([&] { return done; }));
    EXPECT_EQ(my_priority(), ui) << "the UI thread is untouched";
  }).join();
  return seen;
}

TEST(ThreadPriorityTest, WorkersRunBelowTheStartingThreadByDefault) {
  for (const int ui : ui_priorities()) {
    EXPECT_EQ(worker_priority(ui, std::nullopt), background_of(ui)) << "UI thread at " << ui;
    EXPECT_EQ(worker_priority(ui, ThreadPriority::background), background_of(ui)) << "UI thread at " << ui;
  }
}

TEST(ThreadPriorityTest, ANormalPriorityWorkerKeepsTheStartingThreadsPriority) {
  for (const int ui : ui_priorities()) {
    EXPECT_EQ(worker_priority(ui, ThreadPriority::normal), ui) << "UI thread at " << ui;
  }
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
