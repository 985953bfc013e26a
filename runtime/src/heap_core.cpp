#include "cadence/detail/heap_core.hpp"

#include <algorithm>

namespace cadence::detail {

HeapCore::HeapCore(Ticks start)
    : now_ms_(clamp_to_timeline(start.count())) {}

QueueId HeapCore::schedule(Ticks after, Token token) {
  const std::int64_t deadline_ms = deadline_after(now_ms_, after.count());
  return QueueId{heap_.push(deadline_ms, token).value};
}

bool HeapCore::cancel(QueueId id) { return heap_.cancel_at(TimeoutHeap::Handle{id.value}).ok(); }

AdvanceReport HeapCore::advance(Ticks now, std::vector<Token>& fired) {
  AdvanceReport report;
  std::int64_t target_ms = clamp_to_timeline(now.count());
  if (target_ms < now_ms_) {
    report.clamped_by = Ticks{now_ms_ - target_ms};
    target_ms = now_ms_;
  }
  now_ms_ = target_ms;
  while (auto next = heap_.peek()) {
    if (next->expiration > target_ms) break;
    fired.push_back(heap_.pop()->data);
    ++report.fired;
  }
  return report;
}

bool HeapCore::list_next(std::vector<Token>& out, std::size_t max) {
  out.clear();
  return heap_.root_ties(out, max);
}

std::optional<Ticks> HeapCore::next_fire() {
  auto next = heap_.peek();
  if (!next) return std::nullopt;
  return Ticks{next->expiration};
}

}  // namespace cadence::detail
