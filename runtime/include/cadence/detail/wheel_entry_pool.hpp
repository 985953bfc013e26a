// cadence/detail/wheel_entry_pool.hpp: the wheel's timer entries.
//
// An entry is split in two, because the operations that run all the time (schedule, cancel,
// unlinking a neighbour) touch only list links:
// - hot, 12 bytes: the two list links and a tag that packs a 28-bit generation with the entry's
//   level. 100,000 of them fit in 1.2 MB, inside a core's L2 cache.
// - cold, 16 bytes: the deadline and the caller's token, read when a timer fires, moves down a
//   level, or is cancelled from a coarse level.
// Entries live in chunks of 4096 that never move, so growing copies nothing and wastes at most
// one partly used chunk: 28 bytes per timer.
//
// Links are 32-bit. An index names an entry; a value with the top bit set marks the end of a
// slot's list and names the slot, so unlinking the first or last entry finds the slot without
// reading the deadline. Index 0 is never used, so 0 means "none" and is never a valid id.
//
// Ids are (generation << 32) | index. A generation that reaches its maximum retires its entry
// for good instead of wrapping, so no id can ever come back to life.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

namespace cadence::detail {

inline constexpr std::uint32_t kNil = 0;
inline constexpr std::uint32_t kEndBit = 0x80000000u;  // link value = kEndBit | slot
inline constexpr std::uint32_t kLevelFree = 15;        // tag level of an entry on the free list
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

  /// An entry with generation >= 1, taken from the free list or a fresh chunk.
  /// Throws std::length_error past kMaxEntries timers, std::bad_alloc when memory runs out;
  /// either way the pool is unchanged.
  std::uint32_t allocate() {
    if (free_head_ != kNil) {
      const std::uint32_t i = free_head_;
      free_head_ = links(i).next;
      return i;
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
    e.next = free_head_;
    free_head_ = i;
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
  struct Chunk {
    WheelLinks links[kChunkSize];
    WheelPayload payload[kChunkSize];
  };

  std::uint32_t capacity() const noexcept { return static_cast<std::uint32_t>(chunks_.size()) * kChunkSize; }
  void grow() {
    if (capacity() >= kMaxEntries) throw std::length_error("TimerWheel: more than 2^31 - 4096 timers pending");
    chunks_.reserve(chunks_.size() + 1);  // may throw; nothing changed yet
    chunks_.push_back(std::make_unique_for_overwrite<Chunk>());
    if (used_ == 0) used_ = 1;  // index 0 stays unused: kNil
  }

  std::vector<std::unique_ptr<Chunk>> chunks_;
  std::uint32_t used_ = 0;
  std::uint32_t free_head_ = kNil;
};

}  // namespace cadence::detail
