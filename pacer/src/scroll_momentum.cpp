#include "cadence/imgui_features.hpp"

#include <cmath>

#include "scroll_momentum.hpp"

namespace cadence::detail {
namespace {

// A notch of the wheel starts a glide of about this many notches per second; the glide then
// decays with the window's time constant, so one notch glides about kGain * decay notches more.
constexpr double kGain = 6.0;
// Below this speed (notches per second) the glide stops.
constexpr double kRest = 0.05;

// Adds wheel motion, in notches (positive up and right), the way this ImGui takes it.
void feed_wheel(ImGuiIO& io, float dx, float dy) {
  if (dx == 0 && dy == 0) return;
#if CADENCE_IMGUI_INPUT_EVENTS
  io.AddMouseWheelEvent(dx, dy);
#else
  io.MouseWheelH += dx;
  io.MouseWheel += dy;
#endif
}

}  // namespace

void ScrollMomentum::on_scroll(WindowRuntime& runtime, double dx, double dy) {
  vx_ += dx * kGain;
  vy_ += dy * kGain;
  if (moving_) return;
  moving_ = true;
  last_.reset();
  const bool added = runtime.add_system_timer(kScrollMomentumTimer, Timer::animation([this](TimerCallbackInfo& info) {
                               const Instant now = info.frame_start;
                               const double dt = last_ ? std::chrono::duration<double>(now - *last_).count() : 0.0;
                               last_ = now;
                               // The exact glide over dt (the integral of v e^(-t/tau)), so that the
                               // distance does not depend on how the frames fall.
                               const double tau = std::chrono::duration<double>(decay_).count();
                               const double keep = std::exp(-dt / tau);
                               pending_x_ += vx_ * tau * (1 - keep);
                               pending_y_ += vy_ * tau * (1 - keep);
                               vx_ *= keep;
                               vy_ *= keep;
                               if (std::hypot(vx_, vy_) < kRest) {
                                 // At rest: the glide's remaining distance too, so that it ends where
                                 // it would have, whenever this frame came.
                                 pending_x_ += vx_ * tau;
                                 pending_y_ += vy_ * tau;
                                 vx_ = vy_ = 0;
                                 moving_ = false;
                                 return TimerCallbackReturn::redraw_and_stop();
                               }
                               return TimerCallbackReturn::redraw();
                             })).ok();
  if (!added) moving_ = false;
}

void ScrollMomentum::before_new_frame(const FrameHooks& frame) {
  feed_wheel(frame.io, static_cast<float>(pending_x_), static_cast<float>(pending_y_));
  pending_x_ = pending_y_ = 0;
}

}  // namespace cadence::detail
