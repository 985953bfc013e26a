// The progress lane against write-backs: a worker reports 10,000,000 values in a tight loop
// while the UI thread runs frames (when the waker rings or 1 ms passed; at most one per ms). For each
// lane: how many frames ran, how many values reached the UI, how often the waker rang, and the
// bytes allocated and not yet freed (peak during the run, and once everything was delivered),
// counted by this binary's own operator new. Prints one JSON object for scripts/bench_table.py.
// Usage: cadence_bench_progress [--out FILE.json] [--reports N]
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <new>
#include <sstream>
#include <string>
#include <thread>

#include "cadence/window_runtime.hpp"

namespace {

// Bytes allocated and not yet freed, and the most there were. Each block carries its size (and
// its header's length) just before it, so that unsized and aligned deletes count too.
std::atomic<long long> g_live{0};
std::atomic<long long> g_peak{0};
constexpr std::size_t kHeader = alignof(std::max_align_t);

void* counted_alloc(std::size_t n, std::size_t align = kHeader) {
  // The header takes a whole alignment unit, so that the block after it keeps the alignment.
  const std::size_t header = align > kHeader ? align : kHeader;
  void* raw = std::aligned_alloc(header, (n + header + header - 1) / header * header);
  if (raw == nullptr) throw std::bad_alloc();
  char* block = static_cast<char*>(raw) + header;
  reinterpret_cast<std::size_t*>(block)[-1] = n;
  reinterpret_cast<std::size_t*>(block)[-2] = header;
  const long long now = g_live.fetch_add(static_cast<long long>(n), std::memory_order_relaxed) + static_cast<long long>(n);
  long long peak = g_peak.load(std::memory_order_relaxed);
  while (now > peak && !g_peak.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
  }
  return block;
}

void counted_free(void* p) noexcept {
  if (p == nullptr) return;
  const std::size_t n = static_cast<std::size_t*>(p)[-1];
  const std::size_t header = static_cast<std::size_t*>(p)[-2];
  g_live.fetch_sub(static_cast<long long>(n), std::memory_order_relaxed);
  std::free(static_cast<char*>(p) - header);
}

}  // namespace

void* operator new(std::size_t n) { return counted_alloc(n); }
void* operator new[](std::size_t n) { return counted_alloc(n); }
void operator delete(void* p) noexcept { counted_free(p); }
void operator delete[](void* p) noexcept { counted_free(p); }
void operator delete(void* p, std::size_t) noexcept { counted_free(p); }
void operator delete[](void* p, std::size_t) noexcept { counted_free(p); }
void* operator new(std::size_t n, std::align_val_t a) { return counted_alloc(n, static_cast<std::size_t>(a)); }
void* operator new[](std::size_t n, std::align_val_t a) { return counted_alloc(n, static_cast<std::size_t>(a)); }
void operator delete(void* p, std::align_val_t) noexcept { counted_free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { counted_free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { counted_free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { counted_free(p); }

namespace {

using namespace cadence;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

struct LaneResult {
  long long reports = 0, frames = 0, deliveries = 0, wakes = 0;
  long long peak_bytes = 0, bytes_after = 0;
  double worker_seconds = 0;
};

enum class Lane { progress, write_back };

LaneResult run_lane(Lane lane, long long reports) {
  LaneResult r;
  r.reports = reports;
  std::mutex m;
  std::condition_variable cv;
  bool rung = false;
  long long wakes = 0;
  std::atomic<double> worker_seconds{0};
  struct State {
    long long latest = 0;
    long long delivered = 0;
  };
  const long long before = g_live.load();
  long long peak_seen = 0;
  {
    WindowRuntime runtime(TimeSource::system());
    runtime.set_waker([&] {
      std::lock_guard lock(m);
      rung = true;
      ++wakes;
      cv.notify_all();
    });
    const ThreadId id = ThreadId::unique();
    bool finished = false;
    (void)runtime.start_thread(
        id, Thread::create(
                reports, State{},
                [lane, &worker_seconds](long long n, ThreadSender<State>& out, ThreadReceiver&) {
                  const auto t0 = Clock::now();
                  for (long long i = 1; i <= n; ++i) {
                    if (lane == Lane::progress) {
                      out.progress(i);
                    } else {
                      out.write_back(i, [](State& s, long long& v, CallbackContext&) {
                        s.latest = v;
                        ++s.delivered;
                      });
                    }
                  }
                  worker_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
                },
                [&finished](State&, const ThreadOutcome&, CallbackContext&) { finished = true; }));
    g_peak.store(g_live.load());
    long long last_seen = 0;
    // A UI that draws at most 1,000 frames per second: it wakes when the waker rings (or after
    // 1 ms), but never runs two frames less than 1 ms apart, as a frame's drawing would keep it.
    auto next_frame = Clock::now();
    while (!finished) {
      {
        std::unique_lock lock(m);
        cv.wait_for(lock, 1ms, [&] { return rung; });
        rung = false;
      }
      std::this_thread::sleep_until(next_frame);
      next_frame = Clock::now() + 1ms;
      (void)runtime.poll(runtime.now());
      ++r.frames;
      if (lane == Lane::progress) {
        if (const long long* p = runtime.thread_progress<long long>(id); p != nullptr && *p != last_seen) {
          last_seen = *p;
          ++r.deliveries;
        }
      } else if (const State* s = runtime.thread_data<State>(id); s != nullptr) {
        r.deliveries = s->delivered;
      }
    }
    if (lane == Lane::write_back) r.deliveries = reports;  // the finish came after every one
    peak_seen = g_peak.load();
    r.bytes_after = g_live.load() - before;
    std::lock_guard lock(m);
    r.wakes = wakes;
  }
  r.peak_bytes = peak_seen - before;
  r.worker_seconds = worker_seconds.load();
  return r;
}

std::string json(const LaneResult& r) {
  std::ostringstream o;
  o << "{\"reports\": " << r.reports << ", \"frames\": " << r.frames << ", \"deliveries\": " << r.deliveries
    << ", \"wakes\": " << r.wakes << ", \"peak_bytes\": " << r.peak_bytes << ", \"bytes_after\": " << r.bytes_after
    << ", \"worker_seconds\": " << r.worker_seconds << "}";
  return o.str();
}

}  // namespace

int main(int argc, char** argv) {
  std::string out_path;
  long long reports = 10'000'000;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--out") out_path = argv[i + 1];
    if (a == "--reports") reports = std::max(1LL, std::atoll(argv[i + 1]));
  }
  const LaneResult progress = run_lane(Lane::progress, reports);
  const LaneResult write_back = run_lane(Lane::write_back, reports);
  std::ostringstream o;
  o << "{\n  \"progress_lane\": {\"progress\": " << json(progress) << ",\n    \"write_back\": " << json(write_back)
    << "}\n}\n";
  std::fputs(o.str().c_str(), stdout);
  if (!out_path.empty()) std::ofstream(out_path) << o.str();
  return 0;
}
