// Whether a gamepad stick's motion shows anything, for the SDL2 and SDL3 code alike: Dear ImGui's
// SDL backends (1.86 to 1.92, SDL2 and SDL3) read a stick as 0 until it leaves its first 8000 of
// 32767 each way (their thumb_dead_zone), so a worn stick that drifts there, sending an axis
// event at every change, shows nothing new.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace cadence::detail {

class StickDeadZone {
 public:
  /// ImGui's dead zone for the sticks; the triggers have none.
  static constexpr int kDeadZone = 8000;

  /// False when the stick axis `axis` of gamepad `device` moves to `value` from a last value that
  /// was inside the dead zone as this one is (a new axis starts at 0); true otherwise. Remembers
  /// the value. Cost: a scan of the axes seen (two sticks per gamepad connected).
  bool shows(std::uint32_t device, std::uint8_t axis, std::int16_t value) {
    auto last = std::find_if(axes_.begin(), axes_.end(), [&](const Axis& a) { return a.device == device && a.axis == axis; });
    if (last == axes_.end()) last = axes_.insert(axes_.end(), Axis{device, axis, 0});
    const bool inside = inside_dead_zone(last->value) && inside_dead_zone(value);
    last->value = value;
    return !inside;
  }
  /// Forgets the axes of a gamepad that is gone.
  void forget(std::uint32_t device) {
    std::erase_if(axes_, [&](const Axis& a) { return a.device == device; });
  }

 private:
  // ImGui maps a stick's [kDeadZone, 32767] to [0, 1]: its value is 0 up to the edge itself.
  static bool inside_dead_zone(int v) { return v >= -kDeadZone && v <= kDeadZone; }
  struct Axis {
    std::uint32_t device;
    std::uint8_t axis;
    std::int16_t value;
  };
  std::vector<Axis> axes_;
};

}  // namespace cadence::detail
