// cadence/time_source.hpp: where a runtime reads the time.
//
// A runtime takes a TimeSource at construction and never reads a clock any other way. A source
// has one clock kind, fixed when it is made, and stamps every Instant it returns with that kind,
// so instants from one source can always be compared with each other.
//
//     #include <cadence/manual_clock.hpp>
//     using namespace cadence;
//     using namespace std::chrono_literals;
//     std::uint64_t hw_tick_counter(int board);                // a board's millisecond counter
//     TimeSource real = TimeSource::system();                 // steady_clock
//     ManualClock clock;                                       // tests: time moves when told
//     TimeSource fake = clock.source();
//     TimeSource board = TimeSource::ticks(1ms, [] { return hw_tick_counter(0); });
//
// For every member of TimeSource: Thread: any, as its callback allows (copy and read it there).
// Where: anywhere but its callback, which runs in each now() of its runtime: it must not call that runtime.
// Errors: none.
// Cost: O(1); now() is one indirect call; making a source may allocate its callback.
#pragma once

#include <cstdint>
#include <functional>
#include <utility>

#include "cadence/export.hpp"
#include "cadence/time.hpp"

namespace cadence {

class CADENCE_RUNTIME_API TimeSource {
 public:
  /// Reads std::chrono::steady_clock. Instants have ClockKind::system.
  static TimeSource system();

  /// Reads a tick counter that advances by one every `tick_length` (for example a hardware
  /// counter on a target without a monotonic clock). Instants have ClockKind::tick and lie
  /// `count * tick_length` after the counter's origin, saturating.
  /// Errors: none; a tick_length <= 0 is a contract violation, treated as 1 ns.
  static TimeSource ticks(Duration tick_length, std::function<std::uint64_t()> read_count);

  /// Reads `since_origin()` and stamps it with `kind`. The callback must be monotonic; a runtime
  /// that sees time go backwards clamps it and reports the step.
  static TimeSource custom(ClockKind kind, std::function<Duration()> since_origin);

  ClockKind kind() const noexcept { return kind_; }

  /// The current time on this source's timeline.
  Instant now() const { return Instant::at(kind_, read_()); }

 private:
  TimeSource(ClockKind kind, std::function<Duration()> read) : read_(std::move(read)), kind_(kind) {}

  std::function<Duration()> read_;
  ClockKind kind_;
};

}  // namespace cadence
