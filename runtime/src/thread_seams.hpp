// Test seams on a worker's way out: points where the library's own tests hold a worker still, so
// that a race with the UI thread (the window closing as a job returns, a worker finishing inside
// a frame) happens every time instead of once in a thousand runs. Not API: a private header;
// each seam is null outside those tests and costs one atomic load where it sits.
#pragma once

#include <atomic>

#include "cadence/detail/thread_core.hpp"
#include "cadence/export.hpp"

namespace cadence::detail::seams {

using Hook = void (*)(ThreadCore&);

/// On a job's worker thread, after its work returned and before its result is posted.
CADENCE_RUNTIME_API extern std::atomic<Hook> job_returned;
/// On a worker thread, after its thread was marked finished (the UI may see it from here).
CADENCE_RUNTIME_API extern std::atomic<Hook> worker_finished;

/// Calls `hook` with `core` when a test has set it.
inline void reach(const std::atomic<Hook>& hook, ThreadCore& core) {
  if (const Hook h = hook.load(std::memory_order_acquire)) h(core);
}

}  // namespace cadence::detail::seams
