/* The C API's windows, loop and draw functions, from C, in real windows (under Xvfb in CI). */
#include <pthread.h>

#include "check.h"

#include <cadence/cadence_ui.h>

/* What a window's draw function does and saw. */
typedef struct Screen {
  cadence_window* window;
  cadence_loop* loop;
  int draws;
  int destroyed;
  char text[32];
  int leave_open;           /* begins it leaves open */
  int statuses[8];          /* what calls from inside the draw function returned */
  int (*inside)(struct Screen* s);
  double zero;
} Screen;

static void screen_destroy(void* user) { ((Screen*)user)->destroyed++; }

static void draw(void* user, cadence_window* window) {
  Screen* s = (Screen*)user;
  int clicked = -1, changed = -1, i;
  CHECK(window == s->window || s->window == NULL);
  s->draws++;
  CHECK_OK(cadence_ui_begin("C window"));
  CHECK_OK(cadence_ui_text("A text field, a button and a progress bar:"));
  CHECK_OK(cadence_ui_focus_next());
  CHECK_OK(cadence_ui_input_text("##field", s->text, sizeof s->text, &changed));
  CHECK(changed == 0);
  CHECK_OK(cadence_ui_button("Go", &clicked));
  CHECK(clicked == 0);
  CHECK_OK(cadence_ui_button("Again", NULL));
  CHECK_OK(cadence_ui_same_line());
  CHECK_OK(cadence_ui_progress_bar(0.25, NULL));
  CHECK_OK(cadence_ui_progress_bar(-3.0, "clamped"));
  CHECK_OK(cadence_ui_progress_bar(2.0, "over"));
  CHECK_OK(cadence_ui_progress_bar(s->zero / s->zero, "not a number"));
  CHECK_STATUS(cadence_ui_text(NULL), CADENCE_E_INVALID_ARGUMENT, "text is NULL");
  CHECK_STATUS(cadence_ui_button(NULL, NULL), CADENCE_E_INVALID_ARGUMENT, "label is NULL");
  CHECK_STATUS(cadence_ui_input_text("x", NULL, 4, NULL), CADENCE_E_INVALID_ARGUMENT, "buffer is NULL");
  CHECK_STATUS(cadence_ui_input_text(NULL, s->text, 4, NULL), CADENCE_E_INVALID_ARGUMENT, "label is NULL");
  CHECK_STATUS(cadence_ui_input_text("x", s->text, 0, NULL), CADENCE_E_INVALID_ARGUMENT, "size is 0");
  CHECK_STATUS(cadence_ui_begin(NULL), CADENCE_E_INVALID_ARGUMENT, "title is NULL");
  CHECK_OK(cadence_ui_end());
  CHECK_STATUS(cadence_ui_end(), CADENCE_E_INVALID_ARGUMENT, "no cadence_ui_begin is open");
  for (i = 0; i < s->leave_open; ++i) CHECK_OK(cadence_ui_begin("left open"));
  if (s->inside != NULL) s->statuses[0] = s->inside(s);
}

static cadence_window* open_window(Screen* s) {
  cadence_window_options o;
  cadence_window* w = NULL;
  cadence_window_options_init(&o);
  o.title = "cadence C test";
  o.width = 320;
  o.height = 200;
  o.visible = 0;
  CHECK_OK(cadence_window_create(&o, draw, s, screen_destroy, &w));
  s->window = w;
  return w;
}

/* A window, given to a new loop. */
static cadence_window* open_in_loop(Screen* s, cadence_loop** loop) {
  cadence_window* w = open_window(s);
  CHECK_OK(cadence_loop_create(loop));
  CHECK_OK(cadence_loop_add(*loop, w));
  return w;
}

/* A timer that stops the loop after a few runs. */
typedef struct Stopper {
  cadence_loop* loop;
  int runs;
  int stop_after;
  cadence_window* window;
  int status;
} Stopper;

static int stop_later(void* user, cadence_runtime* rt, const cadence_timer_info* info) {
  Stopper* st = (Stopper*)user;
  (void)rt, (void)info;
  if (++st->runs == st->stop_after) CHECK_OK(cadence_loop_stop(st->loop));
  return CADENCE_TIMER_REDRAW;
}

static void run_briefly(cadence_loop* loop, cadence_window* w) {
  cadence_runtime* rt = NULL;
  cadence_timer_options o;
  Stopper st;
  memset(&st, 0, sizeof st);
  st.loop = loop;
  st.stop_after = 3;
  CHECK_OK(cadence_window_runtime(w, &rt));
  cadence_timer_options_init(&o);
  o.delay = o.interval = MS(5);
  CHECK_OK(cadence_timer_add(rt, 0, &o, stop_later, &st, NULL, NULL));
  CHECK_OK(cadence_loop_run(loop, MS(20000)));
  CHECK(st.runs == 3);
}

/* ---- Tests ----------------------------------------------------------------------------------- */

static void options_are_checked(void) {
  cadence_window_options o;
  cadence_window* w = NULL;
  Screen s;
  memset(&s, 0, sizeof s);
  cadence_window_options_init(NULL);
  cadence_window_options_init(&o);
  CHECK(o.struct_size == sizeof o && o.width == 960 && o.height == 640 && o.visible == 1 && o.vsync == 1);
  CHECK(strcmp(o.title, "cadence") == 0 && o.backend == CADENCE_BACKEND_GLFW);
  CHECK(cadence_backend_available(CADENCE_BACKEND_GLFW) == 1);
  CHECK(cadence_backend_available(42) == 0);
  o.struct_size = 2;
  CHECK_STATUS(cadence_window_create(&o, draw, &s, screen_destroy, &w), CADENCE_E_INVALID_ARGUMENT, "struct_size is 2");
  CHECK(s.destroyed == 1);
  cadence_window_options_init(&o);
  o.backend = 7;
  CHECK_STATUS(cadence_window_create(&o, draw, &s, screen_destroy, &w), CADENCE_E_INVALID_ARGUMENT, "backend is 7");
  CHECK(s.destroyed == 2);
  cadence_window_options_init(&o);
  o.width = 0;
  CHECK_STATUS(cadence_window_create(&o, draw, &s, screen_destroy, &w), CADENCE_E_INVALID_ARGUMENT, "size 0x640");
  CHECK(s.destroyed == 3);
  CHECK_STATUS(cadence_window_create(&o, NULL, &s, screen_destroy, &w), CADENCE_E_INVALID_ARGUMENT, "draw is NULL");
  CHECK_STATUS(cadence_window_create(NULL, draw, &s, screen_destroy, NULL), CADENCE_E_INVALID_ARGUMENT, "out is NULL");
  CHECK(s.destroyed == 5 && s.draws == 0 && w == NULL);
  if (!cadence_backend_available(CADENCE_BACKEND_SDL2)) {
    cadence_window_options_init(&o);
    o.backend = CADENCE_BACKEND_SDL2;
    CHECK_STATUS(cadence_window_create(&o, draw, &s, screen_destroy, &w), CADENCE_E_UNSUPPORTED, "sdl2");
  }
  if (!cadence_backend_available(CADENCE_BACKEND_SDL3)) {
    cadence_window_options_init(&o);
    o.backend = CADENCE_BACKEND_SDL3;
    CHECK_STATUS(cadence_window_create(&o, draw, &s, screen_destroy, &w), CADENCE_E_UNSUPPORTED, "sdl3");
  }
}

static void a_window_draws_widgets_and_runs_timers(void) {
  Screen s;
  cadence_loop* loop = NULL;
  cadence_window* w;
  cadence_runtime* rt = NULL;
  uint64_t drawn = 0;
  memset(&s, 0, sizeof s);
  w = open_in_loop(&s, &loop);
  CHECK_STATUS(cadence_loop_add(loop, w), CADENCE_E_INVALID_ARGUMENT, "in a loop already");
  run_briefly(loop, w);
  CHECK_OK(cadence_window_frames_drawn(w, &drawn));
  CHECK(drawn >= 3 && (int)drawn == s.draws);
  CHECK_OK(cadence_window_screenshot(w, "c_window_test.png"));
  CHECK_STATUS(cadence_window_screenshot(w, NULL), CADENCE_E_INVALID_ARGUMENT, "path is NULL");
  CHECK_STATUS(cadence_window_screenshot(w, "/nonexistent-dir/x.png"), CADENCE_E_RESOURCE, NULL);
  CHECK_OK(cadence_window_request_redraw(w));
  CHECK_OK(cadence_loop_run(loop, 0));
  CHECK_OK(cadence_window_runtime(w, &rt));
  CHECK_STATUS(cadence_runtime_destroy(rt), CADENCE_E_INVALID_ARGUMENT, "belongs to a window");
  CHECK_STATUS(cadence_loop_run(loop, -1), CADENCE_E_INVALID_ARGUMENT, "duration is -1");
  /* Closing: the loop destroys the window; its handles say so; destroy runs once. */
  CHECK_OK(cadence_window_request_close(w));
  CHECK_OK(cadence_loop_run(loop, CADENCE_NEVER)); /* returns: no window left */
  CHECK(s.destroyed == 1);
  CHECK_STATUS(cadence_window_request_redraw(w), CADENCE_E_CLOSED, "closed");
  CHECK_STATUS(cadence_runtime_poll(rt, NULL), CADENCE_E_CLOSED, NULL);
  CHECK_OK(cadence_window_destroy(w)); /* ends the handle of a window already closed */
  CHECK_STATUS(cadence_window_destroy(w), CADENCE_E_CLOSED, "destroyed before");
  CHECK_OK(cadence_loop_destroy(loop));
  CHECK_STATUS(cadence_loop_run(loop, 0), CADENCE_E_CLOSED, "destroyed");
}

static void draw_calls_outside_a_draw_function_are_refused(void) {
  int flag = 0;
  char text[4] = "";
  CHECK_STATUS(cadence_ui_begin("x"), CADENCE_E_NOT_DRAWING, "outside a window's draw function");
  CHECK_STATUS(cadence_ui_end(), CADENCE_E_NOT_DRAWING, NULL);
  CHECK_STATUS(cadence_ui_text("x"), CADENCE_E_NOT_DRAWING, NULL);
  CHECK_STATUS(cadence_ui_button("x", &flag), CADENCE_E_NOT_DRAWING, NULL);
  CHECK_STATUS(cadence_ui_input_text("x", text, sizeof text, &flag), CADENCE_E_NOT_DRAWING, NULL);
  CHECK_STATUS(cadence_ui_progress_bar(0.5, NULL), CADENCE_E_NOT_DRAWING, NULL);
  CHECK_STATUS(cadence_ui_same_line(), CADENCE_E_NOT_DRAWING, NULL);
  CHECK_STATUS(cadence_ui_focus_next(), CADENCE_E_NOT_DRAWING, NULL);
}

typedef struct Failures {
  int count;
  int status;
  char message[256];
} Failures;

static void keep_failure(void* user, int status, const char* message, uint64_t timer, uint64_t thread) {
  Failures* f = (Failures*)user;
  (void)timer, (void)thread;
  f->count++;
  f->status = status;
  snprintf(f->message, sizeof f->message, "%s", message);
}

static void a_begin_left_open_is_closed_and_reported(void) {
  Screen s;
  Failures f;
  cadence_loop* loop = NULL;
  cadence_window* w;
  cadence_runtime* rt = NULL;
  memset(&s, 0, sizeof s);
  memset(&f, 0, sizeof f);
  w = open_window(&s);
  s.leave_open = 2;
  CHECK_OK(cadence_window_runtime(w, &rt));
  CHECK_OK(cadence_runtime_set_failure_handler(rt, keep_failure, &f, NULL));
  CHECK_OK(cadence_loop_create(&loop));
  CHECK_OK(cadence_loop_add(loop, w));
  run_briefly(loop, w);
  CHECK(f.count >= 1 && f.status == CADENCE_E_INVALID_ARGUMENT);
  CHECK(strstr(f.message, "left 2 cadence_ui_begin") != NULL);
  CHECK_OK(cadence_loop_destroy(loop)); /* destroys the window */
  CHECK(s.destroyed == 1);
  CHECK_STATUS(cadence_window_frames_drawn(w, NULL), CADENCE_E_CLOSED, NULL);
  CHECK_OK(cadence_window_destroy(w));
}

static int destroys_its_window(Screen* s) { return cadence_window_destroy(s->window); }
static int runs_its_loop(Screen* s) { return cadence_loop_run(s->loop, 0); }
static int destroys_its_loop(Screen* s) { return cadence_loop_destroy(s->loop); }
static int destroys_its_runtime(Screen* s) {
  cadence_runtime* rt = NULL;
  CHECK_OK(cadence_window_runtime(s->window, &rt));
  return cadence_runtime_destroy(rt);
}

static void a_draw_function_cannot_pull_the_ground_away(void) {
  int (*const calls[])(Screen*) = {destroys_its_window, runs_its_loop, destroys_its_loop, destroys_its_runtime};
  const int want[] = {CADENCE_E_REENTRANT_CALL, CADENCE_E_REENTRANT_CALL, CADENCE_E_REENTRANT_CALL,
                      CADENCE_E_REENTRANT_CALL};
  size_t i;
  for (i = 0; i < 4; ++i) {
    Screen s;
    cadence_loop* loop = NULL;
    cadence_window* w;
    memset(&s, 0, sizeof s);
    w = open_window(&s);
    CHECK_OK(cadence_loop_create(&loop));
    s.loop = loop;
    s.inside = calls[i];
    s.statuses[0] = -1;
    CHECK_OK(cadence_loop_add(loop, w));
    run_briefly(loop, w);
    if (s.statuses[0] != want[i]) {
      fprintf(stderr, "call %zu from a draw function returned %s\n", i, cadence_status_name(s.statuses[0]));
      exit(1);
    }
    CHECK_OK(cadence_window_destroy(w)); /* in a loop: closes after its iteration */
    CHECK_OK(cadence_loop_run(loop, CADENCE_NEVER));
    CHECK(s.destroyed == 1);
    CHECK_OK(cadence_loop_destroy(loop));
  }
}

static int destroys_the_window_from_a_timer(void* user, cadence_runtime* rt, const cadence_timer_info* info) {
  Stopper* st = (Stopper*)user;
  (void)rt, (void)info;
  st->status = cadence_window_destroy(st->window);
  CHECK_OK(cadence_loop_stop(st->loop));
  return CADENCE_TIMER_STOP;
}

static void a_timer_cannot_destroy_its_window(void) {
  Screen s;
  Stopper st;
  cadence_loop* loop = NULL;
  cadence_window* w;
  cadence_runtime* rt = NULL;
  memset(&s, 0, sizeof s);
  memset(&st, 0, sizeof st);
  w = open_window(&s);
  CHECK_OK(cadence_loop_create(&loop));
  st.loop = loop;
  st.window = w;
  CHECK_OK(cadence_window_runtime(w, &rt));
  CHECK_OK(cadence_timer_add(rt, 0, NULL, destroys_the_window_from_a_timer, &st, NULL, NULL));
  /* Not in a loop yet: destroyed outside any callback, it would close at once; in the loop: */
  CHECK_OK(cadence_loop_add(loop, w));
  CHECK_OK(cadence_loop_run(loop, MS(20000)));
  CHECK(st.status == CADENCE_E_REENTRANT_CALL);
  CHECK_OK(cadence_loop_destroy(loop));
  CHECK(s.destroyed == 1);
  CHECK_OK(cadence_window_destroy(w));
}

static int never_runs(void* user, cadence_runtime* rt, const cadence_timer_info* info) {
  (void)user, (void)rt, (void)info;
  CHECK(!"runs");
  return CADENCE_TIMER_STOP;
}

static int destroy_status = -1;
static void destroys_the_loop(void* user) { destroy_status = cadence_loop_destroy((cadence_loop*)user); }
static void runs_the_loop(void* user) { destroy_status = cadence_loop_run((cadence_loop*)user, 0); }

static void a_windows_callbacks_cannot_destroy_or_run_its_loop(void) {
  void (*const calls[])(void*) = {destroys_the_loop, runs_the_loop};
  size_t i;
  for (i = 0; i < 2; ++i) {
    Screen s;
    cadence_loop* loop = NULL;
    cadence_window* w;
    cadence_runtime* rt = NULL;
    uint64_t id = 0;
    memset(&s, 0, sizeof s);
    w = open_in_loop(&s, &loop);
    CHECK_OK(cadence_window_runtime(w, &rt));
    /* The loop is not running: the timer's destroy runs inside cadence_timer_remove. */
    CHECK_OK(cadence_timer_add(rt, 0, NULL, never_runs, loop, calls[i], &id));
    destroy_status = -1;
    CHECK_OK(cadence_timer_remove(rt, id));
    CHECK(destroy_status == CADENCE_E_REENTRANT_CALL);
    CHECK_OK(cadence_loop_destroy(loop));
    CHECK(s.destroyed == 1);
    CHECK_OK(cadence_window_destroy(w));
  }
}

static int screenshots_itself(Screen* s) { return cadence_window_screenshot(s->window, "inside.png"); }
static int begins_without_a_title(Screen* s) {
  (void)s;
  return cadence_ui_begin("");
}

static void what_a_draw_function_cannot_do_is_refused(void) {
  int (*const calls[])(Screen*) = {screenshots_itself, begins_without_a_title};
  const int want[] = {CADENCE_E_REENTRANT_CALL, CADENCE_E_INVALID_ARGUMENT};
  size_t i;
  for (i = 0; i < 2; ++i) {
    Screen s;
    cadence_loop* loop = NULL;
    cadence_window* w;
    memset(&s, 0, sizeof s);
    w = open_window(&s);
    s.inside = calls[i];
    s.statuses[0] = -1;
    CHECK_OK(cadence_loop_create(&loop));
    CHECK_OK(cadence_loop_add(loop, w));
    run_briefly(loop, w);
    CHECK(s.statuses[0] == want[i]);
    CHECK_OK(cadence_loop_destroy(loop));
    CHECK_OK(cadence_window_destroy(w));
  }
}

static void wake(void* user) { (void)user; }

static void a_windows_runtime_is_run_by_its_window(void) {
  Screen s;
  cadence_window* w;
  cadence_runtime* rt = NULL;
  memset(&s, 0, sizeof s);
  w = open_window(&s);
  CHECK_OK(cadence_window_runtime(w, &rt));
  CHECK_STATUS(cadence_runtime_poll(rt, NULL), CADENCE_E_INVALID_ARGUMENT, "belongs to a window");
  CHECK_STATUS(cadence_runtime_set_waker(rt, wake, &s, screen_destroy), CADENCE_E_INVALID_ARGUMENT, "wakes its own loop");
  CHECK(s.destroyed == 1);
  CHECK_STATUS(cadence_runtime_set_hidden(rt, 1), CADENCE_E_INVALID_ARGUMENT, "belongs to a window");
  CHECK_OK(cadence_window_destroy(w));
  CHECK(s.destroyed == 2);
}

/* A helper thread whose window is refused, and which makes and destroys a loop, claims no
 * thread: the main thread's first window opens. Runs first, before any window opened. */
static void* is_refused_and_makes_a_loop(void* arg) {
  int* statuses = (int*)arg;
  cadence_window_options o;
  cadence_window* w = NULL;
  cadence_loop* loop = NULL;
  Screen s;
  memset(&s, 0, sizeof s);
  cadence_window_options_init(&o);
  o.width = 0;
  statuses[0] = cadence_window_create(&o, draw, &s, NULL, &w);
  o.width = 320;
  o.backend = 99;
  statuses[1] = cadence_window_create(&o, draw, &s, NULL, &w);
  statuses[2] = cadence_loop_create(&loop);
  statuses[3] = loop != NULL ? cadence_loop_destroy(loop) : -1;
  return NULL;
}

static void a_refused_window_claims_no_thread(void) {
  pthread_t t;
  int statuses[4] = {-1, -1, -1, -1};
  Screen s;
  memset(&s, 0, sizeof s);
  CHECK(pthread_create(&t, NULL, is_refused_and_makes_a_loop, statuses) == 0);
  CHECK(pthread_join(t, NULL) == 0);
  CHECK(statuses[0] == CADENCE_E_INVALID_ARGUMENT);
  CHECK(statuses[1] == CADENCE_E_INVALID_ARGUMENT);
  CHECK(statuses[2] == CADENCE_OK && statuses[3] == CADENCE_OK);
  CHECK_OK(cadence_window_destroy(open_window(&s)));
  CHECK(s.destroyed == 1);
}

static void* opens_a_window(void* arg) {
  Screen s;
  cadence_window* w = NULL;
  cadence_loop* loop = NULL;
  memset(&s, 0, sizeof s);
  *(int*)arg = cadence_window_create(NULL, draw, &s, NULL, &w);
  if (*(int*)arg == CADENCE_E_WRONG_THREAD) *(int*)arg = cadence_loop_create(&loop);
  return NULL;
}

static void windows_live_on_one_thread(void) {
  pthread_t t;
  int status = -1;
  CHECK(pthread_create(&t, NULL, opens_a_window, &status) == 0);
  CHECK(pthread_join(t, NULL) == 0);
  CHECK(status == CADENCE_E_WRONG_THREAD);
}

static void a_window_no_loop_took_is_destroyed_at_once(void) {
  Screen s;
  cadence_window* w;
  cadence_runtime* rt = NULL;
  memset(&s, 0, sizeof s);
  w = open_window(&s);
  CHECK_OK(cadence_window_runtime(w, &rt));
  CHECK_OK(cadence_window_destroy(w));
  CHECK(s.destroyed == 1 && s.draws == 0);
  CHECK_STATUS(cadence_runtime_poll(rt, NULL), CADENCE_E_CLOSED, NULL);
}

/* Every function that takes a window or a loop, given these, returns `want`. */
static void every_window_call_says(cadence_window* w, cadence_loop* loop, int want, const char* words) {
  cadence_runtime* rt = NULL;
  uint64_t n = 0;
  CHECK_STATUS(cadence_window_runtime(w, &rt), want, words);
  CHECK_STATUS(cadence_window_request_close(w), want, words);
  CHECK_STATUS(cadence_window_request_redraw(w), want, words);
  CHECK_STATUS(cadence_window_frames_drawn(w, &n), want, words);
  CHECK_STATUS(cadence_window_screenshot(w, "x.png"), want, words);
  CHECK_STATUS(cadence_window_destroy(w), want, words);
  CHECK_STATUS(cadence_loop_add(loop, w), want, words);
  CHECK_STATUS(cadence_loop_run(loop, 0), want, words);
  CHECK_STATUS(cadence_loop_stop(loop), want, words);
  CHECK_STATUS(cadence_loop_destroy(loop), want, words);
}

typedef struct Foreign {
  cadence_window* w;
  cadence_loop* loop;
} Foreign;

static void* from_another_thread(void* arg) {
  Foreign* f = (Foreign*)arg;
  every_window_call_says(f->w, f->loop, CADENCE_E_WRONG_THREAD, "UI thread");
  return NULL;
}

static void bad_handles_are_refused(void) {
  Screen s;
  Foreign f;
  pthread_t t;
  cadence_loop* loop = NULL;
  memset(&s, 0, sizeof s);
  every_window_call_says(NULL, NULL, CADENCE_E_INVALID_ARGUMENT, "is NULL");
  CHECK_STATUS(cadence_loop_create(NULL), CADENCE_E_INVALID_ARGUMENT, "out is NULL");
  f.w = open_window(&s);
  CHECK_OK(cadence_loop_create(&loop));
  f.loop = loop;
  CHECK(pthread_create(&t, NULL, from_another_thread, &f) == 0);
  CHECK(pthread_join(t, NULL) == 0);
  /* A handle of another kind. */
  CHECK_STATUS(cadence_window_request_redraw((cadence_window*)(void*)loop), CADENCE_E_MISMATCH, "not a cadence_window");
  CHECK_STATUS(cadence_loop_stop((cadence_loop*)(void*)f.w), CADENCE_E_MISMATCH, "not a cadence_loop");
  {
    cadence_runtime* rt = NULL;
    CHECK_OK(cadence_window_runtime(f.w, &rt));
    CHECK_STATUS(cadence_window_request_redraw((cadence_window*)(void*)rt), CADENCE_E_MISMATCH, NULL);
    CHECK_STATUS(cadence_runtime_poll((cadence_runtime*)(void*)loop, NULL), CADENCE_E_MISMATCH, "not a cadence_runtime");
    CHECK_STATUS(cadence_window_runtime(f.w, NULL), CADENCE_E_INVALID_ARGUMENT, "out is NULL");
    CHECK_STATUS(cadence_window_frames_drawn(f.w, NULL), CADENCE_E_INVALID_ARGUMENT, "out is NULL");
  }
  CHECK_OK(cadence_window_destroy(f.w));
  CHECK_OK(cadence_loop_destroy(loop));
  every_window_call_says(f.w, loop, CADENCE_E_CLOSED, NULL);
  CHECK(s.destroyed == 1);
}

int main(int argc, char** argv) {
  only_test = argc > 1 ? argv[1] : NULL;
  RUN(a_refused_window_claims_no_thread); /* first: no window has opened in the process yet */
  RUN(options_are_checked);
  RUN(a_window_draws_widgets_and_runs_timers);
  RUN(draw_calls_outside_a_draw_function_are_refused);
  RUN(a_begin_left_open_is_closed_and_reported);
  RUN(a_draw_function_cannot_pull_the_ground_away);
  RUN(a_timer_cannot_destroy_its_window);
  RUN(a_window_no_loop_took_is_destroyed_at_once);
  RUN(a_windows_callbacks_cannot_destroy_or_run_its_loop);
  RUN(what_a_draw_function_cannot_do_is_refused);
  RUN(a_windows_runtime_is_run_by_its_window);
  RUN(windows_live_on_one_thread);
  RUN(bad_handles_are_refused);
  return 0;
}
