// The timers panel: add one-shot, interval and timeout timers from the UI and watch each one's
// calls, next fire and lateness. This is the pattern to copy for app timers.
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
    float last_lateness_ms = 0;
  };
  void add(cadence::CallbackContext& ctx, std::string kind, cadence::Timer timer);
  cadence::Timer counting(Entry& entry);

  std::vector<std::unique_ptr<Entry>> entries_;
  std::deque<float> lateness_ms_;
  int kind_ = 1;  // 0 one-shot, 1 interval, 2 interval with timeout
  int delay_ms_ = 500;
  int interval_ms_ = 250;
  int timeout_ms_ = 3000;
  std::string refused_;
};

}  // namespace demo
