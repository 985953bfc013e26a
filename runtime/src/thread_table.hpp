// ThreadTable: the background threads of one runtime. WindowRuntime owns one and adds the frame
// rules around it. Private to the library.
#pragma once

#include <cstdint>
#include <memory>
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
};

struct ThreadLimits {
  std::uint32_t messages_per_frame;
  std::uint32_t messages_per_thread;
  Duration join_deadline;
};

class ThreadTable {
 public:
  ThreadTable(std::shared_ptr<RuntimeLink> link, ThreadLimits limits);
  /// Asks every worker to stop and joins them, waiting at most the join deadline in all;
  /// workers still running then are detached (they can no longer reach the runtime).
  ~ThreadTable();

  /// Starts the worker on a new std::thread. Errors: already_exists; resource when the system
  /// refuses a thread.
  Status start(ThreadId id, Thread thread);
  /// Requests a stop (the worker sees Terminate and its stop_token). The thread is removed when
  /// it finishes. Errors: not_found.
  Status stop(ThreadId id);
  /// Queues a Custom message. Errors: not_found; closed when the worker has finished.
  Status send(ThreadId id, Payload payload);
  bool contains(ThreadId id) const { return index_.contains(id); }
  std::size_t size() const noexcept { return index_.size(); }
  /// The writeback data of a thread if it is of type `type`, else nullptr.
  void* writeback(ThreadId id, const std::type_info& type) const;

  /// The frame's Tick, then the workers' messages within the budgets. Removes finished threads
  /// whose messages have all been delivered.
  void run(CallbackContext& context, ChangeSet& changes);
  /// True while messages wait: the loop should not sleep.
  bool pending() const noexcept;
  /// Sets the function that wakes the event loop when a worker posts. Thread: UI.
  void set_waker(std::function<void()> waker);

 private:
  struct Entry {
    ThreadId id;
    std::shared_ptr<ThreadCore> core;
    std::thread thread;
    std::shared_ptr<void> writeback;
    const std::type_info* type = nullptr;
  };

  /// Delivers up to `budget` messages of one thread; returns how many.
  std::uint32_t drain(Entry& e, std::uint32_t budget, CallbackContext& context, ChangeSet& changes);
  void remove_at(std::size_t i);

  std::shared_ptr<RuntimeLink> link_;
  ThreadLimits limits_;
  std::vector<std::unique_ptr<Entry>> entries_;
  std::unordered_map<ThreadId, Entry*> index_;
  std::size_t rotation_ = 0;  // which thread drains first this frame
  bool carry_over_ = false;   // messages were left for the next frame
};

}  // namespace cadence::detail
