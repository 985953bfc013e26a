#include "timer_table.hpp"

#include <algorithm>
#include <cassert>
#include <exception>
#include <string>
#include <utility>

#include "guarded_call.hpp"
#include "text.hpp"

namespace cadence::detail {
namespace {

bool pauses_when_hidden(const TimerSlot& s) {
  return s.id.is_system() || s.timer->when_hidden().kind == WhenHidden::Kind::pause;
}

/// Queues the removal of a timer that ran for the last time or threw, unless one is queued
/// already: its callback's own (it removed or restarted itself), or one the set held before the
/// frame (an event handler's replace_timer()). The removal goes by id: a second one would remove
/// the successor.
void end_of_run(TimerSlot& s, ChangeSet& changes) {
  if (!s.stopped && !changes.removes_timer(s.id)) changes.remove_timer(s.id);
  s.stopped = true;
}

}  // namespace

Error no_such_timer(TimerId id) { return Error{Errc::not_found, "no timer with id " + hex(id.value) + " in this window"}; }

// ---- slots --------------------------------------------------------------------------------

std::uint32_t TimerSlots::allocate(TimerId id, Timer timer) {
  std::uint32_t i;
  if (!free_.empty()) {
    i = free_.back();
    free_.pop_back();
  } else {
    i = static_cast<std::uint32_t>(slots_.size());
    slots_.emplace_back();
  }
  TimerSlot& s = slots_[i];
  const std::uint32_t generation = s.generation;
  s = TimerSlot{};
  s.id = id;
  s.generation = generation;
  if (const auto owner = timer.owner()) owners_[owner->value].push_back(id);
  s.timer.emplace(std::move(timer));
  index_.emplace(id, i);
  return i;
}

std::optional<Timer> TimerSlots::release(std::uint32_t i) {
  TimerSlot& s = slots_[i];
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
  s.state = SlotState::free;
  s.stopped = false;
  ++s.generation;
  free_.push_back(i);
  return timer;
}

TimerSlot* TimerSlots::find(TimerId id) {
  auto it = index_.find(id);
  return it == index_.end() ? nullptr : &slots_[it->second];
}

const TimerSlot* TimerSlots::find(TimerId id) const {
  auto it = index_.find(id);
  return it == index_.end() ? nullptr : &slots_[it->second];
}

std::vector<TimerId> TimerSlots::timers_of(WidgetId owner) const {
  const auto it = owners_.find(owner.value);
  return it == owners_.end() ? std::vector<TimerId>{} : it->second;
}


// ---- the table ----------------------------------------------------------------------------

TimerTable::TimerTable(Instant origin, QueueKind kind) : due_(origin, kind) {}

// ---- membership ----------------------------------------------------------------------------

Status TimerTable::add(TimerId id, Timer timer, Instant created) {
  if (slots_.contains(id)) {
    return Error{Errc::already_exists, "a timer with id " + hex(id.value) +
                                           " already exists in this window; remove it first, use replace_timer() or TimerId::unique()"};
  }
  const Duration delay = timer.delay();
  const std::optional<Duration> timeout = timer.timeout();
  due_.advance_idle(created);
  const std::uint32_t i = slots_.allocate(id, std::move(timer));
  TimerSlot& s = slots_[i];
  s.history.created = created;
  if (timeout) s.times.expires = created + *timeout;
  s.order = ++added_;
  s.state = SlotState::scheduled;
  enqueue(i, created + delay);
  if (hidden_ && pauses_when_hidden(s)) {
    (void)pause(id, created);  // added while hidden: paused from the start, resumed when shown
    s.pause.by_hiding = true;
  }
  return {};
}

Status TimerTable::remove(TimerId id) {
  const TimerSlot* s = slots_.find(id);
  if (s == nullptr) return no_such_timer(id);
  const std::optional<Timer> doomed = free_slot(slots_.index_of(*s));
  return {};  // `doomed` goes now, with the table consistent: its destructor may call the runtime
}

std::vector<Timer> TimerTable::release_all() {
  std::vector<Timer> out;
  out.reserve(slots_.size());
  for (std::uint32_t i = 0; i < slots_.capacity(); ++i) {
    if (slots_[i].state != SlotState::free) out.push_back(std::move(*free_slot(i)));
  }
  return out;
}

std::optional<Timer> TimerTable::free_slot(std::uint32_t i) {
  TimerSlot& s = slots_[i];
  due_.cancel(i);
  if (s.state == SlotState::animating) --animating_;
  return slots_.release(i);  // bumps the generation: any AnimationRef to the slot is stale now
}

bool TimerTable::stop(TimerId id) {
  TimerSlot* s = slots_.find(id);
  if (s == nullptr || s->stopped) return false;
  s->stopped = true;
  return true;
}

bool TimerTable::has_running(TimerId id) const {
  const TimerSlot* s = slots_.find(id);
  return s != nullptr && !s->stopped;
}

Status TimerTable::pause(TimerId id, Instant at) {
  TimerSlot* s = slots_.find(id);
  if (s == nullptr) return no_such_timer(id);
  s->pause.by_hiding = false;  // the app's own pause: it stays paused when the window is shown
  if (s->state == SlotState::paused) return {};
  due_.cancel(slots_.index_of(*s));
  const bool every_frame = s->state == SlotState::animating;
  s->pause.every_frame = every_frame;
  s->pause.to_due = every_frame ? Duration{0} : std::max(Duration{0}, s->times.due - at);
  s->pause.to_expiry = s->times.expires ? std::max(Duration{0}, *s->times.expires - at) : Duration{0};
  if (every_frame) {
    --animating_;
    ++s->generation;  // drops it from the animation list; resume adds it back at the end
  }
  s->state = SlotState::paused;
  return {};
}

Status TimerTable::resume(TimerId id, Instant at) {
  TimerSlot* s = slots_.find(id);
  if (s == nullptr) return no_such_timer(id);
  s->pause.by_hiding = false;
  if (s->state != SlotState::paused) return {};
  due_.advance_idle(at);
  const std::uint32_t i = slots_.index_of(*s);
  if (s->times.expires) s->times.expires = at + s->pause.to_expiry;
  if (s->pause.every_frame) {
    start_animating(i);
    if (s->times.expires) enqueue(i, *s->times.expires);
    return {};
  }
  s->state = SlotState::scheduled;
  enqueue(i, at + s->pause.to_due);
  return {};
}

std::optional<TimerStatus> TimerTable::status(TimerId id, Instant now) const {
  const TimerSlot* s = slots_.find(id);
  if (s == nullptr) return std::nullopt;
  TimerStatus out;
  out.created = s->history.created;
  out.last_run = s->history.last_run;
  out.run_count = s->history.run_count;
  out.lateness = s->history.lateness;
  out.paused = s->state == SlotState::paused;
  out.every_frame = s->state == SlotState::animating || (out.paused && s->pause.every_frame);
  out.owner = s->timer->owner();
  const std::optional<Instant> expires = s->times.expires;
  if (out.paused) {
    // Frozen: what it had left when it was paused, to its due time or its timeout, whichever
    // is sooner (its expiry is known again once resumed; slack rounds it again then).
    out.remaining = expires ? std::min(s->pause.to_due, s->pause.to_expiry) : s->pause.to_due;
    if (expires) out.remaining_lifetime = s->pause.to_expiry;
    return out;
  }
  const auto left = [now](Instant t) { return std::max(Duration::zero(), t - now); };
  out.expires = expires;
  if (expires) out.remaining_lifetime = left(*expires);
  if (s->state == SlotState::scheduled) {
    // The instant it was filed for: its due time or its timeout, with slack (also while this
    // frame runs it).
    const Instant next = due_.exact(slots_.index_of(*s)).value_or(s->times.due);
    out.next_due = next;
    out.remaining = left(next);
  }
  return out;
}

void TimerTable::set_hidden(bool hidden, Instant at) {
  if (hidden == hidden_) return;
  hidden_ = hidden;
  due_.advance_idle(at);
  for (std::uint32_t i = 0; i < slots_.capacity(); ++i) {
    TimerSlot& s = slots_[i];
    if (s.state == SlotState::free || s.stopped) continue;
    if (s.timer->when_hidden().kind == WhenHidden::Kind::throttle) {
      // Hidden: held back a period from its last run, with no wake-up before; shown: due again
      // as its schedule says.
      if (s.state == SlotState::scheduled) {
        due_.cancel(i);
        enqueue(i, s.times.due);
      }
    } else if (hidden) {
      if (pauses_when_hidden(s) && s.state != SlotState::paused) {
        (void)pause(s.id, at);
        s.pause.by_hiding = true;
      }
    } else if (s.pause.by_hiding) {
      (void)resume(s.id, at);
    }
  }
}

// ---- the due queue ------------------------------------------------------------------------

void TimerTable::enqueue(std::uint32_t i, Instant due) {
  TimerSlot& s = slots_[i];
  s.times.due = due;
  const Instant at = queue_target(due, s.times.expires, throttle_hold(s), s.state == SlotState::animating);
  due_.schedule(i, at, s.timer->slack(), s.order);
}

void TimerTable::start_animating(std::uint32_t i) {
  TimerSlot& s = slots_[i];
  s.state = SlotState::animating;
  ++animating_;
  const AnimationRef ref{i, s.generation, s.order};
  // Mostly the newest timer, at the back; stale entries keep their order, so the list stays sorted.
  const auto at = std::upper_bound(animations_.begin(), animations_.end(), ref.order,
                                   [](std::uint64_t order, const AnimationRef& r) { return order < r.order; });
  animations_.insert(at, ref);
}

std::optional<Instant> TimerTable::next_timer_due() { return due_.next_due(); }

std::optional<Instant> TimerTable::throttle_hold(const TimerSlot& s) const {
  const WhenHidden policy = s.timer->when_hidden();
  if (!hidden_ || policy.kind != WhenHidden::Kind::throttle || !s.history.last_run) return std::nullopt;
  return *s.history.last_run + policy.period;  // saturates at the end of the timeline
}

// ---- running -------------------------------------------------------------------------------

void TimerTable::run(Instant frame_start, CallbackContext& context, ChangeSet& changes) {
  ++frame_;
  // Due now, in exact due order, ties in the order they were added. A timer due again while
  // this frame runs (a burst catching up) runs next frame.
  for (const std::uint32_t i : due_.take_due(frame_start)) {
    if (slots_[i].state == SlotState::animating) {
      run_animation(i, frame_start, context, changes);  // its timeout came
    } else {
      run_due(i, frame_start, context, changes);
    }
  }
  // Animation timers run on every frame; drop the references that went stale while doing so.
  std::size_t kept = 0;
  for (std::size_t r = 0; r < animations_.size(); ++r) {
    const AnimationRef a = animations_[r];
    const TimerSlot& s = slots_[a.slot];
    if (s.generation != a.generation || s.state != SlotState::animating) continue;
    animations_[kept++] = a;
    run_animation(a.slot, frame_start, context, changes);
  }
  animations_.resize(kept);
}

bool TimerTable::invoke(TimerSlot& s, Instant frame_start, Instant due, bool last, std::uint64_t missed,
                        CallbackContext& context, ChangeSet& changes) {
  TimerCallbackInfo info{s.id, s.timer->owner(), frame_start, due, s.history.run_count, missed, last, context};
  TimerCallbackReturn result;
  changes.count_ran(1, 0);
  std::optional<Error> threw = guarded_call("timer callback", [&] { result = s.timer->callback()(info); });
  if (threw) {
    // A run that threw is not counted: the timer is gone.
    end_of_run(s, changes);
    changes.timer_failed(s.id, std::move(threw->message));
    return false;
  }
  ++s.history.run_count;
  s.history.lateness.record(frame_start - due);
  s.history.last_run = frame_start;
  s.history.last_frame = frame_;
  changes.request(result.update);
  if (s.stopped) return false;  // it removed itself through the context
  if (result.terminate || last) {
    end_of_run(s, changes);
    return false;
  }
  return true;
}

void TimerTable::run_due(std::uint32_t i, Instant frame_start, CallbackContext& context, ChangeSet& changes) {
  TimerSlot& s = slots_[i];
  if (s.stopped || s.state != SlotState::scheduled || s.history.last_frame == frame_) return;
  const Instant due = s.times.due;
  const std::optional<Duration> interval = s.timer->interval();
  if (s.times.expires && frame_start >= *s.times.expires) {
    // The last run stands for the due times reached by its timeout, as skip counts them
    // (whatever the policy: there is no run after it to make up for them); with none since
    // the last run, it is due at the timeout itself.
    const Instant expires = *s.times.expires;
    if (interval && due <= expires) {
      const CatchUp plan = catch_up(due, *interval, expires, MissedTicks::skip);
      invoke(s, frame_start, plan.first_due, /*last=*/true, plan.missed, context, changes);
    } else {
      invoke(s, frame_start, std::min(due, expires), /*last=*/true, 0, context, changes);
    }
    return;
  }
  if (!interval) {
    // Past its delay, an animation timer runs on every frame from now on.
    if (!invoke(s, frame_start, due, false, 0, context, changes)) return;
    start_animating(i);
    if (s.times.expires) enqueue(i, *s.times.expires);
    return;
  }
  // While hidden and throttled, one run stands for every due time it skipped, whatever its
  // policy: a burst would make up for them all at once, many runs in one period, and a delay
  // would restart its grid from a run the throttle made late.
  const bool throttled = hidden_ && s.timer->when_hidden().kind == WhenHidden::Kind::throttle;
  const CatchUp plan = catch_up(due, *interval, frame_start, throttled ? MissedTicks::skip : s.timer->missed_ticks());
  for (std::uint64_t r = 0; r < plan.runs; ++r) {
    if (!invoke(s, frame_start, nth_due(plan.first_due, *interval, r), false, plan.missed, context, changes)) return;
  }
  if (plan.next <= frame_start && frame_start == Instant::max_for(frame_start.kind())) {
    // The end of the timeline: its next due time saturated to this very instant, and no frame
    // comes after it. The timer has run for the last time; it stays until removed.
    s.times.due = plan.next;
    due_.record(i, plan.next);
    return;
  }
  // Hidden and throttled, enqueue() holds the next run back a whole period from this one,
  // without a wake-up at each due time in between.
  enqueue(i, plan.next);
}

void TimerTable::run_animation(std::uint32_t i, Instant frame_start, CallbackContext& context, ChangeSet& changes) {
  TimerSlot& s = slots_[i];
  if (s.stopped || s.state != SlotState::animating || s.history.last_frame == frame_) return;
  const bool last = s.times.expires && frame_start >= *s.times.expires;
  invoke(s, frame_start, last ? *s.times.expires : frame_start, last, 0, context, changes);
}

}  // namespace cadence::detail
