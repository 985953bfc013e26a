# CADENCE_IMGUI_DIR pointing at something that is not a usable ImGui tree: the configure stops
# with a message naming the directory and what is wrong. And an ImGui whose internals cadence
# was not tested with (here: the real 1.92.9b tree relabelled 1.90) fails the build with the
# version message, never builds into a window that misbehaves.
#   -DSOURCE_DIR=<cadence> -DWORK_DIR=<scratch> [-DIMGUI_TREE=<a real 1.92 tree>]
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

function(expect_configure_error what dir expected)
  execute_process(COMMAND "${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${WORK_DIR}/build-${what}"
                          "-DCADENCE_IMGUI_DIR=${dir}" -DCADENCE_BUILD_TESTS=OFF -DCADENCE_BUILD_BENCH=OFF
                          -DCADENCE_BUILD_DEMO=OFF
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc EQUAL 0)
    message(FATAL_ERROR "${what}: configuring with CADENCE_IMGUI_DIR=${dir} succeeded; it must fail")
  endif()
  string(REGEX REPLACE "[ \t\r\n]+" " " err "${err}")  # CMake wraps long messages
  string(FIND "${err}" "${expected}" at)
  string(FIND "${err}" "${dir}" named)
  if(at EQUAL -1 OR named EQUAL -1)
    message(FATAL_ERROR "${what}: the error does not name '${dir}' and say '${expected}':\n${err}")
  endif()
endfunction()

# Not there at all.
expect_configure_error(missing "${WORK_DIR}/no-such-tree" "is not a directory")

# A directory, but no ImGui in it.
file(MAKE_DIRECTORY "${WORK_DIR}/empty")
expect_configure_error(empty "${WORK_DIR}/empty" "missing imgui.cpp, imgui_draw.cpp")

# Every file there, but an ImGui older than 1.86.
set(old "${WORK_DIR}/old")
foreach(f imgui.cpp imgui_draw.cpp imgui_tables.cpp imgui_widgets.cpp imgui_demo.cpp imconfig.h imgui_internal.h
          imstb_rectpack.h imstb_textedit.h imstb_truetype.h backends/imgui_impl_glfw.cpp
          backends/imgui_impl_opengl3.cpp backends/imgui_impl_glfw.h backends/imgui_impl_opengl3.h)
  file(WRITE "${old}/${f}" "// stand-in\n")
endforeach()
file(WRITE "${old}/imgui.h" "#define IMGUI_VERSION \"1.85\"\n#define IMGUI_VERSION_NUM 18500\n")
expect_configure_error(old "${old}" "ImGui 1.85 (18500) is older than 1.86")

# The backends missing from an otherwise complete tree.
file(REMOVE_RECURSE "${old}/backends")
expect_configure_error(no_backends "${old}" "missing backends/imgui_impl_glfw.cpp")

# A real tree whose version cadence has not read the internals of: the build stops at the first
# file that reads them, with the version message.
if(IMGUI_TREE AND EXISTS "${IMGUI_TREE}/imgui.h")
  set(relabelled "${WORK_DIR}/imgui-1.90")
  file(COPY "${IMGUI_TREE}/" DESTINATION "${relabelled}")
  file(READ "${relabelled}/imgui.h" header)
  string(REGEX REPLACE "#define IMGUI_VERSION_NUM[ \t]+[0-9]+" "#define IMGUI_VERSION_NUM   19000" header "${header}")
  string(REGEX REPLACE "#define IMGUI_VERSION[ \t]+\"[^\"]*\"" "#define IMGUI_VERSION       \"1.90\"" header "${header}")
  file(WRITE "${relabelled}/imgui.h" "${header}")
  set(build "${WORK_DIR}/build-relabelled")
  execute_process(COMMAND "${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${build}" "-DCADENCE_IMGUI_DIR=${relabelled}"
                          -DCADENCE_BUILD_TESTS=OFF -DCADENCE_BUILD_BENCH=OFF -DCADENCE_BUILD_DEMO=OFF
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "relabelled: configure failed, but 1.90 is >= 1.86 and must configure:\n${err}")
  endif()
  # One file that reads ImGui's internals is enough (the library itself need not be built).
  execute_process(COMMAND "${CMAKE_COMMAND}" --build "${build}/window" --target src/caret_blink.cpp.o
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(FIND "${out}${err}" "supports Dear ImGui 1.86 and 1.92.x" at)
  if(rc EQUAL 0 OR at EQUAL -1)
    message(FATAL_ERROR "relabelled: the build must stop with the version message (rc ${rc}):\n${out}\n${err}")
  endif()
  message(STATUS "an untested ImGui fails the build with the version message")
endif()
message(STATUS "bad CADENCE_IMGUI_DIR values stop the configure with a message naming the directory")
