// GLFW is process-wide: it starts with the first window and ends with the last. Errors GLFW
// reports are kept so that failures can say what GLFW said.
#pragma once

#include <optional>
#include <string>

#include "cadence/result.hpp"
#include "cadence/time.hpp"

namespace cadence::detail {

class GlfwLibrary {
 public:
  /// Starts GLFW if no window holds it yet. Errors: resource, with GLFW's own message.
  static Status acquire();
  /// Ends GLFW when the last holder lets go.
  static void release();
  /// GLFW's last error message ("" if none), cleared by reading it.
  static std::string take_last_error();
};

/// The primary monitor's refresh period, or nullopt when GLFW cannot tell: every-frame timers
/// follow it unless the app chose a frame interval. Needs GLFW started.
std::optional<Duration> monitor_refresh_period();

}  // namespace cadence::detail
