#include "thread_priority.hpp"

#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#elif defined(_WIN32)
#include <windows.h>
#endif

namespace cadence::detail {

int starting_thread_priority() noexcept {
#if defined(_WIN32)
  const int level = ::GetThreadPriority(::GetCurrentThread());
  return level == THREAD_PRIORITY_ERROR_RETURN ? THREAD_PRIORITY_NORMAL : level;
#else
  return 0;
#endif
}

void apply_worker_priority(ThreadPriority priority, int starting) noexcept {
#if defined(__linux__)
  (void)starting;
  if (priority != ThreadPriority::background) return;
  // On Linux, nice values belong to threads: PRIO_PROCESS with a thread id sets only that one.
  const auto tid = static_cast<id_t>(::syscall(SYS_gettid));
  errno = 0;
  const int current = ::getpriority(PRIO_PROCESS, tid);
  if (current == -1 && errno != 0) return;
  (void)::setpriority(PRIO_PROCESS, tid, current + kBackgroundNice > 19 ? 19 : current + kBackgroundNice);
#elif defined(_WIN32)
  // One step below the starting thread, as Qt's QThread::LowPriority and Chromium's background
  // threads: not THREAD_MODE_BACKGROUND_BEGIN, which also lowers I/O and memory priority.
  int level = starting;
  if (priority == ThreadPriority::background) {
    if (level > THREAD_PRIORITY_HIGHEST) {
      level = THREAD_PRIORITY_HIGHEST;  // from TIME_CRITICAL
    } else if (level > THREAD_PRIORITY_LOWEST) {
      level -= 1;  // HIGHEST to LOWEST are consecutive levels; LOWEST and IDLE stay
    }
  }
  if (level != THREAD_PRIORITY_NORMAL) (void)::SetThreadPriority(::GetCurrentThread(), level);
#else
  (void)priority;
  (void)starting;
#endif
}

}  // namespace cadence::detail
