// cadence/detail/wheel_core.hpp: the timing wheel itself, behind TimerWheel (timer_wheel.hpp) and
// the runtime's timer table. Not part of the API: use TimerWheel. timer_wheel.cpp states the
// invariants; docs/wheel.md explains the geometry.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cadence/detail/ring_bitmap.hpp"
#include "cadence/detail/wheel_entry_pool.hpp"
#include "cadence/detail/wheel_level.hpp"
#include "cadence/export.hpp"
#include "cadence/timer_queue.hpp"

namespace cadence {

/// TimerWheel's counters (timer_wheel.hpp), for tests, benchmarks and curiosity. All are totals
/// since construction.
struct WheelStats {
  std::uint64_t scheduled = 0;
  std::uint64_t cancelled = 0;
  std::uint64_t fired = 0;
  std::uint64_t moved = 0;            ///< entries moved down one level
  std::uint64_t slot_rescans = 0;     ///< coarse slots walked to relearn their earliest deadline
  std::uint64_t backwards_steps = 0;  ///< advance() calls with a time earlier than now()
};

namespace detail {

class CADENCE_RUNTIME_API WheelCore {
 public:
  /// Level 0: one slot per millisecond. 2^15 slots: timers placed directly are < 2^14 ms away,
  /// and the other half holds the coarse slot that is moving down in the meantime.
  static constexpr std::uint32_t kLevel0Bits = 15;
  /// Level 1 slots are 2^14 ms (16.4 s) wide; each level above is 64 times wider.
  static constexpr std::uint32_t kLevel1Shift = kLevel0Bits - 1;
  static constexpr std::uint32_t kRatioBits = 6;
  /// Coarse levels have 128 slots: 64 for placement, 64 for the slot moving down from above.
  static constexpr std::uint32_t kCoarseBits = kRatioBits + 1;
  /// Levels 0..8: level 8 slots are 2^56 ms wide, and 64 of them reach kMaxTick.
  static constexpr std::uint32_t kLevels = 9;
  /// The largest coarse block list_next() moves down at once: 4,096 entries, a bound on what
  /// one frame pays for it (the drains spread larger blocks over their window).
  static constexpr std::uint32_t kListDrainMax = 4096;

  /// An empty wheel whose time starts at `start` (clamped to [0, kLastTick]).
  explicit WheelCore(Ticks start = Ticks{0});
  WheelCore(const WheelCore&) = delete;
  WheelCore& operator=(const WheelCore&) = delete;

  /// O(1). Errors: throws std::bad_alloc when memory runs out (the wheel is unchanged).
  QueueId schedule(Ticks after, Token token);
  /// O(1); the entry is free for reuse at once.
  bool cancel(QueueId id);
  AdvanceReport advance(Ticks now, std::vector<Token>& fired);
  Ticks now() const { return Ticks{now_ms_}; }
  std::size_t active_count() const { return active_; }
  std::optional<Ticks> next_fire();
  /// The deadline of a pending timer, or nullopt for a fired, cancelled or unknown id. O(1).
  std::optional<Ticks> deadline_of(QueueId id) const;
  /// Bytes held by the wheel, excluding the object itself. O(1).
  std::size_t memory_bytes() const noexcept;
  const WheelStats& stats() const noexcept { return stats_; }
  /// Walks every entry and checks the wheel's invariants (timer_wheel.cpp). For tests: O(n).
  /// Returns an empty string when all hold, else what was wrong first.
  std::string check_invariants() const;

  /// What list_next() found.
  struct Listing {
    /// True when the tokens were listed; false when the wheel cannot list them cheaply.
    bool listed = true;
    /// When not listed: the earliest now() from which asking again, with nothing scheduled,
    /// cancelled or fired meanwhile, may list them; kMaxTick when only such a change can.
    std::int64_t ask_again = kMaxTick.count();
  };
  /// Replaces `out` with the tokens due at next_fire(), in fire order, when there are at most
  /// `max` and they can be listed cheaply; else says they are not listed (`out` is then
  /// unspecified) and from which now() asking again may list them. It lists the level-0 slot of
  /// the next deadline. When entries with that deadline still sit on a coarse level in a block
  /// that has begun moving down and holds at most kListDrainMax entries, it finishes that
  /// block's move first (O(its entries), which its drain would have spent before the deadline
  /// anyway). Not listed while such entries sit in a block that has not begun moving (ask again
  /// once it has) or in a larger one (ask again at the next tick: each advance moves part of it
  /// down); or when level 0 holds more than `max` (only a change helps).
  Listing list_next(std::vector<Token>& out, std::size_t max);

 private:
  static constexpr std::uint32_t kLevel0Slots = std::uint32_t{1} << kLevel0Bits;
  static constexpr std::uint32_t kCoarseSlots = std::uint32_t{1} << kCoarseBits;
  /// Slots are numbered across levels: level 0 first, then 128 per coarse level.
  static constexpr std::uint32_t kSlotCount = kLevel0Slots + (kLevels - 1) * kCoarseSlots;

  struct SlotEnds {
    std::uint32_t head;
    std::uint32_t tail;
  };
  static_assert(WheelLevel::kBlocks == kCoarseSlots, "a coarse level's ring is 2^kCoarseBits blocks");

  WheelLevel& coarse(std::uint32_t level) noexcept { return coarse_[level - 1]; }
  const WheelLevel& coarse(std::uint32_t level) const noexcept { return coarse_[level - 1]; }
  static constexpr std::uint32_t shift_of(std::uint32_t level) noexcept {
    return kLevel1Shift + kRatioBits * (level - 1);
  }
  static constexpr std::int64_t width_of(std::uint32_t level) noexcept { return std::int64_t{1} << shift_of(level); }
  static std::int64_t drain_end_ms(std::uint32_t level, std::int64_t block) noexcept;
  static std::uint32_t level_for_delta(std::int64_t delta_ms) noexcept;
  /// Where block number `block` sits in its level's ring.
  static std::uint32_t block_index(std::int64_t block) noexcept {
    return static_cast<std::uint32_t>(static_cast<std::uint64_t>(block) & (kCoarseSlots - 1));
  }
  static std::uint32_t coarse_index(std::uint32_t level, std::int64_t deadline_ms) noexcept {
    return block_index(deadline_ms >> shift_of(level));
  }
  /// The slot list of block `index` of coarse level `level`.
  static constexpr std::uint32_t coarse_slot_id(std::uint32_t level, std::uint32_t index) noexcept {
    return kLevel0Slots + (level - 1) * kCoarseSlots + index;
  }
  static std::uint32_t slot_id(std::uint32_t level, std::int64_t deadline_ms) noexcept {
    if (level == 0) return static_cast<std::uint32_t>(static_cast<std::uint64_t>(deadline_ms) & (kLevel0Slots - 1));
    return coarse_slot_id(level, coarse_index(level, deadline_ms));
  }

  void link_back(std::uint32_t slot, std::uint32_t i) noexcept;
  void link_front(std::uint32_t slot, std::uint32_t i) noexcept;
  bool unlink(std::uint32_t i) noexcept;  // true when the entry's slot became empty

  void insert(std::uint32_t i, std::uint32_t level, bool at_front);
  void remove(std::uint32_t i);
  void place_far(std::uint32_t i, std::int64_t deadline_ms);
  void move_down(std::uint32_t i);

  AdvanceReport advance_slow(std::int64_t target_ms, std::vector<Token>& fired);
  std::optional<Ticks> next_fire_slow();
  std::int64_t front_block(std::uint32_t level) const noexcept;
  std::int64_t next_level0_ms() const noexcept;
  void fire_slot(std::int64_t tick_ms, std::vector<Token>& fired, AdvanceReport& report);
  void drain(std::uint32_t level, std::int64_t block, std::uint64_t budget, bool finish);
  void drain_step(std::uint32_t level, std::int64_t target_ms);
  void relearn_min(std::uint32_t slot, CoarseBlock& meta);

  WheelEntryPool pool_;
  std::unique_ptr<SlotEnds[], FreeDeleter> ends_;  // kSlotCount, zeroed: all empty
  RingBitmap<kLevel0Slots> level0_occupied_;
  std::array<WheelLevel, kLevels - 1> coarse_;  // levels 1..8 at [level - 1]
  std::int64_t now_ms_;
  std::size_t active_ = 0;
  std::uint32_t coarse_occupied_levels_ = 0;  // bit k: level k holds entries
  std::optional<std::int64_t> next_fire_ms_;  // cached; valid when next_fire_valid_
  bool next_fire_valid_ = true;
  WheelStats stats_;
};

// ---- inline fast paths: the calls an event loop makes every frame ----------------------------

inline void WheelCore::link_back(std::uint32_t slot, std::uint32_t i) noexcept {
  SlotEnds& s = ends_[slot];
  WheelLinks& e = pool_.links(i);
  e.next = end_of(slot);
  if (s.tail == kNil) {
    e.prev = end_of(slot);
    s.head = i;
  } else {
    e.prev = s.tail;
    pool_.links(s.tail).next = i;
  }
  s.tail = i;
}

inline bool WheelCore::unlink(std::uint32_t i) noexcept {
  const WheelLinks& e = pool_.links(i);
  const std::uint32_t p = e.prev;
  const std::uint32_t n = e.next;
  if (is_end(p)) {
    ends_[slot_of_end(p)].head = is_end(n) ? kNil : n;
  } else {
    pool_.links(p).next = n;
  }
  if (is_end(n)) {
    ends_[slot_of_end(n)].tail = is_end(p) ? kNil : p;
  } else {
    pool_.links(n).prev = p;
  }
  return is_end(p) && is_end(n);
}

inline QueueId WheelCore::schedule(Ticks after, Token token) {
  const std::int64_t d = deadline_after(now_ms_, after.count());
  const std::uint32_t i = pool_.allocate();
  pool_.payload(i) = WheelPayload{d, token};
  if (d - now_ms_ < width_of(1)) {  // the common case: level 0, appended to its slot
    pool_.links(i).set_level(0);
    const std::uint32_t slot = slot_id(0, d);
    link_back(slot, i);
    level0_occupied_.set(slot);
  } else {
    place_far(i, d);
  }
  ++active_;
  ++stats_.scheduled;
  if (next_fire_valid_ && (!next_fire_ms_ || d < *next_fire_ms_)) next_fire_ms_ = d;
  return QueueId{pool_.id_of(i)};
}

inline bool WheelCore::cancel(QueueId id) {
  const std::uint32_t i = pool_.find_live(id.value);
  if (i == kNil) return false;
  if (pool_.links(i).level() == 0) {
    const std::uint32_t prev = pool_.links(i).prev;
    if (unlink(i)) {
      // The slot is empty now; if it held the cached earliest deadline, that is gone.
      const std::uint32_t slot = slot_of_end(prev);
      level0_occupied_.clear(slot);
      if (next_fire_valid_ && next_fire_ms_ && slot_id(0, *next_fire_ms_) == slot) next_fire_valid_ = false;
    }
  } else {
    remove(i);
  }
  pool_.release(i);
  --active_;
  ++stats_.cancelled;
  return true;
}

inline AdvanceReport WheelCore::advance(Ticks now, std::vector<Token>& fired) {
  const std::int64_t target = clamp_to_timeline(now.count());
  if (target == now_ms_) return {};
  // Time moves but nothing is due and nothing is moving down: only the clock changes.
  if (target > now_ms_ && coarse_occupied_levels_ == 0 && next_fire_valid_ &&
      (!next_fire_ms_ || *next_fire_ms_ > target)) {
    now_ms_ = target;
    return {};
  }
  return advance_slow(target, fired);
}

inline std::optional<Ticks> WheelCore::next_fire() {
  if (!next_fire_valid_) return next_fire_slow();
  if (!next_fire_ms_) return std::nullopt;
  return Ticks{*next_fire_ms_};
}

}  // namespace detail
}  // namespace cadence
