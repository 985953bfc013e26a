// cadence/ids.hpp: timer and thread ids.
//
// - Id 0 names nothing: a default-constructed id is "no id".
// - Timer ids 0x0001-0x00FF are reserved for the system timers a window runs itself (cursor
//   blink, scroll momentum, drag autoscroll, tooltip delay). User timer ids start at 0x0100.
// - Thread ids 1-4 are reserved; user thread ids start at 5.
//
//     #include <cadence/ids.hpp>
//     #include <cassert>
//     cadence::TimerId blink = cadence::kCursorBlinkTimer;  // a reserved system id
//     cadence::TimerId mine = cadence::TimerId::unique();   // 0x0100, 0x0101, ...
//     assert(blink.is_system() && !mine.is_system());
#pragma once

#include <compare>
#include <cstdint>
#include <functional>

#include "cadence/export.hpp"

namespace cadence {

/// First timer id handed to app code; everything below is reserved for system timers.
inline constexpr std::uint64_t kFirstUserTimerId = 0x0100;
/// First thread id handed to app code; 0-4 are reserved.
inline constexpr std::uint64_t kFirstUserThreadId = 5;

/// Names a timer within a window runtime. A plain value.
/// For every member: Thread: any.
/// Where: anywhere, callbacks and destructors included.
/// Errors: none.
/// Cost: O(1); unique() is one atomic add.
struct CADENCE_RUNTIME_API TimerId {
  std::uint64_t value = 0;

  /// A fresh user timer id (>= 0x0100), never returned before in this process: drawn from one
  /// process-wide counter, unique across threads and windows (64 bits do not wrap in a process).
  static TimerId unique() noexcept;
  /// True for the reserved range 0x0001-0x00FF.
  constexpr bool is_system() const noexcept { return value != 0 && value < kFirstUserTimerId; }
  constexpr bool is_valid() const noexcept { return value != 0; }
  friend constexpr auto operator<=>(TimerId, TimerId) = default;
};

/// Names a background thread within a window runtime. For every member: as TimerId.
struct CADENCE_RUNTIME_API ThreadId {
  std::uint64_t value = 0;

  /// A fresh user thread id (>= 5), never returned before in this process (as TimerId::unique).
  static ThreadId unique() noexcept;
  /// True for the reserved range 1-4.
  constexpr bool is_system() const noexcept { return value != 0 && value < kFirstUserThreadId; }
  constexpr bool is_valid() const noexcept { return value != 0; }
  friend constexpr auto operator<=>(ThreadId, ThreadId) = default;
};

/// Caret blink in text fields (530 ms on, 530 ms off by default).
inline constexpr TimerId kCursorBlinkTimer{0x0001};
/// Scroll inertia after a wheel or trackpad flick.
inline constexpr TimerId kScrollMomentumTimer{0x0002};
/// Scrolling while a drag is held near an edge.
inline constexpr TimerId kDragAutoscrollTimer{0x0003};
/// Hover delay before a tooltip shows.
inline constexpr TimerId kTooltipDelayTimer{0x0004};
/// Dear ImGui's own timing: the next key or button repeat, drag-and-drop hold, hover delay.
inline constexpr TimerId kImGuiTimingTimer{0x0005};

}  // namespace cadence

template <>
struct std::hash<cadence::TimerId> {
  std::size_t operator()(cadence::TimerId id) const noexcept { return std::hash<std::uint64_t>{}(id.value); }
};
template <>
struct std::hash<cadence::ThreadId> {
  std::size_t operator()(cadence::ThreadId id) const noexcept { return std::hash<std::uint64_t>{}(id.value); }
};
