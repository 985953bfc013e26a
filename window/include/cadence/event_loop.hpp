// cadence/event_loop.hpp: one loop for every window of the app.
//
// The loop sleeps until the soonest window wants to wake (or for as long as it takes when none
// has anything scheduled), or until input arrives or a worker posts, in the event queue of the
// windows' backend: glfwWaitEventsTimeout() (workers wake it with glfwPostEmptyEvent), or
// SDL_WaitEventTimeout() (workers push an SDL event of a type cadence registers for itself;
// each SDL event goes to the window it names). Then it runs a frame() for each window and
// destroys the windows that were closed. It never busy-loops: a sleep length is clamped to
// [0, kMaxWaitSeconds] before it reaches GLFW, and rounded up to whole milliseconds for SDL.
//
//     #include <cadence/event_loop.hpp>
//     using namespace cadence;
//     auto main_window = Window::create({.title = "Hello"}, [](Window&, CallbackContext&) {});
//     if (!main_window) return;         // no display: the error says why
//     EventLoop loop;
//     loop.add(std::move(*main_window));
//     loop.run();                       // returns when the last window closes
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "cadence/export.hpp"
#include "cadence/window.hpp"

namespace cadence {

struct LoopStats {
  std::uint64_t wakeups = 0;  ///< times the loop returned from waiting
};

/// "Inside an iteration": in run_once(), its windows' draw functions and callbacks included.
/// For every member: Thread: the main thread (GLFW's and SDL's rule), like the windows it runs; not checked.
/// Where: anywhere, inside an iteration included.
/// Errors: none.
/// Cost: O(1).
class CADENCE_WINDOW_API EventLoop {
 public:
  EventLoop() = default;
  /// Destroys the windows (each stops and joins its threads). A window added meanwhile (from
  /// code their destruction runs) is destroyed at once, its handle empty.
  /// Where: not inside an iteration: that stops the process with a message (it would use freed memory).
  /// Cost: each window's destruction.
  ~EventLoop();
  EventLoop(const EventLoop&) = delete;
  EventLoop& operator=(const EventLoop&) = delete;

  /// Takes a window; it runs from the next iteration (added inside one, it joins after it).
  /// Returns a handle that knows when the window is gone (it closed, or the loop was destroyed);
  /// an empty handle for a null window, and for one added while the loop is destroyed (it is
  /// destroyed at once).
  WindowHandle add(std::unique_ptr<Window> window);
  /// Runs until every window has closed or stop() was called.
  /// Where: anywhere; inside an iteration it returns at once and leaves a stop() in force.
  /// Cost: the iterations.
  void run();
  /// Runs for `duration` of steady_clock time (not the windows' time sources), or until every
  /// window has closed or stop() was called; no wait goes past the end. A duration <= 0 returns
  /// at once; one above a century counts as a century.
  /// Where: anywhere; inside an iteration it returns at once and leaves a stop() in force.
  /// Cost: the iterations.
  void run_for(Duration duration);
  /// Waits once (at most `max_wait`, if given), then runs a frame for each window and destroys
  /// the closed ones. Returns false when no window is left.
  /// Where: anywhere; inside an iteration it does nothing and returns true.
  /// Cost: the wait, plus each window's frame() and next_wake().
  bool run_once(std::optional<Duration> max_wait = std::nullopt);
  /// Runs iterations until `predicate()` holds, `timeout` of steady_clock time has passed, or
  /// no window is left: how a test waits for something to reach the screen, like Qt's
  /// QTest::qWaitFor. The predicate runs on this thread before the first iteration and after
  /// each; no wait goes past the deadline. Returns true when the predicate held (at once
  /// included, or when it is asked after the last window closed), else false on timeout or when
  /// the last window closed; a zero timeout only asks the predicate. stop() does not end it. A predicate that throws ends the run (callback_threw
  /// names the exception); the loop and its windows stay usable. The other errors run nothing.
  /// Where: not inside an iteration (reentrant_call).
  /// Errors: invalid_argument (a negative timeout or an empty predicate); reentrant_call; callback_threw.
  /// Cost: the iterations run, plus one predicate call each.
  Result<bool> run_until(const std::function<bool()>& predicate, Duration timeout);
  /// Makes the running run() or run_for() return after the current iteration (call it from a
  /// callback); a call while neither runs has no effect on the next run.
  void stop() noexcept { stopped_ = true; }
  /// Open windows, including those added but not yet run.
  std::size_t window_count() const noexcept { return windows_.size() + pending_.size(); }
  /// Counters since the loop was made.
  const LoopStats& stats() const noexcept { return stats_; }

 private:
  std::vector<std::unique_ptr<Window>> windows_;
  std::vector<std::unique_ptr<Window>> pending_;
  LoopStats stats_;
  bool stopped_ = false;
  bool iterating_ = false;  // inside run_once(): windows' frames are running
  bool closing_ = false;    // the destructor runs
};

/// The longest single wait handed to a window system, in seconds; a longer sleep just wakes and
/// waits again.
inline constexpr double kMaxWaitSeconds = 3600.0;

}  // namespace cadence
