// A progress value whose copy throws inside the slot's lock: the lock is released, so the
// worker reports again and the UI thread's next frame takes the slot (the lock once leaked
// here, hanging the worker's next report or the UI's frame). The UI side runs on its own thread
// behind a deadline, so a hang fails the test instead of freezing the binary.
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <memory>
#include <stdexcept>
#include <thread>

#include "cadence/thread.hpp"
#include "thread_harness.hpp"

namespace cadence::testing {
namespace {

struct Empty {};

// Copying throws when the source has `boom` set; no move operations (rvalues copy too).
struct Flaky {
  int v = 0;
  bool boom = false;
  Flaky(int value, bool b) : v(value), boom(b) {}
  Flaky(const Flaky& o) : v(o.v), boom(o.boom) {
    if (boom) throw std::runtime_error("Flaky copy");
  }
  Flaky& operator=(const Flaky& o) {
    if (o.boom) throw std::runtime_error("Flaky assign");
    v = o.v;
    boom = o.boom;
    return *this;
  }
  ~Flaky() = default;
};

// Worker side: a report that throws (caught by the worker) leaves the slot locked, so the
// worker's next report blocks for ever in SlotLock::lock().
TEST(ProgressSlotTest, AWorkerCanReportAgainAfterAReportThatThrew) {
  WindowRuntime::Options options;
  options.join_deadline = std::chrono::milliseconds(300);  // let the stuck worker go at teardown
  ThreadLoop loop(options);
  auto threw = std::make_shared<Latch>();
  auto reported_again = std::make_shared<Latch>();
  const ThreadId id = ThreadId::unique();
  ASSERT_TRUE(loop.runtime().start_thread(
      id, Thread::create(0, Empty{}, [threw, reported_again](int, ThreadSender<Empty>& out, ThreadReceiver& in) {
        const Flaky bad(2, true);
        try {
          out.progress(bad);  // a new type: the lane copy-constructs its first value, which throws
        } catch (const std::runtime_error&) {
          threw->open();
        }
        out.progress(Flaky(3, false));  // blocked for ever when the throw left the lock held
        reported_again->open();
        while (!in.stop_requested()) (void)in.receive_for(Duration::max(), false);
      })));
  ASSERT_TRUE(threw->wait(std::chrono::seconds(10)));
  EXPECT_TRUE(reported_again->wait(std::chrono::seconds(3)))
      << "the worker's next progress() never returned: SlotLock was left held by the throwing report";
  if (reported_again->is_open()) {
    ASSERT_TRUE(loop.run_until([&] {
      const Flaky* p = loop.runtime().thread_progress<Flaky>(id);
      return p != nullptr && p->v == 3;
    }));
    ASSERT_TRUE(loop.runtime().stop_thread(id));
    ASSERT_TRUE(loop.run_until([&] { return !loop.runtime().has_thread(id); }));
  }
}

// UI side: the worker reports once (slot fresh, not yet taken), then a report whose assignment
// throws escapes the worker (it fails). The next frame's take_progress() sees `fresh` and waits
// on the leaked lock for ever: the UI thread hangs. The UI runs on its own thread here, so that
// the test can give up on it.
TEST(ProgressSlotTest, TheUiThreadSurvivesAWorkerWhoseReportThrew) {
  struct Shared {
    Latch threw;
    std::promise<bool> ui_done;
  };
  auto shared = std::make_shared<Shared>();
  std::future<bool> ui_done = shared->ui_done.get_future();
  std::thread ui([shared] {
    ThreadLoop loop;  // made on this thread: it is the runtime's UI thread
    const ThreadId id = ThreadId::unique();
    const bool started = static_cast<bool>(loop.runtime().start_thread(
        id, Thread::create(0, Empty{}, [shared](int, ThreadSender<Empty>& out, ThreadReceiver&) {
          out.progress(Flaky(1, false));  // fresh = true; nobody takes it yet (no frame runs)
          const Flaky bad(2, true);
          try {
            out.progress(bad);  // a Flaky is held: copy-assignment throws under the lock
          } catch (...) {
            shared->threw.open();
            throw;  // the worker fails; run_worker() reports it
          }
        })));
    if (!started || !shared->threw.wait(std::chrono::seconds(10))) {
      shared->ui_done.set_value(false);
      return;
    }
    // The first frame takes the progress slot: it must find the lock free.
    const bool gone = loop.run_until([&] { return !loop.runtime().has_thread(id); }, std::chrono::seconds(10));
    shared->ui_done.set_value(gone);
  });
  if (ui_done.wait_for(std::chrono::seconds(15)) != std::future_status::ready) {
    ui.detach();  // stuck for ever in take_progress(); everything it uses is its own or `shared`
    FAIL() << "the UI thread hung in a frame (ThreadCore::take_progress waits on a SlotLock that a "
              "throwing report_progress never unlocked)";
  }
  ui.join();
  EXPECT_TRUE(ui_done.get());
}

}  // namespace
}  // namespace cadence::testing
