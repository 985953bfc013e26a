// A change the runtime refuses is destroyed inside the call that refused it: a refused timer's
// capture whose destructor destroys the runtime stops the program with the message that says
// why, instead of freeing the runtime under the call.
#include <gtest/gtest.h>

#include <memory>

#include "cadence/manual_clock.hpp"
#include "cadence/window_runtime.hpp"

namespace cadence {
namespace {

struct DestroysOnDrop {
  std::unique_ptr<WindowRuntime>* owner;
  explicit DestroysOnDrop(std::unique_ptr<WindowRuntime>* o) : owner(o) {}
  DestroysOnDrop(DestroysOnDrop&& o) noexcept : owner(o.owner) { o.owner = nullptr; }
  DestroysOnDrop(const DestroysOnDrop&) = delete;
  DestroysOnDrop& operator=(const DestroysOnDrop&) = delete;
  DestroysOnDrop& operator=(DestroysOnDrop&&) = delete;
  ~DestroysOnDrop() {
    if (owner != nullptr) owner->reset();
  }
};

TEST(RejectedChangeDeathTest, DestroyingTheRuntimeFromARejectedTimersCaptureStillAborts) {
  EXPECT_DEATH(
      {
        ManualClock clock;
        auto runtime = std::make_unique<WindowRuntime>(clock.source());
        auto guard = std::make_shared<DestroysOnDrop>(&runtime);
        Timer t([guard](TimerCallbackInfo&) {});
        guard.reset();  // the timer's capture is now the only owner
        WindowRuntime* raw = runtime.get();
        (void)raw->add_timer(TimerId{0}, std::move(t));  // id 0: invalid_argument, timer rejected
      },
      "destroyed from inside one of its own calls");
}

}  // namespace
}  // namespace cadence
