// SharedTimingWheel beside the in-process TimerWheel, and with several processes at once.
// - Ops: add + cancel pairs with N pending (a random pending timer cancelled, a new one added),
//   in one process; operations per second. Both sides count ticks as milliseconds, delays
//   uniform in [1, 10,000].
// - Fire: N timers, advanced 16 ticks at a time until all have fired; ns per timer.
// - Processes: 1 or 4 forked processes each making add + cancel pairs on one shared wheel while
//   this process advances it one tick at a time; operations per second across the schedulers.
// - Advance: one advance of R rotations (R x 4,096 ticks) over N timers due within it, beside
//   the same ticks walked as advances of one rotation less a tick each (the tick-by-tick walk,
//   which a shorter advance takes); time per fired timer.
// - LockRoundTrip: one uncontended lock and unlock of a process-shared robust mutex, the lock
//   every shared operation takes, alone.
// scripts/bench runs this with repetitions, interleaved, and prints the ratio tables.
#include <benchmark/benchmark.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <random>
#include <vector>

#include "cadence/shared_timing_wheel.hpp"
#include "cadence/timer_wheel.hpp"

namespace cadence::bench {
namespace {

constexpr std::int64_t kMaxDelay = 10'000;
constexpr std::uint32_t kSlots = 16'384;  // one rotation holds every delay

std::vector<std::int64_t> delays(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::int64_t> dist(1, kMaxDelay);
  std::vector<std::int64_t> out(n);
  for (auto& d : out) d = dist(rng);
  return out;
}

SharedTimingWheel shared_wheel(std::size_t n) {
  return std::move(*SharedTimingWheel::anonymous(kSlots, static_cast<std::uint32_t>(n + 1)));
}

// The two wheels behind one face.
struct Shared {
  SharedTimingWheel w;
  explicit Shared(std::size_t n) : w(shared_wheel(n)) {}
  std::uint64_t add(std::int64_t d, std::uint64_t p) { return w.add(d, p)->value; }
  void cancel(std::uint64_t id) { (void)w.cancel(SharedTimerId{id}); }
  void advance(std::int64_t t, std::vector<std::uint64_t>& out) { (void)w.advance(t, out); }
};
struct InProcess {
  TimerWheel w;
  explicit InProcess(std::size_t) {}
  std::uint64_t add(std::int64_t d, std::uint64_t p) { return w.schedule(Ticks{d}, p).value; }
  void cancel(std::uint64_t id) { (void)w.cancel(QueueId{id}); }
  void advance(std::int64_t t, std::vector<std::uint64_t>& out) { (void)w.advance(w.now() + Ticks{t}, out); }
};

template <class W>
void Ops(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  W w(n);
  const std::vector<std::int64_t> d = delays(n, 1);
  std::vector<std::uint64_t> ids(n);
  for (std::size_t i = 0; i < n; ++i) ids[i] = w.add(d[i], i);
  std::mt19937_64 rng(2);
  std::size_t k = 0;
  for (auto _ : state) {
    const std::size_t victim = rng() % n;
    w.cancel(ids[victim]);
    ids[victim] = w.add(d[k], k);
    k = k + 1 == n ? 0 : k + 1;
  }
  state.SetItemsProcessed(state.iterations() * 2);
}
BENCHMARK(Ops<Shared>)->Name("Ops_shared")->Arg(1'000)->Arg(100'000);
BENCHMARK(Ops<InProcess>)->Name("Ops_wheel")->Arg(1'000)->Arg(100'000);

template <class W>
void Fire(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const std::vector<std::int64_t> d = delays(n, 3);
  std::vector<std::uint64_t> fired;
  fired.reserve(n);
  for (auto _ : state) {
    state.PauseTiming();
    W w(n);  // a fresh wheel per run
    for (std::size_t i = 0; i < n; ++i) w.add(d[i], i);
    fired.clear();
    state.ResumeTiming();
    while (fired.size() < n) w.advance(16, fired);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(n));
}
BENCHMARK(Fire<Shared>)->Name("Fire_shared")->Arg(100'000)->Unit(benchmark::kMillisecond);
BENCHMARK(Fire<InProcess>)->Name("Fire_wheel")->Arg(100'000)->Unit(benchmark::kMillisecond);

// range(0): N timers, delays uniform in [1, R x kAdvanceSlots] with R = range(1), all fired by
// one advance (`whole`) or by advances of kAdvanceSlots - 1 ticks (the walk).
constexpr std::uint32_t kAdvanceSlots = 4'096;
void Advance(benchmark::State& state, bool whole) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const std::int64_t span = state.range(1) * std::int64_t{kAdvanceSlots};
  std::mt19937_64 rng(5);
  std::vector<std::int64_t> d(n);
  for (auto& x : d) x = 1 + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(span));
  std::vector<std::uint64_t> fired;
  fired.reserve(n);
  double ns = 0;
  for (auto _ : state) {
    SharedTimingWheel w = std::move(*SharedTimingWheel::anonymous(kAdvanceSlots, static_cast<std::uint32_t>(n + 1)));
    for (std::size_t i = 0; i < n; ++i) (void)w.add(d[i], i);
    fired.clear();
    const auto t0 = std::chrono::steady_clock::now();
    if (whole) {
      (void)w.advance(span, fired);
    } else {
      for (std::int64_t left = span; left > 0; left -= kAdvanceSlots - 1) {
        (void)w.advance(std::min<std::int64_t>(left, kAdvanceSlots - 1), fired);
      }
    }
    const double t = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
    state.SetIterationTime(t * 1e-9);
    ns += t;
    if (fired.size() != n) state.SkipWithError("not every timer fired");
  }
  state.counters["ns_per_timer"] = ns / (static_cast<double>(n) * static_cast<double>(state.iterations()));
}
void AdvanceJump(benchmark::State& state) { Advance(state, true); }
void AdvanceWalk(benchmark::State& state) { Advance(state, false); }
BENCHMARK(AdvanceJump)->Name("Advance_whole")->ArgsProduct({{1'000, 100'000}, {1, 2, 4, 16, 64}})->UseManualTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(AdvanceWalk)->Name("Advance_walk")->ArgsProduct({{1'000, 100'000}, {1, 2, 4, 16, 64}})->UseManualTime()->Unit(benchmark::kMicrosecond);

// The shared wheel's lock alone: a process-shared robust mutex in a shared mapping, locked and
// unlocked by one process.
void LockRoundTrip(benchmark::State& state) {
  void* p = ::mmap(nullptr, sizeof(pthread_mutex_t), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) {
    state.SkipWithError("mmap failed");
    return;
  }
  auto* m = static_cast<pthread_mutex_t*>(p);
  pthread_mutexattr_t a;
  pthread_mutexattr_init(&a);
  pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED);
  pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
  pthread_mutex_init(m, &a);
  pthread_mutexattr_destroy(&a);
  for (auto _ : state) {
    if (pthread_mutex_lock(m) != 0) state.SkipWithError("lock failed");
    pthread_mutex_unlock(m);
  }
  pthread_mutex_destroy(m);
  ::munmap(p, sizeof(pthread_mutex_t));
}
BENCHMARK(LockRoundTrip)->Name("LockRoundTrip_robust");

// `range(0)` processes schedule (add + cancel pairs, 1,000 pending each) while this one
// advances; one iteration is one whole run.
void Processes(benchmark::State& state) {
  const int procs = static_cast<int>(state.range(0));
  constexpr int kPairs = 100'000;
  constexpr std::size_t kPending = 1'000;
  for (auto _ : state) {
    SharedTimingWheel w = shared_wheel(kPending * static_cast<std::size_t>(procs) + 1);
    std::vector<pid_t> children;
    for (int c = 0; c < procs; ++c) {
      const pid_t pid = ::fork();
      if (pid == 0) {
        std::mt19937_64 rng(static_cast<std::uint64_t>(c) + 10);
        std::vector<SharedTimerId> ids(kPending);
        for (auto& id : ids) id = *w.add(static_cast<std::int64_t>(1 + rng() % kMaxDelay), 0);
        for (int i = 0; i < kPairs; ++i) {
          const std::size_t victim = rng() % kPending;
          (void)w.cancel(ids[victim]);
          ids[victim] = *w.add(static_cast<std::int64_t>(1 + rng() % kMaxDelay), 0);
        }
        ::_exit(0);
      }
      children.push_back(pid);
    }
    std::vector<std::uint64_t> fired;
    int left = procs;
    while (left > 0) {
      fired.clear();
      (void)w.advance(1, fired);
      int status = 0;
      while (left > 0 && ::waitpid(-1, &status, WNOHANG) > 0) --left;
    }
  }
  state.SetItemsProcessed(state.iterations() * procs * kPairs * 2);
}
BENCHMARK(Processes)->Name("Processes_shared")->Arg(1)->Arg(4)->Iterations(1)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace cadence::bench

BENCHMARK_MAIN();
