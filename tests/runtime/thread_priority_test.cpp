// Workers run below the thread that started them by default (Linux: nice + kBackgroundNice;
// Windows: one level lower), and at that thread's priority when asked, whatever it is. The
// priority is read by each worker from its own thread and handed back through Thread::job; the
// starting thread is one of the test's own, so that its priority can be changed and forgotten.
#include <gtest/gtest.h>

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
// Each UI thread priority the tests start workers from, and the priority a background worker
// must then have: written out, not computed as the library computes it.
struct Levels {
  int ui;
  int background;
};
#if defined(__linux__)
int my_priority() { return ::getpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid))); }
bool set_my_priority(int nice) { return ::setpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid)), nice) == 0; }
// Raising a nice value needs no privilege, lowering it does: the UI threads take the values at
// or above this process's own.
std::vector<Levels> levels() {
  static_assert(kBackgroundNice == 10);
  std::vector<Levels> out;
  for (const Levels l : {Levels{0, 10}, Levels{5, 15}, Levels{15, 19}, Levels{19, 19}}) {
    if (l.ui >= my_priority()) out.push_back(l);
  }
  return out;
}
#else
int my_priority() { return ::GetThreadPriority(::GetCurrentThread()); }
bool set_my_priority(int level) { return ::SetThreadPriority(::GetCurrentThread(), level) != 0; }
std::vector<Levels> levels() {
  return {{THREAD_PRIORITY_NORMAL, THREAD_PRIORITY_BELOW_NORMAL},
          {THREAD_PRIORITY_ABOVE_NORMAL, THREAD_PRIORITY_NORMAL},
          {THREAD_PRIORITY_HIGHEST, THREAD_PRIORITY_ABOVE_NORMAL},
          {THREAD_PRIORITY_TIME_CRITICAL, THREAD_PRIORITY_HIGHEST},
          {THREAD_PRIORITY_BELOW_NORMAL, THREAD_PRIORITY_LOWEST},
          {THREAD_PRIORITY_LOWEST, THREAD_PRIORITY_LOWEST},
          {THREAD_PRIORITY_IDLE, THREAD_PRIORITY_IDLE}};
}
#endif
// Whether some level tells a background worker from a normal one (not so for a process that
// runs at nice 10 or more, where every worker lands on 19).
bool some_level_lowers() {
  for (const Levels l : levels()) {
    if (l.background != l.ui) return true;
  }
  return false;
}

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
  if (!some_level_lowers()) GTEST_SKIP() << "this process runs at nice " << my_priority() << ": no worker can go lower";
  for (const Levels l : levels()) {
    EXPECT_EQ(worker_priority(l.ui, std::nullopt), l.background) << "UI thread at " << l.ui;
    EXPECT_EQ(worker_priority(l.ui, ThreadPriority::background), l.background) << "UI thread at " << l.ui;
  }
}

TEST(ThreadPriorityTest, ANormalPriorityWorkerKeepsTheStartingThreadsPriority) {
  if (!some_level_lowers()) GTEST_SKIP() << "this process runs at nice " << my_priority() << ": no worker can go lower";
  for (const Levels l : levels()) {
    EXPECT_EQ(worker_priority(l.ui, ThreadPriority::normal), l.ui) << "UI thread at " << l.ui;
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
