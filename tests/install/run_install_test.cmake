# Installs cadence from BUILD_DIR into a scratch prefix, then configures, builds and runs the
# consumers of CONSUMER_DIR against it: a CMake project (find_package(cadence), C and C++) and
# programs built with pkg-config alone (C and C++). Fails on any step.
# With PREFIX set, uses that install instead (scripts/package: the unpacked Debian packages).
# A cross build (CROSSCOMPILING true, TOOLCHAIN: its toolchain file) builds them with that toolchain, with the DLLs
# beside them as a Windows app ships them, and runs them with EMULATOR (Wine); EXE_SUFFIX: .exe;
# C_COMPILER and CXX_COMPILER: the toolchain's; RUNTIME_DLLS: its runtime's DLLs.
file(REMOVE_RECURSE "${WORK_DIR}")
set(prefix "${PREFIX}")

function(run_step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}\n${err}")
  endif()
  string(STRIP "${out}" out)
  if(what MATCHES "^run " AND out)
    message(STATUS "${what}: ${out}")
  endif()
endfunction()

if(NOT prefix)
  set(prefix "${WORK_DIR}/prefix")
  run_step("install" "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${prefix}")
endif()
file(GLOB version_file "${prefix}/lib*/cmake/cadence/cadenceConfigVersion.cmake"
  "${prefix}/lib/*/cmake/cadence/cadenceConfigVersion.cmake")
if(NOT version_file)
  message(FATAL_ERROR "no version file under ${prefix}/lib*/cmake/cadence")
endif()

# Same compilers and flags as the build under test (sanitizer builds need their runtime).
file(STRINGS "${BUILD_DIR}/CMakeCache.txt" cache
  REGEX "^(CMAKE_C_COMPILER|CMAKE_C_FLAGS|CMAKE_CXX_COMPILER|CMAKE_CXX_FLAGS|CMAKE_EXE_LINKER_FLAGS|CMAKE_BUILD_TYPE|BUILD_SHARED_LIBS):")
set(forwarded)
foreach(line IN LISTS cache)
  string(REGEX REPLACE "^([A-Z_]+):[A-Z]+=(.*)$" "\\1" key "${line}")
  string(REGEX REPLACE "^([A-Z_]+):[A-Z]+=(.*)$" "\\2" value "${line}")
  set(cached_${key} "${value}")
  if(key MATCHES "^CMAKE_")
    list(APPEND forwarded "-D${key}=${value}")
  endif()
endforeach()
if(CROSSCOMPILING)  # its toolchain file names the compilers (not the cache), and searches only below its roots: the install is one
  set(cached_CMAKE_C_COMPILER "${C_COMPILER}")
  set(cached_CMAKE_CXX_COMPILER "${CXX_COMPILER}")
  list(APPEND forwarded "-DCMAKE_TOOLCHAIN_FILE=${TOOLCHAIN}" "-DCMAKE_FIND_ROOT_PATH=${prefix}")
endif()
set(emulator ${EMULATOR})
# Windows finds a program's DLLs beside it.
function(copy_dlls_to dir)
  file(GLOB dlls "${prefix}/bin/*.dll")
  list(APPEND dlls ${RUNTIME_DLLS})  # the compiler's
  if(dlls)
    file(COPY ${dlls} DESTINATION "${dir}")
  endif()
endfunction()

# The libraries are found where they were installed, the way an app's users would point at them.
file(GLOB pc_file "${prefix}/lib*/pkgconfig/cadence.pc" "${prefix}/lib/*/pkgconfig/cadence.pc")
if(NOT pc_file)
  message(FATAL_ERROR "install did not produce cadence.pc under ${prefix}")
endif()
get_filename_component(pc_dir "${pc_file}" DIRECTORY)
get_filename_component(libdir "${pc_dir}" DIRECTORY)
set(ENV{LD_LIBRARY_PATH} "${libdir}")

run_step("configure the CMake consumers" "${CMAKE_COMMAND}" -S "${CONSUMER_DIR}" -B "${WORK_DIR}/consumer"
  "-DCMAKE_PREFIX_PATH=${prefix}" ${forwarded})
cmake_host_system_information(RESULT cores QUERY NUMBER_OF_LOGICAL_CORES)
run_step("build the CMake consumers" "${CMAKE_COMMAND}" --build "${WORK_DIR}/consumer" --parallel ${cores})
foreach(part IN ITEMS pacer window sdl sdl3)  # built: its pkg-config module was written
  if(EXISTS "${BUILD_DIR}/cadence-${part}.pc" AND NOT EXISTS "${WORK_DIR}/consumer/${part}_consumer${EXE_SUFFIX}")
    message(FATAL_ERROR "cadence::${part} was built but the consumer could not find it")
  endif()
endforeach()
# SDL2 and SDL3 in one program: refused at its configure, naming the rule.
if(EXISTS "${BUILD_DIR}/cadence-sdl.pc" AND EXISTS "${BUILD_DIR}/cadence-sdl3.pc")
  execute_process(COMMAND "${CMAKE_COMMAND}" -S "${CONSUMER_DIR}/../mixed_sdl" -B "${WORK_DIR}/mixed_sdl"
    "-DCMAKE_PREFIX_PATH=${prefix}" ${forwarded} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc EQUAL 0 OR NOT err MATCHES "CADENCE_SDL")
    message(FATAL_ERROR "a program linking cadence::sdl and cadence::sdl3 was not refused by its configure "
                        "(exit ${rc}):\n${err}")
  endif()
  message(STATUS "a program linking cadence::sdl and cadence::sdl3 is refused: SDL2 and SDL3 cannot share a process")
endif()
copy_dlls_to("${WORK_DIR}/consumer")
foreach(name IN ITEMS consumer c_consumer)  # the runtime's, always built
  if(NOT EXISTS "${WORK_DIR}/consumer/${name}${EXE_SUFFIX}")
    message(FATAL_ERROR "the CMake consumers' build made no ${name}${EXE_SUFFIX}")
  endif()
endforeach()
foreach(name IN ITEMS consumer c_consumer backend_consumer c_window_consumer pacer_consumer)
  if(EXISTS "${WORK_DIR}/consumer/${name}${EXE_SUFFIX}")
    run_step("run ${name} (CMake)" ${emulator} "${WORK_DIR}/consumer/${name}${EXE_SUFFIX}")
  endif()
endforeach()

# The same prefix through pkg-config alone: `<compiler> main.c $(pkg-config --cflags --libs <module>)`.
find_program(PKG_CONFIG_EXECUTABLE pkg-config REQUIRED)
set(ENV{PKG_CONFIG_PATH} "${pc_dir}")
set(static "")
if(NOT cached_BUILD_SHARED_LIBS)
  set(static --static)  # the libraries' own dependencies too (the C++ standard library for C)
endif()
function(pkg_config out)
  execute_process(COMMAND "${PKG_CONFIG_EXECUTABLE}" ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE flags
    ERROR_VARIABLE err OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "pkg-config ${ARGN} failed: ${err}")
  endif()
  separate_arguments(flags UNIX_COMMAND "${flags}")
  set(${out} ${flags} PARENT_SCOPE)
endfunction()
# pkg_config_consumer(<name> <source> <compiler and flags...> MODULE <pkg-config arguments...>)
function(pkg_config_consumer name source)
  cmake_parse_arguments(ARG "" "" "MODULE" ${ARGN})
  pkg_config(flags --cflags --libs ${ARG_MODULE})
  run_step("build ${name} (pkg-config)" ${ARG_UNPARSED_ARGUMENTS} "${CONSUMER_DIR}/${source}" ${flags}
    -o "${WORK_DIR}/${name}${EXE_SUFFIX}")
  run_step("run ${name} (pkg-config)" ${emulator} "${WORK_DIR}/${name}${EXE_SUFFIX}")
endfunction()

copy_dlls_to("${WORK_DIR}")
separate_arguments(cxx UNIX_COMMAND "${cached_CMAKE_CXX_COMPILER} ${cached_CMAKE_CXX_FLAGS} ${cached_CMAKE_EXE_LINKER_FLAGS}")
separate_arguments(cc UNIX_COMMAND "${cached_CMAKE_C_COMPILER} ${cached_CMAKE_C_FLAGS} ${cached_CMAKE_EXE_LINKER_FLAGS}")
pkg_config(version --modversion cadence-runtime)
string(REPLACE "." ";" version "${version}")
list(GET version 0 major)
list(GET version 1 minor)
# cadence.pc: the runtime with -std=c++20, for C++ users who pass no -std of their own.
pkg_config_consumer(pkgconfig_consumer pkgconfig_main.cpp ${cxx} MODULE ${static} cadence)
pkg_config_consumer(pkgconfig_c_consumer c_main.c ${cc} -std=c11 -Wall -Wextra -pedantic -Werror
  -DCADENCE_EXPECTED_MAJOR=${major} -DCADENCE_EXPECTED_MINOR=${minor} MODULE ${static} cadence-runtime)
if(EXISTS "${pc_dir}/cadence-window.pc")
  pkg_config_consumer(pkgconfig_backend_consumer backend_main.cpp ${cxx} -std=c++20 MODULE ${static} cadence-window)
  pkg_config_consumer(pkgconfig_c_window_consumer c_window_main.c ${cc} -std=c11 -Wall -Wextra -pedantic -Werror
    MODULE ${static} cadence-window)
endif()
message(STATUS "consumers built against ${prefix} and run (CMake and pkg-config, C and C++)")
