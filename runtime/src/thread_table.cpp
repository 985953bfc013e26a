#include "thread_table.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <limits>
#include <exception>
#include <string>
#include <system_error>

#include "guarded_call.hpp"
#include "steady_deadline.hpp"
#include "thread_priority.hpp"
#include "thread_seams.hpp"
#include "text.hpp"
#include "runtime_link.hpp"

namespace cadence::detail {
namespace {

Status no_thread(ThreadId id) {
  return Error{Errc::not_found, "no thread with id " + hex(id.value) + " in this window (it may have finished)"};
}

// Runs on the worker thread: the app's function, then the "finished" mark. Nothing the worker
// throws leaves this function; it becomes a message, delivered after everything sent before.
void run_worker(const std::shared_ptr<ThreadCore>& core, UniqueFunction<void(ThreadCore&)>& body,
                ThreadPriority priority, int starting_priority) {
  apply_worker_priority(priority, starting_priority);
  const auto fail = [&core](std::string what) {
    WorkerMessage m;
    m.kind = WorkerMessage::Kind::failed;
    m.failure = std::move(what);
    core->post(std::move(m));
  };
  if (std::optional<Error> threw = guarded_call("the worker", [&] {
        body(*core);
        core->stopped_at_return = core->stop.stop_requested();
      })) {
    fail(std::move(threw->message));
  }
  body = {};  // destroy what the worker captured on its own thread
  core->finished.store(true, std::memory_order_seq_cst);
  core->notify_ui();
  seams::reach(seams::worker_finished, *core);
  // Tell a runtime that is being destroyed and waits for its workers. Taking the mutex once
  // after the store orders it before the waiter's check or its wait.
  RuntimeLink& link = *core->link;
  { std::lock_guard lock(link.mutex); }
  link.finished_cv.notify_all();
}

}  // namespace

ThreadTable::ThreadTable(std::shared_ptr<RuntimeLink> link, ThreadLimits limits)
    : link_(std::move(link)), limits_(limits) {}

ThreadTable::~ThreadTable() {
  shutdown();
  const auto doomed = release();
}

void ThreadTable::shutdown() {
  if (shut_down_) return;
  shut_down_ = true;
  link_->alive.store(false, std::memory_order_release);
  // Once no waker call is in progress; destroyed after the lock is released: it is app code.
  const std::function<void()> waker = link_->take_waker(nullptr, /*close=*/true);
  for (auto& e : entries_) e->core->request_stop();  // also wakes receive_for()
  // Wait for the workers to notice, all within one deadline; then join those that finished and
  // let the others go: they hold their own core and can no longer reach this runtime.
  const auto all_finished = [this] {
    return std::all_of(entries_.begin(), entries_.end(),
                       [](const auto& e) { return e->core->finished.load(std::memory_order_acquire); });
  };
  const auto deadline = steady_deadline(std::chrono::steady_clock::now(), limits_.join_deadline);
  {
    std::unique_lock lock(link_->mutex);
    if (deadline) {
      link_->finished_cv.wait_until(lock, *deadline, all_finished);
    } else {
      link_->finished_cv.wait(lock, all_finished);
    }
  }
  for (auto& e : entries_) {
    if (e->core->finished.load(std::memory_order_acquire)) {
      e->thread.join();
    } else {
      e->thread.detach();
    }
  }
}

std::vector<std::unique_ptr<ThreadTable::Entry>> ThreadTable::release() {
  index_.clear();
  carry_over_ = false;
  return std::exchange(entries_, {});
}

void ThreadTable::set_waker(std::function<void()> waker) {
  // The old one, destroyed here, after the lock, since destroying it runs app code that may call
  // set_waker() again (or hold up a worker that rings meanwhile).
  const std::function<void()> old = link_->take_waker(std::move(waker), /*close=*/false);
}

Status ThreadTable::start(ThreadId id, Thread thread) {
  if (index_.contains(id)) {
    return Error{Errc::already_exists, "a thread with id " + hex(id.value) +
                                           " already runs in this window; use ThreadId::unique()"};
  }
  auto entry = std::make_unique<Entry>();
  entry->id = id;
  entry->core = std::make_shared<ThreadCore>(link_);
  entry->core->first_frame = link_->frames.load(std::memory_order_relaxed);  // written by this thread only
  entry->writeback = std::move(ThreadTableAccess::writeback(thread));
  entry->type = &ThreadTableAccess::type(thread);
  entry->on_finish = std::move(ThreadTableAccess::finish(thread));
  try {
    entry->thread = std::thread([core = entry->core, body = std::move(ThreadTableAccess::body(thread)),
                                 priority = thread.priority(), starting = starting_thread_priority()]() mutable {
      run_worker(core, body, priority, starting);
    });
  } catch (const std::system_error& e) {
    return Error{Errc::resource, std::string("the system refused a new thread: ") + e.what()};
  }
  index_.emplace(id, entry.get());
  entries_.push_back(std::move(entry));
  return {};
}

Status ThreadTable::stop(ThreadId id) {
  auto it = index_.find(id);
  if (it == index_.end()) return no_thread(id);
  it->second->core->request_stop();  // wakes a worker blocked in receive_for()
  return {};
}

Status ThreadTable::send(ThreadId id, Payload payload) {
  auto it = index_.find(id);
  if (it == index_.end()) return no_thread(id);
  ThreadCore& core = *it->second->core;
  if (core.finished.load(std::memory_order_acquire)) {
    return Error{Errc::closed, "thread " + hex(id.value) + " has finished; the message was not sent"};
  }
  core.deliver(std::move(payload));
  return {};
}

void* ThreadTable::writeback(ThreadId id, const std::type_info& type) const {
  auto it = index_.find(id);
  if (it == index_.end() || *it->second->type != type) return nullptr;
  return it->second->writeback.get();
}

bool ThreadTable::finishing(ThreadId id) const {
  const auto it = index_.find(id);
  return it != index_.end() && it->second->finishing;
}

const ProgressValue* ThreadTable::progress(ThreadId id) const {
  auto it = index_.find(id);
  return it == index_.end() ? nullptr : &it->second->progress;
}

bool ThreadTable::pending() const noexcept { return carry_over_ || link_->bell.load(std::memory_order_acquire); }

void ThreadTable::run(CallbackContext& context, ChangeSet& changes) {
  // The Tick: one store for every worker; only workers asleep waiting for Ticks need a nudge.
  link_->frames.store(link_->frames.load(std::memory_order_relaxed) + 1, std::memory_order_seq_cst);
  if (link_->tick_waiters.load(std::memory_order_seq_cst) > 0) {
    for (auto& e : entries_) e->core->wake_for_tick();
  }
  // Nothing was posted since the last look: nothing to drain.
  if (!link_->bell.exchange(false, std::memory_order_acq_rel) && !carry_over_) return;
  carry_over_ = false;
  if (entries_.empty()) return;

  // Round-robin from a rotating start, each thread at most messages_per_thread, all together at
  // most messages_per_frame: a flooding worker starves neither the frame nor its neighbours.
  std::uint32_t budget = limits_.messages_per_frame;
  const std::size_t n = entries_.size();
  const std::size_t first = rotation_++ % n;
  std::vector<std::size_t> done;
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = (first + k) % n;
    Entry& e = *entries_[i];
    ThreadCore& core = *e.core;
    const bool took = take_progress(e, changes);  // the newest value, once per frame, outside the message budget
    if (core.drained.load(std::memory_order_relaxed)) continue;  // nothing new since it was emptied
    if (budget == 0) {
      carry_over_ = true;
      continue;
    }
    budget -= drain(e, std::min(budget, limits_.messages_per_thread), context, changes);
    if (!core.ui_drained()) {
      carry_over_ = true;  // more than its share, or more arrived: next frame
      continue;
    }
    // Finished, and (seen after the finish, so nothing it posted can hide) nothing left. Its
    // last progress value is taken before its finish callback; one it reported after this
    // frame's take waits for the next frame (at once), which takes it: one take per frame.
    if (core.finished.load(std::memory_order_seq_cst)) {
      if (core.to_ui.empty() && !(took && core.progress.fresh())) {
        done.push_back(i);
      } else {
        core.drained.store(false, std::memory_order_relaxed);
        carry_over_ = true;
      }
    }
  }
  // Each finished thread's last progress value is taken and its finish callback runs while it
  // is still in the table (has_thread(), thread_data() and thread_progress() answer for it; its
  // id may be started again from there); then it is removed. The entries go last: the writeback
  // data's destructors are app code and may call the runtime.
  for (std::size_t i : done) {
    Entry& e = *entries_[i];
    take_progress(e, changes);
    e.finishing = true;
    finish(e, e.core->stopped_at_return ? ThreadOutcome::Kind::stopped : ThreadOutcome::Kind::finished, context,
           changes);
  }
  std::sort(done.begin(), done.end(), std::greater<>());  // swap-remove from the back first
  std::vector<std::unique_ptr<Entry>> finished;
  for (std::size_t i : done) finished.push_back(remove_at(i));
}

bool ThreadTable::take_progress(Entry& e, ChangeSet& changes) {
  if (!e.core->progress.take(e.progress)) return false;
  changes.request(Update::redraw_window);
  changes.count_ran(0, 1);
  return true;
}

void ThreadTable::finish(Entry& e, ThreadOutcome::Kind kind, CallbackContext& context, ChangeSet& changes) {
  ThreadOutcome outcome;
  outcome.id = e.id;
  outcome.kind = e.failure ? ThreadOutcome::Kind::failed : kind;
  if (e.failure) outcome.message = *e.failure;
  if (!e.on_finish) return;
  changes.count_ran(0, 1);
  if (std::optional<Error> threw = guarded_call("a finish callback", [&] {
        changes.request(e.on_finish(e.writeback.get(), outcome, context));
      })) {
    changes.thread_failed(e.id, std::move(*threw));
  }
}

void ThreadTable::abandon(std::vector<std::unique_ptr<Entry>>& entries, CallbackContext& context, ChangeSet& changes) {
  for (auto& e : entries) {
    // A worker let go at the join deadline may still be pushing: what it sent so far is
    // delivered, and its later sends fail (the link is closed).
    while (drain(*e, std::numeric_limits<std::uint32_t>::max(), context, changes) > 0) {
    }
    take_progress(*e, changes);
    finish(*e, ThreadOutcome::Kind::abandoned, context, changes);
  }
}

std::uint32_t ThreadTable::drain(Entry& e, std::uint32_t budget, CallbackContext& context, ChangeSet& changes) {
  std::uint32_t delivered = 0;
  while (delivered < budget) {
    std::optional<WorkerMessage> m = e.core->to_ui.pop();
    if (!m) break;
    ++delivered;
    changes.count_ran(0, 1);
    switch (m->kind) {
      case WorkerMessage::Kind::update:
        changes.request(m->update);
        break;
      case WorkerMessage::Kind::write_back:
        if (std::optional<Error> threw =
                guarded_call("a write-back", [&] { changes.request(m->apply(e.writeback.get(), context)); })) {
          changes.thread_failed(e.id, std::move(*threw));
        }
        break;
      case WorkerMessage::Kind::failed:
        e.failure = m->failure;
        changes.thread_failed(e.id, Error{Errc::callback_threw, std::move(m->failure)});
        break;
    }
  }
  return delivered;
}

std::unique_ptr<ThreadTable::Entry> ThreadTable::remove_at(std::size_t i) {
  std::unique_ptr<Entry> e = std::move(entries_[i]);
  if (e->thread.joinable()) e->thread.join();  // it has finished: this returns at once
  index_.erase(e->id);
  entries_[i] = std::move(entries_.back());
  entries_.pop_back();
  return e;
}

}  // namespace cadence::detail

namespace cadence {

const char* to_string(ThreadOutcome::Kind kind) noexcept {
  switch (kind) {
    case ThreadOutcome::Kind::finished: return "finished";
    case ThreadOutcome::Kind::stopped: return "stopped";
    case ThreadOutcome::Kind::failed: return "failed";
    case ThreadOutcome::Kind::abandoned: return "abandoned";
  }
  return "unknown";
}

}  // namespace cadence
