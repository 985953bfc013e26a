// The hierarchical wheel. docs/wheel.md has the full story; the invariants the code relies on:
//
// I1 Level 0 holds deadlines in (now, now + 2^15): one deadline per slot, so a slot fires whole.
// I2 A coarse level k holds blocks (deadline >> shift_k) in [cur_k + 1, cur_k + 127], where
//    cur_k = now >> shift_k: distinct modulo 128, and the slot of cur_k itself is empty.
// I3 Block b of level k moves down to level k - 1 during its drain window
//    ((b - 1) * width_k, drain_end(k, b)], a share at every advance in proportion to the time
//    that passed, and whatever is left at drain_end. Level 1 ends when the block begins; higher
//    levels end one lower-level slot earlier, just before the lower level starts draining the
//    block's first sub-slot, so a lower level never receives entries into a slot it is draining.
// I4 A block whose window has opened takes no new entries: schedule() places such a timer one
//    level lower (repeatedly if needed). Together with I3 this keeps ties in schedule order:
//    for one deadline, entries on a higher level were always scheduled earlier, drains walk a
//    slot from its tail and put each entry at the *front* of the lower slot, and schedule()
//    appends at the back.
// I5 Each coarse slot knows its earliest deadline and how many entries share it, so next_fire()
//    is exact. Removing the last entry at that deadline marks the slot for one walk to relearn
//    it. Partial drains leave the earliest entries for last so that the mark is rarely needed.
#include "cadence/timer_wheel.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

namespace cadence::detail {

namespace {

constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();

}  // namespace

// Emitted here, and so exported by a DLL (cadence/export.hpp); elsewhere the inline
// definition is enough, and this one deprecated.
#if defined(_WIN32)
constexpr std::uint32_t WheelCore::kLevel0Bits;
constexpr std::uint32_t WheelCore::kLevel1Shift;
constexpr std::uint32_t WheelCore::kRatioBits;
constexpr std::uint32_t WheelCore::kCoarseBits;
constexpr std::uint32_t WheelCore::kLevels;
constexpr std::uint32_t WheelCore::kListDrainMax;
#endif

WheelCore::WheelCore(Ticks start)
    : ends_(zeroed_array<SlotEnds>(kSlotCount)),
      now_ms_(clamp_to_timeline(start.count())) {}

std::int64_t WheelCore::drain_end_ms(std::uint32_t level, std::int64_t block) noexcept {
  return level == 1 ? block * width_of(1) : block * width_of(level) - width_of(level - 1);
}

std::uint32_t WheelCore::level_for_delta(std::int64_t delta_ms) noexcept {
  if (delta_ms < width_of(1)) return 0;
  const auto msb = static_cast<std::uint32_t>(63 - std::countl_zero(static_cast<std::uint64_t>(delta_ms)));
  return 1 + (msb - kLevel1Shift) / kRatioBits;
}

// ---- placing and removing ------------------------------------------------------------------

void WheelCore::link_front(std::uint32_t slot, std::uint32_t i) noexcept {
  SlotEnds& s = ends_[slot];
  WheelLinks& e = pool_.links(i);
  e.prev = end_of(slot);
  if (s.head == kNil) {
    e.next = end_of(slot);
    s.tail = i;
  } else {
    e.next = s.head;
    pool_.links(s.head).prev = i;
  }
  s.head = i;
}

void WheelCore::insert(std::uint32_t i, std::uint32_t level, bool at_front) {
  pool_.links(i).set_level(level);
  const std::int64_t d = pool_.payload(i).deadline_ms;
  const std::uint32_t slot = slot_id(level, d);
  if (at_front) {
    link_front(slot, i);
  } else {
    link_back(slot, i);
  }
  if (level == 0) {
    level0_occupied_.set(slot);
    return;
  }
  coarse(level).added(coarse_index(level, d), d);
  coarse_occupied_levels_ |= 1u << level;
}

void WheelCore::remove(std::uint32_t i) {
  const WheelLinks& e = pool_.links(i);
  const std::uint32_t level = e.level();
  if (level == 0) {
    const std::uint32_t prev = e.prev;
    if (unlink(i)) level0_occupied_.clear(slot_of_end(prev));
    return;
  }
  const std::int64_t d = pool_.payload(i).deadline_ms;
  WheelLevel& L = coarse(level);
  if (L.drain().cursor == i) L.drain().cursor = is_end(e.prev) ? kNil : e.prev;
  unlink(i);
  L.removed(coarse_index(level, d), d);  // may leave the earliest deadline to relearn (I5)
  if (L.count() == 0) coarse_occupied_levels_ &= ~(1u << level);
  if (next_fire_valid_ && next_fire_ms_ == d) next_fire_valid_ = false;
}

void WheelCore::place_far(std::uint32_t i, std::int64_t d) {
  std::uint32_t level = level_for_delta(d - now_ms_);
  // I4: a block whose drain window has opened ((block - 1) * width < now) takes no new entries.
  while (level > 0 && ((d >> shift_of(level)) - 1) * width_of(level) < now_ms_) --level;
  insert(i, level, /*at_front=*/false);
}

void WheelCore::move_down(std::uint32_t i) {
  const std::uint32_t level = pool_.links(i).level();
  remove(i);
  insert(i, level - 1, /*at_front=*/true);
  ++stats_.moved;
}

// ---- queries -------------------------------------------------------------------------------

std::optional<Ticks> WheelCore::deadline_of(QueueId id) const {
  const std::uint32_t i = pool_.find_live(id.value);
  if (i == kNil) return std::nullopt;
  return Ticks{pool_.payload(i).deadline_ms};
}

std::size_t WheelCore::memory_bytes() const noexcept {
  return pool_.memory_bytes() + kSlotCount * sizeof(SlotEnds) + kLevel0Slots / 8 + (kLevels - 1) * kCoarseSlots / 8;
}

std::optional<Ticks> WheelCore::next_fire_slow() {
  std::int64_t best = next_level0_ms();
  for (std::uint32_t bits = coarse_occupied_levels_; bits != 0; bits &= bits - 1) {
    const auto level = static_cast<std::uint32_t>(std::countr_zero(bits));
    const std::int64_t block = front_block(level);
    if (block * width_of(level) >= best) continue;  // every entry of the level is later
    const std::uint32_t index = block_index(block);
    CoarseBlock& b = coarse(level).block(index);
    if (b.min_unknown()) relearn_min(coarse_slot_id(level, index), b);
    best = std::min(best, b.min_ms);
  }
  next_fire_ms_ = best == kNever ? std::nullopt : std::optional<std::int64_t>(best);
  next_fire_valid_ = true;
  if (!next_fire_ms_) return std::nullopt;
  return Ticks{*next_fire_ms_};
}

WheelCore::Listing WheelCore::list_next(std::vector<Token>& out, std::size_t max) {
  out.clear();
  const std::optional<Ticks> next = next_fire();
  if (!next) return {};
  const std::int64_t d = next->count();
  // Entries with deadline d may still sit on a coarse level: its slot's earliest deadline says
  // so (or is unknown until relearned). Such a slot is the block now moving down, or a later
  // one. A block whose move has begun and that is small is moved down whole now: work its drain
  // would do before d anyway (every deadline of the block is at or after its drain end). Highest
  // level first, so that what comes down is looked at again one level lower.
  for (std::uint32_t level = kLevels - 1; level >= 1; --level) {
    if ((coarse_occupied_levels_ & (1u << level)) == 0) continue;
    const CoarseBlock& c = coarse(level).block(coarse_index(level, d));
    if (c.count == 0 || (c.min_count > 0 && c.min_ms != d)) continue;
    const std::int64_t opens = ((d >> shift_of(level)) - 1) * width_of(level);  // I3's window start
    if (opens >= now_ms_) return {.listed = false, .ask_again = opens + 1};
    if (c.count > kListDrainMax) return {.listed = false, .ask_again = now_ms_ + 1};
    drain(level, d >> shift_of(level), 0, /*finish=*/true);
  }
  // Level 0 holds one deadline per slot: every entry of d's slot is due at d.
  for (std::uint32_t i = ends_[slot_id(0, d)].head; !is_end(i); i = pool_.links(i).next) {
    if (out.size() == max) return {.listed = false};
    out.push_back(pool_.payload(i).token);
  }
  return {};
}

std::int64_t WheelCore::front_block(std::uint32_t level) const noexcept {
  return coarse(level).front_block(now_ms_ >> shift_of(level), kNever / width_of(level));
}

std::int64_t WheelCore::next_level0_ms() const noexcept {
  const auto from = static_cast<std::uint32_t>(static_cast<std::uint64_t>(now_ms_ + 1) & (kLevel0Slots - 1));
  const std::uint32_t slot = level0_occupied_.find_from(from);
  if (slot == RingBitmap<kLevel0Slots>::kNone) return kNever;
  return now_ms_ + 1 + ((slot - from) & (kLevel0Slots - 1));
}

// ---- time passing --------------------------------------------------------------------------

AdvanceReport WheelCore::advance_slow(std::int64_t target, std::vector<Token>& fired) {
  AdvanceReport report;
  if (target < now_ms_) {
    report.clamped_by = Ticks{now_ms_ - target};
    ++stats_.backwards_steps;
    return report;
  }
  // Events in time order: at each instant, levels finish their drains (highest first), then
  // level 0 fires.
  while (true) {
    std::int64_t t = next_level0_ms();
    for (std::uint32_t bits = coarse_occupied_levels_; bits != 0; bits &= bits - 1) {
      const auto level = static_cast<std::uint32_t>(std::countr_zero(bits));
      t = std::min(t, drain_end_ms(level, front_block(level)));
    }
    if (t > target) break;
    // Everything before t is done: look at the rings from t - 1, so that a level-1 block
    // starting at t is still ahead of the current block, and entries a higher level has just
    // moved down are within reach of the ring.
    now_ms_ = t - 1;
    for (std::uint32_t level = kLevels - 1; level >= 1; --level) {
      if ((coarse_occupied_levels_ & (1u << level)) == 0) continue;
      const std::int64_t block = front_block(level);
      if (drain_end_ms(level, block) == t) drain(level, block, 0, /*finish=*/true);
    }
    now_ms_ = t;
    fire_slot(t, fired, report);
  }
  now_ms_ = target;
  for (std::uint32_t bits = coarse_occupied_levels_; bits != 0; bits &= bits - 1) {
    drain_step(static_cast<std::uint32_t>(std::countr_zero(bits)), target);
  }
  if (report.fired > 0) next_fire_valid_ = false;
  return report;
}

void WheelCore::fire_slot(std::int64_t tick_ms, std::vector<Token>& fired, AdvanceReport& report) {
  const std::uint32_t slot = slot_id(0, tick_ms);
  std::uint32_t i = ends_[slot].head;
  if (i == kNil) return;
  ends_[slot] = SlotEnds{kNil, kNil};
  level0_occupied_.clear(slot);
  std::size_t n = 0;
  while (!is_end(i)) {
    const WheelPayload& p = pool_.payload(i);
    assert(p.deadline_ms == tick_ms && "I1: a level-0 slot holds one deadline");
    const std::uint32_t next = pool_.links(i).next;
    fired.push_back(p.token);
    pool_.release(i);
    ++n;
    i = next;
  }
  active_ -= n;
  report.fired += n;
  stats_.fired += n;
}

void WheelCore::drain_step(std::uint32_t level, std::int64_t target_ms) {
  const std::int64_t block = (target_ms >> shift_of(level)) + 1;
  const std::int64_t start = (block - 1) * width_of(level);
  if (target_ms <= start) return;  // the window opens only once time is past its start
  WheelLevel& L = coarse(level);
  const CoarseBlock& b = L.block(block_index(block));
  if (b.count == 0) return;
  L.begin_drain(block, start);
  const std::int64_t last = L.drain().progress_ms;
  const std::int64_t end = drain_end_ms(level, block);
  if (target_ms <= last) return;
  // Move the share of what is left that matches the share of the window that passed.
  const double share = static_cast<double>(target_ms - last) / static_cast<double>(end - last);
  const auto budget = static_cast<std::uint64_t>(std::ceil(static_cast<double>(b.count) * share));
  L.drain().progress_ms = target_ms;
  drain(level, block, budget, /*finish=*/false);
}

void WheelCore::drain(std::uint32_t level, std::int64_t block, std::uint64_t budget, bool finish) {
  WheelLevel& L = coarse(level);
  const std::uint32_t index = block_index(block);
  const std::uint32_t slot = coarse_slot_id(level, index);
  const CoarseBlock& b = L.block(index);
  L.begin_drain(block, (block - 1) * width_of(level));
  BlockDrain& walk = L.drain();
  // For each deadline, entries must leave in tail-to-head order (I4). A walk that skipped
  // earliest-deadline entries must therefore start again at the tail before it moves them.
  if (finish) L.restart_walk_if_skipped();
  while (b.count > 0 && (finish || budget > 0)) {
    // I5: while other entries remain, the earliest ones stay, so the block's minimum stays known.
    const bool keep_earliest = !finish && b.min_count > 0 && b.count > b.min_count;
    if (!keep_earliest) L.restart_walk_if_skipped();
    if (walk.cursor == kNil) walk.cursor = ends_[slot].tail;
    const std::uint32_t i = walk.cursor;
    const std::uint32_t prev = pool_.links(i).prev;
    walk.cursor = is_end(prev) ? kNil : prev;
    if (keep_earliest && pool_.payload(i).deadline_ms == b.min_ms) {
      walk.skipped = true;
      continue;
    }
    move_down(i);
    if (!finish) --budget;
  }
  if (b.count == 0) L.end_drain();
}

void WheelCore::relearn_min(std::uint32_t slot, CoarseBlock& meta) {
  ++stats_.slot_rescans;
  std::int64_t min_ms = kNever;
  std::uint32_t min_count = 0;
  for (std::uint32_t i = ends_[slot].head; !is_end(i); i = pool_.links(i).next) {
    const std::int64_t d = pool_.payload(i).deadline_ms;
    if (d < min_ms) {
      min_ms = d;
      min_count = 1;
    } else if (d == min_ms) {
      ++min_count;
    }
  }
  meta.min_ms = min_ms;
  meta.min_count = min_count;
}

}  // namespace cadence::detail
