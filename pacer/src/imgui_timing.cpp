#include "imgui_timing.hpp"

#include "cadence/imgui_features.hpp"  // before imgui_internal.h: the versions whose internals this reads
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <iterator>

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

ImGuiTiming imgui_timing(bool text_field_ran) {
  ImGuiContext& g = *ImGui::GetCurrentContext();
  const ImGuiIO& io = g.IO;
  ImGuiTiming out;
  // Held buttons and keys repeat for the active item (a held "+", a text field being typed
  // in) and for the app's own IsKeyPressed(key, true) and IsMouseClicked(button, true); a
  // schedule whose repeats change nothing is cut short (pacing_rules.hpp).
  const auto sooner = [&](RepeatSchedule schedule, float t, float delay, float rate) {
    keep_sooner(out.repeat_in[static_cast<std::size_t>(schedule)], repeat_after(t, delay, rate));
  };
  for (int b = 0; b < 5; ++b) {
    if (io.MouseDown[b]) {
      sooner(RepeatSchedule::pointer, io.MouseDownDuration[b], io.KeyRepeatDelay, io.KeyRepeatRate * kMouseRepeatRateScale);
    }
  }
  // A held key repeats at io.KeyRepeatDelay and Rate. With navigation on for its device, a held
  // direction moves the focus on a faster schedule, unless the active item takes that direction
  // (IsActiveIdUsingNavDir: a slider or drag its axis, a text field Left and Right); then a
  // slider or drag steps faster still, and a text field reads the key at its own rate. Before
  // 1.89 a button activated with Space (or the gamepad's Activate) repeats on the focus's
  // schedule too, from 1.89 at the key's own rate. The same factors from 1.86 to 1.92
  // (ImGuiInputFlags_RepeatRateNavMove and NavTweak; ImGuiInputReadMode_Repeat and RepeatFast
  // in 1.86), in float as ImGui computes them.
  const auto held = [&](float t, bool nav, int dir, bool activates) {
    sooner(RepeatSchedule::key, t, io.KeyRepeatDelay, io.KeyRepeatRate);
    if (!nav) return;
    const float delay = io.KeyRepeatDelay * 0.72f;
    if (activates) sooner(RepeatSchedule::nav_move, t, delay, io.KeyRepeatRate * 0.80f);
    if (dir == ImGuiDir_None) return;
    const bool taken = g.ActiveId != 0 && (g.ActiveIdUsingNavDirMask & (1u << dir)) != 0;
    if (!taken) {
      sooner(RepeatSchedule::nav_move, t, delay, io.KeyRepeatRate * 0.80f);
    } else if (!text_field_ran) {
      sooner(RepeatSchedule::nav_tweak, t, delay, io.KeyRepeatRate * 0.30f);
    }
  };
#if CADENCE_IMGUI_INPUT_EVENTS
  // The keyboard's keys, then the gamepad's; the mouse buttons (above) and the modifiers' state
  // come after them and do not repeat as keys. Directions by name: the gamepad's order of them
  // differs between releases.
  const bool nav_keyboard = (io.ConfigFlags & ImGuiConfigFlags_NavEnableKeyboard) != 0;
  const bool nav_gamepad = (io.ConfigFlags & ImGuiConfigFlags_NavEnableGamepad) != 0;
  struct Direction {
    ImGuiKey key;
    bool gamepad;
    int dir;
  };
  constexpr Direction kDirections[] = {
      {ImGuiKey_LeftArrow, false, ImGuiDir_Left},         {ImGuiKey_RightArrow, false, ImGuiDir_Right},
      {ImGuiKey_UpArrow, false, ImGuiDir_Up},             {ImGuiKey_DownArrow, false, ImGuiDir_Down},
      {ImGuiKey_GamepadDpadLeft, true, ImGuiDir_Left},    {ImGuiKey_GamepadDpadRight, true, ImGuiDir_Right},
      {ImGuiKey_GamepadDpadUp, true, ImGuiDir_Up},        {ImGuiKey_GamepadDpadDown, true, ImGuiDir_Down},
  };
  for (int k = ImGuiKey_NamedKey_BEGIN; k < ImGuiKey_Gamepad_END; ++k) {
    const auto key = static_cast<ImGuiKey>(k);
    if (key >= ImGuiKey_LeftCtrl && key <= ImGuiKey_RightSuper) continue;  // modifiers do not repeat
    const ImGuiKeyData& data = *ImGui::GetKeyData(key);  // io.KeysData is indexed by version and imconfig
    if (!data.Down) continue;
    const bool gamepad = key >= ImGuiKey_GamepadStart;
    const auto direction = std::find_if(std::begin(kDirections), std::end(kDirections),
                                        [&](const Direction& d) { return d.key == key; });
    const int dir = direction != std::end(kDirections) ? direction->dir : static_cast<int>(ImGuiDir_None);
    const bool activates = !CADENCE_IMGUI_NAV_ACTIVATE_AT_KEY_RATE && (key == ImGuiKey_Space || key == ImGuiKey_GamepadFaceDown);
    held(data.DownDuration, gamepad ? nav_gamepad : nav_keyboard, dir, activates);
  }
#else
  // 1.86: the keys by the backend's own codes, and navigation's inputs (the arrows and Space
  // mapped by ImGui when keyboard navigation is on, the gamepad's by the backend) with their
  // own durations.
  for (int k = 0; k < IM_ARRAYSIZE(io.KeysDown); ++k) {
    if (io.KeysDown[k]) held(io.KeysDownDuration[k], false, ImGuiDir_None, false);
  }
  struct Direction {
    ImGuiNavInput_ input;
    int dir;
  };
  for (const Direction d : {Direction{ImGuiNavInput_DpadLeft, ImGuiDir_Left}, Direction{ImGuiNavInput_DpadRight, ImGuiDir_Right},
                            Direction{ImGuiNavInput_DpadUp, ImGuiDir_Up}, Direction{ImGuiNavInput_DpadDown, ImGuiDir_Down},
                            Direction{ImGuiNavInput_KeyLeft_, ImGuiDir_Left}, Direction{ImGuiNavInput_KeyRight_, ImGuiDir_Right},
                            Direction{ImGuiNavInput_KeyUp_, ImGuiDir_Up}, Direction{ImGuiNavInput_KeyDown_, ImGuiDir_Down}}) {
    held(io.NavInputsDownDuration[d.input], true, d.dir, false);
  }
  held(io.NavInputsDownDuration[ImGuiNavInput_Activate], true, ImGuiDir_None, true);
#endif
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
