// cadence/detail/thread_core.hpp: the state a worker shares with its runtime.
//
// Everything here is reached through shared_ptr, so a worker that outlives its window's runtime
// only ever touches memory that is still alive: its core, and the runtime's link, which the
// runtime marks closed (and whose waker it drops) before it goes.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <stop_token>
#include <string>
#include <type_traits>
#include <utility>

#include "cadence/detail/spsc_queue.hpp"
#include "cadence/detail/unique_function.hpp"
#include "cadence/payload.hpp"
#include "cadence/timer.hpp"

namespace cadence {
class CallbackContext;
}

namespace cadence::detail {

struct ThreadTableAccess;

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

/// A message from a worker to the UI thread.
struct WorkerMessage {
  enum class Kind : std::uint8_t { update, write_back, failed };
  Kind kind = Kind::update;
  Update update = Update::nothing;
  // Applies a write-back to the thread's writeback data (passed as void*; the runtime knows its
  // type from the Thread that created it). Runs on the UI thread.
  UniqueFunction<Update(void*, CallbackContext&)> apply;
  std::string failure;  // kind == failed: what the worker threw
};

struct ThreadCore {
  explicit ThreadCore(std::shared_ptr<RuntimeLink> l) : link(std::move(l)) {}

  std::shared_ptr<RuntimeLink> link;

  // Worker -> UI: lock-free. `drained` is set by the UI thread when it has emptied the queue and
  // cleared by the first message after that, which rings the runtime: one ring per batch.
  SpscQueue<WorkerMessage> to_ui;
  std::atomic<bool> drained{true};

  // UI -> worker: the app's Custom messages, rare, and the worker may block on them. Tick travels
  // as the runtime's frame counter and Terminate as the stop request, so neither can pile up.
  std::mutex inbox_mutex;
  std::condition_variable_any inbox_cv;
  std::deque<Payload> inbox;
  std::atomic<bool> waiting_for_ticks{false};  // the worker sleeps in receive_for() and wants Ticks
  std::stop_source stop;

  // Set once the worker function has returned and its sender is gone: nothing more will arrive.
  std::atomic<bool> finished{false};
  // Whether a stop had been asked for when the worker function returned (written by the worker
  // before `finished`, read by the UI thread after it): its outcome is "stopped", not "finished".
  bool stopped_at_return = false;

  // The progress lane: one slot, overwritten by the worker, taken by the UI thread at most once
  // per frame. `progress_fresh` is set by the first report since the UI last took the slot (that
  // report rings the runtime: one wake-up per frame at most, however often the worker reports).
  std::mutex progress_mutex;
  Payload progress;               // the newest report, while progress_waiting
  bool progress_waiting = false;  // under progress_mutex
  std::atomic<bool> progress_fresh{false};
  // The runtime's frame count when the thread started, so that its first Tick is the first
  // frame after that. Written before the worker starts.
  std::uint64_t first_frame = 0;

  /// Worker: queues a message and rings the runtime if this starts a batch.
  void post(WorkerMessage m) {
    to_ui.push(std::move(m));
    notify_ui();
  }

  /// Worker: after publishing something (a message, the finish; both seq_cst stores), makes sure
  /// the UI thread will look. Paired with ui_drained() (a seq_cst store of the flag, then a
  /// seq_cst look at the queue): in the single order of seq_cst operations one of the two comes
  /// second and sees the other, so either the UI sees what was published or this sees `drained`
  /// and rings. The flag is only read here, so a flood does not bounce its cache line between
  /// the threads.
  void notify_ui() {
    if (drained.load(std::memory_order_seq_cst) && drained.exchange(false, std::memory_order_acq_rel)) {
      link->ring();
    }
  }

  /// UI: marks the queue drained; false (and still marked busy) if something arrived meanwhile.
  bool ui_drained() {
    drained.store(true, std::memory_order_seq_cst);
    if (to_ui.empty()) return true;
    drained.store(false, std::memory_order_relaxed);
    return false;
  }

  /// Worker: overwrites the progress slot with `value` and rings the runtime if the UI has taken
  /// the last one. A value of the type the slot holds already is assigned into it, so a lane in
  /// use allocates nothing (the UI swaps its last value back into the slot when it takes one).
  template <class V>
  void report_progress(V&& value) {
    using D = std::decay_t<V>;
    {
      std::lock_guard lock(progress_mutex);
      D* held = progress.get<D>();
      if constexpr (std::is_move_assignable_v<D>) {
        if (held != nullptr) {
          *held = std::forward<V>(value);
        } else {
          progress = Payload::of(std::forward<V>(value));
        }
      } else {
        progress = Payload::of(std::forward<V>(value));
      }
      progress_waiting = true;
    }
    if (!progress_fresh.exchange(true, std::memory_order_seq_cst)) link->ring();
  }

  /// UI: swaps the newest report into `latest` (the old value goes back to the slot, to be
  /// overwritten); false when there is none.
  bool take_progress(Payload& latest) {
    if (!progress_fresh.exchange(false, std::memory_order_seq_cst)) return false;
    std::lock_guard lock(progress_mutex);
    if (!progress_waiting) return false;
    progress_waiting = false;
    std::swap(latest, progress);
    return true;
  }

  /// UI: delivers a Custom message to the worker and wakes it if it sleeps in receive_for().
  void deliver(Payload m) {
    {
      std::lock_guard lock(inbox_mutex);
      inbox.push_back(std::move(m));
    }
    inbox_cv.notify_all();
  }

  /// UI: wakes the worker if it sleeps in receive_for() waiting for a Tick.
  void wake_for_tick() {
    if (!waiting_for_ticks.load(std::memory_order_seq_cst)) return;
    std::lock_guard lock(inbox_mutex);  // the waiter checks its predicate under this lock
    inbox_cv.notify_all();
  }
};

}  // namespace cadence::detail
