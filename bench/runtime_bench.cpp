// The cost of a frame in which nothing is due: run the due timers, apply the frame's changes,
// compute the next wake-up. cadence's WindowRuntime beside a runtime that checks every timer on
// every frame (azul's design), with 100 and 100,000 idle timers. scripts/bench runs this.
#include <benchmark/benchmark.h>

#include <memory>
#include <random>

#include "baselines/azul_runtime.hpp"
#include "cadence/manual_clock.hpp"
#include "cadence/window_runtime.hpp"

namespace cadence::bench {
namespace {

using namespace std::chrono_literals;

// Idle timers: intervals of one to two weeks, so that none comes due (or even starts moving
// down the wheel) during the millions of 16 ms frames a measurement takes.
Duration idle_interval(std::mt19937_64& rng) {
  constexpr std::uint64_t kWeekMs = 7ull * 24 * 3600 * 1000;
  return std::chrono::milliseconds(kWeekMs + rng() % kWeekMs);
}

void FrameOverhead_cadence(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  ManualClock clock;
  WindowRuntime runtime(clock.source());
  std::mt19937_64 rng(1);
  for (std::size_t i = 0; i < n; ++i) {
    const Duration every = idle_interval(rng);
    (void)runtime.add_timer(TimerId::unique(), Timer::every(every, [](TimerCallbackInfo&) {}));
  }
  for (auto _ : state) {
    (void)clock.advance(16ms);
    ChangeSet changes;
    runtime.run_timers(clock.now(), changes);
    benchmark::DoNotOptimize(runtime.apply(std::move(changes)));
    benchmark::DoNotOptimize(runtime.next_wake());
  }
}

void FrameOverhead_azul(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  ManualClock clock;
  AzulStyleRuntime runtime;
  std::mt19937_64 rng(1);
  for (std::size_t i = 0; i < n; ++i) {
    const Duration every = idle_interval(rng);
    runtime.add_timer(i + 0x100, clock.now(), every, every, [] {});
  }
  for (auto _ : state) {
    (void)clock.advance(16ms);
    runtime.run_timers(clock.now());
    benchmark::DoNotOptimize(runtime.next_wake(clock.now()));
  }
}

BENCHMARK(FrameOverhead_cadence)->Arg(100)->Arg(100'000);
BENCHMARK(FrameOverhead_azul)->Arg(100)->Arg(100'000);

}  // namespace
}  // namespace cadence::bench

BENCHMARK_MAIN();
