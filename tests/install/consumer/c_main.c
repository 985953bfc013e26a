/* A C program outside the cadence tree, against the installed C API alone: the library's version
   is the one the package says (CADENCE_EXPECTED_MAJOR and _MINOR come from its CMake version or
   its .pc file), and a runtime is created and destroyed. */
#include <cadence/cadence.h>

#include <stdint.h>
#include <stdio.h>

int main(void) {
  const uint32_t version = cadence_version();
  const unsigned major = (unsigned)(version >> 16), minor = (unsigned)((version >> 8) & 0xffu),
                 patch = (unsigned)(version & 0xffu);
  if (major != CADENCE_EXPECTED_MAJOR || minor != CADENCE_EXPECTED_MINOR) {
    fprintf(stderr, "C consumer: cadence_version() is %u.%u.%u, the package says %u.%u\n", major, minor, patch,
            (unsigned)CADENCE_EXPECTED_MAJOR, (unsigned)CADENCE_EXPECTED_MINOR);
    return 1;
  }
  cadence_runtime* runtime = NULL;
  int status = cadence_runtime_create(NULL, &runtime);
  if (status != 0) {
    fprintf(stderr, "C consumer: cadence_runtime_create: %s\n", cadence_status_name(status));
    return 1;
  }
  status = cadence_runtime_destroy(runtime);
  if (status != 0) {
    fprintf(stderr, "C consumer: cadence_runtime_destroy: %s\n", cadence_status_name(status));
    return 1;
  }
  printf("C consumer: ok (cadence %u.%u.%u)\n", major, minor, patch);
  return 0;
}
