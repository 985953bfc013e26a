# Warnings for cadence's own targets only; dependencies and consumers keep their own flags.
function(cadence_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion)
  if(CADENCE_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
