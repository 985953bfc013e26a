// cadence/detail/heap_core.hpp: the heap queue itself, behind HeapTimerQueue
// (heap_timer_queue.hpp) and the runtime's timer table. Not part of the API: use
// HeapTimerQueue.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "cadence/export.hpp"
#include "cadence/timeout_heap.hpp"
#include "cadence/timer_queue.hpp"

namespace cadence::detail {

class CADENCE_RUNTIME_API HeapCore {
 public:
  explicit HeapCore(Ticks start = Ticks{0});

  QueueId schedule(Ticks after, Token token);
  bool cancel(QueueId id);
  AdvanceReport advance(Ticks now, std::vector<Token>& fired);
  Ticks now() const { return Ticks{now_ms_}; }
  std::size_t active_count() const { return heap_.live_count(); }
  std::optional<Ticks> next_fire();
  const TimeoutHeap& heap() const noexcept { return heap_; }
  /// Replaces `out` with the tokens due at next_fire(), in fire order, and returns true when
  /// there are at most `max`; else returns false (`out` is then unspecified), and only a
  /// schedule, cancel or fire changes that. Walks the heap from the root through the entries
  /// that share its deadline: O(max).
  bool list_next(std::vector<Token>& out, std::size_t max);

 private:
  TimeoutHeap heap_;
  std::int64_t now_ms_;
};

}  // namespace cadence::detail
