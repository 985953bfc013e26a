// The stats panel: how often the app wakes and why, how many frames it draws, how much CPU it
// uses, and how late timers run. The counters change in every frame they are drawn in, so they
// are drawn inside a cadence::Volatile scope: watching the panel does not change what it
// measures. A checkbox shows one unmarked, to see the window name what keeps it awake.
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
  double wakeups_per_second_ = 0;
  double cpu_percent_ = 0;
  bool started_ = false;
  bool unmarked_counter_ = false;
};

}  // namespace demo
