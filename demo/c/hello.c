/* hello.c: a cadence window from C. A text field whose caret blinks, a clock that a repeating
 * timer moves once a second, and a worker that counts primes with a progress bar.
 *
 *   cadence-c-demo                         an interactive window
 *   cadence-c-demo SECONDS [SCREENSHOT]    starts the job at once, runs SECONDS, saves a
 *                                          screenshot, prints what happened (for CI, under Xvfb)
 */
#include <cadence/cadence_ui.h> /* windows and their widgets; it includes cadence_window.h and cadence.h */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct App {
  cadence_runtime* runtime;
  char name[64];
  int seconds;         /* moved by the repeating timer */
  uint64_t job;        /* the running worker, 0 when none */
  double progress;     /* its last progress report */
  long primes;         /* its result, -1 before one */
  int focus_asked;
  char status[96];
} App;

/* Any failure is a bug in this program: say what failed and why, and stop. */
static void check(int status, const char* what) {
  if (status == CADENCE_OK) return;
  fprintf(stderr, "%s: %s: %s\n", what, cadence_status_name(status), cadence_last_error());
  exit(1);
}

/* ---- The repeating timer: runs on the UI thread once a second --------------------------------- */

static int tick(void* user, cadence_runtime* runtime, const cadence_timer_info* info) {
  App* app = (App*)user;
  (void)runtime, (void)info;
  app->seconds++;
  return CADENCE_TIMER_REDRAW;
}

/* ---- The worker: runs on a thread of its own ----------------------------------------------------- */

typedef struct Result {
  App* app;
  long primes;
} Result;

/* A write-back: the worker hands this to the UI thread, which runs it between frames. */
static int show_result(void* data, cadence_runtime* runtime) {
  const Result* r = (const Result*)data;
  (void)runtime;
  r->app->primes = r->primes;
  return CADENCE_UPDATE_REDRAW;
}

static int is_prime(long n) {
  long d;
  if (n < 2) return 0;
  for (d = 2; d * d <= n; ++d) {
    if (n % d == 0) return 0;
  }
  return 1;
}

static int count_primes(void* user, cadence_worker* worker) {
  const long limit = 1000000, steps = 100;
  long step, n, found = 0;
  Result* r;
  for (step = 0; step < steps; ++step) {
    if (cadence_worker_stop_requested(worker)) return CADENCE_OK; /* the Stop button */
    for (n = step * (limit / steps); n < (step + 1) * (limit / steps); ++n) found += is_prime(n);
    cadence_worker_progress(worker, (double)(step + 1) / (double)steps); /* the UI shows the newest */
  }
  r = (Result*)malloc(sizeof *r);
  if (r == NULL) return CADENCE_E_NO_MEMORY; /* the job fails; on_finish says so */
  r->app = (App*)user;
  r->primes = found;
  return cadence_worker_write_back(worker, show_result, r, free); /* free(r) once it ran */
}

/* Runs on the UI thread once the worker has returned and its write-backs ran. */
static int job_done(void* user, cadence_runtime* runtime, const cadence_outcome* outcome) {
  App* app = (App*)user;
  double progress;
  /* Its last report: the thread lives until its finish callbacks have run. */
  if (cadence_thread_progress(runtime, outcome->thread, &progress) == CADENCE_OK) app->progress = progress;
  app->job = 0;
  if (outcome->kind == CADENCE_OUTCOME_FINISHED) {
    snprintf(app->status, sizeof app->status, "%ld primes below 1,000,000", app->primes);
  } else if (outcome->kind == CADENCE_OUTCOME_STOPPED) {
    snprintf(app->status, sizeof app->status, "stopped");
  } else {
    snprintf(app->status, sizeof app->status, "failed: %s", outcome->message);
  }
  return CADENCE_UPDATE_REDRAW;
}

static void start_job(App* app) {
  cadence_thread_options options;
  cadence_thread_options_init(&options);
  options.worker = count_primes;
  options.on_finish = job_done;
  options.user = app; /* the worker passes it on to its write-back; it never reads the App */
  app->progress = 0;
  app->primes = -1;
  snprintf(app->status, sizeof app->status, "counting ...");
  check(cadence_thread_start(app->runtime, 0, &options, &app->job), "cadence_thread_start");
}

/* ---- The window: drawn only when something changed ------------------------------------------------ */

static void draw(void* user, cadence_window* window) {
  App* app = (App*)user;
  char line[96];
  int clicked = 0;
  double progress;
  (void)window;
  check(cadence_ui_begin("cadence from C"), "cadence_ui_begin");
  check(cadence_ui_text("Your name:"), "cadence_ui_text");
  if (!app->focus_asked) { /* the caret blinks from the first frame */
    check(cadence_ui_focus_next(), "cadence_ui_focus_next");
    app->focus_asked = 1;
  }
  check(cadence_ui_input_text("##name", app->name, sizeof app->name, NULL), "cadence_ui_input_text");
  snprintf(line, sizeof line, "Hello, %s! The clock says %d s.", app->name[0] ? app->name : "you", app->seconds);
  check(cadence_ui_text(line), "cadence_ui_text");
  check(cadence_ui_button(app->job ? "Stop" : "Count primes", &clicked), "cadence_ui_button");
  if (clicked && app->job) check(cadence_thread_stop(app->runtime, app->job), "cadence_thread_stop");
  if (clicked && !app->job) start_job(app);
  if (app->job && cadence_thread_progress(app->runtime, app->job, &progress) == CADENCE_OK) app->progress = progress;
  check(cadence_ui_progress_bar(app->progress, NULL), "cadence_ui_progress_bar");
  check(cadence_ui_text(app->status), "cadence_ui_text");
  check(cadence_ui_end(), "cadence_ui_end");
}

int main(int argc, char** argv) {
  App app;
  cadence_window_options options;
  cadence_timer_options every_second;
  cadence_window* window = NULL;
  cadence_loop* loop = NULL;
  const double seconds = argc > 1 ? atof(argv[1]) : 0;
  uint64_t drawn = 0;

  memset(&app, 0, sizeof app);
  app.primes = -1;
  snprintf(app.status, sizeof app.status, "idle");
  cadence_window_options_init(&options);
  options.title = "cadence from C";
  options.width = 480;
  options.height = 220;
  check(cadence_window_create(&options, draw, &app, NULL, &window), "cadence_window_create");
  check(cadence_window_runtime(window, &app.runtime), "cadence_window_runtime");

  cadence_timer_options_init(&every_second);
  every_second.delay = every_second.interval = 1000000000; /* ns */
  check(cadence_timer_add(app.runtime, 0, &every_second, tick, &app, NULL, NULL), "cadence_timer_add");

  check(cadence_loop_create(&loop), "cadence_loop_create");
  check(cadence_loop_add(loop, window), "cadence_loop_add"); /* the loop owns it now */
  if (seconds <= 0) {
    check(cadence_loop_run(loop, CADENCE_NEVER), "cadence_loop_run"); /* until the window closes */
  } else {
    start_job(&app);
    check(cadence_loop_run(loop, (cadence_ns)(seconds * 1e9)), "cadence_loop_run");
    check(cadence_window_frames_drawn(window, &drawn), "cadence_window_frames_drawn");
    if (argc > 2) check(cadence_window_screenshot(window, argv[2]), "cadence_window_screenshot");
    printf("ran %.1f s: clock %d s, %llu frames drawn, job: %s\n", seconds, app.seconds, (unsigned long long)drawn,
           app.status);
  }
  check(cadence_window_destroy(window), "cadence_window_destroy"); /* ends the handle */
  check(cadence_loop_destroy(loop), "cadence_loop_destroy");
  return 0;
}
