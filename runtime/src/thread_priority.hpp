// How a background worker is put below the thread that started it. Private to the library.
#pragma once

#include "cadence/thread.hpp"

namespace cadence::detail {

/// What the worker needs to know of the starting thread's priority, read on that thread: its
/// Windows priority level (GetThreadPriority), as Windows starts every thread at normal; 0
/// elsewhere (Linux threads inherit their creator's nice value). Cost: one call or none.
int starting_thread_priority() noexcept;

/// On the worker: `normal` keeps the starting thread's priority, `background` goes below it:
/// Linux raises the nice value by kBackgroundNice (to 19 at most); Windows takes the level one
/// step below the starting thread's (THREAD_PRIORITY_NORMAL -> BELOW_NORMAL, ABOVE_NORMAL ->
/// NORMAL, never below LOWEST unless the starting thread is already at IDLE). Elsewhere nothing.
/// Needs no privilege, so it cannot fail short of a system without per-thread priorities, where
/// the thread stays as it is. Cost: one or two system calls.
void apply_worker_priority(ThreadPriority priority, int starting) noexcept;

}  // namespace cadence::detail
