#include "imgui_input.hpp"

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>

#include <string>

#include "imgui_version.hpp"

namespace cadence::detail {
namespace {

constexpr int kKnownMods = GLFW_MOD_SHIFT | GLFW_MOD_CONTROL | GLFW_MOD_ALT | GLFW_MOD_SUPER | GLFW_MOD_CAPS_LOCK |
                           GLFW_MOD_NUM_LOCK;

bool known_key(int key) {
  return key == GLFW_KEY_SPACE || (key >= GLFW_KEY_0 && key <= GLFW_KEY_9) || (key >= GLFW_KEY_A && key <= GLFW_KEY_Z) ||
         (key >= GLFW_KEY_ESCAPE && key <= GLFW_KEY_END) || (key >= GLFW_KEY_F1 && key <= GLFW_KEY_F12) ||
         key == GLFW_KEY_KP_ENTER || (key >= GLFW_KEY_LEFT_SHIFT && key <= GLFW_KEY_RIGHT_SUPER);
}

#if IMGUI_VERSION_NUM >= 18700
ImGuiKey to_imgui_key(int key) {
  if (key >= GLFW_KEY_0 && key <= GLFW_KEY_9) return static_cast<ImGuiKey>(ImGuiKey_0 + (key - GLFW_KEY_0));
  if (key >= GLFW_KEY_A && key <= GLFW_KEY_Z) return static_cast<ImGuiKey>(ImGuiKey_A + (key - GLFW_KEY_A));
  if (key >= GLFW_KEY_F1 && key <= GLFW_KEY_F12) return static_cast<ImGuiKey>(ImGuiKey_F1 + (key - GLFW_KEY_F1));
  switch (key) {
    case GLFW_KEY_SPACE: return ImGuiKey_Space;
    case GLFW_KEY_ESCAPE: return ImGuiKey_Escape;
    case GLFW_KEY_ENTER: return ImGuiKey_Enter;
    case GLFW_KEY_TAB: return ImGuiKey_Tab;
    case GLFW_KEY_BACKSPACE: return ImGuiKey_Backspace;
    case GLFW_KEY_INSERT: return ImGuiKey_Insert;
    case GLFW_KEY_DELETE: return ImGuiKey_Delete;
    case GLFW_KEY_RIGHT: return ImGuiKey_RightArrow;
    case GLFW_KEY_LEFT: return ImGuiKey_LeftArrow;
    case GLFW_KEY_DOWN: return ImGuiKey_DownArrow;
    case GLFW_KEY_UP: return ImGuiKey_UpArrow;
    case GLFW_KEY_PAGE_UP: return ImGuiKey_PageUp;
    case GLFW_KEY_PAGE_DOWN: return ImGuiKey_PageDown;
    case GLFW_KEY_HOME: return ImGuiKey_Home;
    case GLFW_KEY_END: return ImGuiKey_End;
    case GLFW_KEY_KP_ENTER: return ImGuiKey_KeypadEnter;
    case GLFW_KEY_LEFT_SHIFT: return ImGuiKey_LeftShift;
    case GLFW_KEY_LEFT_CONTROL: return ImGuiKey_LeftCtrl;
    case GLFW_KEY_LEFT_ALT: return ImGuiKey_LeftAlt;
    case GLFW_KEY_LEFT_SUPER: return ImGuiKey_LeftSuper;
    case GLFW_KEY_RIGHT_SHIFT: return ImGuiKey_RightShift;
    case GLFW_KEY_RIGHT_CONTROL: return ImGuiKey_RightCtrl;
    case GLFW_KEY_RIGHT_ALT: return ImGuiKey_RightAlt;
    case GLFW_KEY_RIGHT_SUPER: return ImGuiKey_RightSuper;
    default: return ImGuiKey_None;
  }
}
#endif

}  // namespace

void feed_pointer(GLFWwindow* window, ImGuiIO& io, const std::optional<ImVec2>& position,
                  const std::array<std::optional<bool>, 5>& buttons, bool& entered) {
#if IMGUI_VERSION_NUM >= 18700
  if (position && !entered) {
    ImGui_ImplGlfw_CursorEnterCallback(window, GLFW_TRUE);
    entered = true;
  }
  // ImGui drops repeats of an unchanged position or button state.
  if (position) io.AddMousePosEvent(position->x, position->y);
  for (std::size_t b = 0; b < buttons.size(); ++b) {
    if (buttons[b]) io.AddMouseButtonEvent(static_cast<int>(b), *buttons[b]);
  }
#else
  (void)window;
  (void)entered;
  if (position) io.MousePos = *position;
  for (std::size_t b = 0; b < buttons.size(); ++b) {
    if (buttons[b]) io.MouseDown[b] = *buttons[b];
  }
#endif
}

void pointer_moved(GLFWwindow* window, double x, double y) {
#if IMGUI_VERSION_NUM >= 18700
  ImGui_ImplGlfw_CursorPosCallback(window, x, y);
#else
  (void)window;
  (void)x;
  (void)y;
#endif
}

Status key_event(GLFWwindow* window, int key, int action, int mods) {
  if (!known_key(key)) {
    return Error{Errc::invalid_argument,
                 "key " + std::to_string(key) +
                     " is not one inject_key() knows: GLFW_KEY_* codes of letters, digits, space, F1-F12, Escape, "
                     "Enter, Tab, Backspace, Insert, Delete, the arrows, Page Up/Down, Home, End, keypad Enter and "
                     "the Shift, Control, Alt and Super keys"};
  }
  if (action != GLFW_PRESS && action != GLFW_REPEAT && action != GLFW_RELEASE) {
    return Error{Errc::invalid_argument, "key action " + std::to_string(action) +
                                             " is not GLFW_PRESS (1), GLFW_REPEAT (2) or GLFW_RELEASE (0)"};
  }
  if ((mods & ~kKnownMods) != 0) {
    return Error{Errc::invalid_argument, "key mods " + std::to_string(mods) + " have bits that are not GLFW_MOD_*"};
  }
  if (action == GLFW_REPEAT) return {};  // ImGui repeats a held key itself, as it does for a real one
  const bool down = action == GLFW_PRESS;
  // A modifier key's own event sets or clears its modifier, whatever `mods` said.
  const auto modifier_bit = [](int k) {
    switch (k) {
      case GLFW_KEY_LEFT_SHIFT: case GLFW_KEY_RIGHT_SHIFT: return GLFW_MOD_SHIFT;
      case GLFW_KEY_LEFT_CONTROL: case GLFW_KEY_RIGHT_CONTROL: return GLFW_MOD_CONTROL;
      case GLFW_KEY_LEFT_ALT: case GLFW_KEY_RIGHT_ALT: return GLFW_MOD_ALT;
      case GLFW_KEY_LEFT_SUPER: case GLFW_KEY_RIGHT_SUPER: return GLFW_MOD_SUPER;
      default: return 0;
    }
  };
  if (const int bit = modifier_bit(key); bit != 0) mods = down ? (mods | bit) : (mods & ~bit);
  ImGuiIO& io = ImGui::GetIO();
#if IMGUI_VERSION_NUM >= 18700
  (void)window;
  io.AddKeyEvent(ImGuiMod_Ctrl, (mods & GLFW_MOD_CONTROL) != 0);
  io.AddKeyEvent(ImGuiMod_Shift, (mods & GLFW_MOD_SHIFT) != 0);
  io.AddKeyEvent(ImGuiMod_Alt, (mods & GLFW_MOD_ALT) != 0);
  io.AddKeyEvent(ImGuiMod_Super, (mods & GLFW_MOD_SUPER) != 0);
  io.AddKeyEvent(to_imgui_key(key), down);
#else
  ImGui_ImplGlfw_KeyCallback(window, key, 0, down ? GLFW_PRESS : GLFW_RELEASE, mods);
  // The 1.86 backend takes the modifiers from the modifier keys it saw; the injected ones win.
  io.KeyCtrl = (mods & GLFW_MOD_CONTROL) != 0;
  io.KeyShift = (mods & GLFW_MOD_SHIFT) != 0;
  io.KeyAlt = (mods & GLFW_MOD_ALT) != 0;
  io.KeySuper = (mods & GLFW_MOD_SUPER) != 0;
#endif
  return {};
}

}  // namespace cadence::detail
