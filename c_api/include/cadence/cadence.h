/* cadence/cadence.h: cadence's C API (C11), for apps in C and bindings from any language: its
 * runtimes, timers and background threads (libcadence_runtime), and the rules of every function
 * of the C API. Windows and their loop are in cadence/cadence_window.h, the functions that draw
 * in a window's frame in cadence/cadence_ui.h (both libcadence_window).
 *
 * The same runtime as the C++ API (window_runtime.hpp, window.hpp), through opaque handles:
 *   cadence_runtime  a window's timers and background threads (cadence.h),
 *   cadence_window   a window with a Dear ImGui frame and its own runtime, and
 *   cadence_loop     the loop that runs windows and sleeps until one has something to do
 *                    (cadence_window.h).
 * docs/c_api.md shows a whole program.
 *
 * Rules for every function, unless its own lines say otherwise:
 * - Status: it returns CADENCE_OK (0) or a cadence_status; a failure changes nothing, and
 *   cadence_last_error() says what was wrong, naming the argument and the rule.
 *   No C++ exception ever leaves a function or a callback's caller.
 * - Handles: NULL is CADENCE_E_INVALID_ARGUMENT. A destroyed handle is CADENCE_E_CLOSED: its
 *   few bytes stay allocated until the process exits, so that this holds however many handles
 *   are made after it. A pointer that was never a handle of that kind cannot be detected
 *   (undefined behaviour, as in any C API).
 * - Thread: the thread that made the handle (its UI thread); from any other:
 *   CADENCE_E_WRONG_THREAD. A process's windows all live on one thread, the first whose
 *   cadence_window_create succeeded (GLFW and SDL have one window system per process; a refused
 *   creation, or a loop, claims no thread). A loop runs windows of its own thread only: one made
 *   on another thread runs none. Workers use their cadence_worker only.
 * - Callbacks: each takes the `void* user` it was given. Its `destroy` (may be NULL) runs
 *   exactly once, when cadence is done with the callback: after its last call, at once when the
 *   call that took it fails, or when its runtime is destroyed. Callbacks run on the UI thread
 *   (worker functions and wakers excepted) and may call cadence; calls that would pull the
 *   ground from under a running callback (destroying its runtime, window or loop, running a
 *   loop inside its iteration) fail with CADENCE_E_REENTRANT_CALL.
 * - Time: cadence_ns, signed 64-bit nanoseconds. Instants are counted from the moment the
 *   runtime (or the window) was made. CADENCE_NEVER stands for "no such time".
 * - Ids: 0 asks cadence for a fresh id, never handed out before in the process (and never
 *   again: ids are not reused, unlike GLib's source ids), and never one the app passed itself
 *   to that runtime: live, waiting in the frame's changes, or removed since.
 *   Timer ids 1-255 (the window's own timers) and thread ids 1-4 are reserved: the timer
 *   functions refuse them with CADENCE_E_INVALID_ARGUMENT.
 * - Flags and booleans are int: 1 or 0 out, any non-zero in.
 * - Structs with a struct_size field are set up by their _init function, which sets the size
 *   and every default; a size cadence does not know is CADENCE_E_INVALID_ARGUMENT (and the rest
 *   of such a struct is not read: a destroy function in it does not run).
 */
#ifndef CADENCE_CADENCE_H
#define CADENCE_CADENCE_H

#include <stddef.h>
#include <stdint.h>

/* The functions of libcadence_runtime. */
/* On Windows: exported by the DLL (CADENCE_RUNTIME_SHARED, which the build and its CMake targets
 * and .pc file set), imported by its users; nothing in a static library. */
#if defined(_WIN32)
#if !defined(CADENCE_RUNTIME_SHARED)
#define CADENCE_C_API
#elif defined(CADENCE_BUILDING_RUNTIME)
#define CADENCE_C_API __declspec(dllexport)
#else
#define CADENCE_C_API __declspec(dllimport)
#endif
#else
#define CADENCE_C_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Versions ------------------------------------------------------------------------------ */

#define CADENCE_VERSION_MAJOR 0
#define CADENCE_VERSION_MINOR 1
#define CADENCE_VERSION_PATCH 0
/** The version this header describes: (major << 16) | (minor << 8) | patch. */
#define CADENCE_VERSION ((CADENCE_VERSION_MAJOR << 16) | (CADENCE_VERSION_MINOR << 8) | CADENCE_VERSION_PATCH)

/** The version of the library linked at run time, as CADENCE_VERSION. Thread: any. */
CADENCE_C_API uint32_t cadence_version(void);

/* ---- Status codes ---------------------------------------------------------------------------- */

typedef enum cadence_status {
  CADENCE_OK = 0,
  CADENCE_E_INVALID_ARGUMENT = 1,  /**< a value outside its documented range, or NULL */
  CADENCE_E_NOT_FOUND = 2,         /**< an id that names nothing live */
  CADENCE_E_STALE = 3,             /**< (not returned by the C API yet) */
  CADENCE_E_ALREADY_CANCELLED = 4, /**< (not returned by the C API yet) */
  CADENCE_E_MISMATCH = 5,          /**< the handle is of another kind */
  CADENCE_E_EMPTY = 6,             /**< nothing to return yet (no message, no progress) */
  CADENCE_E_CLOCK_MISMATCH = 7,    /**< (not returned by the C API: it has one clock per runtime) */
  CADENCE_E_ALREADY_EXISTS = 8,    /**< an id that is taken */
  CADENCE_E_CALLBACK_FAILED = 9,   /**< a callback failed (in a failure report) */
  CADENCE_E_CLOCK_WENT_BACKWARDS = 10,
  CADENCE_E_REENTRANT_CALL = 11,   /**< from a callback, a call that must not be made there */
  CADENCE_E_CLOSED = 12,           /**< the handle was destroyed, or its runtime is gone */
  CADENCE_E_RESOURCE = 13,         /**< the system refused a thread, a window, a display */
  CADENCE_E_FULL = 14,             /**< (not returned by the C API yet) */
  CADENCE_E_UNSAFE = 15,           /**< (not returned by the C API yet) */
  CADENCE_E_CORRUPT = 16,          /**< (not returned by the C API yet) */
  CADENCE_E_SYSTEM = 17,           /**< an operating-system call failed */
  CADENCE_E_WRONG_THREAD = 18,     /**< a call from a thread that may not make it */
  CADENCE_E_NO_MEMORY = 64,        /**< an allocation failed */
  CADENCE_E_UNSUPPORTED = 65,      /**< this build lacks the part (a backend, the window library) */
  CADENCE_E_NOT_DRAWING = 66,      /**< a cadence_ui_* call outside a window's draw function */
  CADENCE_E_INTERNAL = 67          /**< a bug in cadence: the message says where */
} cadence_status;

/** A short, stable name for a status ("CADENCE_E_CLOSED"); "unknown" for other values.
 *  Thread: any. */
CADENCE_C_API const char* cadence_status_name(int status);
/** The message of the last call on this thread that failed ("" before any; at most 1,023
 *  bytes, a longer one cut to end in "..."). Valid until the next failing call on this thread.
 *  Thread: any (each thread has its own). */
CADENCE_C_API const char* cadence_last_error(void);

/* ---- Common types ---------------------------------------------------------------------------- */

typedef int64_t cadence_ns;
#define CADENCE_NEVER INT64_MAX

typedef struct cadence_runtime cadence_runtime;
typedef struct cadence_worker cadence_worker;

/** Frees a callback's user data; runs exactly once (see the rules above). */
typedef void (*cadence_destroy_fn)(void* user);

/** What a callback asks the window to do after it returns. */
#define CADENCE_UPDATE_NOTHING 0
#define CADENCE_UPDATE_REDRAW 1     /* draw this window again */
#define CADENCE_UPDATE_REDRAW_ALL 2 /* draw every window of the loop again */

/* ---- Runtimes -------------------------------------------------------------------------------- */

#define CADENCE_CLOCK_SYSTEM 0 /* the monotonic system clock */
#define CADENCE_CLOCK_MANUAL 1 /* a clock that moves only by cadence_runtime_advance_clock (tests) */
#define CADENCE_QUEUE_WHEEL 0  /* a hierarchical timing wheel: O(1) add and remove */
#define CADENCE_QUEUE_HEAP 1   /* a binary heap */

typedef struct cadence_runtime_options {
  uint32_t struct_size;
  int clock;                  /**< CADENCE_CLOCK_SYSTEM (default) or CADENCE_CLOCK_MANUAL */
  int queue;                  /**< CADENCE_QUEUE_WHEEL (default) or CADENCE_QUEUE_HEAP */
  cadence_ns frame_interval;  /**< wake-up period while an animation timer runs; > 0 (16.7 ms) */
  cadence_ns join_deadline;   /**< how long destroy waits for workers (2 s); CADENCE_NEVER: for ever */
} cadence_runtime_options;

/** Sets `options` to the defaults. Thread: any. Nothing to report: NULL does nothing. */
CADENCE_C_API void cadence_runtime_options_init(cadence_runtime_options* options);
/** Makes a runtime (NULL options: the defaults); the calling thread becomes its UI thread.
 *  Errors: INVALID_ARGUMENT (out NULL, a bad option), NO_MEMORY. */
CADENCE_C_API int cadence_runtime_create(const cadence_runtime_options* options, cadence_runtime** out);
/** Stops its workers and joins them (at most join_deadline), then destroys every timer and
 *  thread, running their destroy functions. Errors: INVALID_ARGUMENT (a window's runtime:
 *  destroy the window), CLOSED, WRONG_THREAD, REENTRANT_CALL (from one of its callbacks). */
CADENCE_C_API int cadence_runtime_destroy(cadence_runtime* runtime);
/** The runtime's clock now, from its creation. Errors: CLOSED, WRONG_THREAD. */
CADENCE_C_API int cadence_runtime_now(cadence_runtime* runtime, cadence_ns* out);
/** Moves a manual clock forward by `delta` >= 0. Errors: INVALID_ARGUMENT (a system clock, a
 *  negative delta), CLOSED, WRONG_THREAD. */
CADENCE_C_API int cadence_runtime_advance_clock(cadence_runtime* runtime, cadence_ns delta);

/** What a frame did (cadence_runtime_poll). */
typedef struct cadence_report {
  int update;                /**< CADENCE_UPDATE_*: the largest redraw request of the frame */
  uint32_t timers_run;       /**< timer callbacks run */
  uint32_t thread_messages;  /**< worker messages delivered */
  uint32_t failures;         /**< failures, each passed to the failure handler */
} cadence_report;

/** Runs one frame now: the due timers, the workers' messages, then the changes they asked
 *  for. Each failure goes to the failure handler. `out` may be NULL.
 *  Errors: REENTRANT_CALL (from its own callbacks: nothing runs), INVALID_ARGUMENT (a window's
 *  runtime: the window runs its frames), CLOSED, WRONG_THREAD. */
CADENCE_C_API int cadence_runtime_poll(cadence_runtime* runtime, cadence_report* out);
/** How long the loop may sleep from now: 0 when something is due, CADENCE_NEVER when nothing
 *  is scheduled (a worker's post wakes the loop through the waker). Exact: sleeping for it and
 *  polling runs the next timer. Errors: CLOSED, WRONG_THREAD. */
CADENCE_C_API int cadence_runtime_next_wake(cadence_runtime* runtime, cadence_ns* out);
/** Sets the function workers call to wake the loop after posting into an empty channel (once
 *  per batch). It runs on worker threads, must be quick and must not call cadence; NULL clears
 *  it. The old waker's destroy runs once the new one is in place. Errors: INVALID_ARGUMENT (a
 *  window's runtime: the window wakes its loop itself), CLOSED (also while it is destroyed),
 *  WRONG_THREAD. */
CADENCE_C_API int cadence_runtime_set_waker(cadence_runtime* runtime, void (*waker)(void* user), void* user,
                                            cadence_destroy_fn destroy);
/** Sets the function each failure of a frame goes to: a callback that failed or returned an
 *  unknown value, a worker that failed, a clock that stepped back. `timer` or `thread` names
 *  what it concerns (0 for none). Without one (NULL), failures are printed to stderr.
 *  It runs on the UI thread and may call cadence, replace itself included (its destroy then runs
 *  once it has returned). Errors: CLOSED (also while it is destroyed), WRONG_THREAD. */
typedef void (*cadence_failure_fn)(void* user, int status, const char* message, uint64_t timer, uint64_t thread);
CADENCE_C_API int cadence_runtime_set_failure_handler(cadence_runtime* runtime, cadence_failure_fn handler, void* user,
                                                      cadence_destroy_fn destroy);
/** Asks for a frame that redraws `delay` from now (<= 0: the next frame).
 *  Errors: CLOSED, WRONG_THREAD. */
CADENCE_C_API int cadence_runtime_request_redraw(cadence_runtime* runtime, cadence_ns delay);
/** Tells the runtime its window is hidden (non-zero) or shown: system timers pause, app timers
 *  follow their when_hidden policy. Errors: REENTRANT_CALL (inside a frame), INVALID_ARGUMENT (a
 *  window's runtime: the window knows), CLOSED, WRONG_THREAD. */
CADENCE_C_API int cadence_runtime_set_hidden(cadence_runtime* runtime, int hidden);

/* ---- Timers -----------------------------------------------------------------------------------
 * A timer is due `delay` after it is added, then every `interval`; with no interval it runs on
 * every frame (an animation timer). At its timeout it runs a last time with is_about_to_finish
 * set, then is removed. Inside a frame, changes are recorded and carried out when the frame's
 * changes are applied (a timer added there does not run in that frame); elsewhere at once. */

#define CADENCE_MISSED_SKIP 0  /* after a stall: one run, the rest counted in missed_ticks */
#define CADENCE_MISSED_BURST 1 /* one run per missed due time */
#define CADENCE_MISSED_DELAY 2 /* one run; the schedule restarts from it */
#define CADENCE_HIDDEN_KEEP 0     /* runs while the window is hidden */
#define CADENCE_HIDDEN_PAUSE 1    /* paused while hidden */
#define CADENCE_HIDDEN_THROTTLE 2 /* at most once per hidden_period while hidden */

typedef struct cadence_timer_options {
  uint32_t struct_size;
  cadence_ns delay;          /**< >= 0 (default 0) */
  cadence_ns interval;       /**< > 0, or 0 for none: runs on every frame (default 0) */
  cadence_ns timeout;        /**< >= delay, or CADENCE_NEVER for none (the default) */
  cadence_ns slack;          /**< >= 0: may run this late to share a wake-up (default 0) */
  int missed_ticks;          /**< CADENCE_MISSED_* (default SKIP) */
  int when_hidden;           /**< CADENCE_HIDDEN_* (default KEEP) */
  cadence_ns hidden_period;  /**< THROTTLE only: > 0 */
} cadence_timer_options;

/** What a timer callback is told about its run. */
typedef struct cadence_timer_info {
  uint64_t id;
  cadence_ns frame_start;   /**< the same for every callback of the frame */
  cadence_ns due;           /**< when this run was due */
  uint64_t call_count;      /**< runs before this one */
  uint64_t missed_ticks;    /**< due times skipped since the last run */
  int is_about_to_finish;   /**< 1 on the last run, at the timeout */
} cadence_timer_info;

#define CADENCE_TIMER_KEEP 0
#define CADENCE_TIMER_REDRAW 1 /* draw the window again */
#define CADENCE_TIMER_STOP 2   /* remove the timer (may be or-ed with REDRAW) */
/** A timer callback returns CADENCE_TIMER_* flags; any other bit removes the timer and is
 *  reported as CADENCE_E_CALLBACK_FAILED. */
typedef int (*cadence_timer_fn)(void* user, cadence_runtime* runtime, const cadence_timer_info* info);

/** Sets `options` to the defaults: a timer that runs on every frame. Thread: any. */
CADENCE_C_API void cadence_timer_options_init(cadence_timer_options* options);
/** Adds a timer under `id` (0: a fresh id); `out_id` (may be NULL) gets its id. NULL options:
 *  the defaults. Errors: INVALID_ARGUMENT (NULL fn, a reserved id, a bad option: the message
 *  names it), ALREADY_EXISTS, CLOSED, WRONG_THREAD. Cost: O(1) on the wheel. */
CADENCE_C_API int cadence_timer_add(cadence_runtime* runtime, uint64_t id, const cadence_timer_options* options,
                                    cadence_timer_fn fn, void* user, cadence_destroy_fn destroy, uint64_t* out_id);
/** Starts a timer under `id` (> 0, not reserved), first removing the one that has it, if any
 *  (uv_timer_start on a running timer). Errors: as cadence_timer_add (the old timer keeps
 *  running). */
CADENCE_C_API int cadence_timer_replace(cadence_runtime* runtime, uint64_t id, const cadence_timer_options* options,
                                        cadence_timer_fn fn, void* user, cadence_destroy_fn destroy);
/** Removes a timer; a callback may remove itself. Errors: NOT_FOUND, INVALID_ARGUMENT (a
 *  reserved id), CLOSED, WRONG_THREAD. The same for pause and resume. */
CADENCE_C_API int cadence_timer_remove(cadence_runtime* runtime, uint64_t id);
/** Pauses a timer, keeping the time it had left. Errors: NOT_FOUND, CLOSED, WRONG_THREAD. */
CADENCE_C_API int cadence_timer_pause(cadence_runtime* runtime, uint64_t id);
/** Resumes a paused timer with the time it had left. Errors: NOT_FOUND, CLOSED, WRONG_THREAD. */
CADENCE_C_API int cadence_timer_resume(cadence_runtime* runtime, uint64_t id);
/** 1 in *out for a live app timer not stopped in this frame, else 0 (0 for reserved ids).
 *  Errors: CLOSED, WRONG_THREAD. */
CADENCE_C_API int cadence_timer_exists(cadence_runtime* runtime, uint64_t id, int* out);

/* ---- Background threads -----------------------------------------------------------------------
 * A worker function runs on a thread of its own with a cadence_worker: it reports progress,
 * sends write-backs (functions the UI thread runs) and receives messages. Stopping is
 * cooperative: it sees CADENCE_MESSAGE_TERMINATE and cadence_worker_stop_requested(). Once it
 * has returned and everything it sent was delivered, on_finish runs once on the UI thread. */

#define CADENCE_OUTCOME_FINISHED 0  /* the worker returned, unasked */
#define CADENCE_OUTCOME_STOPPED 1   /* it returned after a stop request */
#define CADENCE_OUTCOME_FAILED 2    /* it failed (message says how; also a failure report) */
#define CADENCE_OUTCOME_ABANDONED 3 /* its runtime was destroyed while it was in it */
#define CADENCE_PRIORITY_BACKGROUND 0 /* below the UI thread (Linux: nice +10); the default */
#define CADENCE_PRIORITY_NORMAL 1

/** How a thread ended. */
typedef struct cadence_outcome {
  uint64_t thread;
  int kind;             /**< CADENCE_OUTCOME_* */
  const char* message;  /**< FAILED: what went wrong; else "". Valid during the call. */
} cadence_outcome;

/** Runs on the worker's thread; `worker` is valid until it returns (using it after that is
 *  undefined: it is not a handle). Returns CADENCE_OK, or a status that makes the outcome
 *  FAILED (a value that is no cadence_status is reported as such). */
typedef int (*cadence_worker_fn)(void* user, cadence_worker* worker);
/** Runs once on the UI thread after the worker returned and all it sent was delivered; or, with
 *  ABANDONED, while its runtime is destroyed, even though the worker may still run (the runtime
 *  then answers as an empty one: cadence_thread_exists says 0). Returns CADENCE_UPDATE_*
 *  (another value is reported as CALLBACK_FAILED). */
typedef int (*cadence_finish_fn)(void* user, cadence_runtime* runtime, const cadence_outcome* outcome);
/** A write-back: runs on the UI thread with the data the worker sent; returns CADENCE_UPDATE_*
 *  (another value is reported as CALLBACK_FAILED and taken as NOTHING). */
typedef int (*cadence_writeback_fn)(void* data, cadence_runtime* runtime);

typedef struct cadence_thread_options {
  uint32_t struct_size;
  cadence_worker_fn worker;     /**< required */
  cadence_finish_fn on_finish;  /**< may be NULL */
  void* user;                   /**< passed to both */
  /** Runs once both are done with `user`: after the worker returned and on_finish ran (on the
   *  UI thread, or on the worker's thread for a worker its runtime had to let go). */
  cadence_destroy_fn destroy;
  int priority;                 /**< CADENCE_PRIORITY_* */
} cadence_thread_options;

/** Sets `options` to the defaults (no worker yet). Thread: any. */
CADENCE_C_API void cadence_thread_options_init(cadence_thread_options* options);
/** Starts a thread under `id` (0: a fresh id, in *out_id, which may be NULL); its worker's
 *  first tick comes with the next frame. Errors: INVALID_ARGUMENT (no worker, a reserved id, a
 *  bad option), ALREADY_EXISTS, RESOURCE (no thread), CLOSED, WRONG_THREAD. */
CADENCE_C_API int cadence_thread_start(cadence_runtime* runtime, uint64_t id, const cadence_thread_options* options,
                                       uint64_t* out_id);
/** Asks a thread to stop (its worker sees TERMINATE). Errors: NOT_FOUND, CLOSED, WRONG_THREAD. */
CADENCE_C_API int cadence_thread_stop(cadence_runtime* runtime, uint64_t id);
/** Sends `data` to a thread's worker, which receives it as CADENCE_MESSAGE_CUSTOM and then owns
 *  it; if it is never received, cadence runs `destroy(data)` once (on the UI or the worker's
 *  thread). Errors: NOT_FOUND; CLOSED (the worker has finished; destroy ran); WRONG_THREAD. */
CADENCE_C_API int cadence_thread_send(cadence_runtime* runtime, uint64_t id, void* data, cadence_destroy_fn destroy);
/** The newest progress value the worker reported, as the last frame took it.
 *  Errors: EMPTY (none yet), NOT_FOUND, CLOSED, WRONG_THREAD. */
CADENCE_C_API int cadence_thread_progress(cadence_runtime* runtime, uint64_t id, double* out);
/** 1 in *out from the start until the thread is removed (after on_finish), else 0.
 *  Errors: CLOSED, WRONG_THREAD. */
CADENCE_C_API int cadence_thread_exists(cadence_runtime* runtime, uint64_t id, int* out);

/* The worker's functions. Thread: the worker's own; from another: WRONG_THREAD. Errors: CLOSED
 * once the runtime is gone (nothing sent: the worker should return; a receive first hands over
 * what was sent before, the TERMINATE its runtime's end sends included). */

#define CADENCE_MESSAGE_TICK 0      /* a frame started (one, however many passed) */
#define CADENCE_MESSAGE_TERMINATE 1 /* the thread was asked to stop */
#define CADENCE_MESSAGE_CUSTOM 2    /* data from cadence_thread_send: now the worker's */

typedef struct cadence_message {
  int kind;                    /**< CADENCE_MESSAGE_* */
  void* data;                  /**< CUSTOM: the data sent; else NULL */
  cadence_destroy_fn destroy;  /**< CUSTOM: its destroy function, for the worker to call */
} cadence_message;

/** Reports progress: the UI takes the newest value at most once per frame, and redraws.
 *  Cost: an uncontended lock. */
CADENCE_C_API int cadence_worker_progress(cadence_worker* worker, double value);
/** Asks the window to redraw (CADENCE_UPDATE_*; NOTHING only wakes it).
 *  Errors: INVALID_ARGUMENT (another value). */
CADENCE_C_API int cadence_worker_update(cadence_worker* worker, int update);
/** Sends `fn(data, runtime)` to run on the UI thread; `destroy(data)` runs once after it, or
 *  when it cannot be delivered. Errors: INVALID_ARGUMENT (NULL fn), CLOSED, WRONG_THREAD;
 *  on an error destroy has run. Cost: about 10 ns, one allocation. */
CADENCE_C_API int cadence_worker_write_back(cadence_worker* worker, cadence_writeback_fn fn, void* data,
                                            cadence_destroy_fn destroy);
/** Waits up to `timeout` (<= 0: not at all; CADENCE_NEVER: until one comes) for a message.
 *  With `ticks` 0 a tick does not end the wait (a worker waiting for jobs then costs the UI
 *  nothing per frame). Errors: EMPTY (none came), INVALID_ARGUMENT (out NULL), WRONG_THREAD. */
CADENCE_C_API int cadence_worker_receive(cadence_worker* worker, cadence_ns timeout, int ticks, cadence_message* out);
/** 1 once the thread was asked to stop, else 0 (also 0 for NULL). Thread: any. */
CADENCE_C_API int cadence_worker_stop_requested(const cadence_worker* worker);

#ifdef __cplusplus
}
#endif

#endif /* CADENCE_CADENCE_H */
