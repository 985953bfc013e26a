// cadence/heap_timer_queue.hpp: the TimerQueue contract on a binary min-heap.
//
// The alternative to TimerWheel: O(log n) schedule and cancel, exact ordering, no fixed
// footprint. A cancelled timer's entry stays in the heap until it reaches the root, so memory
// follows scheduled timers until they drain. Every rule of TimerQueue (clamping, tie order, stale
// ids, a clock that goes backwards) holds exactly as for the wheel; the tests run both against
// one reference model.
//
//     #include <cadence/heap_timer_queue.hpp>
//     cadence::HeapTimerQueue queue;
//     cadence::QueueId id = queue.schedule(cadence::Ticks{250}, 7);
#pragma once

#include "cadence/detail/heap_core.hpp"
#include "cadence/timer_queue.hpp"

namespace cadence {

/// For every member: Thread: one thread at a time, like a standard container.
/// Where: anywhere; it calls no code of the caller's, so nothing re-enters it.
/// Errors: none; cancel() is false for an id it cannot cancel.
/// Cost: schedule(), cancel(): O(log n); now(), active_count(), heap(): O(1).
class HeapTimerQueue : private detail::HeapCore {
 public:
  /// An empty queue whose time starts at `start` (clamped to [0, kLastTick]).
  explicit HeapTimerQueue(Ticks start = Ticks{0}) : HeapCore(start) {}

  /// Cost: advance() O((fired + cancelled roots) * log n); next_fire() O(1) + O(log n) per cancelled root.
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
