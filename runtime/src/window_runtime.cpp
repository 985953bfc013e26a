#include "cadence/window_runtime.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <utility>
#include <variant>

#include "text.hpp"
#include "thread_table.hpp"
#include "timer_table.hpp"
#include "runtime_link.hpp"

namespace cadence {
namespace {

/// The first instant of the grid `origin` + k * `interval` (k >= 0) after `t`; the origin for
/// `t` before it; saturating at the end of the timeline. `interval` > 0.
Instant grid_after(Instant origin, Duration interval, Instant t) {
  if (t < origin) return origin;
  const Duration::rep whole = (t - origin).count() / interval.count();  // grid steps up to t
  if (whole >= Duration::max().count() / interval.count()) return origin + Duration::max();
  return origin + Duration{(whole + 1) * interval.count()};
}

/// Errors (invalid_argument, naming the id and the rule): id 0; an app timer with a system id or
/// the reverse; a system timer with a when-hidden policy; the knobs Timer::validate() refuses.
Status check_new_timer(TimerId id, const Timer& timer, bool system) {
  if (!id.is_valid()) {
    return Error{Errc::invalid_argument, "timer id 0 names nothing; use TimerId::unique() for app timers"};
  }
  if (!system && id.is_system()) {
    return Error{Errc::invalid_argument, "timer id " + detail::hex(id.value) +
                                             " is reserved for system timers (0x1-0xff); app timers use "
                                             "TimerId::unique() (ids from 0x100)"};
  }
  if (system && !id.is_system()) {
    return Error{Errc::invalid_argument, "timer id " + detail::hex(id.value) +
                                             " is not a system timer id (0x1-0xff); use add_timer() for app timers"};
  }
  if (system && timer.when_hidden() != WhenHidden{}) {
    return Error{Errc::invalid_argument, "system timer " + detail::hex(id.value) +
                                             " has a when-hidden policy; system timers always pause while their "
                                             "window is hidden, the policy is for app timers"};
  }
  return timer.validate();
}

/// Errors (invalid_argument): a reserved id (0-4); a Thread that was moved from.
Status check_new_thread(ThreadId id, Thread& thread) {
  if (!id.is_valid() || id.is_system()) {
    return Error{Errc::invalid_argument, "thread id " + detail::hex(id.value) +
                                             " is reserved (0-4); use ThreadId::unique() (ids from 5)"};
  }
  if (!detail::ThreadTableAccess::body(thread)) {
    return Error{Errc::invalid_argument, "the Thread for id " + detail::hex(id.value) +
                                             " was moved from and has no worker; start the Thread it was moved to, "
                                             "or make a new one with Thread::create()"};
  }
  return {};
}

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

struct WindowRuntime::Impl {
  Impl(TimeSource s, Options o)
      : source(std::move(s)),
        options(o),
        origin(source.now()),
        latest(origin),
        timers(origin, o.queue),
        link(std::make_shared<detail::RuntimeLink>(source)),
        threads(link,
                detail::ThreadLimits{std::max<std::uint32_t>(o.messages_per_frame, 1),
                                     std::max<std::uint32_t>(o.messages_per_thread, 1), o.join_deadline}) {}

  TimeSource source;
  Options options;
  Instant origin;
  Instant latest;  // the latest instant used: the origin, frame starts, changes applied
  detail::TimerTable timers;
  std::shared_ptr<detail::RuntimeLink> link;  // shared with the workers and RedrawHandles
  detail::ThreadTable threads;
  std::optional<Instant> last_frame;
  /// What is on the stack right now: the re-entry rules read it.
  struct Calls {
    // While run_timers() or run_threads() calls back: the frame's changes, so that direct calls
    // made from inside a callback are deferred exactly like calls through the context.
    ChangeSet* running = nullptr;
    // Set when the destructor starts: what the captures it destroys ask for is refused (closed).
    bool closing = false;
    // Calls in progress that may run app code (a destructor of something a callback captured):
    // the runtime must not be destroyed inside them.
    int busy = 0;
    // apply() calls in progress: a frame may not start inside one (it would see its changes half
    // applied: a timer added there whose removal comes later in the same set).
    int applying = 0;
  } calls;
  /// Why a frame may not run now, or nullptr when it may.
  const char* reentry() const {
    if (calls.running) return "from inside a timer callback or write-back; a frame runs its timers and threads once";
    if (calls.applying > 0) {
      return "from inside apply() (a destructor it set off); the frame's changes are still being applied";
    }
    return nullptr;
  }
  /// Counts a call in progress (`busy`, `applying`) for the length of a scope.
  class Count {
   public:
    explicit Count(int& n) noexcept : n_(n) { ++n_; }
    Count(const Count&) = delete;
    Count& operator=(const Count&) = delete;
    ~Count() { --n_; }

   private:
    int& n_;
  };
  /// Makes `running` the frame's change-set for the length of a scope (its callbacks run).
  class Running {
   public:
    Running(ChangeSet*& running, ChangeSet& changes) noexcept : running_(running) { running_ = &changes; }
    Running(const Running&) = delete;
    Running& operator=(const Running&) = delete;
    ~Running() { running_ = nullptr; }

   private:
    ChangeSet*& running_;
  };
  std::thread::id owner = std::this_thread::get_id();
  /// The frame whose callbacks, or whose drawing (set_drawing), run now: a redraw the UI thread
  /// asks for at or before its instant is that frame's, and touches no later request.
  std::optional<Instant> serving;
  bool served = false;  // such a request came while `serving` was set
  /// A redraw asked for on the UI thread (Controls): the serving frame's, or a request.
  Status ask_redraw(Instant at) {
    // The end of the timeline counts as one nanosecond before it, as for a request that waits.
    if (serving && at.kind() == serving->kind() && std::min(at, Instant::max_for(at.kind()) - Duration{1}) <= *serving) {
      served = true;
      return {};
    }
    return link->request_redraw(at);
  }
  /// Sets `serving` for the length of a scope; `served` says afterwards whether a callback asked.
  class Serving {
   public:
    Serving(Impl& m, Instant frame) noexcept : m_(m) {
      m_.serving = frame;
      m_.served = false;
    }
    Serving(const Serving&) = delete;
    Serving& operator=(const Serving&) = delete;
    ~Serving() { m_.serving.reset(); }

   private:
    Impl& m_;
  };

  bool on_ui_thread() const { return std::this_thread::get_id() == owner; }
  /// Whether a call may change the runtime, and a question gets a real answer: not off the UI
  /// thread (wrong_thread; an empty answer), not while the runtime is destroyed (closed; empty).
  bool usable() const { return on_ui_thread() && !calls.closing; }
  /// Why usable() is false.
  Status refusal() const {
    if (!on_ui_thread()) {
      return Error{Errc::wrong_thread,
                   "WindowRuntime is UI-thread only (the thread that made it); reach it from a worker through its "
                   "thread's channel (ThreadSender::write_back). Nothing changed"};
    }
    if (calls.closing) return closed_error();
    return {};
  }
  static Error closed_error() {
    return Error{Errc::closed, "the window's runtime is being destroyed; it takes no more timers, threads or messages"};
  }
  /// Where frames may start: at or after the last one (or the origin).
  Instant frame_floor() const { return last_frame.value_or(origin); }
  /// The instant changes are applied at: now, but never before an instant the runtime has used
  /// already (a frame's start, or a change it applied). A clock that steps back does not make a
  /// timer paused at 98 ms resume as if it were 0 ms.
  Instant current() {
    raise_latest(source.now());
    return latest;
  }
  /// `latest` moves on to `t` if that is later; requests made off the UI thread count from it.
  void raise_latest(Instant t) {
    latest = later_of(latest, t);
    link->raise_floor(latest);
  }
  /// When the next frame should run, read against the source's reading `now`: at once while
  /// worker messages wait; the next timer's instant, or a requested redraw's; while an animation
  /// timer runs, the first instant of the frame grid (the origin plus whole frame intervals)
  /// after the last frame, so that a frame between two of them (a timer's, input's) does not
  /// move the ones after it. A source behind the last frame (it stepped back) starts a frame now
  /// at the last frame's instant: what is due by then is due now, and animation frames come a
  /// frame interval after the reading.
  std::optional<Instant> next_due(Instant now) {
    if (threads.pending()) return now;
    const Instant floor = frame_floor();
    std::optional<Instant> due = timers.next_timer_due();
    if (const std::optional<Instant> redraw = link->redraw.due(); redraw && (!due || *redraw < *due)) due = redraw;
    if (due && *due <= floor) due = std::min(*due, now);
    if (timers.animating()) {
      const Instant frame = now < floor ? now + options.frame_interval : grid_after(origin, options.frame_interval, floor);
      if (!due || frame < *due) due = frame;
    }
    link->redraw.armed(due);  // the loop sleeps until then: a redraw asked for sooner wakes it
    return due;
  }
  /// What a change does, one function per kind: with a pending `set`, it is checked now against
  /// the tables and the set and recorded there; without one it is carried out in the tables,
  /// counting from `at`. The kinds that only report (a callback threw, a frame went wrong) give
  /// their error. apply() and every change made through Controls come here, through act().
  Status act(Change& change, ChangeSet* set, Instant at) {
    return std::visit([&](auto& c) { return act_on(c, set, at); }, change);
  }
  Status act_on(AddTimer& add, ChangeSet* set, Instant at);
  Status act_on(RemoveTimer& remove, ChangeSet* set, Instant at);
  Status act_on(PauseTimer& pause, ChangeSet* set, Instant at);
  Status act_on(ResumeTimer& resume, ChangeSet* set, Instant at);
  Status act_on(StartThread& start, ChangeSet* set, Instant at);
  static Status act_on(TimerFailed& failed, ChangeSet*, Instant) {
    return Error{Errc::callback_threw, std::move(failed.message)};
  }
  static Status act_on(ThreadFailed& failed, ChangeSet*, Instant) { return std::move(failed.error); }
  static Status act_on(FrameError& failed, ChangeSet*, Instant) { return std::move(failed.error); }
  /// What a change recorded into `set` comes after: inside a frame, a set of the app's own is
  /// carried out after the running frame's changes (apply() hands it on to them), so it is
  /// checked against those too. nullptr when `set` is the running frame's, or outside a frame.
  const ChangeSet* ahead_of(const ChangeSet& set) const { return calls.running != &set ? calls.running : nullptr; }
  /// A timer with that id is live in the tables, and neither `set` nor the changes ahead of it
  /// remove it.
  bool live(TimerId id, const ChangeSet& set) const {
    const ChangeSet* ahead = ahead_of(set);
    return timers.has_running(id) && !set.removes_timer(id) && (ahead == nullptr || !ahead->removes_timer(id));
  }
  /// `set`, or the changes ahead of it (unless `set` removes it again), add a timer with that id.
  bool adds(TimerId id, const ChangeSet& set) const {
    const ChangeSet* ahead = ahead_of(set);
    return set.adds_timer(id) || (ahead != nullptr && ahead->adds_timer(id) && !set.removes_timer(id));
  }
  /// `set`, or the changes ahead of it, start a thread with that id.
  bool starts(ThreadId id, const ChangeSet& set) const {
    const ChangeSet* ahead = ahead_of(set);
    return set.starts_thread(id) || (ahead != nullptr && ahead->starts_thread(id));
  }
  /// True when `pending` starts a thread `id` that is not running yet (or replaces one whose
  /// finish callback runs): stop requests and messages for it wait there, and reach it right
  /// after it starts.
  bool waits_to_start(ThreadId id, const ChangeSet* pending) const {
    return pending != nullptr && pending->starts_thread(id) && (!threads.contains(id) || threads.finishing(id));
  }
};


// A change-set's changes count from when it is applied; the running frame's is sure to be, so a
// removal recorded there stops its timer at once (it does not run later in that frame), while one
// recorded in a set of the app's own does nothing until that set is applied: a set dropped
// unapplied leaves no trace. Everything else is checked now, against the tables and the set (and
// what runs ahead of it), so the caller learns of a mistake at the call; a timer or thread
// recorded here is marked checked, and carrying out checks only those an app recorded by hand.

Status WindowRuntime::Impl::act_on(AddTimer& add, ChangeSet* set, Instant at) {
  if (!add.checked) {
    if (Status s = check_new_timer(add.id, add.timer, add.system); !s) return s;
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
    if (Status s = check_new_thread(start.id, start.thread); !s) return s;
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
  return grid_after(impl_->origin, impl_->on_ui_thread() ? impl_->options.frame_interval : Options{}.frame_interval, t);
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

// ---- Controls -----------------------------------------------------------------------------
// Every change is one Change through submit(); stop and send act at once, but a thread whose
// start waits in the pending set takes them there.

Status Controls::add_timer(TimerId id, Timer timer) {
  return runtime_.submit(AddTimer{id, std::move(timer), false, false}, set_);
}
Status Controls::add_system_timer(TimerId id, Timer timer) {
  return runtime_.submit(AddTimer{id, std::move(timer), true, false}, set_);
}
Status Controls::remove_timer(TimerId id) { return runtime_.submit(RemoveTimer{id}, set_); }
Status Controls::pause_timer(TimerId id) { return runtime_.submit(PauseTimer{id}, set_); }
Status Controls::resume_timer(TimerId id) { return runtime_.submit(ResumeTimer{id}, set_); }
Status Controls::start_thread(ThreadId id, Thread thread) {
  return runtime_.submit(StartThread{id, std::move(thread), {}, false, false}, set_);
}

Status Controls::replace_timer(TimerId id, Timer timer) {
  WindowRuntime::Impl& m = *runtime_.impl_;
  if (!m.usable()) return m.refusal();
  const WindowRuntime::Impl::Count busy(m.calls.busy);
  // Checked before the old timer goes: a timer that would be refused leaves the old one running.
  const bool system = id.is_system();
  if (Status s = check_new_timer(id, timer, system); !s) return s;
  const ChangeSet* const pending = runtime_.pending(set_);
  if (pending != nullptr ? m.live(id, *pending) || m.adds(id, *pending) : m.timers.has_running(id)) (void)remove_timer(id);
  return runtime_.submit(AddTimer{id, std::move(timer), system, true}, set_);
}

template <class Op>
Result<std::size_t> Controls::each_timer_of(WidgetId owner, Op op) {
  WindowRuntime::Impl& m = *runtime_.impl_;
  if (!m.usable()) return m.refusal().error();
  // The owner's live timers that are not stopped: a stopped one's removal is on its way already
  // (and its id may name a new timer the frame adds, perhaps for another widget).
  // A timer the pending set (or the changes ahead of it) removes is on its way out too, and
  // another widget's timer may replace it under its id.
  const ChangeSet* const pending = runtime_.pending(set_);
  std::vector<TimerId> ids = m.timers.timers_of(owner);
  std::erase_if(ids, [&](TimerId id) { return pending != nullptr ? !m.live(id, *pending) : !m.timers.has_running(id); });
  if (pending != nullptr) {
    // Those the set adds, and those the changes ahead of it add (the running frame's, for a set
    // of the app's own inside a frame) while the set leaves them alone: one the set removes is
    // on its way out, and one it adds again may belong to another widget now.
    std::vector<TimerId> added = pending->timers_added_by(owner);
    if (const ChangeSet* ahead = m.ahead_of(*pending)) {
      for (TimerId id : ahead->timers_added_by(owner)) {
        if (!pending->adds_timer(id) && !pending->removes_timer(id)) added.push_back(id);
      }
    }
    for (TimerId id : added) {
      if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
    }
  }
  std::size_t done = 0;
  for (TimerId id : ids) {
    if (op(id)) ++done;  // one removed by an earlier one's destructor is not_found: not counted
  }
  return done;
}

Result<std::size_t> Controls::remove_timers_of(WidgetId owner) {
  return each_timer_of(owner, [this](TimerId id) { return remove_timer(id); });
}
Result<std::size_t> Controls::pause_timers_of(WidgetId owner) {
  return each_timer_of(owner, [this](TimerId id) { return pause_timer(id); });
}
Result<std::size_t> Controls::resume_timers_of(WidgetId owner) {
  return each_timer_of(owner, [this](TimerId id) { return resume_timer(id); });
}

// The pending set is read only on the UI thread (another thread gets its refusal first).
Status Controls::stop_thread(ThreadId id) {
  WindowRuntime::Impl& m = *runtime_.impl_;
  if (!m.usable()) return m.refusal();
  const WindowRuntime::Impl::Count busy(m.calls.busy);
  for (ChangeSet* pending : {runtime_.pending(set_), m.calls.running}) {
    if (m.waits_to_start(id, pending) && pending->to_started_thread(id, true, nullptr)) return {};
  }
  return m.threads.stop(id);
}

Status Controls::send_to_thread(ThreadId id, Payload payload) {
  WindowRuntime::Impl& m = *runtime_.impl_;
  if (!m.usable()) return m.refusal();
  const WindowRuntime::Impl::Count busy(m.calls.busy);
  for (ChangeSet* pending : {runtime_.pending(set_), m.calls.running}) {
    if (m.waits_to_start(id, pending) && pending->to_started_thread(id, false, &payload)) return {};
  }
  return m.threads.send(id, std::move(payload));
}

// Questions from another thread get the answers of an empty runtime: the tables are the UI
// thread's, and reading them from another would be a data race.
bool Controls::has_timer(TimerId id) const {
  const WindowRuntime::Impl& m = *runtime_.impl_;
  return m.usable() && m.timers.has_running(id);
}
bool Controls::has_thread(ThreadId id) const {
  const WindowRuntime::Impl& m = *runtime_.impl_;
  if (!m.usable()) return false;
  const ChangeSet* const running = m.calls.running;
  return m.threads.contains(id) || (running != nullptr && running->starts_thread(id)) ||
         (set_ != nullptr && set_->starts_thread(id));
}

Status Controls::request_redraw_at(Instant at) {
  WindowRuntime::Impl& m = *runtime_.impl_;
  if (!m.usable()) return m.refusal();
  return m.ask_redraw(at);
}
Status Controls::request_redraw_after(Duration delay) {
  WindowRuntime::Impl& m = *runtime_.impl_;
  if (!m.usable()) return m.refusal();
  (void)m.current();  // what "now" is for the runtime: never before an instant it used
  const Result<Instant> at = m.link->instant_after(delay);
  if (!at) return at.error();
  return m.ask_redraw(*at);
}

}  // namespace cadence
