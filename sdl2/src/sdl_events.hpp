// What cadence's SDL2 code shares about SDL's event queue: the event type that wakes a loop,
// how its events are told from an app's, and which window an event is for. Header-only, so
// that cadence::sdl and cadence::window use it without exporting it. Private to cadence.
#pragma once

#include <SDL.h>

#include <chrono>
#include <cstdint>
#include <optional>

#include "stick_dead_zone.hpp"

namespace cadence::detail::sdl {

/// Events that are not news for anyone: SDL's own end-of-poll marker (SDL_PollEvent queues one
/// each time it pumps, since SDL 2.0.22).
inline bool is_bookkeeping(Uint32 type) {
#if SDL_VERSION_ATLEAST(2, 0, 22)
  return type == SDL_POLLSENTINEL;
#else
  (void)type;
  return false;
#endif
}

/// The event type cadence wakes loops with, registered once per process (and library): SDL
/// never takes a type back and has 32767, so one per pacer would run out in an app that makes
/// them often. Never SDL_USEREVENT itself, which the first registration returns and apps push
/// without registering it. 0 when SDL has none left.
inline Uint32 wake_type() {
  static const Uint32 type = [] {
    Uint32 t = SDL_RegisterEvents(1);
    if (t == SDL_USEREVENT) t = SDL_RegisterEvents(1);
    return t == static_cast<Uint32>(-1) ? 0 : t;
  }();
  return type;
}

/// What cadence's wake-up events carry, so that only they are taken out of the queue, whatever
/// an app pushes with their type.
inline constexpr Sint32 kWakeCode = 0x63646e63;

inline bool is_wake(const SDL_Event& e) { return e.type == wake_type() && e.type != 0 && e.user.code == kWakeCode; }

/// Pushes a wake-up event of `type` (wake_type()). Thread-safe.
inline void push_wake(Uint32 type) {
  SDL_Event wake{};
  wake.type = type;
  wake.user.code = kWakeCode;
  SDL_PushEvent(&wake);
}

/// The window an event is for, or 0 for one that names none (quit, a controller, the clipboard).
inline Uint32 window_of(const SDL_Event& e) {
  switch (e.type) {
    case SDL_WINDOWEVENT: return e.window.windowID;
    case SDL_KEYDOWN:
    case SDL_KEYUP: return e.key.windowID;
    case SDL_TEXTEDITING: return e.edit.windowID;
    case SDL_TEXTINPUT: return e.text.windowID;
    case SDL_MOUSEMOTION: return e.motion.windowID;
    case SDL_MOUSEBUTTONDOWN:
    case SDL_MOUSEBUTTONUP: return e.button.windowID;
    case SDL_MOUSEWHEEL: return e.wheel.windowID;
    case SDL_DROPFILE:
    case SDL_DROPTEXT:
    case SDL_DROPBEGIN:
    case SDL_DROPCOMPLETE: return e.drop.windowID;
    default: return 0;
  }
}

/// Joystick and game controller events: they name no window.
inline bool is_joystick_or_controller(Uint32 type) { return type >= SDL_JOYAXISMOTION && type < SDL_FINGERDOWN; }

/// Tells game controller events that are news for Dear ImGui's SDL2 backend from those that are
/// not: it reads game controllers alone (never a raw joystick's events, which SDL sends beside a
/// controller's too), and a stick's motion inside its dead zone shows nothing
/// (stick_dead_zone.hpp).
class GamepadNews {
 public:
  /// False for a raw joystick event, a controller's touchpad and sensor events, a device
  /// sensor's update (ImGui reads none of them), and a stick's motion that starts and ends
  /// inside its dead zone; true for every other event.
  bool is_news(const SDL_Event& e) {
    if (e.type >= SDL_JOYAXISMOTION && e.type < SDL_CONTROLLERAXISMOTION) return false;
#if SDL_VERSION_ATLEAST(2, 0, 14)
    if (e.type >= SDL_CONTROLLERTOUCHPADDOWN && e.type < SDL_FINGERDOWN) return false;
    if (e.type == SDL_SENSORUPDATE) return false;
#endif
    if (e.type == SDL_CONTROLLERDEVICEREMOVED) {
      sticks_.forget(static_cast<std::uint32_t>(e.cdevice.which));
      return true;
    }
    if (e.type != SDL_CONTROLLERAXISMOTION) return true;
    const Uint8 axis = e.caxis.axis;
    if (axis != SDL_CONTROLLER_AXIS_LEFTX && axis != SDL_CONTROLLER_AXIS_LEFTY && axis != SDL_CONTROLLER_AXIS_RIGHTX &&
        axis != SDL_CONTROLLER_AXIS_RIGHTY) {
      return true;  // a trigger
    }
    return sticks_.shows(static_cast<std::uint32_t>(e.caxis.which), axis, e.caxis.value);
  }

 private:
  StickDeadZone sticks_;
};

/// The refresh period of the display `window` is on (its desktop mode), or nullopt when SDL
/// cannot tell.
inline std::optional<std::chrono::nanoseconds> refresh_period(SDL_Window* window) {
  SDL_DisplayMode mode{};
  const int display = SDL_GetWindowDisplayIndex(window);
  if (display < 0 || SDL_GetDesktopDisplayMode(display, &mode) != 0 || mode.refresh_rate <= 0) return std::nullopt;
  return std::chrono::nanoseconds(1'000'000'000 / mode.refresh_rate);
}

}  // namespace cadence::detail::sdl
