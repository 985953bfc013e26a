// cadence/redraw_handle.hpp: "draw again at this instant", from any thread.
//
// A window draws when something asks; a widget with a clock of its own (a caret it blinks
// itself, a toast that fades after 3 s, a "saved 5 s ago" label) knows when it will next look
// different, and says so: the window draws once at that instant, exactly, and sleeps until then.
// On the UI thread ask the runtime or the callback's context (request_redraw_at/after); from any
// other thread, a RedrawHandle:
//
//     #include <cadence/window_runtime.hpp>
//     #include <thread>
//     using namespace cadence;
//     using namespace std::chrono_literals;
//     WindowRuntime runtime(TimeSource::system());
//     RedrawHandle redraw = runtime.redraw_handle();
//     std::thread poller([redraw] { (void)redraw.after(250ms); });  // a frame 250 ms from now
//     poller.join();
//
// Requests coalesce to the soonest: many of them cost one frame, at the soonest instant, which
// redraws and forgets them (a widget that needs a later frame asks again when it draws). From
// another thread, a request sooner than what the loop sleeps for wakes it once to re-arm; one
// at or after that wakes nothing (the loop sees it when it wakes). Counted from the call, on
// the runtime's time source, not from the next frame; if the source stepped back behind an
// instant the runtime has used, from that instant, as timers count. While the window is hidden
// a request still wakes the runtime's frame; the frame it owes is drawn when it is shown. A
// request runs no app code but the runtime's waker.
#pragma once

#include <memory>

#include "cadence/export.hpp"
#include "cadence/result.hpp"
#include "cadence/time.hpp"

namespace cadence {

namespace detail {
struct RuntimeLink;
}

/// For every member: Thread: any; a handle may be copied anywhere and outlive its runtime and its clock.
/// Where: anywhere, wakers included: this runtime's (a request from there wakes nothing more)
/// and other runtimes', also when this runtime's waker asks them in turn.
/// Errors: closed (no runtime, or it is gone: no clock is read); clock_mismatch (at(): another clock).
/// Cost: O(1); allocates only an error's message.
class CADENCE_RUNTIME_API RedrawHandle {
 public:
  /// A handle to no runtime: its calls fail with `closed`.
  RedrawHandle() = default;
  /// Asks the runtime's window to draw at the first frame at or after `when` (the end of the
  /// timeline counts as one nanosecond before it), waking its loop if it sleeps longer than that.
  Status at(Instant when) const;
  /// The same for `delay` from now on the runtime's time source (<= 0: at once; see above for a
  /// source that stepped back).
  Status after(Duration delay) const;

 private:
  friend class WindowRuntime;
  explicit RedrawHandle(std::shared_ptr<detail::RuntimeLink> link) noexcept : link_(std::move(link)) {}
  std::shared_ptr<detail::RuntimeLink> link_;
};

}  // namespace cadence
