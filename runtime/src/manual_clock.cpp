#include "cadence/manual_clock.hpp"

#include "text.hpp"

namespace cadence {

ManualClock::ManualClock(Instant start) noexcept : ns_(start.since_origin().count()) {}

Instant ManualClock::now() const noexcept {
  return Instant::at(ClockKind::tick, Duration{ns_.load(std::memory_order_acquire)});
}

TimeSource ManualClock::source() const {
  return TimeSource::custom(ClockKind::tick, [this] { return now().since_origin(); });
}

Status ManualClock::advance(Duration d) {
  if (d < Duration::zero()) {
    return Error{Errc::invalid_argument, "ManualClock::advance(" + detail::num(d.count()) +
                                             " ns): a manual clock only moves forward; use set() to "
                                             "simulate a clock that goes backwards"};
  }
  ns_.store(saturating_add(Duration{ns_.load(std::memory_order_relaxed)}, d).count(), std::memory_order_release);
  return {};
}

Status ManualClock::set(Instant t) {
  if (t.kind() != ClockKind::tick) {
    return Error{Errc::clock_mismatch, "ManualClock::set(): the instant belongs to the " +
                                           std::string(to_string(t.kind())) +
                                           " clock; a manual clock takes tick instants"};
  }
  ns_.store(t.since_origin().count(), std::memory_order_release);
  return {};
}

void ManualClock::jump_forward_to(Instant t) {
  if (t > now()) ns_.store(t.since_origin().count(), std::memory_order_release);  // throws ClockMismatch
}

}  // namespace cadence
