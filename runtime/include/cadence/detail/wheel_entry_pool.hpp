// cadence/detail/wheel_entry_pool.hpp: the wheel's timer entries.
//
// An entry is 28 bytes: two 32-bit links (the slot lists are circular and doubly linked, so
// cancel unlinks in O(1)), the deadline, the caller's token, and a tag that packs a 28-bit
// generation with the entry's level. Entries live in chunks of 4096 that are never moved, so
// growing the pool copies nothing and wastes at most one partly used chunk. Freed entries form
// a LIFO list (the most recently freed entry is the one still in cache).
//
// Ids are (generation << 32) | index. Index 0 is never used, so 0 is never a valid id and a
// zeroed link means "none". A generation that reaches its maximum retires its entry for good
// instead of wrapping, so no id can ever come back to life.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

namespace cadence::detail {

inline constexpr std::uint32_t kNil = 0;
inline constexpr std::uint32_t kLevelFree = 15;  // tag level of an entry on the free list
inline constexpr std::uint32_t kLevelRetired = 14;
inline constexpr std::uint32_t kMaxGeneration = (std::uint32_t{1} << 28) - 1;

struct WheelEntry {
  std::uint32_t next;
  std::uint32_t prev;
  std::uint32_t deadline_lo;
  std::uint32_t deadline_hi;
  std::uint32_t token_lo;
  std::uint32_t token_hi;
  std::uint32_t tag;  // generation << 4 | level

  std::int64_t deadline() const noexcept {
    return static_cast<std::int64_t>((std::uint64_t{deadline_hi} << 32) | deadline_lo);
  }
  void set_deadline(std::int64_t d) noexcept {
    deadline_lo = static_cast<std::uint32_t>(static_cast<std::uint64_t>(d));
    deadline_hi = static_cast<std::uint32_t>(static_cast<std::uint64_t>(d) >> 32);
  }
  std::uint64_t token() const noexcept { return (std::uint64_t{token_hi} << 32) | token_lo; }
  void set_token(std::uint64_t t) noexcept {
    token_lo = static_cast<std::uint32_t>(t);
    token_hi = static_cast<std::uint32_t>(t >> 32);
  }
  std::uint32_t generation() const noexcept { return tag >> 4; }
  std::uint32_t level() const noexcept { return tag & 15u; }
  void set_level(std::uint32_t level) noexcept { tag = (tag & ~15u) | level; }
};
static_assert(sizeof(WheelEntry) == 28, "the memory target counts on 28-byte entries");

class WheelEntryPool {
 public:
  static constexpr std::uint32_t kChunkBits = 12;
  static constexpr std::uint32_t kChunkSize = std::uint32_t{1} << kChunkBits;
  static constexpr std::uint32_t kMaxEntries = 0xfffff000u;

  WheelEntry& operator[](std::uint32_t i) noexcept { return chunks_[i >> kChunkBits][i & (kChunkSize - 1)]; }
  const WheelEntry& operator[](std::uint32_t i) const noexcept {
    return chunks_[i >> kChunkBits][i & (kChunkSize - 1)];
  }

  /// An entry with generation >= 1 and no links, taken from the free list or a fresh chunk.
  /// Throws std::length_error past kMaxEntries live entries, std::bad_alloc when memory runs out.
  std::uint32_t allocate() {
    if (free_head_ != kNil) {
      const std::uint32_t i = free_head_;
      free_head_ = (*this)[i].next;
      return i;
    }
    if (used_ == capacity()) grow();
    const std::uint32_t i = used_++;
    (*this)[i] = WheelEntry{kNil, kNil, 0, 0, 0, 0, (1u << 4) | kLevelFree};
    return i;
  }

  /// Returns entry `i` to the pool and bumps its generation, so its old id goes stale.
  void release(std::uint32_t i) noexcept {
    WheelEntry& e = (*this)[i];
    const std::uint32_t generation = e.generation();
    if (generation == kMaxGeneration) {
      e.tag = (generation << 4) | kLevelRetired;  // never handed out again
      return;
    }
    e.tag = ((generation + 1) << 4) | kLevelFree;
    e.next = free_head_;
    free_head_ = i;
  }

  /// The index of a pool slot if `id` names a live entry, else kNil. O(1).
  std::uint32_t find_live(std::uint64_t id) const noexcept {
    const auto index = static_cast<std::uint32_t>(id);
    const auto generation = static_cast<std::uint32_t>(id >> 32);
    if (index == kNil || index >= used_) return kNil;
    const WheelEntry& e = (*this)[index];
    if (e.generation() != generation || e.level() >= kLevelRetired) return kNil;
    return index;
  }

  static std::uint64_t id_of(std::uint32_t index, const WheelEntry& e) noexcept {
    return (std::uint64_t{e.generation()} << 32) | index;
  }

  std::size_t memory_bytes() const noexcept {
    return chunks_.size() * (sizeof(WheelEntry) * kChunkSize + sizeof(void*));
  }

 private:
  std::uint32_t capacity() const noexcept { return static_cast<std::uint32_t>(chunks_.size()) * kChunkSize; }
  void grow() {
    if (capacity() >= kMaxEntries) throw std::length_error("TimerWheel: more than 2^32 - 4096 timers pending");
    chunks_.push_back(std::make_unique_for_overwrite<WheelEntry[]>(kChunkSize));
    if (used_ == 0) used_ = 1;  // index 0 stays unused: kNil
  }

  std::vector<std::unique_ptr<WheelEntry[]>> chunks_;
  std::uint32_t used_ = 0;
  std::uint32_t free_head_ = kNil;
};

}  // namespace cadence::detail
