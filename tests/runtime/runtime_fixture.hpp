// A WindowRuntime on a ManualClock that records every timer run, for the runtime tests.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cadence/manual_clock.hpp"
#include "cadence/window_runtime.hpp"

namespace cadence::testing {

using namespace std::chrono_literals;

inline Instant at_ms(std::int64_t ms) { return Instant::at(ClockKind::tick, std::chrono::milliseconds(ms)); }
inline std::int64_t ms_of(Instant t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(t.since_origin()).count();
}

struct TimerRun {
  std::string name;
  std::int64_t at_ms;
  std::int64_t due_ms;
  std::uint64_t call_count;
  std::uint64_t missed;
  bool last;
};

class RuntimeFixture : public ::testing::TestWithParam<QueueKind> {
 protected:
  static WindowRuntime::Options options() {
    WindowRuntime::Options o;
    o.queue = GetParam();
    o.frame_interval = 16ms;
    return o;
  }

  /// A timer that records each run under `name` and returns `result`.
  Timer logged(std::string name, TimerCallbackReturn result = {}) {
    return Timer([this, name = std::move(name), result](TimerCallbackInfo& info) {
      runs.push_back(TimerRun{name, ms_of(info.frame_start), ms_of(info.due), info.call_count, info.missed_ticks, info.is_about_to_finish});
      return result;
    });
  }
  /// Adds an app timer and requires success.
  void add(TimerId id, Timer timer) { ASSERT_TRUE(runtime.add_timer(id, std::move(timer)).ok()); }
  /// Runs one frame at `ms`.
  ApplyReport frame(std::int64_t ms) {
    EXPECT_TRUE(clock.set(at_ms(ms)).ok());
    last = runtime.poll(clock.now());
    return last;
  }
  /// Runs a frame at every wake-up the runtime asks for, up to `ms` (then moves the clock there).
  void run_until(std::int64_t ms) {
    clock.run_until(at_ms(ms), [&] { return runtime.next_due(); }, [&](Instant now) { last = runtime.poll(now); });
  }
  /// The times at which `name` ran.
  std::vector<std::int64_t> times(const std::string& name) const {
    std::vector<std::int64_t> out;
    for (const TimerRun& r : runs) {
      if (r.name == name) out.push_back(r.at_ms);
    }
    return out;
  }
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const TimerRun& r : runs) out.push_back(r.name);
    return out;
  }

  ManualClock clock;
  WindowRuntime runtime{clock.source(), options()};
  std::vector<TimerRun> runs;
  ApplyReport last;
};

inline std::string queue_name(const ::testing::TestParamInfo<QueueKind>& info) {
  return info.param == QueueKind::wheel ? "wheel" : "heap";
}

}  // namespace cadence::testing
