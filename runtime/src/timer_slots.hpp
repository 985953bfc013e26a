// TimerSlots: where a TimerTable keeps its timers: one TimerSlot each, found by id and by owner,
// reused once freed. The slot record says what the table knows of one timer. Private to the
// library.
//
// Thread: the runtime's. Re-entry: none; it calls no code of the caller's, and release() hands
// the timer back for the caller to destroy (a callback's destructor is app code).
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "cadence/ids.hpp"
#include "cadence/time.hpp"
#include "cadence/timer.hpp"
#include "cadence/timer_status.hpp"

namespace cadence::detail {

enum class SlotState : std::uint8_t { free, scheduled, animating, paused };

/// When a timer runs next and when it ends.
struct SlotTimes {
  Instant due;                     ///< its next due time, before slack (while scheduled)
  std::optional<Instant> expires;  ///< created + timeout, moved on by pauses
};

/// What a paused timer had left, and why it paused. Meaningful in SlotState::paused.
struct SlotPause {
  Duration to_due{0};
  Duration to_expiry{0};
  bool every_frame = false;  ///< it resumes as an animation timer
  bool by_hiding = false;    ///< the window's hiding paused it: showing the window resumes it
};

/// What a timer has done so far; TimerStatus reports it.
struct SlotHistory {
  Instant created;
  std::optional<Instant> last_run;
  std::uint64_t run_count = 0;
  std::uint64_t last_frame = 0;  ///< the table's frame number of its last run
  TimerLateness lateness;
};

struct TimerSlot {
  TimerId id;
  std::optional<Timer> timer;   ///< empty while free
  SlotState state = SlotState::free;
  bool stopped = false;         ///< it runs no more; its removal is pending
  std::uint32_t generation = 0; ///< bumped when freed or paused: older animation entries are stale
  std::uint64_t order = 0;      ///< its place among the table's adds: ties run in this order
  SlotTimes times;
  SlotPause pause;
  SlotHistory history;
};

class TimerSlots {
 public:
  /// A slot for `id`, registered under its owner if it has one; `timer` moves in. O(1) amortized.
  std::uint32_t allocate(TimerId id, Timer timer);
  /// Frees slot `i` and hands back its timer, for the caller to destroy once the table is
  /// consistent again. O(timers of its owner).
  [[nodiscard]] std::optional<Timer> release(std::uint32_t i);

  TimerSlot* find(TimerId id);
  const TimerSlot* find(TimerId id) const;
  std::uint32_t index_of(const TimerSlot& s) const { return static_cast<std::uint32_t>(&s - slots_.data()); }
  TimerSlot& operator[](std::uint32_t i) { return slots_[i]; }
  const TimerSlot& operator[](std::uint32_t i) const { return slots_[i]; }
  /// Slots ever used, free ones included: indices run from 0 to capacity() - 1.
  std::uint32_t capacity() const noexcept { return static_cast<std::uint32_t>(slots_.size()); }
  /// Live timers.
  std::size_t size() const noexcept { return index_.size(); }
  bool contains(TimerId id) const { return index_.contains(id); }
  /// The live timers with that owner, in no particular order. O(timers of the owner).
  std::vector<TimerId> timers_of(WidgetId owner) const;

 private:
  std::vector<TimerSlot> slots_;
  std::vector<std::uint32_t> free_;
  std::unordered_map<TimerId, std::uint32_t> index_;
  std::unordered_map<std::uint64_t, std::vector<TimerId>> owners_;  // WidgetId value -> its timers
};

}  // namespace cadence::detail
