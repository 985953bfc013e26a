// cadence/imgui_features.hpp: the Dear ImGui cadence is built with, and what its version brings.
//
// cadence supports every Dear ImGui release from 1.86 to the newest 1.92.x, with and without
// IMGUI_DISABLE_OBSOLETE_FUNCTIONS. Each difference between those versions that cadence meets is
// one macro here, named for what it enables, with the release that brought it; every file of
// cadence that depends on the version tests these, never IMGUI_VERSION_NUM itself. CMake refuses
// an ImGui outside the range when it configures (cmake/FindImGui.cmake names the version it
// found); the check below stops a build whose compiler sees another imgui.h than CMake did.
//
//     #include <cadence/imgui_features.hpp>
//     #if CADENCE_IMGUI_INPUT_EVENTS
//     ImGui::GetIO().AddKeyEvent(ImGuiKey_A, true);
//     #endif
//
// Thread: any (constants). Errors: an ImGui outside the range does not compile.
#pragma once

#include <imgui.h>

/// The oldest and the newest IMGUI_VERSION_NUM cadence supports: 1.86 and any 1.92.x.
#define CADENCE_IMGUI_OLDEST_NUM 18600
#define CADENCE_IMGUI_NEWEST_NUM 19299

#if !defined(IMGUI_VERSION_NUM) || IMGUI_VERSION_NUM < CADENCE_IMGUI_OLDEST_NUM || IMGUI_VERSION_NUM > CADENCE_IMGUI_NEWEST_NUM
#error "cadence supports Dear ImGui 1.86 to 1.92.x; the imgui.h this file sees is another version (its IMGUI_VERSION), not the one CMake found when it configured: build with the ImGui you configured with"
#endif

/// 1.87: input comes as events (io.AddKeyEvent, io.AddMousePosEvent, ...) and keys are ImGuiKey
/// values, held in io.KeysData; 1.86 reads io.KeysDown[], io.MousePos and io.MouseDown[].
#define CADENCE_IMGUI_INPUT_EVENTS (IMGUI_VERSION_NUM >= 18700)
/// 1.88: a held mouse button repeats (IsMouseClicked with repeat) at io.KeyRepeatRate; before, at
/// half of it.
#define CADENCE_IMGUI_MOUSE_REPEATS_AT_KEY_RATE (IMGUI_VERSION_NUM >= 18800)
/// 1.89: the modifier keys' state is sent as ImGuiMod_Ctrl, Shift, Alt and Super (flags);
/// 1.87 and 1.88 send it as the keys ImGuiKey_ModCtrl, ModShift, ModAlt and ModSuper.
#define CADENCE_IMGUI_MOD_FLAGS (IMGUI_VERSION_NUM >= 18900)
/// 1.89: an activated button held with Space (or the gamepad's Activate) repeats at
/// io.KeyRepeatRate, as a held mouse button; before, on navigation's faster schedule.
#define CADENCE_IMGUI_NAV_ACTIVATE_AT_KEY_RATE (IMGUI_VERSION_NUM >= 18900)
/// 1.89.3: Dear ImGui's SDL2 backend turns SDL's horizontal wheel sign round (SDL's right is
/// GLFW's left); before, it takes SDL's sign as it is.
#define CADENCE_IMGUI_SDL2_FLIPS_WHEEL_X (IMGUI_VERSION_NUM >= 18930)
/// 1.89.8: ImDrawData::CmdLists is an ImVector; before, a pointer with CmdListsCount (which later
/// releases make obsolete). Read the lists through cadence::detail::draw_lists().
#define CADENCE_IMGUI_CMDLISTS_VECTOR (IMGUI_VERSION_NUM >= 18980)
/// 1.90: items hovered with a delay (style.HoverDelayShort, HoverDelayNormal and
/// HoverStationaryDelay), which tooltips use, read as 1.90 names them. 1.89 to 1.89.9 delay
/// hovers too (from io, then from 1.89.7 the style), which cadence does not pace.
#define CADENCE_IMGUI_HOVER_DELAYS (IMGUI_VERSION_NUM >= 19000)
/// 1.90.1: a sub-menu hovered with the pointer still for 0.30 s opens even while the pointer
/// was heading for another menu's popup (BeginMenu's timeout on its hover slack).
#define CADENCE_IMGUI_MENU_HOVER_TIMEOUT (IMGUI_VERSION_NUM >= 19001)
/// 1.91: a button repeats while held through PushItemFlag(ImGuiItemFlags_ButtonRepeat, true);
/// PushButtonRepeat() before (obsolete since).
#define CADENCE_IMGUI_BUTTON_REPEAT_ITEM_FLAG (IMGUI_VERSION_NUM >= 19100)
/// 1.92: textures are created and updated through requests in ImDrawData::Textures that the
/// renderer carries out, and a draw command names its texture with an ImTextureRef.
#define CADENCE_IMGUI_TEXTURES (IMGUI_VERSION_NUM >= 19200)

/// The header of Dear ImGui's SDL2 backend, for `#include CADENCE_IMGUI_IMPL_SDL2`: named
/// imgui_impl_sdl2.h from 1.89.3, imgui_impl_sdl.h before.
#if IMGUI_VERSION_NUM >= 18930
#define CADENCE_IMGUI_IMPL_SDL2 <backends/imgui_impl_sdl2.h>
#else
#define CADENCE_IMGUI_IMPL_SDL2 <backends/imgui_impl_sdl.h>
#endif

namespace cadence::detail {

/// The draw lists of a frame's draw data, in order, whichever form CmdLists has.
struct DrawLists {
  ImDrawList* const* first;
  int count;
  ImDrawList* const* begin() const noexcept { return first; }
  ImDrawList* const* end() const noexcept { return first + count; }
};
inline DrawLists draw_lists(const ImDrawData& data) noexcept {
#if CADENCE_IMGUI_CMDLISTS_VECTOR
  return DrawLists{data.CmdLists.Data, data.CmdLists.Size};
#else
  return DrawLists{data.CmdLists, data.CmdListsCount};
#endif
}

}  // namespace cadence::detail
