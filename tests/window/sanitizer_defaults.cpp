// What the sanitizers assume in the window test binaries (read by AddressSanitizer and
// LeakSanitizer at start-up when a build has them; nothing otherwise). Set here rather than in
// the environment, which CTest's test discovery carries one variable at most.
//
// window_test: LeakSanitizer's exit-time check is off. Its stop-the-world tracer crashed
// ("Tracer caught signal 11") after a passing window test in two of three clean-clone CI runs,
// never on its own, with the GL driver's threads still alive. Memory errors are still caught;
// leaks stay checked in every other test binary.
// window_no_opengl3_test (CADENCE_LEAKS_CHECKED): leaks checked, less what SDL 2.26's D-Bus
// session (IME, screen saver) leaves in libdbus when SDL's video stops: third-party, once.
extern "C" {

const char* __asan_default_options();
const char* __lsan_default_suppressions();

#ifdef CADENCE_LEAKS_CHECKED
const char* __asan_default_options() { return "abort_on_error=1"; }
#else
const char* __asan_default_options() { return "detect_leaks=0:abort_on_error=1"; }
#endif

const char* __lsan_default_suppressions() { return "leak:libdbus-1.so\n"; }

}  // extern "C"
