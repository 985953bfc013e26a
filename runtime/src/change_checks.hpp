// The checks a timer or thread change passes before the runtime records or carries it out, and
// the report entry for one that failed. Private to the library; window_runtime.cpp uses them
// where a change is recorded (record) and where it is carried out (carry_out), so that a
// change-set filled by hand is held to the same rules.
#pragma once

#include "cadence/change_set.hpp"
#include "cadence/ids.hpp"
#include "cadence/result.hpp"
#include "cadence/thread.hpp"
#include "cadence/timer.hpp"

namespace cadence::detail {

/// Errors (invalid_argument, naming the id and the rule): id 0; an app timer with a system id or
/// the reverse; a system timer with a when-hidden policy; the knobs Timer::validate() refuses.
Status check_new_timer(TimerId id, const Timer& timer, bool system);
/// Errors (invalid_argument): a reserved id (0-4); a Thread that was moved from.
Status check_new_thread(ThreadId id, Thread& thread);
/// The report entry for a change that failed: its timer, or its thread.
Failure failure_of(const Change& change, Error error);

}  // namespace cadence::detail
