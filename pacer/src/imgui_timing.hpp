// When Dear ImGui would next act on its own, with no new input: it repeats a held key or mouse
// button (io.KeyRepeatDelay, io.KeyRepeatRate; faster for keyboard navigation), opens what a
// drag-and-drop payload has been held over for 0.7 s, shows what an item has been hovered for
// long enough (1.90: style.HoverDelayShort, HoverDelayNormal, HoverStationaryDelay) and opens a
// sub-menu hovered still for 0.30 s (1.90.1). Each of these counts frame time that ImGui adds
// up itself; a loop that only draws on input would never reach the threshold. The window turns the answer into a one-shot system timer, so that it draws exactly
// then. Private to cadence::pacer; reads imgui_internal.h (version-checked).
#pragma once

#include <array>
#include <cstddef>
#include <optional>

namespace cadence::detail {

/// The schedules on which ImGui repeats what is held. Each is cut short on its own when its
/// instants change nothing (pacing_rules.hpp): a navigation move that finds no item must not end
/// the wait for the key's own repeat, which the app may read.
enum class RepeatSchedule : unsigned char {
  pointer,    ///< a held mouse button (IsMouseClicked with repeat, a repeating button)
  key,        ///< a held key at io.KeyRepeatDelay and io.KeyRepeatRate (IsKeyPressed with repeat, text editing)
  nav_move,   ///< navigation moving the focus with a held direction (x0.72 delay, x0.80 rate)
  nav_tweak,  ///< navigation tweaking an active slider or drag with a held direction (x0.72, x0.30)
};
inline constexpr std::size_t kRepeatSchedules = 4;

struct ImGuiTiming {
  /// Seconds from the frame just drawn to the next repeat on each schedule (RepeatSchedule's
  /// order), of what is held now.
  std::array<std::optional<double>, kRepeatSchedules> repeat_in;
  /// Seconds to the next delay ImGui passes: drag-and-drop hold to open, hover delays, sub-menu
  /// hover to open.
  std::optional<double> delay_in;
};

/// For the current ImGui context, after its frame was rendered; `text_field_ran`: a text field was
/// active and its widget ran in that frame (CaretBlink::text_field_ran()). O(keys) (1.86: its 512
/// key slots; 1.87 on: its keyboard and gamepad keys).
ImGuiTiming imgui_timing(bool text_field_ran);

/// The first repeat instant of a typematic repeat (press at 0, then `delay`, then every `rate`)
/// after `t` seconds held. Pure. `rate` <= 0: only the one at `delay`.
std::optional<double> next_repeat(double t, double delay, double rate);

}  // namespace cadence::detail
