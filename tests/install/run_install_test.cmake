# Installs cadence from BUILD_DIR into a scratch prefix, then configures, builds and runs a small
# consumer project that finds it with find_package(cadence). Fails on any step.
file(REMOVE_RECURSE "${WORK_DIR}")
set(prefix "${WORK_DIR}/prefix")

function(run_step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}\n${err}")
  endif()
endfunction()

run_step("install" "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${prefix}")
if(NOT EXISTS "${prefix}/lib/cmake/cadence/cadenceConfigVersion.cmake")
  message(FATAL_ERROR "install did not produce a version file under ${prefix}/lib/cmake/cadence")
endif()

# Same compiler and flags as the build under test (sanitizer builds need their runtime).
file(STRINGS "${BUILD_DIR}/CMakeCache.txt" cache REGEX "^(CMAKE_CXX_COMPILER|CMAKE_CXX_FLAGS|CMAKE_EXE_LINKER_FLAGS|CMAKE_BUILD_TYPE):")
set(forwarded)
foreach(line IN LISTS cache)
  string(REGEX REPLACE "^([A-Z_]+):[A-Z]+=(.*)$" "-D\\1=\\2" arg "${line}")
  list(APPEND forwarded "${arg}")
  string(REGEX REPLACE "^([A-Z_]+):[A-Z]+=(.*)$" "\\1" key "${line}")
  string(REGEX REPLACE "^([A-Z_]+):[A-Z]+=(.*)$" "\\2" value "${line}")
  set(cached_${key} "${value}")
endforeach()

run_step("configure consumer" "${CMAKE_COMMAND}" -S "${CONSUMER_DIR}" -B "${WORK_DIR}/consumer"
  "-DCMAKE_PREFIX_PATH=${prefix}" ${forwarded})
run_step("build consumer" "${CMAKE_COMMAND}" --build "${WORK_DIR}/consumer")
run_step("run consumer" "${WORK_DIR}/consumer/consumer")
foreach(part IN ITEMS pacer window sdl)
  if(EXISTS "${BUILD_DIR}/${part}" AND NOT EXISTS "${WORK_DIR}/consumer/${part}_consumer")
    message(FATAL_ERROR "cadence::${part} was built but the consumer could not find it")
  endif()
endforeach()
if(EXISTS "${WORK_DIR}/consumer/pacer_consumer")
  run_step("run pacer consumer" "${WORK_DIR}/consumer/pacer_consumer")
endif()

# The same prefix through pkg-config alone: `c++ main.cpp $(pkg-config --cflags --libs cadence)`.
find_program(PKG_CONFIG_EXECUTABLE pkg-config REQUIRED)
file(GLOB pc_file "${prefix}/lib*/pkgconfig/cadence.pc" "${prefix}/lib/*/pkgconfig/cadence.pc")
if(NOT pc_file)
  message(FATAL_ERROR "install did not produce cadence.pc under ${prefix}")
endif()
get_filename_component(pc_dir "${pc_file}" DIRECTORY)
set(ENV{PKG_CONFIG_PATH} "${pc_dir}")
execute_process(COMMAND "${PKG_CONFIG_EXECUTABLE}" --cflags --libs cadence RESULT_VARIABLE rc OUTPUT_VARIABLE flags
  ERROR_VARIABLE err OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "pkg-config --cflags --libs cadence failed: ${err}")
endif()
separate_arguments(flags UNIX_COMMAND "${flags}")
separate_arguments(cxx_flags UNIX_COMMAND "${cached_CMAKE_CXX_FLAGS} ${cached_CMAKE_EXE_LINKER_FLAGS}")
run_step("build the pkg-config consumer" "${cached_CMAKE_CXX_COMPILER}" ${cxx_flags} "${CONSUMER_DIR}/pkgconfig_main.cpp" ${flags}
  -o "${WORK_DIR}/pkgconfig_consumer")
get_filename_component(libdir "${pc_dir}" DIRECTORY)
set(ENV{LD_LIBRARY_PATH} "${libdir}")
run_step("run the pkg-config consumer" "${WORK_DIR}/pkgconfig_consumer")
message(STATUS "consumer built against ${prefix} and ran (CMake and pkg-config)")
