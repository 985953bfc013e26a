// ThreadCore's blocking half and the doorbell: what thread_core.hpp keeps out of line.
#include "cadence/detail/thread_core.hpp"

#include "runtime_link.hpp"
#include "thread_mailbox.hpp"

namespace cadence::detail {

void ring(RuntimeLink& link) { link.ring(); }
bool alive(const RuntimeLink& link) noexcept { return link.alive.load(std::memory_order_acquire); }

ThreadCore::ThreadCore(std::shared_ptr<RuntimeLink> l) : link(std::move(l)), mailbox(std::make_unique<ThreadMailbox>()) {}
ThreadCore::~ThreadCore() = default;

bool ThreadCore::take_progress(Payload& latest) {
  if (!progress_fresh.exchange(false, std::memory_order_seq_cst)) return false;
  const SlotLock::Held held(progress_lock);
  const bool waiting = std::exchange(progress_waiting, false);
  if (waiting) std::swap(latest, progress);
  return waiting;
}

void ThreadCore::deliver(Payload m) {
  {
    std::lock_guard lock(mailbox->inbox_mutex);
    mailbox->inbox.push_back(std::move(m));
  }
  mailbox->inbox_cv.notify_all();
}

void ThreadCore::wake_for_tick() {
  if (!waiting_for_ticks.load(std::memory_order_seq_cst)) return;
  std::lock_guard lock(mailbox->inbox_mutex);  // the waiter checks its predicate under this lock
  mailbox->inbox_cv.notify_all();
}

}  // namespace cadence::detail
