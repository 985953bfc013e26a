// cadence/callback_context.hpp: what a callback may ask of its window.
//
// Every callback (an event handler, a timer, a thread's write-back) gets a CallbackContext: the
// window's Controls (controls.hpp) recording into the frame's ChangeSet, which
// WindowRuntime::apply() carries out after every callback of the frame has run.
//
//     #include <cadence/window_runtime.hpp>
//     using namespace cadence;
//     using namespace std::chrono_literals;
//     WindowRuntime runtime(TimeSource::system());
//     (void)runtime.add_timer(TimerId::unique(), Timer::every(1s, [](TimerCallbackInfo& info) {
//       if (info.call_count == 9) (void)info.context.remove_timer(info.id);  // ten runs, then stop
//       return TimerCallbackReturn::redraw();
//     }));
//
// A context refers to the frame's change-set: keep it no longer than the callback that received
// it runs (like any reference argument). It may be used from anything its callback calls,
// destructors included.
#pragma once

#include "cadence/change_set.hpp"
#include "cadence/controls.hpp"
#include "cadence/export.hpp"
#include "cadence/time.hpp"

namespace cadence {

class WindowRuntime;

class CADENCE_RUNTIME_API CallbackContext : public Controls {
 public:
  /// A context recording into `changes`; WindowRuntime::context() makes one for event handlers.
  /// Cost: O(1).
  CallbackContext(WindowRuntime& runtime, ChangeSet& changes, Instant frame_start) noexcept
      : Controls(runtime, &changes), runtime_(runtime), changes_(changes), frame_start_(frame_start) {}

  /// The instant the current frame started. Cost: O(1).
  Instant frame_start() const noexcept { return frame_start_; }
  /// Asks for a redraw after this frame (the largest request of the frame wins). It only marks
  /// the change-set, which its owner applies. Thread: any that owns the set. Cost: O(1).
  void request_redraw(Update update = Update::redraw_window) noexcept { changes_.request(update); }
  /// The change-set it records into (unchecked changes recorded here are checked by apply()).
  ChangeSet& changes() noexcept { return changes_; }
  /// The runtime: its calls follow the same rules (inside a frame, recorded alike).
  WindowRuntime& runtime() noexcept { return runtime_; }

 private:
  WindowRuntime& runtime_;
  ChangeSet& changes_;
  Instant frame_start_;
};

}  // namespace cadence
