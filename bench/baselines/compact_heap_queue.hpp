// Baseline: the tightest lazy-deletion heap an app would write for connection timeouts. A heap
// entry is 16 bytes (deadline, slot, the slot's generation when scheduled); a cancel only bumps
// the slot's generation, and the heap is rebuilt without dead entries once they outnumber the
// live ones. Timers due at the same tick fire in no particular order (std::push_heap is not
// stable), which a timeout heap does not need; the cadence queues keep scheduling order.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "baselines/slot_table.hpp"

namespace cadence::bench {

class CompactHeapQueue {
 public:
  QueueId schedule(Ticks after, Token token) {
    const std::uint32_t slot = slots_.allocate();
    slots_[slot] = token;
    heap_.push_back(Entry{deadline_after(now_, after.count()), slot, slots_.generation(slot)});
    std::push_heap(heap_.begin(), heap_.end(), Later{});
    return slots_.id(slot);
  }

  bool cancel(QueueId id) {
    const std::uint32_t slot = slots_.find(id);
    if (slot == slots_.kNone) return false;
    slots_.release(slot);
    ++dead_;
    if (dead_ > heap_.size() - dead_) compact();
    return true;
  }

  void advance(Ticks now, std::vector<Token>& fired) {
    now_ = std::max(now_, std::min(now.count(), kLastTick.count()));
    while (!heap_.empty() && heap_.front().deadline <= now_) {
      const Entry top = pop();
      if (slots_.live(top.slot, top.generation)) {
        fired.push_back(slots_[top.slot]);
        slots_.release(top.slot);
      } else {
        --dead_;
      }
    }
  }

  std::optional<Ticks> next_fire() {
    while (!heap_.empty()) {
      const Entry& top = heap_.front();
      if (slots_.live(top.slot, top.generation)) return Ticks{top.deadline};
      pop();
      --dead_;
    }
    return std::nullopt;
  }

 private:
  struct Entry {
    std::int64_t deadline;
    std::uint32_t slot;
    std::uint32_t generation;
  };
  static_assert(sizeof(Entry) == 16);
  struct Later {
    bool operator()(const Entry& a, const Entry& b) const { return a.deadline > b.deadline; }
  };
  Entry pop() {
    std::pop_heap(heap_.begin(), heap_.end(), Later{});
    const Entry top = heap_.back();
    heap_.pop_back();
    return top;
  }
  void compact() {
    std::erase_if(heap_, [&](const Entry& e) { return !slots_.live(e.slot, e.generation); });
    std::make_heap(heap_.begin(), heap_.end(), Later{});
    dead_ = 0;
  }

  std::vector<Entry> heap_;
  SlotTable<Token> slots_;
  std::int64_t now_ = 0;
  std::size_t dead_ = 0;  // entries in heap_ whose timer was cancelled
};

}  // namespace cadence::bench
