// What the SDL2 and SDL3 window systems share, SDL's own API apart (their headers cannot meet in
// one file): the windows open on SDL by SDL's window id, what a quit event asks of them, and
// the errors a window system that cannot start gives. Private to cadence::window.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "cadence/result.hpp"
#include "window_impl.hpp"

namespace cadence::detail::sdl_windows {

/// The windows open on SDL, by SDL window id (UI thread only).
struct Open {
  std::uint32_t id;
  Window::Impl* window;
};
inline std::vector<Open>& open() {
  static std::vector<Open> all;
  return all;
}

inline void add(std::uint32_t id, Window::Impl& window) { open().push_back(Open{id, &window}); }
inline void remove(std::uint32_t id) {
  std::erase_if(open(), [id](const Open& o) { return o.id == id; });
}

/// The window with SDL id `id` that can take events now, or nullptr: another library's window,
/// an event for none, or a window being opened or destroyed (app code its destruction runs may
/// pump events).
inline Window::Impl* taking_events(std::uint32_t id) {
  for (const Open& o : open()) {
    if (o.id == id) return o.window->pacer && *o.window->life != nullptr ? o.window : nullptr;
  }
  return nullptr;
}

/// The app or the system asks the program to end (SDL's quit event): each window is asked, by
/// id, those open now (an on_close may open windows, or close others).
inline void ask_every_window_to_close() {
  std::vector<std::uint32_t> ids;
  for (const Open& o : open()) ids.push_back(o.id);
  for (const std::uint32_t id : ids) {
    if (Window::Impl* w = taking_events(id)) w->ask_close();
  }
}

/// SDL could not start its video subsystem, for `why`.
inline Error no_display(const std::string& why) {
  return Error{Errc::resource, "SDL could not start its video subsystem: " + why +
                                   ". A window needs a display: run under X11 or Wayland, or headless with "
                                   "xvfb-run -a <program>"};
}

/// SDL fell back to driver `name`, which shows nothing: whether that is so, unless the app
/// named the driver or started SDL's video itself.
inline bool shows_nothing(const std::string& name) { return name == "offscreen" || name == "dummy" || name == "evdev"; }

/// SDL started on `driver`, which shows nothing (shows_nothing).
inline Error fell_back_to(const std::string& driver) {
  return no_display("no display was found (SDL fell back to its \"" + driver + "\" driver, which shows nothing)");
}

/// SDL_RegisterEvents had no type left for cadence's wake-ups.
inline Error no_event_type() {
  return Error{Errc::resource, "SDL has no user event type left (SDL_RegisterEvents) to wake the loop with: the app "
                               "registered all of them"};
}

/// A window SDL could not make: `what` failed, for SDL's reason `sdl_error`.
inline Error window_failed(const WindowOptions& o, const char* what, const char* sdl_error) {
  return Error{Errc::resource, "could not create a " + std::to_string(o.width) + "x" + std::to_string(o.height) +
                                   " SDL window with an OpenGL 3.0 context: " + what + ": " + sdl_error};
}

}  // namespace cadence::detail::sdl_windows
