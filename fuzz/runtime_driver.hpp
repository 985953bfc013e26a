// The runtime fuzz driver: runs the program an input's bytes describe against one
// WindowRuntime on a ManualClock, and aborts with a message when an invariant breaks.
//
// The program: timers of every kind and knob (durations from the values timer code gets wrong),
// callbacks that re-enter the runtime (add, remove, pause, resume, restart themselves, apply a
// change-set of their own, poll, start and stop threads, throw), captures whose destructors call
// the runtime, threads that post write-backs (which re-enter too), throw, finish at once or wait
// for Terminate, and frames with the clock moved forwards, backwards and by huge steps. At the
// end the runtime is destroyed with all of it still in place.
//
// Invariants, checked as it runs:
// - no timer runs before it is due, nor before its delay has passed since it was added;
// - a timer runs late only past a stall (a frame that came after the runtime's next_due());
//   otherwise at its exact due instant, or within its slack;
// - a timer's runs count 0, 1, 2, ...; a removed timer never runs again;
// - timer_count() equals the timers whose callbacks are alive, between operations;
// - every thread's data is destroyed exactly once, and has_thread() is true until then;
// - everything is destroyed with the runtime (LeakSanitizer checks the rest).
#pragma once

#include <cstddef>
#include <cstdint>

namespace cadence::fuzz {

/// Runs one input. Deterministic but for the timing of the worker threads.
void run_runtime_input(const std::uint8_t* data, std::size_t size);

}  // namespace cadence::fuzz
