// How a background worker is put below the UI thread. Private to the library.
#pragma once

namespace cadence::detail {

/// Puts the calling thread below normal: its nice value raised by kBackgroundNice on Linux,
/// THREAD_PRIORITY_BELOW_NORMAL on Windows, nothing elsewhere. Neither needs a privilege, so
/// this cannot fail short of a system without per-thread priorities, where it leaves the thread
/// as it was. Cost: one or two system calls.
void lower_this_threads_priority() noexcept;

}  // namespace cadence::detail
