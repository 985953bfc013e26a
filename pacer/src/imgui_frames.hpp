// Whether Dear ImGui needs the next frame drawn whatever the last one showed: a window is
// hidden for its first frame (it measures itself) or still fitting its size, Ctrl+Tab window
// switching is up, or (1.87+) input events wait in ImGui's queue, which trickles some of them
// over several frames. Private to cadence::pacer; reads imgui_internal.h (version-checked).
#pragma once

struct ImGuiContext;

namespace cadence::detail {

/// Whether `context` (alive) is inside a frame: after ImGui::NewFrame, before Render or
/// EndFrame. O(1).
bool imgui_frame_open(const ImGuiContext& context);

/// After a rendered frame of the current ImGui context: a window of it is hidden or fitting
/// itself, or window switching shows. The next frame is due at the frame interval. O(windows).
bool imgui_needs_next_frame();

/// After a rendered frame: input events still queued for the next frame (always false for 1.86,
/// which has no queue). The next frame is due at once. O(1).
bool imgui_input_pending();

}  // namespace cadence::detail
