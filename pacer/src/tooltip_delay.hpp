// The tooltip delay system timer (kTooltipDelayTimer). Private to cadence::pacer.
#pragma once

#include <imgui.h>

#include <cstdint>

#include "system_timer.hpp"

namespace cadence::detail {

/// Tooltip delay: a tooltip shows once its item has been hovered for `delay`. The hover start
/// arms a one-shot timer, so the loop wakes once, at the delay, instead of drawing every frame.
class TooltipDelay : public SystemTimer {
 public:
  TooltipDelay(const PacerOptions& options, WindowStats&) : delay_(options.tooltip_delay) {}
  /// For the last item, from the app's widgets. True while the tooltip shows.
  bool tooltip(WindowRuntime& runtime, Instant frame_start, const char* text);
  /// After the app's widgets: forget a hover that ended.
  void after_widgets(const FrameHooks& frame);

 private:
  Duration delay_;
  std::uint64_t hovered_ = 0;  // the hovered item's key, 0 when none
  Instant since_;
  bool seen_this_frame_ = false;
};

}  // namespace cadence::detail
