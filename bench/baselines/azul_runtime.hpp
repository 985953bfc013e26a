// Baseline: a runtime that works the way azul's does. Timers live in an ordered map keyed by id;
// every frame visits every timer and asks it whether it is ready (delay elapsed, interval
// elapsed), and the time to the next wake-up is the minimum over every timer.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>

#include "cadence/time.hpp"

namespace cadence::bench {

class AzulStyleRuntime {
 public:
  void add_timer(std::uint64_t id, Instant created, Duration delay, Duration interval, std::function<void()> callback) {
    timers_.emplace(id, Entry{created, std::nullopt, delay, interval, std::move(callback)});
  }

  /// One frame: every timer is checked; the ready ones run.
  void run_timers(Instant frame_start) {
    for (auto& [id, t] : timers_) {
      if (!t.last_run && frame_start - t.created < t.delay) continue;
      if (t.last_run && frame_start - *t.last_run < t.interval) continue;
      t.callback();
      t.last_run = frame_start;
    }
  }

  std::optional<Duration> next_wake(Instant now) const {
    std::optional<Duration> best;
    for (const auto& [id, t] : timers_) {
      const Instant next = t.last_run ? *t.last_run + t.interval : t.created + t.delay;
      const Duration left = std::max(Duration::zero(), next - now);
      if (!best || left < *best) best = left;
    }
    return best;
  }

 private:
  struct Entry {
    Instant created;
    std::optional<Instant> last_run;
    Duration delay;
    Duration interval;
    std::function<void()> callback;
  };
  std::map<std::uint64_t, Entry> timers_;
};

}  // namespace cadence::bench
