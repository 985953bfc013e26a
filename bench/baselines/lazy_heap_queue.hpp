// Baseline: a binary heap with lazy deletion, the seed-002 design as most apps would write it
// on the standard library (std::push_heap / std::pop_heap, which is what std::priority_queue
// does inside). Cancel marks a slot; the heap entry is skipped when it surfaces. To be fair to
// it, the heap is rebuilt without cancelled entries once they outnumber live ones, so memory
// stays bounded under schedule/cancel churn.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "baselines/slot_table.hpp"

namespace cadence::bench {

class LazyHeapQueue {
 public:
  QueueId schedule(Ticks after, Token token) {
    const std::uint32_t slot = slots_.allocate();
    slots_[slot] = token;
    heap_.push_back(Item{deadline_after(now_, after.count()), seq_++, slot, slots_.generation(slot)});
    std::push_heap(heap_.begin(), heap_.end(), Later{});
    ++live_;
    return slots_.id(slot);
  }

  bool cancel(QueueId id) {
    const std::uint32_t slot = slots_.find(id);
    if (slot == slots_.kNone) return false;
    slots_.release(slot);
    --live_;
    if (heap_.size() > 64 && heap_.size() > 2 * live_) compact();
    return true;
  }

  void advance(Ticks now, std::vector<Token>& fired) {
    now_ = std::max(now_, std::min(now.count(), kLastTick.count()));
    while (!heap_.empty() && heap_.front().deadline <= now_) {
      const Item top = heap_.front();
      std::pop_heap(heap_.begin(), heap_.end(), Later{});
      heap_.pop_back();
      if (slots_.live(top.slot, top.generation)) {
        fired.push_back(slots_[top.slot]);
        slots_.release(top.slot);
        --live_;
      }
    }
  }

  std::optional<Ticks> next_fire() {
    while (!heap_.empty()) {
      const Item& top = heap_.front();
      if (slots_.live(top.slot, top.generation)) return Ticks{top.deadline};
      std::pop_heap(heap_.begin(), heap_.end(), Later{});
      heap_.pop_back();
    }
    return std::nullopt;
  }

 private:
  struct Item {
    std::int64_t deadline;
    std::uint64_t seq;
    std::uint32_t slot;
    std::uint32_t generation;
  };
  struct Later {
    bool operator()(const Item& a, const Item& b) const {
      return a.deadline != b.deadline ? a.deadline > b.deadline : a.seq > b.seq;
    }
  };
  void compact() {
    std::erase_if(heap_, [&](const Item& i) { return !slots_.live(i.slot, i.generation); });
    std::make_heap(heap_.begin(), heap_.end(), Later{});
  }

  std::vector<Item> heap_;
  SlotTable<Token> slots_;
  std::int64_t now_ = 0;
  std::uint64_t seq_ = 0;
  std::size_t live_ = 0;
};

}  // namespace cadence::bench
