# docs/c_api.md shows the C example whole: its ```c block must be demo/c/hello.c exactly.
# Usage: cmake -DDOC=<docs/c_api.md> -DSOURCE=<demo/c/hello.c> -P c_api_example.cmake
file(READ "${DOC}" doc)
file(READ "${SOURCE}" source)
string(FIND "${doc}" "\n```c\n${source}```\n" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${DOC}: its ```c block is not ${SOURCE} as it is now; paste the file again")
endif()
