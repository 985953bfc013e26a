// An ImGui context that needs no platform backend: a display size and a built font atlas, enough
// for a pacer to build frames. The caller destroys it (ImGui::DestroyContext).
#pragma once

#include <imgui.h>

namespace cadence::test {

/// Creates the context, current on return.
inline ImGuiContext* headless_imgui(float width = 320, float height = 240) {
  ImGuiContext* c = ImGui::CreateContext();
  ImGui::SetCurrentContext(c);
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.DisplaySize = ImVec2(width, height);
  unsigned char* pixels = nullptr;
  int w = 0, h = 0;
  io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  return c;
}

}  // namespace cadence::test
