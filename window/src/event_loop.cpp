#include "cadence/event_loop.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <chrono>
#include <exception>
#include <string>
#include <utility>

#include "guarded_call.hpp"
#include "scoped_flag.hpp"
#include "window_impl.hpp"

namespace cadence {

EventLoop::~EventLoop() {
  if (iterating_) {
    std::fputs("cadence: an EventLoop was destroyed from inside its own iteration (a draw function, callback or "
               "on_close of one of its windows); call stop() there and destroy it after run() returns\n",
               stderr);
    std::abort();
  }
  closing_ = true;
  // The windows' destruction runs app code (their threads' finish callbacks), which may add()
  // windows: those are destroyed in add(), never pushed into a vector that is going away.
  auto windows = std::move(windows_);
  auto pending = std::move(pending_);
  windows.clear();
  pending.clear();
}

WindowHandle EventLoop::add(std::unique_ptr<Window> window) {
  if (!window || closing_) return {};  // while the loop is destroyed, `window` goes here
  WindowHandle handle = window->handle();
  pending_.push_back(std::move(window));
  return handle;
}

bool EventLoop::run_once(std::optional<Duration> max_wait) {
  if (iterating_) return true;  // from inside an iteration: the one running goes on
  for (auto& w : pending_) windows_.push_back(std::move(w));
  pending_.clear();
  if (windows_.empty()) return false;

  // Sleep until the soonest window wants to run; input and workers' posts wake us earlier.
  const auto soonest = [this] {
    std::optional<Duration> next;
    for (auto& w : windows_) {
      if (auto n = w->next_wake(); n && (!next || *n < *next)) next = n;
    }
    return next;
  };
  std::optional<Duration> wait = soonest();
  if (max_wait && (!wait || *max_wait < *wait)) wait = max_wait;
  // The wait hands events to the windows (on_close runs there), then the frames run and the
  // closing windows' destructors: all of it is the iteration, and a run_once() or run_until()
  // from inside must not touch windows_ meanwhile.
  const detail::ScopedFlag iterating(iterating_);
  windows_.front()->impl_->system->wait(wait, soonest);  // every window open uses one backend
  ++stats_.wakeups;
  for (std::size_t i = 0; i < windows_.size(); ++i) {
    windows_[i]->frame();  // may add() windows
    // Update::redraw_all: every window draws, those that ran already in the next iteration
    // (their next_wake() is zero now), those still to run in this one.
    if (windows_[i]->impl_->pacer->take_redraw_all()) {
      for (auto& w : windows_) {
        if (w != windows_[i]) w->request_redraw();  // the one that asked draws for its own request
      }
      for (auto& w : pending_) w->request_redraw();
    }
  }
  std::erase_if(windows_, [](const std::unique_ptr<Window>& w) { return w->should_close(); });
  return !windows_.empty() || !pending_.empty();  // windows added here join at the next call
}

void EventLoop::run() {
  if (iterating_) return;  // a run inside the running iteration would never end
  stopped_ = false;
  while (!stopped_ && run_once()) {
  }
}

void EventLoop::run_for(Duration duration) {
  if (iterating_) return;  // it would spin: each run_once() inside one returns at once
  stopped_ = false;
  // A century is "for ever" and keeps the sum below the clock's overflow.
  const auto end = std::chrono::steady_clock::now() + std::min(duration, Duration{std::chrono::hours(24 * 365 * 100)});
  while (!stopped_) {
    const auto left = end - std::chrono::steady_clock::now();
    if (left <= Duration::zero() || !run_once(std::chrono::duration_cast<Duration>(left))) break;
  }
}

}  // namespace cadence

namespace cadence {

Result<bool> EventLoop::run_until(const std::function<bool()>& predicate, Duration timeout) {
  if (iterating_) {
    return Error{Errc::reentrant_call, "run_until() was called from inside one of the loop's own frames; "
                                       "call it from outside the loop"};
  }
  if (!predicate) return Error{Errc::invalid_argument, "run_until() needs a predicate; it was given an empty one"};
  if (timeout < Duration::zero()) {
    return Error{Errc::invalid_argument, "run_until() timeout " + std::to_string(timeout.count()) +
                                             " ns is negative: it must be zero or more"};
  }
  const auto ask = [&]() -> Result<bool> {
    bool met = false;
    if (std::optional<Error> threw = detail::guarded_call("run_until() predicate", [&] { met = predicate(); })) {
      return std::move(*threw);
    }
    return met;
  };
  const auto end = std::chrono::steady_clock::now() + std::min(timeout, Duration{std::chrono::hours(24 * 365 * 100)});
  for (;;) {
    Result<bool> held = ask();
    if (!held || *held) return held;
    const auto left = end - std::chrono::steady_clock::now();
    if (left <= Duration::zero()) return false;
    if (!run_once(std::chrono::duration_cast<Duration>(left))) {
      held = ask();  // the last window's final frame may have made it true
      return held;
    }
  }
}

}  // namespace cadence
