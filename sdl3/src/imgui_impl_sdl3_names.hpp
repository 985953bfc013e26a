// Dear ImGui's SDL3 platform backend ships as source only (Debian's libimgui.a has none), so
// cadence::window compiles it (imgui_impl_sdl3_build.cpp) under names of its own: an app that
// compiles the backend too, as ImGui's SDL3 example does, links beside cadence with no function
// defined twice. Include this before the backend's header, everywhere cadence calls it. Every
// function the source defines outside a `static` is here (tests/CMakeLists.txt links an app's
// own copy of the backend beside cadence::window to hold it to that).
#pragma once

#define ImGui_ImplSDL3_InitForOpenGL cadence_ImGui_ImplSDL3_InitForOpenGL
#define ImGui_ImplSDL3_InitForVulkan cadence_ImGui_ImplSDL3_InitForVulkan
#define ImGui_ImplSDL3_InitForD3D cadence_ImGui_ImplSDL3_InitForD3D
#define ImGui_ImplSDL3_InitForMetal cadence_ImGui_ImplSDL3_InitForMetal
#define ImGui_ImplSDL3_InitForSDLRenderer cadence_ImGui_ImplSDL3_InitForSDLRenderer
#define ImGui_ImplSDL3_InitForSDLGPU cadence_ImGui_ImplSDL3_InitForSDLGPU
#define ImGui_ImplSDL3_InitForOther cadence_ImGui_ImplSDL3_InitForOther
#define ImGui_ImplSDL3_Shutdown cadence_ImGui_ImplSDL3_Shutdown
#define ImGui_ImplSDL3_NewFrame cadence_ImGui_ImplSDL3_NewFrame
#define ImGui_ImplSDL3_ProcessEvent cadence_ImGui_ImplSDL3_ProcessEvent
#define ImGui_ImplSDL3_SetGamepadMode cadence_ImGui_ImplSDL3_SetGamepadMode
// Not in the header, and not static either (1.92: "to allow third-party code to use that").
#define ImGui_ImplSDL3_KeyEventToImGuiKey cadence_ImGui_ImplSDL3_KeyEventToImGuiKey
