// SlotLock's slow path (cadence/detail/progress_lane.hpp): where a thread that found a progress
// lane's lock held sleeps until it is released. Contention there is rare (a worker's report
// meeting the UI's take), so a lock shares its mutex and condition variable with others: one of
// 16 stripes, picked by its address, each waking all its sleepers, who each look again.
#include <array>
#include <condition_variable>
#include <cstdint>
#include <mutex>

#include "cadence/detail/progress_lane.hpp"

namespace cadence::detail {
namespace {

struct Stripe {
  std::mutex mutex;
  std::condition_variable released;
};

Stripe& stripe_of(const std::atomic<std::uint8_t>& state) {
  // Never destroyed: a worker the runtime let go may still report while the process exits.
  static auto* const stripes = new std::array<Stripe, 16>;
  return (*stripes)[(reinterpret_cast<std::uintptr_t>(&state) / 64) % stripes->size()];
}

}  // namespace

void slot_lock_sleep(const std::atomic<std::uint8_t>& state) noexcept {
  Stripe& stripe = stripe_of(state);
  std::unique_lock lock(stripe.mutex);
  // unlock() leaves 2 before it takes this mutex to wake: seen here, or the wake comes after.
  stripe.released.wait(lock, [&state] { return state.load(std::memory_order_relaxed) != 2; });
}

void slot_lock_wake(const std::atomic<std::uint8_t>& state) noexcept {
  Stripe& stripe = stripe_of(state);
  { const std::lock_guard lock(stripe.mutex); }
  stripe.released.notify_all();
}

}  // namespace cadence::detail
