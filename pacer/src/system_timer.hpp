// The one shape of the pacer's system timers (ids in cadence/ids.hpp): a small piece of state,
// built from the pacer's options, with three hooks the pacer calls in every drawn frame, each
// keeping its timer on the runtime only while it has something to do (an idle window has none
// scheduled but the caret's). A new system timer touches three places: its id in ids.hpp, its
// own file (a class derived from SystemTimer that hides the hooks it needs), and the list in
// system_timer_list.hpp. Private to cadence::pacer.
#pragma once

#include <imgui.h>

#include <tuple>

#include "cadence/frame_pacer.hpp"
#include "cadence/window_runtime.hpp"

namespace cadence::detail {

/// What a hook gets: the pacer's runtime, the drawn frame's instant, and ImGui's io.
struct FrameHooks {
  WindowRuntime& runtime;
  Instant frame_start;
  ImGuiIO& io;
};

/// The hooks, doing nothing; a system timer hides those it needs (called statically, through
/// TimerList: no virtual call).
class SystemTimer {
 public:
  /// Before ImGui::NewFrame(): hand ImGui what it must see in this frame (io fields).
  void before_new_frame(const FrameHooks&) {}
  /// After ImGui::NewFrame(), before the app's widgets: read or steer ImGui's state.
  void before_widgets(const FrameHooks&) {}
  /// After the app's widgets, before ImGui::Render(): see what the widgets did.
  void after_widgets(const FrameHooks&) {}
};

/// Holds system timers of the given types, each constructed from (const PacerOptions&,
/// WindowStats&), and calls one hook on each, in order.
template <class... Timers>
class TimerList {
 public:
  TimerList(const PacerOptions& options, WindowStats& stats) : timers_(Timers(options, stats)...) {}
  template <class T>
  T& get() noexcept {
    return std::get<T>(timers_);
  }
  void before_new_frame(const FrameHooks& f) {
    std::apply([&](Timers&... t) { (t.before_new_frame(f), ...); }, timers_);
  }
  void before_widgets(const FrameHooks& f) {
    std::apply([&](Timers&... t) { (t.before_widgets(f), ...); }, timers_);
  }
  void after_widgets(const FrameHooks& f) {
    std::apply([&](Timers&... t) { (t.after_widgets(f), ...); }, timers_);
  }

 private:
  std::tuple<Timers...> timers_;
};

}  // namespace cadence::detail
