// The windows an own-loop pacer (SdlPacing, Sdl3Pacing) paces now, and the soonest of their
// wake-ups: SDL's wait is for every window's events at once, so a loop that paces several (each
// with its ImGui context) sleeps for the soonest of them in any of their wait()s.
#pragma once

#include <algorithm>
#include <optional>
#include <vector>

namespace cadence::detail {

/// The `Paced` alive (each has a `pacer` with next_wake()), on the thread that pumps SDL's
/// events, the only one they run on.
template <class Paced>
class PacedWindows {
 public:
  static void add(Paced* p) { all().push_back(p); }
  static void remove(Paced* p) { std::erase(all(), p); }
  /// The soonest next_wake() of them all; nullopt when none has anything scheduled.
  template <class Duration>
  static std::optional<Duration> soonest_wake() {
    std::optional<Duration> soonest;
    for (Paced* p : all()) {
      const std::optional<Duration> wake = p->pacer->next_wake();
      if (wake && (!soonest || *wake < *soonest)) soonest = wake;
    }
    return soonest;
  }

 private:
  static std::vector<Paced*>& all() {
    static std::vector<Paced*> paced;
    return paced;
  }
};

}  // namespace cadence::detail
