// cadence/detail/ring_bitmap.hpp: which slots of a wheel level hold timers.
//
// One bit per slot plus one summary bit per 64-bit word, so "the first occupied slot at or
// after p, wrapping around" costs a few word reads whatever the number of timers: at most two
// masked words of the bitmap and a walk over kBits / 4096 summary words. Storage comes zeroed
// from calloc, so a level nobody uses costs address space, not memory.
#pragma once

#include <bit>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>

namespace cadence::detail {

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

}  // namespace cadence::detail
