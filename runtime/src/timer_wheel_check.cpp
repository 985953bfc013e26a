// WheelCore::check_invariants(): the invariants of timer_wheel.cpp, checked by walking
// everything. Tests call it after operations; nothing on a hot path does.
#include <string>

#include "cadence/timer_wheel.hpp"
#include "text.hpp"

namespace cadence::detail {

std::string WheelCore::check_invariants() const {
  // Walks one slot's list: links agree both ways, the ends name the slot, every entry is on
  // `level`. Calls visit(deadline) per entry; returns an error or "".
  const auto walk = [this](std::uint32_t slot, std::uint32_t level, const std::string& where, auto&& visit) -> std::string {
    const SlotEnds& ends = ends_[slot];
    if ((ends.head == kNil) != (ends.tail == kNil)) return where + "head and tail disagree";
    if (ends.head == kNil) return {};
    if (pool_.links(ends.head).prev != end_of(slot)) return where + "head does not point back at its slot";
    std::uint32_t prev = kNil;
    for (std::uint32_t i = ends.head; !is_end(i); i = pool_.links(i).next) {
      const WheelLinks& e = pool_.links(i);
      if (prev != kNil && e.prev != prev) return where + "broken back link";
      if (e.level() != level) return where + "entry says level " + num(e.level());
      if (is_end(e.next) && (e.next != end_of(slot) || ends.tail != i)) return where + "tail is wrong";
      if (std::string why = visit(pool_.payload(i).deadline_ms); !why.empty()) return where + why;
      prev = i;
    }
    return {};
  };

  std::size_t total = 0;
  for (std::uint32_t slot = 0; slot < kLevel0Slots; ++slot) {
    const std::string where = "level 0 slot " + num(slot) + ": ";
    if ((ends_[slot].head != kNil) != level0_occupied_.test(slot)) return where + "bitmap disagrees";
    std::int64_t first = -1;
    std::string why = walk(slot, 0, where, [&](std::int64_t d) -> std::string {
      if (first < 0) first = d;
      if (d != first) return "two deadlines " + num(first) + " and " + num(d);
      if (slot_id(0, d) != slot) return "deadline " + num(d) + " in the wrong slot";
      if (d <= now_ms_ || d >= now_ms_ + kLevel0Slots) {
        return "deadline " + num(d) + " outside (now, now + 2^15) at now " + num(now_ms_);
      }
      ++total;
      return {};
    });
    if (!why.empty()) return why;
  }
  for (std::uint32_t level = 1; level < kLevels; ++level) {
    const WheelLevel& L = coarse(level);
    const std::int64_t cur = now_ms_ >> shift_of(level);
    std::uint64_t level_count = 0;
    for (std::uint32_t index = 0; index < kCoarseSlots; ++index) {
      const CoarseBlock& s = L.block(index);
      const std::uint32_t slot = coarse_slot_id(level, index);
      const std::string where = "level " + num(level) + " slot " + num(index) + ": ";
      if ((ends_[slot].head != kNil) != L.occupied(index)) return where + "bitmap disagrees";
      std::uint32_t n = 0, at_min = 0;
      std::int64_t min_ms = INT64_MAX;
      std::string why = walk(slot, level, where, [&](std::int64_t d) -> std::string {
        const std::int64_t block = d >> shift_of(level);
        if (coarse_index(level, d) != index) return "entry in the wrong slot";
        if (block < cur + 1 || block > cur + 127) {
          return "block " + num(block) + " outside [cur + 1, cur + 127], cur " + num(cur);
        }
        if (drain_end_ms(level, block) <= now_ms_) {
          return "block " + num(block) + " should have drained by " + num(drain_end_ms(level, block));
        }
        if (d < min_ms) {
          min_ms = d;
          at_min = 1;
        } else if (d == min_ms) {
          ++at_min;
        }
        ++n;
        return {};
      });
      if (!why.empty()) return why;
      if (n != s.count) return where + "count " + num(s.count) + " but " + num(n) + " entries";
      if (n > 0 && s.min_count > 0 && (s.min_ms != min_ms || s.min_count != at_min)) {
        return where + "minimum " + num(s.min_ms) + " x" + num(s.min_count) + " but really " + num(min_ms) + " x" +
               num(at_min);
      }
      if (n > 0 && s.min_count == 0 && s.min_ms > min_ms) return where + "a stale minimum above the true one";
      level_count += n;
    }
    if (level_count != L.count()) {
      return "level " + num(level) + ": count " + num(L.count()) + " but " + num(level_count);
    }
    if ((level_count != 0) != ((coarse_occupied_levels_ >> level) & 1u)) return "level " + num(level) + ": occupancy bit";
    total += level_count;
  }
  if (total != active_) return "active_count " + num(active_) + " but " + num(total) + " entries";
  if (next_fire_valid_) {
    // The cache must be the true minimum; recompute it the slow way.
    std::int64_t best = INT64_MAX;
    for (std::uint32_t slot = 0; slot < kSlotCount; ++slot) {
      for (std::uint32_t i = ends_[slot].head; i != kNil && !is_end(i); i = pool_.links(i).next) {
        best = std::min(best, pool_.payload(i).deadline_ms);
      }
    }
    const std::int64_t cached = next_fire_ms_ ? *next_fire_ms_ : INT64_MAX;
    if (cached != best) return "cached next fire " + num(cached) + " but really " + num(best);
  }
  return {};
}

}  // namespace cadence::detail
