// The leak check of the SDL backends' wake-up, for sdl_window_test.cpp (SDL2) and
// sdl3_window_test.cpp. cadence's SDL waker is an SDL_PushEvent from the worker's thread
// (sdl2/src/sdl_events.hpp, sdl3/src/sdl3_events.hpp); SDL wakes a thread asleep in its wait only
// when the push finds it there (on Wayland with a request to the compositor, the kind of object
// GLFW before 3.5 leaked one of per wake-up: glfw_platform_test.cpp). So each push here waits
// until the kernel shows this thread asleep, and the test counts the pushes that found it so.
// The pushes are SDL's own calls, with an event type of the test's: the same path as cadence's.
#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

#include "../common/memory_in_use.hpp"
#include "../common/thread_state.hpp"

namespace cadence::testing {

/// Wakes this thread from another one, one push at a time, each once this thread is asleep in
/// SDL: 10,000 times (SDL's and the allocator's own growth), then 100,000, after which the memory
/// in use (memory_in_use.hpp) must not have grown by 1 MiB (10 bytes a wake-up). `push()` queues
/// one event from the other thread (false: SDL refused it); `take()` waits in SDL for up to a
/// second and says whether it took one of those events; `driver` and `sdl_error` are SDL's.
template <class Push, class Take>
void expect_wake_ups_leave_no_memory(Push push, Take take, const char* driver, const char* (*sdl_error)()) {
  std::atomic<test::os_thread_id> waiter{test::current_tid()};
  std::atomic<int> taken{0};
  std::atomic<bool> stop{false};
  std::string refused;  // SDL's error, which is per thread: the pusher's, read after the join
  int asleep = 0;       // of the last wake(): pushes that found this thread asleep
  const auto wake = [&](int times) {
    const int start = taken.load();
    asleep = 0;
    std::thread pusher([&] {
      for (int i = 0; i < times && !stop; ++i) {
        while (taken.load() < start + i && !stop) std::this_thread::yield();  // one at a time
        if (test::wait_until_asleep(waiter, [&] { return stop.load(); }, std::chrono::seconds(1))) ++asleep;
        if (push()) continue;
        refused = sdl_error();
        stop = true;
      }
    });
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (taken.load() < start + times && !stop && std::chrono::steady_clock::now() < deadline) {
      if (take()) taken.fetch_add(1);
    }
    stop = true;
    pusher.join();
    stop = false;
    EXPECT_EQ(refused, "") << "SDL_PushEvent failed";
    EXPECT_GE(asleep, times * 9 / 10) << "pushes that found the waiting thread asleep, of " << times;
    return taken.load() - start;
  };
  ASSERT_EQ(wake(10'000), 10'000) << "within 120 s";
  const long before = test::memory_in_use_kib();
  ASSERT_GT(before, 0) << test::memory_in_use_name();
  ASSERT_EQ(wake(100'000), 100'000) << "within 120 s";
  const long after = test::memory_in_use_kib();
  ASSERT_GT(after, 0) << test::memory_in_use_name();
  std::printf("100,000 wake-ups on %s (%d found the loop asleep): %s grew by %ld KiB\n",
              driver != nullptr ? driver : "?", asleep, test::memory_in_use_name(), after - before);
  EXPECT_LT(after - before, 1024) << "KiB";
}

}  // namespace cadence::testing
