// Surface: the window system's half of a Window (GLFW's or SDL2's): the native window, its
// OpenGL context, ImGui's platform backend, and how input reaches ImGui. Window::Impl holds one
// and knows nothing of the window system. Private to cadence::window.
#pragma once

#include <imgui.h>

#include <array>
#include <functional>
#include <memory>
#include <optional>

#include "cadence/key.hpp"
#include "cadence/result.hpp"
#include "cadence/time.hpp"
#include "cadence/window.hpp"

namespace cadence::detail {

/// The pointer that tests inject: it sticks until changed, as a real pointer would.
struct InjectedPointer {
  std::optional<ImVec2> position;
  std::array<std::optional<bool>, 5> buttons;
  bool entered = false;  // the backend was told the injected pointer is over the window
};

/// The swap interval a window's OpenGL context gets. On Wayland a vsync'd swap waits for the
/// compositor's frame callback: up to a frame while the window is seen, for ever while it is not
/// (a window on another workspace), and each callback wakes the loop's wait for nothing. The loop
/// paces its frames itself (the frame interval), and the compositor shows the last frame at its
/// own refresh without tearing, so there the swap never waits.
inline int swap_interval(const WindowOptions& o, bool wayland) { return o.vsync && !wayland ? 1 : 0; }

class Surface {
 public:
  virtual ~Surface() = default;

  virtual WindowBackend backend() const noexcept = 0;
  /// The GLFWwindow* or SDL_Window*.
  virtual void* native() const noexcept = 0;
  /// Makes its OpenGL context current; a thread-local read when it is already.
  virtual void make_current() = 0;
  /// ImGui's platform backend, initialised for the current ImGui context (the window's).
  virtual void init_imgui() = 0;
  virtual void shutdown_imgui() = 0;
  /// The platform backend's NewFrame, then the injected pointer on top of the real one.
  virtual void new_frame(InjectedPointer& pointer) = 0;
  virtual void drawable_size(int& width, int& height) = 0;
  virtual void swap() = 0;
  virtual void show(bool visible) = 0;
  /// The window system's own close flag (GLFW's glfwSetWindowShouldClose; SDL has none).
  virtual bool close_flag() const = 0;
  /// The primary display's refresh period, when the window system can tell.
  virtual std::optional<Duration> refresh_period() const = 0;
  /// A thread-safe function that wakes the loop's wait.
  virtual std::function<void()> waker() const = 0;

  // Injected input, into the current ImGui context (the window's) as a real event would go.
  virtual void scroll(double dx, double dy) = 0;
  virtual void character(unsigned int codepoint) = 0;
  /// Errors: as detail::key_event (imgui_input.hpp).
  virtual Status key(Key key, KeyAction action, KeyMods mods) = 0;
  virtual void focus(bool focused) = 0;
};

/// The OpenGL context current on this thread, as a window system knows it.
struct CurrentGl {
  void* window = nullptr;
  void* context = nullptr;
};

/// What a window system offers a Window: each backend folder defines one (glfw_surface.cpp,
/// sdl2_surface.cpp), and window/src/backends.cpp lists them.
struct WindowSystem {
  /// Starts the window system for one more window (the first starts it). Errors: resource,
  /// with the window system's reason (no display).
  Status (*acquire)();
  /// Ends it when the last window lets go.
  void (*release)();
  /// Opens the native window with an OpenGL 3.0 context for `owner` (its events go there),
  /// current on return. Errors: resource, with the window system's reason.
  Result<std::unique_ptr<Surface>> (*open)(Window::Impl& owner);
  /// Sleeps until an event arrives or `timeout` passes (nullopt: no limit), then hands every
  /// queued event to its window. `soonest` gives the windows' soonest next wake at the time of
  /// the call (nullopt: none): a window system whose wait can return with nothing for any window
  /// (GLFW on Wayland) sleeps again only while nothing is due sooner than what is left.
  void (*wait)(std::optional<Duration> timeout, const std::function<std::optional<Duration>()>& soonest);
  /// The OpenGL context current on this thread, as this window system knows it, and back.
  CurrentGl (*current_gl)();
  void (*make_current_gl)(const CurrentGl& gl);
};

/// The window system of `backend`, or nullptr when this build has not got it.
const WindowSystem* window_system(WindowBackend backend) noexcept;

/// Takes `backend` for one more window: every window open at one time uses one backend.
/// Errors: invalid_argument (another backend holds windows, or this build has not `backend`),
/// or the window system's own (acquire). release_backend() undoes a success.
Status acquire_backend(WindowBackend backend);
void release_backend(WindowBackend backend);

}  // namespace cadence::detail
