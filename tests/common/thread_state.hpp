// What the system says of a thread of this process: whether it is asleep in a wait. Tests that
// must act while another thread is blocked see it blocked here, never assume it after a sleep.
//
// Linux reads the kernel's state of the thread (/proc): asleep is state S. Windows has no state
// that every Windows reports (Wine's NtQuerySystemInformation says "initialized" of every thread),
// so there asleep means "used no CPU time for 50 ms": the cycle counter where the system keeps
// one (QueryThreadCycleTime), kernel + user time otherwise (in ticks). A thread kept off the CPU
// that long by others also passes, so on Windows a test that waits here can only be weaker than
// on Linux, never fail because of it: a thread spinning in a wait that should block is still
// caught, as it uses CPU time.
#pragma once

#include <atomic>
#include <chrono>
#include <thread>

#ifdef _WIN32
#include <windows.h>
#else
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <string>
#endif

namespace cadence::test {

#ifdef _WIN32
using os_thread_id = DWORD;

/// The calling thread's system id (never 0).
inline os_thread_id current_tid() { return GetCurrentThreadId(); }

/// Whether thread `tid` of this process used no CPU time for 50 ms (see above).
inline bool thread_is_sleeping(os_thread_id tid) {
  const HANDLE thread = OpenThread(THREAD_QUERY_LIMITED_INFORMATION, FALSE, tid);
  if (thread == nullptr) return false;
  const auto used = [thread] {
    ULONG64 cycles = 0;
    if (QueryThreadCycleTime(thread, &cycles) && cycles != 0) return cycles;
    FILETIME created, exited, kernel, user;
    if (!GetThreadTimes(thread, &created, &exited, &kernel, &user)) return ~ULONG64{0};
    const auto ticks = [](FILETIME t) { return (ULONG64{t.dwHighDateTime} << 32) | t.dwLowDateTime; };
    return ticks(kernel) + ticks(user);
  };
  const ULONG64 before = used();
  Sleep(50);
  const ULONG64 after = used();
  CloseHandle(thread);
  return before != ~ULONG64{0} && before == after;
}
#else
using os_thread_id = pid_t;

/// The calling thread's kernel id (never 0).
inline os_thread_id current_tid() { return static_cast<pid_t>(::syscall(SYS_gettid)); }

/// Whether thread `tid` of this process is asleep (state S): blocked in a wait (a futex, a
/// condition variable, poll), not running or runnable.
inline bool thread_is_sleeping(os_thread_id tid) {
  std::ifstream stat("/proc/self/task/" + std::to_string(tid) + "/stat");
  const std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const std::size_t paren = text.rfind(')');  // the name may hold spaces and parentheses
  return paren != std::string::npos && paren + 2 < text.size() && text[paren + 2] == 'S';
}
#endif

/// Waits until thread `tid` (0: not known yet) is asleep or `gone()` holds, at most `deadline`.
/// A thread's state can only be read, not waited for: it looks again each time the scheduler
/// lets this thread run. True when the thread was seen asleep and `gone()` still does not hold.
template <class Gone>
bool wait_until_asleep(const std::atomic<os_thread_id>& tid, Gone gone,
                       std::chrono::steady_clock::duration deadline = std::chrono::seconds(20)) {
  const auto end = std::chrono::steady_clock::now() + deadline;
  while (std::chrono::steady_clock::now() < end) {
    if (gone()) return false;
    const os_thread_id t = tid.load();
    if (t != 0 && thread_is_sleeping(t)) return !gone();
    std::this_thread::yield();
  }
  return false;
}

}  // namespace cadence::test
