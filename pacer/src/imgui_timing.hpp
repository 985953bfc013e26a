// When Dear ImGui would next act on its own, with no new input: it repeats a held key or mouse
// button (io.KeyRepeatDelay, io.KeyRepeatRate; faster for keyboard navigation), opens what a
// drag-and-drop payload has been held over for 0.7 s, and (1.90) shows what an item has been
// hovered for long enough (style.HoverDelayShort, HoverDelayNormal, HoverStationaryDelay) and
// opens a sub-menu hovered still for 0.30 s. Each of these counts frame
// time that ImGui adds up itself; a loop that only draws on input would never reach the
// threshold. The window turns the answer into a one-shot system timer, so that it draws exactly
// then. Private to cadence::pacer; reads imgui_internal.h (version-checked).
#pragma once

#include <optional>

namespace cadence::detail {

struct ImGuiTiming {
  /// Seconds from the frame just drawn to the next repeat of a held key or mouse button that an
  /// active item may act on.
  std::optional<double> repeat_in;
  /// Seconds to the next delay ImGui passes: drag-and-drop hold to open, hover delays, sub-menu
  /// hover to open.
  std::optional<double> delay_in;
};

/// For the current ImGui context, after its frame was rendered. O(keys) (1.86: its 512 key slots;
/// 1.87 on: its keyboard and gamepad keys).
ImGuiTiming imgui_timing();

/// The first repeat instant of a typematic repeat (press at 0, then `delay`, then every `rate`)
/// after `t` seconds held. Pure. `rate` <= 0: only the one at `delay`.
std::optional<double> next_repeat(double t, double delay, double rate);

}  // namespace cadence::detail
