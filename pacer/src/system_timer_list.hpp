// The pacer's system timers, in the order their hooks run in a drawn frame (system_timer.hpp).
// Private to cadence::pacer.
#pragma once

#include "caret_blink.hpp"
#include "drag_autoscroll.hpp"
#include "scroll_momentum.hpp"
#include "system_timer.hpp"
#include "tooltip_delay.hpp"

namespace cadence::detail {

using SystemTimers = TimerList<CaretBlink, ScrollMomentum, DragAutoscroll, TooltipDelay>;

}  // namespace cadence::detail
