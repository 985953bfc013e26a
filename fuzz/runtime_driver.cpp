#include "runtime_driver.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cadence/manual_clock.hpp"
#include "cadence/window_runtime.hpp"
#include "fuzz_bytes.hpp"

namespace cadence::fuzz {
namespace {

[[noreturn]] void broken(const char* what, const std::string& detail) {
  std::fprintf(stderr, "cadence fuzz: invariant broken: %s (%s)\n", what, detail.c_str());
  std::abort();
}
void check(bool holds, const char* what, const std::string& detail = {}) {
  if (!holds) broken(what, detail);
}
std::string ns(Instant t) { return std::to_string(t.since_origin().count()) + " ns"; }

// CADENCE_FUZZ_TRACE=1 prints what an input does, to read a finding.
const bool kTrace = std::getenv("CADENCE_FUZZ_TRACE") != nullptr;
template <class... A>
void trace(const char* format, A... args) {
  if (kTrace) std::fprintf(stderr, format, args...);
}

struct World;

/// One timer as added: what its runs must satisfy. Held by the timer's callback only, so it
/// lives exactly as long as the runtime (or a change-set) holds the timer; its destructor is a
/// capture's destructor that calls the runtime.
struct Instance {
  World* world;
  TimerId id;
  Instant requested;   // the clock when it was asked for: it is added then or later
  Duration delay;
  Duration slack;
  std::uint64_t runs = 0;
  bool removed = false;  // a removal that stops it at once succeeded
  bool destructor_acts = false;
  ~Instance();
};

/// A thread's writeback data: counts its destruction. One per Thread made (`serial`); several
/// may carry one id (a start refused as a duplicate).
struct ThreadData {
  World* world;
  ThreadId id;
  int serial;
  bool destructor_acts;
  ThreadData(World* w, ThreadId i, int n, bool acts) : world(w), id(i), serial(n), destructor_acts(acts) {}
  ThreadData(ThreadData&& other) noexcept
      : world(std::exchange(other.world, nullptr)), id(other.id), serial(other.serial), destructor_acts(other.destructor_acts) {}
  ThreadData(const ThreadData&) = delete;
  ~ThreadData();
};

enum class Where { top, timer, write_back, destructor };

struct World {
  explicit World(Bytes b) : in(b), clock(Instant::at(ClockKind::tick, in.start())) {}

  Bytes in;
  ManualClock clock;
  WindowRuntime* rt = nullptr;  // raw: destructors that run while it is deleted still reach it
  bool closing = false;
  int budget = 3000;            // actions left, wherever they run
  int live_timers = 0;          // Instances alive
  int threads_made = 0;
  std::vector<TimerId> ids;     // every id handed out (live or not)
  std::vector<ThreadId> thread_ids;
  std::vector<int> data_destroyed;                   // per Thread made: destructions seen
  std::map<std::uint64_t, int> live_data;            // per thread id: ThreadData alive
  std::optional<Instant> stall;  // timers due at or before it may run late
  // The runtime keeps one request, the soonest, and a frame that reaches it takes it.
  std::optional<Instant> asked;  // a request that surely waits, at this instant or sooner
  bool asked_unknown = false;    // a frame by hand ran: `asked` may no longer say what waits
  // Requests that may or may not wait. A frame that takes a redraw empties the runtime's slot,
  // and the bookkeeping cannot tell which requests of that frame came after the take: a
  // callback's for a later instant, and a destructor's for any (one for the frame's instant or
  // earlier may be the frame's). Each explains at most one redraw, and the first redraw ends them
  // all (they coalesced into what it took, or came after it: the slot holds one).
  std::vector<Instant> undecided;  // such requests of the frames in progress
  bool served = false;             // a callback of the frame in progress asked for its instant
  std::vector<Instant> maybe;      // such requests that no frame has ruled out yet
  Instant polling_at;              // the instant of the outermost frame in progress
  int polling = 0;               // frames in progress (destructors nest them)
  Instant last_frame;            // where frames may start: the runtime's origin, then its last frame

  int depth = 0;                // actions in progress: callbacks and destructors nest them
  bool spend() { return budget-- > 0 && depth < 24 && rt != nullptr; }
  TimerId any_timer() {
    if (ids.empty() || in.below(8) == 0) return TimerId{in.below(6)};  // 0, system ids, unknown
    return ids[in.u8() % ids.size()];
  }
  ThreadId any_thread() {
    if (thread_ids.empty() || in.below(8) == 0) return ThreadId{in.below(7)};
    return thread_ids[in.u8() % thread_ids.size()];
  }
  void act(Where where, CallbackContext* ctx, const std::shared_ptr<Instance>& self = nullptr);
  Timer make_timer(TimerId id);
  /// Records the outcome of adding a timer.
  void added(TimerId id, const Status& s);
  /// Records a timer's removal of itself from its own callback: it stops at once, so it never
  /// runs again. (Which instance another removal meets depends on which adds are applied by
  /// then, which only the runtime knows; the unit tests cover those.)
  static void removed_itself(Instance& self, const Status& s);
  Thread make_thread(ThreadId id);
  /// A frame now, from outside any callback. One that comes after the runtime's next wake-up
  /// is a stall: what was due by then may run late; any other frame finds every timer on time.
  void frame();
  /// Moves the clock to `t`. A move past the runtime's next wake-up is a stall too.
  void move_clock(Instant t);
  void check_counts() const;
};

Instance::~Instance() {
  --world->live_timers;
  if (destructor_acts) world->act(Where::destructor, nullptr);
}

ThreadData::~ThreadData() {
  if (world == nullptr) return;  // moved from
  const int n = ++world->data_destroyed[static_cast<std::size_t>(serial)];
  check(n == 1, "a thread's data is destroyed exactly once", std::to_string(n) + " times");
  --world->live_data[id.value];
  if (destructor_acts) world->act(Where::destructor, nullptr);
}

void World::added(TimerId id, const Status& s) {
  trace("  added %llu: %s\n", static_cast<unsigned long long>(id.value), s.ok() ? "ok" : s.error().message.c_str());
  if (closing) check(!s.ok() && s.error().code == Errc::closed, "a closing runtime refuses with closed");
}

void World::removed_itself(Instance& self, const Status& s) {
  if (!s.ok()) return;
  trace("  removed %llu\n", static_cast<unsigned long long>(self.id.value));
  self.removed = true;
}

Timer World::make_timer(TimerId id) {
  auto inst = std::make_shared<Instance>();
  inst->world = this;
  inst->id = id;
  inst->requested = clock.now();
  inst->destructor_acts = in.below(4) == 0;
  ++live_timers;
  const auto body = [inst](TimerCallbackInfo& info) -> TimerCallbackReturn {
    Instance& me = *inst;
    World& w = *me.world;
    trace("  run %llu at %lld (due %lld)\n", static_cast<unsigned long long>(me.id.value),
          static_cast<long long>(info.frame_start.since_origin().count()), static_cast<long long>(info.due.since_origin().count()));
    check(!me.removed, "a removed timer never runs again", "id " + std::to_string(me.id.value));
    check(info.frame_start >= info.due, "no timer runs before it is due",
          "frame " + ns(info.frame_start) + ", due " + ns(info.due));
    check(info.frame_start >= me.requested + me.delay, "no timer runs before its delay has passed",
          "timer " + std::to_string(me.id.value) + ": frame " + ns(info.frame_start) + ", asked at " + ns(me.requested) +
              ", delay " + std::to_string(me.delay.count()) + " ns");
    check(info.call_count == me.runs, "runs count up by one", std::to_string(info.call_count) + " vs " + std::to_string(me.runs));
    const bool may_be_late = w.stall && info.due <= *w.stall;
    check(may_be_late || info.frame_start - info.due <= me.slack, "a timer runs at its due instant unless the app stalled",
          "frame " + ns(info.frame_start) + ", due " + ns(info.due));
    ++me.runs;
    const int actions = static_cast<int>(w.in.below(3));
    for (int i = 0; i < actions; ++i) w.act(Where::timer, &info.context, inst);
    switch (w.in.below(6)) {
      case 0: return TimerCallbackReturn::stop();
      case 1: return TimerCallbackReturn::redraw();
      default: return TimerCallbackReturn::keep();
    }
  };
  Timer t(body);
  switch (in.below(5)) {
    case 0: t = Timer::once(in.duration(), body); break;
    case 1: t = Timer::every(in.duration(), body); break;
    case 2: t = Timer::animation(body); break;
    default:
      t.with_delay(in.duration());
      if (in.flag()) t.with_interval(in.duration());
      if (in.flag()) t.with_timeout(in.duration());
  }
  if (in.flag()) t.with_slack(in.duration());
  t.with_missed_ticks(static_cast<MissedTicks>(in.below(3)));
  if (in.below(4) == 0) t.with_owner(WidgetId{in.u8()});
  trace("  timer %llu: delay %lld interval %lld timeout %lld slack %lld\n", static_cast<unsigned long long>(id.value),
        static_cast<long long>(t.delay().count()), static_cast<long long>(t.interval().value_or(Duration{-1}).count()),
        static_cast<long long>(t.timeout().value_or(Duration{-1}).count()), static_cast<long long>(t.slack().count()));
  inst->delay = t.delay();
  inst->slack = t.slack() > Duration::zero() ? t.slack() : Duration::zero();
  ids.push_back(id);
  return t;
}

Thread World::make_thread(ThreadId id) {
  ++threads_made;
  thread_ids.push_back(id);
  const int kind = static_cast<int>(in.below(5));
  const int posts = static_cast<int>(in.below(20));
  World* world = this;
  data_destroyed.push_back(0);
  ++live_data[id.value];
  ThreadData data(this, id, static_cast<int>(data_destroyed.size()) - 1, in.below(3) == 0);
  return Thread::create(0, std::move(data), [kind, posts, world](int, ThreadSender<ThreadData>& out, ThreadReceiver& in_channel) {
    // Runs on the worker: touches nothing but its channels. `world` is only carried into the
    // write-backs, which run on the UI thread.
    const auto write_back = [&](int value) {
      return out.write_back(value, [world](ThreadData&, int&, CallbackContext& ctx) {
        world->act(Where::write_back, &ctx);
        return Update::redraw_window;
      });
    };
    switch (kind) {
      case 0: return;
      case 1:
        for (int i = 0; i < posts; ++i) write_back(i);
        return;
      case 2:
        for (int i = 0; i < posts / 2; ++i) write_back(i);
        throw std::runtime_error("a worker that throws");
      case 3:
        while (auto m = in_channel.receive_for(Duration::max(), false)) {
          if (m->is_terminate()) break;
          write_back(1);
        }
        write_back(2);  // after Terminate: still delivered
        return;
      default:
        for (int i = 0; i < posts * 50; ++i) out.update(Update::nothing);
        write_back(3);
        return;
    }
  });
}

// One action, from wherever the program is: the app between frames, a timer callback, a
// write-back, or a destructor. Each asks the runtime for something and checks what it says.
void World::act(Where where, CallbackContext* ctx, const std::shared_ptr<Instance>& self) {
  if (!spend()) return;
  struct Nest {
    int& depth;
    explicit Nest(int& d) : depth(++d) {}
    ~Nest() { --depth; }
  } nest(depth);
  WindowRuntime& r = *rt;
  const bool inside = where == Where::timer || where == Where::write_back;
  const std::uint32_t what = in.below(16);
  trace("%*sact %u (%d) at %lld\n", depth * 2, "", what, static_cast<int>(where),
        static_cast<long long>(clock.now().since_origin().count()));
  switch (what) {
    case 0: {  // add, directly
      const TimerId id = in.below(6) == 0 ? any_timer() : TimerId::unique();
      const bool system = in.below(8) == 0;
      Timer t = make_timer(id);
      added(id, system ? r.add_system_timer(id, std::move(t)) : r.add_timer(id, std::move(t)));
      break;
    }
    case 1:  // add through the context, if there is one
      if (ctx != nullptr) {
        const TimerId id = in.below(4) == 0 ? any_timer() : TimerId::unique();
        Timer t = make_timer(id);
        added(id, ctx->add_timer(id, std::move(t)));
      }
      break;
    case 2: {  // the app's helper: a change-set of its own, applied at once (or handed on)
      ChangeSet mine;
      CallbackContext own = r.context(mine);
      for (int i = static_cast<int>(in.below(4)); i > 0; --i) {
        const TimerId id = TimerId::unique();
        Timer t = make_timer(id);
        added(id, own.add_timer(id, std::move(t)));
      }
      if (in.flag()) {
        (void)own.remove_timer(any_timer());
      }
      const std::size_t n = mine.changes().size();
      const ApplyReport report = r.apply(std::move(mine));
      if (inside) check(report.deferred == n && report.applied == 0, "apply() inside a frame hands its changes on");
      break;
    }
    case 3: {  // remove, directly: at once, or (inside a frame) stopped at once
      (void)r.remove_timer(any_timer());
      break;
    }
    case 4:  // remove through the context: the timer stops at once
      if (ctx != nullptr) {
        if (self && in.flag()) {
          removed_itself(*self, ctx->remove_timer(self->id));
        } else {
          (void)ctx->remove_timer(any_timer());
        }
      }
      break;
    case 5: {  // pause or resume
      const TimerId id = any_timer();
      const bool pause = in.flag();
      if (ctx != nullptr && in.flag()) {
        (void)(pause ? ctx->pause_timer(id) : ctx->resume_timer(id));
      } else {
        (void)(pause ? r.pause_timer(id) : r.resume_timer(id));
      }
      break;
    }
    case 6:  // restart itself: remove, then add under the same id
      if (self && ctx != nullptr) {
        const TimerId id = self->id;
        removed_itself(*self, ctx->remove_timer(id));
        Timer t = make_timer(id);
        added(id, ctx->add_timer(id, std::move(t)));
      }
      break;
    case 7:  // throw, where a throw is reported
      if (inside) throw std::runtime_error("a callback that throws");
      break;
    case 8:  // a frame (inside one: refused as re-entrant, and handed on)
      if (inside) {
        (void)r.poll(r.now());
      } else {
        frame();
      }
      break;
    case 9:  // start a thread
      if (threads_made < 6) {
        const ThreadId id = in.below(8) == 0 ? any_thread() : ThreadId::unique();
        if (ctx != nullptr && in.flag()) {
          (void)ctx->start_thread(id, make_thread(id));
        } else {
          (void)r.start_thread(id, make_thread(id));
        }
      }
      break;
    case 10:
      (void)r.stop_thread(any_thread());
      break;
    case 11:
      (void)r.send_to_thread(any_thread(), Payload::of(static_cast<int>(in.u8())));
      break;
    case 12: {  // questions
      (void)r.next_wake();
      (void)r.next_due();
      const auto status = r.timer_status(any_timer());
      if (status && status->next_due) check(*status->next_due >= status->created, "a timer is due after it was added");
      if (status) {
        check(status->remaining >= Duration::zero(), "a timer's time left is never negative");
        check(!status->remaining_lifetime || *status->remaining_lifetime >= Duration::zero(),
              "a timer's lifetime left is never negative");
        std::uint64_t runs = 0;
        for (std::uint32_t n : status->lateness.histogram) runs += n;
        check(runs == status->run_count, "the lateness histogram counts every run once");
        check(status->lateness.worst >= status->lateness.last, "no run was later than the worst");
      }
      (void)r.thread_data<ThreadData>(any_thread());
      (void)r.has_thread(any_thread());
      break;
    }
    case 13: {  // a change-set built and dropped: its timers' destructors run now
      ChangeSet dropped;
      CallbackContext own = r.context(dropped);
      const TimerId id = TimerId::unique();
      Timer t = make_timer(id);
      (void)own.add_timer(id, std::move(t));
      break;
    }
    case 14:
      if (in.flag()) {
        (void)r.set_frame_interval(in.duration());
      } else {  // a redraw at an instant: past, now, near or far
        const Instant at = in.flag() ? clock.now() + in.duration() : clock.now() - in.duration();
        const bool accepted = r.request_redraw_at(at).ok();
        trace("  redraw asked for at %lld: %s\n", static_cast<long long>(at.since_origin().count()), accepted ? "ok" : "refused");
        if (accepted && !asked_unknown) {
          // The end of the timeline counts as one nanosecond before it (request_redraw_at).
          const Instant counted = std::min(at, Instant::max_for(at.kind()) - Duration{1});
          // A callback that asks for its frame's instant or an earlier one gets that frame, and
          // its request waits nowhere; a destructor's in a frame may be the frame's too.
          const bool the_frames = polling > 0 && counted <= polling_at;
          if (the_frames && where != Where::destructor) {
            served = true;
            break;
          }
          if (!the_frames && (!asked || counted < *asked)) asked = counted;
          if (polling > 0) undecided.push_back(counted);
          if (!the_frames) {
            const std::optional<Instant> due = r.next_due();
            // Never later than the redraw asked for, or than now for one asked for in the past.
            // In a frame, its take may have taken the earlier ones already: this one waits.
            const Instant bound = polling > 0 ? counted : *asked;
            check(due.has_value() && *due <= later_of(bound, clock.now()), "next_due() is never later than a redraw asked for",
                  "asked for at " + ns(bound) + ", now " + ns(clock.now()) + ", next due " + (due ? ns(*due) : "none"));
          }
        }
      }
      break;
    default: {  // a frame by hand: the pieces in order, from here
      const bool foreign = in.flag();
      if (!inside && !foreign) frame();  // the stall bookkeeping, then the frame
      ChangeSet changes;
      // It may take redraws asked for, out of the bookkeeping's sight (run_threads takes those due
      // by the last frame's instant even when run_timers refused a foreign instant).
      asked_unknown = true;
      if (!foreign) last_frame = later_of(last_frame, r.now());
      r.run_timers(foreign ? Instant::at(ClockKind::system, Duration::zero()) : r.now(), changes);
      r.run_threads(changes);
      (void)r.apply(std::move(changes));
      break;
    }
  }
}

void World::frame() {
  const Instant now = clock.now();
  const auto due = rt->next_due();
  if (due && *due < now) stall = stall ? later_of(*stall, now) : now;
  trace("frame at %lld (next due %lld)\n", static_cast<long long>(now.since_origin().count()),
        due ? static_cast<long long>(due->since_origin().count()) : -1LL);
  const std::optional<Instant> asked_before = std::exchange(asked, std::nullopt);
  const std::vector<Instant> maybe_before = std::exchange(maybe, {});
  const Instant frame_at = later_of(last_frame, now);  // a clock behind the last frame: that frame's instant
  if (polling == 0) polling_at = frame_at;
  ++polling;
  const ApplyReport report = rt->poll(now);
  --polling;
  const std::vector<Instant> undecided_here = polling == 0 ? std::exchange(undecided, {}) : std::vector<Instant>{};
  const bool served_here = polling == 0 && std::exchange(served, false);
  trace("frame done: applied %zu, %zu failures, %zu redraws\n", report.applied, report.failures.size(),
        static_cast<std::size_t>(report.redraws_came));
  // The frame ran: not refused inside another call (from inside a frame its refusals are handed
  // on to that frame: deferred), nor while the runtime closes.
  bool ran = report.deferred == 0;
  for (const Failure& f : report.failures) {
    if (f.error.code == Errc::reentrant_call || f.error.code == Errc::closed || f.error.code == Errc::wrong_thread) ran = false;
  }
  if (ran) last_frame = frame_at;
  if (ran && served_here) check(report.redraws_came == 1, "a callback asking for its own frame's instant gets that frame");
  if (ran && !asked_unknown && asked_before && *asked_before <= now) {
    check(report.redraws_came == 1, "a redraw asked for by now comes in this frame",
          "asked for at " + std::to_string(asked_before->since_origin().count()) + " ns, frame at " +
              std::to_string(now.since_origin().count()) + " ns, " + std::to_string(report.failures.size()) + " failures");
  }
  // A destructor that ran in this frame and asked for its instant or an earlier one: taken with
  // the frame if it ran while the frame's callbacks did, else waiting for the next frame.
  const bool destructor_asked_here =
      std::any_of(undecided_here.begin(), undecided_here.end(), [&](Instant at) { return at <= frame_at; });
  if (report.redraws_came > 0) {
    // Asked for before the frame, or by one of its callbacks (for its instant: taken with it,
    // with what coalesced into it), or perhaps by a destructor it set off.
    check(asked_unknown || asked_before.has_value() || asked.has_value() || !maybe_before.empty() || served_here ||
              destructor_asked_here,
          "a redraw comes only when one was asked for");
  }
  // The frame takes the slot's request when it is due by the frame's instant; a redraw that
  // only a callback's own request brought (served) leaves a later one waiting there.
  const bool may_have_taken = asked_unknown || (asked_before && *asked_before <= frame_at) ||
                              std::any_of(maybe_before.begin(), maybe_before.end(), [&](Instant at) { return at <= frame_at; });
  if (report.redraws_came > 0 && may_have_taken) {
    // The slot was emptied: what this frame's calls asked for after the take may wait.
    asked.reset();
    maybe = undecided_here;
  } else {
    // Nothing was taken: every request waits, in the slot's soonest.
    if (asked_before && (!asked || *asked_before < *asked)) asked = asked_before;
    maybe = maybe_before;
    // A frame that reached a possible request without a redraw rules it out.
    if (ran) std::erase_if(maybe, [&](Instant at) { return at <= frame_at; });
    if (ran && report.redraws_came == 0 && !asked_unknown) {
      // No redraw came, so none of its own calls' requests was taken: each waits in the slot.
      for (const Instant at : undecided_here) {
        if (!asked || at < *asked) asked = at;
      }
    } else {
      // Its own calls' requests that may wait (a destructor's, made after its callbacks) stay possible.
      maybe.insert(maybe.end(), undecided_here.begin(), undecided_here.end());
    }
  }
  for (const Failure& f : report.failures) trace("  failure %llu: %s\n", static_cast<unsigned long long>(f.timer.value), f.error.message.c_str());
}

void World::move_clock(Instant t) {
  // With worker messages waiting next_due() is now: any move forward counts, which is safe.
  if (const auto due = rt->next_due(); due && t > *due) stall = stall ? later_of(*stall, t) : t;
  (void)clock.set(t);
}

void World::check_counts() const {
  check(rt->timer_count() == static_cast<std::size_t>(live_timers), "timer_count() counts the live timers",
        std::to_string(rt->timer_count()) + " vs " + std::to_string(live_timers));
  for (const auto& [id, alive] : live_data) {
    check(rt->has_thread(ThreadId{id}) == (alive > 0), "a thread is there until its data is destroyed",
          "id " + std::to_string(id) + ", " + std::to_string(alive) + " alive");
  }
}

}  // namespace

void run_runtime_input(const std::uint8_t* data, std::size_t size) {
  World w{Bytes(data, size)};
  WindowRuntime::Options options;
  options.queue = w.in.flag() ? QueueKind::heap : QueueKind::wheel;
  options.frame_interval = std::chrono::milliseconds(1 + w.in.below(40));
  options.messages_per_frame = 1 + w.in.below(64);
  options.messages_per_thread = 1 + w.in.below(16);
  options.join_deadline = Duration::max();  // every worker here finishes once told to stop
  w.rt = new WindowRuntime(w.clock.source(), options);
  w.last_frame = w.clock.now();
  trace("start at %lld\n", static_cast<long long>(w.clock.now().since_origin().count()));
  while (!w.in.empty() && w.budget > 0) {
    const std::uint32_t step = w.in.below(8);
    trace("step %u at %lld\n", step, static_cast<long long>(w.clock.now().since_origin().count()));
    switch (step) {
      case 0: w.move_clock(w.clock.now() + std::chrono::microseconds(w.in.u16())); break;
      case 1:  // to the next wake-up exactly: the event loop's own step
        if (const auto due = w.rt->next_due(); due && *due > w.clock.now()) (void)w.clock.set(*due);
        w.frame();
        break;
      case 2: w.move_clock(w.clock.now() + w.in.duration()); break;  // anywhere: back, far, huge
      case 3: w.frame(); break;
      default: w.act(Where::top, nullptr); break;
    }
    if (w.rt != nullptr) w.check_counts();
  }
  // Destroyed with everything in place: what the destructors ask for is refused.
  w.closing = true;
  delete w.rt;  // w.rt stays set while it runs: destructors reach the runtime being destroyed
  w.rt = nullptr;
  check(w.live_timers == 0, "every timer is destroyed with the runtime", std::to_string(w.live_timers) + " left");
  for (int n : w.data_destroyed) check(n == 1, "every thread's data is destroyed with the runtime");
}

}  // namespace cadence::fuzz
