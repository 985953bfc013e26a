// Controls: what app code changes in a runtime. Every change is one Change through
// WindowRuntime::submit(); stop and send act at once, but a thread whose start waits in the
// pending set takes them there.
#include <algorithm>
#include <vector>

#include "window_runtime_impl.hpp"

namespace cadence {

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
  if (Status s = detail::check_new_timer(id, timer, system); !s) return s;
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
