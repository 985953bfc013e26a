// LeakSanitizer looks for leaks when the process exits. By then Mesa has unloaded its DRI driver,
// and the driver's process-lifetime allocations, whose only pointers lived in the unloaded
// library, look leaked. Keeping the driver loaded (RTLD_NODELETE) keeps those pointers, so
// LeakSanitizer finds them reachable and needs no suppressions; cadence's own leaks are still
// reported. Linked into the window tests only.
#include <dlfcn.h>

#include <initializer_list>

namespace {

struct KeepGlDriver {
  KeepGlDriver() {
    for (const char* path : {"/usr/lib/x86_64-linux-gnu/dri/swrast_dri.so", "/usr/lib/x86_64-linux-gnu/dri/kms_swrast_dri.so"}) {
      (void)dlopen(path, RTLD_LAZY | RTLD_NODELETE);
    }
  }
} keep_gl_driver;

}  // namespace
