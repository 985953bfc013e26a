# Configures cadence as on a machine with only a compiler and CMake: GoogleTest, Google
# Benchmark, GLFW, SDL2 and every pkg-config module hidden. The configure must succeed, keep
# cadence::runtime, and say in one line per part what it left out and which package brings it.
file(REMOVE_RECURSE "${WORK_DIR}")
set(ENV{PKG_CONFIG_LIBDIR} "${WORK_DIR}/no-pkgconfig")
execute_process(
  COMMAND "${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${WORK_DIR}" "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}"
          -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON
          -DCMAKE_DISABLE_FIND_PACKAGE_glfw3=ON -DCMAKE_DISABLE_FIND_PACKAGE_SDL2=ON
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "a bare configure failed (${rc}):\n${out}\n${err}")
endif()
foreach(line IN ITEMS
    "without cadence::pacer, cadence::window and cadence::sdl: Dear ImGui not found (apt-get install libimgui-dev"
    "without the tests: GoogleTest not found (apt-get install libgtest-dev)"
    "without the benchmarks: Google Benchmark and libuv not found (apt-get install libbenchmark-dev libuv1-dev")
  string(FIND "${out}" "${line}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "a bare configure did not say \"${line}\":\n${out}")
  endif()
endforeach()
if(NOT EXISTS "${WORK_DIR}/runtime/Makefile" AND NOT EXISTS "${WORK_DIR}/build.ninja")
  message(FATAL_ERROR "a bare configure generated no build for cadence::runtime")
endif()
file(REMOVE_RECURSE "${WORK_DIR}")
