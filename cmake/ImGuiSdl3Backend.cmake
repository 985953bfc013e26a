# cadence_imgui_sdl3_backend(<ok> <why>): whether Dear ImGui's SDL3 platform backend can be
# compiled into cadence::window here. ImGui ships it as source only (no libimgui.a of Debian's
# has it): CADENCE_IMGUI_SDL3_SOURCE names imgui_impl_sdl3.cpp, by default the ImGui tree's
# (CADENCE_IMGUI_DIR) or the one Debian's libimgui-dev installs with its examples. It must build
# against the SDL3 found (SDL3::SDL3): an ImGui older than SDL 3.2 (Debian 13's 1.90.1, written
# for a pre-release SDL3) does not. Sets <ok> to ON or OFF and <why> to the reason when OFF, and
# CADENCE_IMGUI_SDL3_INCLUDE to the folder of its header (the source includes it by name).
function(cadence_imgui_sdl3_backend ok why)
  if(ImGui_SOURCE_TREE)
    set(_default "${CADENCE_IMGUI_DIR}/backends/imgui_impl_sdl3.cpp")
    set(_includes "${CADENCE_IMGUI_DIR}")
  else()
    set(_default "/usr/share/doc/libimgui-dev/examples/backends/imgui_impl_sdl3.cpp")
    set(_includes ${IMGUI_INCLUDE_DIRS})
  endif()
  # The default follows the ImGui in use (a new CADENCE_IMGUI_DIR in an old build directory);
  # a path the user chose stays.
  if(NOT DEFINED CACHE{CADENCE_IMGUI_SDL3_SOURCE} OR
     "$CACHE{CADENCE_IMGUI_SDL3_SOURCE}" STREQUAL "$CACHE{_cadence_imgui_sdl3_default}")
    set(CADENCE_IMGUI_SDL3_SOURCE "${_default}" CACHE FILEPATH
        "Dear ImGui's imgui_impl_sdl3.cpp, compiled into cadence::window for its SDL3 windows" FORCE)
  endif()
  set(_cadence_imgui_sdl3_default "${_default}" CACHE INTERNAL "the default CADENCE_IMGUI_SDL3_SOURCE last set")
  set(${ok} OFF PARENT_SCOPE)
  if(NOT EXISTS "${CADENCE_IMGUI_SDL3_SOURCE}")
    set(${why} "Dear ImGui's SDL3 backend source is not at CADENCE_IMGUI_SDL3_SOURCE=${CADENCE_IMGUI_SDL3_SOURCE} \
(Debian's libimgui-dev installs it with the examples)" PARENT_SCOPE)
    return()
  endif()
  find_path(_header_dir imgui_impl_sdl3.h PATHS ${_includes} PATH_SUFFIXES backends NO_DEFAULT_PATH NO_CACHE)
  if(NOT _header_dir)
    set(${why} "imgui_impl_sdl3.h is not in ImGui's backends folder (${_includes})" PARENT_SCOPE)
    return()
  endif()
  include(CheckCXXSourceCompiles)
  set(CMAKE_REQUIRED_INCLUDES ${_includes} "${_header_dir}")
  set(CMAKE_REQUIRED_LIBRARIES SDL3::SDL3)
  set(CMAKE_REQUIRED_DEFINITIONS ${_cadence_imgui_cflags})
  set(CMAKE_REQUIRED_QUIET ON)
  set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)  # a compile only
  unset(_cadence_imgui_sdl3_builds CACHE)
  check_cxx_source_compiles("#include \"${CADENCE_IMGUI_SDL3_SOURCE}\"\nint cadence_probe() { return 0; }"
                            _cadence_imgui_sdl3_builds)
  if(NOT _cadence_imgui_sdl3_builds)
    set(${why} "Dear ImGui ${ImGui_VERSION}'s SDL3 backend (${CADENCE_IMGUI_SDL3_SOURCE}) does not build against \
SDL ${SDL3_VERSION} (an ImGui from before SDL 3.2 was written for a pre-release SDL3)" PARENT_SCOPE)
    return()
  endif()
  set(CADENCE_IMGUI_SDL3_INCLUDE "${_header_dir}" PARENT_SCOPE)
  set(${ok} ON PARENT_SCOPE)
endfunction()
