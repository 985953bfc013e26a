#include "cadence/timer.hpp"

#include "text.hpp"

namespace cadence {

// Emitted here, and so exported by a DLL (cadence/export.hpp); elsewhere the inline
// definition is enough, and this one deprecated.
#if defined(_WIN32)
constexpr std::uint32_t Timer::kMaxBurstRuns;
#endif

Status Timer::validate() const {
  using detail::describe;
  if (!callback_) return Error{Errc::invalid_argument, "the timer has no callback"};
  if (delay_ < Duration::zero()) {
    return Error{Errc::invalid_argument, "delay " + describe(delay_) +
                                             " is negative; the delay is the time from adding the timer to its "
                                             "first run and must be >= 0"};
  }
  if (interval_ && *interval_ <= Duration::zero()) {
    return Error{Errc::invalid_argument, "interval " + describe(*interval_) +
                                             " is not positive; leave the interval unset for a timer that runs on "
                                             "every frame"};
  }
  if (timeout_ && *timeout_ < Duration::zero()) {
    return Error{Errc::invalid_argument, "timeout " + describe(*timeout_) +
                                             " is negative; the timeout is the timer's lifetime from when it is "
                                             "added and must be >= 0"};
  }
  if (timeout_ && *timeout_ < delay_) {
    return Error{Errc::invalid_argument, "timeout " + describe(*timeout_) + " is shorter than delay " +
                                             describe(delay_) +
                                             ": the timer would end before its first run (both count from when "
                                             "it is added)"};
  }
  if (slack_ < Duration::zero()) {
    return Error{Errc::invalid_argument, "slack " + describe(slack_) + " is negative; slack is how late a timer may "
                                                                       "run to share a wake-up (>= 0)"};
  }
  if (when_hidden_.kind == WhenHidden::Kind::throttle) {
    if (when_hidden_.period <= Duration::zero()) {
      return Error{Errc::invalid_argument, "throttle period " + describe(when_hidden_.period) +
                                               " is not positive; it is the least time between two runs while the "
                                               "window is hidden (> 0)"};
    }
    if (!interval_) {
      return Error{Errc::invalid_argument, "an animation timer (no interval) cannot be throttled while hidden: it "
                                           "runs on every frame; use WhenHidden::pause() or give it an interval"};
    }
  }
  return {};
}

}  // namespace cadence
