// The C API (cadence_window.h, cadence_ui.h): windows, the loop, and the cadence_ui_* draw functions.
#include <imgui.h>

#include <atomic>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cadence/cadence_ui.h"
#include "c_api.hpp"
#include "cadence/event_loop.hpp"
#include "cadence/window.hpp"

using namespace cadence;
using namespace cadence::detail::capi;

namespace {
constexpr std::uint32_t kWindowMagic = 0x4357494e;  // "CWIN"
constexpr std::uint32_t kLoopMagic = 0x434c4f50;    // "CLOP"
}  // namespace

/// A window handle; kept until exit once destroyed (cadence.h).
struct cadence_window {
  std::uint32_t magic = kWindowMagic;
  std::thread::id ui = std::this_thread::get_id();
  std::unique_ptr<Window> owned;  // until a loop takes it
  WindowHandle handle;            // knows when the window is gone
  cadence_runtime* runtime = nullptr;
  bool in_loop = false;
  bool destroyed = false;  // cadence_window_destroy ran (a loop may still be closing the window)
};

/// A loop handle; kept until exit once destroyed.
struct cadence_loop {
  std::uint32_t magic = kLoopMagic;
  std::thread::id ui = std::this_thread::get_id();
  std::unique_ptr<EventLoop> loop;
  std::vector<cadence_window*> windows;  // given to it (handles are never freed: safe to keep)
  bool running = false;
};

namespace {

/// The draw function running on this thread, for cadence_ui_*.
struct Drawing {
  cadence_window* window;
  int open = 0;  // cadence_ui_begin calls not ended yet
};
thread_local Drawing* drawing = nullptr;

int check(const cadence_window* w, const char* function) {
  if (w == nullptr) return null_argument(function, "window");
  if (w->magic != kWindowMagic) return fail(CADENCE_E_MISMATCH, std::string(function) + ": the handle is not a cadence_window");
  if (w->ui != std::this_thread::get_id()) {
    return fail(CADENCE_E_WRONG_THREAD, std::string(function) + ": called off the window's UI thread (the thread that made it)");
  }
  if (w->destroyed || !w->handle.is_open()) {
    return fail(CADENCE_E_CLOSED, std::string(function) + ": the window was closed or destroyed");
  }
  return CADENCE_OK;
}

int check(const cadence_loop* l, const char* function) {
  if (l == nullptr) return null_argument(function, "loop");
  if (l->magic != kLoopMagic) return fail(CADENCE_E_MISMATCH, std::string(function) + ": the handle is not a cadence_loop");
  if (l->ui != std::this_thread::get_id()) {
    return fail(CADENCE_E_WRONG_THREAD, std::string(function) + ": called off the loop's UI thread (the thread that made it)");
  }
  if (!l->loop) return fail(CADENCE_E_CLOSED, std::string(function) + ": the loop was destroyed");
  return CADENCE_OK;
}

/// The thread of the process's windows: the first whose cadence_window_create succeeded. GLFW
/// and SDL keep one window system per process, on one thread. A call that fails, or makes only
/// a loop, claims nothing.
std::atomic<std::thread::id> window_thread{};
/// Held while a window opens, so that two threads cannot both open the first one. Recursive: a
/// destroy function that runs when the creation fails may open a window itself.
std::recursive_mutex opening;

int check_window_thread(const char* function) {
  const std::thread::id owner = window_thread.load();
  if (owner == std::thread::id{} || owner == std::this_thread::get_id()) return CADENCE_OK;
  return fail(CADENCE_E_WRONG_THREAD, std::string(function) +
                                          ": windows and loops live on one thread of the process, the one that "
                                          "opened the first window; this is another");
}

/// REENTRANT_CALL while one of the loop's windows runs app code (a callback or draw function of
/// its runtime): the loop would destroy or run that window under it.
int check_loop_idle(const cadence_loop* l, const char* function) {
  if (l->running) {
    return fail(CADENCE_E_REENTRANT_CALL, std::string(function) + ": called inside the loop's own iteration");
  }
  for (const cadence_window* w : l->windows) {
    if (w->handle.is_open() && w->runtime->depth > 0) {
      return fail(CADENCE_E_REENTRANT_CALL,
                  std::string(function) + ": called from a callback of one of the loop's windows");
    }
  }
  return CADENCE_OK;
}

int check_drawing(const char* function) {
  if (drawing != nullptr) return CADENCE_OK;
  return fail(CADENCE_E_NOT_DRAWING, std::string(function) + ": called outside a window's draw function");
}

/// What the Window's draw function holds: the C function and its user data. Destroyed with the
/// window, after its runtime: the runtime handle is closed first, then the user's destroy runs.
struct DrawState {
  cadence_window* window;
  cadence_draw_fn draw;
  UserData user;
  DrawState(cadence_window* w, cadence_draw_fn fn, UserData data) : window(w), draw(fn), user(std::move(data)) {}
  DrawState(const DrawState&) = delete;
  ~DrawState() { release(window->runtime); }
  void operator()() {
    Drawing frame{window};
    Drawing* outer = std::exchange(drawing, &frame);
    {
      Enter running(window->runtime);
      draw(user.get(), window);
    }
    drawing = outer;
    if (frame.open > 0) {
      for (int i = 0; i < frame.open; ++i) ImGui::End();
      report(window->runtime, Failure{{}, Error{Errc::invalid_argument,
                                                 "the draw function left " + std::to_string(frame.open) +
                                                     " cadence_ui_begin without cadence_ui_end: closed for it"}});
    }
  }
};

}  // namespace

extern "C" {

void cadence_window_options_init(cadence_window_options* options) {
  if (options == nullptr) return;
  *options = cadence_window_options{sizeof(cadence_window_options), "cadence", 960, 640, CADENCE_BACKEND_GLFW, 1, 1};
}

int cadence_backend_available(int backend) {
  if (backend == CADENCE_BACKEND_GLFW) return backend_available(WindowBackend::glfw) ? 1 : 0;
  if (backend == CADENCE_BACKEND_SDL2) return backend_available(WindowBackend::sdl2) ? 1 : 0;
  if (backend == CADENCE_BACKEND_SDL3) return backend_available(WindowBackend::sdl3) ? 1 : 0;
  return 0;
}

int cadence_window_create(const cadence_window_options* options, cadence_draw_fn draw, void* user,
                          cadence_destroy_fn destroy, cadence_window** out) {
  static constexpr const char* fn = "cadence_window_create";
  UserData data(user, destroy);
  return guard(fn, [&]() -> int {
    if (draw == nullptr) return null_argument(fn, "draw");
    if (out == nullptr) return null_argument(fn, "out");
    const std::lock_guard one_at_a_time(opening);
    if (const int s = check_window_thread(fn); s != CADENCE_OK) return s;
    cadence_window_options o;
    cadence_window_options_init(&o);
    if (options != nullptr) {
      if (const int s = check_size(*options, fn, "cadence_window_options"); s != CADENCE_OK) return s;
      o = *options;
    }
    if (o.backend != CADENCE_BACKEND_GLFW && o.backend != CADENCE_BACKEND_SDL2 && o.backend != CADENCE_BACKEND_SDL3) {
      return fail(CADENCE_E_INVALID_ARGUMENT, std::string(fn) + ": backend is " + std::to_string(o.backend) +
                                                  ", not CADENCE_BACKEND_GLFW, CADENCE_BACKEND_SDL2 or CADENCE_BACKEND_SDL3");
    }
    const WindowBackend backend = o.backend == CADENCE_BACKEND_SDL2   ? WindowBackend::sdl2
                                  : o.backend == CADENCE_BACKEND_SDL3 ? WindowBackend::sdl3
                                                                      : WindowBackend::glfw;
    if (!backend_available(backend)) {
      return fail(CADENCE_E_UNSUPPORTED, std::string(fn) + ": this build of cadence has no " + to_string(backend) +
                                             " windows (cadence_backend_available says which it has)");
    }
    auto w = std::make_unique<cadence_window>();
    // The runtime handle comes first: the window's failures go to its handler.
    cadence_runtime* rt = new cadence_runtime;
    rt->of_window = true;
    WindowOptions wo;
    wo.title = o.title != nullptr ? o.title : "cadence";
    wo.backend = backend;
    wo.width = o.width;
    wo.height = o.height;
    wo.visible = o.visible != 0;
    wo.vsync = o.vsync != 0;
    wo.on_failure = [rt](const Failure& f) { report(rt, f); };
    auto state = std::make_shared<DrawState>(w.get(), draw, std::move(data));
    w->runtime = rt;
    Result<std::unique_ptr<Window>> made =
        Window::create(std::move(wo), [state](Window&, CallbackContext&) { (*state)(); });
    if (!made.ok()) {
      // The draw state goes with the failed window: it releases `rt`, then the user's destroy runs.
      return fail(fn, made.error());
    }
    std::unique_ptr<Window> window = std::move(*made);
    rt->runtime = &window->runtime();
    rt->origin = window->runtime().now();
    w->handle = window->handle();
    w->owned = std::move(window);
    window_thread.store(std::this_thread::get_id());  // this thread opened a window: it is the one
    *out = w.release();
    return CADENCE_OK;
  });
}

int cadence_window_destroy(cadence_window* w) {
  static constexpr const char* fn = "cadence_window_destroy";
  return guard(fn, [&]() -> int {
    if (w == nullptr) return null_argument(fn, "window");
    if (w->magic != kWindowMagic) return fail(CADENCE_E_MISMATCH, std::string(fn) + ": the handle is not a cadence_window");
    if (w->ui != std::this_thread::get_id()) {
      return fail(CADENCE_E_WRONG_THREAD, std::string(fn) + ": called off the window's UI thread");
    }
    if (w->destroyed) return fail(CADENCE_E_CLOSED, std::string(fn) + ": the window handle was destroyed before");
    if (Window* window = w->handle.get()) {
      if (w->runtime->depth > 0) {
        return fail(CADENCE_E_REENTRANT_CALL, std::string(fn) + ": called from the window's own draw function or "
                                                                "callbacks; use cadence_window_request_close");
      }
      if (w->in_loop) window->request_close();  // the loop destroys it after this iteration
    }
    w->destroyed = true;
    w->owned.reset();  // a window no loop has: closed here
    retire(w);
    return CADENCE_OK;
  });
}

int cadence_window_runtime(cadence_window* w, cadence_runtime** out) {
  static constexpr const char* fn = "cadence_window_runtime";
  return guard(fn, [&]() -> int {
    if (const int s = check(w, fn); s != CADENCE_OK) return s;
    if (out == nullptr) return null_argument(fn, "out");
    *out = w->runtime;
    return CADENCE_OK;
  });
}

int cadence_window_request_close(cadence_window* w) {
  static constexpr const char* fn = "cadence_window_request_close";
  return guard(fn, [&]() -> int {
    if (const int s = check(w, fn); s != CADENCE_OK) return s;
    w->handle.get()->request_close();
    return CADENCE_OK;
  });
}

int cadence_window_request_redraw(cadence_window* w) {
  static constexpr const char* fn = "cadence_window_request_redraw";
  return guard(fn, [&]() -> int {
    if (const int s = check(w, fn); s != CADENCE_OK) return s;
    w->handle.get()->request_redraw();
    return CADENCE_OK;
  });
}

int cadence_window_frames_drawn(cadence_window* w, uint64_t* out) {
  static constexpr const char* fn = "cadence_window_frames_drawn";
  return guard(fn, [&]() -> int {
    if (const int s = check(w, fn); s != CADENCE_OK) return s;
    if (out == nullptr) return null_argument(fn, "out");
    *out = w->handle.get()->stats().frames_drawn;
    return CADENCE_OK;
  });
}

int cadence_window_screenshot(cadence_window* w, const char* path) {
  static constexpr const char* fn = "cadence_window_screenshot";
  return guard(fn, [&]() -> int {
    if (const int s = check(w, fn); s != CADENCE_OK) return s;
    if (path == nullptr) return null_argument(fn, "path");
    if (drawing != nullptr && drawing->window == w) {
      return fail(CADENCE_E_REENTRANT_CALL,
                  std::string(fn) + ": called from the window's own draw function, whose frame is not drawn yet");
    }
    return status_of(fn, w->handle.get()->screenshot(path));
  });
}

// ---- The loop ---------------------------------------------------------------------------------

int cadence_loop_create(cadence_loop** out) {
  static constexpr const char* fn = "cadence_loop_create";
  return guard(fn, [&]() -> int {
    if (out == nullptr) return null_argument(fn, "out");
    if (const int s = check_window_thread(fn); s != CADENCE_OK) return s;
    auto l = std::make_unique<cadence_loop>();
    l->loop = std::make_unique<EventLoop>();
    *out = l.release();
    return CADENCE_OK;
  });
}

int cadence_loop_destroy(cadence_loop* l) {
  static constexpr const char* fn = "cadence_loop_destroy";
  return guard(fn, [&]() -> int {
    if (const int s = check(l, fn); s != CADENCE_OK) return s;
    if (const int s = check_loop_idle(l, fn); s != CADENCE_OK) return s;
    l->running = true;  // what the windows' destruction runs cannot run or destroy the loop
    l->loop.reset();
    retire(l);
    return CADENCE_OK;
  });
}

int cadence_loop_add(cadence_loop* l, cadence_window* w) {
  static constexpr const char* fn = "cadence_loop_add";
  return guard(fn, [&]() -> int {
    if (const int s = check(l, fn); s != CADENCE_OK) return s;
    if (const int s = check(w, fn); s != CADENCE_OK) return s;
    if (w->in_loop) return fail(CADENCE_E_INVALID_ARGUMENT, std::string(fn) + ": the window is in a loop already");
    l->windows.push_back(w);
    l->loop->add(std::move(w->owned));
    w->in_loop = true;
    return CADENCE_OK;
  });
}

int cadence_loop_run(cadence_loop* l, cadence_ns duration) {
  static constexpr const char* fn = "cadence_loop_run";
  return guard(fn, [&]() -> int {
    if (const int s = check(l, fn); s != CADENCE_OK) return s;
    if (const int s = check_loop_idle(l, fn); s != CADENCE_OK) return s;
    if (duration < 0) {
      return fail(CADENCE_E_INVALID_ARGUMENT, std::string(fn) + ": duration is " + std::to_string(duration) +
                                                  " ns; it must be >= 0, or CADENCE_NEVER for no limit");
    }
    l->running = true;
    struct Done {
      cadence_loop* l;
      ~Done() { l->running = false; }
    } done{l};
    if (duration == CADENCE_NEVER) {
      l->loop->run();
    } else {
      l->loop->run_for(Duration{duration});
    }
    return CADENCE_OK;
  });
}

int cadence_loop_stop(cadence_loop* l) {
  static constexpr const char* fn = "cadence_loop_stop";
  return guard(fn, [&]() -> int {
    if (const int s = check(l, fn); s != CADENCE_OK) return s;
    l->loop->stop();
    return CADENCE_OK;
  });
}

// ---- Drawing -------------------------------------------------------------------------------------

int cadence_ui_begin(const char* title) {
  static constexpr const char* fn = "cadence_ui_begin";
  return guard(fn, [&]() -> int {
    if (const int s = check_drawing(fn); s != CADENCE_OK) return s;
    if (title == nullptr) return null_argument(fn, "title");
    if (title[0] == '\0') return fail(CADENCE_E_INVALID_ARGUMENT, std::string(fn) + ": title is empty; an ImGui window needs a name");
    ImGui::Begin(title);
    ++drawing->open;
    return CADENCE_OK;
  });
}

int cadence_ui_end(void) {
  static constexpr const char* fn = "cadence_ui_end";
  return guard(fn, [&]() -> int {
    if (const int s = check_drawing(fn); s != CADENCE_OK) return s;
    if (drawing->open == 0) {
      return fail(CADENCE_E_INVALID_ARGUMENT, std::string(fn) + ": no cadence_ui_begin is open in this draw function");
    }
    ImGui::End();
    --drawing->open;
    return CADENCE_OK;
  });
}

int cadence_ui_text(const char* text) {
  static constexpr const char* fn = "cadence_ui_text";
  return guard(fn, [&]() -> int {
    if (const int s = check_drawing(fn); s != CADENCE_OK) return s;
    if (text == nullptr) return null_argument(fn, "text");
    ImGui::TextUnformatted(text);
    return CADENCE_OK;
  });
}

int cadence_ui_button(const char* label, int* clicked) {
  static constexpr const char* fn = "cadence_ui_button";
  return guard(fn, [&]() -> int {
    if (const int s = check_drawing(fn); s != CADENCE_OK) return s;
    if (label == nullptr) return null_argument(fn, "label");
    const bool c = ImGui::Button(label);
    if (clicked != nullptr) *clicked = c ? 1 : 0;
    return CADENCE_OK;
  });
}

int cadence_ui_input_text(const char* label, char* buffer, size_t size, int* changed) {
  static constexpr const char* fn = "cadence_ui_input_text";
  return guard(fn, [&]() -> int {
    if (const int s = check_drawing(fn); s != CADENCE_OK) return s;
    if (label == nullptr) return null_argument(fn, "label");
    if (buffer == nullptr) return null_argument(fn, "buffer");
    if (size == 0) return fail(CADENCE_E_INVALID_ARGUMENT, std::string(fn) + ": size is 0; it must be >= 1 (the NUL)");
    buffer[size - 1] = '\0';  // ImGui reads up to the NUL
    const bool c = ImGui::InputText(label, buffer, size);
    if (changed != nullptr) *changed = c ? 1 : 0;
    return CADENCE_OK;
  });
}

int cadence_ui_progress_bar(double fraction, const char* overlay) {
  static constexpr const char* fn = "cadence_ui_progress_bar";
  return guard(fn, [&]() -> int {
    if (const int s = check_drawing(fn); s != CADENCE_OK) return s;
    const double f = fraction != fraction ? 0.0 : fraction < 0.0 ? 0.0 : fraction > 1.0 ? 1.0 : fraction;  // NaN: 0
    ImGui::ProgressBar(static_cast<float>(f), ImVec2(-1.0f, 0.0f), overlay);
    return CADENCE_OK;
  });
}

int cadence_ui_same_line(void) {
  static constexpr const char* fn = "cadence_ui_same_line";
  return guard(fn, [&]() -> int {
    if (const int s = check_drawing(fn); s != CADENCE_OK) return s;
    ImGui::SameLine();
    return CADENCE_OK;
  });
}

int cadence_ui_focus_next(void) {
  static constexpr const char* fn = "cadence_ui_focus_next";
  return guard(fn, [&]() -> int {
    if (const int s = check_drawing(fn); s != CADENCE_OK) return s;
    ImGui::SetKeyboardFocusHere();
    return CADENCE_OK;
  });
}

}  // extern "C"
