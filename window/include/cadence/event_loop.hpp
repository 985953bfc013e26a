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
//
// Thread: the main thread (GLFW's and SDL's rule), like the windows it runs.
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

class CADENCE_WINDOW_API EventLoop {
 public:
  EventLoop() = default;
  /// Destroys the windows (each stops and joins its threads). A window added meanwhile (from
  /// code their destruction runs) is destroyed at once, its handle empty. Re-entry: not from
  /// inside one of its own iterations (a draw function, callback or on_close of its windows):
  /// that stops the process with a message, since the iteration would go on in freed memory.
  ~EventLoop();
  EventLoop(const EventLoop&) = delete;
  EventLoop& operator=(const EventLoop&) = delete;

  /// Takes a window; it runs from the next iteration. May be called from a draw function, a
  /// timer callback or a write-back (all run on the UI thread): the window joins after the
  /// current iteration. Returns a handle that knows when the window is gone (it closed, or the
  /// loop was destroyed); an empty handle for a null window, and for one added while the loop
  /// is destroyed (it is destroyed at once). O(1).
  WindowHandle add(std::unique_ptr<Window> window);
  /// Runs until every window has closed or stop() was called.
  void run();
  /// Runs for `duration` of steady_clock time (not the windows' time sources), or until every
  /// window has closed or stop() was called; no wait goes past the end. A duration <= 0 returns
  /// at once; one above a century counts as a century.
  void run_for(Duration duration);
  /// Waits once (at most `max_wait`, if given), then runs a frame for each window and destroys
  /// the closed ones. Returns false when no window is left. Cost: the wait, plus each window's
  /// frame() and next_wake(). Re-entry: a call from inside an iteration (a draw function,
  /// timer callback, write-back or on_close of one of its windows) does nothing and returns true.
  bool run_once(std::optional<Duration> max_wait = std::nullopt);
  /// Runs iterations until `predicate()` holds, `timeout` of steady_clock time has passed, or
  /// no window is left; the way a test (or an app's own start-up code) waits for something to
  /// reach the screen, like Qt's QTest::qWaitFor. The predicate runs on this thread before the
  /// first iteration and after each; no wait goes past the deadline. Returns true when the
  /// predicate held (at once included), false on timeout or when the last window closed; a
  /// zero timeout only asks the predicate.
  /// Errors, with nothing run and the loop unchanged: `invalid_argument` for a negative
  /// timeout or an empty predicate; `reentrant_call` from inside an iteration (a draw
  /// function, timer callback, write-back or on_close of one of its windows). A predicate that throws
  /// ends the run with `callback_threw` naming the exception; the loop and its windows stay
  /// usable. stop() does not end it. Cost: the iterations run, plus one predicate call each.
  Result<bool> run_until(const std::function<bool()>& predicate, Duration timeout);
  /// Makes the running run() or run_for() return after the current iteration (call it from a
  /// callback); a call while neither runs has no effect on the next run. O(1).
  void stop() noexcept { stopped_ = true; }
  /// Open windows, including those added but not yet run. O(1).
  std::size_t window_count() const noexcept { return windows_.size() + pending_.size(); }
  /// Counters since the loop was made. O(1).
  const LoopStats& stats() const noexcept { return stats_; }

 private:
  std::vector<std::unique_ptr<Window>> windows_;
  std::vector<std::unique_ptr<Window>> pending_;
  LoopStats stats_;
  bool stopped_ = false;
  bool iterating_ = false;  // inside run_once(): windows' frames are running
  bool closing_ = false;    // the destructor runs
};

/// The longest single wait handed to GLFW, in seconds; a longer sleep just wakes and waits again.
inline constexpr double kMaxWaitSeconds = 3600.0;
/// Converts a sleep length for glfwWaitEventsTimeout: negative, zero or NaN becomes 0 (Debian's
/// GLFW aborts on a negative timeout), anything above kMaxWaitSeconds (infinity included)
/// becomes kMaxWaitSeconds. O(1).
CADENCE_WINDOW_API double glfw_timeout_seconds(double seconds) noexcept;

}  // namespace cadence
