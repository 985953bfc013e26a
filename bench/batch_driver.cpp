// The batch workload of timer_queue_bench.cpp's Batch, as a plain program: schedule n timers
// (delays uniform in [1 ms, 10 s], the same seed), then cancel all n in a random order, after
// one untimed round. It prints the fastest of `runs` runs of `rounds` rounds each, per pair and
// per half. Pin it to one core for timings (`taskset -c 1`); run it under callgrind with two
// round counts for instructions per pair (the difference cancels the setup).
//
//   cadence_batch_driver wheel|compact N [rounds=20] [runs=5]
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <string_view>
#include <vector>

#include "baselines/compact_heap_queue.hpp"
#include "cadence/timer_wheel.hpp"

namespace {

using namespace cadence;

struct Split {
  double schedule_ns = 0;
  double cancel_ns = 0;
};

template <class Q>
Split run(std::size_t n, int rounds, int runs) {
  std::mt19937_64 rng(8);
  std::uniform_int_distribution<std::int64_t> dist(1, 10'000);
  std::vector<std::int64_t> d(n);
  for (auto& x : d) x = dist(rng);
  std::vector<std::uint32_t> order(n);
  for (std::uint32_t i = 0; i < n; ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), std::mt19937_64(9));
  std::vector<QueueId> ids(n);
  Split best{std::numeric_limits<double>::max(), std::numeric_limits<double>::max()};
  for (int r = 0; r < runs; ++r) {
    Q q;
    Split sum;
    for (int round = -1; round < rounds; ++round) {  // round -1: the untimed warm round
      const auto t0 = std::chrono::steady_clock::now();
      for (std::size_t i = 0; i < n; ++i) ids[i] = q.schedule(Ticks{d[i]}, i);
      const auto t1 = std::chrono::steady_clock::now();
      for (const std::uint32_t i : order) q.cancel(ids[i]);
      const auto t2 = std::chrono::steady_clock::now();
      if (round < 0) continue;
      sum.schedule_ns += std::chrono::duration<double, std::nano>(t1 - t0).count();
      sum.cancel_ns += std::chrono::duration<double, std::nano>(t2 - t1).count();
    }
    const double pairs = static_cast<double>(n) * rounds;
    if ((sum.schedule_ns + sum.cancel_ns) / pairs < best.schedule_ns + best.cancel_ns) {
      best = Split{sum.schedule_ns / pairs, sum.cancel_ns / pairs};
    }
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s wheel|compact N [rounds=20] [runs=5]\n", argv[0]);
    return 2;
  }
  const std::string_view queue = argv[1];
  const long n = std::strtol(argv[2], nullptr, 10);
  const int rounds = argc > 3 ? std::atoi(argv[3]) : 20;
  const int runs = argc > 4 ? std::atoi(argv[4]) : 5;
  if (n < 1 || n > 10'000'000 || rounds < 1 || runs < 1 || (queue != "wheel" && queue != "compact")) {
    std::fprintf(stderr, "bad arguments: queue must be wheel or compact, 1 <= N <= 10,000,000, rounds and runs >= 1\n");
    return 2;
  }
  const auto count = static_cast<std::size_t>(n);
  const Split s = queue == "wheel" ? run<TimerWheel>(count, rounds, runs) : run<bench::CompactHeapQueue>(count, rounds, runs);
  std::printf("%s n=%ld: %.1f ns per pair (schedule %.1f + cancel %.1f), fastest of %d runs of %d rounds\n",
              argv[1], n, s.schedule_ns + s.cancel_ns, s.schedule_ns, s.cancel_ns, runs, rounds);
  return 0;
}
