// What cadence's SDL3 code shares about SDL's event queue: the event type that wakes a loop,
// how its events are told from an app's, which window an event is for, and the display's
// refresh. Header-only, so that cadence::sdl3 and cadence::window use it without exporting it.
// Private to cadence.
#pragma once

#include <SDL3/SDL.h>

#include <chrono>
#include <cmath>
#include <optional>

#include "stick_dead_zone.hpp"

namespace cadence::detail::sdl3 {

/// The event type cadence wakes loops with, registered once per process (and library): SDL
/// never takes a type back, so one per pacer would run out in an app that makes them often.
/// Never SDL_EVENT_USER itself, which the first registration returns and apps push without
/// registering it. 0 when SDL has none left.
inline Uint32 wake_type() {
  static const Uint32 type = [] {
    Uint32 t = SDL_RegisterEvents(1);
    if (t == SDL_EVENT_USER) t = SDL_RegisterEvents(1);
    return t;  // 0: none left
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
  (void)SDL_PushEvent(&wake);
}

/// The window an event is for, or 0 for one that names none (quit, a gamepad, the clipboard):
/// every event type of SDL 3.2 (and 3.4's pinch) that carries a window id.
inline SDL_WindowID window_of(const SDL_Event& e) {
  if (e.type >= SDL_EVENT_WINDOW_FIRST && e.type <= SDL_EVENT_WINDOW_LAST) return e.window.windowID;
  switch (e.type) {
    case SDL_EVENT_KEY_DOWN:
    case SDL_EVENT_KEY_UP: return e.key.windowID;
    case SDL_EVENT_TEXT_EDITING: return e.edit.windowID;
    case SDL_EVENT_TEXT_EDITING_CANDIDATES: return e.edit_candidates.windowID;
    case SDL_EVENT_TEXT_INPUT: return e.text.windowID;
    case SDL_EVENT_MOUSE_MOTION: return e.motion.windowID;
    case SDL_EVENT_MOUSE_BUTTON_DOWN:
    case SDL_EVENT_MOUSE_BUTTON_UP: return e.button.windowID;
    case SDL_EVENT_MOUSE_WHEEL: return e.wheel.windowID;
    case SDL_EVENT_DROP_FILE:
    case SDL_EVENT_DROP_TEXT:
    case SDL_EVENT_DROP_BEGIN:
    case SDL_EVENT_DROP_COMPLETE:
    case SDL_EVENT_DROP_POSITION: return e.drop.windowID;
    case SDL_EVENT_FINGER_DOWN:
    case SDL_EVENT_FINGER_UP:
    case SDL_EVENT_FINGER_MOTION:
    case SDL_EVENT_FINGER_CANCELED: return e.tfinger.windowID;
#if SDL_VERSION_ATLEAST(3, 4, 0)
    case SDL_EVENT_PINCH_BEGIN:
    case SDL_EVENT_PINCH_UPDATE:
    case SDL_EVENT_PINCH_END: return e.pinch.windowID;
#endif
    case SDL_EVENT_PEN_PROXIMITY_IN:
    case SDL_EVENT_PEN_PROXIMITY_OUT: return e.pproximity.windowID;
    case SDL_EVENT_PEN_DOWN:
    case SDL_EVENT_PEN_UP: return e.ptouch.windowID;
    case SDL_EVENT_PEN_BUTTON_DOWN:
    case SDL_EVENT_PEN_BUTTON_UP: return e.pbutton.windowID;
    case SDL_EVENT_PEN_MOTION: return e.pmotion.windowID;
    case SDL_EVENT_PEN_AXIS: return e.paxis.windowID;
    case SDL_EVENT_RENDER_TARGETS_RESET:
    case SDL_EVENT_RENDER_DEVICE_RESET:
    case SDL_EVENT_RENDER_DEVICE_LOST: return e.render.windowID;
    default: return 0;
  }
}

/// Tells gamepad events that are news for Dear ImGui's SDL3 backend from those that are not:
/// it reads gamepads alone (never a raw joystick's events, which SDL sends beside a gamepad's
/// too), and a stick's motion inside its dead zone shows nothing (stick_dead_zone.hpp).
class GamepadNews {
 public:
  /// False for a raw joystick event, a gamepad's touchpad, sensor and bookkeeping events, a
  /// device sensor's update (ImGui reads none of them), and a stick's motion that starts and
  /// ends inside its dead zone; true for every other event.
  bool is_news(const SDL_Event& e) {
    if (e.type >= SDL_EVENT_JOYSTICK_AXIS_MOTION && e.type < SDL_EVENT_GAMEPAD_AXIS_MOTION) return false;
    if (e.type >= SDL_EVENT_GAMEPAD_TOUCHPAD_DOWN && e.type < SDL_EVENT_FINGER_DOWN) return false;
    if (e.type == SDL_EVENT_SENSOR_UPDATE) return false;
    if (e.type == SDL_EVENT_GAMEPAD_REMOVED) {
      sticks_.forget(e.gdevice.which);
      return true;
    }
    if (e.type != SDL_EVENT_GAMEPAD_AXIS_MOTION) return true;
    const Uint8 axis = e.gaxis.axis;
    if (axis != SDL_GAMEPAD_AXIS_LEFTX && axis != SDL_GAMEPAD_AXIS_LEFTY && axis != SDL_GAMEPAD_AXIS_RIGHTX &&
        axis != SDL_GAMEPAD_AXIS_RIGHTY) {
      return true;  // a trigger
    }
    return sticks_.shows(e.gaxis.which, axis, e.gaxis.value);
  }

 private:
  StickDeadZone sticks_;
};

/// The refresh period of the display `window` is on (its desktop mode), or nullopt when SDL
/// cannot tell.
inline std::optional<std::chrono::nanoseconds> refresh_period(SDL_Window* window) {
  const SDL_DisplayID display = SDL_GetDisplayForWindow(window);
  const SDL_DisplayMode* mode = display != 0 ? SDL_GetDesktopDisplayMode(display) : nullptr;
  if (mode == nullptr || !(mode->refresh_rate > 0.0f)) return std::nullopt;
  return std::chrono::nanoseconds(std::llround(1e9 / static_cast<double>(mode->refresh_rate)));
}

}  // namespace cadence::detail::sdl3
