// RuntimeLink: what a runtime shares with its workers, behind the shared_ptr each ThreadCore
// holds, so that a worker that outlives the runtime only ever touches memory that is still
// alive. Private to the library; thread_core.hpp only names it.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <limits>
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
  std::atomic<std::int64_t> floor_ns{std::numeric_limits<std::int64_t>::min()};  // raise_floor()
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
  /// Calls the waker (not once the runtime is gone), under `mutex`. Thread: any.
  void wake() {
    std::lock_guard lock(mutex);
    if (closed || !waker) return;
    waking() = this;  // a request the waker makes itself knows the lock is held
    waker();
    waking() = nullptr;
  }
  /// The latest instant the runtime has used (frames, changes): what "from now" counts from
  /// when the source stepped back, as for timers. Raised by the UI thread.
  void raise_floor(Instant t) {
    const std::int64_t ns = t.since_origin().count();
    std::int64_t seen = floor_ns.load(std::memory_order_relaxed);
    while (ns > seen && !floor_ns.compare_exchange_weak(seen, ns, std::memory_order_release)) {
    }
  }
  /// Asks for a frame `delay` (clamped at 0) from now: the source's reading, or the latest
  /// instant the runtime used if the source is behind it. The source is read under `mutex` and
  /// never once the runtime is gone: the clock behind it need only outlive the runtime, not
  /// every handle. Thread: any (also the waker). Errors: closed.
  Status request_redraw_after(Duration delay) {
    Instant at;
    {
      std::unique_lock lock(mutex, std::defer_lock);
      if (waking() != this) lock.lock();  // else the waker asks: this thread holds it
      if (closed) return Error{Errc::closed, "the window's runtime is gone; there is nothing to redraw"};
      const Instant floor = Instant::at(source.kind(), Duration{floor_ns.load(std::memory_order_acquire)});
      at = std::max(source.now(), floor) + std::max(delay, Duration::zero());
    }
    return request_redraw(at);
  }
  /// Asks for a frame at or after `at`, from any thread. Off the UI thread it wakes the loop
  /// when the request is sooner than what the loop sleeps for, once per look (the UI thread
  /// looks before it sleeps); not from inside the waker, which is waking it. Errors: closed
  /// once the runtime is gone; clock_mismatch for an instant of another clock.
  Status request_redraw(Instant at) {
    if (!alive.load(std::memory_order_acquire)) {
      return Error{Errc::closed, "the window's runtime is gone; there is nothing to redraw"};
    }
    const Result<bool> sooner = redraw.ask(at);
    if (!sooner) return sooner.error();
    if (*sooner && std::this_thread::get_id() != ui_thread && waking() != this && redraw.sooner_than_sleep(at) &&
        redraw.claim_wake()) {
      wake();
    }
    return {};
  }

 private:
  // The link whose waker this thread is running, if any.
  static const RuntimeLink*& waking() {
    thread_local const RuntimeLink* link = nullptr;
    return link;
  }

 public:
};

}  // namespace cadence::detail
