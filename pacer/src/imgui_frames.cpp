#include "imgui_frames.hpp"

#include "cadence/imgui_features.hpp"  // before imgui_internal.h: the versions whose internals this reads
#include <imgui_internal.h>

#include <cfloat>

namespace cadence::detail {

bool imgui_frame_open(const ImGuiContext& context) { return context.WithinFrameScope; }

bool imgui_needs_next_frame() {
  ImGuiContext& g = *ImGui::GetCurrentContext();
  if (g.NavWindowingTarget != nullptr) return true;  // its highlight and list appear after delays
  // Keyboard or gamepad navigation in progress: a move scores the items of one frame and lands
  // in the next (or is forwarded to it); an init request or an activation also waits for it.
  if (g.NavMoveSubmitted || g.NavMoveScoringItems || g.NavMoveForwardToNextFrame || g.NavInitRequest ||
      g.NavNextActivateId != 0) {
    return true;
  }
#if CADENCE_IMGUI_TEXTURES
  // A texture the renderer has still to create, update or destroy: it does so over the next
  // frames (a texture to destroy waits for one in which it was unused). Only with a renderer
  // that takes the requests; without one ImGui builds its atlas the old way.
  const ImDrawData* data = ImGui::GetDrawData();
  if ((g.IO.BackendFlags & ImGuiBackendFlags_RendererHasTextures) != 0 && data != nullptr && data->Textures != nullptr) {
    for (const ImTextureData* tex : *data->Textures) {
      if (tex->Status != ImTextureStatus_OK && tex->Status != ImTextureStatus_Destroyed) return true;
    }
  }
#endif
  // A popup opened after its BeginPopup ran, or a sub-menu taking the place of another
  // (BeginMenu yields a frame to it): it begins, and shows, in the next frame. Only one opened
  // in this frame or the last: one that no BeginPopup asks for (opened under another ID) never
  // begins.
  const auto is_open = [&](const ImGuiWindow* window) {
    for (const ImGuiPopupData& popup : g.OpenPopupStack) {
      if (popup.Window == window) return true;
    }
    return false;
  };
  for (const ImGuiPopupData& popup : g.OpenPopupStack) {
    if (popup.Window == nullptr && popup.OpenFrameCount >= g.FrameCount - 1) return true;
  }
  for (ImGuiWindow* window : g.Windows) {
    if (!window->Active && !window->WasActive) continue;
    // A popup shown in this frame and closed since (CloseCurrentPopup from its own body): it is
    // gone from the next.
    if (window->Active && (window->Flags & ImGuiWindowFlags_Popup) != 0 && !is_open(window)) return true;
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
#if CADENCE_IMGUI_INPUT_EVENTS
  return !ImGui::GetCurrentContext()->InputEventsQueue.empty();
#else
  return false;
#endif
}

}  // namespace cadence::detail
