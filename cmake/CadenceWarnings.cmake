# Warnings for cadence's own targets only; dependencies and consumers keep their own flags.
# Chosen by compiler: GCC and Clang take the same set, MSVC its own (/W4). CADENCE_WERROR makes
# them errors (every preset sets it).
function(cadence_warnings target)
  target_compile_options(${target} PRIVATE
    "$<$<CXX_COMPILER_ID:GNU,Clang,AppleClang>:-Wall;-Wextra;-Wpedantic;-Wshadow;-Wconversion>"
    "$<$<CXX_COMPILER_ID:MSVC>:/W4;/permissive->")
  if(CADENCE_WERROR)
    target_compile_options(${target} PRIVATE "$<IF:$<CXX_COMPILER_ID:MSVC>,/WX,-Werror>")
  endif()
endfunction()
