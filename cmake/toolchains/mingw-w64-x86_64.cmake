# Cross-compiles for 64-bit Windows with Debian's MinGW-w64 (g++-mingw-w64-x86-64-posix: the
# POSIX thread model, which std::thread, std::mutex and std::condition_variable need), and runs
# what it builds under Wine (the tests, and the docs' example extractor during the build).
#   cmake --preset windows     (or -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/mingw-w64-x86_64.cmake)
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CADENCE_MINGW_TRIPLE x86_64-w64-mingw32)
set(CMAKE_C_COMPILER ${CADENCE_MINGW_TRIPLE}-gcc-posix)
set(CMAKE_CXX_COMPILER ${CADENCE_MINGW_TRIPLE}-g++-posix)
set(CMAKE_RC_COMPILER ${CADENCE_MINGW_TRIPLE}-windres)
# The MinGW-w64 files, and any roots the command line gives (an install of cadence for Windows).
list(APPEND CMAKE_FIND_ROOT_PATH /usr/${CADENCE_MINGW_TRIPLE})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# A static build's programs carry their C++ and thread runtimes (libstdc++, libgcc, winpthread).
# With DLLs (BUILD_SHARED_LIBS) every module shares MinGW's runtime DLLs instead: two copies of
# winpthread in one process, one in cadence's DLL and one in the program, would each keep their
# own threads and locks. The build copies those DLLs beside its programs (runtime/CMakeLists.txt).
if(NOT BUILD_SHARED_LIBS)
  set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")
endif()
find_program(CADENCE_WINE NAMES wine wine64 REQUIRED)
set(CMAKE_CROSSCOMPILING_EMULATOR ${CADENCE_WINE})
