#include "cadence/ids.hpp"

#include <atomic>

#include "id_counters.hpp"

namespace cadence {
namespace {

// Relaxed is enough: uniqueness needs only the atomicity of fetch_add, not ordering.
std::atomic<std::uint64_t> next_timer_id{kFirstUserTimerId};
std::atomic<std::uint64_t> next_thread_id{kFirstUserThreadId};

bool skip(std::atomic<std::uint64_t>& next, std::uint64_t id) noexcept {
  std::uint64_t seen = next.load(std::memory_order_relaxed);
  while (id >= seen) {
    if (id - seen > detail::kNearIds || id >= detail::kHighestJump) return false;
    if (next.compare_exchange_weak(seen, id + 1, std::memory_order_relaxed)) return true;
  }
  return true;
}

}  // namespace

TimerId TimerId::unique() noexcept { return TimerId{next_timer_id.fetch_add(1, std::memory_order_relaxed)}; }

ThreadId ThreadId::unique() noexcept { return ThreadId{next_thread_id.fetch_add(1, std::memory_order_relaxed)}; }

namespace detail {
bool skip_timer_id(std::uint64_t id) noexcept { return skip(next_timer_id, id); }
bool skip_thread_id(std::uint64_t id) noexcept { return skip(next_thread_id, id); }
}  // namespace detail

}  // namespace cadence
