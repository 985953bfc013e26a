// Timer queues side by side: cadence's TimerWheel and HeapTimerQueue against what an app would
// otherwise use (a lazy-deletion binary heap, std::multimap, a vector scanned every frame,
// libuv). Workloads follow docs/benchmarks.md: delays uniform in [1 ms, 10 s] from fixed seeds,
// N = 1e3, 1e5, 1e6, every structure warmed by one untimed schedule/cancel round first.
// scripts/bench runs this with repetitions, interleaved, and prints the ratio tables.
#include <benchmark/benchmark.h>
#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <random>
#include <utility>
#include <vector>

#include "baselines/compact_heap_queue.hpp"
#include "baselines/lazy_heap_queue.hpp"
#include "baselines/libuv_queue.hpp"
#include "baselines/multimap_queue.hpp"
#include "baselines/vector_scan_queue.hpp"
#include "cadence/heap_timer_queue.hpp"
#include "cadence/timer_wheel.hpp"

namespace cadence::bench {
namespace {

constexpr std::int64_t kMaxDelayMs = 10'000;
constexpr std::int64_t kFrameMs = 16;

std::vector<std::int64_t> delays(std::size_t n, std::uint64_t seed, std::int64_t lo = 1, std::int64_t hi = kMaxDelayMs) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::int64_t> dist(lo, hi);
  std::vector<std::int64_t> out(n);
  for (auto& d : out) d = dist(rng);
  return out;
}

template <class Q>
std::unique_ptr<Q> make_queue(std::size_t n) {
  if constexpr (std::is_same_v<Q, LibuvQueue>) {
    return std::make_unique<Q>(n + 1);
  } else {
    return std::make_unique<Q>();
  }
}

// Schedules n timers and cancels them all, so free lists and allocations look like those of an
// app that has been running a while; then schedules n timers for real and returns their ids.
template <class Q>
std::vector<QueueId> warm_and_fill(Q& q, const std::vector<std::int64_t>& d) {
  std::vector<QueueId> ids(d.size());
  for (std::size_t i = 0; i < d.size(); ++i) ids[i] = q.schedule(Ticks{d[i]}, i);
  for (QueueId id : ids) q.cancel(id);
  for (std::size_t i = 0; i < d.size(); ++i) ids[i] = q.schedule(Ticks{d[i]}, i);
  return ids;
}

// One schedule and one cancel with n timers pending: cancel a random pending timer, schedule a
// new one in its place.
template <class Q>
void Pair(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  auto q = make_queue<Q>(n);
  std::vector<QueueId> ids = warm_and_fill(*q, delays(n, 1));
  constexpr std::size_t kRing = 1 << 16;
  const std::vector<std::int64_t> d = delays(kRing, 2);
  std::vector<std::uint32_t> victim(kRing);
  std::mt19937_64 rng(3);
  for (auto& v : victim) v = static_cast<std::uint32_t>(rng() % n);
  std::size_t k = 0;
  for (auto _ : state) {
    const std::uint32_t i = victim[k];
    q->cancel(ids[i]);
    ids[i] = q->schedule(Ticks{d[k]}, k);
    k = (k + 1) & (kRing - 1);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}

// One schedule and one cancel of that same timer with n others pending: the timeout that is
// set up for a request and cancelled when the answer comes.
template <class Q>
void PairSame(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  auto q = make_queue<Q>(n);
  warm_and_fill(*q, delays(n, 1));
  constexpr std::size_t kRing = 1 << 16;
  const std::vector<std::int64_t> d = delays(kRing, 2);
  std::size_t k = 0;
  for (auto _ : state) {
    q->cancel(q->schedule(Ticks{d[k]}, k));
    k = (k + 1) & (kRing - 1);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}

// A reactor's connection timeouts set up and torn down in bulk: schedule n timers, then cancel
// all n in a random order, after one such untimed round. Each half is timed on its own;
// ns_per_pair is the whole round over n, schedule_ns and cancel_ns the halves over n.
template <class Q>
void Batch(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  auto q = make_queue<Q>(n);
  const std::vector<std::int64_t> d = delays(n, 8);
  std::vector<std::uint32_t> order(n);
  for (std::uint32_t i = 0; i < n; ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), std::mt19937_64(9));
  std::vector<QueueId> ids(n);
  double schedule_ns = 0, cancel_ns = 0;
  const auto round = [&] {
    const auto t0 = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < n; ++i) ids[i] = q->schedule(Ticks{d[i]}, i);
    const auto t1 = std::chrono::steady_clock::now();
    for (const std::uint32_t i : order) q->cancel(ids[i]);
    const auto t2 = std::chrono::steady_clock::now();
    return std::pair{std::chrono::duration<double, std::nano>(t1 - t0).count(),
                     std::chrono::duration<double, std::nano>(t2 - t1).count()};
  };
  (void)round();
  for (auto _ : state) {
    const auto [s, c] = round();
    state.SetIterationTime((s + c) * 1e-9);
    schedule_ns += s;
    cancel_ns += c;
  }
  const double pairs = static_cast<double>(n) * static_cast<double>(state.iterations());
  state.counters["ns_per_pair"] = (schedule_ns + cancel_ns) / pairs;
  state.counters["schedule_ns"] = schedule_ns / pairs;
  state.counters["cancel_ns"] = cancel_ns / pairs;
}

// n timers with the firing workload's delays, warmed, ready to fire.
template <class Q>
std::unique_ptr<Q> filled_for_firing(std::size_t n) {
  static const std::vector<std::int64_t> d = delays(1'000'000, 4);
  auto q = make_queue<Q>(n);
  warm_and_fill(*q, std::vector<std::int64_t>(d.begin(), d.begin() + static_cast<std::ptrdiff_t>(n)));
  return q;
}

// n timers, then 16 ms frames until all have fired. Time counts only the frames (one clock read
// before and after all of them); ns_per_timer is that time over n.
template <class Q>
void Fire(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  double all_ns = 0;
  std::vector<Token> fired;
  fired.reserve(n);
  for (auto _ : state) {
    auto q = filled_for_firing<Q>(n);
    fired.clear();
    const auto t0 = std::chrono::steady_clock::now();
    for (std::int64_t now = kFrameMs; fired.size() < n; now += kFrameMs) q->advance(Ticks{now}, fired);
    const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
    state.SetIterationTime(ns * 1e-9);
    all_ns += ns;
  }
  state.counters["ns_per_timer"] = all_ns / (static_cast<double>(n) * static_cast<double>(state.iterations()));
}

// The same frames, each timed on its own: the worst single frame, in microseconds.
template <class Q>
void FireWorstFrame(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  double worst_ns = 0;
  std::vector<Token> fired;
  fired.reserve(n);
  for (auto _ : state) {
    auto q = filled_for_firing<Q>(n);
    fired.clear();
    double iteration_worst = 0;
    for (std::int64_t now = kFrameMs; fired.size() < n; now += kFrameMs) {
      const auto t0 = std::chrono::steady_clock::now();
      q->advance(Ticks{now}, fired);
      const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
      iteration_worst = std::max(iteration_worst, ns);
    }
    state.SetIterationTime(iteration_worst * 1e-9);
    worst_ns = std::max(worst_ns, iteration_worst);
  }
  state.counters["worst_frame_us"] = worst_ns / 1e3;
}

// A frame in which time has not moved and nothing is due: advance to the same time, ask when
// to wake up next. This is the cost an event loop pays on every input event.
template <class Q>
void IdleFrame(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  auto q = make_queue<Q>(n);
  warm_and_fill(*q, delays(n, 5, 1000, kMaxDelayMs));
  std::vector<Token> fired;
  q->advance(Ticks{500}, fired);
  for (auto _ : state) {
    q->advance(Ticks{500}, fired);
    benchmark::DoNotOptimize(q->next_fire());
  }
}

// Frames of 16 ms in which nothing is due: n timers all due in [lo, hi] ms, 600 frames (9.6 s)
// from time 0, each an advance() and a next_fire(). Each iteration runs the frames twice on two
// identical queues: once timed as a whole (the mean frame, free of clock-reading cost) and once
// frame by frame (the worst frame).
template <class Q>
void IdleMoving(benchmark::State& state, std::int64_t lo_ms, std::int64_t hi_ms) {
  constexpr std::int64_t kFrames = 600;
  const auto n = static_cast<std::size_t>(state.range(0));
  const std::vector<std::int64_t> d = delays(n, 6, lo_ms, hi_ms);
  double worst_ns = 0;
  double all_ns = 0;
  std::vector<Token> fired;
  for (auto _ : state) {
    auto whole = make_queue<Q>(n);
    warm_and_fill(*whole, d);
    const auto t0 = std::chrono::steady_clock::now();
    for (std::int64_t frame = 1; frame <= kFrames; ++frame) {
      whole->advance(Ticks{frame * kFrameMs}, fired);
      benchmark::DoNotOptimize(whole->next_fire());
    }
    const double total_ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
    whole.reset();
    auto framed = make_queue<Q>(n);
    warm_and_fill(*framed, d);
    for (std::int64_t frame = 1; frame <= kFrames; ++frame) {
      const auto f0 = std::chrono::steady_clock::now();
      framed->advance(Ticks{frame * kFrameMs}, fired);
      benchmark::DoNotOptimize(framed->next_fire());
      worst_ns = std::max(worst_ns, std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - f0).count());
    }
    if (!fired.empty()) state.SkipWithError("a timer fired in a frame that should have had nothing due");
    state.SetIterationTime(total_ns * 1e-9);  // reported time: all 600 frames
    all_ns += total_ns;
  }
  state.counters["mean_frame_ns"] = all_ns / (static_cast<double>(kFrames) * static_cast<double>(state.iterations()));
  state.counters["worst_frame_us"] = worst_ns / 1e3;
}

template <class Q>
void IdleMovingNear(benchmark::State& state) {
  IdleMoving<Q>(state, 10'000, 16'000);  // due after the 9.6 s measured: within one level of the wheel
}
template <class Q>
void IdleMovingFar(benchmark::State& state) {
  IdleMoving<Q>(state, 60'000, 600'000);  // minutes ahead: coarse levels, none draining yet
}
template <class Q>
void IdleMovingDraining(benchmark::State& state) {
  IdleMoving<Q>(state, 20'000, 40'000);  // a coarse slot of the wheel moves down meanwhile
}

// Heap bytes per pending timer, measured by the allocator (mallinfo2) before and after.
template <class Q>
void Memory(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const std::vector<std::int64_t> d = delays(n, 7);
  for (auto _ : state) {
    malloc_trim(0);
    const auto before = mallinfo2();
    auto q = make_queue<Q>(n);
    for (std::size_t i = 0; i < n; ++i) q->schedule(Ticks{d[i]}, i);
    const auto after = mallinfo2();
    const double bytes = static_cast<double>((after.uordblks + after.hblkhd) - (before.uordblks + before.hblkhd));
    state.counters["bytes_per_timer"] = bytes / static_cast<double>(n);
  }
}

#define CADENCE_QUEUE_BENCH(fn, Q, ...) BENCHMARK_TEMPLATE(fn, Q)->Arg(1'000)->Arg(100'000)->Arg(1'000'000) __VA_ARGS__

CADENCE_QUEUE_BENCH(Pair, TimerWheel);
CADENCE_QUEUE_BENCH(Pair, HeapTimerQueue);
CADENCE_QUEUE_BENCH(Pair, LazyHeapQueue);
CADENCE_QUEUE_BENCH(Pair, MultimapQueue);
CADENCE_QUEUE_BENCH(Pair, VectorScanQueue);
CADENCE_QUEUE_BENCH(Pair, LibuvQueue);

CADENCE_QUEUE_BENCH(Pair, CompactHeapQueue);

CADENCE_QUEUE_BENCH(Batch, TimerWheel, ->UseManualTime());
CADENCE_QUEUE_BENCH(Batch, HeapTimerQueue, ->UseManualTime());
CADENCE_QUEUE_BENCH(Batch, CompactHeapQueue, ->UseManualTime());
CADENCE_QUEUE_BENCH(Batch, LazyHeapQueue, ->UseManualTime());
CADENCE_QUEUE_BENCH(Batch, LibuvQueue, ->UseManualTime());

CADENCE_QUEUE_BENCH(PairSame, TimerWheel);
CADENCE_QUEUE_BENCH(PairSame, HeapTimerQueue);
CADENCE_QUEUE_BENCH(PairSame, LazyHeapQueue);
CADENCE_QUEUE_BENCH(PairSame, MultimapQueue);
CADENCE_QUEUE_BENCH(PairSame, VectorScanQueue);
CADENCE_QUEUE_BENCH(PairSame, LibuvQueue);
CADENCE_QUEUE_BENCH(PairSame, CompactHeapQueue);

CADENCE_QUEUE_BENCH(Fire, TimerWheel, ->UseManualTime()->Unit(benchmark::kMillisecond));
CADENCE_QUEUE_BENCH(Fire, HeapTimerQueue, ->UseManualTime()->Unit(benchmark::kMillisecond));
CADENCE_QUEUE_BENCH(Fire, LazyHeapQueue, ->UseManualTime()->Unit(benchmark::kMillisecond));
CADENCE_QUEUE_BENCH(Fire, MultimapQueue, ->UseManualTime()->Unit(benchmark::kMillisecond));
CADENCE_QUEUE_BENCH(Fire, CompactHeapQueue, ->UseManualTime()->Unit(benchmark::kMillisecond));
BENCHMARK_TEMPLATE(Fire, VectorScanQueue)->Arg(1'000)->Arg(100'000)->UseManualTime()->Unit(benchmark::kMillisecond);

BENCHMARK_TEMPLATE(FireWorstFrame, TimerWheel)->Arg(1'000'000)->UseManualTime()->Unit(benchmark::kMicrosecond)->Iterations(3);
BENCHMARK_TEMPLATE(FireWorstFrame, LazyHeapQueue)->Arg(1'000'000)->UseManualTime()->Unit(benchmark::kMicrosecond)->Iterations(3);
BENCHMARK_TEMPLATE(FireWorstFrame, HeapTimerQueue)->Arg(1'000'000)->UseManualTime()->Unit(benchmark::kMicrosecond)->Iterations(3);
BENCHMARK_TEMPLATE(FireWorstFrame, CompactHeapQueue)->Arg(1'000'000)->UseManualTime()->Unit(benchmark::kMicrosecond)->Iterations(3);

CADENCE_QUEUE_BENCH(IdleFrame, TimerWheel);
CADENCE_QUEUE_BENCH(IdleFrame, HeapTimerQueue);
CADENCE_QUEUE_BENCH(IdleFrame, LazyHeapQueue);
CADENCE_QUEUE_BENCH(IdleFrame, MultimapQueue);
CADENCE_QUEUE_BENCH(IdleFrame, VectorScanQueue);
CADENCE_QUEUE_BENCH(IdleFrame, CompactHeapQueue);

CADENCE_QUEUE_BENCH(IdleMovingNear, TimerWheel, ->UseManualTime()->Iterations(3));
CADENCE_QUEUE_BENCH(IdleMovingNear, LazyHeapQueue, ->UseManualTime()->Iterations(3));
CADENCE_QUEUE_BENCH(IdleMovingFar, TimerWheel, ->UseManualTime()->Iterations(3));
CADENCE_QUEUE_BENCH(IdleMovingFar, LazyHeapQueue, ->UseManualTime()->Iterations(3));
CADENCE_QUEUE_BENCH(IdleMovingDraining, TimerWheel, ->UseManualTime()->Iterations(3));
CADENCE_QUEUE_BENCH(IdleMovingDraining, LazyHeapQueue, ->UseManualTime()->Iterations(3));

CADENCE_QUEUE_BENCH(Memory, TimerWheel, ->Iterations(1));
CADENCE_QUEUE_BENCH(Memory, HeapTimerQueue, ->Iterations(1));
CADENCE_QUEUE_BENCH(Memory, LazyHeapQueue, ->Iterations(1));
CADENCE_QUEUE_BENCH(Memory, MultimapQueue, ->Iterations(1));
CADENCE_QUEUE_BENCH(Memory, CompactHeapQueue, ->Iterations(1));

}  // namespace
}  // namespace cadence::bench

BENCHMARK_MAIN();
