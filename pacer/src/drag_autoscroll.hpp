// The drag autoscroll system timer (kDragAutoscrollTimer). Private to cadence::pacer.
#pragma once

#include <imgui.h>

#include "system_timer.hpp"

struct ImGuiWindow;

namespace cadence::detail {

/// Drag autoscroll: while the left button drags near or past the top or bottom edge of the
/// scrollable window the drag started in, scroll it, faster the closer to (or further past) the
/// edge, up to 900 px/s. The timer runs only while it scrolls; update() removes it otherwise.
/// The scroll is a function of time, not of how many frames drew it: it glides from the frame
/// that started it, and keeps its exact position itself, since ImGui rounds the window's scroll
/// to whole pixels in every frame (extra frames must not scroll further).
class DragAutoscroll : public SystemTimer {
 public:
  DragAutoscroll(const PacerOptions&, WindowStats&) {}
  /// After ImGui::NewFrame(): starts, steers or stops the autoscroll timer.
  void before_widgets(const FrameHooks& frame);

 private:
  /// One step of the glide, from the timer: the scroll for the time since the last step.
  void step(Instant frame_start);

  ImGuiWindow* pressed_in_ = nullptr;  // where the left button went down, while it is held
  ImGuiWindow* target_ = nullptr;
  float speed_ = 0;  // pixels per second, negative = up
  Instant last_;     // the instant the glide has reached
  double exact_ = 0; // the glide's scroll position, unrounded
  bool active_ = false;
};

}  // namespace cadence::detail
