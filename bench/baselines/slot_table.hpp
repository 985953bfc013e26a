// Generation-tagged slots for the baseline queues: the id scheme every queue here uses, so that a
// stale id is refused the same way everywhere. Slot data lives in `Data`.
#pragma once

#include <cstdint>
#include <vector>

#include "cadence/timer_queue.hpp"

namespace cadence::bench {

template <class Data>
class SlotTable {
 public:
  static constexpr std::uint32_t kNone = ~std::uint32_t{0};

  /// A free slot, marked live.
  std::uint32_t allocate() {
    std::uint32_t slot;
    if (!free_.empty()) {
      slot = free_.back();
      free_.pop_back();
    } else {
      slot = static_cast<std::uint32_t>(slots_.size());
      slots_.push_back(Slot{});
    }
    slots_[slot].live = true;
    return slot;
  }
  QueueId id(std::uint32_t slot) const { return QueueId{(std::uint64_t{slots_[slot].generation} << 32) | slot}; }
  /// The slot `id` names if it is live, else kNone.
  std::uint32_t find(QueueId id) const {
    const auto slot = static_cast<std::uint32_t>(id.value);
    if (slot >= slots_.size()) return kNone;
    const Slot& s = slots_[slot];
    return s.live && s.generation == static_cast<std::uint32_t>(id.value >> 32) ? slot : kNone;
  }
  bool live(std::uint32_t slot, std::uint32_t generation) const {
    return slots_[slot].live && slots_[slot].generation == generation;
  }
  std::uint32_t generation(std::uint32_t slot) const { return slots_[slot].generation; }
  void release(std::uint32_t slot) {
    slots_[slot].live = false;
    ++slots_[slot].generation;
    free_.push_back(slot);
  }
  Data& operator[](std::uint32_t slot) { return slots_[slot].data; }

 private:
  struct Slot {
    Data data{};
    std::uint32_t generation = 1;
    bool live = false;
  };
  std::vector<Slot> slots_;
  std::vector<std::uint32_t> free_;
};

}  // namespace cadence::bench
