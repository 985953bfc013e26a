// cadence/detail/thread_core.hpp: the state a worker shares with its runtime.
//
// Everything here is reached through shared_ptr, so a worker that outlives its window's runtime
// only ever touches memory that is still alive: its core, and the runtime's link, which the
// runtime marks closed (and whose waker it drops) before it goes. The channel to the UI and the
// progress slot are inline; the app's messages to the worker and the runtime link, with their
// mutexes and condition variables, are out of line, in runtime/src.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <stop_token>
#include <string>
#include <type_traits>
#include <utility>

#include "cadence/detail/spsc_queue.hpp"
#include "cadence/detail/unique_function.hpp"
#include "cadence/export.hpp"
#include "cadence/payload.hpp"
#include "cadence/timer.hpp"

namespace cadence {
class CallbackContext;
}

namespace cadence::detail {

struct ThreadTableAccess;

/// The runtime's doorbell, which workers ring when they post into an empty channel, and what
/// the runtime's workers share with it (runtime/src/runtime_link.hpp). Opaque here.
struct RuntimeLink;
/// A worker's blocking mailbox: the app's messages to it, under a mutex, with the condition
/// variable receive_for() sleeps on (runtime/src/thread_mailbox.hpp). Opaque here, so that apps
/// do not compile <mutex>, <condition_variable> and <deque> with every file that includes
/// thread.hpp.
struct ThreadMailbox;

/// The progress slot's lock: held for one assignment (worker) or one swap (UI thread) at a time.
/// Inline and without <mutex>: uncontended, a report costs one compare-exchange and one
/// exchange. A thread that finds it held sleeps in std::atomic::wait (a futex); unlock wakes a
/// sleeper only when one said it sleeps (state 2), so the common case touches no shared table.
class SlotLock {
 public:
  void lock() noexcept {
    std::uint8_t seen = 0;
    if (state_.compare_exchange_strong(seen, 1, std::memory_order_acquire)) return;
    if (seen != 2) seen = state_.exchange(2, std::memory_order_acquire);
    while (seen != 0) {
      state_.wait(2, std::memory_order_relaxed);
      seen = state_.exchange(2, std::memory_order_acquire);
    }
  }
  void unlock() noexcept {
    if (state_.exchange(0, std::memory_order_release) == 2) state_.notify_one();
  }
  /// Holds the lock for a scope, released also when what the scope does throws.
  class Held {
   public:
    explicit Held(SlotLock& lock) noexcept : lock_(lock) { lock_.lock(); }
    Held(const Held&) = delete;
    Held& operator=(const Held&) = delete;
    ~Held() { lock_.unlock(); }

   private:
    SlotLock& lock_;
  };

 private:
  std::atomic<std::uint8_t> state_{0};  // 0 free, 1 held, 2 held and someone may sleep on it
};

/// Rings the runtime's doorbell: wakes its event loop once per batch. Thread: any.
CADENCE_RUNTIME_API void ring(RuntimeLink& link);
/// False once the runtime is gone (sends are then dropped). Thread: any.
CADENCE_RUNTIME_API bool alive(const RuntimeLink& link) noexcept;

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

struct CADENCE_RUNTIME_API ThreadCore {
  explicit ThreadCore(std::shared_ptr<RuntimeLink> l);
  ThreadCore(const ThreadCore&) = delete;
  ThreadCore& operator=(const ThreadCore&) = delete;
  ~ThreadCore();

  std::shared_ptr<RuntimeLink> link;

  // Worker -> UI: lock-free, inline here. `drained` is set by the UI thread when it has emptied
  // the queue and cleared by the first message after that, which rings the runtime: one ring
  // per batch.
  SpscQueue<WorkerMessage> to_ui;
  std::atomic<bool> drained{true};

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
  SlotLock progress_lock;
  Payload progress;               // the newest report, while progress_waiting
  bool progress_waiting = false;  // under progress_lock
  std::atomic<bool> progress_fresh{false};
  // The runtime's frame count when the thread started, so that its first Tick is the first
  // frame after that. Written before the worker starts.
  std::uint64_t first_frame = 0;

  // UI -> worker: the app's Custom messages, rare, which the worker may block on. Tick travels
  // as the runtime's frame counter and Terminate as the stop request, so neither can pile up.
  std::unique_ptr<ThreadMailbox> mailbox;

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
      ring(*link);
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
      const SlotLock::Held held_lock(progress_lock);  // released if the value's copy throws
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
    if (!progress_fresh.exchange(true, std::memory_order_seq_cst)) ring(*link);
  }

  /// UI: swaps the newest report into `latest` (the old value goes back to the slot, to be
  /// overwritten); false when there is none.
  bool take_progress(Payload& latest);
  /// UI: delivers a Custom message to the worker and wakes it if it sleeps in receive_for().
  void deliver(Payload m);
  /// UI: wakes the worker if it sleeps in receive_for() waiting for a Tick.
  void wake_for_tick();
};

}  // namespace cadence::detail
