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
  std::mutex mutex;               // guards waker, closed and waker_calls
  std::function<void()> waker;    // wakes the event loop; called on a worker thread
  bool closed = false;            // the runtime is gone: never call the waker again
  int waker_calls = 0;            // calls of `waker` in progress, on any thread: it is not replaced meanwhile
  std::condition_variable waker_idle;  // notified when waker_calls drops to 0
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
  /// Calls the waker (not once the runtime is gone), without holding `mutex`: a waker may ask
  /// other runtimes for frames, and their wakers this one, on this thread or another, in any
  /// order. A waker this thread is running already is not entered again: it is called once
  /// more when it returns (the loop may have looked since it was called). Thread: any.
  void wake() {
    std::unique_lock lock(mutex);
    if (closed || !waker) return;
    if (Waking* running = waking_here()) {
      running->again = true;
      return;
    }
    ++waker_calls;
    lock.unlock();
    Waking frame(*this);
    do {
      frame.again = false;
      waker();  // `waker` stays in place while waker_calls > 0 (take_waker waits)
    } while (frame.again);
  }
  /// UI thread: replaces the waker with `next` (closing the link first when `close`), once no
  /// call of it is in progress; returns the old one, for the caller to destroy after the lock.
  /// From inside this link's own waker (which must not call the runtime) the waker stays and
  /// `next` comes back: a running waker is never destroyed under itself.
  std::function<void()> take_waker(std::function<void()> next, bool close) {
    std::unique_lock lock(mutex);
    if (close) closed = true;  // no call starts from here on
    if (waking_here()) return next;
    waker_idle.wait(lock, [this] { return waker_calls == 0; });
    waker.swap(next);
    return next;
  }
  /// The latest instant the runtime has used (frames, changes): what "from now" counts from
  /// when the source stepped back, as for timers. Raised by the UI thread.
  void raise_floor(Instant t) {
    const std::int64_t ns = t.since_origin().count();
    std::int64_t seen = floor_ns.load(std::memory_order_relaxed);
    while (ns > seen && !floor_ns.compare_exchange_weak(seen, ns, std::memory_order_release)) {
    }
  }
  /// The instant `delay` (clamped at 0) from now: the source's reading, or the latest instant
  /// the runtime used if the source is behind it. The source is read under `mutex` and never
  /// once the runtime is gone: the clock behind it need only outlive the runtime, not every
  /// handle. Thread: any (also a waker). Errors: closed.
  Result<Instant> instant_after(Duration delay) {
    std::lock_guard lock(mutex);
    if (closed) return Error{Errc::closed, "the window's runtime is gone; there is nothing to redraw"};
    const Instant floor = Instant::at(source.kind(), Duration{floor_ns.load(std::memory_order_acquire)});
    return std::max(source.now(), floor) + std::max(delay, Duration::zero());
  }
  /// Asks for a frame `delay` from now (instant_after). Thread: any. Errors: closed.
  Status request_redraw_after(Duration delay) {
    const Result<Instant> at = instant_after(delay);
    if (!at) return at.error();
    return request_redraw(*at);
  }
  /// Asks for a frame at or after `at`, from any thread. Off the UI thread it wakes the loop
  /// when the request is sooner than what the loop sleeps for, once per look (the UI thread
  /// looks before it sleeps): from inside this runtime's own waker, once that returns.
  /// Errors: closed once the runtime is gone; clock_mismatch for an instant of another clock.
  Status request_redraw(Instant at) {
    if (!alive.load(std::memory_order_acquire)) {
      return Error{Errc::closed, "the window's runtime is gone; there is nothing to redraw"};
    }
    const Result<bool> sooner = redraw.ask(at);
    if (!sooner) return sooner.error();
    if (*sooner && std::this_thread::get_id() != ui_thread && redraw.sooner_than_sleep(at) && redraw.claim_wake()) {
      wake();
    }
    return {};
  }

 private:
  /// The wakers this thread is running, innermost first: one frame per wake() on the stack, so
  /// that a waker that asks runtime B, whose waker asks this runtime, is not entered twice.
  struct Waking {
    explicit Waking(RuntimeLink& link) noexcept : link_(link), outer_(top()) { top() = this; }
    Waking(const Waking&) = delete;
    Waking& operator=(const Waking&) = delete;
    ~Waking() {  // also when the waker throws: the count must come down, or take_waker waits for ever
      top() = outer_;
      std::lock_guard lock(link_.mutex);
      if (--link_.waker_calls == 0) link_.waker_idle.notify_all();
    }
    static Waking*& top() noexcept {
      thread_local Waking* innermost = nullptr;
      return innermost;
    }
    RuntimeLink& link_;
    Waking* outer_;
    bool again = false;  // a wake was asked for while it ran: call it once more
  };
  Waking* waking_here() const noexcept {
    for (Waking* w = Waking::top(); w != nullptr; w = w->outer_) {
      if (&w->link_ == this) return w;
    }
    return nullptr;
  }
};

}  // namespace cadence::detail
