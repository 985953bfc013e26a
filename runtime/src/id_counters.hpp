// The process's id counters (TimerId::unique, ThreadId::unique), seen from inside the library:
// the C API makes them skip ids an app chose itself (cadence.h's id rule). Private.
#pragma once

#include <cstdint>

namespace cadence::detail {

/// How far ahead of a counter an id may lie for the counter to jump past it. 2^40 fresh ids
/// would take 12 days at a million a second; a jump this size can happen 2^24 times before 64
/// bits run out, which no app choosing ids by hand comes near.
inline constexpr std::uint64_t kNearIds = std::uint64_t{1} << 40;

/// Makes TimerId::unique() never return `id`: true when it never will (`id` is behind the
/// counter, or at most kNearIds ahead of it, and the counter moved past it); false for an id
/// further ahead, which the caller must skip itself. Thread: any. Cost: one atomic CAS loop.
bool skip_timer_id(std::uint64_t id) noexcept;
/// The same for ThreadId::unique().
bool skip_thread_id(std::uint64_t id) noexcept;

}  // namespace cadence::detail
