// TableQueue: the queue a TimerTable files its timers in (the wheel or the heap, as the
// runtime's Options say) and the one question only the table asks of it: which tokens are filed
// under the queue's next tick, so that the table, which keeps nanosecond due times, can tell the
// exact instant of its next timer. Private to the library.
//
// Ticks are absolute here (milliseconds on the table's Timeline, from 0), not delays.
// Thread: the runtime's. Re-entry: none; it calls no code of the caller's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <variant>
#include <vector>

#include "cadence/export.hpp"
#include "cadence/heap_timer_queue.hpp"
#include "cadence/timer_queue.hpp"
#include "cadence/timer_wheel.hpp"
#include "cadence/window_runtime.hpp"

namespace cadence::detail {

/// Exported from a shared build for the library's own tests only; not part of the API.
class CADENCE_RUNTIME_API TableQueue {
 public:
  /// The most tokens next_tokens() lists; a busier tick is not listed.
  static constexpr std::size_t kListMax = 64;
  explicit TableQueue(QueueKind kind);

  /// Files `token` under `tick` (> now()). O(1) wheel, O(log n) heap.
  QueueId schedule(std::int64_t tick, Token token);
  /// Takes a pending entry out; a fired or cancelled one is ignored. O(1) wheel, O(log n) heap.
  void cancel(QueueId id);
  /// Moves the queue to `tick` and returns the tokens that came due, in fire order; the vector
  /// is valid until the next call. Earlier ticks leave it where it is.
  const std::vector<Token>& advance(std::int64_t tick);
  std::int64_t now() const noexcept { return now_; }
  /// The queue's next tick that holds a timer; nullopt when it is empty.
  std::optional<std::int64_t> next_tick();
  /// The tokens filed under next_tick(), in fire order, or nullptr when the queue cannot list
  /// them cheaply: more than kListMax, or still on a coarse level of the wheel (more than about
  /// 16 s away, or in a large block). Empty when the queue is. The answer is kept until a
  /// schedule, a cancel or a firing advance changes it, or (not listed) until time reaches the
  /// tick from which the queue said asking again may help. Cost: O(kListMax) when it asks again
  /// (for a block the wheel is moving down, finishing that move: at most
  /// TimerWheel::kPeekDrainMax entries), else O(1).
  const std::vector<Token>* next_tokens();

 private:
  enum class Listing : std::uint8_t { stale, listed, unlisted };

  std::variant<TimerWheel, HeapTimerQueue> queue_;
  std::vector<Token> fired_;
  std::vector<Token> next_;
  Listing listing_ = Listing::stale;
  std::int64_t ask_again_ = 0;  // not listed: from this now() the queue may list them
  std::int64_t now_ = 0;        // the queue's now(), kept here to save a dispatch
};

}  // namespace cadence::detail
