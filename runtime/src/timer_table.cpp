#include "timer_table.hpp"

#include <algorithm>
#include <bit>
#include <exception>
#include <string>

#include "cadence/heap_timer_queue.hpp"
#include "cadence/timer_wheel.hpp"
#include "text.hpp"

namespace cadence::detail {
namespace {

constexpr Duration::rep kNsPerTick = 1'000'000;

std::int64_t floor_div(std::int64_t a, std::int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }
std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return -floor_div(-a, b); }

Duration::rep saturating_mul(Duration::rep a, std::uint64_t b) {
  Duration::rep out = 0;
  if (b > static_cast<std::uint64_t>(Duration::max().count()) ||
      __builtin_mul_overflow(a, static_cast<Duration::rep>(b), &out)) {
    return Duration::max().count();
  }
  return out;
}

std::unique_ptr<TimerQueue> make_queue(QueueKind kind) {
  if (kind == QueueKind::heap) return std::make_unique<HeapTimerQueue>();
  return std::make_unique<TimerWheel>();
}

Status not_found(TimerId id) {
  return Error{Errc::not_found, "no timer with id " + hex(id.value) + " in this window"};
}

}  // namespace

TimerTable::TimerTable(Instant origin, QueueKind kind)
    : origin_(origin), last_tick_(tick_floor(Instant::max_for(origin.kind()))), queue_(make_queue(kind)) {}

std::int64_t TimerTable::tick_floor(Instant t) const { return floor_div((t - origin_).count(), kNsPerTick); }
std::int64_t TimerTable::tick_ceil(Instant t) const { return ceil_div((t - origin_).count(), kNsPerTick); }
Instant TimerTable::instant_of(std::int64_t tick) const {
  constexpr std::int64_t kMaxTicks = Duration::max().count() / kNsPerTick;
  return origin_ + Duration{std::min(tick, kMaxTicks) * kNsPerTick};
}

TimerTable::Slot* TimerTable::find(TimerId id) {
  auto it = index_.find(id);
  return it == index_.end() ? nullptr : &slots_[it->second];
}
const TimerTable::Slot* TimerTable::find(TimerId id) const {
  auto it = index_.find(id);
  return it == index_.end() ? nullptr : &slots_[it->second];
}

// ---- membership ----------------------------------------------------------------------------

Status TimerTable::add(TimerId id, Timer timer, Instant created) {
  if (index_.contains(id)) {
    return Error{Errc::already_exists, "a timer with id " + hex(id.value) +
                                           " already exists in this window; remove it first or use TimerId::unique()"};
  }
  std::uint32_t i;
  if (!free_.empty()) {
    i = free_.back();
    free_.pop_back();
  } else {
    i = static_cast<std::uint32_t>(slots_.size());
    slots_.emplace_back();
  }
  Slot& s = slots_[i];
  s.id = id;
  s.created = created;
  s.expires = timer.timeout() ? std::optional<Instant>(created + *timer.timeout()) : std::nullopt;
  s.last_run.reset();
  s.run_count = 0;
  s.queued = {};
  s.last_frame = 0;
  s.order = ++added_;
  s.state = State::scheduled;
  s.stopped = false;
  s.lateness = {};
  const Duration delay = timer.delay();
  if (const auto owner = timer.owner()) owners_[owner->value].push_back(id);
  s.timer.emplace(std::move(timer));
  index_.emplace(id, i);
  enqueue(i, created + delay);
  if (hidden_ && (id.is_system() || s.timer->when_hidden().kind == WhenHidden::Kind::pause)) {
    (void)pause(id, created);  // added while hidden: paused from the start, resumed when shown
    slots_[i].hidden_paused = true;
  }
  return {};
}

Status TimerTable::remove(TimerId id) {
  auto it = index_.find(id);
  if (it == index_.end()) return not_found(id);
  const std::optional<Timer> doomed = free_slot(it->second);
  return {};  // `doomed` goes now, with the table consistent: its destructor may call the runtime
}

std::optional<Timer> TimerTable::free_slot(std::uint32_t i) {
  Slot& s = slots_[i];
  dequeue(s);
  if (s.state == State::animating) --animating_;
  index_.erase(s.id);
  if (const auto owner = s.timer->owner()) {
    auto it = owners_.find(owner->value);
    std::vector<TimerId>& ids = it->second;
    *std::find(ids.begin(), ids.end(), s.id) = ids.back();
    ids.pop_back();
    if (ids.empty()) owners_.erase(it);
  }
  std::optional<Timer> timer = std::move(s.timer);
  s.timer.reset();
  s.state = State::free;
  s.stopped = false;
  ++s.generation;  // any AnimationRef to this slot is now stale
  free_.push_back(i);
  return timer;
}

bool TimerTable::stop(TimerId id) {
  Slot* s = find(id);
  if (s == nullptr || s->stopped) return false;
  s->stopped = true;
  return true;
}

bool TimerTable::has_running(TimerId id) const {
  const Slot* s = find(id);
  return s != nullptr && !s->stopped;
}

Status TimerTable::pause(TimerId id, Instant at) {
  Slot* s = find(id);
  if (s == nullptr) return not_found(id);
  s->hidden_paused = false;  // the app's own pause: it stays paused when the window is shown
  if (s->state == State::paused) return {};
  dequeue(*s);
  s->paused_every_frame = s->state == State::animating;
  s->left_to_due = s->paused_every_frame ? Duration{0} : std::max(Duration{0}, s->due - at);
  s->left_to_expiry = s->expires ? std::max(Duration{0}, *s->expires - at) : Duration{0};
  if (s->paused_every_frame) {
    --animating_;
    ++s->generation;  // drops it from the animation list; resume adds it back at the end
  }
  s->state = State::paused;
  return {};
}

Status TimerTable::resume(TimerId id, Instant at) {
  Slot* s = find(id);
  if (s == nullptr) return not_found(id);
  s->hidden_paused = false;
  if (s->state != State::paused) return {};
  const auto i = static_cast<std::uint32_t>(s - slots_.data());
  if (s->expires) s->expires = at + s->left_to_expiry;
  if (s->paused_every_frame) {
    start_animating(i);
    if (s->expires) enqueue(i, *s->expires);
    return {};
  }
  s->state = State::scheduled;
  enqueue(i, at + s->left_to_due);
  return {};
}

std::optional<TimerStatus> TimerTable::status(TimerId id, Instant now) const {
  const Slot* s = find(id);
  if (s == nullptr) return std::nullopt;
  TimerStatus out;
  out.created = s->created;
  out.last_run = s->last_run;
  out.run_count = s->run_count;
  out.paused = s->state == State::paused;
  out.every_frame = s->state == State::animating || (out.paused && s->paused_every_frame);
  out.owner = s->timer->owner();
  out.lateness = s->lateness;
  const auto left = [now](Instant t) { return std::max(Duration::zero(), t - now); };
  if (out.paused) {
    // Frozen: what it had left when it was paused, to its due time or its timeout, whichever
    // is sooner (its expiry is known again once resumed; slack rounds it again then).
    out.remaining = s->expires ? std::min(s->left_to_due, s->left_to_expiry) : s->left_to_due;
    if (s->expires) out.remaining_lifetime = s->left_to_expiry;
    return out;
  }
  out.expires = s->expires;
  if (s->expires) out.remaining_lifetime = left(*s->expires);
  if (s->state == State::scheduled) {
    out.next_due = s->exact;  // the due time or the timeout, with slack
    out.remaining = left(s->exact);
  }
  return out;
}

std::vector<TimerId> TimerTable::timers_of(WidgetId owner) const {
  const auto it = owners_.find(owner.value);
  return it == owners_.end() ? std::vector<TimerId>{} : it->second;
}

// ---- the queue -----------------------------------------------------------------------------

void TimerTable::set_hidden(bool hidden, Instant at) {
  if (hidden == hidden_) return;
  hidden_ = hidden;
  for (std::uint32_t i = 0; i < slots_.size(); ++i) {
    Slot& s = slots_[i];
    if (s.state == State::free || s.stopped) continue;
    const WhenHidden policy = s.timer->when_hidden();
    if (hidden) {
      if ((s.id.is_system() || policy.kind == WhenHidden::Kind::pause) && s.state != State::paused) {
        (void)pause(s.id, at);
        s.hidden_paused = true;
      }
    } else if (s.hidden_paused) {
      (void)resume(s.id, at);
    } else if (policy.kind == WhenHidden::Kind::throttle && s.state == State::scheduled) {
      // Held back by the throttle: due again as its schedule says.
      dequeue(s);
      enqueue(i, s.due);
    }
  }
}

std::optional<Instant> TimerTable::throttled_until(const Slot& s, Instant frame_start) const {
  const WhenHidden policy = s.timer->when_hidden();
  if (!hidden_ || policy.kind != WhenHidden::Kind::throttle || !s.last_run) return std::nullopt;
  if (s.expires && frame_start >= *s.expires) return std::nullopt;  // its last run is not held back
  const Instant next = *s.last_run + policy.period;  // saturates at the end of the timeline
  if (frame_start >= next) return std::nullopt;
  return next;
}

void TimerTable::enqueue(std::uint32_t i, Instant due, std::optional<Instant> not_before) {
  Slot& s = slots_[i];
  s.due = due;
  // An animation timer past its delay is queued only for its expiry.
  Instant at = s.state == State::animating ? *s.expires : due;
  if (not_before && *not_before > at) at = *not_before;
  if (s.expires && *s.expires < at) at = *s.expires;
  std::int64_t tick = 0;
  const std::int64_t slack_ms = s.timer->slack().count() / kNsPerTick;
  if (slack_ms >= 1) {
    // Run at the next multiple of the largest power of two <= slack: timers with slack gather
    // on shared instants, and none runs more than `slack` late.
    const auto grid = static_cast<std::int64_t>(std::bit_floor(static_cast<std::uint64_t>(slack_ms)));
    // At the end of the timeline the grid would lie past it: the last tick a frame can reach,
    // and never before the due time.
    tick = std::min(ceil_div(std::max<std::int64_t>(tick_ceil(at), 0), grid) * grid, last_tick_);
    at = later_of(at, instant_of(tick));
  } else {
    // The queue fires a whole millisecond at once; run() checks the exact instant.
    tick = std::max<std::int64_t>(tick_floor(at), 0);
  }
  s.exact = at;
  if (tick <= queue_->now().count()) {
    // Due within the queue's current millisecond, or already due: the queue would wait a tick,
    // so it waits in the short list for its exact instant instead.
    hold(i);
    return;
  }
  s.queued = queue_->schedule(Ticks{tick - queue_->now().count()}, i);
  ++queue_version_;
}

TimerTable::HeldRef TimerTable::mark_held(std::uint32_t i) {
  Slot& s = slots_[i];
  s.hold = ++holds_;
  return HeldRef{i, s.hold};
}

void TimerTable::hold(std::uint32_t i) { due_now_.push_back(mark_held(i)); }

void TimerTable::start_animating(std::uint32_t i) {
  Slot& s = slots_[i];
  s.state = State::animating;
  ++animating_;
  const AnimationRef ref{i, s.generation, s.order};
  // Mostly the newest timer, at the back; stale entries keep their order, so the list stays sorted.
  const auto at = std::upper_bound(animations_.begin(), animations_.end(), ref.order,
                                   [](std::uint64_t order, const AnimationRef& r) { return order < r.order; });
  animations_.insert(at, ref);
}

void TimerTable::dequeue(Slot& s) {
  if (s.queued.value != 0) {
    queue_->cancel(s.queued);
    ++queue_version_;
  }
  s.queued = {};
  s.hold = 0;
}

std::optional<Instant> TimerTable::next_due(Duration frame_interval, std::optional<Instant> last_frame) {
  std::optional<Instant> best;
  // The short list holds what is due within the queue's current millisecond or overdue (and
  // entries gone stale since the last frame): a handful, walked here.
  for (const HeldRef ref : due_now_) {
    if (held(ref) && (!best || slots_[ref.slot].exact < *best)) best = slots_[ref.slot].exact;
  }
  if (auto at = queue_next_exact(); at && (!best || *at < *best)) best = at;
  if (animating_ > 0) {
    const Instant frame = (last_frame ? *last_frame : origin_) + frame_interval;
    if (!best || frame < *best) best = frame;
  }
  return best;
}

std::optional<Instant> TimerTable::queue_next_exact() {
  const std::optional<Ticks> tick = queue_->next_fire();
  if (!tick || tick->count() > last_tick_) return std::nullopt;  // nothing a frame can reach
  // Cached while nothing was scheduled, cancelled or fired, and the queue's next tick is the
  // same: the timers due at that tick are then the same. A fallback is retried once the queue
  // has moved within a second of that tick, since moving may have brought the tick's timers
  // down to where they can be listed; further out, the start of the millisecond will do.
  const std::int64_t now = queue_->now().count();
  if (next_exact_.version == queue_version_ && next_exact_.tick == tick->count() &&
      (next_exact_.listed || next_exact_.queue_now == now || tick->count() - now > kRetryTicks)) {
    return next_exact_.at;
  }
  // The queue works in whole milliseconds; the exact instant is the earliest of its timers in
  // that millisecond. When the queue cannot list them cheaply, wake at the start of the
  // millisecond: never late, and at worst one frame that finds nothing due yet.
  Instant at = instant_of(tick->count());
  peek_scratch_.clear();
  const bool listed = queue_->peek_next(peek_scratch_, kPeekMax) && !peek_scratch_.empty();
  if (listed) {
    at = slots_[static_cast<std::uint32_t>(peek_scratch_.front())].exact;
    for (Token t : peek_scratch_) at = std::min(at, slots_[static_cast<std::uint32_t>(t)].exact);
  }
  next_exact_ = NextExact{queue_version_, tick->count(), now, listed, at};
  return at;
}

// ---- running -------------------------------------------------------------------------------

void TimerTable::run(Instant frame_start, CallbackContext& context, ChangeSet& changes) {
  ++frame_;
  // The timers due now are those of the short list whose exact instant has come, and those the
  // queue fires up to frame_start's millisecond whose exact instant has come; the rest of both
  // wait in the short list. They run together in exact due order (ties: short list first, in
  // the order held; then the queue's order, which is schedule order). Timers that become due
  // again while this frame runs (a burst catching up) go to the next frame's list.
  fired_.clear();
  const std::int64_t tick = std::max<std::int64_t>(tick_floor(frame_start), 0);
  if (tick > queue_->now().count()) {
    queue_->advance(Ticks{tick}, fired_);
    if (!fired_.empty()) ++queue_version_;
  }
  due_scratch_.clear();
  due_scratch_.swap(due_now_);
  for (Token token : fired_) {
    const auto i = static_cast<std::uint32_t>(token);
    slots_[i].queued = {};
    due_scratch_.push_back(mark_held(i));
  }
  std::erase_if(due_scratch_, [&](HeldRef ref) {
    if (!held(ref)) return true;  // run, paused or removed since it was held
    if (slots_[ref.slot].exact > frame_start) {
      due_now_.push_back(ref);  // still ahead: keep waiting
      return true;
    }
    return false;
  });
  sort_by_exact(due_scratch_);
  for (const HeldRef ref : due_scratch_) {
    if (!held(ref)) continue;  // removed or paused by an earlier callback of this frame
    slots_[ref.slot].hold = 0;
    run_one(ref.slot, frame_start, context, changes);
  }
  // Animation timers run on every frame; drop the references that went stale while doing so.
  std::size_t kept = 0;
  for (std::size_t r = 0; r < animations_.size(); ++r) {
    const AnimationRef a = animations_[r];
    const Slot& s = slots_[a.slot];
    if (s.generation != a.generation || s.state != State::animating) continue;
    animations_[kept++] = a;
    run_animation(a.slot, frame_start, context, changes);
  }
  animations_.resize(kept);
}

void TimerTable::sort_by_exact(std::vector<HeldRef>& due) const {
  const auto earlier = [&](HeldRef a, HeldRef b) {
    const Slot& x = slots_[a.slot];
    const Slot& y = slots_[b.slot];
    return x.exact < y.exact || (x.exact == y.exact && x.order < y.order);
  };
  if (std::is_sorted(due.begin(), due.end(), earlier)) return;  // the common case: O(k), no allocation
  if (due.size() <= 16) {
    // Insertion sort: stable, and no buffer to allocate for the handful a frame usually has.
    for (std::size_t a = 1; a < due.size(); ++a) {
      const HeldRef x = due[a];
      std::size_t b = a;
      for (; b > 0 && earlier(x, due[b - 1]); --b) due[b] = due[b - 1];
      due[b] = x;
    }
    return;
  }
  std::stable_sort(due.begin(), due.end(), earlier);
}

void TimerTable::fail(Slot& s, std::string message, ChangeSet& changes) {
  // A callback that removed itself (or restarted: removed, then added again under its id) has
  // its removal queued already; removing by id again would remove its successor.
  if (!s.stopped) changes.remove_timer(s.id);
  s.stopped = true;
  changes.timer_failed(s.id, std::move(message));
}

bool TimerTable::invoke(Slot& s, Instant frame_start, Instant due, bool last, std::uint64_t missed,
                        CallbackContext& context, ChangeSet& changes) {
  TimerCallbackInfo info{s.id, s.timer->owner(), frame_start, due, s.run_count, missed, last, context};
  TimerCallbackReturn result;
  changes.count_ran(1, 0);
  try {
    result = s.timer->callback()(info);
  } catch (const std::exception& e) {
    fail(s, std::string("timer callback threw: ") + e.what(), changes);
    return false;
  } catch (...) {
    fail(s, "timer callback threw something that is not a std::exception", changes);
    return false;
  }
  ++s.run_count;  // a run that threw is not counted: the timer is gone
  s.lateness.record(frame_start - due);
  s.last_run = frame_start;
  s.last_frame = frame_;
  changes.request(result.update);
  if (s.stopped) return false;  // it removed itself through the context
  if (result.terminate || last) {
    changes.remove_timer(s.id);
    s.stopped = true;
    return false;
  }
  return true;
}

void TimerTable::run_due(std::uint32_t i, Instant frame_start, CallbackContext& context, ChangeSet& changes) {
  Slot& s = slots_[i];
  if (s.stopped || s.state != State::scheduled || s.last_frame == frame_) return;
  if (s.expires && frame_start >= *s.expires) {
    invoke(s, frame_start, std::min(s.due, *s.expires), /*last=*/true, 0, context, changes);
    return;
  }
  if (const std::optional<Instant> until = throttled_until(s, frame_start)) {
    enqueue(i, s.due, until);  // hidden: its due time stays, so the run after counts what it missed
    return;
  }
  const std::optional<Duration> interval = s.timer->interval();
  if (!interval) {
    // Past its delay, an animation timer runs on every frame from now on.
    if (!invoke(s, frame_start, s.due, false, 0, context, changes)) return;
    start_animating(i);
    if (s.expires) enqueue(i, *s.expires);
    return;
  }
  // Due times reached by now: s.due, s.due + interval, ... <= frame_start.
  const Duration late = frame_start - s.due;
  const std::uint64_t reached = 1 + static_cast<std::uint64_t>(late.count() / interval->count());
  Instant next;
  // While hidden and throttled, one run stands for every due time it skipped, whatever its
  // policy: a burst would make up for them all at once, many runs in one period.
  const WhenHidden hidden_policy = s.timer->when_hidden();
  const bool throttled = hidden_ && hidden_policy.kind == WhenHidden::Kind::throttle;
  const MissedTicks missed_policy =
      throttled && s.timer->missed_ticks() == MissedTicks::burst ? MissedTicks::skip : s.timer->missed_ticks();
  switch (missed_policy) {
    case MissedTicks::skip:  // this run stands for the last due time reached; the rest are skipped
      if (!invoke(s, frame_start, s.due + Duration{saturating_mul(interval->count(), reached - 1)}, false,
                  reached - 1, context, changes)) {
        return;
      }
      next = s.due + Duration{saturating_mul(interval->count(), reached)};
      break;
    case MissedTicks::delay:
      if (!invoke(s, frame_start, s.due, false, 0, context, changes)) return;
      next = frame_start + *interval;
      break;
    case MissedTicks::burst: {
      const std::uint64_t runs = std::min<std::uint64_t>(reached, Timer::kMaxBurstRuns);
      for (std::uint64_t r = 0; r < runs; ++r) {
        const Instant due = s.due + Duration{saturating_mul(interval->count(), r)};
        if (!invoke(s, frame_start, due, false, 0, context, changes)) return;
      }
      next = s.due + Duration{saturating_mul(interval->count(), runs)};
      break;
    }
  }
  if (next <= frame_start && frame_start == Instant::max_for(frame_start.kind())) {
    // The end of the timeline: its next due time saturated to this very instant, and no frame
    // comes after it. The timer has run for the last time; it stays until removed.
    s.due = next;
    s.exact = next;
    return;
  }
  // Hidden and throttled: the next run waits a whole period from this one, without a wake-up
  // at each due time in between.
  enqueue(i, next, throttled ? std::optional<Instant>(frame_start + hidden_policy.period) : std::nullopt);
}

void TimerTable::run_one(std::uint32_t i, Instant frame_start, CallbackContext& context, ChangeSet& changes) {
  if (slots_[i].state == State::animating) {
    run_animation(i, frame_start, context, changes);  // its timeout came
  } else {
    run_due(i, frame_start, context, changes);
  }
}

void TimerTable::run_animation(std::uint32_t i, Instant frame_start, CallbackContext& context, ChangeSet& changes) {
  Slot& s = slots_[i];
  if (s.stopped || s.state != State::animating || s.last_frame == frame_) return;
  const bool last = s.expires && frame_start >= *s.expires;
  invoke(s, frame_start, last ? *s.expires : frame_start, last, 0, context, changes);
}

}  // namespace cadence::detail
