#include "thread_priority.hpp"

#include "cadence/thread.hpp"

#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
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
#endif
}

}  // namespace cadence::detail
