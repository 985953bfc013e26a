# cadence_pkg_config(<part> DESCRIPTION <text> [REQUIRES <module>...] [CFLAGS ...] [LIBS ...]
#                    [STATIC_REQUIRES <module>...] [STATIC_LIBS ...] [HEADERS_OF <module>...])
# Writes and installs cadence-<part>.pc (shared_wheel: cadence-shared-wheel.pc) for the library
# cadence_<part>. REQUIRES and LIBS are what a user's code sees or calls (CMake's PUBLIC);
# STATIC_* what only a static link needs: they become Requires.private and Libs.private in a
# static build, and are left out of a shared one, whose libraries carry them as DT_NEEDED (so
# that pkg-config does not ask for -dev files a shared link never reads). HEADERS_OF names modules
# whose headers users compile with but whose library the cadence library carries (Requires.private:
# their Cflags, never their Libs, without --static).
# The files are relocatable: every path is taken from the .pc file's own directory, so an
# install with `cmake --install --prefix <dir>` or an unpacked package works where it lies.

if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}" OR IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  # Absolute install directories: the .pc names them as they are.
  set(CADENCE_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
  set(CADENCE_PC_LIBDIR "${CMAKE_INSTALL_FULL_LIBDIR}")
  set(CADENCE_PC_INCLUDEDIR "${CMAKE_INSTALL_FULL_INCLUDEDIR}")
else()
  file(RELATIVE_PATH _to_prefix "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
  string(REGEX REPLACE "/$" "" _to_prefix "${_to_prefix}")
  set(CADENCE_PC_PREFIX "\${pcfiledir}/${_to_prefix}")
  set(CADENCE_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
  set(CADENCE_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()

function(cadence_pkg_config part)
  cmake_parse_arguments(ARG "" "DESCRIPTION" "REQUIRES;CFLAGS;LIBS;STATIC_REQUIRES;STATIC_LIBS;HEADERS_OF" ${ARGN})
  string(REPLACE "_" "-" name "cadence-${part}")
  string(TOUPPER "${part}" upper)
  if(BUILD_SHARED_LIBS)
    list(APPEND ARG_CFLAGS "-DCADENCE_${upper}_SHARED")
    set(ARG_STATIC_REQUIRES "")
    set(ARG_STATIC_LIBS "")
  endif()
  list(APPEND ARG_STATIC_REQUIRES ${ARG_HEADERS_OF})
  list(TRANSFORM ARG_REQUIRES REPLACE "^(cadence-[a-z-]+)$" "\\1 = ${PROJECT_VERSION}")
  list(JOIN ARG_REQUIRES ", " requires)
  list(JOIN ARG_STATIC_REQUIRES ", " static_requires)
  list(JOIN ARG_CFLAGS " " cflags)
  list(JOIN ARG_LIBS " " libs)
  list(JOIN ARG_STATIC_LIBS " " static_libs)
  set(lines "prefix=${CADENCE_PC_PREFIX}" "libdir=${CADENCE_PC_LIBDIR}" "includedir=${CADENCE_PC_INCLUDEDIR}" ""
    "Name: ${name}" "Description: ${ARG_DESCRIPTION}" "Version: ${PROJECT_VERSION}"
    "Requires: ${requires}" "Requires.private: ${static_requires}"
    "Cflags: -I\${includedir} ${cflags}" "Libs: -L\${libdir} -lcadence_${part} ${libs}" "Libs.private: ${static_libs}")
  list(FILTER lines EXCLUDE REGEX "^[A-Za-z.]+: *$")  # the fields left empty
  list(TRANSFORM lines STRIP)
  list(JOIN lines "\n" pc)
  file(CONFIGURE OUTPUT "${PROJECT_BINARY_DIR}/${name}.pc" CONTENT "${pc}\n" @ONLY)
  install(FILES "${PROJECT_BINARY_DIR}/${name}.pc" DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig" COMPONENT dev)
endfunction()
