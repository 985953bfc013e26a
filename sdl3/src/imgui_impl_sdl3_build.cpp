// Dear ImGui's SDL3 platform backend, compiled from the source ImGui ships
// (CADENCE_IMGUI_SDL3_SOURCE, found by the top-level CMakeLists.txt) under cadence's names for
// its functions (imgui_impl_sdl3_names.hpp).
#include "imgui_impl_sdl3_names.hpp"

#include CADENCE_IMGUI_SDL3_SOURCE
