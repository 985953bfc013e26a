// A program built with nothing but `c++ -std=c++20 main.cpp $(pkg-config --cflags --libs cadence)`
// against the installed package: a runtime, a timer on a manual clock, one frame.
#include <cadence/manual_clock.hpp>
#include <cadence/window_runtime.hpp>

#include <chrono>
#include <cstdio>

int main() {
  using namespace std::chrono_literals;
  cadence::ManualClock clock;
  cadence::WindowRuntime runtime(clock.source());
  int runs = 0;
  if (!runtime.add_timer(cadence::TimerId::unique(), cadence::Timer::once(5ms, [&](cadence::TimerCallbackInfo&) { ++runs; }))) {
    std::fprintf(stderr, "pkg-config consumer: add_timer failed\n");
    return 1;
  }
  (void)clock.advance(5ms);
  runtime.poll(clock.now());
  if (runs != 1) {
    std::fprintf(stderr, "pkg-config consumer: the timer ran %d times, not once\n", runs);
    return 1;
  }
  std::puts("pkg-config consumer: ok");
  return 0;
}
