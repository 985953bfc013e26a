/* cadence/cadence_window.h: windows and the loop that runs them, from C (libcadence_window).
 * The rules of cadence.h hold for every function here. */
#ifndef CADENCE_CADENCE_WINDOW_H
#define CADENCE_CADENCE_WINDOW_H

#include "cadence/cadence.h"

/* The functions of libcadence_window. */
/* On Windows: exported by the DLL (CADENCE_WINDOW_SHARED, which the build and its CMake targets
 * and .pc file set), imported by its users; nothing in a static library. */
#if defined(_WIN32)
#if !defined(CADENCE_WINDOW_SHARED)
#define CADENCE_WINDOW_C_API
#elif defined(CADENCE_BUILDING_WINDOW)
#define CADENCE_WINDOW_C_API __declspec(dllexport)
#else
#define CADENCE_WINDOW_C_API __declspec(dllimport)
#endif
#else
#define CADENCE_WINDOW_C_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cadence_window cadence_window;
typedef struct cadence_loop cadence_loop;

#define CADENCE_BACKEND_GLFW 0
#define CADENCE_BACKEND_SDL2 1
#define CADENCE_BACKEND_SDL3 2

typedef struct cadence_window_options {
  uint32_t struct_size;
  const char* title;   /**< copied (default "cadence") */
  int width, height;   /**< client area, 1 to 16384 (default 960 x 640) */
  int backend;         /**< CADENCE_BACKEND_* (default GLFW) */
  int visible;         /**< 0 opens it unshown; it still draws (default 1) */
  int vsync;           /**< wait for the vertical blank when presenting (default 1) */
} cadence_window_options;

/** Builds the window's frame with cadence_ui_* calls. Runs on the UI thread, only when
 *  something changed (input, a timer or worker that asked for a redraw). */
typedef void (*cadence_draw_fn)(void* user, cadence_window* window);

/** Sets `options` to the defaults. Thread: any. */
CADENCE_WINDOW_C_API void cadence_window_options_init(cadence_window_options* options);
/** 1 when this build can open windows on `backend`, else 0 (it says nothing of a display). */
CADENCE_WINDOW_C_API int cadence_backend_available(int backend);
/** Opens a window (NULL options: the defaults); the calling thread is its UI thread.
 *  Errors: INVALID_ARGUMENT (a bad option, NULL draw or out), UNSUPPORTED (the backend is not
 *  in this build), RESOURCE (no display: run under one, or xvfb-run), WRONG_THREAD (another
 *  thread has windows), NO_MEMORY. */
CADENCE_WINDOW_C_API int cadence_window_create(const cadence_window_options* options, cadence_draw_fn draw, void* user,
                                        cadence_destroy_fn destroy, cadence_window** out);
/** Closes the window and ends the handle. A window a loop has closes after the loop's current
 *  iteration (one whose loop is not running: at its next run or destroy). A window the loop
 *  closed (its close button, cadence_window_request_close) still needs this call to end its
 *  handle. Errors: CLOSED (destroyed before), WRONG_THREAD, REENTRANT_CALL (from its own draw
 *  function or its runtime's callbacks: use cadence_window_request_close). */
CADENCE_WINDOW_C_API int cadence_window_destroy(cadence_window* window);
/** The window's runtime, for its timers and threads; valid until the window is gone, then
 *  CLOSED. It cannot be destroyed on its own. Errors: CLOSED, WRONG_THREAD. */
CADENCE_WINDOW_C_API int cadence_window_runtime(cadence_window* window, cadence_runtime** out);
/** Asks the window to close, as its close button does; the loop destroys it after the current
 *  iteration (the handle then reports CLOSED). Errors: CLOSED, WRONG_THREAD. */
CADENCE_WINDOW_C_API int cadence_window_request_close(cadence_window* window);
/** Makes the next frame draw. Errors: CLOSED, WRONG_THREAD. */
CADENCE_WINDOW_C_API int cadence_window_request_redraw(cadence_window* window);
/** Frames drawn since it opened, in *out. Errors: CLOSED, WRONG_THREAD. */
CADENCE_WINDOW_C_API int cadence_window_frames_drawn(cadence_window* window, uint64_t* out);
/** Writes the last drawn frame to a PNG file. Errors: RESOURCE (nothing drawn yet, or the file
 *  cannot be written), REENTRANT_CALL (from its own draw function, whose frame is not drawn
 *  yet), INVALID_ARGUMENT, CLOSED, WRONG_THREAD. */
CADENCE_WINDOW_C_API int cadence_window_screenshot(cadence_window* window, const char* path);

/** Makes a loop. Errors: INVALID_ARGUMENT, WRONG_THREAD (not the windows' thread), NO_MEMORY. */
CADENCE_WINDOW_C_API int cadence_loop_create(cadence_loop** out);
/** Destroys the windows it still runs, then the loop. Errors: CLOSED, WRONG_THREAD,
 *  REENTRANT_CALL (inside its iteration, or from a callback of one of its windows). */
CADENCE_WINDOW_C_API int cadence_loop_destroy(cadence_loop* loop);
/** Gives the window to the loop: it runs from the next iteration, and the loop destroys it once
 *  it closed. Errors: INVALID_ARGUMENT (the window is in a loop already), CLOSED, WRONG_THREAD. */
CADENCE_WINDOW_C_API int cadence_loop_add(cadence_loop* loop, cadence_window* window);
/** Runs until every window has closed or cadence_loop_stop; with `duration` >= 0 at most that
 *  long of steady time (CADENCE_NEVER: no limit). Sleeps while nothing is due.
 *  Errors: REENTRANT_CALL (inside its iteration, or from a callback of one of its windows),
 *  INVALID_ARGUMENT (a negative duration), CLOSED, WRONG_THREAD. */
CADENCE_WINDOW_C_API int cadence_loop_run(cadence_loop* loop, cadence_ns duration);
/** Makes the running cadence_loop_run return after the current iteration.
 *  Errors: CLOSED, WRONG_THREAD. */
CADENCE_WINDOW_C_API int cadence_loop_stop(cadence_loop* loop);

#ifdef __cplusplus
}
#endif

#endif /* CADENCE_CADENCE_WINDOW_H */
