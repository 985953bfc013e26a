// cadence/detail/wheel_level.hpp: the bookkeeping of one coarse level of TimerWheel.
//
// A coarse level has 128 blocks. Its entries sit in the wheel's slot lists; beside them the
// level keeps, per block, how many entries it holds, its earliest deadline and how many entries
// share that deadline (so the wheel's next_fire() is exact), a bitmap of the occupied blocks,
// and where the walk that moves its front block down a level stands. timer_wheel.cpp says when
// blocks move; this type only keeps the counts straight. Private to the wheel.
//
// Thread: the wheel's. Cost: every function O(1).
#pragma once

#include <cstdint>

#include "cadence/detail/ring_bitmap.hpp"
#include "cadence/detail/wheel_entry_pool.hpp"

namespace cadence::detail {

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

}  // namespace cadence::detail
