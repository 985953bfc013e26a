// cadence/detail/wheel_entry_pool.hpp: the wheel's timer entries.
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
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <vector>

namespace cadence::detail {

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

}  // namespace cadence::detail
