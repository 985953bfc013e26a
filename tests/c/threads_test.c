/* The C API's background threads, from C: real workers, waited for with generous deadlines. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "check.h"

/* ---- Helpers --------------------------------------------------------------------------------- */

static cadence_runtime* runtime_with_deadline(cadence_ns join_deadline) {
  cadence_runtime_options o;
  cadence_runtime* rt = NULL;
  cadence_runtime_options_init(&o);
  o.clock = CADENCE_CLOCK_MANUAL;
  o.join_deadline = join_deadline;
  CHECK_OK(cadence_runtime_create(&o, &rt));
  return rt;
}

static void nap(void) {
  const struct timespec ms = {0, 1000000};
  nanosleep(&ms, NULL);
}

/* Polls until *flag is non-zero, for at most 20 s (the condition, not the time, is the test). */
static void poll_until(cadence_runtime* rt, const atomic_int* flag) {
  int i;
  for (i = 0; i < 20000 && atomic_load(flag) == 0; ++i) {
    CHECK_OK(cadence_runtime_poll(rt, NULL));
    if (atomic_load(flag) == 0) nap();
  }
  CHECK(atomic_load(flag) != 0);
}

/* What one thread's callbacks saw. */
typedef struct Job {
  cadence_runtime* rt;
  atomic_int destroyed;     /* the thread's user data */
  atomic_int finished;      /* on_finish ran */
  atomic_int worker_done;   /* the worker returned */
  int outcome;
  char message[256];
  int worker_result;        /* what the worker returns */
  int finish_result;        /* what on_finish returns */
  int written_back;         /* sum of write-back values */
  atomic_int proceed;       /* the UI lets the worker go on */
  atomic_int ready;         /* the worker is ready for what comes next */
  int statuses[8];          /* statuses the worker saw */
  cadence_worker* stashed;  /* a worker pointer for a foreign-thread call */
} Job;

static void job_destroy(void* user) { atomic_fetch_add(&((Job*)user)->destroyed, 1); }

static int job_finish(void* user, cadence_runtime* rt, const cadence_outcome* how) {
  Job* j = (Job*)user;
  CHECK(rt == j->rt);
  j->outcome = how->kind;
  snprintf(j->message, sizeof j->message, "%s", how->message);
  atomic_store(&j->finished, 1);
  return j->finish_result;
}

static void wait_for(const atomic_int* flag) {
  int i;
  for (i = 0; i < 20000 && atomic_load(flag) == 0; ++i) nap();
  CHECK(atomic_load(flag) != 0);
}

static uint64_t start(cadence_runtime* rt, Job* j, cadence_worker_fn worker) {
  cadence_thread_options o;
  uint64_t id = 0;
  cadence_thread_options_init(&o);
  o.worker = worker;
  o.on_finish = job_finish;
  o.user = j;
  o.destroy = job_destroy;
  CHECK_OK(cadence_thread_start(rt, 0, &o, &id));
  CHECK(id >= 5);
  return id;
}

static Job* new_job(cadence_runtime* rt) {
  Job* j = (Job*)calloc(1, sizeof(Job));
  CHECK(j != NULL);
  j->rt = rt;
  return j;
}

/* ---- Progress, write-backs, outcomes --------------------------------------------------------- */

typedef struct Chunk {
  Job* job;
  int value;
  int* destroyed;
} Chunk;

static int add_chunk(void* data, cadence_runtime* rt) {
  Chunk* c = (Chunk*)data;
  CHECK(rt == c->job->rt);
  c->job->written_back += c->value;
  return CADENCE_UPDATE_REDRAW;
}

static int chunks_destroyed;
static void chunk_destroy(void* data) {
  ++chunks_destroyed; /* runs on the UI thread here: the runtime lives */
  free(data);
}

static int reports_progress(void* user, cadence_worker* w) {
  Job* j = (Job*)user;
  int i;
  CHECK_OK(cadence_worker_progress(w, 0.5));
  wait_for(&j->proceed);
  for (i = 1; i <= 3; ++i) {
    Chunk* c = (Chunk*)malloc(sizeof(Chunk));
    CHECK(c != NULL);
    c->job = j;
    c->value = i;
    CHECK_OK(cadence_worker_write_back(w, add_chunk, c, chunk_destroy));
  }
  CHECK_OK(cadence_worker_update(w, CADENCE_UPDATE_REDRAW_ALL));
  CHECK_STATUS(cadence_worker_update(w, 3), CADENCE_E_INVALID_ARGUMENT, "update is 3");
  CHECK_STATUS(cadence_worker_write_back(w, NULL, NULL, NULL), CADENCE_E_INVALID_ARGUMENT, "fn is NULL");
  CHECK_OK(cadence_worker_progress(w, 1.0));
  CHECK(cadence_worker_stop_requested(w) == 0);
  atomic_store(&j->worker_done, 1);
  return CADENCE_OK;
}

static void progress_and_write_backs_reach_the_ui(void) {
  cadence_runtime* rt = runtime_with_deadline(MS(10000));
  Job* j = new_job(rt);
  double progress = -1;
  int exists = 0;
  uint64_t id = start(rt, j, reports_progress);
  CHECK_STATUS(cadence_thread_progress(rt, id, &progress), CADENCE_E_EMPTY, "no progress yet");
  CHECK_OK(cadence_thread_exists(rt, id, &exists));
  CHECK(exists == 1);
  while (cadence_thread_progress(rt, id, &progress) == CADENCE_E_EMPTY) {
    CHECK_OK(cadence_runtime_poll(rt, NULL));
    nap();
  }
  CHECK(progress == 0.5);
  atomic_store(&j->proceed, 1);
  poll_until(rt, &j->finished);
  CHECK(j->written_back == 6 && chunks_destroyed == 3);
  CHECK(j->outcome == CADENCE_OUTCOME_FINISHED && j->message[0] == '\0');
  CHECK(atomic_load(&j->destroyed) == 1);
  CHECK_OK(cadence_runtime_poll(rt, NULL));
  CHECK_OK(cadence_thread_exists(rt, id, &exists));
  CHECK(exists == 0);
  CHECK_STATUS(cadence_thread_progress(rt, id, &progress), CADENCE_E_NOT_FOUND, NULL);
  CHECK_STATUS(cadence_thread_progress(rt, id, NULL), CADENCE_E_INVALID_ARGUMENT, "out is NULL");
  CHECK_STATUS(cadence_thread_exists(rt, id, NULL), CADENCE_E_INVALID_ARGUMENT, "out is NULL");
  CHECK_OK(cadence_runtime_destroy(rt));
  CHECK(atomic_load(&j->destroyed) == 1);
  free(j);
}

static int returns_its_result(void* user, cadence_worker* w) {
  (void)w;
  return ((Job*)user)->worker_result;
}

typedef struct Seen {
  int count;
  int status;
  char message[256];
  uint64_t thread;
} Seen;

static void keep_failure(void* user, int status, const char* message, uint64_t timer, uint64_t thread) {
  Seen* s = (Seen*)user;
  (void)timer;
  s->count++;
  s->status = status;
  s->thread = thread;
  snprintf(s->message, sizeof s->message, "%s", message);
}

static void what_a_worker_or_callback_returns_is_checked(void) {
  const int results[] = {CADENCE_E_RESOURCE, 12345};
  const char* words[] = {"returned CADENCE_E_RESOURCE", "12345, which is no cadence_status"};
  int i;
  for (i = 0; i < 2; ++i) {
    cadence_runtime* rt = runtime_with_deadline(MS(10000));
    Job* j = new_job(rt);
    Seen seen;
    uint64_t id;
    memset(&seen, 0, sizeof seen);
    CHECK_OK(cadence_runtime_set_failure_handler(rt, keep_failure, &seen, NULL));
    j->worker_result = results[i];
    id = start(rt, j, returns_its_result);
    poll_until(rt, &j->finished);
    CHECK(j->outcome == CADENCE_OUTCOME_FAILED && strstr(j->message, words[i]) != NULL);
    CHECK(seen.count == 1 && seen.thread == id && strstr(seen.message, words[i]) != NULL);
    CHECK_OK(cadence_runtime_destroy(rt));
    CHECK(atomic_load(&j->destroyed) == 1);
    free(j);
  }
  { /* on_finish returning no CADENCE_UPDATE_* value */
    cadence_runtime* rt = runtime_with_deadline(MS(10000));
    Job* j = new_job(rt);
    Seen seen;
    memset(&seen, 0, sizeof seen);
    CHECK_OK(cadence_runtime_set_failure_handler(rt, keep_failure, &seen, NULL));
    j->finish_result = 77;
    start(rt, j, returns_its_result);
    poll_until(rt, &j->finished);
    CHECK(j->outcome == CADENCE_OUTCOME_FINISHED);
    CHECK(seen.count == 1 && seen.status == CADENCE_E_CALLBACK_FAILED && strstr(seen.message, "on_finish returned 77"));
    CHECK_OK(cadence_runtime_destroy(rt));
    CHECK(atomic_load(&j->destroyed) == 1);
    free(j);
  }
}

static int bad_write_back(void* data, cadence_runtime* rt) {
  (void)data, (void)rt;
  return -4;
}

static int sends_a_bad_write_back(void* user, cadence_worker* w) {
  (void)user;
  CHECK_OK(cadence_worker_write_back(w, bad_write_back, NULL, NULL));
  return CADENCE_OK;
}

static void a_write_back_that_returns_no_update_is_reported(void) {
  cadence_runtime* rt = runtime_with_deadline(MS(10000));
  Job* j = new_job(rt);
  Seen seen;
  memset(&seen, 0, sizeof seen);
  CHECK_OK(cadence_runtime_set_failure_handler(rt, keep_failure, &seen, NULL));
  start(rt, j, sends_a_bad_write_back);
  poll_until(rt, &j->finished);
  CHECK(seen.count == 1 && seen.status == CADENCE_E_CALLBACK_FAILED);
  CHECK(strstr(seen.message, "a write-back returned -4") != NULL);
  CHECK_OK(cadence_runtime_destroy(rt));
  free(j);
}

/* ---- Messages and stopping -------------------------------------------------------------------- */

static atomic_int messages_destroyed; /* some run on a worker's thread */
static void message_destroy(void* data) {
  atomic_fetch_add(&messages_destroyed, 1);
  free(data);
}

static int takes_one_message_then_waits_to_stop(void* user, cadence_worker* w) {
  Job* j = (Job*)user;
  cadence_message m;
  int n = 0;
  CHECK_STATUS(cadence_worker_receive(w, 0, 1, NULL), CADENCE_E_INVALID_ARGUMENT, "out is NULL");
  CHECK_STATUS(cadence_worker_receive(w, MS(1), 0, &m), CADENCE_E_EMPTY, "no message");
  atomic_store(&j->ready, 1);
  for (;;) {
    CHECK_OK(cadence_worker_receive(w, CADENCE_NEVER, 0, &m));
    CHECK(m.kind != CADENCE_MESSAGE_TICK);
    if (m.kind == CADENCE_MESSAGE_CUSTOM) {
      j->statuses[n++] = *(int*)m.data;
      m.destroy(m.data); /* the worker's now */
      atomic_store(&j->proceed, 1);
      wait_for(&j->worker_done); /* the UI sends more, then stops the thread */
    } else if (m.kind == CADENCE_MESSAGE_TERMINATE) {
      CHECK(cadence_worker_stop_requested(w) == 1);
      return CADENCE_OK; /* the second message is never received */
    }
  }
}

static int* number(int v) {
  int* p = (int*)malloc(sizeof(int));
  CHECK(p != NULL);
  *p = v;
  return p;
}

static void messages_are_received_or_destroyed_once(void) {
  cadence_runtime* rt = runtime_with_deadline(MS(10000));
  Job* j = new_job(rt);
  uint64_t id = start(rt, j, takes_one_message_then_waits_to_stop);
  wait_for(&j->ready);
  CHECK_OK(cadence_runtime_poll(rt, NULL)); /* a tick, which the worker skips */
  CHECK_OK(cadence_thread_send(rt, id, number(41), message_destroy));
  wait_for(&j->proceed);
  CHECK(j->statuses[0] == 41 && atomic_load(&messages_destroyed) == 1);
  CHECK_OK(cadence_thread_send(rt, id, number(42), message_destroy));
  CHECK_OK(cadence_thread_stop(rt, id));
  atomic_store(&j->worker_done, 1);
  poll_until(rt, &j->finished);
  CHECK(j->outcome == CADENCE_OUTCOME_STOPPED);
  CHECK(atomic_load(&messages_destroyed) == 2); /* the one never received */
  CHECK_STATUS(cadence_thread_stop(rt, id), CADENCE_E_NOT_FOUND, NULL);
  CHECK_STATUS(cadence_thread_send(rt, id, number(43), message_destroy), CADENCE_E_NOT_FOUND, NULL);
  CHECK(atomic_load(&messages_destroyed) == 3);
  CHECK_OK(cadence_runtime_destroy(rt));
  free(j);
}

static int returns_at_once(void* user, cadence_worker* w) {
  (void)w;
  atomic_store(&((Job*)user)->worker_done, 1);
  return CADENCE_OK;
}

static void a_message_to_a_finished_worker_is_refused_and_destroyed(void) {
  cadence_runtime* rt = runtime_with_deadline(MS(10000));
  Job* j = new_job(rt);
  uint64_t id = start(rt, j, returns_at_once);
  int exists = 0;
  wait_for(&j->worker_done);
  /* Finished, but not yet removed: no frame has delivered its end. */
  CHECK_OK(cadence_thread_exists(rt, id, &exists));
  if (exists) {
    int i, status = CADENCE_OK;
    for (i = 0; i < 20000 && status == CADENCE_OK; ++i) {
      status = cadence_thread_send(rt, id, number(1), message_destroy);
      if (status == CADENCE_OK) nap();
    }
    CHECK(status == CADENCE_E_CLOSED && strstr(cadence_last_error(), "finished") != NULL);
  }
  poll_until(rt, &j->finished);
  CHECK_OK(cadence_runtime_destroy(rt));
  free(j);
}

static int waits_for_a_tick(void* user, cadence_worker* w) {
  cadence_message m;
  CHECK_OK(cadence_worker_receive(w, CADENCE_NEVER, 1, &m));
  CHECK(m.kind == CADENCE_MESSAGE_TICK && m.data == NULL && m.destroy == NULL);
  atomic_store(&((Job*)user)->worker_done, 1);
  return CADENCE_OK;
}

static void a_frame_ticks_a_worker_that_asks_for_ticks(void) {
  cadence_runtime* rt = runtime_with_deadline(MS(10000));
  Job* j = new_job(rt);
  start(rt, j, waits_for_a_tick);
  poll_until(rt, &j->finished); /* each poll is a frame: its tick ends the wait */
  CHECK(atomic_load(&j->worker_done) == 1 && j->outcome == CADENCE_OUTCOME_FINISHED);
  CHECK_OK(cadence_runtime_destroy(rt));
  free(j);
}

/* ---- Starting ------------------------------------------------------------------------------------ */

static void start_options_are_checked(void) {
  cadence_runtime* rt = runtime_with_deadline(MS(10000));
  Job* j = new_job(rt);
  cadence_thread_options o;
  uint64_t id = 0;
  cadence_thread_options_init(NULL); /* does nothing */
  CHECK_STATUS(cadence_thread_start(rt, 0, NULL, NULL), CADENCE_E_INVALID_ARGUMENT, "options is NULL");
  cadence_thread_options_init(&o);
  o.user = j;
  o.destroy = job_destroy;
  CHECK_STATUS(cadence_thread_start(rt, 0, &o, NULL), CADENCE_E_INVALID_ARGUMENT, "options->worker is NULL");
  CHECK(atomic_load(&j->destroyed) == 1);
  o.worker = returns_at_once;
  o.priority = 9;
  CHECK_STATUS(cadence_thread_start(rt, 0, &o, NULL), CADENCE_E_INVALID_ARGUMENT, "priority is 9");
  CHECK(atomic_load(&j->destroyed) == 2);
  o.priority = CADENCE_PRIORITY_NORMAL;
  CHECK_STATUS(cadence_thread_start(rt, 3, &o, NULL), CADENCE_E_INVALID_ARGUMENT, NULL); /* reserved */
  CHECK(atomic_load(&j->destroyed) == 3);
  o.struct_size = 1;
  CHECK_STATUS(cadence_thread_start(rt, 0, &o, NULL), CADENCE_E_INVALID_ARGUMENT, "struct_size is 1");
  CHECK(atomic_load(&j->destroyed) == 3); /* a struct it cannot read: its destroy is not run */
  o.struct_size = sizeof o;
  CHECK_OK(cadence_thread_start(rt, 0x777, &o, &id));
  CHECK(id == 0x777);
  CHECK_STATUS(cadence_thread_start(rt, 0x777, &o, NULL), CADENCE_E_ALREADY_EXISTS, NULL);
  CHECK(atomic_load(&j->destroyed) == 4);
  CHECK_OK(cadence_runtime_destroy(rt));
  CHECK(atomic_load(&j->destroyed) == 5);
  free(j);
}

/* ---- Threads and handles ------------------------------------------------------------------------ */

static int checks_its_own_rules(void* user, cadence_worker* w) {
  Job* j = (Job*)user;
  /* The runtime is the UI thread's: a worker may not touch it. */
  j->statuses[0] = cadence_timer_add(j->rt, 0, NULL, NULL, NULL, NULL, NULL);
  j->statuses[1] = cadence_runtime_poll(j->rt, NULL);
  j->stashed = w;
  atomic_store(&j->proceed, 1);
  wait_for(&j->worker_done); /* the UI thread tries the worker's end meanwhile */
  return CADENCE_OK;
}

static void each_end_belongs_to_its_thread(void) {
  cadence_runtime* rt = runtime_with_deadline(MS(10000));
  Job* j = new_job(rt);
  cadence_message m;
  start(rt, j, checks_its_own_rules);
  wait_for(&j->proceed);
  CHECK(j->statuses[0] == CADENCE_E_WRONG_THREAD && j->statuses[1] == CADENCE_E_WRONG_THREAD);
  CHECK_STATUS(cadence_worker_progress(j->stashed, 1), CADENCE_E_WRONG_THREAD, "worker's own thread");
  CHECK_STATUS(cadence_worker_update(j->stashed, 1), CADENCE_E_WRONG_THREAD, NULL);
  CHECK_STATUS(cadence_worker_write_back(j->stashed, bad_write_back, number(5), message_destroy),
               CADENCE_E_WRONG_THREAD, NULL);
  CHECK_STATUS(cadence_worker_receive(j->stashed, 0, 1, &m), CADENCE_E_WRONG_THREAD, NULL);
  CHECK(cadence_worker_stop_requested(j->stashed) == 0);
  atomic_store(&j->worker_done, 1);
  poll_until(rt, &j->finished);
  CHECK_STATUS(cadence_worker_progress(NULL, 1), CADENCE_E_INVALID_ARGUMENT, "worker is NULL");
  CHECK_STATUS(cadence_worker_update(NULL, 1), CADENCE_E_INVALID_ARGUMENT, "worker is NULL");
  CHECK_STATUS(cadence_worker_write_back(NULL, bad_write_back, NULL, NULL), CADENCE_E_INVALID_ARGUMENT, NULL);
  CHECK_STATUS(cadence_worker_receive(NULL, 0, 1, &m), CADENCE_E_INVALID_ARGUMENT, "worker is NULL");
  CHECK(cadence_worker_stop_requested(NULL) == 0);
  CHECK_OK(cadence_runtime_destroy(rt));
  free(j);
}

typedef struct Wake {
  atomic_int calls;
} Wake;

static void count_wake(void* user) { atomic_fetch_add(&((Wake*)user)->calls, 1); }

static int outlives_its_runtime(void* user, cadence_worker* w) {
  Job* j = (Job*)user;
  CHECK_OK(cadence_worker_progress(w, 0.25)); /* wakes the loop */
  atomic_store(&j->proceed, 1);
  while (cadence_worker_progress(w, 0.5) == CADENCE_OK) nap(); /* until the runtime is gone */
  j->statuses[0] = cadence_worker_progress(w, 0.5);
  j->statuses[1] = cadence_worker_update(w, 0);
  j->statuses[2] = cadence_worker_write_back(w, bad_write_back, number(6), message_destroy);
  {
    cadence_message m;
    int i;
    /* What was sent before comes first: the stop request its runtime's end sent. */
    j->statuses[3] = cadence_worker_receive(w, CADENCE_NEVER, 1, &m);
    j->statuses[4] = m.kind;
    /* Then, once what is left (a tick) is taken, nothing more can come: a wait without end
       returns. */
    for (i = 0; i < 10 && (j->statuses[5] = cadence_worker_receive(w, CADENCE_NEVER, 1, &m)) == CADENCE_OK; ++i) {
      CHECK(m.kind == CADENCE_MESSAGE_TICK);
    }
    j->statuses[6] = cadence_worker_receive(w, 0, 0, &m);
  }
  atomic_store(&j->worker_done, 1);
  return CADENCE_OK;
}

static void a_worker_let_go_learns_its_runtime_is_gone(void) {
  cadence_runtime* rt = runtime_with_deadline(MS(50));
  Job* j = new_job(rt);
  Wake wake;
  int before;
  atomic_init(&wake.calls, 0);
  CHECK_OK(cadence_runtime_set_waker(rt, count_wake, &wake, NULL));
  start(rt, j, outlives_its_runtime);
  CHECK_OK(cadence_runtime_poll(rt, NULL)); /* starts it */
  wait_for(&j->proceed);
  CHECK(atomic_load(&wake.calls) >= 1);
  before = atomic_load(&messages_destroyed);
  CHECK_OK(cadence_runtime_destroy(rt)); /* the worker is still in it: let go after 50 ms */
  CHECK(j->outcome == CADENCE_OUTCOME_ABANDONED);
  wait_for(&j->worker_done);
  CHECK(j->statuses[0] == CADENCE_E_CLOSED && j->statuses[1] == CADENCE_E_CLOSED);
  CHECK(j->statuses[2] == CADENCE_E_CLOSED);
  CHECK(j->statuses[3] == CADENCE_OK && j->statuses[4] == CADENCE_MESSAGE_TERMINATE);
  CHECK(j->statuses[5] == CADENCE_E_CLOSED && j->statuses[6] == CADENCE_E_CLOSED);
  /* The user data goes once the worker is done with it too (on its thread). */
  wait_for(&j->destroyed);
  {
    int i;
    for (i = 0; i < 20000 && atomic_load(&messages_destroyed) == before; ++i) nap();
  }
  CHECK(atomic_load(&j->destroyed) == 1 && atomic_load(&messages_destroyed) == before + 1);
  free(j);
}

int main(int argc, char** argv) {
  only_test = argc > 1 ? argv[1] : NULL;
  RUN(progress_and_write_backs_reach_the_ui);
  RUN(what_a_worker_or_callback_returns_is_checked);
  RUN(a_write_back_that_returns_no_update_is_reported);
  RUN(messages_are_received_or_destroyed_once);
  RUN(a_message_to_a_finished_worker_is_refused_and_destroyed);
  RUN(a_frame_ticks_a_worker_that_asks_for_ticks);
  RUN(start_options_are_checked);
  RUN(each_end_belongs_to_its_thread);
  RUN(a_worker_let_go_learns_its_runtime_is_gone);
  return 0;
}
