// The SDL3 window system: an SDL window with its OpenGL context, Dear ImGui's SDL3 backend, and
// SDL's event queue, whose events the loop hands to the window they name. SDL3 also says when a
// window is covered whole by others (occluded): such a window follows the hidden-window policy,
// as a minimized one does.
#include <SDL3/SDL.h>
#include <imgui.h>

#include "cadence/imgui_features.hpp"
#include "imgui_impl_sdl3_names.hpp"
#include <backends/imgui_impl_sdl3.h>

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "imgui_input.hpp"
#include "sdl_windows.hpp"
#include "sdl3_events.hpp"
#include "surface.hpp"
#include "wait_ms.hpp"
#include "window_impl.hpp"

static_assert(CADENCE_IMGUI_INPUT_EVENTS, "Dear ImGui's SDL3 backend queues input events (ImGui 1.87 and later)");

namespace cadence::detail {
namespace {

int holders = 0;  // windows holding SDL's video subsystem (UI thread only)

sdl3::GamepadNews& gamepad_news() {  // UI thread only
  static sdl3::GamepadNews news;
  return news;
}

Status acquire() {
  if (holders > 0) {
    ++holders;
    return {};
  }
  const bool app_started_video = SDL_WasInit(SDL_INIT_VIDEO) != 0;
  if (!app_started_video) {
    // A GUI library's windows should behave as GLFW's do, and close as the app decides: no
    // SDL_EVENT_QUIT for the last window closed (each window asks on_close itself), and Ctrl-C
    // ends the process. An app that started SDL itself keeps its own settings.
    SDL_SetHint(SDL_HINT_QUIT_ON_LAST_WINDOW_CLOSE, "0");
    SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1");
    // Nor does it keep the screen saver off, as GLFW does not (SDL would, by default).
    SDL_SetHint(SDL_HINT_VIDEO_ALLOW_SCREENSAVER, "1");
  }
  if (!SDL_InitSubSystem(SDL_INIT_VIDEO)) return sdl_windows::no_display(SDL_GetError());
  // Without a display SDL falls back to drivers that show nothing: a window there would run
  // unseen. An app that names a driver (SDL_VIDEO_DRIVER, as a hint or in the environment) or
  // started SDL's video itself gets what it chose.
  const char* driver = SDL_GetCurrentVideoDriver();
  const std::string name = driver != nullptr ? driver : "";
  const bool named = SDL_GetHint(SDL_HINT_VIDEO_DRIVER) != nullptr;  // the hint, or the environment
  if (!app_started_video && !named && sdl_windows::shows_nothing(name)) {
    SDL_QuitSubSystem(SDL_INIT_VIDEO);
    return sdl_windows::fell_back_to(name);
  }
  if (sdl3::wake_type() == 0) {
    SDL_QuitSubSystem(SDL_INIT_VIDEO);
    return sdl_windows::no_event_type();
  }
  ++holders;
  return {};
}

void release() {
  if (holders == 0) return;
  if (--holders == 0) SDL_QuitSubSystem(SDL_INIT_VIDEO);
}

class Sdl3Surface final : public Surface {
 public:
  Sdl3Surface(SDL_Window* window, SDL_GLContext gl, Window::Impl& owner)
      : window_(window), gl_(gl), id_(SDL_GetWindowID(window)), owner_(owner) {
    sdl_windows::add(id_, owner);
  }
  ~Sdl3Surface() override {
    sdl_windows::remove(id_);
    (void)SDL_GL_DestroyContext(gl_);  // no longer current, if it was
    SDL_DestroyWindow(window_);
  }
  Sdl3Surface(const Sdl3Surface&) = delete;
  Sdl3Surface& operator=(const Sdl3Surface&) = delete;

  WindowBackend backend() const noexcept override { return WindowBackend::sdl3; }
  void* native() const noexcept override { return window_; }
  void make_current() override {
    if (SDL_GL_GetCurrentContext() != gl_) (void)SDL_GL_MakeCurrent(window_, gl_);  // a TLS read when it is
  }
  void init_imgui() override { (void)ImGui_ImplSDL3_InitForOpenGL(window_, gl_); }
  void shutdown_imgui() override { ImGui_ImplSDL3_Shutdown(); }
  void new_frame(InjectedPointer& pointer) override {
    ImGuiIO& io = ImGui::GetIO();
    // SDL has one cursor for all its windows: only the window under the pointer sets it.
    const bool under_pointer = SDL_GetMouseFocus() == window_;
    const ImGuiConfigFlags flags = io.ConfigFlags;
    if (!under_pointer) io.ConfigFlags |= ImGuiConfigFlags_NoMouseCursorChange;
    const int queued = input_queue_size();
    ImGui_ImplSDL3_NewFrame();
    io.ConfigFlags = flags;
    // Each window's backend captures SDL's one mouse while its own ImGui drags, and lets it go
    // otherwise: a window whose button is still down keeps it captured, whatever the others say.
    if (any_window_holds()) (void)SDL_CaptureMouse(true);
    feed_pointer(io, pointer, queued, [this] { process(window_event(SDL_EVENT_WINDOW_MOUSE_ENTER)); });
  }
  /// A button event SDL reported (dispatch): a press for the window it names; a release, for
  /// every window (SDL names the one that has the mouse captured, not always the one pressed).
  /// True when it let go of a button this window held.
  bool button(const SDL_MouseButtonEvent& e) {
    for (std::size_t b = 0; b < kButtons; ++b) {
      if (e.button != kSdlButton[b]) continue;
      if (!e.down) return release(b);
      held_[b] = true;
    }
    return false;
  }
  /// Lets go of button `b` if this window held it (true then): ImGui hears of the release
  /// whichever window SDL named.
  bool release(std::size_t b) {
    if (!held_[b]) return false;
    held_[b] = false;
    owner_.in_context([b] { ImGui::GetIO().AddMouseButtonEvent(static_cast<int>(b), false); });
    return true;
  }
  bool holds_a_button() const noexcept { return held_[0] || held_[1] || held_[2]; }
  void drawable_size(int& width, int& height) override { (void)SDL_GetWindowSizeInPixels(window_, &width, &height); }
  void swap() override { (void)SDL_GL_SwapWindow(window_); }
  void show(bool visible) override {
    if (visible) {
      (void)SDL_ShowWindow(window_);
    } else {
      (void)SDL_HideWindow(window_);
    }
  }
  bool close_flag() const override { return false; }
  std::optional<Duration> refresh_period() const override { return sdl3::refresh_period(window_); }
  std::function<void()> waker() const override {
    return [type = sdl3::wake_type()] { sdl3::push_wake(type); };
  }
  void scroll(double dx, double dy) override { add_wheel(ImGui::GetIO(), dx, dy); }
  // What the SDL3 backend does with the UTF-8 text of an SDL_EVENT_TEXT_INPUT, without the encoding.
  void character(unsigned int codepoint) override { ImGui::GetIO().AddInputCharacter(codepoint); }
  Status key(Key key, KeyAction action, KeyMods mods) override {
    return key_event(key, action, mods, [](Key, bool, KeyMods) {});  // queued by key_event itself
  }
  void focus(bool focused) override {
    process(window_event(focused ? SDL_EVENT_WINDOW_FOCUS_GAINED : SDL_EVENT_WINDOW_FOCUS_LOST));
  }

 private:
  SDL_Event window_event(SDL_EventType what) const {
    SDL_Event e{};
    e.type = what;
    e.window.windowID = id_;
    return e;
  }
  static void process(const SDL_Event& e) { (void)ImGui_ImplSDL3_ProcessEvent(&e); }

  static bool any_window_holds();

  static constexpr std::size_t kButtons = 3;
  static constexpr Uint8 kSdlButton[kButtons] = {SDL_BUTTON_LEFT, SDL_BUTTON_RIGHT, SDL_BUTTON_MIDDLE};  // ImGui's order
  SDL_Window* window_;
  SDL_GLContext gl_;
  SDL_WindowID id_;
  Window::Impl& owner_;      // its ImGui context, for a release SDL reports for another window
  bool held_[kButtons] = {};  // this window's buttons, from its own presses
};

bool Sdl3Surface::any_window_holds() {
  for (const sdl_windows::Open& o : sdl_windows::open()) {
    if (static_cast<const Sdl3Surface*>(o.window->surface.get())->holds_a_button()) return true;
  }
  return false;
}

Result<std::unique_ptr<Surface>> open(Window::Impl& owner) {
  const WindowOptions& o = owner.options;
  const auto failed = [&o](const char* what) { return sdl_windows::window_failed(o, what, SDL_GetError()); };
  (void)SDL_GL_SetAttribute(SDL_GL_CONTEXT_FLAGS, 0);
  (void)SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, 0);
  (void)SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
  (void)SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 0);
  (void)SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
  const SDL_WindowFlags flags = SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE | (o.visible ? 0 : SDL_WINDOW_HIDDEN);
  SDL_Window* window = SDL_CreateWindow(o.title.c_str(), o.width, o.height, flags);
  if (window == nullptr) return failed("SDL_CreateWindow failed");
  SDL_GLContext gl = SDL_GL_CreateContext(window);  // current on success
  if (gl == nullptr) {
    Error e = failed("SDL_GL_CreateContext failed");
    SDL_DestroyWindow(window);
    return e;
  }
  const char* driver = SDL_GetCurrentVideoDriver();
  (void)SDL_GL_SetSwapInterval(swap_interval(o, driver != nullptr && std::string_view(driver) == "wayland"));
  return std::unique_ptr<Surface>(new Sdl3Surface(window, gl, owner));
}

// Hands one event to the window it is for, as ImGui's SDL3 backend and the pacer need it.
void dispatch(const SDL_Event& e) {
  if (sdl3::is_wake(e) || e.type == SDL_EVENT_POLL_SENTINEL) return;  // a worker's post: the runtime has it
  if (e.type == SDL_EVENT_QUIT) {  // the app or the system asks the program to end
    sdl_windows::ask_every_window_to_close();
    return;
  }
  if (e.type == SDL_EVENT_MOUSE_BUTTON_UP) {  // SDL may name the window that has the mouse captured
    for (const sdl_windows::Open& o : sdl_windows::open()) {
      const bool let_go = static_cast<Sdl3Surface*>(o.window->surface.get())->button(e.button);
      if (let_go && *o.window->life != nullptr) o.window->on_input();
    }
  }
  if (e.type >= SDL_EVENT_JOYSTICK_AXIS_MOTION && e.type < SDL_EVENT_FINGER_DOWN) {  // joysticks, gamepads: no window
    if (!gamepad_news().is_news(e)) return;  // nothing ImGui reads
    // ImGui's backend of each window reads the gamepads it opened in its NewFrame, and hears of
    // one connected or gone by event: every window gets it, and draws.
    for (const sdl_windows::Open& o : sdl_windows::open()) {
      if (!o.window->pacer || *o.window->life == nullptr) continue;
      o.window->in_context([&] { (void)ImGui_ImplSDL3_ProcessEvent(&e); });
      o.window->on_input();
    }
    return;
  }
  Window::Impl* w = sdl_windows::taking_events(sdl3::window_of(e));
  if (w == nullptr) return;
  switch (e.type) {
    case SDL_EVENT_WINDOW_CLOSE_REQUESTED: w->ask_close(); return;
    case SDL_EVENT_WINDOW_MINIMIZED: w->set_minimized(true); return;
    case SDL_EVENT_WINDOW_RESTORED:
    case SDL_EVENT_WINDOW_MAXIMIZED:
    case SDL_EVENT_WINDOW_SHOWN: w->set_minimized(false); break;  // SDL clears minimized with SHOWN too
    case SDL_EVENT_WINDOW_OCCLUDED: w->set_occluded(true); return;
    case SDL_EVENT_WINDOW_EXPOSED: w->set_occluded(false); break;
    case SDL_EVENT_WINDOW_HIDDEN: return;  // set_visible(false) did it: the window knows
    default: break;
  }
  if (e.type == SDL_EVENT_MOUSE_BUTTON_DOWN) static_cast<Sdl3Surface*>(w->surface.get())->button(e.button);
  w->in_context([&] { (void)ImGui_ImplSDL3_ProcessEvent(&e); });
  if (e.type == SDL_EVENT_MOUSE_WHEEL) {
    // The momentum glides on in the direction ImGui's backend scrolled (SDL's right is its left).
    w->scrolled(-static_cast<double>(e.wheel.x), static_cast<double>(e.wheel.y));
  } else {
    w->on_input();
  }
}

// SDL's wait returns only with an SDL event: `soonest` is not needed.
void wait(std::optional<Duration> timeout, const std::function<std::optional<Duration>()>& /*soonest*/) {
  (void)SDL_WaitEventTimeout(nullptr, wait_ms(timeout));
  // Each event goes to its window; one that a window's code queues meanwhile waits for the
  // next iteration, as GLFW's callbacks do. One at a time: the text an SDL3 event points to
  // lives until SDL next pumps events, which app code an event runs (on_close) may do.
  SDL_PumpEvents();
  const int queued = SDL_PeepEvents(nullptr, 0, SDL_PEEKEVENT, SDL_EVENT_FIRST, SDL_EVENT_LAST);
  SDL_Event e;
  for (int i = 0; i < queued && SDL_PeepEvents(&e, 1, SDL_GETEVENT, SDL_EVENT_FIRST, SDL_EVENT_LAST) == 1; ++i) {
    dispatch(e);
  }
}

}  // namespace

extern const WindowSystem kSdl3System;
const WindowSystem kSdl3System{
    .acquire = &acquire,
    .release = &release,
    .open = &open,
    .wait = &wait,
    .current_gl = [] { return CurrentGl{SDL_GL_GetCurrentWindow(), SDL_GL_GetCurrentContext()}; },
    .make_current_gl =
        [](const CurrentGl& gl) {
          if (SDL_GL_GetCurrentContext() != gl.context) {
            (void)SDL_GL_MakeCurrent(static_cast<SDL_Window*>(gl.window), static_cast<SDL_GLContext>(gl.context));
          }
        },
};

}  // namespace cadence::detail
