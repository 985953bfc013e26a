#include <mutex>

#include "cadence/thread.hpp"
#include "steady_deadline.hpp"
#include "runtime_link.hpp"
#include "thread_mailbox.hpp"

namespace cadence {

bool ThreadReceiver::has_message(bool ticks) const {
  return !core_.mailbox->inbox.empty() || (core_.stop.stop_requested() && !terminate_seen_) ||
         (ticks && core_.link->frames.load(std::memory_order_seq_cst) != frames_seen_);
}

std::optional<ThreadMessage> ThreadReceiver::try_receive() {
  if (!on_worker()) return std::nullopt;
  {
    std::lock_guard lock(core_.mailbox->inbox_mutex);
    if (!core_.mailbox->inbox.empty()) {
      ThreadMessage out{ThreadMessage::Kind::custom, std::move(core_.mailbox->inbox.front())};
      core_.mailbox->inbox.pop_front();
      return out;
    }
  }
  if (!terminate_seen_ && core_.stop.stop_requested()) {
    terminate_seen_ = true;
    return ThreadMessage{ThreadMessage::Kind::terminate, {}};
  }
  const std::uint64_t frames = core_.link->frames.load(std::memory_order_acquire);
  if (frames != frames_seen_) {
    frames_seen_ = frames;
    return ThreadMessage{ThreadMessage::Kind::tick, {}};
  }
  return std::nullopt;
}

std::optional<ThreadMessage> ThreadReceiver::receive_for(Duration timeout, bool ticks) {
  if (!on_worker()) return std::nullopt;
  if (ticks) {
    if (auto m = try_receive()) return m;
  } else if (auto m = try_receive(); m && !m->is_tick()) {
    return m;
  }
  if (timeout <= Duration::zero()) return std::nullopt;
  const auto deadline = detail::steady_deadline(std::chrono::steady_clock::now(), timeout);  // nullopt: none
  // Announce the wait before checking again, so that a Tick that comes in between is either
  // seen by the check or sees the announcement and notifies. Messages and stops always notify.
  if (ticks) {
    core_.waiting_for_ticks.store(true, std::memory_order_seq_cst);
    core_.link->tick_waiters.fetch_add(1, std::memory_order_seq_cst);
  }
  {
    std::unique_lock lock(core_.mailbox->inbox_mutex);
    const auto ready = [this, ticks] { return has_message(ticks); };
    // A stop request (Terminate, until it is received) is in the predicate: request_stop()
    // notifies under this lock.
    if (deadline) {
      core_.mailbox->inbox_cv.wait_until(lock, *deadline, ready);
    } else {
      core_.mailbox->inbox_cv.wait(lock, ready);
    }
  }
  if (ticks) {
    core_.link->tick_waiters.fetch_sub(1, std::memory_order_seq_cst);
    core_.waiting_for_ticks.store(false, std::memory_order_seq_cst);
    return try_receive();
  }
  auto m = try_receive();
  if (m && m->is_tick()) m = try_receive();  // a Tick it did not ask for: what else is there
  return m;
}

}  // namespace cadence
