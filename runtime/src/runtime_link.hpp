// RuntimeLink: what a runtime shares with its workers, behind the shared_ptr each ThreadCore
// holds, so that a worker that outlives the runtime only ever touches memory that is still
// alive. Private to the library; thread_core.hpp only names it.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>

#include "cadence/detail/thread_core.hpp"

namespace cadence::detail {

/// The runtime's doorbell: rung by workers when they post into an empty channel.
struct RuntimeLink {
  std::atomic<bool> alive{true};  // false once the runtime is gone: sends are dropped
  std::atomic<bool> bell{false};  // a worker posted since the UI thread last looked
  std::mutex mutex;               // guards waker and closed
  std::function<void()> waker;    // wakes the event loop; called on a worker thread
  bool closed = false;            // the runtime is gone: never call the waker again
  // Notified (after `mutex` was taken once) by each worker when it finishes, for the runtime's
  // destructor, which waits for its workers on it.
  std::condition_variable finished_cv;

  // Ticks: one counter for all of the runtime's workers, bumped once per frame, so a frame
  // costs the same whatever the number of threads. Workers asleep in receive_for() that want
  // Ticks count themselves in `tick_waiters`; only then does a frame need to wake anyone.
  std::atomic<std::uint64_t> frames{0};
  std::atomic<int> tick_waiters{0};

  /// Wakes the loop once per batch: only the first ring after the UI thread looked calls the
  /// waker. Thread: any.
  void ring() {
    if (bell.exchange(true, std::memory_order_acq_rel)) return;
    std::lock_guard lock(mutex);
    if (!closed && waker) waker();
  }
};

}  // namespace cadence::detail
