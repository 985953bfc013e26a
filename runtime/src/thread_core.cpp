// ThreadCore's blocking half and the doorbell: what thread_core.hpp keeps out of line.
#include "cadence/detail/thread_core.hpp"

#include "runtime_link.hpp"
#include "thread_mailbox.hpp"
#include "thread_seams.hpp"

namespace cadence::detail {

std::atomic<seams::Hook> seams::job_returned{nullptr};
std::atomic<seams::Hook> seams::worker_finished{nullptr};

void ring(RuntimeLink& link) { link.ring(); }
bool alive(const RuntimeLink& link) noexcept { return link.alive.load(std::memory_order_acquire); }

ThreadCore::ThreadCore(std::shared_ptr<RuntimeLink> l) : link(std::move(l)), mailbox(std::make_unique<ThreadMailbox>()) {}
ThreadCore::~ThreadCore() = default;

void ThreadCore::post_result(WorkerMessage m) {
  seams::reach(seams::job_returned, *this);
  post(std::move(m));  // even once the runtime is closing: its destruction delivers it, abandoned
}

void ThreadCore::deliver(Payload m) {
  {
    std::lock_guard lock(mailbox->inbox_mutex);
    mailbox->inbox.push_back(std::move(m));
  }
  mailbox->inbox_cv.notify_all();
}

void ThreadCore::request_stop() {
  if (!stop.request_stop()) return;  // asked before: the worker was woken then
  // Under the lock the waiter checks its predicate with, so that it sees the request or the
  // notification.
  { const std::lock_guard lock(mailbox->inbox_mutex); }
  mailbox->inbox_cv.notify_all();
}

void ThreadCore::wake_for_tick() {
  if (!waiting_for_ticks.load(std::memory_order_seq_cst)) return;
  std::lock_guard lock(mailbox->inbox_mutex);  // the waiter checks its predicate under this lock
  mailbox->inbox_cv.notify_all();
}

}  // namespace cadence::detail
