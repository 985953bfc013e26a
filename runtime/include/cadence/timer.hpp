// cadence/timer.hpp: what a timer is and when it runs.
//
// A Timer is a callback plus three knobs, all measured on the runtime's clock:
// - delay:    wait this long after the timer is added before the first run (default 0).
// - interval: the gap between due times after the first run. No interval: the timer runs on
//             every frame while it lives (an animation timer).
// - timeout:  total lifetime from when it was added. At the first frame at or after that
//             instant the timer runs one last time with `is_about_to_finish` set, then is removed.
//             That run stands for the due times its timeout reached, as skip counts them (a
//             100 ms timer that ran at 100 with a 450 ms timeout, next run at 460: due 400,
//             missed 2); with none since its last run, it is due at the timeout itself.
//
// When it runs, exactly (frame_start is taken once per frame, before any callback runs, so a
// slow callback does not move the schedule):
// - A timer is due at `added + delay`, then every `interval` after the previous due time, and
//   runs at the first frame whose frame_start is at or after that, to the nanosecond; never
//   earlier. A 100 ms interval timer whose callback takes 30 ms runs again 100 ms after it was
//   due: 70 ms after the callback returned.
// - Missed ticks, after the app stalled past several due times (a 100 ms timer, a 5 s stall):
//   skip (the default) runs once at the first frame after the stall, reports 49 missed ticks
//   in `TimerCallbackInfo::missed_ticks`, and stays on its original 100 ms grid; burst runs
//   once for every due time it missed, back to back in that frame (at most kMaxBurstRuns per
//   frame; the rest in the frames right after): 50 runs; delay runs once and restarts its
//   schedule from that frame: the next run is 100 ms later.
//   With the stall ending at 5,050 ms (last run at 0): skip and burst run next at 5,100 ms,
//   delay at 5,150 ms.
// - Slack lets a timer run up to `slack` late, so that timers close together share one wake-up:
//   its due time is rounded up to the next multiple of the largest power of two of
//   milliseconds not above `slack`, and timers with slack gather on those shared instants.
// - Order within a frame: the timers that come due run in the order of the instants they run
//   at (with slack, the rounded instant), ties in the order they were added; then the animation
//   timers, in the order they were added, whatever their delays, pauses and resumes. A restart
//   (remove, then add under the same id) counts as a new add.
//
//     #include <cadence/timer.hpp>
//     using namespace cadence;
//     using namespace std::chrono_literals;
//     double ease(Duration since_start);  // 0 to 1 over 300 ms
//     bool caret_visible = true;
//     double opacity = 0;
//     const Instant start = TimeSource::system().now();
//     Timer blink = Timer::every(530ms, [&](TimerCallbackInfo&) {
//       caret_visible = !caret_visible;
//       return TimerCallbackReturn::redraw();
//     });
//     Timer fade = Timer::animation([&](TimerCallbackInfo& info) {
//       opacity = info.is_about_to_finish ? 1.0 : ease(info.frame_start - start);
//       return TimerCallbackReturn::redraw();
//     }).with_timeout(300ms);
#pragma once

#include <concepts>
#include <cstdint>
#include <functional>
#include <optional>
#include <type_traits>
#include <utility>

#include "cadence/export.hpp"
#include "cadence/ids.hpp"
#include "cadence/result.hpp"
#include "cadence/time.hpp"

namespace cadence {

class CallbackContext;

/// What a callback asks the window to do after it returns.
enum class Update : std::uint8_t {
  nothing,        ///< no visible change
  redraw_window,  ///< render this window again
  redraw_all,     ///< render every window of the app's EventLoop again (a Window run by hand: itself)
};

/// The larger of two update requests (redraw_all > redraw_window > nothing).
/// Cost: O(1).
constexpr Update merge(Update a, Update b) noexcept { return a > b ? a : b; }

/// What to do with ticks missed while the app was stalled. See the header comment for numbers.
enum class MissedTicks : std::uint8_t { skip, burst, delay };

/// What an app timer does while its window is minimized or hidden (WindowRuntime::set_hidden).
/// System timers pause, whatever this says: the window's caret and ImGui's timers stop.
struct WhenHidden {
  enum class Kind : std::uint8_t {
    keep,      ///< runs as if shown (the default: a download's timeout, an autosave)
    pause,     ///< paused, keeping the time it had left; resumed when shown (a clock display)
    throttle,  ///< runs at most once per `period` while hidden (a poll that may slow down)
  };
  Kind kind = Kind::keep;
  Duration period{0};  ///< throttle only: > 0

  static constexpr WhenHidden keep_running() noexcept { return {}; }
  static constexpr WhenHidden pause() noexcept { return {Kind::pause, Duration{0}}; }
  /// At most one run per `at_most_every` while hidden; its last run, at its timeout, is not held
  /// back. Each run stands for the due times it skipped (as MissedTicks::skip, whatever the
  /// timer's own policy: a burst does not make up for them while hidden).
  static constexpr WhenHidden throttle(Duration at_most_every) noexcept { return {Kind::throttle, at_most_every}; }
  friend constexpr bool operator==(WhenHidden, WhenHidden) = default;
};

/// Identifies the widget a timer belongs to, for the app's own bookkeeping (optional).
struct WidgetId {
  std::uint64_t value = 0;
  friend constexpr bool operator==(WidgetId, WidgetId) = default;
};

/// What a timer callback returns: an update request, and whether the timer goes on.
struct TimerCallbackReturn {
  Update update = Update::nothing;
  bool terminate = false;

  static constexpr TimerCallbackReturn keep() noexcept { return {}; }
  static constexpr TimerCallbackReturn redraw() noexcept { return {Update::redraw_window, false}; }
  static constexpr TimerCallbackReturn stop() noexcept { return {Update::nothing, true}; }
  static constexpr TimerCallbackReturn redraw_and_stop() noexcept { return {Update::redraw_window, true}; }
};

/// What a timer callback is told about the run.
struct TimerCallbackInfo {
  TimerId id;
  std::optional<WidgetId> owner;
  Instant frame_start;             ///< the same instant for every timer of this frame
  /// When this run was due (frame_start - due = how late). After a stall: with the skip policy
  /// the last due time reached (the skipped ones are missed_ticks), with burst each run's own,
  /// with delay the first one missed; the last run, at the timeout, and a throttled run as with
  /// skip.
  Instant due;
  std::uint64_t call_count = 0;    ///< runs before this one (0 on the first run)
  std::uint64_t missed_ticks = 0;  ///< due times skipped since the last run (skip policy)
  bool is_about_to_finish = false; ///< the timeout has passed: this is the last run
  CallbackContext& context;        ///< add or remove timers, request a redraw, start threads
};

/// The callback type. It runs on the UI thread, in the runtime's frame, and may call its runtime
/// (window_runtime.hpp: inside a frame), as may the destructor of anything it captured: the
/// runtime destroys a callback, on the UI thread, only once it is done with the timer. If it
/// throws, the timer is removed and the error reported in the frame's change-set; the exception
/// never leaves the frame.
using TimerCallback = std::function<TimerCallbackReturn(TimerCallbackInfo&)>;

/// For every member: Thread: any; a Timer is a plain value until it is added to a runtime.
/// Where: anywhere.
/// Errors: none; validate() reports bad knobs (add_timer calls it).
/// Cost: O(1); the constructor may allocate the callback.
class CADENCE_RUNTIME_API Timer {
 public:
  /// The most runs a burst timer makes in one frame while catching up.
  static constexpr std::uint32_t kMaxBurstRuns = 100;

  /// A timer that runs `callback` on every frame (no delay, interval or timeout yet).
  /// `callback` takes TimerCallbackInfo& and returns TimerCallbackReturn or void (void: keep
  /// running, no redraw).
  template <class F>
    requires std::invocable<F&, TimerCallbackInfo&>
  explicit Timer(F fn) : callback_(wrap(std::move(fn))) {}

  /// Runs every `interval`, the first time one interval after it is added.
  template <class F>
  static Timer every(Duration interval, F callback) {
    return Timer(std::move(callback)).with_delay(interval).with_interval(interval);
  }
  /// Runs once, `delay` after it is added, with is_about_to_finish set.
  template <class F>
  static Timer once(Duration delay, F callback) {
    return Timer(std::move(callback)).with_delay(delay).with_timeout(delay);
  }
  /// Runs on every frame (the runtime wakes at the frame interval while it lives).
  template <class F>
  static Timer animation(F callback) {
    return Timer(std::move(callback));
  }

  Timer& with_delay(Duration d) & { delay_ = d; return *this; }
  Timer& with_interval(Duration d) & { interval_ = d; return *this; }
  Timer& with_timeout(Duration d) & { timeout_ = d; return *this; }
  Timer& with_missed_ticks(MissedTicks policy) & { missed_ticks_ = policy; return *this; }
  Timer& with_slack(Duration d) & { slack_ = d; return *this; }
  Timer& with_owner(WidgetId owner) & { owner_ = owner; return *this; }
  Timer& with_when_hidden(WhenHidden policy) & { when_hidden_ = policy; return *this; }
  Timer&& with_delay(Duration d) && { return std::move(with_delay(d)); }
  Timer&& with_interval(Duration d) && { return std::move(with_interval(d)); }
  Timer&& with_timeout(Duration d) && { return std::move(with_timeout(d)); }
  Timer&& with_missed_ticks(MissedTicks policy) && { return std::move(with_missed_ticks(policy)); }
  Timer&& with_slack(Duration d) && { return std::move(with_slack(d)); }
  Timer&& with_owner(WidgetId owner) && { return std::move(with_owner(owner)); }
  Timer&& with_when_hidden(WhenHidden policy) && { return std::move(with_when_hidden(policy)); }

  Duration delay() const noexcept { return delay_; }
  std::optional<Duration> interval() const noexcept { return interval_; }
  std::optional<Duration> timeout() const noexcept { return timeout_; }
  MissedTicks missed_ticks() const noexcept { return missed_ticks_; }
  Duration slack() const noexcept { return slack_; }
  std::optional<WidgetId> owner() const noexcept { return owner_; }
  WhenHidden when_hidden() const noexcept { return when_hidden_; }
  const TimerCallback& callback() const noexcept { return callback_; }

  /// Checks the knobs: a callback; delay, timeout and slack >= 0; an interval > 0 (no interval
  /// means every frame); a timeout no shorter than the delay (else the timer would end before
  /// its first run); a throttle period > 0, and no throttle on an animation timer (which runs on
  /// every frame: pause it instead).
  /// Errors: invalid_argument (a check above fails; the message names the value and the rule).
  Status validate() const;

 private:
  template <class F>
  static TimerCallback wrap(F f) {
    if constexpr (std::is_void_v<std::invoke_result_t<F&, TimerCallbackInfo&>>) {
      return [f = std::move(f)](TimerCallbackInfo& info) mutable {
        f(info);
        return TimerCallbackReturn{};
      };
    } else {
      return TimerCallback(std::move(f));
    }
  }

  TimerCallback callback_;
  Duration delay_{0};
  std::optional<Duration> interval_;
  std::optional<Duration> timeout_;
  Duration slack_{0};
  MissedTicks missed_ticks_ = MissedTicks::skip;
  std::optional<WidgetId> owner_;
  WhenHidden when_hidden_;
};

}  // namespace cadence
