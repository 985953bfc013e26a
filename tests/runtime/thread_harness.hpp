// An event loop for thread tests: a runtime whose waker signals a condition variable, and a
// driver that runs frames until a condition holds, sleeping only until the waker rings, and
// never past a generous deadline.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <vector>

#include "cadence/manual_clock.hpp"
#include "cadence/window_runtime.hpp"

namespace cadence::testing {

using namespace std::chrono_literals;

class ThreadLoop {
 public:
  explicit ThreadLoop(WindowRuntime::Options options = {}) : runtime_(clock_.source(), options) {
    runtime_.set_waker([this] {
      std::lock_guard lock(mutex_);  // notify under the lock: the waiter cannot return (and
      woken_ = true;                 // destroy the loop) while the notify is still running
      ++wakes_;
      cv_.notify_all();
    });
  }

  WindowRuntime& runtime() { return runtime_; }
  ManualClock& clock() { return clock_; }
  int wakes() {
    std::lock_guard lock(mutex_);
    return wakes_;
  }

  /// One frame now; collects its failures and update.
  ApplyReport frame() {
    ApplyReport r = runtime_.poll(clock_.now());
    failures_.insert(failures_.end(), r.failures.begin(), r.failures.end());
    if (r.update != Update::nothing) ++redraws_;
    thread_messages_ += r.thread_messages;
    ++frames_;
    return r;
  }

  /// Runs frames until `done()` holds: a frame whenever the runtime says something waits, else
  /// a wait for the waker. False if the deadline passed first.
  bool run_until(const std::function<bool()>& done, std::chrono::milliseconds deadline = 20s) {
    const auto end = std::chrono::steady_clock::now() + deadline;
    while (true) {
      frame();
      if (done()) return true;
      if (runtime_.next_wake() == Duration::zero()) continue;
      std::unique_lock lock(mutex_);
      if (!cv_.wait_until(lock, end, [&] { return woken_; })) return done();
      woken_ = false;
    }
  }

  const std::vector<Failure>& failures() const { return failures_; }
  int frames() const { return frames_; }
  int redraws() const { return redraws_; }
  /// Worker messages the frames delivered, as their reports counted them.
  std::size_t thread_messages() const { return thread_messages_; }

 private:
  ManualClock clock_;
  std::mutex mutex_;
  std::condition_variable cv_;
  bool woken_ = false;
  int wakes_ = 0;
  std::vector<Failure> failures_;
  int frames_ = 0;
  int redraws_ = 0;
  std::size_t thread_messages_ = 0;
  // Declared last, destroyed first: once it is gone no worker can call the waker above.
  WindowRuntime runtime_;
};

/// A one-shot flag a test and a worker can wait on, with a deadline.
class Latch {
 public:
  void open() {
    std::lock_guard lock(m_);  // notify under the lock, so the latch outlives the notify
    open_ = true;
    cv_.notify_all();
  }
  bool wait(std::chrono::milliseconds deadline = 20s) {
    std::unique_lock lock(m_);
    return cv_.wait_for(lock, deadline, [&] { return open_; });
  }
  bool is_open() {
    std::lock_guard lock(m_);
    return open_;
  }

 private:
  std::mutex m_;
  std::condition_variable cv_;
  bool open_ = false;
};

}  // namespace cadence::testing
