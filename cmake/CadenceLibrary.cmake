# cadence_library(<part> SOURCES ...): the library cadence_<part>, exported and installed as
# cadence::<part>, with its public headers in <part>/include.
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
  install(TARGETS ${target} EXPORT cadenceTargets
    ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
    LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}")
  install(DIRECTORY include/cadence DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
endfunction()
