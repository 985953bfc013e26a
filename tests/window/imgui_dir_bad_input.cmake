# CADENCE_IMGUI_DIR pointing at something that is not a usable ImGui tree, at an ImGui outside
# the supported range, or at one whose imconfig.h takes out what cadence needs, and an imgui.pc
# without the backends or with flags that compile ImGui out: the configure stops with a message
# naming what it found and what to do. And a compiler that sees another imgui.h than the
# configure did stops at the first file, never builds a window that misbehaves.
#   -DSOURCE_DIR=<cadence> -DWORK_DIR=<scratch> -DCXX=<the C++ compiler> -DCC=<the C compiler>
#   -DAR=<ar> -DIMGUI_INCLUDE=<the directory of a real imgui.h, with backends/ under it>
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

# Every file there, but an ImGui older than 1.86, or newer than 1.92.x.
set(old "${WORK_DIR}/old")
foreach(f imgui.cpp imgui_draw.cpp imgui_tables.cpp imgui_widgets.cpp imgui_demo.cpp imconfig.h imgui_internal.h
          imstb_rectpack.h imstb_textedit.h imstb_truetype.h backends/imgui_impl_glfw.cpp
          backends/imgui_impl_opengl3.cpp backends/imgui_impl_glfw.h backends/imgui_impl_opengl3.h)
  file(WRITE "${old}/${f}" "// stand-in\n")
endforeach()
file(COPY "${old}/" DESTINATION "${WORK_DIR}/new")
file(WRITE "${old}/imgui.h" "#define IMGUI_VERSION \"1.85\"\n#define IMGUI_VERSION_NUM 18500\n")
expect_configure_error(old "${old}" "Dear ImGui 1.85 (IMGUI_VERSION_NUM 18500) is outside the range cadence supports, 1.86 to 1.92.x")
file(WRITE "${WORK_DIR}/new/imgui.h" "#define IMGUI_VERSION \"1.93.0\"\n#define IMGUI_VERSION_NUM 19300\n")
expect_configure_error(new "${WORK_DIR}/new" "Dear ImGui 1.93.0 (IMGUI_VERSION_NUM 19300) is outside the range cadence supports")

# The backends missing from an otherwise complete tree.
file(REMOVE_RECURSE "${old}/backends")
expect_configure_error(no_backends "${old}" "missing backends/imgui_impl_glfw.cpp")

# A tree with ImGui's real headers whose imconfig.h compiles ImGui out, or takes out the demo
# window that the demo and tests draw.
set(configured "${WORK_DIR}/configured")
file(COPY "${old}/" DESTINATION "${configured}")
foreach(h imgui.h imgui_internal.h imstb_rectpack.h imstb_textedit.h imstb_truetype.h)
  file(COPY "${IMGUI_INCLUDE}/${h}" DESTINATION "${configured}")
endforeach()
file(COPY "${IMGUI_INCLUDE}/backends/imgui_impl_glfw.h" "${IMGUI_INCLUDE}/backends/imgui_impl_opengl3.h"
     DESTINATION "${configured}/backends")
foreach(f backends/imgui_impl_glfw.cpp backends/imgui_impl_opengl3.cpp)
  file(WRITE "${configured}/${f}" "// stand-in\n")
endforeach()
file(WRITE "${configured}/imconfig.h" "#define IMGUI_DISABLE\n")
expect_configure_error(disabled "${configured}" "Dear ImGui is compiled out there (IMGUI_DISABLE")
file(WRITE "${configured}/imconfig.h" "#define IMGUI_DISABLE_DEMO_WINDOWS\n")
execute_process(COMMAND "${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${WORK_DIR}/build-no-demo"
                        "-DCADENCE_IMGUI_DIR=${configured}" -DCADENCE_BUILD_TESTS=ON -DCADENCE_BUILD_BENCH=OFF
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(REGEX REPLACE "[ \t\r\n]+" " " err "${err}")
string(FIND "${err}" "IMGUI_DISABLE_DEMO_WINDOWS takes out ImGui::ShowDemoWindow" at)
if(rc EQUAL 0 OR at EQUAL -1)
  message(FATAL_ERROR "no demo windows, tests on: the configure must stop and say why (rc ${rc}):\n${err}")
endif()

# An imgui.pc whose library holds no backend (a distribution's ImGui built without them): the
# configure stops naming the backend and the library that needs it.
set(pc "${WORK_DIR}/pkgconfig")
file(MAKE_DIRECTORY "${pc}")
file(WRITE "${pc}/empty.c" "int cadence_stand_in;\n")
execute_process(COMMAND "${CC}" -c "${pc}/empty.c" -o "${pc}/empty.o" RESULT_VARIABLE rc)
execute_process(COMMAND "${AR}" rc "${pc}/libimgui.a" "${pc}/empty.o" RESULT_VARIABLE rc2)
if(NOT rc EQUAL 0 OR NOT rc2 EQUAL 0)
  message(FATAL_ERROR "could not make the stand-in libimgui.a")
endif()

# Configures with only the imgui.pc in `dir` (`what`: what it stands for), which Cflags `cflags`;
# the configure must stop with an error that matches `expected` (a regular expression).
function(expect_pc_error what dir cflags expected)
  file(MAKE_DIRECTORY "${dir}")
  file(WRITE "${dir}/imgui.pc" "Name: imgui\nDescription: ${what} (stand-in)\nVersion: 1.0\n"
                               "Cflags: -I${IMGUI_INCLUDE} ${cflags}\nLibs: -L${pc} -limgui\n")
  string(MAKE_C_IDENTIFIER "${what}" name)
  execute_process(COMMAND "${CMAKE_COMMAND}" -E env "PKG_CONFIG_PATH=${dir}"
                          "${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${WORK_DIR}/build-pc-${name}"
                          -DCADENCE_BUILD_TESTS=OFF -DCADENCE_BUILD_BENCH=OFF -DCADENCE_BUILD_DEMO=OFF
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REGEX REPLACE "[ \t\r\n]+" " " err "${err}")  # CMake wraps long messages
  string(REGEX MATCH "${expected}" said "${err}")
  if(rc EQUAL 0 OR NOT said)
    message(FATAL_ERROR "an imgui.pc of ${what}: the configure must stop saying '${expected}' (rc ${rc}):\n${err}")
  endif()
endfunction()
expect_pc_error("Dear ImGui without backends" "${pc}" ""
                "Dear ImGui from imgui.pc [^)]*\\) has no [A-Za-z0-9 ]+ backend, which cadence::[a-z]+")

# An imgui.pc whose Cflags compile ImGui out (-DIMGUI_DISABLE): its users would get an empty
# ImGui, so the configure stops as it does for an imconfig.h that says so.
expect_pc_error("Dear ImGui compiled out" "${pc}/disabled" -DIMGUI_DISABLE
                "Dear ImGui is compiled out there \\(IMGUI_DISABLE")

# A compiler that sees another imgui.h than the configure did (a stale include path): the first
# file of cadence that includes imgui_features.hpp stops with the range message.
set(stale "${WORK_DIR}/stale")
file(WRITE "${stale}/imgui.h" "#define IMGUI_VERSION \"1.93.0\"\n#define IMGUI_VERSION_NUM 19300\n")
file(WRITE "${stale}/use.cpp" "#include <cadence/imgui_features.hpp>\n")
execute_process(COMMAND "${CXX}" -std=c++20 -fsyntax-only -I "${stale}" -I "${SOURCE_DIR}/pacer/include" "${stale}/use.cpp"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(FIND "${out}${err}" "cadence supports Dear ImGui 1.86 to 1.92.x" at)
if(rc EQUAL 0 OR at EQUAL -1)
  message(FATAL_ERROR "stale: the compile must stop with the range message (rc ${rc}):\n${out}\n${err}")
endif()
message(STATUS "bad CADENCE_IMGUI_DIR values stop the configure with a message naming the directory")
