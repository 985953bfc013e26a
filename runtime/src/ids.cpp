#include "cadence/ids.hpp"

#include <atomic>

namespace cadence {
namespace {

// Relaxed is enough: uniqueness needs only the atomicity of fetch_add, not ordering.
std::atomic<std::uint64_t> next_timer_id{kFirstUserTimerId};
std::atomic<std::uint64_t> next_thread_id{kFirstUserThreadId};

}  // namespace

TimerId TimerId::unique() noexcept { return TimerId{next_timer_id.fetch_add(1, std::memory_order_relaxed)}; }

ThreadId ThreadId::unique() noexcept { return ThreadId{next_thread_id.fetch_add(1, std::memory_order_relaxed)}; }

}  // namespace cadence
