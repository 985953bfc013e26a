// The SDL2 window system: an SDL window with its OpenGL context, ImGui's SDL2 backend, and
// SDL's event queue, whose events the loop hands to the window they name.
#include <SDL.h>
#include <imgui.h>

#include "cadence/imgui_features.hpp"
#include CADENCE_IMGUI_IMPL_SDL2

#include <algorithm>
#include <cfloat>
#include <chrono>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "imgui_input.hpp"
#include "sdl_windows.hpp"
#include "sdl_events.hpp"
#include "wait_ms.hpp"
#include "surface.hpp"
#include "window_impl.hpp"

namespace cadence::detail {
namespace {

int holders = 0;  // windows holding SDL's video subsystem (UI thread only)

sdl::GamepadNews& gamepad_news() {  // UI thread only
  static sdl::GamepadNews news;
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
    // SDL_QUIT for the last window closed (each window asks on_close itself), and Ctrl-C ends
    // the process. An app that started SDL itself keeps its own settings.
    SDL_SetHint(SDL_HINT_QUIT_ON_LAST_WINDOW_CLOSE, "0");
    SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1");
    // Nor does it keep the screen saver off, as GLFW does not (SDL would, by default).
    SDL_SetHint(SDL_HINT_VIDEO_ALLOW_SCREENSAVER, "1");
  }
  if (SDL_InitSubSystem(SDL_INIT_VIDEO) != 0) return sdl_windows::no_display(SDL_GetError());
  // Without a display SDL falls back to drivers that show nothing: a window there would run
  // unseen. An app that names a driver (SDL_VIDEODRIVER, as a hint or in the environment) or
  // started SDL's video itself gets what it chose.
  const char* driver = SDL_GetCurrentVideoDriver();
  const std::string name = driver != nullptr ? driver : "";
  const bool named = SDL_GetHint(SDL_HINT_VIDEODRIVER) != nullptr;  // the hint, or the environment
  if (!app_started_video && !named && sdl_windows::shows_nothing(name)) {
    SDL_QuitSubSystem(SDL_INIT_VIDEO);
    return sdl_windows::fell_back_to(name);
  }
  if (sdl::wake_type() == 0) {
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

#if !CADENCE_IMGUI_INPUT_EVENTS
// SDL's scancode of a key that key_event() accepted, for 1.86's backend.
SDL_Scancode to_scancode(Key key) {
  const int k = static_cast<int>(key);
  if (key >= Key::a && key <= Key::z) return static_cast<SDL_Scancode>(SDL_SCANCODE_A + (k - static_cast<int>(Key::a)));
  if (key == Key::digit_0) return SDL_SCANCODE_0;  // after 9 in SDL's order
  if (key >= Key::digit_1 && key <= Key::digit_9) {
    return static_cast<SDL_Scancode>(SDL_SCANCODE_1 + (k - static_cast<int>(Key::digit_1)));
  }
  if (key >= Key::f1 && key <= Key::f12) return static_cast<SDL_Scancode>(SDL_SCANCODE_F1 + (k - static_cast<int>(Key::f1)));
  switch (key) {
    case Key::space: return SDL_SCANCODE_SPACE;
    case Key::escape: return SDL_SCANCODE_ESCAPE;
    case Key::enter: return SDL_SCANCODE_RETURN;
    case Key::tab: return SDL_SCANCODE_TAB;
    case Key::backspace: return SDL_SCANCODE_BACKSPACE;
    case Key::insert: return SDL_SCANCODE_INSERT;
    case Key::delete_: return SDL_SCANCODE_DELETE;
    case Key::right: return SDL_SCANCODE_RIGHT;
    case Key::left: return SDL_SCANCODE_LEFT;
    case Key::down: return SDL_SCANCODE_DOWN;
    case Key::up: return SDL_SCANCODE_UP;
    case Key::page_up: return SDL_SCANCODE_PAGEUP;
    case Key::page_down: return SDL_SCANCODE_PAGEDOWN;
    case Key::home: return SDL_SCANCODE_HOME;
    case Key::end: return SDL_SCANCODE_END;
    case Key::keypad_enter: return SDL_SCANCODE_KP_ENTER;
    case Key::left_shift: return SDL_SCANCODE_LSHIFT;
    case Key::left_control: return SDL_SCANCODE_LCTRL;
    case Key::left_alt: return SDL_SCANCODE_LALT;
    case Key::left_super: return SDL_SCANCODE_LGUI;
    case Key::right_shift: return SDL_SCANCODE_RSHIFT;
    case Key::right_control: return SDL_SCANCODE_RCTRL;
    case Key::right_alt: return SDL_SCANCODE_RALT;
    case Key::right_super: return SDL_SCANCODE_RGUI;
    default: return SDL_SCANCODE_UNKNOWN;  // the ranges above
  }
}
#endif

class SdlSurface final : public Surface {
 public:
  SdlSurface(SDL_Window* window, SDL_GLContext gl, Window::Impl& owner)
      : window_(window), gl_(gl), id_(SDL_GetWindowID(window)), owner_(owner) {
    sdl_windows::add(id_, owner);
  }
  ~SdlSurface() override {
    sdl_windows::remove(id_);
    SDL_GL_DeleteContext(gl_);  // no longer current, if it was
    SDL_DestroyWindow(window_);
  }
  SdlSurface(const SdlSurface&) = delete;
  SdlSurface& operator=(const SdlSurface&) = delete;

  WindowBackend backend() const noexcept override { return WindowBackend::sdl2; }
  void* native() const noexcept override { return window_; }
  void make_current() override {
    if (SDL_GL_GetCurrentContext() != gl_) SDL_GL_MakeCurrent(window_, gl_);  // a TLS read when it is
  }
  void init_imgui() override { ImGui_ImplSDL2_InitForOpenGL(window_, gl_); }
  void shutdown_imgui() override { ImGui_ImplSDL2_Shutdown(); }
  void new_frame(InjectedPointer& pointer) override {
    ImGuiIO& io = ImGui::GetIO();
    // SDL has one cursor for all its windows: only the window under the pointer sets it.
    const bool under_pointer = SDL_GetMouseFocus() == window_;
    const ImGuiConfigFlags flags = io.ConfigFlags;
    if (!under_pointer) io.ConfigFlags |= ImGuiConfigFlags_NoMouseCursorChange;
    const int queued = input_queue_size();
    ImGui_ImplSDL2_NewFrame();
    io.ConfigFlags = flags;
#if !CADENCE_IMGUI_INPUT_EVENTS
    // 1.86's backend reads SDL's process-wide buttons, and the pointer whenever the window has
    // keyboard focus: a press in one window would reach another's ImGui, as a click. What this
    // window's buttons are comes from its own presses (dispatch), until SDL no longer holds the
    // button (SDL may report the release for the window that has the mouse captured); the
    // pointer counts while it is over this window, while a press of this window holds it (a
    // drag out of the window: measured on the screen, SDL's focus follows its capture), and in
    // the frame that sees this window's press or release.
    bool holding = false;
    if (holds_a_button()) {
      int x = 0, y = 0, left = 0, top = 0;
      const Uint32 global = SDL_GetGlobalMouseState(&x, &y);
      SDL_GetWindowPosition(window_, &left, &top);
      for (std::size_t b = 0; b < kButtons; ++b) {
        if (held_[b] && (global & SDL_BUTTON(kSdlButton[b])) == 0) release(b);
      }
      last_pointer_ = ImVec2(static_cast<float>(x - left), static_cast<float>(y - top));
      holding = holds_a_button();
    }
    bool changed = false;
    for (std::size_t b = 0; b < kButtons; ++b) {
      io.MouseDown[b] = held_[b] || clicked_[b];
      changed = changed || clicked_[b] || released_[b];
      clicked_[b] = released_[b] = false;
    }
    if (holding || (changed && !under_pointer)) {
      io.MousePos = last_pointer_;
    } else if (!under_pointer) {
      io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    }
#endif
    // The backend captured or let go of SDL's one mouse by this window's buttons alone.
    SDL_CaptureMouse(any_window_holds() ? SDL_TRUE : SDL_FALSE);
    feed_pointer(io, pointer, queued, [this] { process(window_event(SDL_WINDOWEVENT_ENTER)); });
  }
  /// A button event SDL reported (dispatch): a press for the window it names; a release, for
  /// every window (SDL names the one that has the mouse captured, not always the one pressed).
  /// True when it let go of a button this window held.
  bool button(const SDL_MouseButtonEvent& e) {
    for (std::size_t b = 0; b < kButtons; ++b) {
      if (e.button != kSdlButton[b]) continue;
      if (e.type == SDL_MOUSEBUTTONUP) return release(b);
      held_[b] = clicked_[b] = true;  // a click shorter than a frame still counts
      last_pointer_ = ImVec2(static_cast<float>(e.x), static_cast<float>(e.y));
    }
    return false;
  }
  /// Lets go of button `b` if this window held it (true then).
  bool release(std::size_t b) {
    if (!held_[b]) return false;
    held_[b] = false;
    released_[b] = true;
#if CADENCE_IMGUI_INPUT_EVENTS
    // Queued input: ImGui hears of the release whichever window SDL named.
    ImGuiContext* previous = ImGui::GetCurrentContext();
    ImGui::SetCurrentContext(owner_.imgui);
    ImGui::GetIO().AddMouseButtonEvent(static_cast<int>(b), false);
    ImGui::SetCurrentContext(previous);
#endif
    return true;
  }
  bool holds_a_button() const noexcept { return held_[0] || held_[1] || held_[2]; }
  void drawable_size(int& width, int& height) override { SDL_GL_GetDrawableSize(window_, &width, &height); }
  void swap() override { SDL_GL_SwapWindow(window_); }
  void show(bool visible) override {
    if (visible) {
      SDL_ShowWindow(window_);
    } else {
      SDL_HideWindow(window_);
    }
  }
  bool close_flag() const override { return false; }
  std::optional<Duration> refresh_period() const override { return sdl::refresh_period(window_); }
  std::function<void()> waker() const override {
    return [type = sdl::wake_type()] { sdl::push_wake(type); };
  }
  // Fractions kept, as GLFW's backend keeps them (1.86's SDL2 backend counts a wheel event as
  // one notch whatever its size).
  void scroll(double dx, double dy) override { add_wheel(ImGui::GetIO(), dx, dy); }
  // What the SDL2 backend does with the UTF-8 text of an SDL_TEXTINPUT, without the encoding.
  void character(unsigned int codepoint) override { ImGui::GetIO().AddInputCharacter(codepoint); }
  Status key(Key key, KeyAction action, KeyMods mods) override {
    return key_event(key, action, mods, [&](Key k, bool down, KeyMods) {
#if !CADENCE_IMGUI_INPUT_EVENTS
      SDL_Event e{};
      e.type = down ? SDL_KEYDOWN : SDL_KEYUP;
      e.key.windowID = id_;
      e.key.state = down ? SDL_PRESSED : SDL_RELEASED;
      e.key.keysym.scancode = to_scancode(k);
      e.key.keysym.sym = SDL_GetKeyFromScancode(e.key.keysym.scancode);
      process(e);
#else
      (void)k;
      (void)down;
#endif
    });
  }
  void focus(bool focused) override {
    process(window_event(focused ? SDL_WINDOWEVENT_FOCUS_GAINED : SDL_WINDOWEVENT_FOCUS_LOST));
  }

 private:
  SDL_Event window_event(SDL_WindowEventID what) const {
    SDL_Event e{};
    e.type = SDL_WINDOWEVENT;
    e.window.windowID = id_;
    e.window.event = static_cast<Uint8>(what);
    return e;
  }
  static void process(const SDL_Event& e) { ImGui_ImplSDL2_ProcessEvent(&e); }

  static bool any_window_holds();

  static constexpr std::size_t kButtons = 3;
  static constexpr Uint8 kSdlButton[kButtons] = {SDL_BUTTON_LEFT, SDL_BUTTON_RIGHT, SDL_BUTTON_MIDDLE};  // ImGui's order
  SDL_Window* window_;
  SDL_GLContext gl_;
  Uint32 id_;
  [[maybe_unused]] Window::Impl& owner_;  // its ImGui context, for a release SDL reports for another window (1.87+)
  bool held_[kButtons] = {};      // this window's buttons, from its own presses
  bool clicked_[kButtons] = {};   // went down since the last frame
  bool released_[kButtons] = {};  // went up since the last frame
  ImVec2 last_pointer_;           // where this window last saw its pressed pointer
};

bool SdlSurface::any_window_holds() {
  for (const sdl_windows::Open& o : sdl_windows::open()) {
    if (static_cast<const SdlSurface*>(o.window->surface.get())->holds_a_button()) return true;
  }
  return false;
}

Result<std::unique_ptr<Surface>> open(Window::Impl& owner) {
  const WindowOptions& o = owner.options;
  const auto failed = [&o](const char* what) { return sdl_windows::window_failed(o, what, SDL_GetError()); };
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_FLAGS, 0);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, 0);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 0);
  SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
  const Uint32 flags = SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE | (o.visible ? SDL_WINDOW_SHOWN : SDL_WINDOW_HIDDEN);
  SDL_Window* window = SDL_CreateWindow(o.title.c_str(), SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED, o.width,
                                        o.height, flags);
  if (window == nullptr) return failed("SDL_CreateWindow failed");
  SDL_GLContext gl = SDL_GL_CreateContext(window);  // current on success
  if (gl == nullptr) {
    Error e = failed("SDL_GL_CreateContext failed");
    SDL_DestroyWindow(window);
    return e;
  }
  const char* driver = SDL_GetCurrentVideoDriver();
  SDL_GL_SetSwapInterval(swap_interval(o, driver != nullptr && std::string_view(driver) == "wayland"));
  return std::unique_ptr<Surface>(new SdlSurface(window, gl, owner));
}

// Hands one event to the window it is for, as ImGui's SDL2 backend and the pacer need it.
void dispatch(const SDL_Event& e) {
  if (sdl::is_wake(e) || sdl::is_bookkeeping(e.type)) return;  // a worker's post: the runtime has it
  if (e.type == SDL_QUIT) {  // the app or the system asks the program to end
    sdl_windows::ask_every_window_to_close();
    return;
  }
  if (e.type == SDL_MOUSEBUTTONUP) {  // SDL may name the window that has the mouse captured
    for (const sdl_windows::Open& o : sdl_windows::open()) {
      const bool let_go = static_cast<SdlSurface*>(o.window->surface.get())->button(e.button);
      if (let_go && *o.window->life != nullptr) o.window->on_input();
    }
  }
  if (sdl::is_joystick_or_controller(e.type)) {  // no window named
    if (!gamepad_news().is_news(e)) return;     // nothing ImGui reads
    // ImGui's backend of each window reads the game controllers in its NewFrame, and hears of
    // one connected or gone by event: every window gets it, and draws.
    for (const sdl_windows::Open& o : sdl_windows::open()) {
      if (!o.window->pacer || *o.window->life == nullptr) continue;
      o.window->in_context([&] { (void)ImGui_ImplSDL2_ProcessEvent(&e); });
      o.window->on_input();
    }
    return;
  }
  Window::Impl* w = sdl_windows::taking_events(sdl::window_of(e));
  if (w == nullptr) return;
  if (e.type == SDL_WINDOWEVENT) {
    switch (e.window.event) {
      case SDL_WINDOWEVENT_CLOSE: w->ask_close(); return;
      case SDL_WINDOWEVENT_MINIMIZED: w->set_minimized(true); return;
      case SDL_WINDOWEVENT_RESTORED:
      case SDL_WINDOWEVENT_MAXIMIZED: w->set_minimized(false); break;
      case SDL_WINDOWEVENT_HIDDEN: return;  // set_visible(false) did it: the window knows
      default: break;
    }
  }
  if (e.type == SDL_MOUSEBUTTONDOWN) static_cast<SdlSurface*>(w->surface.get())->button(e.button);
  w->in_context([&] { ImGui_ImplSDL2_ProcessEvent(&e); });
  if (e.type == SDL_MOUSEWHEEL) {
    // The momentum glides on in the direction ImGui's backend scrolled.
    const double dx = static_cast<double>(e.wheel.preciseX) * (CADENCE_IMGUI_SDL2_FLIPS_WHEEL_X ? -1.0 : 1.0);
    w->scrolled(dx, static_cast<double>(e.wheel.preciseY));
  } else {
    w->on_input();
  }
}

// SDL's wait returns only with an SDL event: `soonest` is not needed.
void wait(std::optional<Duration> timeout, const std::function<std::optional<Duration>()>& /*soonest*/) {
  (void)SDL_WaitEventTimeout(nullptr, wait_ms(timeout));
  // Each event goes to its window; one that a window's code queues meanwhile waits for the
  // next iteration, as GLFW's callbacks do.
  SDL_PumpEvents();
  const int queued = SDL_PeepEvents(nullptr, 0, SDL_PEEKEVENT, SDL_FIRSTEVENT, SDL_LASTEVENT);
  if (queued <= 0) return;  // a timeout: nothing allocated
  std::vector<SDL_Event> events(static_cast<std::size_t>(queued));
  const int taken = SDL_PeepEvents(events.data(), queued, SDL_GETEVENT, SDL_FIRSTEVENT, SDL_LASTEVENT);
  events.resize(static_cast<std::size_t>(std::max(0, taken)));
  for (const SDL_Event& e : events) {
    dispatch(e);
    // Who takes these off the queue frees their text.
    if (e.type == SDL_DROPFILE || e.type == SDL_DROPTEXT) SDL_free(e.drop.file);
#if SDL_VERSION_ATLEAST(2, 0, 22)
    if (e.type == SDL_TEXTEDITING_EXT) SDL_free(e.editExt.text);
#endif
  }
}

}  // namespace

extern const WindowSystem kSdl2System;
const WindowSystem kSdl2System{
    .acquire = &acquire,
    .release = &release,
    .open = &open,
    .wait = &wait,
    .current_gl = [] { return CurrentGl{SDL_GL_GetCurrentWindow(), SDL_GL_GetCurrentContext()}; },
    .make_current_gl =
        [](const CurrentGl& gl) {
          if (SDL_GL_GetCurrentContext() != gl.context) SDL_GL_MakeCurrent(static_cast<SDL_Window*>(gl.window), gl.context);
        },
};

}  // namespace cadence::detail
