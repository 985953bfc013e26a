// An app that compiles Dear ImGui's SDL3 backend itself (as ImGui's SDL3 example does) and links
// cadence::window, which carries its own copy under cadence's names: both link into one program,
// with no function defined twice (a static cadence::window pulls its copy in through the SDL3
// windows), and each copy answers as itself. This program failing to link is the failure.
#include <SDL3/SDL.h>
#include <backends/imgui_impl_sdl3.h>
#include <gtest/gtest.h>
#include <imgui.h>

#include "cadence/window.hpp"

#if IMGUI_VERSION_NUM >= 19190
// Not in the backend's header (from Dear ImGui 1.91.9): the app declares it, as ImGui's comment
// invites.
ImGuiKey ImGui_ImplSDL3_KeyEventToImGuiKey(SDL_Keycode keycode, SDL_Scancode scancode);
#endif

namespace {

TEST(Sdl3BackendBeside, AnAppsOwnCopyOfImGuisSdl3BackendLinksBesideCadencesWindows) {
  EXPECT_TRUE(cadence::backend_available(cadence::WindowBackend::sdl3)) << "the SDL3 windows are linked in";
#if IMGUI_VERSION_NUM >= 19190
  EXPECT_EQ(ImGui_ImplSDL3_KeyEventToImGuiKey(SDLK_A, SDL_SCANCODE_A), ImGuiKey_A) << "the app's copy";
#else
  // An older copy (one cadence adapted to SDL 3.2, as Debian 13's 1.90.1): the app's
  // ProcessEvent takes a context's text event with no backend initialised.
  ImGuiContext* context = ImGui::CreateContext();
  SDL_Event text{};
  text.type = SDL_EVENT_TEXT_INPUT;
  text.text.text = "q";
  EXPECT_TRUE(ImGui_ImplSDL3_ProcessEvent(&text)) << "the app's copy";
  ImGui::DestroyContext(context);
#endif
}

}  // namespace
