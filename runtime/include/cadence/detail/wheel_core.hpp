// cadence/detail/wheel_core.hpp: the timing wheel itself, behind TimerWheel (timer_wheel.hpp) and
// the runtime's timer table, with the parts it is made of: the occupied-slot bitmaps, the entry
// pool and the coarse levels' bookkeeping. Not part of the API: use TimerWheel. timer_wheel.cpp
// states the invariants; docs/wheel.md explains the geometry.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

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

// ---- RingBitmap: the occupied slots of a level --------------------------------------------------
//
// Which slots of a wheel level hold timers: one bit per slot plus one summary bit per 64-bit
// word, so "the first occupied slot at or after p, wrapping around" costs a few word reads
// whatever the number of timers: at most two masked words of the bitmap and a walk over
// kBits / 4096 summary words. Storage comes zeroed from calloc, so a level nobody uses costs
// address space, not memory.

struct FreeDeleter {
  void operator()(void* p) const noexcept { std::free(p); }
};

/// Allocates `count` zeroed objects of a trivial type. Throws std::bad_alloc on failure.
template <class T>
std::unique_ptr<T[], FreeDeleter> zeroed_array(std::size_t count) {
  void* p = std::calloc(count, sizeof(T));
  if (p == nullptr) throw std::bad_alloc();
  return std::unique_ptr<T[], FreeDeleter>(static_cast<T*>(p));
}

template <std::uint32_t kBits>
class RingBitmap {
  static_assert(kBits >= 64 && std::has_single_bit(kBits), "a ring has a power-of-two size >= 64");
  static constexpr std::uint32_t kWords = kBits / 64;
  static constexpr std::uint32_t kSummaryWords = (kWords + 63) / 64;

 public:
  static constexpr std::uint32_t kNone = ~std::uint32_t{0};

  RingBitmap() : words_(zeroed_array<std::uint64_t>(kWords)) {}

  void set(std::uint32_t i) noexcept {
    words_[i / 64] |= bit(i);
    summary_[i / 4096] |= bit(i / 64);
  }
  void clear(std::uint32_t i) noexcept {
    std::uint64_t& w = words_[i / 64];
    w &= ~bit(i);
    if (w == 0) summary_[i / 4096] &= ~bit(i / 64);
  }
  bool test(std::uint32_t i) const noexcept { return (words_[i / 64] & bit(i)) != 0; }

  /// The first set slot in circular order starting at `from` (which may itself be set), or kNone.
  std::uint32_t find_from(std::uint32_t from) const noexcept {
    from &= kBits - 1;
    const std::uint32_t w0 = from / 64;
    const std::uint64_t head = words_[w0] & (~std::uint64_t{0} << (from % 64));
    if (head != 0) return w0 * 64 + static_cast<std::uint32_t>(std::countr_zero(head));
    // Words after w0, then words 0..w0 (the low part of w0 holds slots before `from`, which
    // come last in circular order).
    std::uint32_t w = next_word(w0 + 1, kWords);
    if (w == kNone) w = next_word(0, w0 + 1);
    if (w == kNone) return kNone;
    return w * 64 + static_cast<std::uint32_t>(std::countr_zero(words_[w]));
  }

 private:
  static constexpr std::uint64_t bit(std::uint32_t i) noexcept { return std::uint64_t{1} << (i % 64); }

  /// The first non-empty word in [begin, end), or kNone; uses the summary.
  std::uint32_t next_word(std::uint32_t begin, std::uint32_t end) const noexcept {
    for (std::uint32_t s = begin / 64; s * 64 < end && s < kSummaryWords; ++s) {
      std::uint64_t bits = summary_[s];
      if (s == begin / 64) bits &= ~std::uint64_t{0} << (begin % 64);
      if (bits == 0) continue;
      const std::uint32_t w = s * 64 + static_cast<std::uint32_t>(std::countr_zero(bits));
      return w < end ? w : kNone;
    }
    return kNone;
  }

  std::unique_ptr<std::uint64_t[], FreeDeleter> words_;
  std::uint64_t summary_[kSummaryWords] = {};
};

// ---- WheelEntryPool: the entries ----------------------------------------------------------------
//
// An entry is split in two, because the operations that run all the time (schedule, cancel,
// unlinking a neighbour) touch only list links:
// - hot, 12 bytes: the two list links and a tag that packs a 28-bit generation with the entry's
//   level. 100,000 of them fit in 1.2 MB, inside a core's L2 cache.
// - cold, 16 bytes: the deadline and the caller's token, read when a timer fires, moves down a
//   level, or is cancelled from a coarse level.
// Entries live in chunks of 4096 that never move, so growing copies nothing and wastes at most
// one partly used chunk: 28 bytes per timer, plus 520 bytes of free bits per chunk.
//
// Free entries are not a linked list. The entry freed last is kept by itself, for the common
// cancel-then-schedule; the others are bits in a bitmap (one per entry, one summary word per
// chunk, one bit per chunk), and the lowest is handed out first, 64 at a time. A list would
// hand out entries in the order they were freed: after a batch of cancels in random order,
// every schedule would wait for a cache miss to learn the next free entry. In index order the
// next schedules write neighbouring entries instead, and no schedule waits on the one before
// (docs/wheel.md, "Churn", has the measurements).
//
// Links are 32-bit. An index names an entry; a value with the top bit set marks the end of a
// slot's list and names the slot, so unlinking the first or last entry finds the slot without
// reading the deadline. Index 0 is never used, so 0 means "none" and is never a valid id.
//
// Ids are (generation << 32) | index. A generation that reaches its maximum retires its entry
// for good instead of wrapping, so no id can ever come back to life.

inline constexpr std::uint32_t kNil = 0;
inline constexpr std::uint32_t kEndBit = 0x80000000u;  // link value = kEndBit | slot
inline constexpr std::uint32_t kLevelFree = 15;        // tag level of a free entry
inline constexpr std::uint32_t kLevelRetired = 14;
inline constexpr std::uint32_t kMaxGeneration = (std::uint32_t{1} << 28) - 1;

inline constexpr bool is_end(std::uint32_t link) noexcept { return (link & kEndBit) != 0; }
inline constexpr std::uint32_t end_of(std::uint32_t slot) noexcept { return kEndBit | slot; }
inline constexpr std::uint32_t slot_of_end(std::uint32_t link) noexcept { return link & ~kEndBit; }

struct WheelLinks {
  std::uint32_t next;
  std::uint32_t prev;
  std::uint32_t tag;  // generation << 4 | level

  std::uint32_t generation() const noexcept { return tag >> 4; }
  std::uint32_t level() const noexcept { return tag & 15u; }
  void set_level(std::uint32_t level) noexcept { tag = (tag & ~15u) | level; }
};

struct WheelPayload {
  std::int64_t deadline_ms;
  std::uint64_t token;
};

class WheelEntryPool {
 public:
  static constexpr std::uint32_t kChunkBits = 12;
  static constexpr std::uint32_t kChunkSize = std::uint32_t{1} << kChunkBits;
  static constexpr std::uint32_t kMaxEntries = kEndBit - kChunkSize;

  WheelLinks& links(std::uint32_t i) noexcept { return chunks_[i >> kChunkBits]->links[i & (kChunkSize - 1)]; }
  const WheelLinks& links(std::uint32_t i) const noexcept {
    return chunks_[i >> kChunkBits]->links[i & (kChunkSize - 1)];
  }
  WheelPayload& payload(std::uint32_t i) noexcept { return chunks_[i >> kChunkBits]->payload[i & (kChunkSize - 1)]; }
  const WheelPayload& payload(std::uint32_t i) const noexcept {
    return chunks_[i >> kChunkBits]->payload[i & (kChunkSize - 1)];
  }

  /// An entry with generation >= 1: the entry freed last if it is still kept aside, else the
  /// next of the 64-entry word of free entries being handed out, else the lowest free word's
  /// lowest entry, else a fresh one. Throws
  /// std::length_error past kMaxEntries timers, std::bad_alloc when memory runs out; either
  /// way the pool is unchanged.
  std::uint32_t allocate() {
    if (last_freed_ != kNil) {
      const std::uint32_t i = last_freed_;
      last_freed_ = kNil;
      return i;
    }
    if (taking_ == 0 && free_count_ > 0) check_out_lowest_free_word();
    if (taking_ != 0) {
      const auto bit = static_cast<std::uint32_t>(std::countr_zero(taking_));
      taking_ &= taking_ - 1;
      return taking_base_ | bit;
    }
    if (used_ == capacity()) grow();
    const std::uint32_t i = used_++;
    links(i) = WheelLinks{kNil, kNil, (1u << 4) | kLevelFree};
    return i;
  }

  /// Returns entry `i` to the pool and bumps its generation, so its old id goes stale.
  void release(std::uint32_t i) noexcept {
    WheelLinks& e = links(i);
    const std::uint32_t generation = e.generation();
    if (generation == kMaxGeneration) {
      e.tag = (generation << 4) | kLevelRetired;  // never handed out again
      return;
    }
    e.tag = ((generation + 1) << 4) | kLevelFree;
    if (last_freed_ != kNil) mark_free(last_freed_);  // the one before goes to the bitmap
    last_freed_ = i;
  }

  /// The index of the entry if `id` names a live one, else kNil. O(1); reads one hot entry.
  std::uint32_t find_live(std::uint64_t id) const noexcept {
    const auto index = static_cast<std::uint32_t>(id);
    if (index == kNil || index >= used_) return kNil;
    const WheelLinks& e = links(index);
    if (e.generation() != static_cast<std::uint32_t>(id >> 32) || e.level() >= kLevelRetired) return kNil;
    return index;
  }

  std::uint64_t id_of(std::uint32_t index) const noexcept {
    return (std::uint64_t{links(index).generation()} << 32) | index;
  }

  std::size_t memory_bytes() const noexcept { return chunks_.size() * (sizeof(Chunk) + sizeof(void*)); }

 private:
  /// Sets entry i's bit in the bitmaps.
  void mark_free(std::uint32_t i) noexcept {
    Chunk& c = *chunks_[i >> kChunkBits];
    const std::uint32_t at = i & (kChunkSize - 1);
    c.free_bits[at / 64] |= std::uint64_t{1} << (at % 64);
    c.free_words |= std::uint64_t{1} << (at / 64);
    const std::uint32_t chunk = i >> kChunkBits;
    chunks_with_free_[chunk / 64] |= std::uint64_t{1} << (chunk % 64);
    if (chunk / 64 < first_free_word_) first_free_word_ = chunk / 64;
    ++free_count_;
  }

  struct Chunk {
    WheelLinks links[kChunkSize];
    WheelPayload payload[kChunkSize];
    std::uint64_t free_bits[kChunkSize / 64];  // bit: the entry is free
    std::uint64_t free_words;                  // bit w: free_bits[w] != 0
  };

  std::uint32_t capacity() const noexcept { return static_cast<std::uint32_t>(chunks_.size()) * kChunkSize; }
  void grow() {
    if (capacity() >= kMaxEntries) throw std::length_error("TimerWheel: more than 2^31 - 4096 timers pending");
    chunks_.reserve(chunks_.size() + 1);  // may throw; nothing changed yet
    if (chunks_.size() % 64 == 0) chunks_with_free_.reserve(chunks_.size() / 64 + 1);
    auto chunk = std::make_unique_for_overwrite<Chunk>();
    std::fill(std::begin(chunk->free_bits), std::end(chunk->free_bits), std::uint64_t{0});
    chunk->free_words = 0;
    chunks_.push_back(std::move(chunk));
    if (chunks_.size() > chunks_with_free_.size() * 64) chunks_with_free_.push_back(0);
    if (used_ == 0) used_ = 1;  // index 0 stays unused: kNil
  }
  /// Takes the lowest word of free bits off the bitmaps into taking_; free_count_ > 0.
  void check_out_lowest_free_word() noexcept {
    while (chunks_with_free_[first_free_word_] == 0) ++first_free_word_;
    std::uint64_t& chunk_bits = chunks_with_free_[first_free_word_];
    const std::uint32_t chunk = first_free_word_ * 64 + static_cast<std::uint32_t>(std::countr_zero(chunk_bits));
    Chunk& c = *chunks_[chunk];
    const auto word = static_cast<std::uint32_t>(std::countr_zero(c.free_words));
    taking_ = c.free_bits[word];
    taking_base_ = (chunk << kChunkBits) | (word * 64);
    free_count_ -= static_cast<std::uint32_t>(std::popcount(taking_));
    c.free_bits[word] = 0;
    c.free_words &= c.free_words - 1;
    if (c.free_words == 0) chunk_bits &= ~(std::uint64_t{1} << (chunk % 64));
  }

  std::vector<std::unique_ptr<Chunk>> chunks_;
  std::vector<std::uint64_t> chunks_with_free_;  // bit c: chunk c has a free entry
  std::uint32_t used_ = 0;                       // entries handed out at least once, plus index 0
  std::uint32_t last_freed_ = kNil;              // the entry freed last, when not in the bitmaps
  std::uint32_t free_count_ = 0;                 // bits set in the bitmaps
  std::uint64_t taking_ = 0;                     // free entries checked out, handed out lowest first
  std::uint32_t taking_base_ = 0;                // the index of taking_'s bit 0
  std::uint32_t first_free_word_ = 0;            // no word of chunks_with_free_ before it is set
};

// ---- WheelLevel: one coarse level ---------------------------------------------------------------
//
// A coarse level has 128 blocks. Its entries sit in the wheel's slot lists; beside them the
// level keeps, per block, how many entries it holds, its earliest deadline and how many entries
// share that deadline (so the wheel's next_fire() is exact), a bitmap of the occupied blocks,
// and where the walk that moves its front block down a level stands. timer_wheel.cpp says when
// blocks move; this type only keeps the counts straight. Private to the wheel.
//
// Thread: the wheel's. Cost: every function O(1).

/// One block of a coarse level: the entries due within its width.
struct CoarseBlock {
  std::uint32_t count = 0;
  std::uint32_t min_count = 0;  ///< entries at min_ms; 0 with count > 0 means "relearn it"
  std::int64_t min_ms = 0;
  /// True when the earliest deadline must be relearned by walking the block's list.
  bool min_unknown() const noexcept { return count > 0 && min_count == 0; }
};

/// Where the walk moving one block down a level stands.
struct BlockDrain {
  std::int64_t block = -1;      ///< the block being moved; -1 when none
  std::uint32_t cursor = kNil;  ///< the next entry to move (walking from the tail); kNil: the tail
  bool skipped = false;         ///< the walk left earliest-deadline entries behind the cursor
  std::int64_t progress_ms = 0; ///< how far in time the moving has got
};

class WheelLevel {
 public:
  static constexpr std::uint32_t kBits = 7;
  static constexpr std::uint32_t kBlocks = std::uint32_t{1} << kBits;

  CoarseBlock& block(std::uint32_t index) noexcept { return blocks_[index]; }
  const CoarseBlock& block(std::uint32_t index) const noexcept { return blocks_[index]; }
  bool occupied(std::uint32_t index) const noexcept { return occupied_.test(index); }
  /// Entries on the level.
  std::uint64_t count() const noexcept { return count_; }

  /// An entry due at `deadline_ms` joined block `index`.
  void added(std::uint32_t index, std::int64_t deadline_ms) noexcept {
    CoarseBlock& b = blocks_[index];
    if (b.count == 0 || deadline_ms < b.min_ms) {
      b.min_ms = deadline_ms;
      b.min_count = 1;
    } else if (deadline_ms == b.min_ms) {
      ++b.min_count;
    }
    ++b.count;
    ++count_;
    occupied_.set(index);
  }

  /// An entry due at `deadline_ms` left block `index`. Removing the last entry at the earliest
  /// deadline leaves it unknown, to be relearned when asked.
  void removed(std::uint32_t index, std::int64_t deadline_ms) noexcept {
    CoarseBlock& b = blocks_[index];
    --b.count;
    --count_;
    if (b.count == 0) {
      occupied_.clear(index);
      b.min_count = 0;
    } else if (deadline_ms == b.min_ms && b.min_count > 0) {
      --b.min_count;
    }
  }

  /// The first occupied block after block `current` (the one time is in), wrapping around the
  /// ring; `none` when the level is empty.
  std::int64_t front_block(std::int64_t current, std::int64_t none) const noexcept {
    const auto from = static_cast<std::uint32_t>(static_cast<std::uint64_t>(current + 1) & (kBlocks - 1));
    const std::uint32_t index = occupied_.find_from(from);
    if (index == RingBitmap<kBlocks>::kNone) return none;
    return current + 1 + ((index - from) & (kBlocks - 1));
  }

  BlockDrain& drain() noexcept { return drain_; }
  /// Starts moving `block` down, its window opening at `start_ms`, unless that walk is under way.
  void begin_drain(std::int64_t block, std::int64_t start_ms) noexcept {
    if (drain_.block != block) drain_ = BlockDrain{block, kNil, false, start_ms};
  }
  /// The block has moved down whole.
  void end_drain() noexcept { drain_ = BlockDrain{}; }
  /// Walks must leave entries of one deadline in tail-to-head order: a walk that skipped some
  /// starts again at the tail.
  void restart_walk_if_skipped() noexcept {
    if (drain_.skipped) {
      drain_.cursor = kNil;
      drain_.skipped = false;
    }
  }

 private:
  CoarseBlock blocks_[kBlocks];
  RingBitmap<kBlocks> occupied_;
  std::uint64_t count_ = 0;
  BlockDrain drain_;
};

// ---- WheelCore: the wheel -----------------------------------------------------------------------

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

// ---- inline fast paths: the calls an event loop makes every frame -------------------------------

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
