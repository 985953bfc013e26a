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

#include "cadence/detail/heap_core.hpp"
#include "cadence/timer_queue.hpp"

namespace cadence {

class HeapTimerQueue : private detail::HeapCore {
 public:
  /// An empty queue whose time starts at `start` (clamped to [0, kLastTick]).
  explicit HeapTimerQueue(Ticks start = Ticks{0}) : HeapCore(start) {}

  /// schedule(), cancel(): O(log n); a cancelled entry is dropped when it reaches the root.
  /// advance(): O((fired + cancelled roots) * log n). next_fire(): O(1) after dropping
  /// cancelled roots. now(), active_count(): O(1).
  using HeapCore::active_count;
  using HeapCore::advance;
  using HeapCore::cancel;
  using HeapCore::next_fire;
  using HeapCore::now;
  using HeapCore::schedule;
  /// The heap underneath, for inspection (size() includes cancelled entries not yet dropped).
  using HeapCore::heap;
};

static_assert(TimerQueue<HeapTimerQueue>);

}  // namespace cadence
