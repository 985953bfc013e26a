// The scroll momentum system timer (kScrollMomentumTimer). Private to cadence::pacer.
#pragma once

#include <imgui.h>

#include <optional>

#include "system_timer.hpp"

namespace cadence::detail {

/// Scroll momentum: each wheel or trackpad event adds velocity; an every-frame timer turns it
/// into wheel motion for the hovered window and lets it decay exponentially until it rests.
class ScrollMomentum : public SystemTimer {
 public:
  ScrollMomentum(const PacerOptions& options, WindowStats&) : decay_(options.momentum_decay) {}
  /// A scroll event (in wheel notches): gains velocity and starts the timer if it was resting.
  void on_scroll(WindowRuntime& runtime, double dx, double dy);
  /// Before ImGui::NewFrame(): hands the motion gathered since the last frame to ImGui.
  void before_new_frame(const FrameHooks& frame);

 private:
  Duration decay_;
  double vx_ = 0, vy_ = 0;            // notches per second
  double pending_x_ = 0, pending_y_ = 0;  // motion not handed to ImGui yet
  std::optional<Instant> last_;
  bool moving_ = false;
};

}  // namespace cadence::detail
