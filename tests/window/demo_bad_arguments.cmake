# Runs the demo with arguments it must refuse: exit code 2 and a message that names the value.
foreach(case "--headless-for;abc;abc" "--headless-for;nan;nan" "--headless-for;-3;-3"
             "--headless-for;10;--idle-for;0.5;--idle-for 0.5" "--headless-for;3;--idle-for;5;--idle-for 5"
             "--frobnicate;--frobnicate" "--backend;qt;--backend qt")
  list(POP_BACK case expected)
  execute_process(COMMAND "${CMAKE_COMMAND}" -E env --unset=DISPLAY --unset=WAYLAND_DISPLAY "${DEMO}" ${case}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
  if(NOT rc EQUAL 2)
    message(FATAL_ERROR "cadence-demo ${case}: expected exit code 2, got '${rc}'\nstderr: ${err}")
  endif()
  string(FIND "${err}" "${expected}" at)
  if(at EQUAL -1 OR NOT err MATCHES "usage:")
    message(FATAL_ERROR "cadence-demo ${case}: the message does not name '${expected}' and show the usage:\n${err}")
  endif()
endforeach()
message(STATUS "cadence-demo refuses bad arguments with exit code 2 and a message naming the value")
