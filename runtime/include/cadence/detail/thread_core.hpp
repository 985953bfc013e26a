// cadence/detail/thread_core.hpp: the state a worker shares with its runtime.
//
// Everything here is reached through shared_ptr, so a worker that outlives its window's runtime
// only ever touches memory that is still alive: its core, and the runtime's link, which the
// runtime marks closed (and whose waker it drops) before it goes. The channel to the UI and the
// progress lane are inline; the app's messages to the worker and the runtime link, with their
// mutexes and condition variables, are out of line, in runtime/src.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <stop_token>
#include <string>
#include <type_traits>
#include <utility>

#include "cadence/detail/progress_lane.hpp"
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

  // The progress lane: overwritten by the worker, taken by the UI thread at most once per frame;
  // the first report since the UI last took one rings the runtime (one wake-up per frame at most,
  // however often the worker reports).
  ProgressLane progress;
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

  /// Worker: posts a job's result (Thread::job), the last thing its worker sends; unlike the
  /// sends, also once the runtime has begun to close. A runtime that is being destroyed joins
  /// the worker and delivers what it posted before the abandoned outcome, so the value is not
  /// lost; one let go at the join deadline drops it with this core.
  void post_result(WorkerMessage m);

  /// Worker: makes `value` the newest progress report and rings the runtime if the UI has
  /// taken the last one (progress_lane.hpp says what it costs).
  template <class V>
  void report_progress(V&& value) {
    if (progress.report(std::forward<V>(value))) ring(*link);
  }

  /// UI: delivers a Custom message to the worker and wakes it if it sleeps in receive_for().
  void deliver(Payload m);
  /// UI: asks the worker to stop (its stop token, Terminate) and wakes it if it sleeps in
  /// receive_for(), through the mailbox's own condition variable: no stop_callback, whose
  /// destructor waits on a semaphore that loses wake-ups in MinGW's standard library.
  void request_stop();
  /// UI: wakes the worker if it sleeps in receive_for() waiting for a Tick.
  void wake_for_tick();
};

}  // namespace cadence::detail
