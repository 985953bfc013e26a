// WakeWatchdog: catches a wait that sleeps when it should not. It calls `wake` (an event that
// ends the wait) if the deadline passes before done(); fired() then says so.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace cadence::test {

class WakeWatchdog {
 public:
  WakeWatchdog(std::function<void()> wake, std::chrono::seconds deadline)
      : thread_([this, wake = std::move(wake), deadline] {
          std::unique_lock lock(m_);
          if (!cv_.wait_for(lock, deadline, [this] { return done_; })) {
            fired_ = true;
            wake();
          }
        }) {}
  ~WakeWatchdog() { done(); }
  WakeWatchdog(const WakeWatchdog&) = delete;
  WakeWatchdog& operator=(const WakeWatchdog&) = delete;

  /// The wait returned: stops the watchdog. True when it had to wake the wait.
  bool done() {
    {
      const std::lock_guard lock(m_);
      done_ = true;
    }
    cv_.notify_one();
    if (thread_.joinable()) thread_.join();
    return fired_;
  }

 private:
  std::mutex m_;
  std::condition_variable cv_;
  bool done_ = false;
  bool fired_ = false;
  std::thread thread_;  // last: starts once the rest exists
};

}  // namespace cadence::test
