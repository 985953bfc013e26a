// Baseline: std::multimap ordered by deadline, the "just use an ordered map" choice. Equal keys
// keep insertion order, so ties fire in schedule order; cancel erases through a kept iterator.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "baselines/slot_table.hpp"

namespace cadence::bench {

class MultimapQueue {
 public:
  QueueId schedule(Ticks after, Token token) {
    const std::uint32_t slot = slots_.allocate();
    slots_[slot] = timers_.emplace(deadline_after(now_, after.count()), Value{token, slot});
    return slots_.id(slot);
  }

  bool cancel(QueueId id) {
    const std::uint32_t slot = slots_.find(id);
    if (slot == slots_.kNone) return false;
    timers_.erase(slots_[slot]);
    slots_.release(slot);
    return true;
  }

  void advance(Ticks now, std::vector<Token>& fired) {
    now_ = std::max(now_, std::min(now.count(), kLastTick.count()));
    while (!timers_.empty() && timers_.begin()->first <= now_) {
      auto it = timers_.begin();
      fired.push_back(it->second.token);
      slots_.release(it->second.slot);
      timers_.erase(it);
    }
  }

  std::optional<Ticks> next_fire() {
    if (timers_.empty()) return std::nullopt;
    return Ticks{timers_.begin()->first};
  }

 private:
  struct Value {
    Token token;
    std::uint32_t slot;
  };
  using Map = std::multimap<std::int64_t, Value>;

  Map timers_;
  SlotTable<Map::iterator> slots_;
  std::int64_t now_ = 0;
};

}  // namespace cadence::bench
