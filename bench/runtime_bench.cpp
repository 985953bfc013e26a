// The cost of a frame in which nothing is due: run the due timers and threads, apply the frame's
// changes, compute the next wake-up. cadence's WindowRuntime beside a runtime built like azul's
// (every timer checked and every thread ticked and polled, every frame), with 100 and 100,000
// idle timers, without threads and with 100 idle threads. Arguments: timers, threads. And the
// frames in which 100,000 timers 30-40 s ahead move down the wheel (FrameMoving).
// scripts/bench runs this.
#include <benchmark/benchmark.h>

#include <chrono>
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

// Idle threads: workers waiting for a job (and not for Ticks) until they are told to stop.
void start_idle_threads(WindowRuntime& runtime, int count) {
  for (int i = 0; i < count; ++i) {
    (void)runtime.start_thread(ThreadId::unique(), Thread::create(0, 0, [](int, ThreadSender<int>&, ThreadReceiver& in) {
      while (auto m = in.receive_for(std::chrono::hours(1), /*ticks=*/false)) {
        if (m->is_terminate()) return;
      }
    }));
  }
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
  start_idle_threads(runtime, static_cast<int>(state.range(1)));
  for (auto _ : state) {
    (void)clock.advance(16ms);
    ChangeSet changes;
    runtime.run_timers(clock.now(), changes);
    benchmark::DoNotOptimize(runtime.apply(std::move(changes)));
    benchmark::DoNotOptimize(runtime.next_wake());
  }
}

// azul's threads: every frame sends each thread a Tick and polls its channel (one message each).
void FrameOverhead_azul(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  ManualClock clock;
  AzulStyleRuntime runtime;
  std::mt19937_64 rng(1);
  for (std::size_t i = 0; i < n; ++i) {
    const Duration every = idle_interval(rng);
    runtime.add_timer(i + 0x100, clock.now(), every, every, [] {});
  }
  for (int i = 0; i < state.range(1); ++i) runtime.add_idle_thread();
  for (auto _ : state) {
    (void)clock.advance(16ms);
    runtime.run_timers(clock.now());
    runtime.run_threads();
    benchmark::DoNotOptimize(runtime.next_wake(clock.now()));
  }
}

// Frames of 16 ms in which nothing is due while n timers, due 30 to 40 s ahead, move down the
// wheel: 600 frames (9.6 s) per iteration, each run_timers(), apply() and next_wake(); the time
// reported is the 600 frames' (mean_frame_ns: per frame). next_wake() stays exact throughout,
// which is what costs here. Setting up 100,000 timers is not timed, and bounds the iterations.
void FrameMoving_cadence(benchmark::State& state) {
  constexpr int kFrames = 600;
  const auto n = static_cast<std::size_t>(state.range(0));
  double all_s = 0;
  for (auto _ : state) {
    ManualClock clock;
    WindowRuntime runtime(clock.source());
    std::mt19937_64 rng(1);
    for (std::size_t i = 0; i < n; ++i) {
      const Duration delay = std::chrono::milliseconds(30'000 + rng() % 10'000);
      (void)runtime.add_timer(TimerId::unique(), Timer::once(delay, [](TimerCallbackInfo&) {}));
    }
    const auto t0 = std::chrono::steady_clock::now();
    for (int frame = 0; frame < kFrames; ++frame) {
      (void)clock.advance(16ms);
      ChangeSet changes;
      runtime.run_timers(clock.now(), changes);
      benchmark::DoNotOptimize(runtime.apply(std::move(changes)));
      benchmark::DoNotOptimize(runtime.next_wake());
    }
    const std::chrono::duration<double> spent = std::chrono::steady_clock::now() - t0;
    state.SetIterationTime(spent.count());
    all_s += spent.count();
  }
  state.counters["mean_frame_ns"] = all_s * 1e9 / (kFrames * static_cast<double>(state.iterations()));
}

BENCHMARK(FrameMoving_cadence)->Arg(100'000)->UseManualTime()->Unit(benchmark::kMicrosecond)->Iterations(10);
BENCHMARK(FrameOverhead_cadence)->Args({100, 0})->Args({100'000, 0})->Args({100, 100})->Args({100'000, 100});
BENCHMARK(FrameOverhead_azul)->Args({100, 0})->Args({100'000, 0})->Args({100, 100})->Args({100'000, 100});

}  // namespace
}  // namespace cadence::bench

BENCHMARK_MAIN();
