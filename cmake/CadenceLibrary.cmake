# cadence_library(<part> SOURCES ...): the library cadence_<part>, exported and installed as
# cadence::<part>, with its public headers in <part>/include. Static or shared as
# BUILD_SHARED_LIBS says; a shared one exports only what its headers mark CADENCE_<PART>_API
# (cadence/export.hpp). Each part is a component of find_package(cadence) with a targets file of
# its own, and an install component of the same name (its Debian package); its headers, archive
# and .so link go to the component dev.
function(cadence_library part)
  cmake_parse_arguments(ARG "" "" "SOURCES" ${ARGN})
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
  endif()
  install(TARGETS ${target} EXPORT cadence_${part}_targets
    ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT dev
    LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT ${part} NAMELINK_COMPONENT dev)
  install(DIRECTORY include/cadence DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}" COMPONENT dev)
  set_property(GLOBAL APPEND PROPERTY CADENCE_COMPONENTS ${part})
  install(EXPORT cadence_${part}_targets NAMESPACE cadence:: DESTINATION "${CADENCE_CMAKE_DIR}"
    FILE cadence-${part}-targets.cmake COMPONENT dev)
endfunction()
