// Whether Dear ImGui needs the next frame drawn whatever the last one showed: a window is
// hidden for its first frame (it measures itself) or still fitting its size, Ctrl+Tab window
// switching is up, a navigation move or activation lands in the next frame, (1.92) a texture
// waits for the renderer to create, update or destroy it, or (1.87+) input events wait in
// ImGui's queue, which trickles some of them over several frames. Private to cadence::pacer; reads imgui_internal.h (version-checked).
#pragma once

struct ImGuiContext;

namespace cadence::detail {

/// Whether `context` (alive) is inside a frame: after ImGui::NewFrame, before Render or
/// EndFrame. O(1).
bool imgui_frame_open(const ImGuiContext& context);

/// After a rendered frame of the current ImGui context: a window of it is hidden or fitting
/// itself, window switching shows, navigation is under way, or a texture request waits. The
/// next frame is due at the frame interval. O(windows + textures).
bool imgui_needs_next_frame();

/// After a rendered frame: input events still queued for the next frame (always false for 1.86,
/// which has no queue). The next frame is due at once. O(1).
bool imgui_input_pending();

}  // namespace cadence::detail
