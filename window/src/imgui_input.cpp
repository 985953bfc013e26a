#include "imgui_input.hpp"

#include <GLFW/glfw3.h>

#include <string>

#include "cadence/imgui_features.hpp"  // before imgui_internal.h: the versions whose internals this reads
#include <imgui_internal.h>  // the input queue

namespace cadence::detail {
namespace {

constexpr int kKnownMods = GLFW_MOD_SHIFT | GLFW_MOD_CONTROL | GLFW_MOD_ALT | GLFW_MOD_SUPER | GLFW_MOD_CAPS_LOCK |
                           GLFW_MOD_NUM_LOCK;

bool known_key(int key) {
  return key == GLFW_KEY_SPACE || (key >= GLFW_KEY_0 && key <= GLFW_KEY_9) || (key >= GLFW_KEY_A && key <= GLFW_KEY_Z) ||
         (key >= GLFW_KEY_ESCAPE && key <= GLFW_KEY_END) || (key >= GLFW_KEY_F1 && key <= GLFW_KEY_F12) ||
         key == GLFW_KEY_KP_ENTER || (key >= GLFW_KEY_LEFT_SHIFT && key <= GLFW_KEY_RIGHT_SUPER);
}

#if CADENCE_IMGUI_INPUT_EVENTS
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

Status check_key(int key, int action, int mods) {
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
  return {};
}

int mods_after(int key, bool down, int mods) {
  int bit = 0;
  switch (key) {
    case GLFW_KEY_LEFT_SHIFT: case GLFW_KEY_RIGHT_SHIFT: bit = GLFW_MOD_SHIFT; break;
    case GLFW_KEY_LEFT_CONTROL: case GLFW_KEY_RIGHT_CONTROL: bit = GLFW_MOD_CONTROL; break;
    case GLFW_KEY_LEFT_ALT: case GLFW_KEY_RIGHT_ALT: bit = GLFW_MOD_ALT; break;
    case GLFW_KEY_LEFT_SUPER: case GLFW_KEY_RIGHT_SUPER: bit = GLFW_MOD_SUPER; break;
    default: return mods;
  }
  return down ? (mods | bit) : (mods & ~bit);
}

#if CADENCE_IMGUI_INPUT_EVENTS
#if CADENCE_IMGUI_MOD_FLAGS
constexpr ImGuiKey kModCtrl = ImGuiMod_Ctrl, kModShift = ImGuiMod_Shift, kModAlt = ImGuiMod_Alt, kModSuper = ImGuiMod_Super;
#else
constexpr ImGuiKey kModCtrl = ImGuiKey_ModCtrl, kModShift = ImGuiKey_ModShift, kModAlt = ImGuiKey_ModAlt,
                   kModSuper = ImGuiKey_ModSuper;
#endif

void queue_key(ImGuiIO& io, int key, bool down, int mods) {
  io.AddKeyEvent(kModCtrl, (mods & GLFW_MOD_CONTROL) != 0);
  io.AddKeyEvent(kModShift, (mods & GLFW_MOD_SHIFT) != 0);
  io.AddKeyEvent(kModAlt, (mods & GLFW_MOD_ALT) != 0);
  io.AddKeyEvent(kModSuper, (mods & GLFW_MOD_SUPER) != 0);
  io.AddKeyEvent(to_imgui_key(key), down);
}
#else
void set_modifiers(ImGuiIO& io, int mods) {
  io.KeyCtrl = (mods & GLFW_MOD_CONTROL) != 0;
  io.KeyShift = (mods & GLFW_MOD_SHIFT) != 0;
  io.KeyAlt = (mods & GLFW_MOD_ALT) != 0;
  io.KeySuper = (mods & GLFW_MOD_SUPER) != 0;
}
#endif

}  // namespace

int input_queue_size() {
#if CADENCE_IMGUI_INPUT_EVENTS
  return ImGui::GetCurrentContext()->InputEventsQueue.Size;
#else
  return 0;
#endif
}

void feed_pointer(ImGuiIO& io, InjectedPointer& pointer, int queued_before, const std::function<void()>& tell_entered) {
#if CADENCE_IMGUI_INPUT_EVENTS
  if (pointer.position && !pointer.entered) {
    tell_entered();
    pointer.entered = true;
  }
  if (pointer.position) {
    ImVector<ImGuiInputEvent>& queue = ImGui::GetCurrentContext()->InputEventsQueue;
    for (int i = queue.Size - 1; i >= queued_before && i >= 0; --i) {
      if (queue[i].Type == ImGuiInputEventType_MousePos) queue.erase(queue.Data + i);
    }
  }
  // ImGui drops repeats of an unchanged position or button state.
  if (pointer.position) io.AddMousePosEvent(pointer.position->x, pointer.position->y);
  for (std::size_t b = 0; b < pointer.buttons.size(); ++b) {
    if (pointer.buttons[b]) io.AddMouseButtonEvent(static_cast<int>(b), *pointer.buttons[b]);
  }
#else
  (void)queued_before;
  (void)tell_entered;
  if (pointer.position) io.MousePos = *pointer.position;
  for (std::size_t b = 0; b < pointer.buttons.size(); ++b) {
    if (pointer.buttons[b]) io.MouseDown[b] = *pointer.buttons[b];
  }
#endif
}

Status key_event(int key, int action, int mods, const std::function<void(int key, bool down, int mods)>& backend_key) {
  if (Status s = check_key(key, action, mods); !s) return s;
  if (action == GLFW_REPEAT) return {};  // ImGui repeats a held key itself, as it does for a real one
  const bool down = action == GLFW_PRESS;
  mods = mods_after(key, down, mods);
  ImGuiIO& io = ImGui::GetIO();
#if CADENCE_IMGUI_INPUT_EVENTS
  (void)backend_key;
  queue_key(io, key, down, mods);
#else
  backend_key(key, down, mods);
  set_modifiers(io, mods);
#endif
  return {};
}

void add_wheel(ImGuiIO& io, double dx, double dy) {
#if CADENCE_IMGUI_INPUT_EVENTS
  io.AddMouseWheelEvent(static_cast<float>(dx), static_cast<float>(dy));
#else
  io.MouseWheelH += static_cast<float>(dx);
  io.MouseWheel += static_cast<float>(dy);
#endif
}

}  // namespace cadence::detail
