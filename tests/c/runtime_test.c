/* The C API's runtimes and timers, from C, on a manual clock. */
#include <pthread.h>

#include "check.h"

/* ---- Helpers ------------------------------------------------------------------------------- */

static cadence_runtime* manual_runtime(void) {
  cadence_runtime_options o;
  cadence_runtime* rt = NULL;
  cadence_runtime_options_init(&o);
  o.clock = CADENCE_CLOCK_MANUAL;
  CHECK_OK(cadence_runtime_create(&o, &rt));
  CHECK(rt != NULL);
  return rt;
}

static void advance_and_poll(cadence_runtime* rt, cadence_ns delta, cadence_report* report) {
  CHECK_OK(cadence_runtime_advance_clock(rt, delta));
  CHECK_OK(cadence_runtime_poll(rt, report));
}

/* A timer's record of what it saw; `destroyed` counts destroy calls. */
typedef struct Probe {
  int runs;
  int destroyed;
  int result;          /* what the callback returns */
  cadence_timer_info last;
  cadence_runtime* rt; /* for callbacks that call back */
  int nested_status;   /* what a call from inside the callback returned */
  int (*inside)(struct Probe* p);
} Probe;

static int probe_fn(void* user, cadence_runtime* rt, const cadence_timer_info* info) {
  Probe* p = (Probe*)user;
  CHECK(rt == p->rt);
  p->runs++;
  p->last = *info;
  if (p->inside != NULL) p->nested_status = p->inside(p);
  return p->result;
}

static void probe_destroy(void* user) { ((Probe*)user)->destroyed++; }

static Probe probe(cadence_runtime* rt) {
  Probe p;
  memset(&p, 0, sizeof p);
  p.rt = rt;
  return p;
}

static cadence_timer_options every(cadence_ns interval) {
  cadence_timer_options o;
  cadence_timer_options_init(&o);
  o.delay = interval;
  o.interval = interval;
  return o;
}

/* A failure handler that keeps the last failure. */
typedef struct Failures {
  int count;
  int status;
  char message[512];
  uint64_t timer;
  int destroyed;
} Failures;

static void on_failure(void* user, int status, const char* message, uint64_t timer, uint64_t thread) {
  Failures* f = (Failures*)user;
  (void)thread;
  f->count++;
  f->status = status;
  f->timer = timer;
  snprintf(f->message, sizeof f->message, "%s", message);
}

static void failures_destroy(void* user) { ((Failures*)user)->destroyed++; }

/* ---- Versions and status codes --------------------------------------------------------------- */

static void version_and_status_names(void) {
  static const int all[] = {CADENCE_OK,
                            CADENCE_E_INVALID_ARGUMENT,
                            CADENCE_E_NOT_FOUND,
                            CADENCE_E_STALE,
                            CADENCE_E_ALREADY_CANCELLED,
                            CADENCE_E_MISMATCH,
                            CADENCE_E_EMPTY,
                            CADENCE_E_CLOCK_MISMATCH,
                            CADENCE_E_ALREADY_EXISTS,
                            CADENCE_E_CALLBACK_FAILED,
                            CADENCE_E_CLOCK_WENT_BACKWARDS,
                            CADENCE_E_REENTRANT_CALL,
                            CADENCE_E_CLOSED,
                            CADENCE_E_RESOURCE,
                            CADENCE_E_FULL,
                            CADENCE_E_UNSAFE,
                            CADENCE_E_CORRUPT,
                            CADENCE_E_SYSTEM,
                            CADENCE_E_WRONG_THREAD,
                            CADENCE_E_NO_MEMORY,
                            CADENCE_E_UNSUPPORTED,
                            CADENCE_E_NOT_DRAWING,
                            CADENCE_E_INTERNAL};
  size_t i;
  CHECK(cadence_version() == CADENCE_VERSION);
  CHECK(cadence_version() >> 16 == CADENCE_VERSION_MAJOR);
  for (i = 0; i < sizeof all / sizeof all[0]; ++i) {
    CHECK(strncmp(cadence_status_name(all[i]), "CADENCE_", 8) == 0);
  }
  CHECK(strcmp(cadence_status_name(CADENCE_E_CLOSED), "CADENCE_E_CLOSED") == 0);
  CHECK(strcmp(cadence_status_name(-1), "unknown") == 0);
  CHECK(strcmp(cadence_status_name(999), "unknown") == 0);
  CHECK(cadence_last_error() != NULL);
}

static void *first_error_of_a_new_thread(void* out) {
  *(int*)out = cadence_last_error()[0] == '\0';
  return NULL;
}

static void last_error_is_per_thread(void) {
  pthread_t t;
  int empty = 0;
  CHECK_STATUS(cadence_runtime_create(NULL, NULL), CADENCE_E_INVALID_ARGUMENT, "out is NULL");
  CHECK(pthread_create(&t, NULL, first_error_of_a_new_thread, &empty) == 0);
  CHECK(pthread_join(t, NULL) == 0);
  CHECK(empty == 1);
  CHECK(strstr(cadence_last_error(), "out is NULL") != NULL);
}

/* ---- Runtimes ---------------------------------------------------------------------------------- */

static void runtime_options_are_checked(void) {
  cadence_runtime_options o;
  cadence_runtime* rt = NULL;
  cadence_runtime_options_init(NULL); /* does nothing */
  cadence_runtime_options_init(&o);
  CHECK(o.struct_size == sizeof o && o.clock == CADENCE_CLOCK_SYSTEM && o.queue == CADENCE_QUEUE_WHEEL);
  CHECK(o.frame_interval == 16666667 && o.join_deadline == MS(2000));
  o.struct_size = 4;
  CHECK_STATUS(cadence_runtime_create(&o, &rt), CADENCE_E_INVALID_ARGUMENT, "struct_size is 4");
  cadence_runtime_options_init(&o);
  o.clock = 7;
  CHECK_STATUS(cadence_runtime_create(&o, &rt), CADENCE_E_INVALID_ARGUMENT, "clock is 7");
  cadence_runtime_options_init(&o);
  o.queue = -1;
  CHECK_STATUS(cadence_runtime_create(&o, &rt), CADENCE_E_INVALID_ARGUMENT, "queue is -1");
  cadence_runtime_options_init(&o);
  o.frame_interval = 0;
  CHECK_STATUS(cadence_runtime_create(&o, &rt), CADENCE_E_INVALID_ARGUMENT, "frame_interval is 0");
  CHECK(rt == NULL);
  /* The defaults, the heap, and a system clock that cannot be moved by hand. */
  CHECK_OK(cadence_runtime_create(NULL, &rt));
  CHECK_STATUS(cadence_runtime_advance_clock(rt, 1), CADENCE_E_INVALID_ARGUMENT, "system clock");
  CHECK_OK(cadence_runtime_destroy(rt));
  cadence_runtime_options_init(&o);
  o.queue = CADENCE_QUEUE_HEAP;
  o.clock = CADENCE_CLOCK_MANUAL;
  CHECK_OK(cadence_runtime_create(&o, &rt));
  CHECK_STATUS(cadence_runtime_advance_clock(rt, -1), CADENCE_E_INVALID_ARGUMENT, "delta is -1");
  CHECK_OK(cadence_runtime_destroy(rt));
}

static void now_and_next_wake_follow_the_clock(void) {
  cadence_runtime* rt = manual_runtime();
  cadence_ns now = -1, wake = 0;
  Probe p = probe(rt);
  cadence_timer_options o = every(MS(100));
  CHECK_OK(cadence_runtime_now(rt, &now));
  CHECK(now == 0);
  CHECK_OK(cadence_runtime_next_wake(rt, &wake));
  CHECK(wake == CADENCE_NEVER);
  CHECK_OK(cadence_timer_add(rt, 0, &o, probe_fn, &p, NULL, NULL));
  CHECK_OK(cadence_runtime_advance_clock(rt, MS(30)));
  CHECK_OK(cadence_runtime_now(rt, &now));
  CHECK(now == MS(30));
  CHECK_OK(cadence_runtime_next_wake(rt, &wake));
  CHECK(wake == MS(70));
  CHECK_STATUS(cadence_runtime_now(rt, NULL), CADENCE_E_INVALID_ARGUMENT, "out is NULL");
  CHECK_STATUS(cadence_runtime_next_wake(rt, NULL), CADENCE_E_INVALID_ARGUMENT, "out is NULL");
  CHECK_OK(cadence_runtime_destroy(rt));
}

static void a_redraw_request_wakes_exactly(void) {
  cadence_runtime* rt = manual_runtime();
  cadence_ns wake = 0;
  cadence_report r;
  CHECK_OK(cadence_runtime_request_redraw(rt, MS(50)));
  CHECK_OK(cadence_runtime_next_wake(rt, &wake));
  CHECK(wake == MS(50));
  advance_and_poll(rt, MS(49), &r);
  CHECK(r.update == CADENCE_UPDATE_NOTHING);
  advance_and_poll(rt, MS(1), &r);
  CHECK(r.update == CADENCE_UPDATE_REDRAW);
  CHECK_OK(cadence_runtime_poll(rt, NULL)); /* a NULL report is allowed */
  CHECK_OK(cadence_runtime_destroy(rt));
}

static int calls_destroy(Probe* p) { return cadence_runtime_destroy(p->rt); }
static int calls_poll(Probe* p) { return cadence_runtime_poll(p->rt, NULL); }
static int calls_set_hidden(Probe* p) { return cadence_runtime_set_hidden(p->rt, 1); }

static void callbacks_cannot_pull_the_runtime_away(void) {
  int (*const calls[])(Probe*) = {calls_destroy, calls_poll, calls_set_hidden};
  const char* words[] = {"own callbacks", "inside the runtime's own frame", "inside a timer callback"};
  size_t i;
  for (i = 0; i < 3; ++i) {
    cadence_runtime* rt = manual_runtime();
    Probe p = probe(rt);
    cadence_timer_options o = every(MS(10));
    p.inside = calls[i];
    p.nested_status = -1;
    CHECK_OK(cadence_timer_add(rt, 0, &o, probe_fn, &p, probe_destroy, NULL));
    advance_and_poll(rt, MS(10), NULL);
    CHECK(p.runs == 1);
    if (p.nested_status != CADENCE_E_REENTRANT_CALL) {
      fprintf(stderr, "call %zu from a callback returned %s\n", i, cadence_status_name(p.nested_status));
      exit(1);
    }
    CHECK(strstr(cadence_last_error(), words[i]) != NULL);
    CHECK_OK(cadence_runtime_destroy(rt)); /* still whole */
    CHECK(p.destroyed == 1);
  }
}

/* A destroy function that tries to destroy its runtime, and to add a timer, while it is destroyed. */
typedef struct Reentry {
  cadence_runtime* rt;
  int destroy_status;
  int add_status;
} Reentry;

static int keep(void* user, cadence_runtime* rt, const cadence_timer_info* info) {
  (void)user, (void)rt, (void)info;
  return CADENCE_TIMER_KEEP;
}

static void reenter_from_destroy(void* user) {
  Reentry* r = (Reentry*)user;
  r->destroy_status = cadence_runtime_destroy(r->rt);
  r->add_status = cadence_timer_add(r->rt, 0, NULL, keep, NULL, NULL, NULL);
}

static void destroy_functions_may_call_back_while_the_runtime_goes(void) {
  Reentry r;
  r.rt = manual_runtime();
  CHECK_OK(cadence_timer_add(r.rt, 0, NULL, keep, &r, reenter_from_destroy, NULL));
  CHECK_OK(cadence_runtime_destroy(r.rt));
  CHECK(r.destroy_status == CADENCE_E_REENTRANT_CALL);
  CHECK(r.add_status == CADENCE_E_CLOSED);
}

static void failures_reach_the_handler(void) {
  cadence_runtime* rt = manual_runtime();
  Failures f, g;
  Probe p = probe(rt);
  cadence_timer_options o = every(MS(10));
  uint64_t id = 0;
  int exists = 1;
  memset(&f, 0, sizeof f);
  memset(&g, 0, sizeof g);
  CHECK_OK(cadence_runtime_set_failure_handler(rt, on_failure, &f, failures_destroy));
  p.result = 8; /* no CADENCE_TIMER_* flag */
  CHECK_OK(cadence_timer_add(rt, 0, &o, probe_fn, &p, probe_destroy, &id));
  cadence_report r;
  advance_and_poll(rt, MS(10), &r);
  CHECK(r.failures == 1 && f.count == 1);
  CHECK(f.status == CADENCE_E_CALLBACK_FAILED && f.timer == id);
  CHECK(strstr(f.message, "returned 8") != NULL);
  CHECK_OK(cadence_timer_exists(rt, id, &exists));
  CHECK(exists == 0 && p.destroyed == 1); /* removed, destroyed once */
  /* A new handler takes over; the old one's destroy runs once. */
  CHECK_OK(cadence_runtime_set_failure_handler(rt, on_failure, &g, failures_destroy));
  CHECK(f.destroyed == 1 && g.destroyed == 0);
  CHECK_OK(cadence_runtime_set_failure_handler(rt, NULL, NULL, NULL)); /* back to stderr */
  CHECK(g.destroyed == 1);
  CHECK_OK(cadence_runtime_destroy(rt));
  CHECK(f.destroyed == 1 && g.destroyed == 1);
}

static void hidden_windows_pause_their_pausing_timers(void) {
  cadence_runtime* rt = manual_runtime();
  Probe kept = probe(rt), paused = probe(rt);
  cadence_timer_options o = every(MS(10));
  CHECK_OK(cadence_timer_add(rt, 0, &o, probe_fn, &kept, NULL, NULL));
  o.when_hidden = CADENCE_HIDDEN_PAUSE;
  CHECK_OK(cadence_timer_add(rt, 0, &o, probe_fn, &paused, NULL, NULL));
  CHECK_OK(cadence_runtime_set_hidden(rt, 1));
  advance_and_poll(rt, MS(10), NULL);
  CHECK(kept.runs == 1 && paused.runs == 0);
  CHECK_OK(cadence_runtime_set_hidden(rt, 0));
  advance_and_poll(rt, MS(10), NULL);
  CHECK(kept.runs == 2 && paused.runs == 1);
  CHECK_OK(cadence_runtime_destroy(rt));
}

typedef struct Waker {
  int calls;
  int destroyed;
} Waker;

static void wake(void* user) { ((Waker*)user)->calls++; }
static void waker_destroy(void* user) { ((Waker*)user)->destroyed++; }

static void wakers_are_replaced_and_destroyed_once(void) {
  cadence_runtime* rt = manual_runtime();
  Waker a = {0, 0}, b = {0, 0};
  CHECK_OK(cadence_runtime_set_waker(rt, wake, &a, waker_destroy));
  CHECK_OK(cadence_runtime_set_waker(rt, wake, &b, waker_destroy));
  CHECK(a.destroyed == 1 && b.destroyed == 0);
  CHECK_OK(cadence_runtime_set_waker(rt, NULL, &a, waker_destroy)); /* clears; this destroy runs at once */
  CHECK(a.destroyed == 2 && b.destroyed == 1);
  CHECK_OK(cadence_runtime_destroy(rt));
  CHECK(a.calls == 0 && b.calls == 0);
}

/* ---- Timers ---------------------------------------------------------------------------------- */

static void an_interval_timer_runs_on_its_grid(void) {
  cadence_runtime* rt = manual_runtime();
  Probe p = probe(rt);
  cadence_timer_options o = every(MS(100));
  uint64_t id = 0, other = 0;
  cadence_report r;
  p.result = CADENCE_TIMER_REDRAW;
  CHECK_OK(cadence_timer_add(rt, 0, &o, probe_fn, &p, probe_destroy, &id));
  CHECK(id >= 0x100);
  CHECK_OK(cadence_timer_add(rt, 0, &o, probe_fn, &p, NULL, &other));
  CHECK(other > id); /* fresh ids are never reissued */
  CHECK_OK(cadence_timer_remove(rt, other));
  advance_and_poll(rt, MS(99), &r);
  CHECK(p.runs == 0 && r.timers_run == 0 && r.update == CADENCE_UPDATE_NOTHING);
  advance_and_poll(rt, MS(1), &r);
  CHECK(p.runs == 1 && r.timers_run == 1 && r.update == CADENCE_UPDATE_REDRAW);
  CHECK(p.last.id == id && p.last.frame_start == MS(100) && p.last.due == MS(100));
  CHECK(p.last.call_count == 0 && p.last.missed_ticks == 0 && p.last.is_about_to_finish == 0);
  advance_and_poll(rt, MS(450), &r); /* a stall: skip runs once, 3 missed */
  CHECK(p.runs == 2 && p.last.missed_ticks == 3 && p.last.due == MS(500) && p.last.call_count == 1);
  p.result = CADENCE_TIMER_REDRAW | CADENCE_TIMER_STOP;
  advance_and_poll(rt, MS(50), &r);
  CHECK(p.runs == 3 && r.update == CADENCE_UPDATE_REDRAW);
  CHECK(p.destroyed == 1); /* stopped: destroyed once */
  CHECK_STATUS(cadence_timer_remove(rt, id), CADENCE_E_NOT_FOUND, NULL);
  CHECK_OK(cadence_runtime_destroy(rt));
  CHECK(p.destroyed == 1);
}

static void a_timeout_ends_a_timer_with_a_last_run(void) {
  cadence_runtime* rt = manual_runtime();
  Probe p = probe(rt);
  cadence_timer_options o = every(MS(100));
  o.timeout = MS(250);
  CHECK_OK(cadence_timer_add(rt, 0, &o, probe_fn, &p, probe_destroy, NULL));
  advance_and_poll(rt, MS(200), NULL);
  CHECK(p.runs == 1 && p.last.is_about_to_finish == 0);
  advance_and_poll(rt, MS(50), NULL);
  CHECK(p.runs == 2 && p.last.is_about_to_finish == 1 && p.destroyed == 1);
  CHECK_OK(cadence_runtime_destroy(rt));
}

static void every_policy_reaches_the_timer(void) {
  cadence_runtime* rt = manual_runtime();
  Probe burst = probe(rt), delayed = probe(rt), slack = probe(rt), frame = probe(rt), throttled = probe(rt);
  cadence_timer_options o = every(MS(100));
  o.missed_ticks = CADENCE_MISSED_BURST;
  CHECK_OK(cadence_timer_add(rt, 0, &o, probe_fn, &burst, NULL, NULL));
  o.missed_ticks = CADENCE_MISSED_DELAY;
  CHECK_OK(cadence_timer_add(rt, 0, &o, probe_fn, &delayed, NULL, NULL));
  o = every(MS(100));
  o.delay = MS(3);
  o.slack = MS(8); /* rounded up to the next 8 ms: due at 8 */
  CHECK_OK(cadence_timer_add(rt, 0, &o, probe_fn, &slack, NULL, NULL));
  cadence_timer_options_init(&o); /* every frame */
  CHECK_OK(cadence_timer_add(rt, 0, &o, probe_fn, &frame, NULL, NULL));
  o = every(MS(100));
  o.when_hidden = CADENCE_HIDDEN_THROTTLE;
  o.hidden_period = MS(300);
  CHECK_OK(cadence_timer_add(rt, 0, &o, probe_fn, &throttled, NULL, NULL));
  advance_and_poll(rt, MS(7), NULL);
  CHECK(slack.runs == 0 && frame.runs == 1);
  advance_and_poll(rt, MS(1), NULL);
  CHECK(slack.runs == 1 && slack.last.due == MS(3) && frame.runs == 2); /* due at 3, run at 8 */
  CHECK(slack.last.frame_start == MS(8));
  CHECK_OK(cadence_runtime_set_hidden(rt, 1));
  advance_and_poll(rt, MS(392), NULL); /* t = 400: four due times */
  CHECK(burst.runs == 4);              /* one per due time */
  CHECK(delayed.runs == 1);            /* once, then from here */
  CHECK(throttled.runs == 1);          /* at most once per 300 ms while hidden */
  advance_and_poll(rt, MS(100), NULL); /* t = 500 */
  CHECK(delayed.runs == 2 && delayed.last.frame_start == MS(500));
  CHECK(throttled.runs == 1);
  CHECK_OK(cadence_runtime_destroy(rt));
}

static void timer_options_are_checked_and_destroy_runs_on_refusal(void) {
  cadence_runtime* rt = manual_runtime();
  Probe p = probe(rt);
  cadence_timer_options o;
  int n = 0;
  cadence_timer_options_init(NULL); /* does nothing */
#define CASE(expr, w)                                                     \
  do {                                                                    \
    cadence_timer_options_init(&o);                                       \
    expr;                                                                 \
    CHECK_STATUS(cadence_timer_add(rt, 0, &o, probe_fn, &p, probe_destroy, NULL), \
                 CADENCE_E_INVALID_ARGUMENT, w);                          \
    ++n;                                                                  \
    CHECK(p.destroyed == n);                                              \
  } while (0)
  CASE(o.struct_size = 3, "struct_size is 3");
  CASE(o.delay = -1, "delay");
  CASE(o.interval = -5, "interval is -5");
  CASE((o.delay = MS(10), o.timeout = MS(5)), "timeout");
  CASE(o.slack = -1, "slack");
  CASE(o.missed_ticks = 3, "missed_ticks is 3");
  CASE(o.when_hidden = -1, "when_hidden is -1");
  CASE((o.interval = MS(1), o.when_hidden = CADENCE_HIDDEN_THROTTLE), "throttle");
#undef CASE
  /* Reserved ids, NULL callbacks, ids taken. */
  CHECK_STATUS(cadence_timer_add(rt, 5, NULL, probe_fn, &p, probe_destroy, NULL), CADENCE_E_INVALID_ARGUMENT, NULL);
  CHECK(p.destroyed == 9);
  CHECK_STATUS(cadence_timer_add(rt, 0, NULL, NULL, &p, probe_destroy, NULL), CADENCE_E_INVALID_ARGUMENT, "fn is NULL");
  CHECK(p.destroyed == 10);
  CHECK_OK(cadence_timer_add(rt, 0x5000, NULL, probe_fn, &p, NULL, NULL));
  CHECK_STATUS(cadence_timer_add(rt, 0x5000, NULL, probe_fn, &p, probe_destroy, NULL), CADENCE_E_ALREADY_EXISTS, NULL);
  CHECK(p.destroyed == 11);
  CHECK(p.runs == 0);
  CHECK_OK(cadence_runtime_destroy(rt));
}

static void pause_resume_replace_and_remove(void) {
  cadence_runtime* rt = manual_runtime();
  Probe a = probe(rt), b = probe(rt);
  cadence_timer_options o = every(MS(100));
  uint64_t id = 0;
  int exists = 0;
  CHECK_OK(cadence_timer_add(rt, 0, &o, probe_fn, &a, probe_destroy, &id));
  advance_and_poll(rt, MS(40), NULL);
  CHECK_OK(cadence_timer_pause(rt, id));
  CHECK_OK(cadence_timer_pause(rt, id)); /* stays paused */
  advance_and_poll(rt, MS(500), NULL);
  CHECK(a.runs == 0);
  CHECK_OK(cadence_timer_resume(rt, id));
  advance_and_poll(rt, MS(59), NULL);
  CHECK(a.runs == 0);
  advance_and_poll(rt, MS(1), NULL); /* the 60 ms it had left */
  CHECK(a.runs == 1);
  /* Replace: the old one is destroyed, the new one runs under the id. */
  CHECK_OK(cadence_timer_replace(rt, id, &o, probe_fn, &b, probe_destroy));
  CHECK(a.destroyed == 1);
  advance_and_poll(rt, MS(100), NULL);
  CHECK(a.runs == 1 && b.runs == 1 && b.last.id == id);
  CHECK_STATUS(cadence_timer_replace(rt, 0, &o, probe_fn, &a, probe_destroy), CADENCE_E_INVALID_ARGUMENT, "id is 0");
  CHECK(a.destroyed == 2);
  o.delay = -1;
  CHECK_STATUS(cadence_timer_replace(rt, id, &o, probe_fn, &a, probe_destroy), CADENCE_E_INVALID_ARGUMENT, "delay");
  CHECK(a.destroyed == 3 && b.destroyed == 0); /* the old timer keeps running */
  CHECK_OK(cadence_timer_exists(rt, id, &exists));
  CHECK(exists == 1);
  CHECK_STATUS(cadence_timer_exists(rt, id, NULL), CADENCE_E_INVALID_ARGUMENT, "out is NULL");
  CHECK_OK(cadence_timer_remove(rt, id));
  CHECK(b.destroyed == 1);
  CHECK_OK(cadence_timer_exists(rt, id, &exists));
  CHECK(exists == 0);
  CHECK_STATUS(cadence_timer_remove(rt, id), CADENCE_E_NOT_FOUND, NULL);
  CHECK_STATUS(cadence_timer_pause(rt, id), CADENCE_E_NOT_FOUND, NULL);
  CHECK_STATUS(cadence_timer_resume(rt, id), CADENCE_E_NOT_FOUND, NULL);
  CHECK_OK(cadence_runtime_destroy(rt));
}

static int adds_a_timer(Probe* p) { return cadence_timer_add(p->rt, 0, NULL, keep, NULL, NULL, NULL); }
static int removes_itself(Probe* p) { return cadence_timer_remove(p->rt, p->last.id); }

static void callbacks_change_timers_through_their_runtime(void) {
  cadence_runtime* rt = manual_runtime();
  Probe adder = probe(rt), self = probe(rt);
  cadence_timer_options o = every(MS(10));
  cadence_report r;
  adder.inside = adds_a_timer;
  self.inside = removes_itself;
  CHECK_OK(cadence_timer_add(rt, 0, &o, probe_fn, &adder, NULL, NULL));
  CHECK_OK(cadence_timer_add(rt, 0, &o, probe_fn, &self, probe_destroy, NULL));
  advance_and_poll(rt, MS(10), &r);
  CHECK(adder.nested_status == CADENCE_OK && self.nested_status == CADENCE_OK);
  CHECK(r.timers_run == 2); /* the timer added there does not run in that frame */
  CHECK(self.destroyed == 1);
  advance_and_poll(rt, 0, &r);
  CHECK(r.timers_run == 1); /* the animation timer added by the callback */
  CHECK_OK(cadence_runtime_destroy(rt));
}

/* A failure handler that replaces itself, then reads its own data. */
typedef struct Handler {
  cadence_runtime* rt;
  int destroyed;
  int calls;
  int destroyed_while_running;
  struct Handler* next;
} Handler;

static void handler_destroy(void* user) { ((Handler*)user)->destroyed++; }

static void replaces_itself(void* user, int status, const char* message, uint64_t timer, uint64_t thread) {
  Handler* h = (Handler*)user;
  (void)status, (void)message, (void)timer, (void)thread;
  h->calls++;
  CHECK_OK(cadence_runtime_set_failure_handler(h->rt, replaces_itself, h->next, handler_destroy));
  h->destroyed_while_running = h->destroyed; /* its data must still be whole here */
}

static int returns_garbage(void* user, cadence_runtime* rt, const cadence_timer_info* info) {
  (void)user, (void)rt, (void)info;
  return 64;
}

static void a_failure_handler_may_replace_itself(void) {
  Handler a, b;
  cadence_timer_options o = every(MS(10));
  memset(&a, 0, sizeof a);
  memset(&b, 0, sizeof b);
  a.rt = b.rt = manual_runtime();
  a.next = &b;
  b.next = &b;
  CHECK_OK(cadence_runtime_set_failure_handler(a.rt, replaces_itself, &a, handler_destroy));
  CHECK_OK(cadence_timer_add(a.rt, 0, &o, returns_garbage, NULL, NULL, NULL));
  advance_and_poll(a.rt, MS(10), NULL);
  CHECK(a.calls == 1 && a.destroyed_while_running == 0 && a.destroyed == 1);
  CHECK_OK(cadence_runtime_destroy(a.rt));
  CHECK(b.destroyed == 1);
}

static void reserved_timer_ids_are_refused(void) {
  cadence_runtime* rt = manual_runtime();
  Probe p = probe(rt);
  int exists = 1;
  uint64_t ids[] = {1, 5, 0xff};
  size_t i;
  for (i = 0; i < 3; ++i) {
    CHECK_STATUS(cadence_timer_replace(rt, ids[i], NULL, probe_fn, &p, probe_destroy), CADENCE_E_INVALID_ARGUMENT,
                 "reserved for the window's own timers");
    CHECK_STATUS(cadence_timer_remove(rt, ids[i]), CADENCE_E_INVALID_ARGUMENT, "reserved");
    CHECK_STATUS(cadence_timer_pause(rt, ids[i]), CADENCE_E_INVALID_ARGUMENT, "reserved");
    CHECK_STATUS(cadence_timer_resume(rt, ids[i]), CADENCE_E_INVALID_ARGUMENT, "reserved");
    CHECK_OK(cadence_timer_exists(rt, ids[i], &exists));
    CHECK(exists == 0);
  }
  CHECK(p.destroyed == 3 && p.runs == 0);
  CHECK_OK(cadence_runtime_destroy(rt));
}

static void fresh_ids_skip_the_ones_the_app_took(void) {
  cadence_runtime* rt = manual_runtime();
  uint64_t first = 0, second = 0;
  CHECK_OK(cadence_timer_add(rt, 0, NULL, keep, NULL, NULL, &first));
  CHECK_OK(cadence_timer_add(rt, first + 1, NULL, keep, NULL, NULL, NULL));
  CHECK_OK(cadence_timer_add(rt, first + 2, NULL, keep, NULL, NULL, NULL));
  CHECK_OK(cadence_timer_add(rt, 0, NULL, keep, NULL, NULL, &second));
  CHECK(second > first + 2);
  CHECK_OK(cadence_runtime_destroy(rt));
}

/* A callback adds a timer under an id of the app's own, then asks for a fresh one: the fresh id
 * skips the one waiting in the frame's changes. */
typedef struct Picker {
  uint64_t own;
  uint64_t fresh;
  int own_status;
  int fresh_status;
} Picker;

static int adds_its_own_then_a_fresh_one(void* user, cadence_runtime* rt, const cadence_timer_info* info) {
  Picker* p = (Picker*)user;
  (void)info;
  p->own_status = cadence_timer_add(rt, p->own, NULL, keep, NULL, NULL, NULL);
  p->fresh_status = cadence_timer_add(rt, 0, NULL, keep, NULL, NULL, &p->fresh);
  return CADENCE_TIMER_STOP;
}

static void a_fresh_id_skips_one_the_frame_adds(void) {
  cadence_runtime* rt = manual_runtime();
  cadence_timer_options o = every(MS(10));
  Picker p;
  uint64_t first = 0;
  int exists = 0;
  memset(&p, 0, sizeof p);
  CHECK_OK(cadence_timer_add(rt, 0, &o, adds_its_own_then_a_fresh_one, &p, NULL, &first));
  p.own = first + 1; /* the id the process's counter hands out next */
  advance_and_poll(rt, MS(10), NULL);
  CHECK_OK(p.own_status);
  CHECK_OK(p.fresh_status);
  CHECK(p.fresh != p.own && p.fresh > first);
  CHECK_OK(cadence_timer_exists(rt, p.own, &exists));
  CHECK(exists == 1);
  CHECK_OK(cadence_timer_exists(rt, p.fresh, &exists));
  CHECK(exists == 1);
  CHECK_OK(cadence_runtime_destroy(rt));
}

/* An id the app used for a timer it removed since is never handed out as a fresh one: the app's
 * stale remove of its old id then reaches nothing of cadence's. */
static void a_fresh_id_is_never_one_the_app_used_before(void) {
  cadence_runtime* rt = manual_runtime();
  uint64_t first = 0, fresh = 0, replaced = 0;
  int exists = 0, i;
  CHECK_OK(cadence_timer_add(rt, 0, NULL, keep, NULL, NULL, &first));
  CHECK_OK(cadence_timer_add(rt, first + 1, NULL, keep, NULL, NULL, NULL));
  CHECK_OK(cadence_timer_remove(rt, first + 1));
  CHECK_OK(cadence_timer_replace(rt, first + 3, NULL, keep, NULL, NULL)); /* replace starts one too */
  CHECK_OK(cadence_timer_remove(rt, first + 3));
  for (i = 0; i < 4; ++i) {
    CHECK_OK(cadence_timer_add(rt, 0, NULL, keep, NULL, NULL, &fresh));
    CHECK(fresh != first + 1 && fresh != first + 3);
    if (i == 0) replaced = fresh;
  }
  CHECK_STATUS(cadence_timer_remove(rt, first + 1), CADENCE_E_NOT_FOUND, NULL);
  CHECK_STATUS(cadence_timer_remove(rt, first + 3), CADENCE_E_NOT_FOUND, NULL);
  CHECK_OK(cadence_timer_exists(rt, replaced, &exists));
  CHECK(exists == 1);
  /* Ids far from any the process hands out, and the largest, are the app's to use too. */
  CHECK_OK(cadence_timer_add(rt, UINT64_MAX, NULL, keep, NULL, NULL, NULL));
  CHECK_OK(cadence_timer_add(rt, UINT64_MAX / 2, NULL, keep, NULL, NULL, NULL));
  CHECK_OK(cadence_timer_add(rt, 0, NULL, keep, NULL, NULL, &fresh));
  CHECK(fresh > replaced && fresh < replaced + 16); /* the counter did not jump to them */
  CHECK_OK(cadence_runtime_destroy(rt));
}

/* A frame with two failures; the handler replaces itself at the first, and the old handler's
 * destroy function then tries to poll and to destroy the runtime: both are refused, the second
 * failure reaches the new handler, and the runtime goes on. */
typedef struct FirstHandler {
  cadence_runtime* rt;
  int destroyed;
  int poll_status;
  int destroy_status;
  int second_calls; /* failures the handler that replaced it got */
} FirstHandler;

static void counts_failures(void* user, int status, const char* message, uint64_t timer, uint64_t thread) {
  (void)status, (void)message, (void)timer, (void)thread;
  ((FirstHandler*)user)->second_calls++;
}

static void replaces_itself_once(void* user, int status, const char* message, uint64_t timer, uint64_t thread) {
  FirstHandler* h = (FirstHandler*)user;
  (void)status, (void)message, (void)timer, (void)thread;
  CHECK_OK(cadence_runtime_set_failure_handler(h->rt, counts_failures, h, NULL));
}

static void tries_to_pull_the_runtime_away(void* user) {
  FirstHandler* h = (FirstHandler*)user;
  h->destroyed++;
  h->poll_status = cadence_runtime_poll(h->rt, NULL);
  h->destroy_status = cadence_runtime_destroy(h->rt);
}

static void a_replaced_handlers_destroy_cannot_pull_the_runtime_away(void) {
  cadence_timer_options o = every(MS(10));
  FirstHandler h;
  cadence_report report;
  memset(&h, 0, sizeof h);
  h.rt = manual_runtime();
  h.poll_status = h.destroy_status = -1;
  CHECK_OK(cadence_runtime_set_failure_handler(h.rt, replaces_itself_once, &h, tries_to_pull_the_runtime_away));
  CHECK_OK(cadence_timer_add(h.rt, 0, &o, returns_garbage, NULL, NULL, NULL));
  CHECK_OK(cadence_timer_add(h.rt, 0, &o, returns_garbage, NULL, NULL, NULL));
  advance_and_poll(h.rt, MS(10), &report);
  CHECK(report.failures == 2);
  CHECK(h.destroyed == 1);
  CHECK(h.poll_status == CADENCE_E_REENTRANT_CALL);
  CHECK(h.destroy_status == CADENCE_E_REENTRANT_CALL);
  CHECK(h.second_calls == 1);
  CHECK_OK(cadence_timer_add(h.rt, 0, NULL, keep, NULL, NULL, NULL)); /* it goes on */
  CHECK_OK(cadence_runtime_destroy(h.rt));
}

/* A destroy function whose own call fails must not change what the caller's failure says. */
static void fails_a_call(void* user) { (void)cadence_timer_remove((cadence_runtime*)user, 0x9999); }

static void a_destroy_function_keeps_the_callers_error(void) {
  cadence_runtime* rt = manual_runtime();
  CHECK_STATUS(cadence_timer_add(rt, 0, NULL, NULL, rt, fails_a_call, NULL), CADENCE_E_INVALID_ARGUMENT, "fn is NULL");
  CHECK_STATUS(cadence_runtime_set_waker(NULL, wake, rt, fails_a_call), CADENCE_E_INVALID_ARGUMENT, "runtime is NULL");
  CHECK_OK(cadence_runtime_destroy(rt));
}

/* While a runtime is destroyed, what destroy functions set is refused, not kept and lost. */
typedef struct Late {
  cadence_runtime* rt;
  int waker;
  int handler;
} Late;

static void sets_things_late(void* user) {
  Late* l = (Late*)user;
  l->waker = cadence_runtime_set_waker(l->rt, wake, NULL, NULL);
  l->handler = cadence_runtime_set_failure_handler(l->rt, on_failure, NULL, NULL);
}

static void what_a_runtime_being_destroyed_is_given_is_refused(void) {
  Late l;
  l.rt = manual_runtime();
  CHECK_OK(cadence_timer_add(l.rt, 0, NULL, keep, &l, sets_things_late, NULL));
  CHECK_OK(cadence_runtime_destroy(l.rt));
  CHECK(l.waker == CADENCE_E_CLOSED && l.handler == CADENCE_E_CLOSED);
}

/* ---- Bad handles ----------------------------------------------------------------------------- */

/* Every function that takes a runtime, given `rt`, returns `want`. */
static void every_runtime_call_says(cadence_runtime* rt, int want, const char* words) {
  cadence_ns ns = 0;
  int flag = 0;
  double progress = 0;
  Probe p = probe(rt);
  cadence_thread_options to;
  cadence_thread_options_init(&to);
  CHECK_STATUS(cadence_runtime_destroy(rt), want, words);
  CHECK_STATUS(cadence_runtime_now(rt, &ns), want, words);
  CHECK_STATUS(cadence_runtime_advance_clock(rt, 1), want, words);
  CHECK_STATUS(cadence_runtime_poll(rt, NULL), want, words);
  CHECK_STATUS(cadence_runtime_next_wake(rt, &ns), want, words);
  CHECK_STATUS(cadence_runtime_set_waker(rt, wake, &p, probe_destroy), want, words);
  CHECK_STATUS(cadence_runtime_set_failure_handler(rt, on_failure, &p, probe_destroy), want, words);
  CHECK_STATUS(cadence_runtime_request_redraw(rt, 0), want, words);
  CHECK_STATUS(cadence_runtime_set_hidden(rt, 1), want, words);
  CHECK_STATUS(cadence_timer_add(rt, 0, NULL, probe_fn, &p, probe_destroy, NULL), want, words);
  CHECK_STATUS(cadence_timer_replace(rt, 0x1234, NULL, probe_fn, &p, probe_destroy), want, words);
  CHECK_STATUS(cadence_timer_remove(rt, 0x1234), want, words);
  CHECK_STATUS(cadence_timer_pause(rt, 0x1234), want, words);
  CHECK_STATUS(cadence_timer_resume(rt, 0x1234), want, words);
  CHECK_STATUS(cadence_timer_exists(rt, 0x1234, &flag), want, words);
  CHECK_STATUS(cadence_thread_start(rt, 0, &to, NULL), want, words);
  CHECK_STATUS(cadence_thread_stop(rt, 99), want, words);
  CHECK_STATUS(cadence_thread_send(rt, 99, &p, probe_destroy), want, words);
  CHECK_STATUS(cadence_thread_progress(rt, 99, &progress), want, words);
  CHECK_STATUS(cadence_thread_exists(rt, 99, &flag), want, words);
  CHECK(p.runs == 0);
  CHECK(p.destroyed == 5); /* waker, failure handler, add, replace, send: each destroyed at once */
}

typedef struct Foreign {
  cadence_runtime* rt;
} Foreign;

static void* call_from_another_thread(void* arg) {
  every_runtime_call_says(((Foreign*)arg)->rt, CADENCE_E_WRONG_THREAD, "off the runtime's UI thread");
  return NULL;
}

static void null_destroyed_and_foreign_handles_are_refused(void) {
  cadence_runtime* rt = manual_runtime();
  pthread_t t;
  Foreign f;
  every_runtime_call_says(NULL, CADENCE_E_INVALID_ARGUMENT, "runtime is NULL");
  f.rt = rt;
  CHECK(pthread_create(&t, NULL, call_from_another_thread, &f) == 0);
  CHECK(pthread_join(t, NULL) == 0);
  CHECK_OK(cadence_runtime_destroy(rt));
  every_runtime_call_says(rt, CADENCE_E_CLOSED, "destroyed");
  /* Many runtimes later, the destroyed handle is still told apart. */
  {
    int i;
    for (i = 0; i < 50; ++i) CHECK_OK(cadence_runtime_destroy(manual_runtime()));
  }
  CHECK_STATUS(cadence_runtime_poll(rt, NULL), CADENCE_E_CLOSED, NULL);
}

/* atexit handlers run after static destructors of what was loaded before them: destroyed
 * handles are still told apart there. */
static cadence_runtime* destroyed_at_exit;
static void at_exit(void) { /* no exit() in here: a failure ends with _Exit */
  cadence_runtime* rt = NULL;
  if (cadence_runtime_destroy(destroyed_at_exit) != CADENCE_E_CLOSED) {
    fprintf(stderr, "at exit, a destroyed handle was not CADENCE_E_CLOSED: %s\n", cadence_last_error());
    _Exit(1);
  }
  if (cadence_runtime_create(NULL, &rt) != CADENCE_OK || cadence_runtime_destroy(rt) != CADENCE_OK) {
    fprintf(stderr, "at exit, a runtime could not be made and destroyed: %s\n", cadence_last_error());
    _Exit(1);
  }
}

int main(int argc, char** argv) {
  only_test = argc > 1 ? argv[1] : NULL;
  CHECK(atexit(at_exit) == 0);
  destroyed_at_exit = manual_runtime();
  CHECK_OK(cadence_runtime_destroy(destroyed_at_exit));
  RUN(version_and_status_names);
  RUN(last_error_is_per_thread);
  RUN(runtime_options_are_checked);
  RUN(now_and_next_wake_follow_the_clock);
  RUN(a_redraw_request_wakes_exactly);
  RUN(callbacks_cannot_pull_the_runtime_away);
  RUN(destroy_functions_may_call_back_while_the_runtime_goes);
  RUN(failures_reach_the_handler);
  RUN(hidden_windows_pause_their_pausing_timers);
  RUN(wakers_are_replaced_and_destroyed_once);
  RUN(an_interval_timer_runs_on_its_grid);
  RUN(a_timeout_ends_a_timer_with_a_last_run);
  RUN(every_policy_reaches_the_timer);
  RUN(timer_options_are_checked_and_destroy_runs_on_refusal);
  RUN(pause_resume_replace_and_remove);
  RUN(callbacks_change_timers_through_their_runtime);
  RUN(a_failure_handler_may_replace_itself);
  RUN(reserved_timer_ids_are_refused);
  RUN(fresh_ids_skip_the_ones_the_app_took);
  RUN(a_fresh_id_skips_one_the_frame_adds);
  RUN(a_fresh_id_is_never_one_the_app_used_before);
  RUN(a_replaced_handlers_destroy_cannot_pull_the_runtime_away);
  RUN(a_destroy_function_keeps_the_callers_error);
  RUN(what_a_runtime_being_destroyed_is_given_is_refused);
  RUN(null_destroyed_and_foreign_handles_are_refused);
  return 0;
}
