// Compiled (syntax only) by the header_hygiene test: an app file that includes the runtime's
// thread and window-runtime headers does not get <mutex>, <condition_variable> or <deque> with
// them (the blocking half of a worker's core is out of line). Checked with libstdc++'s include
// guards; with another standard library the file only has to compile.
#include <cadence/thread.hpp>
#include <cadence/window_runtime.hpp>

#if defined(__GLIBCXX__)
#if defined(_GLIBCXX_MUTEX)
#error "<cadence/thread.hpp> or <cadence/window_runtime.hpp> pulled in <mutex>"
#endif
#if defined(_GLIBCXX_CONDITION_VARIABLE)
#error "<cadence/thread.hpp> or <cadence/window_runtime.hpp> pulled in <condition_variable>"
#endif
#if defined(_GLIBCXX_DEQUE)
#error "<cadence/thread.hpp> or <cadence/window_runtime.hpp> pulled in <deque>"
#endif
#endif

int main() { return 0; }
