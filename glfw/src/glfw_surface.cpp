// The GLFW window system: a GLFW window with its OpenGL context, ImGui's GLFW backend, and
// GLFW's callbacks routed to the right window's ImGui context.
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <imgui.h>

#include <chrono>
#include <cstdint>

#include "cadence/event_loop.hpp"
#include "cadence/glfw_pacing.hpp"  // glfw_timeout_seconds
#include "glfw_library.hpp"
#include "imgui_input.hpp"
#include "cadence/imgui_features.hpp"
#include "surface.hpp"
#include "window_impl.hpp"

namespace cadence::detail {
namespace {

// Callbacks of cadence's windows run so far (on the UI thread, inside GLFW's wait): each
// begins with impl_of.
std::uint64_t heard = 0;

// The window a callback is for; counted in `heard`.
Window::Impl& impl_of(GLFWwindow* w) {
  ++heard;
  return *static_cast<Window::Impl*>(glfwGetWindowUserPointer(w));
}

#if !CADENCE_IMGUI_INPUT_EVENTS
// GLFW's code of a key that key_event() accepted, for 1.86's backend.
int glfw_key(Key key) {
  const int k = static_cast<int>(key);
  if (key >= Key::digit_0 && key <= Key::digit_9) return GLFW_KEY_0 + (k - static_cast<int>(Key::digit_0));
  if (key >= Key::a && key <= Key::z) return GLFW_KEY_A + (k - static_cast<int>(Key::a));
  if (key >= Key::f1 && key <= Key::f12) return GLFW_KEY_F1 + (k - static_cast<int>(Key::f1));
  switch (key) {
    case Key::space: return GLFW_KEY_SPACE;
    case Key::escape: return GLFW_KEY_ESCAPE;
    case Key::enter: return GLFW_KEY_ENTER;
    case Key::tab: return GLFW_KEY_TAB;
    case Key::backspace: return GLFW_KEY_BACKSPACE;
    case Key::insert: return GLFW_KEY_INSERT;
    case Key::delete_: return GLFW_KEY_DELETE;
    case Key::right: return GLFW_KEY_RIGHT;
    case Key::left: return GLFW_KEY_LEFT;
    case Key::down: return GLFW_KEY_DOWN;
    case Key::up: return GLFW_KEY_UP;
    case Key::page_up: return GLFW_KEY_PAGE_UP;
    case Key::page_down: return GLFW_KEY_PAGE_DOWN;
    case Key::home: return GLFW_KEY_HOME;
    case Key::end: return GLFW_KEY_END;
    case Key::keypad_enter: return GLFW_KEY_KP_ENTER;
    case Key::left_shift: return GLFW_KEY_LEFT_SHIFT;
    case Key::left_control: return GLFW_KEY_LEFT_CONTROL;
    case Key::left_alt: return GLFW_KEY_LEFT_ALT;
    case Key::left_super: return GLFW_KEY_LEFT_SUPER;
    case Key::right_shift: return GLFW_KEY_RIGHT_SHIFT;
    case Key::right_control: return GLFW_KEY_RIGHT_CONTROL;
    case Key::right_alt: return GLFW_KEY_RIGHT_ALT;
    case Key::right_super: return GLFW_KEY_RIGHT_SUPER;
    default: return GLFW_KEY_UNKNOWN;  // the ranges above
  }
}

int glfw_mods(KeyMods m) {
  return (m.shift ? GLFW_MOD_SHIFT : 0) | (m.control ? GLFW_MOD_CONTROL : 0) | (m.alt ? GLFW_MOD_ALT : 0) |
         (m.super ? GLFW_MOD_SUPER : 0);
}
#endif

// A real pointer movement: to ImGui where it takes events (1.86 reads the pointer itself).
void pointer_moved(GLFWwindow* window, double x, double y) {
#if CADENCE_IMGUI_INPUT_EVENTS
  ImGui_ImplGlfw_CursorPosCallback(window, x, y);
#else
  (void)window;
  (void)x;
  (void)y;
#endif
}

bool on_wayland() {
#if defined(GLFW_PLATFORM_WAYLAND)
  return glfwGetPlatform() == GLFW_PLATFORM_WAYLAND;
#else
  return false;  // GLFW 3.3 here: X11
#endif
}

void install_callbacks(GLFWwindow* glfw, Window::Impl& owner) {
  glfwSetWindowUserPointer(glfw, &owner);
  glfwSetCursorPosCallback(glfw, [](GLFWwindow* gw, double x, double y) {
    Window::Impl& w = impl_of(gw);
    w.in_context([&] { pointer_moved(gw, x, y); });
    w.on_input();
  });
  glfwSetMouseButtonCallback(glfw, [](GLFWwindow* gw, int button, int action, int mods) {
    Window::Impl& w = impl_of(gw);
    w.in_context([&] { ImGui_ImplGlfw_MouseButtonCallback(gw, button, action, mods); });
    w.on_input();
  });
  glfwSetScrollCallback(glfw, [](GLFWwindow* gw, double dx, double dy) {
    Window::Impl& w = impl_of(gw);
    w.in_context([&] { ImGui_ImplGlfw_ScrollCallback(gw, dx, dy); });
    w.scrolled(dx, dy);
  });
  glfwSetKeyCallback(glfw, [](GLFWwindow* gw, int key, int scancode, int action, int mods) {
    Window::Impl& w = impl_of(gw);
    w.in_context([&] { ImGui_ImplGlfw_KeyCallback(gw, key, scancode, action, mods); });
    w.on_input();
  });
  glfwSetCharCallback(glfw, [](GLFWwindow* gw, unsigned int c) {
    Window::Impl& w = impl_of(gw);
    w.in_context([&] { ImGui_ImplGlfw_CharCallback(gw, c); });
    w.on_input();
  });
  glfwSetWindowFocusCallback(glfw, [](GLFWwindow* gw, int focused) {
    Window::Impl& w = impl_of(gw);
    w.in_context([&] { ImGui_ImplGlfw_WindowFocusCallback(gw, focused); });
    w.on_input();
  });
  glfwSetCursorEnterCallback(glfw, [](GLFWwindow* gw, int entered) {
    Window::Impl& w = impl_of(gw);
    w.in_context([&] { ImGui_ImplGlfw_CursorEnterCallback(gw, entered); });
    w.on_input();
  });
  glfwSetFramebufferSizeCallback(glfw, [](GLFWwindow* gw, int, int) { impl_of(gw).on_input(); });
  glfwSetWindowRefreshCallback(glfw, [](GLFWwindow* gw) { impl_of(gw).on_input(); });
  glfwSetWindowIconifyCallback(glfw, [](GLFWwindow* gw, int iconified) {
    impl_of(gw).set_minimized(iconified == GLFW_TRUE);
  });
  // GLFW has set its close flag already: the window closes only if on_close agrees.
  glfwSetWindowCloseCallback(glfw, [](GLFWwindow* gw) {
    glfwSetWindowShouldClose(gw, GLFW_FALSE);
    impl_of(gw).ask_close();
  });
}

class GlfwSurface final : public Surface {
 public:
  explicit GlfwSurface(GLFWwindow* window) : window_(window) {}
  ~GlfwSurface() override { glfwDestroyWindow(window_); }
  GlfwSurface(const GlfwSurface&) = delete;
  GlfwSurface& operator=(const GlfwSurface&) = delete;

  WindowBackend backend() const noexcept override { return WindowBackend::glfw; }
  void* native() const noexcept override { return window_; }
  void make_current() override {
    if (glfwGetCurrentContext() != window_) glfwMakeContextCurrent(window_);  // a TLS read when it is
  }
  void init_imgui() override { ImGui_ImplGlfw_InitForOpenGL(window_, /*install_callbacks=*/false); }  // ours route by window
  void shutdown_imgui() override { ImGui_ImplGlfw_Shutdown(); }
  void new_frame(InjectedPointer& pointer) override {
    const int queued = input_queue_size();
    ImGui_ImplGlfw_NewFrame();
    feed_pointer(ImGui::GetIO(), pointer, queued, [this] { ImGui_ImplGlfw_CursorEnterCallback(window_, GLFW_TRUE); });
  }
  void drawable_size(int& width, int& height) override { glfwGetFramebufferSize(window_, &width, &height); }
  void swap() override { glfwSwapBuffers(window_); }
  void show(bool visible) override {
    if (visible) {
      glfwShowWindow(window_);
    } else {
      glfwHideWindow(window_);
    }
  }
  bool close_flag() const override { return glfwWindowShouldClose(window_) == GLFW_TRUE; }
  std::optional<Duration> refresh_period() const override { return monitor_refresh_period(); }
  std::function<void()> waker() const override {
    return [] { glfwPostEmptyEvent(); };
  }
  void scroll(double dx, double dy) override { ImGui_ImplGlfw_ScrollCallback(window_, dx, dy); }
  void character(unsigned int codepoint) override { ImGui_ImplGlfw_CharCallback(window_, codepoint); }
  Status key(Key key, KeyAction action, KeyMods mods) override {
    return key_event(key, action, mods, [this](Key k, bool down, KeyMods m) {
#if !CADENCE_IMGUI_INPUT_EVENTS
      ImGui_ImplGlfw_KeyCallback(window_, glfw_key(k), 0, down ? GLFW_PRESS : GLFW_RELEASE, glfw_mods(m));
#else
      (void)k, (void)down, (void)m;
#endif
    });
  }
  void focus(bool focused) override { ImGui_ImplGlfw_WindowFocusCallback(window_, focused ? GLFW_TRUE : GLFW_FALSE); }

 private:
  GLFWwindow* window_;
};

Result<std::unique_ptr<Surface>> open(Window::Impl& owner) {
  const WindowOptions& o = owner.options;
  glfwWindowHint(GLFW_VISIBLE, o.visible ? GLFW_TRUE : GLFW_FALSE);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  GLFWwindow* window = glfwCreateWindow(o.width, o.height, o.title.c_str(), nullptr, nullptr);
  if (window == nullptr) {
    const std::string why = GlfwLibrary::take_last_error();
    return Error{Errc::resource, "could not create a " + std::to_string(o.width) + "x" + std::to_string(o.height) +
                                     " GLFW window with an OpenGL 3.0 context: " +
                                     (why.empty() ? "GLFW gave no reason" : why)};
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(swap_interval(o, on_wayland()));
  install_callbacks(window, owner);
  return std::unique_ptr<Surface>(new GlfwSurface(window));
}

void wait(std::optional<Duration> timeout, const std::function<std::optional<Duration>()>& soonest) {
  const auto start = std::chrono::steady_clock::now();
  const auto left = [&] { return *timeout - std::chrono::duration_cast<Duration>(std::chrono::steady_clock::now() - start); };
  const bool wayland = on_wayland();
  for (;;) {
    const std::uint64_t before = heard;
    if (timeout) {
      glfwWaitEventsTimeout(glfw_timeout_seconds(std::chrono::duration<double>(left()).count()));
    } else {
      glfwWaitEvents();
    }
    // On Wayland GLFW's wait also returns after libwayland's own bookkeeping (the delete_id
    // that follows each frame's sync callback in Mesa's EGL): nothing for any window, so no
    // wake-up of the loop's. Unless a window's callback ran, a worker's post or app code has
    // made something due, or the time is up, it sleeps again for what is left.
    if (!wayland || heard != before || (timeout && left() <= Duration::zero())) return;
    // (The wake it sleeps towards, measured again, is the same one a little later: earlier only
    // by more than a millisecond is news.)
    if (const std::optional<Duration> due = soonest(); due && (!timeout || *due < left() - std::chrono::milliseconds(1))) {
      return;
    }
  }
}

}  // namespace

extern const WindowSystem kGlfwSystem;
const WindowSystem kGlfwSystem{
    .acquire = &GlfwLibrary::acquire,
    .release = &GlfwLibrary::release,
    .open = &open,
    .wait = &wait,
    .current_gl = [] { return CurrentGl{glfwGetCurrentContext(), nullptr}; },
    .make_current_gl =
        [](const CurrentGl& gl) {
          auto* window = static_cast<GLFWwindow*>(gl.window);
          if (glfwGetCurrentContext() != window) glfwMakeContextCurrent(window);
        },
};

}  // namespace cadence::detail
