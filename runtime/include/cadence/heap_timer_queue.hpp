// cadence/heap_timer_queue.hpp: the TimerQueue contract on a binary min-heap.
//
// The alternative to TimerWheel: O(log n) schedule and cancel, exact ordering, no fixed
// footprint. It wraps TimeoutHeap; a cancelled timer's entry stays in the heap (lazily deleted)
// until it reaches the root, so memory follows scheduled timers until they drain. Every rule of
// TimerQueue (clamping, tie order, stale ids, a clock that goes backwards) holds exactly as for
// the wheel; the tests run both against one reference model.
//
//     #include <cadence/heap_timer_queue.hpp>
//     cadence::HeapTimerQueue queue;
//     cadence::QueueId id = queue.schedule(cadence::Ticks{250}, 7);
//
// Thread: one thread at a time. Re-entry: none (it calls no code of the caller's).
#pragma once

#include "cadence/export.hpp"
#include "cadence/timeout_heap.hpp"
#include "cadence/timer_queue.hpp"

namespace cadence {
namespace detail {
class TableQueue;
}

class CADENCE_RUNTIME_API HeapTimerQueue final : public TimerQueue {
 public:
  /// An empty queue whose time starts at `start` (clamped to [0, kLastTick]).
  explicit HeapTimerQueue(Ticks start = Ticks{0});

  /// O(log n).
  QueueId schedule(Ticks after, Token token) override;
  /// O(log n); the entry is dropped when it reaches the root.
  bool cancel(QueueId id) override;
  /// O((fired + cancelled roots) * log n).
  AdvanceReport advance(Ticks now, std::vector<Token>& fired) override;
  Ticks now() const override { return Ticks{now_ms_}; }
  std::size_t active_count() const override { return heap_.live_count(); }
  /// O(1) after dropping cancelled roots.
  std::optional<Ticks> next_fire() override;
  /// The heap underneath, for inspection (size() includes cancelled entries not yet dropped).
  const TimeoutHeap& heap() const noexcept { return heap_; }

 private:
  friend class detail::TableQueue;
  /// For the runtime's timer table: replaces `out` with the tokens due at next_fire(), in fire
  /// order, when there are at most `max`; else says they are not listed (`out` is then
  /// unspecified) and only a schedule, cancel or fire changes that. Walks the heap from the
  /// root through the entries that share its deadline: O(max).
  detail::Peek peek_next(std::vector<Token>& out, std::size_t max);

  TimeoutHeap heap_;
  std::int64_t now_ms_;
};

}  // namespace cadence
