// The names of the keys inject_key() presses (cadence/key.hpp).
#include "cadence/key.hpp"

#include <array>
#include <cstddef>

namespace cadence {
namespace {

constexpr std::array<const char*, kKeyCount> kNames = {
    "space",
    "digit_0", "digit_1", "digit_2", "digit_3", "digit_4", "digit_5", "digit_6", "digit_7", "digit_8", "digit_9",
    "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p", "q", "r", "s", "t", "u", "v", "w",
    "x", "y", "z",
    "f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "f9", "f10", "f11", "f12",
    "escape", "enter", "tab", "backspace", "insert", "delete",
    "left", "right", "up", "down",
    "page_up", "page_down", "home", "end",
    "keypad_enter",
    "left_shift", "left_control", "left_alt", "left_super",
    "right_shift", "right_control", "right_alt", "right_super",
};
static_assert(kNames[kKeyCount - 1] != nullptr, "a name for every Key");

}  // namespace

const char* to_string(Key key) noexcept {
  const auto i = static_cast<std::size_t>(key);
  return i < kNames.size() ? kNames[i] : nullptr;
}

}  // namespace cadence
