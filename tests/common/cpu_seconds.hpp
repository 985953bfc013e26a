// The CPU time this process has spent, user + system, its threads included (the GL driver's,
// SDL's): what the real-time tests divide by their length to say how much of a core they cost.
#pragma once

#include <sys/resource.h>

namespace cadence::test {

inline double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

}  // namespace cadence::test
