// How a background worker is put below the UI thread. Private to the library.
#pragma once

namespace cadence::detail {

/// Raises the calling thread's nice value by kBackgroundNice (Linux; elsewhere nothing). Raising
/// it needs no privilege, so this cannot fail short of a kernel without per-thread nice values,
/// where it leaves the thread as it was. Cost: one system call.
void lower_this_threads_priority() noexcept;

}  // namespace cadence::detail
