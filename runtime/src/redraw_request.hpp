// RedrawRequest: the soonest instant at which a window was asked to draw again
// (WindowRuntime::request_redraw_at and its kin), kept in one atomic so that any thread may ask.
// Private to the library.
//
// Thread: ask(), claim_wake() and sooner_than_sleep() from any thread; due(), armed(), take() on
// the UI thread.
// Cost: a few atomic operations each; nothing allocates.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "cadence/result.hpp"
#include "cadence/time.hpp"

namespace cadence::detail {

class RedrawRequest {
 public:
  explicit RedrawRequest(ClockKind kind) noexcept : kind_(kind) {}

  /// Keeps the sooner of `at` and what was asked for before; true when `at` is the sooner.
  /// Errors: clock_mismatch for an instant of another clock (nothing changes).
  Result<bool> ask(Instant at) {
    if (at.kind() != kind_) {
      return Error{Errc::clock_mismatch, std::string("a redraw was asked for at an instant of the ") +
                                             to_string(at.kind()) + " clock, but this runtime reads the " +
                                             to_string(kind_) + " clock; use the runtime's now()"};
    }
    // The end of the timeline is one nanosecond short of it: kNone means nothing asked for.
    const std::int64_t ns = std::min(at.since_origin().count(), kNone - 1);
    std::int64_t seen = ns_.load(std::memory_order_seq_cst);
    while (ns < seen) {
      if (ns_.compare_exchange_weak(seen, ns, std::memory_order_seq_cst)) return true;
    }
    return false;
  }
  /// After an ask() from another thread made the instant sooner: whether to wake the loop,
  /// which sleeps for the instant it last looked at. True once per look.
  bool claim_wake() { return !rung_.exchange(true, std::memory_order_seq_cst); }
  /// Whether `at` comes before what the loop sleeps until (armed()); while the loop is deciding
  /// (between due() and armed()), always.
  bool sooner_than_sleep(Instant at) const {
    return at.since_origin().count() < sleep_.load(std::memory_order_seq_cst);
  }

  /// UI: the instant asked for, or nullopt; the loop is about to decide how long to sleep (a
  /// request from another thread meanwhile wakes it: armed() says until when it sleeps).
  std::optional<Instant> due() {
    sleep_.store(kNone, std::memory_order_seq_cst);
    rung_.store(false, std::memory_order_seq_cst);
    const std::int64_t ns = ns_.load(std::memory_order_seq_cst);
    if (ns == kNone) return std::nullopt;
    return Instant::at(kind_, Duration{ns});
  }
  /// UI: the loop sleeps until `until` (nullopt: until an event), having read due() before.
  void armed(std::optional<Instant> until) {
    sleep_.store(until ? until->since_origin().count() : kNone, std::memory_order_seq_cst);
  }
  /// UI, in a frame starting at `frame_start`: true (and the request is gone) when it is due by
  /// then; a request for a later instant stays.
  bool take(Instant frame_start) {
    const std::int64_t now = frame_start.since_origin().count();
    std::int64_t seen = ns_.load(std::memory_order_seq_cst);
    while (seen != kNone && seen <= now) {  // a frame at the end of the timeline: kNone is not a request
      if (ns_.compare_exchange_weak(seen, kNone, std::memory_order_seq_cst)) return true;
    }
    return false;
  }

 private:
  static constexpr std::int64_t kNone = std::numeric_limits<std::int64_t>::max();
  std::atomic<std::int64_t> ns_{kNone};  // since the clock's origin; kNone: nothing asked for
  std::atomic<bool> rung_{false};        // the waker ran since the UI thread last looked
  std::atomic<std::int64_t> sleep_{kNone};  // what the loop sleeps until; kNone: until an event, or deciding
  ClockKind kind_;
};

}  // namespace cadence::detail
