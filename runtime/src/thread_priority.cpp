#include "thread_priority.hpp"

#include "cadence/thread.hpp"

#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#elif defined(_WIN32)
#include <windows.h>
#endif

namespace cadence::detail {

void lower_this_threads_priority() noexcept {
#if defined(__linux__)
  // On Linux, nice values belong to threads: PRIO_PROCESS with a thread id sets only that one.
  const auto tid = static_cast<id_t>(::syscall(SYS_gettid));
  errno = 0;
  const int current = ::getpriority(PRIO_PROCESS, tid);
  if (current == -1 && errno != 0) return;
  (void)::setpriority(PRIO_PROCESS, tid, current + kBackgroundNice > 19 ? 19 : current + kBackgroundNice);
#elif defined(_WIN32)
  // One step below normal, as Qt's QThread::LowPriority and Chromium's background threads: not
  // THREAD_MODE_BACKGROUND_BEGIN, which also lowers the thread's I/O and memory priority.
  (void)::SetThreadPriority(::GetCurrentThread(), THREAD_PRIORITY_BELOW_NORMAL);
#endif
}

}  // namespace cadence::detail
