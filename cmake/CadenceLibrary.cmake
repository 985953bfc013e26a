# cadence_library(<part> [EXPORTS_IMGUI] SOURCES ...): the library cadence_<part>, exported and
# installed as cadence::<part>, with its public headers in <part>/include. Static or shared as
# BUILD_SHARED_LIBS says; a shared one exports only what its headers mark CADENCE_<PART>_API
# (cadence/export.hpp) and the C API's functions, and on ELF platforms a version script
# (cmake/exports.map) keeps everything else out of its dynamic symbol table; EXPORTS_IMGUI adds
# Dear ImGui, which the libraries that draw carry (cmake/exports_imgui.map). Each part is a
# component of find_package(cadence) with a targets file of its own, and an install component of
# the same name (its Debian package); its headers, archive and .so link go to the component dev.
#
# cadence_libraries builds every library this configuration has, and nothing else: what an install
# needs (scripts/examples, and CI's build of what it installs and demonstrates).
add_custom_target(cadence_libraries)
function(cadence_library part)
  cmake_parse_arguments(ARG "EXPORTS_IMGUI" "" "SOURCES" ${ARGN})
  set(target cadence_${part})
  add_library(${target} ${ARG_SOURCES})
  add_library(cadence::${part} ALIAS ${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${part} OUTPUT_NAME ${target})
  target_compile_features(${target} PUBLIC cxx_std_20)
  target_include_directories(${target} PUBLIC
    "$<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>"
    "$<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>")
  cadence_warnings(${target})
  string(TOUPPER "${part}" upper)
  set_target_properties(${target} PROPERTIES CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON
    VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
  target_compile_definitions(${target} PRIVATE CADENCE_BUILDING_${upper})
  if(BUILD_SHARED_LIBS)
    target_compile_definitions(${target} PUBLIC CADENCE_${upper}_SHARED)
    if(NOT APPLE AND NOT WIN32)
      set(map "${PROJECT_SOURCE_DIR}/cmake/exports.map")
      if(ARG_EXPORTS_IMGUI)
        set(map "${PROJECT_SOURCE_DIR}/cmake/exports_imgui.map")
      endif()
      target_link_options(${target} PRIVATE "LINKER:--version-script=${map}")
      set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS "${map}")
    endif()
  endif()
  install(TARGETS ${target} EXPORT cadence_${part}_targets
    ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT dev
    LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT ${part} NAMELINK_COMPONENT dev
    RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}" COMPONENT ${part})  # a Windows DLL
  install(DIRECTORY include/cadence DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}" COMPONENT dev)
  set_property(GLOBAL APPEND PROPERTY CADENCE_COMPONENTS ${part})
  add_dependencies(cadence_libraries ${target})
  install(EXPORT cadence_${part}_targets NAMESPACE cadence:: DESTINATION "${CADENCE_CMAKE_DIR}"
    FILE cadence-${part}-targets.cmake COMPONENT dev)
endfunction()

# cadence_sdl_of(<target> <2|3>): the SDL a library links. SDL2 and SDL3 define functions of the
# same names and cannot share a process, so CMake refuses a program that links libraries of both
# (COMPATIBLE_INTERFACE_STRING, which install(EXPORT) carries to the installed targets).
function(cadence_sdl_of target major)
  set_property(TARGET ${target} PROPERTY INTERFACE_CADENCE_SDL ${major})
  set_property(TARGET ${target} APPEND PROPERTY COMPATIBLE_INTERFACE_STRING CADENCE_SDL)
endfunction()
