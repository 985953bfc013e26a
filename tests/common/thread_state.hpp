// What the kernel says of a thread of this process: whether it is asleep in a wait. Tests that
// must act while another thread is blocked see it blocked here, never assume it after a sleep.
// Linux only (/proc).
#pragma once

#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

namespace cadence::test {

/// The calling thread's kernel id.
inline pid_t current_tid() { return static_cast<pid_t>(::syscall(SYS_gettid)); }

/// Whether thread `tid` of this process is asleep (state S): blocked in a wait (a futex, a
/// condition variable, poll), not running or runnable.
inline bool thread_is_sleeping(pid_t tid) {
  std::ifstream stat("/proc/self/task/" + std::to_string(tid) + "/stat");
  const std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const std::size_t paren = text.rfind(')');  // the name may hold spaces and parentheses
  return paren != std::string::npos && paren + 2 < text.size() && text[paren + 2] == 'S';
}

/// Waits until thread `tid` (0: not known yet) is asleep or `gone()` holds, at most `deadline`.
/// A thread's state can only be read, not waited for: it looks again each time the scheduler
/// lets this thread run. True when the thread was seen asleep and `gone()` still does not hold.
template <class Gone>
bool wait_until_asleep(const std::atomic<pid_t>& tid, Gone gone,
                       std::chrono::steady_clock::duration deadline = std::chrono::seconds(20)) {
  const auto end = std::chrono::steady_clock::now() + deadline;
  while (std::chrono::steady_clock::now() < end) {
    if (gone()) return false;
    const pid_t t = tid.load();
    if (t != 0 && thread_is_sleeping(t)) return !gone();
    std::this_thread::yield();
  }
  return false;
}

}  // namespace cadence::test
