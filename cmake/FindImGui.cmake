# FindImGui: Dear ImGui with its GLFW and OpenGL 3 backends; ImGui_TARGET names the target to
# link (cadence_imgui, or PkgConfig::IMGUI).
#
# Two ways to get it:
# - CADENCE_IMGUI_DIR set to an ImGui source tree (imgui*.cpp at the top, backends/ below it,
#   the way most apps vendor ImGui): its core, its demo and the two backends are compiled into
#   the static library cadence_imgui (installed and exported with cadence as cadence::imgui, in
#   the pacer's targets file).
# - otherwise Debian's libimgui-dev through pkg-config (imgui.pc, which has the backends built in).
#
# Sets ImGui_FOUND, ImGui_VERSION ("1.92.9b"), ImGui_VERSION_NUM (19291) and ImGui_SOURCE_TREE.
# A source tree that is not an ImGui tree stops the configure with a message that names the
# directory and what is missing; an ImGui outside the supported range (either way), with one
# that names the version found and the range.

set(CADENCE_IMGUI_DIR "" CACHE PATH "An ImGui source tree to build against instead of Debian's libimgui-dev")
# The supported range, as pacer/include/cadence/imgui_features.hpp states it (one place).
file(STRINGS "${CMAKE_CURRENT_LIST_DIR}/../pacer/include/cadence/imgui_features.hpp" _range
     REGEX "^#define CADENCE_IMGUI_(OLDEST|NEWEST)_NUM [0-9]+")
string(REGEX REPLACE ".*OLDEST_NUM ([0-9]+).*" "\\1" _cadence_imgui_oldest "${_range}")
string(REGEX REPLACE ".*NEWEST_NUM ([0-9]+).*" "\\1" _cadence_imgui_newest "${_range}")

# Stops the configure when the ImGui found at `where` (headers in the include dirs after it;
# compile flags CMAKE_CXX_FLAGS and imgui.pc's own, in _cadence_imgui_cflags) cannot serve
# cadence: compiled out by IMGUI_DISABLE, or without ImGui::ShowDemoWindow
# (IMGUI_DISABLE_DEMO_WINDOWS) while the demo or the tests are built.
function(_cadence_imgui_check_config where)
  include(CheckCXXSourceCompiles)
  set(CMAKE_REQUIRED_INCLUDES ${ARGN})
  set(CMAKE_REQUIRED_DEFINITIONS ${_cadence_imgui_cflags})
  set(CMAKE_REQUIRED_QUIET ON)
  set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)  # a compile only: flags meant for a link cannot fail it
  foreach(_define IMGUI_DISABLE IMGUI_DISABLE_DEMO_WINDOWS)
    unset(_cadence_imgui_without_${_define} CACHE)
    check_cxx_source_compiles("#include <imgui.h>\n#ifndef ${_define}\n#error not set\n#endif\nint main() { return 0; }"
                              _cadence_imgui_without_${_define})
  endforeach()
  if(_cadence_imgui_without_IMGUI_DISABLE)
    message(FATAL_ERROR "${where}: Dear ImGui is compiled out there (IMGUI_DISABLE, from its imconfig.h or the compile "
                        "flags), and cadence's ImGui libraries need it: drop the define, or build without them "
                        "(-DCADENCE_BUILD_PACER=OFF)")
  endif()
  if(_cadence_imgui_without_IMGUI_DISABLE_DEMO_WINDOWS AND (CADENCE_BUILD_DEMO OR CADENCE_BUILD_TESTS))
    message(FATAL_ERROR "${where}: IMGUI_DISABLE_DEMO_WINDOWS takes out ImGui::ShowDemoWindow, which cadence's demo "
                        "and tests draw: build without them (-DCADENCE_BUILD_DEMO=OFF -DCADENCE_BUILD_TESTS=OFF), "
                        "or drop the define")
  endif()
endfunction()

# Stops the configure when ImGui `text` (IMGUI_VERSION_NUM `num`, found at `where`) is outside
# the range, naming both and the way out.
function(_cadence_imgui_check_range num text where)
  if(num LESS _cadence_imgui_oldest OR num GREATER _cadence_imgui_newest)
    message(FATAL_ERROR "${where}: Dear ImGui ${text} (IMGUI_VERSION_NUM ${num}) is outside the range cadence supports, "
                        "1.86 to 1.92.x (${_cadence_imgui_oldest} to ${_cadence_imgui_newest}): use an ImGui in it "
                        "(CADENCE_IMGUI_DIR=<tree>), or build without the ImGui libraries (-DCADENCE_BUILD_PACER=OFF)")
  endif()
endfunction()

function(_cadence_imgui_version header out_num out_text)
  file(STRINGS "${header}" _num REGEX "^#define[ \t]+IMGUI_VERSION_NUM[ \t]+[0-9]+")
  file(STRINGS "${header}" _text REGEX "^#define[ \t]+IMGUI_VERSION[ \t]+\"[^\"]*\"")
  string(REGEX REPLACE ".*IMGUI_VERSION_NUM[ \t]+([0-9]+).*" "\\1" _num "${_num}")
  string(REGEX REPLACE ".*\"([^\"]*)\".*" "\\1" _text "${_text}")
  set(${out_num} "${_num}" PARENT_SCOPE)
  set(${out_text} "${_text}" PARENT_SCOPE)
endfunction()

if(CADENCE_IMGUI_DIR)
  get_filename_component(_dir "${CADENCE_IMGUI_DIR}" ABSOLUTE)
  set(_sources imgui.cpp imgui_draw.cpp imgui_tables.cpp imgui_widgets.cpp imgui_demo.cpp
               backends/imgui_impl_glfw.cpp backends/imgui_impl_opengl3.cpp)
  set(_headers imgui.h imconfig.h imgui_internal.h imstb_rectpack.h imstb_textedit.h imstb_truetype.h
               backends/imgui_impl_glfw.h backends/imgui_impl_opengl3.h)
  if(NOT IS_DIRECTORY "${_dir}")
    message(FATAL_ERROR "CADENCE_IMGUI_DIR=${CADENCE_IMGUI_DIR}: ${_dir} is not a directory; point it at an "
                        "ImGui source tree (imgui.cpp, imgui.h, backends/imgui_impl_glfw.cpp, ...)")
  endif()
  set(_missing "")
  foreach(_f IN LISTS _sources _headers)
    if(NOT EXISTS "${_dir}/${_f}")
      list(APPEND _missing "${_f}")
    endif()
  endforeach()
  if(_missing)
    list(JOIN _missing ", " _missing_text)
    message(FATAL_ERROR "CADENCE_IMGUI_DIR=${CADENCE_IMGUI_DIR}: ${_dir} is not an ImGui source tree with the GLFW "
                        "and OpenGL 3 backends: missing ${_missing_text}")
  endif()
  _cadence_imgui_version("${_dir}/imgui.h" ImGui_VERSION_NUM ImGui_VERSION)
  if(NOT ImGui_VERSION_NUM MATCHES "^[0-9]+$")
    message(FATAL_ERROR "CADENCE_IMGUI_DIR=${CADENCE_IMGUI_DIR}: ${_dir}/imgui.h has no IMGUI_VERSION_NUM; "
                        "is it Dear ImGui's?")
  endif()
  _cadence_imgui_check_range("${ImGui_VERSION_NUM}" "${ImGui_VERSION}" "CADENCE_IMGUI_DIR=${CADENCE_IMGUI_DIR}")
  _cadence_imgui_check_config("CADENCE_IMGUI_DIR=${CADENCE_IMGUI_DIR}" "${_dir}")
  if(NOT TARGET cadence_imgui)
    find_package(glfw3 REQUIRED)
    find_package(OpenGL REQUIRED)
    list(TRANSFORM _sources PREPEND "${_dir}/")
    add_library(cadence_imgui STATIC ${_sources})
    set_target_properties(cadence_imgui PROPERTIES EXPORT_NAME imgui POSITION_INDEPENDENT_CODE ON)
    target_compile_features(cadence_imgui PUBLIC cxx_std_11)
    target_include_directories(cadence_imgui SYSTEM PUBLIC
      "$<BUILD_INTERFACE:${_dir}>" "$<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/cadence_imgui>")
    target_link_libraries(cadence_imgui PUBLIC glfw OpenGL::GL ${CMAKE_DL_LIBS})
    install(TARGETS cadence_imgui EXPORT cadence_pacer_targets ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT dev)
    foreach(_h IN LISTS _headers)
      get_filename_component(_sub "${_h}" DIRECTORY)
      install(FILES "${_dir}/${_h}" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/cadence_imgui/${_sub}" COMPONENT dev)
    endforeach()
  endif()
  set(ImGui_TARGET cadence_imgui)
  set(ImGui_SOURCE_TREE ON)
  set(ImGui_FOUND ON)
else()
  find_package(PkgConfig QUIET)
  if(PkgConfig_FOUND)
    pkg_check_modules(IMGUI QUIET IMPORTED_TARGET imgui)
  endif()
  if(IMGUI_FOUND)
    find_file(_cadence_imgui_header imgui.h PATHS ${IMGUI_INCLUDE_DIRS} NO_DEFAULT_PATH)
    if(_cadence_imgui_header)
      _cadence_imgui_version("${_cadence_imgui_header}" ImGui_VERSION_NUM ImGui_VERSION)
      _cadence_imgui_check_range("${ImGui_VERSION_NUM}" "${ImGui_VERSION}" "imgui.pc (${_cadence_imgui_header})")
      set(_cadence_imgui_cflags ${IMGUI_CFLAGS_OTHER})  # defines imgui.pc gives its users
      _cadence_imgui_check_config("imgui.pc (${_cadence_imgui_header})" ${IMGUI_INCLUDE_DIRS})
    endif()
    set(ImGui_TARGET PkgConfig::IMGUI)
    # libimgui.a is a C++ archive: a program linked as C (the C API's users) needs the C++
    # runtime (and libm, which g++ adds itself) after it on the link line.
    set_property(TARGET PkgConfig::IMGUI APPEND PROPERTY INTERFACE_LINK_LIBRARIES "$<$<LINK_LANGUAGE:C>:stdc++>" "$<$<LINK_LANGUAGE:C>:m>")
    set(ImGui_SOURCE_TREE OFF)
    set(ImGui_FOUND ON)
  else()
    set(ImGui_FOUND OFF)
  endif()
endif()

# For a library that draws with one of ImGui's backends: stops the configure when the ImGui from
# imgui.pc does not hold it (a source tree's backends are checked file by file above). `source`
# includes the backend's header and calls it; `libs` are what the backend itself links to. `part`
# names the library, and `off` the option that leaves it out.
function(cadence_imgui_require_backend what part off source)
  if(ImGui_SOURCE_TREE)
    return()
  endif()
  include(CheckCXXSourceCompiles)
  set(CMAKE_REQUIRED_LIBRARIES ${ImGui_TARGET} ${ARGN} ${IMGUI_LINK_LIBRARIES} ${ARGN})  # static: what it needs after it
  set(CMAKE_REQUIRED_INCLUDES "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../pacer/include")
  set(CMAKE_REQUIRED_QUIET ON)
  string(MAKE_C_IDENTIFIER "_cadence_imgui_has_${what}" _has)
  unset(${_has} CACHE)
  check_cxx_source_compiles("${source}" ${_has})
  if(NOT ${_has})
    message(FATAL_ERROR "Dear ImGui from imgui.pc (${IMGUI_LINK_LIBRARIES}) has no ${what} backend, which ${part} "
                        "draws with: install an ImGui built with it (Debian's libimgui-dev has it), or leave "
                        "${part} out (${off})")
  endif()
endfunction()
