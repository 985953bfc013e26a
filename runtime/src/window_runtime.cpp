// WindowRuntime: the frame (timers, then the workers' news), change-sets and how they are
// applied, and when the loop should wake next. What app code changes goes through Controls
// (controls.cpp); the state both share is WindowRuntime::Impl (window_runtime_impl.hpp).
#include <cstdlib>

#include "window_runtime_impl.hpp"

namespace cadence {
namespace detail {

Instant grid_after(Instant origin, Duration interval, Instant t) {
  if (t < origin) return origin;
  const Duration::rep whole = (t - origin).count() / interval.count();  // grid steps up to t
  if (whole >= Duration::max().count() / interval.count()) return origin + Duration::max();
  return origin + Duration{(whole + 1) * interval.count()};
}

Status check_new_timer(TimerId id, const Timer& timer, bool system) {
  if (!id.is_valid()) {
    return Error{Errc::invalid_argument, "timer id 0 names nothing; use TimerId::unique() for app timers"};
  }
  if (!system && id.is_system()) {
    return Error{Errc::invalid_argument, "timer id " + hex(id.value) +
                                             " is reserved for system timers (0x1-0xff); app timers use "
                                             "TimerId::unique() (ids from 0x100)"};
  }
  if (system && !id.is_system()) {
    return Error{Errc::invalid_argument, "timer id " + hex(id.value) +
                                             " is not a system timer id (0x1-0xff); use add_timer() for app timers"};
  }
  if (system && timer.when_hidden() != WhenHidden{}) {
    return Error{Errc::invalid_argument, "system timer " + hex(id.value) +
                                             " has a when-hidden policy; system timers always pause while their "
                                             "window is hidden, the policy is for app timers"};
  }
  return timer.validate();
}

Status check_new_thread(ThreadId id, Thread& thread) {
  if (!id.is_valid() || id.is_system()) {
    return Error{Errc::invalid_argument, "thread id " + hex(id.value) +
                                             " is reserved (0-4); use ThreadId::unique() (ids from 5)"};
  }
  if (!ThreadTableAccess::body(thread)) {
    return Error{Errc::invalid_argument, "the Thread for id " + hex(id.value) +
                                             " was moved from and has no worker; start the Thread it was moved to, "
                                             "or make a new one with Thread::create()"};
  }
  return {};
}

}  // namespace detail

namespace {

/// The report entry for a change that failed: its timer, or its thread.
Failure failure_of(const Change& change, Error error) {
  return std::visit(
      [&](const auto& c) {
        Failure f{TimerId{}, std::move(error)};
        if constexpr (requires { { c.id } -> std::same_as<const TimerId&>; }) f.timer = c.id;
        if constexpr (requires { { c.id } -> std::same_as<const ThreadId&>; }) f.thread = c.id;
        return f;
      },
      change);
}

}  // namespace

// A change-set's changes count from when it is applied; the running frame's is sure to be, so a
// removal recorded there stops its timer at once (it does not run later in that frame), while one
// recorded in a set of the app's own does nothing until that set is applied: a set dropped
// unapplied leaves no trace. Everything else is checked now, against the tables and the set (and
// what runs ahead of it), so the caller learns of a mistake at the call; a timer or thread
// recorded here is marked checked, and carrying out checks only those an app recorded by hand.

Status WindowRuntime::Impl::act_on(AddTimer& add, ChangeSet* set, Instant at) {
  if (!add.checked) {
    if (Status s = detail::check_new_timer(add.id, add.timer, add.system); !s) return s;
  }
  if (set == nullptr) return timers.add(add.id, std::move(add.timer), at);
  if (live(add.id, *set) || adds(add.id, *set)) {
    return Error{Errc::already_exists, "a timer with id " + detail::hex(add.id.value) +
                                           " already exists in this window (or is being added in this frame); "
                                           "remove it first, use replace_timer() or TimerId::unique()"};
  }
  set->add_timer(add.id, std::move(add.timer), add.system);
  WindowRuntime::mark_checked(*set);
  return {};
}

Status WindowRuntime::Impl::act_on(RemoveTimer& remove, ChangeSet* set, Instant) {
  if (set == nullptr) return timers.remove(remove.id);
  const bool stopped_now = set == calls.running && timers.stop(remove.id);
  if (!stopped_now && !live(remove.id, *set) && !adds(remove.id, *set)) return detail::no_such_timer(remove.id);
  set->remove_timer(remove.id);
  return {};
}

Status WindowRuntime::Impl::act_on(PauseTimer& pause, ChangeSet* set, Instant at) {
  if (set == nullptr) return timers.pause(pause.id, at);
  if (!timers.has_running(pause.id) && !adds(pause.id, *set)) return detail::no_such_timer(pause.id);
  set->pause_timer(pause.id);
  return {};
}

Status WindowRuntime::Impl::act_on(ResumeTimer& resume, ChangeSet* set, Instant at) {
  if (set == nullptr) return timers.resume(resume.id, at);
  if (!timers.has_running(resume.id) && !adds(resume.id, *set)) return detail::no_such_timer(resume.id);
  set->resume_timer(resume.id);
  return {};
}

Status WindowRuntime::Impl::act_on(StartThread& start, ChangeSet* set, Instant) {
  if (!start.checked) {
    if (Status s = detail::check_new_thread(start.id, start.thread); !s) return s;
  }
  if (set == nullptr) {
    if (Status s = threads.start(start.id, std::move(start.thread)); !s) return s;
    for (Payload& m : start.messages) (void)threads.send(start.id, std::move(m));
    if (start.stop) (void)threads.stop(start.id);
    return {};
  }
  if ((threads.contains(start.id) && !threads.finishing(start.id)) || starts(start.id, *set)) {
    return Error{Errc::already_exists, "a thread with id " + detail::hex(start.id.value) +
                                           " already runs in this window (or starts in this frame)"};
  }
  set->start_thread(start.id, std::move(start.thread));
  WindowRuntime::mark_checked(*set);
  return {};
}


// ---- WindowRuntime -------------------------------------------------------------------------

WindowRuntime::WindowRuntime(TimeSource source) : WindowRuntime(std::move(source), Options{}) {}

WindowRuntime::WindowRuntime(TimeSource source, Options options)
    : Controls(*this, nullptr), impl_(std::make_unique<Impl>(std::move(source), options)) {
  if (impl_->options.frame_interval <= Duration::zero()) impl_->options.frame_interval = Options{}.frame_interval;
}

WindowRuntime::~WindowRuntime() {
  Impl& m = *impl_;
  if (!m.on_ui_thread()) {
    // Its frames, timers and workers belong to the UI thread, which may be using them now.
    std::fputs("cadence: a WindowRuntime was destroyed on a thread other than the one that made it; destroy "
               "it on its UI thread\n",
               stderr);
    std::abort();
  }
  if (m.calls.busy > 0 || m.calls.closing) {  // a running frame holds `busy` too
    // The call on the stack would go on in freed memory: stop here, saying why.
    std::fputs("cadence: a WindowRuntime was destroyed from inside one of its own calls (a timer callback, a "
               "write-back, or a destructor that apply(), remove_timer() or the runtime's own destruction set "
               "off); destroy it after the frame (for a window: request_close())\n",
               stderr);
    std::abort();
  }
  // From here every call that would change the runtime is refused with `closed`. The workers are
  // stopped and joined first; then both tables hand over everything they hold, and only then are
  // the threads' data and the timers' callbacks destroyed, so that what their destructors call
  // finds an empty, consistent runtime.
  m.calls.closing = true;
  m.threads.shutdown();
  auto doomed_threads = m.threads.release();
  std::vector<Timer> doomed_timers = m.timers.release_all();
  {
    // Each thread still here gets its one outcome, abandoned, after what its worker sent; what
    // those callbacks ask of the runtime is refused (closed) and their change-set dropped.
    ChangeSet dropped;
    CallbackContext context(*this, dropped, m.latest);
    detail::ThreadTable::abandon(doomed_threads, context, dropped);
  }
  doomed_threads.clear();  // the threads' data first, then (at the end of scope) the timers
}

Instant WindowRuntime::now() const { return impl_->source.now(); }
const TimeSource& WindowRuntime::time_source() const noexcept { return impl_->source; }
Duration WindowRuntime::frame_interval() const noexcept {
  return impl_->on_ui_thread() ? impl_->options.frame_interval : Options{}.frame_interval;
}

Instant WindowRuntime::frame_after(Instant t) const {
  // Off the UI thread, the default interval's grid (the interval is the UI thread's to read).
  return detail::grid_after(impl_->origin, impl_->on_ui_thread() ? impl_->options.frame_interval : Options{}.frame_interval, t);
}

Status WindowRuntime::set_frame_interval(Duration interval) {
  if (!impl_->usable()) return impl_->refusal();
  const Impl::Count busy(impl_->calls.busy);
  if (interval <= Duration::zero()) {
    return Error{Errc::invalid_argument,
                 "frame interval " + detail::describe(interval) + " is not positive; pass the monitor's refresh period"};
  }
  impl_->options.frame_interval = interval;
  return {};
}

void WindowRuntime::mark_checked(ChangeSet& set) noexcept { set.checked(); }

ChangeSet* WindowRuntime::pending(ChangeSet* set) const { return set != nullptr ? set : impl_->calls.running; }

Status WindowRuntime::submit(Change change, ChangeSet* set) {
  if (!impl_->usable()) return impl_->refusal();  // before anything of the UI thread's is read
  const Impl::Count busy(impl_->calls.busy);
  // Held here, so that a change refused below (its timer's or thread's captures are app code)
  // is destroyed while the call still counts as busy.
  Change held = std::move(change);
  ChangeSet* const into = pending(set);
  return impl_->act(held, into, into != nullptr ? Instant{} : impl_->current());
}

Status WindowRuntime::set_hidden(bool hidden) {
  if (!impl_->usable()) return impl_->refusal();
  const Impl::Count busy(impl_->calls.busy);
  if (impl_->calls.running) {
    return Error{Errc::reentrant_call, std::string("set_hidden(") + (hidden ? "true" : "false") +
                                           ") was called from inside a timer callback or write-back; call it from "
                                           "an event handler. Nothing changed"};
  }
  impl_->timers.set_hidden(hidden, impl_->current());
  return {};
}

RedrawHandle WindowRuntime::redraw_handle() const { return RedrawHandle(impl_->link); }

bool WindowRuntime::hidden() const noexcept { return impl_->usable() && impl_->timers.hidden(); }

// Questions from another thread get the answers of an empty runtime: the tables are the UI
// thread's, and reading them from another would be a data race.
std::size_t WindowRuntime::thread_count() const noexcept { return impl_->usable() ? impl_->threads.size() : 0; }
void* WindowRuntime::thread_data(ThreadId id, const std::type_info& type) {
  return impl_->usable() ? impl_->threads.writeback(id, type) : nullptr;
}
const detail::ProgressValue* WindowRuntime::progress_value(ThreadId id) const {
  return impl_->usable() ? impl_->threads.progress(id) : nullptr;
}

void WindowRuntime::set_waker(std::function<void()> waker) {
  if (!impl_->usable()) return;  // another thread; or the link is closed: no waker is called again
  impl_->threads.set_waker(std::move(waker));
}

std::optional<TimerStatus> WindowRuntime::timer_status(TimerId id) const {
  if (!impl_->usable()) return std::nullopt;
  // Counted from now, but never from before an instant the runtime has used already.
  return impl_->timers.status(id, later_of(impl_->latest, impl_->source.now()));
}
std::size_t WindowRuntime::timer_count() const noexcept { return impl_->usable() ? impl_->timers.size() : 0; }

CallbackContext WindowRuntime::context(ChangeSet& changes) {
  // Off the UI thread the frame's times are not to be read: the context has the origin (and
  // every change through it is refused anyway).
  return CallbackContext(*this, changes, impl_->on_ui_thread() ? impl_->current() : impl_->origin);
}

void WindowRuntime::run_timers(Instant frame_start, ChangeSet& changes) {
  if (!impl_->usable()) {
    changes.frame_error(impl_->refusal().error());
    return;
  }
  const Impl::Count busy(impl_->calls.busy);
  if (const char* why = impl_->reentry()) {
    changes.frame_error(Error{Errc::reentrant_call, std::string("run_timers() was called ") + why + ". No timer ran"});
    return;
  }
  if (frame_start.kind() != impl_->source.kind()) {
    changes.frame_error(Error{Errc::clock_mismatch, std::string("run_timers() got an instant of the ") +
                                                        to_string(frame_start.kind()) +
                                                        " clock, but this runtime reads the " +
                                                        to_string(impl_->source.kind()) +
                                                        " clock; pass runtime.now(). No timer ran"});
    return;
  }
  if (const Instant floor = impl_->frame_floor(); frame_start < floor) {
    changes.frame_error(Error{Errc::clock_went_backwards,
                              "the time source went back by " + detail::describe(floor - frame_start) +
                                  (impl_->last_frame ? " between two frames" : " since the runtime was made") +
                                  "; the runtime kept its time"});
    frame_start = floor;
  }
  impl_->last_frame = frame_start;
  impl_->raise_latest(frame_start);
  if (impl_->link->redraw.take(frame_start)) changes.redraw_came();
  CallbackContext context(*this, changes, frame_start);
  const Impl::Running running(impl_->calls.running, changes);
  {
    // A callback that asks for this instant (or an earlier one) gets this frame, not another.
    const Impl::Serving serving(*impl_, frame_start);
    impl_->timers.run(frame_start, context, changes);
  }
  if (impl_->served) changes.redraw_came();
}

void WindowRuntime::run_threads(ChangeSet& changes) {
  if (!impl_->usable()) {
    changes.frame_error(impl_->refusal().error());
    return;
  }
  const Impl::Count busy(impl_->calls.busy);
  if (const char* why = impl_->reentry()) {
    changes.frame_error(Error{Errc::reentrant_call,
                              std::string("run_threads() was called ") + why + ". No message was delivered"});
    return;
  }
  const Instant frame = impl_->last_frame ? *impl_->last_frame : impl_->current();
  CallbackContext context(*this, changes, frame);
  const Impl::Running running(impl_->calls.running, changes);
  {
    const Impl::Serving serving(*impl_, frame);  // a write-back asking for this frame gets it
    impl_->threads.run(context, changes);
  }
  if (impl_->served) changes.redraw_came();
}

ApplyReport WindowRuntime::apply(ChangeSet changes) {
  ApplyReport report;
  if (!impl_->usable()) {
    // What a frame reported (its errors, failed timers and threads) is passed on; every other
    // change is dropped, and counted.
    std::size_t dropped = 0;
    for (Change& c : changes.changes_) {
      if (std::holds_alternative<FrameError>(c) || std::holds_alternative<TimerFailed>(c) ||
          std::holds_alternative<ThreadFailed>(c)) {
        // Their act_on() only hands back the error: nothing of the runtime's is read.
        report.failures.push_back(failure_of(c, impl_->act(c, nullptr, impl_->origin).error()));
      } else {
        ++dropped;
      }
    }
    if (dropped == 0) return report;
    const Status s = impl_->refusal();
    report.failures.push_back(Failure{TimerId{}, Error{s.error().code, s.error().message + "; " +
                                                                         detail::num(dropped) + " changes were dropped"}});
    return report;  // `changes` goes here: what its timers captured may call the runtime, refused too
  }
  const Impl::Count busy(impl_->calls.busy);
  if (impl_->calls.running) {
    // From inside a timer callback or a write-back: the frame is using the tables, so the
    // changes join the frame's own change-set, which apply() carries out after every callback.
    // A removal that reaches the frame stops its timer at once, as one made in it would.
    for (const Change& c : changes.changes()) {
      if (const auto* remove = std::get_if<RemoveTimer>(&c)) (void)impl_->timers.stop(remove->id);
    }
    report.deferred = changes.changes().size();
    impl_->calls.running->append(std::move(changes));
    return report;
  }
  report.update = changes.update();
  report.timers_run = changes.timers_run_;
  report.redraws_came = changes.redraws_came_;
  report.thread_messages = changes.thread_messages_;
  const Impl::Count applied(impl_->calls.applying);
  (void)impl_->current();  // brings `latest` up to now
  for (Change& change : changes.changes_) {
    // The changes count from when apply() began, or from a later instant that a destructor it
    // set off used meanwhile (a frame it ran): `latest`, which never goes back.
    if (Status s = impl_->act(change, nullptr, impl_->latest); s) {
      ++report.applied;
    } else {
      report.failures.push_back(failure_of(change, s.error()));
    }
  }
  return report;
}

ApplyReport WindowRuntime::poll(Instant frame_start) {
  if (!impl_->usable()) return ApplyReport{.failures = {Failure{TimerId{}, impl_->refusal().error()}}};
  ChangeSet changes;
  run_timers(frame_start, changes);
  run_threads(changes);
  return apply(std::move(changes));
}

void WindowRuntime::set_drawing(std::optional<Instant> frame_start) {
  if (!impl_->usable()) return;
  if (frame_start && frame_start->kind() == impl_->source.kind()) {
    impl_->serving = std::min(*frame_start, impl_->current());
  } else {
    impl_->serving.reset();
  }
}

std::optional<Instant> WindowRuntime::next_due() {
  if (!impl_->usable()) return std::nullopt;
  return impl_->next_due(impl_->source.now());
}

std::optional<Duration> WindowRuntime::next_wake(Instant now) {
  if (!impl_->usable()) return std::nullopt;
  if (now.kind() != impl_->source.kind()) {  // a foreign instant: do not sleep on it
    return impl_->next_due(impl_->source.now()) ? std::optional<Duration>(Duration::zero()) : std::nullopt;
  }
  const std::optional<Instant> due = impl_->next_due(now);
  if (!due) return std::nullopt;
  return std::max(Duration::zero(), *due - now);
}

std::optional<Duration> WindowRuntime::next_wake() { return next_wake(now()); }

}  // namespace cadence
