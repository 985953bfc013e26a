// The process's id counters (TimerId::unique, ThreadId::unique), seen from inside the runtime:
// the C API makes them skip ids an app chose itself (cadence.h's id rule). Private.
#pragma once

#include <cstdint>

#include "cadence/export.hpp"

namespace cadence::detail {

/// How far ahead of a counter an id may lie for the counter to jump past it: 2^40, which fresh
/// ids would take 12 days to reach at a million a second.
inline constexpr std::uint64_t kNearIds = std::uint64_t{1} << 40;
/// The counter never jumps to this or beyond (an app that chose ids 2^40 apart eight million
/// times would get there): 2^63 fresh ids stay above it, so the counter never wraps to 0 or to
/// the reserved ids, and an id chosen up here is one the caller skips itself.
inline constexpr std::uint64_t kHighestJump = std::uint64_t{1} << 63;

/// Makes TimerId::unique() never return `id`: true when it never will (`id` is behind the
/// counter, or at most kNearIds ahead of it and below kHighestJump, and the counter moved past
/// it); false for an id further ahead, which the caller must skip itself.
/// Thread: any. Cost: one atomic CAS loop.
CADENCE_RUNTIME_API bool skip_timer_id(std::uint64_t id) noexcept;  // exported for the tests
/// The same for ThreadId::unique().
CADENCE_RUNTIME_API bool skip_thread_id(std::uint64_t id) noexcept;

}  // namespace cadence::detail
