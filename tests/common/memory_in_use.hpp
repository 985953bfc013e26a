// What a leak check per wake-up measures, in KiB: the bytes the allocator holds for live blocks
// under AddressSanitizer (whose quarantine keeps freed blocks, so resident memory grows there
// without a leak), else this process's resident memory (Linux: /proc/self/statm). 0 if it
// cannot be read: the tests assert each reading is not.
#pragma once

#include <unistd.h>

#include <cstddef>
#include <cstdio>

#if defined(__SANITIZE_ADDRESS__)
#define CADENCE_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CADENCE_TEST_ASAN 1
#endif
#endif

#if defined(CADENCE_TEST_ASAN)
extern "C" std::size_t __sanitizer_get_current_allocated_bytes();  // sanitizer/allocator_interface.h
#endif

namespace cadence::test {

inline long memory_in_use_kib() {
#if defined(CADENCE_TEST_ASAN)
  return static_cast<long>(__sanitizer_get_current_allocated_bytes() / 1024);
#else
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr) return 0;
  long pages = 0, resident = 0;
  const int read = std::fscanf(f, "%ld %ld", &pages, &resident);
  std::fclose(f);
  return read == 2 ? resident * (::sysconf(_SC_PAGESIZE) / 1024) : 0;
#endif
}

/// What memory_in_use_kib() measures, for a test's message.
inline const char* memory_in_use_name() {
#if defined(CADENCE_TEST_ASAN)
  return "memory allocated";
#else
  return "resident memory";
#endif
}

}  // namespace cadence::test
