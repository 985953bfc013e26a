// Baseline: a runtime that works the way azul's does. Timers live in an ordered map keyed by id;
// every frame visits every timer and asks it whether it is ready (delay elapsed, interval
// elapsed), and the time to the next wake-up is the minimum over every timer. Each thread has a
// mutex-guarded channel each way; every frame sends every thread a Tick and polls one message
// from each.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

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

  ~AzulStyleRuntime() {
    for (auto& t : threads_) {
      {
        std::lock_guard lock(t->mutex);
        t->stop = true;
      }
      t->cv.notify_all();
      t->thread.join();
    }
  }

  /// A worker that blocks on its channel and goes back to waiting after each message.
  void add_idle_thread() {
    auto t = std::make_unique<ThreadEntry>();
    ThreadEntry* raw = t.get();
    t->thread = std::thread([raw] {
      std::unique_lock lock(raw->mutex);
      while (!raw->stop) {
        raw->cv.wait(lock, [raw] { return raw->stop || !raw->to_worker.empty(); });
        raw->to_worker.clear();
      }
    });
    threads_.push_back(std::move(t));
  }

  /// azul's run_all_threads: a Tick to every thread, then one message from each.
  void run_threads() {
    for (auto& t : threads_) {
      {
        std::lock_guard lock(t->mutex);
        t->to_worker.push_back(0);  // Tick
      }
      t->cv.notify_one();
      std::lock_guard lock(t->mutex);
      if (!t->to_ui.empty()) t->to_ui.pop_front();
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
  struct ThreadEntry {
    std::mutex mutex;
    std::condition_variable cv;
    std::deque<int> to_worker;
    std::deque<int> to_ui;
    bool stop = false;
    std::thread thread;
  };
  std::map<std::uint64_t, Entry> timers_;
  std::vector<std::unique_ptr<ThreadEntry>> threads_;
};

}  // namespace cadence::bench
