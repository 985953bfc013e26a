// RuntimeLink: what a runtime shares with its workers, behind the shared_ptr each ThreadCore
// holds, so that a worker that outlives the runtime only ever touches memory that is still
// alive. Private to the library; thread_core.hpp only names it.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>

#include "cadence/detail/thread_core.hpp"
#include "cadence/time_source.hpp"
#include "redraw_request.hpp"

namespace cadence::detail {

/// The runtime's doorbell: rung by workers when they post into an empty channel.
struct RuntimeLink {
  explicit RuntimeLink(TimeSource s) : source(std::move(s)), redraw(source.kind()) {}

  const TimeSource source;        // the runtime's, for requests made off the UI thread
  const std::thread::id ui_thread = std::this_thread::get_id();  // the runtime's maker
  RedrawRequest redraw;           // the soonest "draw again at" instant asked for
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
    wake();
  }
  /// Calls the waker (not once the runtime is gone). Thread: any.
  void wake() {
    std::lock_guard lock(mutex);
    if (!closed && waker) waker();
  }
  /// Asks for a frame at or after `at`, from any thread. Off the UI thread it wakes the loop
  /// when the request is sooner than what the loop sleeps for, once per look (the UI thread
  /// looks before it sleeps). Errors: closed once the runtime is gone; clock_mismatch for an
  /// instant of another clock.
  /// The same, `delay` (clamped at 0) from the time source's now. The source is read under
  /// `mutex` and never once the runtime is gone: the clock behind it need only outlive the
  /// runtime, not every handle. Thread: any. Errors: closed.
  Status request_redraw_after(Duration delay) {
    Instant at;
    {
      std::lock_guard lock(mutex);
      if (closed) return Error{Errc::closed, "the window's runtime is gone; there is nothing to redraw"};
      at = source.now() + std::max(delay, Duration::zero());
    }
    return request_redraw(at);
  }
  Status request_redraw(Instant at) {
    if (!alive.load(std::memory_order_acquire)) {
      return Error{Errc::closed, "the window's runtime is gone; there is nothing to redraw"};
    }
    const Result<bool> sooner = redraw.ask(at);
    if (!sooner) return sooner.error();
    if (*sooner && std::this_thread::get_id() != ui_thread && redraw.claim_wake()) wake();
    return {};
  }
};

}  // namespace cadence::detail
