// Dear ImGui's SDL3 platform backend, compiled from the source ImGui ships (CADENCE_IMGUI_SDL3_CPP:
// that source, or its copy adapted to SDL 3.2 where ImGui wrote it for a pre-release SDL3; see
// ../imgui_sdl3_backend.cmake) under cadence's names for its functions (imgui_impl_sdl3_names.hpp).
#include "imgui_impl_sdl3_names.hpp"

#include CADENCE_IMGUI_SDL3_CPP
