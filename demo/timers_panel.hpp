// The timers panel: add one-shot, interval and timeout timers from the UI and watch each one's
// calls, time left (frozen while paused) and lateness (last and worst, from TimerStatus). The
// panel's timers belong to one WidgetId, so "pause all", "resume all" and "remove all" are one
// call each; each timer's when-hidden policy says what it does while the window is minimized.
// This is the pattern to copy for app timers.
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include <cadence/window.hpp>

namespace demo {

class TimersPanel {
 public:
  void draw(cadence::WindowRuntime& runtime, cadence::CallbackContext& ctx);
  /// Adds an interval timer and a one-shot (the headless demo's script).
  void add_examples(cadence::CallbackContext& ctx);
  /// Lateness of app timers' runs, in milliseconds, newest last.
  const std::deque<float>& lateness_ms() const noexcept { return lateness_ms_; }

 private:
  struct Entry {
    cadence::TimerId id;
    std::string kind;
    std::uint64_t calls = 0;
  };
  /// The owner of every timer of this panel.
  static constexpr cadence::WidgetId kPanel{1};
  void add(cadence::CallbackContext& ctx, std::string kind, cadence::Timer timer);
  cadence::Timer counting(Entry& entry);

  std::vector<std::unique_ptr<Entry>> entries_;
  std::deque<float> lateness_ms_;
  int kind_ = 1;  // 0 one-shot, 1 interval, 2 interval with timeout
  int delay_ms_ = 500;
  int interval_ms_ = 250;
  int timeout_ms_ = 3000;
  int when_hidden_ = 0;  // 0 keep running, 1 pause, 2 throttle to once a second
  std::string refused_;
};

}  // namespace demo
