// This process's resident memory in KiB (Linux: /proc/self/statm), for the tests that look for a
// leak per wake-up. 0 if it cannot be read, which those tests fail on.
#pragma once

#include <unistd.h>

#include <cstdio>

namespace cadence::test {

inline long resident_kib() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr) return 0;
  long pages = 0, resident = 0;
  const int read = std::fscanf(f, "%ld %ld", &pages, &resident);
  std::fclose(f);
  return read == 2 ? resident * (::sysconf(_SC_PAGESIZE) / 1024) : 0;
}

}  // namespace cadence::test
