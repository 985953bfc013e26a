// The progress lane's memory promise, counted: thread.hpp says a report allocates nothing while
// its type stays the same, and threads.md that a lane in use allocates nothing. This binary
// counts every operator new per thread, so a worker's report and the UI frame that takes it are
// each measured alone. Real threads, in lock step with deadlines; its own executable, since it
// replaces the global operator new.
#include <gtest/gtest.h>
#if defined(_WIN32)
#include <malloc.h>  // _aligned_malloc
#endif

#include <atomic>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

#include "thread_harness.hpp"

namespace {

thread_local long long t_allocations = 0;

void* counted(void* p) {
  if (p == nullptr) throw std::bad_alloc();
  ++t_allocations;
  return p;
}
void* allocate(std::size_t n) { return counted(std::malloc(n == 0 ? 1 : n)); }
// Over-aligned: a block that only its own release may free (Windows has no aligned_alloc, and
// its _aligned_malloc's blocks are not free()'s).
void* allocate_aligned(std::size_t n, std::align_val_t a) {
  const std::size_t align = static_cast<std::size_t>(a);
  const std::size_t size = n == 0 ? align : (n + align - 1) / align * align;
#if defined(_WIN32)
  return counted(_aligned_malloc(size, align));
#else
  return counted(std::aligned_alloc(align, size));
#endif
}

// Out of line, so that the compiler does not pair an inlined free() with operator new.
[[gnu::noinline]] void release(void* p) noexcept { std::free(p); }
[[gnu::noinline]] void release_aligned(void* p) noexcept {
#if defined(_WIN32)
  _aligned_free(p);
#else
  std::free(p);
#endif
}

}  // namespace

void* operator new(std::size_t n) { return allocate(n); }
void* operator new[](std::size_t n) { return allocate(n); }
void* operator new(std::size_t n, std::align_val_t a) { return allocate_aligned(n, a); }
void* operator new[](std::size_t n, std::align_val_t a) { return allocate_aligned(n, a); }
void operator delete(void* p) noexcept { release(p); }
void operator delete[](void* p) noexcept { release(p); }
void operator delete(void* p, std::size_t) noexcept { release(p); }
void operator delete[](void* p, std::size_t) noexcept { release(p); }
void operator delete(void* p, std::align_val_t) noexcept { release_aligned(p); }
void operator delete[](void* p, std::align_val_t) noexcept { release_aligned(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { release_aligned(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { release_aligned(p); }

namespace cadence::testing {
namespace {

struct None {};

// One report per frame, each taken before the next is made: the worker counts what each
// progress() call allocated, the UI what each frame that took a value allocated. A type change
// half-way (int, then a short std::string) starts the count again for the new type.
TEST(ProgressLaneAllocTest, OnlyTheFirstReportOfATypeAllocatesAndNoTakeDoes) {
  constexpr int kReports = 8;
  ThreadLoop loop;
  WindowRuntime& runtime = loop.runtime();
  const ThreadId id = ThreadId::unique();
  std::vector<long long> report_allocs(2 * kReports, -1);
  std::atomic<int> taken{0};
  Latch done;
  ASSERT_TRUE(runtime.start_thread(
      id, Thread::create(0, None{}, [&](int, ThreadSender<None>& out, ThreadReceiver& in) {
        const auto wait_taken = [&](int n) {
          const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
          while (taken.load() < n && std::chrono::steady_clock::now() < end) std::this_thread::yield();
        };
        const std::string texts[2] = {"step a", "step b"};  // short: no allocation of their own
        for (int i = 0; i < 2 * kReports; ++i) {
          const long long before = t_allocations;
          if (i < kReports) {
            out.progress(i + 1);
          } else {
            out.progress(texts[i % 2]);
          }
          report_allocs[static_cast<std::size_t>(i)] = t_allocations - before;
          wait_taken(i + 1);
        }
        done.open();
        while (!in.stop_requested()) (void)in.receive_for(Duration::max(), false);
      })));
  std::vector<long long> take_allocs;
  for (int i = 0; i < 2 * kReports; ++i) {
    const auto seen = [&] {
      if (i < kReports) {
        const int* p = runtime.thread_progress<int>(id);
        return p != nullptr && *p == i + 1;
      }
      const std::string* s = runtime.thread_progress<std::string>(id);
      return s != nullptr && *s == (i % 2 == 0 ? "step a" : "step b");
    };
    // Frames until this report is taken; the frame that takes it is counted alone.
    for (int guard = 0; guard < 1'000'000 && !seen(); ++guard) {
      ChangeSet changes;
      const long long before = t_allocations;
      runtime.run_threads(changes);
      const long long used = t_allocations - before;
      if (seen()) take_allocs.push_back(used);
      (void)runtime.apply(std::move(changes));
    }
    ASSERT_TRUE(seen()) << "report " << i + 1 << " never reached the UI";
    taken = i + 1;
  }
  ASSERT_TRUE(done.wait());
  EXPECT_GT(report_allocs[0], 0) << "the first report makes the slot (a sanity check of the counting)";
  for (int i = 1; i < 2 * kReports; ++i) {
    if (i == kReports) continue;  // the first std::string: a new type
    EXPECT_EQ(report_allocs[static_cast<std::size_t>(i)], 0) << "report " << i + 1;
  }
  ASSERT_EQ(take_allocs.size(), static_cast<std::size_t>(2 * kReports));
  for (int i = 0; i < 2 * kReports; ++i) EXPECT_EQ(take_allocs[static_cast<std::size_t>(i)], 0) << "the take of report " << i + 1;
  ASSERT_TRUE(runtime.stop_thread(id));
  ASSERT_TRUE(loop.run_until([&] { return !runtime.has_thread(id); }));
}

}  // namespace
}  // namespace cadence::testing
