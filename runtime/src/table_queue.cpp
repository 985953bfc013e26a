#include "table_queue.hpp"

namespace cadence::detail {
namespace {

// Calls f with the queue in use. An if rather than std::visit: the wheel's inline fast paths
// (schedule, cancel, advance, next_fire) stay inline, as on a concrete type.
template <class F>
decltype(auto) on(std::variant<TimerWheel, HeapTimerQueue>& queue, F&& f) {
  if (auto* wheel = std::get_if<TimerWheel>(&queue)) return f(*wheel);
  return f(*std::get_if<HeapTimerQueue>(&queue));
}

}  // namespace

TableQueue::TableQueue(QueueKind kind)
    : queue_(kind == QueueKind::heap ? decltype(queue_){std::in_place_type<HeapTimerQueue>}
                                     : decltype(queue_){std::in_place_type<TimerWheel>}) {}

QueueId TableQueue::schedule(std::int64_t tick, Token token) {
  listing_ = Listing::stale;
  return on(queue_, [&](auto& q) { return q.schedule(Ticks{tick - now_}, token); });
}

void TableQueue::cancel(QueueId id) {
  if (on(queue_, [&](auto& q) { return q.cancel(id); })) listing_ = Listing::stale;
}

const std::vector<Token>& TableQueue::advance(std::int64_t tick) {
  fired_.clear();
  now_ = on(queue_, [&](auto& q) {
    q.advance(Ticks{tick}, fired_);
    return q.now().count();
  });
  // Time passing changes the next tick's timers only by firing them. A tick that could not be
  // listed may be listable once the wheel has moved its timers down to level 0, which it does
  // before they are due; the wheel said from when.
  if (!fired_.empty() || (listing_ == Listing::unlisted && now_ >= ask_again_)) {
    listing_ = Listing::stale;
  }
  return fired_;
}

std::optional<std::int64_t> TableQueue::next_tick() {
  const std::optional<Ticks> next = on(queue_, [](auto& q) { return q.next_fire(); });
  if (!next) return std::nullopt;
  return next->count();
}

const std::vector<Token>* TableQueue::next_tokens() {
  if (listing_ == Listing::stale) {
    const Peek peek = on(queue_, [&](auto& q) { return q.peek_next(next_, kListMax); });
    listing_ = peek.listed ? Listing::listed : Listing::unlisted;
    ask_again_ = peek.ask_again;
  }
  return listing_ == Listing::listed ? &next_ : nullptr;
}

}  // namespace cadence::detail
