// Baseline: what azul does. Timers sit in a vector; every frame looks at every timer to see
// whether it is due. Schedule and cancel are O(1) (cancel swaps the last timer into the hole);
// a frame and next_fire are O(n).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "baselines/slot_table.hpp"

namespace cadence::bench {

class VectorScanQueue {
 public:
  QueueId schedule(Ticks after, Token token) {
    const std::uint32_t slot = slots_.allocate();
    slots_[slot] = static_cast<std::uint32_t>(timers_.size());
    timers_.push_back(Timer{deadline_after(now_, after.count()), token, slot});
    return slots_.id(slot);
  }

  bool cancel(QueueId id) {
    const std::uint32_t slot = slots_.find(id);
    if (slot == slots_.kNone) return false;
    remove_at(slots_[slot]);
    return true;
  }

  void advance(Ticks now, std::vector<Token>& fired) {
    now_ = std::max(now_, std::min(now.count(), kLastTick.count()));
    for (std::size_t i = 0; i < timers_.size();) {
      if (timers_[i].deadline <= now_) {
        fired.push_back(timers_[i].token);
        remove_at(static_cast<std::uint32_t>(i));  // the last timer moves into i: look again
      } else {
        ++i;
      }
    }
  }

  std::optional<Ticks> next_fire() {
    if (timers_.empty()) return std::nullopt;
    std::int64_t best = timers_[0].deadline;
    for (const Timer& t : timers_) best = std::min(best, t.deadline);
    return Ticks{best};
  }

 private:
  struct Timer {
    std::int64_t deadline;
    Token token;
    std::uint32_t slot;
  };
  void remove_at(std::uint32_t pos) {
    const std::uint32_t slot = timers_[pos].slot;
    timers_[pos] = timers_.back();
    slots_[timers_[pos].slot] = pos;
    timers_.pop_back();
    slots_.release(slot);
  }

  std::vector<Timer> timers_;
  SlotTable<std::uint32_t> slots_;  // position in timers_
  std::int64_t now_ = 0;
};

}  // namespace cadence::bench
