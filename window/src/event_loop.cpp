#include "cadence/event_loop.hpp"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <chrono>

namespace cadence {

double glfw_timeout_seconds(double seconds) noexcept {
  if (!(seconds > 0)) return 0.0;  // negative, zero and NaN
  return std::min(seconds, kMaxWaitSeconds);
}

Window* EventLoop::add(std::unique_ptr<Window> window) {
  Window* raw = window.get();
  if (raw != nullptr) pending_.push_back(std::move(window));
  return raw;
}

bool EventLoop::run_once(std::optional<Duration> max_wait) {
  for (auto& w : pending_) windows_.push_back(std::move(w));
  pending_.clear();
  if (windows_.empty()) return false;

  // Sleep until the soonest window wants to run; input and workers' posts wake us earlier.
  std::optional<Duration> wait;
  for (auto& w : windows_) {
    if (auto next = w->next_wake(); next && (!wait || *next < *wait)) wait = next;
  }
  if (max_wait && (!wait || *max_wait < *wait)) wait = max_wait;
  if (wait) {
    glfwWaitEventsTimeout(glfw_timeout_seconds(std::chrono::duration<double>(*wait).count()));
  } else {
    glfwWaitEvents();
  }
  ++stats_.wakeups;

  for (std::size_t i = 0; i < windows_.size(); ++i) windows_[i]->frame();  // may add() windows
  std::erase_if(windows_, [](const std::unique_ptr<Window>& w) { return w->should_close(); });
  return !windows_.empty() || !pending_.empty();  // windows added here join at the next call
}

void EventLoop::run() {
  stopped_ = false;
  while (!stopped_ && run_once()) {
  }
}

void EventLoop::run_for(Duration duration) {
  stopped_ = false;
  // A century is "for ever" and keeps the sum below the clock's overflow.
  const auto end = std::chrono::steady_clock::now() + std::min(duration, Duration{std::chrono::hours(24 * 365 * 100)});
  while (!stopped_) {
    const auto left = end - std::chrono::steady_clock::now();
    if (left <= Duration::zero() || !run_once(std::chrono::duration_cast<Duration>(left))) break;
  }
}

}  // namespace cadence
