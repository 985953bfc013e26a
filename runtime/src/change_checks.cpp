#include "change_checks.hpp"

#include <variant>

#include "text.hpp"
#include "thread_table.hpp"

namespace cadence::detail {

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

/// The report entry for a change that failed: its timer, or its thread.
Failure failure_of(const Change& change, Error error) {
  if (const auto* start = std::get_if<StartThread>(&change)) return Failure{TimerId{}, std::move(error), start->id};
  const TimerId id = std::visit(
      [](const auto& c) {
        if constexpr (requires { { c.id } -> std::same_as<const TimerId&>; }) {
          return c.id;
        } else {
          return TimerId{};
        }
      },
      change);
  return Failure{id, std::move(error)};
}

}  // namespace cadence::detail
