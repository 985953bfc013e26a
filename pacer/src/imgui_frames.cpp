#include "imgui_frames.hpp"

#include "imgui_version.hpp"  // before imgui_internal.h: the versions whose internals this reads
#include <imgui_internal.h>

#include <cfloat>

namespace cadence::detail {

bool imgui_frame_open(const ImGuiContext& context) { return context.WithinFrameScope; }

bool imgui_needs_next_frame() {
  ImGuiContext& g = *ImGui::GetCurrentContext();
  if (g.NavWindowingTarget != nullptr) return true;  // its highlight and list appear after delays
  for (ImGuiWindow* window : g.Windows) {
    if (!window->Active && !window->WasActive) continue;
    if (window->AutoFitFramesX > 0 || window->AutoFitFramesY > 0) return true;
    // A scroll asked for (SetScrollY, SetScrollHereY, a focused item brought into view) is
    // applied when the window begins in the next frame.
    if (window->ScrollTarget.x != FLT_MAX || window->ScrollTarget.y != FLT_MAX) return true;
    // Hidden frames matter while a window appears (a new window, a popup or tooltip sizing
    // itself). A child clipped out of sight, or one of a collapsed parent, is hidden in every
    // frame: that is a window at rest, not one that needs frames.
    if (window->Appearing && (window->HiddenFramesCanSkipItems > 0 || window->HiddenFramesCannotSkipItems > 0 ||
                              window->HiddenFramesForRenderOnly > 0)) {
      return true;
    }
  }
  return false;
}

bool imgui_input_pending() {
#if IMGUI_VERSION_NUM >= 18700
  return !ImGui::GetCurrentContext()->InputEventsQueue.empty();
#else
  return false;
#endif
}

}  // namespace cadence::detail
