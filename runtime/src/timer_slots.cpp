#include "timer_slots.hpp"

#include <algorithm>
#include <utility>

namespace cadence::detail {

std::uint32_t TimerSlots::allocate(TimerId id, Timer timer) {
  std::uint32_t i;
  if (!free_.empty()) {
    i = free_.back();
    free_.pop_back();
  } else {
    i = static_cast<std::uint32_t>(slots_.size());
    slots_.emplace_back();
  }
  TimerSlot& s = slots_[i];
  const std::uint32_t generation = s.generation;
  s = TimerSlot{};
  s.id = id;
  s.generation = generation;
  if (const auto owner = timer.owner()) owners_[owner->value].push_back(id);
  s.timer.emplace(std::move(timer));
  index_.emplace(id, i);
  return i;
}

std::optional<Timer> TimerSlots::release(std::uint32_t i) {
  TimerSlot& s = slots_[i];
  index_.erase(s.id);
  if (const auto owner = s.timer->owner()) {
    auto it = owners_.find(owner->value);
    std::vector<TimerId>& ids = it->second;
    *std::find(ids.begin(), ids.end(), s.id) = ids.back();
    ids.pop_back();
    if (ids.empty()) owners_.erase(it);
  }
  std::optional<Timer> timer = std::move(s.timer);
  s.timer.reset();
  s.state = SlotState::free;
  s.stopped = false;
  ++s.generation;
  free_.push_back(i);
  return timer;
}

TimerSlot* TimerSlots::find(TimerId id) {
  auto it = index_.find(id);
  return it == index_.end() ? nullptr : &slots_[it->second];
}

const TimerSlot* TimerSlots::find(TimerId id) const {
  auto it = index_.find(id);
  return it == index_.end() ? nullptr : &slots_[it->second];
}

std::vector<TimerId> TimerSlots::timers_of(WidgetId owner) const {
  const auto it = owners_.find(owner.value);
  return it == owners_.end() ? std::vector<TimerId>{} : it->second;
}

}  // namespace cadence::detail
