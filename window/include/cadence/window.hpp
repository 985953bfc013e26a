// cadence/window.hpp: a GLFW, SDL2 or SDL3 window with a Dear ImGui frame and its own
// WindowRuntime.
//
// A Window owns a native window (GLFW's or SDL's, as WindowOptions::backend says) with its
// OpenGL context, an ImGui context and a WindowRuntime. Each frame() runs its due timers and its
// threads' messages, then builds and renders an ImGui frame only when something asked for one,
// as its FramePacer decides (frame_pacer.hpp, "When a frame is drawn"): never while a still
// screen stays still. Between frames the EventLoop (event_loop.hpp) sleeps until the window's
// next_wake() or until input arrives or a worker posts, so an idle window with a blinking caret
// wakes twice a second and uses almost no CPU. io.DeltaTime follows the window's time source.
//
// Each drawn frame starts from a clear to ImGui's window background colour: an ImGui window that
// covers the whole viewport should pass ImGuiWindowFlags_NoBackground (it looks the same, and
// under software OpenGL it makes a frame about five times cheaper).
//
// Order within a frame: timers and threads run first and apply their changes, then the app's
// draw function builds the ImGui frame (immediate mode draws what the state is now, so the frame
// shows what the timers and workers just changed), then the draw function's own changes are
// applied.
//
// The window runs the pacer's system timers (frame_pacer.hpp; ids in ids.hpp) on its runtime:
// the caret's blink, scroll momentum, drag autoscroll, and the tooltip delay of tooltip().
//
//     #include <cadence/event_loop.hpp>
//     #include <imgui.h>
//     #include <cstdio>
//     using namespace cadence;
//     Thread make_job(int kind);  // the app's background work (thread.hpp)
//     auto window = Window::create({.title = "Hello"}, [&](Window& w, CallbackContext& ctx) {
//       ImGui::Begin("Main");
//       if (ImGui::Button("Start")) (void)ctx.start_thread(ThreadId::unique(), make_job(0));
//       w.tooltip("Starts a background job");
//       ImGui::End();
//     });
//     if (!window) { std::fprintf(stderr, "%s\n", window.error().message.c_str()); return; }
//     EventLoop loop;
//     loop.add(std::move(*window));
//     loop.run();
//
// Backends: every member function behaves the same on GLFW, SDL2 and SDL3; glfw_window() and
// sdl_window() give the native window of each. A build has SDL2 or SDL3 windows, not both
// (backend_available). The windows open at one time in a process all use one backend (the loop
// waits in one window system's event queue). Workers reach a window
// only through its runtime's threads; their posts wake the loop (glfwPostEmptyEvent, or an SDL
// event of a type cadence registers for itself).
//
// For every member of Window and WindowHandle: Thread: the main thread, which made it; elsewhere undefined.
// Where: anywhere, its own and other windows' draw functions and callbacks included.
// Errors: none; failures of the window's frames go to WindowOptions::on_failure.
// Cost: O(1).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cadence/callback_context.hpp"
#include "cadence/export.hpp"
#include "cadence/frame_pacer.hpp"
#include "cadence/key.hpp"
#include "cadence/result.hpp"
#include "cadence/time_source.hpp"
#include "cadence/window_runtime.hpp"

struct GLFWwindow;
struct ImGuiContext;
struct SDL_Window;

namespace cadence {

class Window;

/// Largest window side accepted by Window::create, in screen coordinates (X11's limit is 32767).
inline constexpr int kMaxWindowSide = 16384;

/// The window system a Window runs on.
enum class WindowBackend : std::uint8_t {
  glfw,  ///< GLFW 3 (libglfw3-dev) and Dear ImGui's GLFW backend
  sdl2,  ///< SDL 2 (libsdl2-dev) and Dear ImGui's SDL2 backend
  sdl3,  ///< SDL 3 (libsdl3-dev) and Dear ImGui's SDL3 backend
};

/// "glfw", "sdl2" or "sdl3".
/// Cost: O(1).
CADENCE_WINDOW_API const char* to_string(WindowBackend backend) noexcept;
/// True when this build of cadence::window can open windows on `backend` (GLFW always; SDL2
/// when it was built with SDL >= 2.0.22 and Debian's libimgui-dev, whose library has ImGui's
/// SDL2 backend, not with CADENCE_IMGUI_DIR; SDL3 when it was built with SDL 3 and an ImGui
/// whose SDL3 backend builds against it, as it is or adapted to SDL 3.2). A build has one SDL at most, SDL2 or SDL3: the two
/// define functions of the same names and cannot share a process (CMake's CADENCE_WINDOW_SDL
/// chooses). It says nothing about a display being there.
/// Cost: O(1).
CADENCE_WINDOW_API bool backend_available(WindowBackend backend) noexcept;

/// How a window is opened. Every field has a working default; Window::create checks the values.
struct WindowOptions {
  std::string title = "cadence";
  /// The window system: every window open at one time in a process must use the same one.
  WindowBackend backend = WindowBackend::glfw;
  /// Size of the window's client area in screen coordinates, each in [1, kMaxWindowSide].
  int width = 960;
  int height = 640;
  /// The time source of the window's runtime; the system clock unless a test passes a manual one.
  std::optional<TimeSource> time_source;
  /// The runtime's options. When `runtime.frame_interval` is left at its default, the window
  /// sets it to the display's refresh period (GLFW: the primary monitor's; SDL: the desktop
  /// mode of the window's display), so every-frame timers follow the screen.
  WindowRuntime::Options runtime;
  /// Caret blink: shown this long, then hidden this long. Must be > 0.
  Duration caret_blink = std::chrono::milliseconds(530);
  /// How long an item must be hovered before tooltip() shows its text. Must be >= 0.
  Duration tooltip_delay = std::chrono::milliseconds(500);
  /// Scroll momentum: the time constant of a flick's exponential decay. Must be > 0.
  Duration momentum_decay = std::chrono::milliseconds(250);
  /// Wait for the monitor's vertical blank when presenting a frame. Not on Wayland: there the
  /// compositor shows the last frame at its own refresh without tearing, and a swap that waited
  /// would hold the loop's timers and workers (for ever while the window is not seen). The loop
  /// paces its frames itself either way.
  bool vsync = true;
  /// False creates the window unshown (tests, screenshots); unlike a window hidden with
  /// set_visible(false) or minimized, it still draws.
  bool visible = true;
  /// The settle check: as PacerOptions::settle_frames (frame_pacer.hpp).
  bool settle_frames = true;
  /// As PacerOptions::on_failure: every failure the window's frames report, on the UI thread;
  /// each also redraws the window (the draw function's own changes: once). Default: stderr.
  std::function<void(const Failure&)> on_failure;
  /// Called on the UI thread when the window is asked to close (its close button, the window
  /// manager, request_close()): true lets it close, false keeps it open (to ask about unsaved
  /// work first), as Qt's closeEvent can; request_close() later closes after all (from inside
  /// it, nothing). If it throws, the window stays open and on_failure gets callback_threw.
  /// Default: close.
  std::function<bool(Window&)> on_close;
  /// As PacerOptions::on_kept_awake, with the window: once in its life, on the UI thread.
  std::function<void(Window&, const AwakeCause&)> on_kept_awake;
};

/// Refers to a window without owning it, and knows when the window is gone: EventLoop::add()
/// returns one, so code that outlives a window (a timer of another window, a worker's
/// write-back) can check before it touches it. Copyable.
class CADENCE_WINDOW_API WindowHandle {
 public:
  /// A handle to no window: get() is nullptr.
  WindowHandle() = default;
  /// The window, or nullptr once it was destroyed (the EventLoop destroys a window after the
  /// iteration in which it agreed to close).
  Window* get() const noexcept { return life_ ? *life_ : nullptr; }
  /// True while the window exists.
  bool is_open() const noexcept { return get() != nullptr; }
  explicit operator bool() const noexcept { return is_open(); }
  /// The window, or an error.
  /// Errors: closed (it was destroyed; the message names its title); not_found (a handle to no window).
  Result<Window*> window() const;

 private:
  friend class Window;
  WindowHandle(std::shared_ptr<Window*> life, std::string title) : life_(std::move(life)), title_(std::move(title)) {}
  std::shared_ptr<Window*> life_;  // the window while it lives; nullptr after
  std::string title_;
};

class CADENCE_WINDOW_API Window {
 public:
  /// The app's draw function: builds this window's ImGui frame. Runs on the UI thread between
  /// ImGui::NewFrame() and ImGui::Render(), with the window's ImGui context current; the context
  /// it gets schedules timers and threads on this window's runtime.
  using DrawFunction = std::function<void(Window&, CallbackContext&)>;

  /// Opens a window (GLFW, or SDL's video subsystem, is started with the first window and shut
  /// down with the last). The ImGui and OpenGL contexts current before the call are current
  /// again after it, so a window may be opened from another window's draw function. Each error's
  /// message says what failed and what to do. invalid_argument: a size or duration of `options`
  /// out of its range, a backend other than the open windows', or one this build has not
  /// (backend_available(); the message names the package that brings it). resource: the window
  /// system cannot start (no display: run under one, or headless with xvfb-run), or the window or
  /// its OpenGL 3.0 context cannot be created (the window system's reason is included).
  /// Errors: invalid_argument; resource (see above).
  /// Cost: a window, a GL context and an ImGui context with its font atlas; milliseconds.
  static Result<std::unique_ptr<Window>> create(WindowOptions options, DrawFunction draw);

  /// Closes the window: its runtime terminates its threads and joins them (within the runtime's
  /// join deadline), then the ImGui context and the native window (GLFW's or SDL's) go.
  /// Where: not in its runtime's calls (timer callbacks, write-backs): the process stops with a message.
  /// Cost: the threads' join, up to the join deadline.
  ~Window();
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;

  /// The window's runtime: add timers and start threads on it from outside a callback.
  WindowRuntime& runtime() noexcept;
  /// The window system this window runs on.
  WindowBackend backend() const noexcept;
  /// The GLFW window, for what cadence does not wrap (icons, cursors, clipboard); nullptr on
  /// SDL. Do not replace its user pointer or its input callbacks: the window routes events
  /// through them.
  GLFWwindow* glfw_window() const noexcept;
  /// The SDL window (SDL2's or SDL3's, as backend() says), for what cadence does not wrap;
  /// nullptr on GLFW. The EventLoop takes every
  /// event off SDL's queue and hands each to the window it names: an app that wants SDL events
  /// of its own (its user events, file drops, controllers) sees them with SDL_AddEventWatch,
  /// which SDL calls as each one is queued.
  SDL_Window* sdl_window() const noexcept;
  /// The window's ImGui context (current during its draw function).
  ImGuiContext* imgui_context() const noexcept;
  /// Counters since the window opened.
  const WindowStats& stats() const noexcept;

  /// True once the window agreed to close (on_close returned true, or there is none) after its
  /// close button, the window manager, an SDL quit event or request_close() asked, or once the
  /// app set GLFW's own close flag (glfwSetWindowShouldClose, which asks no one); the EventLoop
  /// then destroys it after the current iteration.
  bool should_close() const;
  /// Asks for the window to close, as the close button does: runs on_close now, if there is
  /// one, and closes unless it says no.
  /// Where: anywhere, its draw function and callbacks included; inside on_close it does nothing.
  /// Errors: none; what on_close throws goes to on_failure (callback_threw), the window stays open.
  /// Cost: on_close's.
  void request_close();
  /// A handle that knows when this window is gone.
  WindowHandle handle() const;

  /// One frame for this window: due timers, threads' messages, the change-set, and an ImGui
  /// frame only if one is owed (frame_pacer.hpp, "When a frame is drawn"); none once it agreed
  /// to close. Called from inside another window's frame, it leaves that window's ImGui and
  /// OpenGL contexts current when it returns; from elsewhere, the ImGui context that was current,
  /// and its own OpenGL context if it drew (switching OpenGL contexts costs a round trip to the X
  /// server with SDL, so a frame that draws nothing switches none: timer callbacks and write-backs
  /// must not count on the window's OpenGL context being current). A drawn frame costs ImGui's and
  /// OpenGL's work, a pass over the draw data (the settle check) and one over ImGui's windows and
  /// held keys.
  /// Where: anywhere; inside its own frame (its draw function, timer callbacks, write-backs), nothing.
  /// Cost: with nothing due or drawn, the runtime's idle frame (tens of ns) plus two context checks.
  void frame();
  /// How long this window may sleep, measured on its time source: zero while it owes ImGui
  /// frames or input waits, else the sooner of the settle check's next frame and the runtime's
  /// next_wake(); nullopt when nothing at all is scheduled (sleep until input or a worker's
  /// post).
  /// Cost: O(1) when nothing changed, else the runtime's next_wake() cost (O(wheel levels)).
  std::optional<Duration> next_wake();
  /// Makes the next frame() build and render an ImGui frame.
  void request_redraw() noexcept;

  /// Shows or hides the window (glfwShowWindow / glfwHideWindow, SDL_ShowWindow /
  /// SDL_HideWindow). While it is hidden or minimized, or covered whole by other windows (SDL3
  /// says so: occluded; the window manager tells the window system, which tells the window), it
  /// draws nothing and wakes only for what must go on: its
  /// system timers (the caret's blink, ImGui's instants) pause, and each app timer follows its
  /// Timer::with_when_hidden policy (keep running by default, pause, or throttle); a redraw
  /// asked for meanwhile is drawn when it is shown. So a minimized idle window makes no
  /// wake-ups at all. Shown again, it draws at once.
  /// Where: anywhere; from a timer callback or write-back the hidden state follows its frame.
  /// Cost: O(timers) when the state changes (WindowRuntime::set_hidden), else O(1).
  void set_visible(bool visible);
  /// True while the window is hidden (set_visible(false)), minimized or occluded.
  bool is_hidden() const noexcept;

  /// Shows `text` as a tooltip for the last ImGui item once it has been hovered for
  /// tooltip_delay; until then arms the tooltip timer (no frames are drawn meanwhile). Returns
  /// true while the tooltip shows.
  /// Where: its draw function, right after the item.
  bool tooltip(const char* text);

  /// The last drawn frame as RGBA pixels, rows top to bottom, in framebuffer pixels; sets
  /// `width` and `height`. Empty (and 0 x 0) before the first drawn frame. It renders the last
  /// frame's ImGui draw data again into the back buffer and reads it back (the app's draw
  /// function does not run). The ImGui and OpenGL contexts current before the call are current
  /// again after it.
  /// Cost: about one frame's rendering, plus width x height x 4 bytes copied.
  std::vector<std::uint8_t> read_pixels(int& width, int& height);
  /// Writes the last drawn frame to a PNG file.
  /// Errors: resource (nothing was drawn yet, or the file cannot be written).
  /// Cost: read_pixels', plus the PNG's encoding.
  Status screenshot(const std::string& path);

  /// Input for tests and scripted demos, the same on both backends. Position and buttons stick
  /// until changed (as a real pointer's would) and override the real pointer's in every drawn
  /// frame; characters, keys and focus reach ImGui as the backend (GLFW's or SDL's) would
  /// hand it a real event. Each one counts as input: the next frames are drawn.
  /// `x`, `y`: in the window's screen coordinates, from its top-left corner.
  void inject_mouse_position(float x, float y);
  /// `button`: 0 left, 1 right, 2 middle, 3 and 4 extra; other values are ignored.
  void inject_mouse_button(int button, bool down);
  /// `dx`, `dy`: wheel notches, positive up and right (GLFW's convention), fractions kept on
  /// both backends (as a trackpad's precise wheel); feeds scroll momentum.
  void inject_scroll(double dx, double dy);
  /// A typed Unicode code point, to the focused text field (an edit there restarts the caret's
  /// blink, as any edit does).
  void inject_char(unsigned int codepoint);
  /// A key event, the same on every backend (key.hpp): it reaches ImGui as the backend's own
  /// event would. A repeat changes nothing there (ImGui repeats a held key itself, from
  /// io.KeyRepeatDelay and KeyRepeatRate); a modifier key's own event holds or lets go of its
  /// modifier. What the key does to a text field (an edit, a caret move) restarts the caret's
  /// blink. Errors: invalid_argument (a value that is not a Key or a KeyAction): nothing sent.
  Status inject_key(Key key, KeyAction action, KeyMods mods = {});
  /// The window gaining (true) or losing keyboard focus, as the window system would report it.
  void inject_focus(bool focused);
  /// The window being minimized (true) or restored, as the window manager would report it
  /// (under Xvfb there is no window manager to do it).
  void inject_minimized(bool minimized);

  struct Impl;

 private:
  friend class EventLoop;  // passes Update::redraw_all on to the other windows
  explicit Window(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace cadence
