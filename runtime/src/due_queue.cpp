#include "due_queue.hpp"

#include <algorithm>
#include <cassert>

namespace cadence::detail {
namespace {

// Calls f with the queue in use. An if rather than std::visit: the wheel's inline fast paths
// (schedule, cancel, advance, next_fire) stay inline, as on a concrete type.
template <class F>
decltype(auto) on(std::variant<WheelCore, HeapCore>& queue, F&& f) {
  if (auto* wheel = std::get_if<WheelCore>(&queue)) return f(*wheel);
  return f(*std::get_if<HeapCore>(&queue));
}

}  // namespace

// Emitted here, and so exported by a DLL (cadence/export.hpp); elsewhere the inline
// definition is enough, and this one deprecated.
#if defined(_WIN32)
constexpr std::size_t TickQueue::kListMax;
#endif

TickQueue::TickQueue(QueueKind kind)
    : queue_(kind == QueueKind::heap ? decltype(queue_){std::in_place_type<HeapCore>}
                                     : decltype(queue_){std::in_place_type<WheelCore>}) {}

QueueId TickQueue::schedule(std::int64_t tick, Token token) {
  listing_ = Listing::stale;
  return on(queue_, [&](auto& q) { return q.schedule(Ticks{tick - now_}, token); });
}

void TickQueue::cancel(QueueId id) {
  if (on(queue_, [&](auto& q) { return q.cancel(id); })) listing_ = Listing::stale;
}

const std::vector<Token>& TickQueue::advance(std::int64_t tick) {
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

std::optional<std::int64_t> TickQueue::next_tick() {
  const std::optional<Ticks> next = on(queue_, [](auto& q) { return q.next_fire(); });
  if (!next) return std::nullopt;
  return next->count();
}

const std::vector<Token>* TickQueue::next_tokens() {
  if (listing_ == Listing::stale) {
    if (auto* wheel = std::get_if<WheelCore>(&queue_)) {
      const WheelCore::Listing found = wheel->list_next(next_, kListMax);
      listing_ = found.listed ? Listing::listed : Listing::unlisted;
      ask_again_ = found.ask_again;
    } else {
      // The heap lists any tick it can: only a change helps one it cannot.
      listing_ = std::get_if<HeapCore>(&queue_)->list_next(next_, kListMax) ? Listing::listed : Listing::unlisted;
      ask_again_ = kMaxTick.count();
    }
  }
  return listing_ == Listing::listed ? &next_ : nullptr;
}

// ---- DueQueue ------------------------------------------------------------------------------

DueQueue::DueQueue(Instant origin, QueueKind kind) : timeline_(origin), queue_(kind) {}

void DueQueue::schedule(Slot slot, Instant at, Duration slack, std::uint64_t order) {
  if (slot >= entries_.size()) entries_.resize(slot + 1);
  const Placement p = place(timeline_, at, slack);
  Entry& e = entries_[slot];
  assert(e.queued.value == 0 && !e.held);
  e.exact = p.exact;
  e.known = true;
  e.order = order;
  if (p.tick <= queue_.now()) {
    hold(slot);  // the queue fires no earlier than its next millisecond: wait here for `exact`
  } else {
    e.queued = queue_.schedule(p.tick, slot);
  }
}

void DueQueue::cancel(Slot slot) {
  if (slot >= entries_.size()) return;
  Entry& e = entries_[slot];
  if (e.queued.value != 0) queue_.cancel(e.queued);
  e.queued = {};
  if (e.held) {
    *std::find(held_.begin(), held_.end(), slot) = held_.back();
    held_.pop_back();
    e.held = false;
  }
}

std::optional<Instant> DueQueue::exact(Slot slot) const {
  if (slot >= entries_.size() || !entries_[slot].known) return std::nullopt;
  return entries_[slot].exact;
}

void DueQueue::record(Slot slot, Instant at) {
  if (slot >= entries_.size()) entries_.resize(slot + 1);
  Entry& e = entries_[slot];
  assert(e.queued.value == 0 && !e.held);
  e.exact = at;
  e.known = true;
}

void DueQueue::hold(Slot slot) {
  entries_[slot].held = true;
  held_.push_back(slot);
}

bool DueQueue::earlier(Slot a, Slot b) const {
  const Entry& x = entries_[a];
  const Entry& y = entries_[b];
  return x.exact < y.exact || (x.exact == y.exact && x.order < y.order);
}

const std::vector<DueQueue::Slot>& DueQueue::take_due(Instant now) {
  // Due now: the slots of the short list whose exact instant has come, and those the queue
  // fires up to now's millisecond whose exact instant has come; the others the queue fires
  // wait in the short list.
  due_.clear();
  std::erase_if(held_, [&](Slot slot) {
    Entry& e = entries_[slot];
    if (e.exact > now) return false;
    e.held = false;
    due_.push_back(slot);
    return true;
  });
  if (const std::int64_t tick = std::max<std::int64_t>(timeline_.floor(now), 0); tick > queue_.now()) {
    for (const Token token : queue_.advance(tick)) {
      const auto slot = static_cast<Slot>(token);
      entries_[slot].queued = {};
      if (entries_[slot].exact > now) {
        hold(slot);
      } else {
        due_.push_back(slot);
      }
    }
  }
  // `order` is unique, so any sort gives the same result; the common handful is sorted already.
  const auto by_due = [this](Slot a, Slot b) { return earlier(a, b); };
  if (!std::is_sorted(due_.begin(), due_.end(), by_due)) std::sort(due_.begin(), due_.end(), by_due);
  return due_;
}

std::optional<Instant> DueQueue::next_due() {
  std::optional<Instant> best;
  const auto consider = [&best](Instant t) {
    if (!best || t < *best) best = t;
  };
  for (const Slot slot : held_) consider(entries_[slot].exact);
  if (const std::optional<std::int64_t> tick = queue_.next_tick(); tick && *tick <= timeline_.last_tick()) {
    // The earliest exact instant among the slots of the queue's next millisecond; when the
    // queue cannot list them, the start of that millisecond.
    const std::vector<Token>* tokens = queue_.next_tokens();
    if (tokens == nullptr || tokens->empty()) {
      consider(timeline_.start_of(*tick));
    } else {
      for (const Token t : *tokens) consider(entries_[static_cast<Slot>(t)].exact);
    }
  }
  return best;
}

void DueQueue::advance_idle(Instant now) {
  // To the millisecond before now's: a slot filed at now itself (no delay, or resumed with no
  // time left) is then still ahead of the queue and waits in it, not in the short list.
  const std::int64_t tick = std::max<std::int64_t>(timeline_.floor(now), 0) - 1;
  if (tick <= queue_.now()) return;
  // Only over time in which nothing comes due: taking slots out is a frame's work.
  if (const std::optional<std::int64_t> next = queue_.next_tick(); next && *next <= tick) return;
  [[maybe_unused]] const std::vector<Token>& fired = queue_.advance(tick);
  assert(fired.empty());
}

}  // namespace cadence::detail
