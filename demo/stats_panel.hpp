// The stats panel: how often the app wakes and why, how many frames it draws, how much CPU it
// uses, and how late timers run. The counters are sampled every two seconds, not shown live: a frame
// counter shown live changes in every frame it is drawn in, so the window's settle check
// would draw for ever to show it. Sampled, watching the panel does not change what it measures.
#pragma once

#include <chrono>
#include <deque>

#include <cadence/event_loop.hpp>

namespace demo {

/// CPU time this process used (all threads), user + system.
std::chrono::duration<double> process_cpu_time();

class StatsPanel {
 public:
  void draw(const cadence::EventLoop& loop, const cadence::Window& window, const std::deque<float>& app_lateness_ms);

 private:
  using Clock = std::chrono::steady_clock;
  Clock::time_point window_start_ = Clock::now();
  std::uint64_t wakeups_at_start_ = 0;
  std::chrono::duration<double> cpu_at_start_ = process_cpu_time();
  struct Counters {
    std::uint64_t frames_drawn = 0, frames_run = 0, loop_wakeups = 0;
    cadence::WakeReasons wakes;  // why the window's frames ran
  };
  void sample(const cadence::EventLoop& loop, const cadence::Window& window);
  Counters shown_;  // the counters as of the last sample
  double wakeups_per_second_ = 0;
  double cpu_percent_ = 0;
  bool started_ = false;
};

}  // namespace demo
