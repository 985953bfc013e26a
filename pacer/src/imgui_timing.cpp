#include "imgui_timing.hpp"

#include "cadence/imgui_features.hpp"  // before imgui_internal.h: the versions whose internals this reads
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>

namespace cadence::detail {
namespace {

// ImGui's hold-to-open delay for drag and drop (DRAGDROP_HOLD_TO_OPEN_TIMER, private to
// imgui_widgets.cpp): 0.70 s in 1.86 and 1.92.
constexpr float kDragDropHoldToOpen = 0.70f;

// A held mouse button repeats (IsMouseClicked with repeat) at io.KeyRepeatRate, at half of it before 1.88.
constexpr float kMouseRepeatRateScale = CADENCE_IMGUI_MOUSE_REPEATS_AT_KEY_RATE ? 1.0f : 0.5f;

void keep_sooner(std::optional<double>& best, std::optional<double> candidate) {
  if (candidate && (!best || *candidate < *best)) best = candidate;
}

// Seconds from now to the next repeat of something held `t` seconds.
std::optional<double> repeat_after(float t, float delay, float rate) {
  if (t < 0) return std::nullopt;  // not held
  const std::optional<double> at = next_repeat(t, delay, rate);
  if (!at) return std::nullopt;
  return *at - t;
}

}  // namespace

std::optional<double> next_repeat(double t, double delay, double rate) {
  if (t < delay) return delay;
  if (rate <= 0) return std::nullopt;
  return delay + (std::floor((t - delay) / rate) + 1) * rate;
}

ImGuiTiming imgui_timing() {
  ImGuiContext& g = *ImGui::GetCurrentContext();
  const ImGuiIO& io = g.IO;
  ImGuiTiming out;
  // Held buttons and keys repeat for the active item (a held "+", a text field being typed
  // in) and for the app's own IsKeyPressed(key, true) and IsMouseClicked(button, true); a hold
  // that changes nothing is cut short by the window (window.cpp, idle_repeats).
  {
    for (int b = 0; b < 5; ++b) {
      if (io.MouseDown[b]) {
        keep_sooner(out.repeat_in,
                    repeat_after(io.MouseDownDuration[b], io.KeyRepeatDelay, io.KeyRepeatRate * kMouseRepeatRateScale));
      }
    }
    // A held key repeats at io.KeyRepeatDelay and Rate. With keyboard or gamepad navigation,
    // ImGui moves the focus with a held arrow or d-pad direction on a faster schedule, and an
    // active slider or drag steps faster still; before 1.89 an activated button held with
    // Space (or the gamepad's Activate) repeats on the focus's schedule too, from 1.89 at the
    // key's own rate. The same factors from 1.86 to 1.92 (ImGuiInputFlags_RepeatRateNavMove
    // and NavTweak; ImGuiInputReadMode_Repeat and RepeatFast in 1.86), in float as ImGui
    // computes them.
    const bool nav = (io.ConfigFlags & (ImGuiConfigFlags_NavEnableKeyboard | ImGuiConfigFlags_NavEnableGamepad)) != 0;
    const auto held = [&](float t, bool moves, bool activates) {
      keep_sooner(out.repeat_in, repeat_after(t, io.KeyRepeatDelay, io.KeyRepeatRate));
      if (!nav || !(moves || activates)) return;
      keep_sooner(out.repeat_in, repeat_after(t, io.KeyRepeatDelay * 0.72f, io.KeyRepeatRate * 0.80f));
      if (moves && g.ActiveId != 0) keep_sooner(out.repeat_in, repeat_after(t, io.KeyRepeatDelay * 0.72f, io.KeyRepeatRate * 0.30f));
    };
#if CADENCE_IMGUI_INPUT_EVENTS
    // The keyboard's keys, then the gamepad's; the mouse buttons (above) and the modifiers'
    // state come after them and do not repeat as keys. The gamepad's order of directions
    // changed in 1.89.3: each key by name.
    const auto is_any = [](ImGuiKey key, std::initializer_list<ImGuiKey> keys) {
      return std::find(keys.begin(), keys.end(), key) != keys.end();
    };
    for (int k = ImGuiKey_NamedKey_BEGIN; k < ImGuiKey_Gamepad_END; ++k) {
      const auto key = static_cast<ImGuiKey>(k);
      if (key >= ImGuiKey_LeftCtrl && key <= ImGuiKey_RightSuper) continue;  // modifiers do not repeat
      const ImGuiKeyData& data = *ImGui::GetKeyData(key);  // io.KeysData is indexed by version and imconfig
      if (!data.Down) continue;
      const bool moves = is_any(key, {ImGuiKey_LeftArrow, ImGuiKey_RightArrow, ImGuiKey_UpArrow, ImGuiKey_DownArrow,
                                      ImGuiKey_GamepadDpadLeft, ImGuiKey_GamepadDpadRight, ImGuiKey_GamepadDpadUp,
                                      ImGuiKey_GamepadDpadDown});
      const bool activates = !CADENCE_IMGUI_NAV_ACTIVATE_AT_KEY_RATE && is_any(key, {ImGuiKey_Space, ImGuiKey_GamepadFaceDown});
      held(data.DownDuration, moves, activates);
    }
#else
    // 1.86: the keys by the backend's own codes, and navigation's inputs (the arrows and Space
    // mapped by ImGui, the gamepad by the backend) with their own durations.
    for (int k = 0; k < IM_ARRAYSIZE(io.KeysDown); ++k) {
      if (io.KeysDown[k]) held(io.KeysDownDuration[k], false, false);
    }
    for (const ImGuiNavInput_ input : {ImGuiNavInput_DpadLeft, ImGuiNavInput_DpadRight, ImGuiNavInput_DpadUp,
                                       ImGuiNavInput_DpadDown, ImGuiNavInput_KeyLeft_, ImGuiNavInput_KeyRight_,
                                       ImGuiNavInput_KeyUp_, ImGuiNavInput_KeyDown_}) {
      held(io.NavInputsDownDuration[input], true, false);
    }
    held(io.NavInputsDownDuration[ImGuiNavInput_Activate], false, true);
#endif
  }
  // A payload held over a closed tree node (or anything opening on hover) opens it.
  if (g.DragDropActive && g.HoveredId != 0 && g.HoveredIdTimer < kDragDropHoldToOpen) {
    keep_sooner(out.delay_in, static_cast<double>(kDragDropHoldToOpen - g.HoveredIdTimer));
  }
#if CADENCE_IMGUI_MENU_HOVER_TIMEOUT
  // An item hovered in a menu whose sub-menu is open (the pointer may be heading for it): a
  // sub-menu item there opens once hovered and still for 0.30 s (BeginMenu's timer fallback).
  constexpr float kMenuHoverToOpen = 0.30f;
  const auto sub_menu_open = [&] {
    for (const ImGuiPopupData& popup : g.OpenPopupStack) {
      if (popup.Window != nullptr && popup.Window->ParentWindow == g.HoveredWindow &&
          (popup.Window->Flags & ImGuiWindowFlags_ChildMenu) != 0) {
        return true;
      }
    }
    return false;
  };
  if (g.HoveredId != 0 && g.HoveredWindow != nullptr &&
      (g.HoveredIdTimer < kMenuHoverToOpen || g.MouseStationaryTimer < kMenuHoverToOpen) && sub_menu_open()) {
    keep_sooner(out.delay_in, static_cast<double>(kMenuHoverToOpen - std::min(g.HoveredIdTimer, g.MouseStationaryTimer)));
  }
#endif
#if CADENCE_IMGUI_HOVER_DELAYS
  // An item hovered with a delay (tooltips of 1.92): its delays, and the pointer keeping still.
  if (g.HoverItemDelayId != 0) {
    for (const float delay : {g.Style.HoverDelayShort, g.Style.HoverDelayNormal}) {
      if (g.HoverItemDelayTimer < delay) keep_sooner(out.delay_in, static_cast<double>(delay - g.HoverItemDelayTimer));
    }
    if (g.MouseStationaryTimer < g.Style.HoverStationaryDelay) {
      keep_sooner(out.delay_in, static_cast<double>(g.Style.HoverStationaryDelay - g.MouseStationaryTimer));
    }
  }
#endif
  return out;
}

}  // namespace cadence::detail
