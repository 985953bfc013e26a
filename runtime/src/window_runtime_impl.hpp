// WindowRuntime::Impl: the runtime's state (its tables, the link its workers and handles share,
// the frame and change-set in progress), shared by window_runtime.cpp (WindowRuntime) and
// controls.cpp (Controls). Private to cadence::runtime.
#pragma once

#include "cadence/window_runtime.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <thread>
#include <utility>
#include <variant>

#include "runtime_link.hpp"
#include "text.hpp"
#include "thread_table.hpp"
#include "timer_table.hpp"

namespace cadence {
namespace detail {

/// The first instant of the grid `origin` + k * `interval` (k >= 0) after `t`; the origin for
/// `t` before it; saturating at the end of the timeline. `interval` > 0.
Instant grid_after(Instant origin, Duration interval, Instant t);

/// Errors (invalid_argument, naming the id and the rule): id 0; an app timer with a system id or
/// the reverse; a system timer with a when-hidden policy; the knobs Timer::validate() refuses.
Status check_new_timer(TimerId id, const Timer& timer, bool system);

/// Errors (invalid_argument): a reserved id (0-4); a Thread that was moved from.
Status check_new_thread(ThreadId id, Thread& thread);

}  // namespace detail

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
      const Instant frame = now < floor ? now + options.frame_interval : detail::grid_after(origin, options.frame_interval, floor);
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

}  // namespace cadence
