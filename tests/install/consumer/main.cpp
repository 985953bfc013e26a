// A program outside the cadence tree: it must build against the installed package alone.
#include <cadence/timer_wheel.hpp>

#include <cstdio>
#include <vector>

int main() {
  cadence::TimerWheel wheel;
  wheel.schedule(cadence::Ticks{20}, 2);
  wheel.schedule(cadence::Ticks{10}, 1);
  std::vector<cadence::Token> fired;
  wheel.advance(cadence::Ticks{20}, fired);
  if (fired != std::vector<cadence::Token>{1, 2}) {
    std::fprintf(stderr, "consumer: wrong fire order\n");
    return 1;
  }
  std::puts("consumer: ok");
  return 0;
}
