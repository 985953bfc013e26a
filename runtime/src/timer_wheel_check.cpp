// TimerWheel::check_invariants(): the invariants of timer_wheel.cpp, checked by walking
// everything. Tests call it after operations; nothing on a hot path does.
#include <string>

#include "cadence/timer_wheel.hpp"
#include "text.hpp"

namespace cadence {

std::string TimerWheel::check_invariants() const {
  using detail::num;
  std::size_t total = 0;
  for (std::uint32_t slot = 0; slot < kLevel0Slots; ++slot) {
    const std::uint32_t head = level0_heads_[slot];
    if ((head != detail::kNil) != level0_occupied_.test(slot)) return "level 0 slot " + num(slot) + ": bitmap disagrees";
    if (head == detail::kNil) continue;
    std::uint32_t i = head;
    const std::int64_t d0 = pool_[head].deadline();
    do {
      const Entry& e = pool_[i];
      const std::int64_t d = e.deadline();
      if (e.level() != 0) return "level 0 slot " + num(slot) + ": entry says level " + num(e.level());
      if (d != d0) return "level 0 slot " + num(slot) + ": two deadlines " + num(d0) + " and " + num(d);
      if (d <= now_ms_ || d >= now_ms_ + kLevel0Slots) {
        return "level 0: deadline " + num(d) + " outside (now, now + 2^15) at now " + num(now_ms_);
      }
      if (pool_[e.next].prev != i) return "level 0 slot " + num(slot) + ": broken links";
      ++total;
      i = e.next;
    } while (i != head);
  }
  for (std::uint32_t level = 1; level < kLevels; ++level) {
    const CoarseLevel& L = coarse(level);
    const std::int64_t cur = now_ms_ >> shift_of(level);
    std::uint64_t level_count = 0;
    for (std::uint32_t slot = 0; slot < kCoarseSlots; ++slot) {
      const CoarseSlot& s = L.slots[slot];
      const std::string where = "level " + num(level) + " slot " + num(slot) + ": ";
      if ((s.head != detail::kNil) != L.occupied.test(slot)) return where + "bitmap disagrees";
      if ((s.head == detail::kNil) != (s.count == 0)) return where + "count disagrees with the list";
      if (s.head == detail::kNil) continue;
      std::uint32_t n = 0, at_min = 0;
      std::int64_t min_ms = INT64_MAX;
      std::uint32_t i = s.head;
      do {
        const Entry& e = pool_[i];
        const std::int64_t d = e.deadline();
        const std::int64_t block = d >> shift_of(level);
        if (e.level() != level) return where + "entry says level " + num(e.level());
        if ((static_cast<std::uint64_t>(block) & (kCoarseSlots - 1)) != slot) return where + "entry in the wrong slot";
        if (block < cur + 1 || block > cur + 127) {
          return where + "block " + num(block) + " outside [cur + 1, cur + 127], cur " + num(cur);
        }
        if (drain_end_ms(level, block) <= now_ms_) {
          return where + "block " + num(block) + " should have drained by " + num(drain_end_ms(level, block));
        }
        if (d < min_ms) {
          min_ms = d;
          at_min = 1;
        } else if (d == min_ms) {
          ++at_min;
        }
        if (pool_[e.next].prev != i) return where + "broken links";
        ++n;
        i = e.next;
      } while (i != s.head);
      if (n != s.count) return where + "count " + num(s.count) + " but " + num(n) + " entries";
      if (s.min_count > 0 && (s.min_ms != min_ms || s.min_count != at_min)) {
        return where + "minimum " + num(s.min_ms) + " x" + num(s.min_count) + " but really " + num(min_ms) + " x" +
               num(at_min);
      }
      if (s.min_count == 0 && s.min_ms > min_ms) return where + "a stale minimum above the true one";
      level_count += n;
    }
    if (level_count != L.count) return "level " + num(level) + ": count " + num(L.count) + " but " + num(level_count);
    if ((level_count != 0) != ((coarse_occupied_levels_ >> level) & 1u)) return "level " + num(level) + ": occupancy bit";
    total += level_count;
  }
  if (total != active_) return "active_count " + num(active_) + " but " + num(total) + " entries";
  return {};
}

}  // namespace cadence
