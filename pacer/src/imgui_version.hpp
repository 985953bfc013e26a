// The Dear ImGui versions cadence::pacer and cadence::window are built and tested against,
// checked once here. Every file that reads ImGui's internals (imgui_internal.h) or picks an
// input path by version includes this first, so an ImGui with another internal layout fails the build with this
// message instead of misbehaving.
#pragma once

#include <imgui.h>

#if !((IMGUI_VERSION_NUM >= 18600 && IMGUI_VERSION_NUM < 18700) || \
      (IMGUI_VERSION_NUM >= 19200 && IMGUI_VERSION_NUM < 19300))
#error "cadence supports Dear ImGui 1.86 and 1.92.x (tested: 1.86 and 1.92.9b); the ImGui in use (IMGUI_VERSION in its imgui.h) is another, whose internal layout may differ: use one of those (CADENCE_IMGUI_DIR=<tree>), or port pacer/src/imgui_*.cpp"
#endif

namespace cadence::detail {

/// True for ImGui 1.87 and later, which take input as queued events (io.AddKeyEvent, ...);
/// 1.86 reads io.KeysDown[], io.MousePos and io.MouseDown[] directly.
inline constexpr bool kImGuiInputEvents = IMGUI_VERSION_NUM >= 18700;

}  // namespace cadence::detail
