// cadence/key.hpp: the keys Window::inject_key() presses, the same on every window system.
//
// A key is named by what it is on a US keyboard layout. Each backend hands it to Dear ImGui as
// its own events would (with ImGui 1.87 and later as ImGui's key, with 1.86 through ImGui's
// backend as GLFW's key code or SDL's scancode), so a test or a scripted session reads the same
// on GLFW, SDL2 and any later backend.
//
//     #include <cadence/window.hpp>
//     using namespace cadence;
//     Window* window = nullptr;  // a window open on any backend
//     // Ctrl+A, as a test or a scripted session presses it:
//     const KeyMods control{.control = true};
//     if (Status s = window->inject_key(Key::a, KeyAction::press, control); !s) return;
//     (void)window->inject_key(Key::a, KeyAction::release, control);
#pragma once

#include <cstdint>

#include "cadence/export.hpp"

namespace cadence {

/// A key of the keyboard, by its US-layout name. Digits and letters are in order, as are F1-F12.
enum class Key : std::uint8_t {
  space,
  digit_0, digit_1, digit_2, digit_3, digit_4, digit_5, digit_6, digit_7, digit_8, digit_9,
  a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q, r, s, t, u, v, w, x, y, z,
  f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12,
  escape, enter, tab, backspace, insert,
  delete_,  ///< Delete (`delete` is a C++ keyword)
  left, right, up, down,
  page_up, page_down, home, end,
  keypad_enter,
  left_shift, left_control, left_alt, left_super,
  right_shift, right_control, right_alt, right_super,
};
/// One past the last Key: every value below it is a key.
inline constexpr int kKeyCount = static_cast<int>(Key::right_super) + 1;

/// What happens to the key: pressed, released, or repeated by the system while held.
enum class KeyAction : std::uint8_t {
  release,
  press,
  repeat,  ///< changes nothing in ImGui, which repeats a held key itself
};

/// The modifiers held during a key event.
struct KeyMods {
  bool shift = false;
  bool control = false;
  bool alt = false;
  bool super = false;  ///< the Windows or Command key
  friend bool operator==(const KeyMods&, const KeyMods&) = default;
};

/// The key's name in lower case with underscores, as in the enum ("page_up", "digit_7",
/// "delete"); nullptr for a value that is not a Key. Cost: O(1).
CADENCE_WINDOW_API const char* to_string(Key key) noexcept;

}  // namespace cadence
