# Runs the demo with no display: it must exit with code 1 and say why (and what to do).
execute_process(COMMAND "${CMAKE_COMMAND}" -E env --unset=DISPLAY --unset=WAYLAND_DISPLAY "${DEMO}" --headless-for 4
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "expected exit code 1 without a display, got '${rc}'\nstdout: ${out}\nstderr: ${err}")
endif()
if(NOT err MATCHES "GLFW could not start" OR NOT err MATCHES "xvfb-run")
  message(FATAL_ERROR "the message does not say what failed and what to do:\n${err}")
endif()
message(STATUS "demo without a display: exit 1, \"${err}\"")
