#include "imgui_input.hpp"

#include <string>

#include "cadence/imgui_features.hpp"  // before imgui_internal.h: the versions whose internals this reads
#include <imgui_internal.h>  // the input queue

namespace cadence::detail {
namespace {

#if CADENCE_IMGUI_INPUT_EVENTS
ImGuiKey to_imgui_key(Key key) {
  const int k = static_cast<int>(key);
  if (key >= Key::digit_0 && key <= Key::digit_9) return static_cast<ImGuiKey>(ImGuiKey_0 + (k - static_cast<int>(Key::digit_0)));
  if (key >= Key::a && key <= Key::z) return static_cast<ImGuiKey>(ImGuiKey_A + (k - static_cast<int>(Key::a)));
  if (key >= Key::f1 && key <= Key::f12) return static_cast<ImGuiKey>(ImGuiKey_F1 + (k - static_cast<int>(Key::f1)));
  switch (key) {
    case Key::space: return ImGuiKey_Space;
    case Key::escape: return ImGuiKey_Escape;
    case Key::enter: return ImGuiKey_Enter;
    case Key::tab: return ImGuiKey_Tab;
    case Key::backspace: return ImGuiKey_Backspace;
    case Key::insert: return ImGuiKey_Insert;
    case Key::delete_: return ImGuiKey_Delete;
    case Key::right: return ImGuiKey_RightArrow;
    case Key::left: return ImGuiKey_LeftArrow;
    case Key::down: return ImGuiKey_DownArrow;
    case Key::up: return ImGuiKey_UpArrow;
    case Key::page_up: return ImGuiKey_PageUp;
    case Key::page_down: return ImGuiKey_PageDown;
    case Key::home: return ImGuiKey_Home;
    case Key::end: return ImGuiKey_End;
    case Key::keypad_enter: return ImGuiKey_KeypadEnter;
    case Key::left_shift: return ImGuiKey_LeftShift;
    case Key::left_control: return ImGuiKey_LeftCtrl;
    case Key::left_alt: return ImGuiKey_LeftAlt;
    case Key::left_super: return ImGuiKey_LeftSuper;
    case Key::right_shift: return ImGuiKey_RightShift;
    case Key::right_control: return ImGuiKey_RightCtrl;
    case Key::right_alt: return ImGuiKey_RightAlt;
    case Key::right_super: return ImGuiKey_RightSuper;
    default: return ImGuiKey_None;  // the ranges above
  }
}
#endif

Status check_key(Key key, KeyAction action) {
  if (to_string(key) == nullptr) {
    return Error{Errc::invalid_argument, "key " + std::to_string(static_cast<int>(key)) + " is not a cadence::Key (0 to " +
                                             std::to_string(kKeyCount - 1) + ")"};
  }
  if (action != KeyAction::press && action != KeyAction::repeat && action != KeyAction::release) {
    return Error{Errc::invalid_argument, "key action " + std::to_string(static_cast<int>(action)) +
                                             " is not KeyAction::release (0), press (1) or repeat (2)"};
  }
  return {};
}

// The modifiers once a modifier key's own event went: pressing Shift holds Shift.
KeyMods mods_after(Key key, bool down, KeyMods mods) {
  switch (key) {
    case Key::left_shift: case Key::right_shift: mods.shift = down; break;
    case Key::left_control: case Key::right_control: mods.control = down; break;
    case Key::left_alt: case Key::right_alt: mods.alt = down; break;
    case Key::left_super: case Key::right_super: mods.super = down; break;
    default: break;
  }
  return mods;
}

#if CADENCE_IMGUI_INPUT_EVENTS
#if CADENCE_IMGUI_MOD_FLAGS
constexpr ImGuiKey kModCtrl = ImGuiMod_Ctrl, kModShift = ImGuiMod_Shift, kModAlt = ImGuiMod_Alt, kModSuper = ImGuiMod_Super;
#else
constexpr ImGuiKey kModCtrl = ImGuiKey_ModCtrl, kModShift = ImGuiKey_ModShift, kModAlt = ImGuiKey_ModAlt,
                   kModSuper = ImGuiKey_ModSuper;
#endif

void queue_key(ImGuiIO& io, Key key, bool down, KeyMods mods) {
  io.AddKeyEvent(kModCtrl, mods.control);
  io.AddKeyEvent(kModShift, mods.shift);
  io.AddKeyEvent(kModAlt, mods.alt);
  io.AddKeyEvent(kModSuper, mods.super);
  io.AddKeyEvent(to_imgui_key(key), down);
}
#else
void set_modifiers(ImGuiIO& io, KeyMods mods) {
  io.KeyCtrl = mods.control;
  io.KeyShift = mods.shift;
  io.KeyAlt = mods.alt;
  io.KeySuper = mods.super;
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

Status key_event(Key key, KeyAction action, KeyMods mods, const std::function<void(Key key, bool down, KeyMods mods)>& backend_key) {
  if (Status s = check_key(key, action); !s) return s;
  if (action == KeyAction::repeat) return {};  // ImGui repeats a held key itself, as it does for a real one
  const bool down = action == KeyAction::press;
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
