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
# A source tree that is not an ImGui tree, or an ImGui older than the oldest cadence supports,
# stops the configure with a message that names the directory and what is missing.

set(CADENCE_IMGUI_DIR "" CACHE PATH "An ImGui source tree to build against instead of Debian's libimgui-dev")
set(_cadence_imgui_oldest 18600)  # 1.86

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
  if(ImGui_VERSION_NUM LESS _cadence_imgui_oldest)
    message(FATAL_ERROR "CADENCE_IMGUI_DIR=${CADENCE_IMGUI_DIR}: ImGui ${ImGui_VERSION} (${ImGui_VERSION_NUM}) "
                        "is older than 1.86, the oldest cadence supports")
  endif()
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
