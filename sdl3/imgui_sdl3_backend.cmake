# cadence_imgui_sdl3_backend(<ok> <why>): whether Dear ImGui's SDL3 platform backend can be
# compiled into cadence::window here. ImGui ships it as source only (no libimgui.a of Debian's
# has it): CADENCE_IMGUI_SDL3_SOURCE names imgui_impl_sdl3.cpp, by default the ImGui tree's
# (CADENCE_IMGUI_DIR) or the one Debian's libimgui-dev installs with its examples. It must build
# against the SDL3 found (SDL3::SDL3). ImGui 1.90 (Debian 13's 1.90.1) wrote it for a pre-release
# SDL3: that one builds after cadence adapts a copy of it to SDL 3.2 (below). Sets <ok> to ON or
# OFF and <why> to the reason when OFF; CADENCE_IMGUI_SDL3_CPP to the file to compile (the source,
# or its adapted copy in the build tree); CADENCE_IMGUI_SDL3_INCLUDE to the folder of its header
# (the source includes it by name).
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
  _cadence_imgui_sdl3_compiles("${CADENCE_IMGUI_SDL3_SOURCE}" "${_includes};${_header_dir}" _cadence_imgui_sdl3_builds)
  if(_cadence_imgui_sdl3_builds)
    set(CADENCE_IMGUI_SDL3_CPP "${CADENCE_IMGUI_SDL3_SOURCE}" PARENT_SCOPE)
    set(CADENCE_IMGUI_SDL3_INCLUDE "${_header_dir}" PARENT_SCOPE)
    set(${ok} ON PARENT_SCOPE)
    return()
  endif()
  _cadence_imgui_sdl3_adapt("${CADENCE_IMGUI_SDL3_SOURCE}" _adapted _not_adapted)
  if(_adapted)
    _cadence_imgui_sdl3_compiles("${_adapted}" "${_includes};${_header_dir}" _cadence_imgui_sdl3_adapted_builds)
  endif()
  if(NOT _adapted OR NOT _cadence_imgui_sdl3_adapted_builds)
    if(NOT _adapted)
      set(_not_adapted " and cannot be adapted to it: ${_not_adapted}")
    else()
      set(_not_adapted " (nor its copy adapted to SDL 3.2, ${_adapted})")
    endif()
    set(${why} "Dear ImGui ${ImGui_VERSION}'s SDL3 backend (${CADENCE_IMGUI_SDL3_SOURCE}) does not build against \
SDL ${SDL3_VERSION}${_not_adapted}" PARENT_SCOPE)
    return()
  endif()
  message(STATUS "cadence: Dear ImGui ${ImGui_VERSION}'s SDL3 backend was written for a pre-release SDL3: \
cadence compiles a copy adapted to SDL ${SDL3_VERSION} (${_adapted})")
  set(CADENCE_IMGUI_SDL3_CPP "${_adapted}" PARENT_SCOPE)
  set(CADENCE_IMGUI_SDL3_INCLUDE "${_header_dir}" PARENT_SCOPE)
  set(${ok} ON PARENT_SCOPE)
endfunction()

# Whether <source> compiles against SDL3::SDL3 with <includes>: the answer in the cache variable
# <result> (scripts/examples reads _cadence_imgui_sdl3_builds: ImGui's source builds as it is).
function(_cadence_imgui_sdl3_compiles source includes result)
  include(CheckCXXSourceCompiles)
  set(CMAKE_REQUIRED_INCLUDES ${includes})
  set(CMAKE_REQUIRED_LIBRARIES SDL3::SDL3)
  set(CMAKE_REQUIRED_DEFINITIONS ${_cadence_imgui_cflags})
  set(CMAKE_REQUIRED_QUIET ON)
  set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)  # a compile only
  unset(${result} CACHE)
  check_cxx_source_compiles("#include \"${source}\"\nint cadence_probe() { return 0; }" ${result})
endfunction()

# Dear ImGui 1.90's SDL3 backend against SDL 3.2: a copy of <source> in the build tree, its path
# in <out>, or <out> empty and the reason in <why>. SDL 3.2 renamed what the pre-release called
# SDL_SYSTEM_CURSOR_SIZEALL, SDLK_a, SDL_TRUE and others, and keeps the old names behind
# SDL_ENABLE_OLD_NAMES (imgui_backend_pre_3_2/before.inc defines it). What that cannot reach is
# rewritten here, each line only where it is found as written, or the copy is refused: a keyboard
# event's keysym fields (now the event's own), and the two behaviours SDL 3.2 changed under the
# same names, text input and the gamepad, which before.inc and after.inc implement for 3.2 (the
# backend's start and shutdown count its users, so that the last one closes the gamepad).
function(_cadence_imgui_sdl3_adapt source out why)
  set(${out} "" PARENT_SCOPE)
  file(READ "${source}" text)
  set(edits  # pairs: what the source says, what the copy says (no semicolon: this is a list)
    "key.keysym.sym" "key.key"
    "key.keysym.mod" "key.mod"
    "key.keysym.scancode" "key.scancode"
    "SDL_SetTextInputRect(&r)" "(void)r"
    "io.SetPlatformImeDataFn = ImGui_ImplSDL3_SetPlatformImeData" "io.SetPlatformImeDataFn = cadence_sdl3_platform_ime_data"
    "SDL_OpenGamepad(0)" "cadence_sdl3_first_gamepad()"
    "io.BackendPlatformName = \"imgui_impl_sdl3\"" "cadence_sdl3_backend_started(), io.BackendPlatformName = \"imgui_impl_sdl3\""
    "io.BackendPlatformName = nullptr" "cadence_sdl3_backend_stopped(), io.BackendPlatformName = nullptr")
  list(LENGTH edits n)
  math(EXPR last "${n} - 1")
  foreach(i RANGE 0 ${last} 2)
    math(EXPR j "${i} + 1")
    list(GET edits ${i} from)
    list(GET edits ${j} to)
    string(FIND "${text}" "${from}" at)
    if(at EQUAL -1)
      set(${why} "it has no `${from}`" PARENT_SCOPE)
      return()
    endif()
    string(REPLACE "${from}" "${to}" text "${text}")
  endforeach()
  set(dir "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/imgui_backend_pre_3_2")
  file(READ "${dir}/before.inc" before)
  file(READ "${dir}/after.inc" after)
  set_property(DIRECTORY "${PROJECT_SOURCE_DIR}" APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
    "${source}" "${dir}/before.inc" "${dir}/after.inc")
  set(copy "${PROJECT_BINARY_DIR}/imgui_sdl3_for_sdl3_2/imgui_impl_sdl3.cpp")
  # Written only when it changes, so that a configure does not rebuild it.
  file(WRITE "${copy}.new" "// Generated by cadence's CMake (sdl3/imgui_sdl3_backend.cmake) from\n// ${source}: do not edit.\n"
       "#line 1 \"${dir}/before.inc\"\n${before}\n#line 1 \"${source}\"\n${text}\n#line 1 \"${dir}/after.inc\"\n${after}")
  file(COPY_FILE "${copy}.new" "${copy}" ONLY_IF_DIFFERENT)
  file(REMOVE "${copy}.new")
  set(${out} "${copy}" PARENT_SCOPE)
endfunction()
