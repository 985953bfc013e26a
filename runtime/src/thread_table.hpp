// ThreadTable: the background threads of one runtime. WindowRuntime owns one and adds the frame
// rules around it. Private to the library.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <typeinfo>
#include <unordered_map>
#include <vector>

#include "cadence/change_set.hpp"
#include "cadence/detail/thread_core.hpp"
#include "cadence/thread.hpp"
#include "cadence/window_runtime.hpp"

namespace cadence::detail {

/// Opens Thread for the table (its body and writeback data are private to the app).
struct ThreadTableAccess {
  static std::shared_ptr<void>& writeback(Thread& t) { return t.writeback_; }
  static const std::type_info& type(const Thread& t) { return *t.type_; }
  static UniqueFunction<void(ThreadCore&)>& body(Thread& t) { return t.body_; }
  static UniqueFunction<Update(void*, const ThreadOutcome&, CallbackContext&)>& finish(Thread& t) {
    return t.finish_;
  }
};

struct ThreadLimits {
  std::uint32_t messages_per_frame;
  std::uint32_t messages_per_thread;
  Duration join_deadline;
};

class ThreadTable {
 public:
  struct Entry;

  ThreadTable(std::shared_ptr<RuntimeLink> link, ThreadLimits limits);
  /// shutdown(), then destroys what is left.
  ~ThreadTable();
  ThreadTable(const ThreadTable&) = delete;
  ThreadTable& operator=(const ThreadTable&) = delete;

  /// Closes the link (no send reaches the runtime, no waker is called again), asks every worker
  /// to stop and joins them, waiting at most the join deadline in all (Duration::max(): for as
  /// long as they take; <= 0: not at all); workers still running then are detached: they hold
  /// their own core and can no longer reach the runtime. Idempotent.
  void shutdown();
  /// Hands over every thread's entry (writeback data, undelivered messages) and leaves the table
  /// empty, for the caller to destroy: their destructors are app code, which may call the
  /// runtime again. Call after shutdown().
  [[nodiscard]] std::vector<std::unique_ptr<Entry>> release();

  /// Starts the worker on a new std::thread. Errors: already_exists; resource when the system
  /// refuses a thread.
  Status start(ThreadId id, Thread thread);
  /// Requests a stop (the worker sees Terminate and its stop_token). The thread is removed when
  /// it finishes. Errors: not_found.
  Status stop(ThreadId id);
  /// Queues a Custom message. Errors: not_found; closed when the worker has finished.
  Status send(ThreadId id, Payload payload);
  bool contains(ThreadId id) const { return index_.contains(id); }
  /// True for a thread whose finish callback runs now (it is removed right after): its id may
  /// be started again.
  bool finishing(ThreadId id) const;
  std::size_t size() const noexcept { return index_.size(); }
  /// The writeback data of a thread if it is of type `type`, else nullptr.
  void* writeback(ThreadId id, const std::type_info& type) const;
  /// The newest progress value the UI has taken from a thread (empty before the first).
  const ProgressValue* progress(ThreadId id) const;
  /// For entries handed over by release() while the runtime is destroyed: delivers what each
  /// worker sent (no budget) and runs its finish callback with `abandoned`, in the order given.
  static void abandon(std::vector<std::unique_ptr<Entry>>& entries, CallbackContext& context, ChangeSet& changes);

  /// The frame's Tick, then the workers' messages within the budgets. Removes finished threads
  /// whose messages have all been delivered.
  void run(CallbackContext& context, ChangeSet& changes);
  /// True while messages wait: the loop should not sleep.
  bool pending() const noexcept;
  /// Sets the function that wakes the event loop when a worker posts. Thread: UI.
  void set_waker(std::function<void()> waker);

 private:
  /// Delivers up to `budget` messages of one thread; returns how many.
  static std::uint32_t drain(Entry& e, std::uint32_t budget, CallbackContext& context, ChangeSet& changes);
  /// Takes the newest value of an entry's progress lane, if a new one came: a redraw, and one
  /// delivery counted. True when it took one.
  static bool take_progress(Entry& e, ChangeSet& changes);
  /// Runs the finish callback of an entry, with the outcome `kind` (or failed, if its worker
  /// threw).
  static void finish(Entry& e, ThreadOutcome::Kind kind, CallbackContext& context, ChangeSet& changes);
  /// Removes entry `i` and hands it back, for the caller to destroy once done with the table.
  [[nodiscard]] std::unique_ptr<Entry> remove_at(std::size_t i);

  std::shared_ptr<RuntimeLink> link_;
  ThreadLimits limits_;
  std::vector<std::unique_ptr<Entry>> entries_;
  std::unordered_map<ThreadId, Entry*> index_;
  std::size_t rotation_ = 0;  // which thread drains first this frame
  bool carry_over_ = false;   // messages were left for the next frame
  bool shut_down_ = false;
};

struct ThreadTable::Entry {
  ThreadId id;
  std::shared_ptr<ThreadCore> core;
  std::thread thread;
  std::shared_ptr<void> writeback;
  const std::type_info* type = nullptr;
  UniqueFunction<Update(void*, const ThreadOutcome&, CallbackContext&)> on_finish;
  std::optional<std::string> failure;  // what the worker threw, once its message was delivered
  ProgressValue progress;              // the newest progress value taken
  bool finishing = false;              // its finish callback runs: removed right after
};

}  // namespace cadence::detail
