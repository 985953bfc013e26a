// The leak check of the SDL backends' waker, for sdl_window_test.cpp (SDL2) and
// sdl3_window_test.cpp. cadence's SDL waker is an SDL_PushEvent from the worker's thread
// (sdl2/src/sdl_events.hpp, sdl3/src/sdl3_events.hpp). While the loop waits, SDL wakes the wait:
// on Wayland with a request to the compositor, the kind of object GLFW before 3.5 leaked one of
// per wake-up (glfw_platform_test.cpp).
#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>

#include "../common/resident_kib.hpp"

namespace cadence::testing {

/// Wakes this thread from another one, one push at a time while this thread waits in SDL:
/// 10,000 times (SDL's and the allocator's own growth), then 100,000, after which resident memory
/// must not have grown by 1 MiB (10 bytes a wake-up). `push()` queues one event from the other
/// thread (false: SDL refused it); `take()` waits in SDL for up to a second and says whether it
/// took one of those events; `driver` and `sdl_error` are SDL's.
template <class Push, class Take>
void expect_wake_ups_leave_no_memory(Push push, Take take, const char* driver, const char* (*sdl_error)()) {
  std::atomic<int> taken{0};
  std::atomic<bool> stop{false};
  std::atomic<bool> refused{false};
  const auto wake = [&](int times) {
    const int start = taken.load();
    std::thread pusher([&] {
      for (int i = 0; i < times && !stop; ++i) {
        while (taken.load() < start + i && !stop) std::this_thread::yield();  // one at a time
        if (!push()) refused = stop = true;
      }
    });
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (taken.load() < start + times && !stop && std::chrono::steady_clock::now() < deadline) {
      if (take()) taken.fetch_add(1);
    }
    stop = true;
    pusher.join();
    stop = false;
    return taken.load() - start;
  };
  ASSERT_EQ(wake(10'000), 10'000) << (refused ? sdl_error() : "within 60 s");
  const long before = test::resident_kib();
  ASSERT_GT(before, 0) << "/proc/self/statm";
  ASSERT_EQ(wake(100'000), 100'000) << (refused ? sdl_error() : "within 60 s");
  const long grown = test::resident_kib() - before;
  std::printf("100,000 wake-ups on %s: resident memory grew by %ld KiB\n", driver, grown);
  EXPECT_LT(grown, 1024) << "KiB";
}

}  // namespace cadence::testing
