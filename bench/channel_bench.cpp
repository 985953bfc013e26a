// Worker -> UI channels side by side, and messages through a whole runtime.
// - Send: the cost of one send on the worker thread while the UI thread drains concurrently:
//   cadence's lock-free queue with its doorbell flag, against a mutex + deque channel.
// - Wakeups: how many times the waker runs when a worker posts batches while the loop sleeps.
// - Runtime: messages per second from one worker to write-backs on the UI thread.
// scripts/bench runs this.
#include <benchmark/benchmark.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

#include "baselines/mutex_channel.hpp"
#include "cadence/detail/spsc_queue.hpp"
#include "cadence/manual_clock.hpp"
#include "cadence/window_runtime.hpp"

namespace cadence::bench {
namespace {

struct Message {  // the size of a small write-back: a pointer and a value
  std::uint64_t a;
  std::uint64_t b;
};

// cadence's worker -> UI channel as ThreadCore uses it: push, then a look at the doorbell flag;
// the reader marks the queue drained when it finds it empty.
class LockFreeChannel {
 public:
  bool send(Message m) {
    queue_.push(m);
    return drained_.load(std::memory_order_seq_cst) && drained_.exchange(false, std::memory_order_acq_rel);
  }
  std::optional<Message> receive() {
    if (auto m = queue_.pop()) return m;
    drained_.store(true, std::memory_order_seq_cst);
    if (auto m = queue_.pop()) {
      drained_.store(false, std::memory_order_relaxed);
      return m;
    }
    return std::nullopt;
  }

 private:
  detail::SpscQueue<Message> queue_;
  std::atomic<bool> drained_{true};
};

// The UI thread drains the channel: continuously (`spin`: a loop that is behind and runs frames
// back to back) or once per 16 ms frame (the usual case: it is rendering or asleep otherwise).
template <class Channel>
void Send(benchmark::State& state, bool spin) {
  Channel channel;
  std::atomic<bool> done{false};
  std::atomic<std::uint64_t> received{0};
  std::thread ui([&] {
    std::uint64_t n = 0;
    while (!done.load(std::memory_order_acquire)) {
      while (channel.receive()) ++n;
      if (!spin) std::this_thread::sleep_for(std::chrono::milliseconds(16));
    }
    while (channel.receive()) ++n;
    received = n;
  });
  std::uint64_t sent = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(channel.send(Message{sent, sent}));
    ++sent;
  }
  done.store(true, std::memory_order_release);
  ui.join();
  if (received.load() != sent) state.SkipWithError("messages were lost");
  state.SetItemsProcessed(static_cast<std::int64_t>(sent));
}

void SendFrames_lockfree(benchmark::State& state) { Send<LockFreeChannel>(state, false); }
void SendFrames_mutex(benchmark::State& state) { Send<MutexChannel<Message>>(state, false); }
void SendBusy_lockfree(benchmark::State& state) { Send<LockFreeChannel>(state, true); }
void SendBusy_mutex(benchmark::State& state) { Send<MutexChannel<Message>>(state, true); }
BENCHMARK(SendFrames_lockfree)->UseRealTime();
BENCHMARK(SendFrames_mutex)->UseRealTime();
BENCHMARK(SendBusy_lockfree)->UseRealTime();
BENCHMARK(SendBusy_mutex)->UseRealTime();

// One worker sends `range(0)` Update messages per batch, 100 batches; between batches the loop
// drains and sleeps. Reports waker calls per batch (the target: one, never one per message).
void Wakeups_runtime(benchmark::State& state) {
  const auto per_batch = static_cast<int>(state.range(0));
  double wakes_per_batch = 0;
  for (auto _ : state) {
    ManualClock clock;
    WindowRuntime runtime(clock.source());
    std::atomic<int> wakes{0};
    runtime.set_waker([&] { wakes.fetch_add(1, std::memory_order_relaxed); });
    std::mutex m;
    std::condition_variable cv;
    int batch_requested = 0, batch_sent = 0;
    (void)runtime.start_thread(ThreadId::unique(), Thread::create(0, 0, [&](int, ThreadSender<int>& out, ThreadReceiver&) {
      for (int b = 1; b <= 100; ++b) {
        {
          std::unique_lock lock(m);
          cv.wait(lock, [&] { return batch_requested >= b; });
        }
        for (int i = 0; i < per_batch; ++i) out.update(Update::nothing);
        {
          std::lock_guard lock(m);
          batch_sent = b;
        }
        cv.notify_all();
      }
    }));
    for (int b = 1; b <= 100; ++b) {
      {
        std::lock_guard lock(m);
        batch_requested = b;
      }
      cv.notify_all();
      {
        std::unique_lock lock(m);
        cv.wait(lock, [&] { return batch_sent >= b; });
      }
      while (runtime.next_wake() == Duration::zero()) runtime.poll(clock.now());  // drain, then "sleep"
    }
    wakes_per_batch = static_cast<double>(wakes.load()) / 100.0;
  }
  state.counters["wakes_per_batch"] = wakes_per_batch;
}
BENCHMARK(Wakeups_runtime)->Arg(1)->Arg(1000)->Iterations(3);

// One worker floods write-backs; the UI thread runs frames until all arrived.
void Throughput_runtime(benchmark::State& state) {
  constexpr std::uint64_t kMessages = 1'000'000;
  for (auto _ : state) {
    ManualClock clock;
    WindowRuntime runtime(clock.source());
    std::uint64_t delivered = 0;
    (void)runtime.start_thread(ThreadId::unique(), Thread::create(0, &delivered, [](int, ThreadSender<std::uint64_t*>& out, ThreadReceiver&) {
      for (std::uint64_t i = 0; i < kMessages; ++i) {
        out.write_back(i, [](std::uint64_t*& count, std::uint64_t&, CallbackContext&) { ++*count; });
      }
    }));
    while (delivered < kMessages) runtime.poll(clock.now());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kMessages));
}
BENCHMARK(Throughput_runtime)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace cadence::bench

BENCHMARK_MAIN();
