# Debian packages of a shared build (cpack -G DEB; scripts/package builds and checks them):
# - one package per library, named after its SONAME (libcadence_runtime.so.0.1:
#   libcadence-runtime0.1), with its Depends found by dpkg-shlibdeps (GLFW's, SDL2's, libc's ...)
#   and the cadence libraries it builds on, of the same version;
# - libcadence-dev: the headers, the CMake package and the pkg-config files, depending on every
#   library package of the same version and on the -dev packages their .pc files require.
# docs/packaging.md has the ABI policy these names follow.
set(CADENCE_PACKAGE_MAINTAINER "cadence <packages@cadence.invalid>" CACHE STRING
  "Maintainer field of the Debian packages (cpack -G DEB)")
get_property(parts GLOBAL PROPERTY CADENCE_COMPONENTS)

set(CPACK_PACKAGE_NAME cadence)
set(CPACK_PACKAGE_CONTACT "${CADENCE_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_VENDOR "the cadence authors")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "")  # each package has its own
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)  # the packages' version: 0.1.0-1
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL ${parts} dev)
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)  # CPACK_COMPONENT_<C>_DEPENDS: (= this version)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
set(CPACK_STRIP_FILES ON)
set(CPACK_CADENCE_SHARED "${BUILD_SHARED_LIBS}")
set(CPACK_PROJECT_CONFIG_FILE "${CMAKE_CURRENT_LIST_DIR}/debian/cpack_check.cmake")

set(summary_runtime "timers and background threads for desktop GUI apps")
set(summary_shared_wheel "timing wheel shared between processes")
set(summary_pacer "frame pacing for Dear ImGui apps")
set(summary_window "windows with Dear ImGui and their event loop")
set(summary_sdl "frame pacing for an app's own SDL2 loop")
set(cadence_about "cadence gives desktop GUI apps timers and background threads that cost\nnothing while nothing is due, and Dear ImGui windows that draw only while\ntheir content changes.")
set(doc_packages "")  # component, package, ...
foreach(part IN LISTS parts)
  string(TOUPPER "${part}" upper)
  string(REPLACE "_" "-" name "libcadence-${part}${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR}")
  set(CPACK_DEBIAN_${upper}_PACKAGE_NAME "${name}")
  set(CPACK_DEBIAN_${upper}_PACKAGE_SECTION libs)
  set(CPACK_DEBIAN_${upper}_PACKAGE_CONTROL_EXTRA "${CMAKE_CURRENT_LIST_DIR}/debian/triggers")  # ldconfig
  set(CPACK_COMPONENT_${upper}_DESCRIPTION "cadence: ${summary_${part}}\n${cadence_about}\n\nThis package holds the shared library cadence_${part}.")
  list(APPEND CPACK_COMPONENT_DEV_DEPENDS ${part})
  list(APPEND doc_packages ${part} ${name})
  get_target_property(dir cadence_${part} BINARY_DIR)  # where dpkg-shlibdeps finds cadence's own libraries
  list(APPEND CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS "${dir}")
endforeach()
set(CPACK_COMPONENT_SHARED_WHEEL_DEPENDS runtime)
set(CPACK_COMPONENT_PACER_DEPENDS runtime)
set(CPACK_COMPONENT_WINDOW_DEPENDS pacer)
set(CPACK_COMPONENT_SDL_DEPENDS pacer)

# What the installed .pc files and the CMake package ask for (the Requires of cadence-<part>.pc).
set(dev_depends "")
if("pacer" IN_LIST parts AND NOT ImGui_SOURCE_TREE)
  list(APPEND dev_depends libimgui-dev)
endif()
if("window" IN_LIST parts OR ImGui_SOURCE_TREE)
  list(APPEND dev_depends libglfw3-dev libgl-dev)
endif()
if("sdl" IN_LIST parts)
  list(APPEND dev_depends libsdl2-dev)
endif()
list(JOIN dev_depends ", " CPACK_DEBIAN_DEV_PACKAGE_DEPENDS)
set(CPACK_DEBIAN_DEV_PACKAGE_NAME libcadence-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_COMPONENT_DEV_DESCRIPTION "cadence: development files\n${cadence_about}\n\nThis package holds the C and C++ headers, the CMake package\n(find_package(cadence)) and the pkg-config files (cadence-runtime, ...).")
list(APPEND doc_packages dev libcadence-dev)

# Each package's /usr/share/doc/<package>: the copyright file and the changelog, as Debian wants.
if(BUILD_SHARED_LIBS)
  string(TIMESTAMP CADENCE_PACKAGE_DATE "%a, %d %b %Y %H:%M:%S +0000" UTC)  # SOURCE_DATE_EPOCH, when set
  configure_file("${CMAKE_CURRENT_LIST_DIR}/debian/changelog.in" "${PROJECT_BINARY_DIR}/debian/changelog.Debian" @ONLY)
  execute_process(COMMAND gzip -9nf "${PROJECT_BINARY_DIR}/debian/changelog.Debian" COMMAND_ERROR_IS_FATAL ANY)
  while(doc_packages)
    list(POP_FRONT doc_packages component package)
    install(FILES "${CMAKE_CURRENT_LIST_DIR}/debian/copyright" "${PROJECT_BINARY_DIR}/debian/changelog.Debian.gz"
      DESTINATION "${CMAKE_INSTALL_DATAROOTDIR}/doc/${package}" COMPONENT ${component} EXCLUDE_FROM_ALL)
  endwhile()
endif()
include(CPack)
