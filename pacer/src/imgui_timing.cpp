#include "imgui_timing.hpp"

#include "cadence/imgui_features.hpp"  // before imgui_internal.h: the versions whose internals this reads
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>

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
    // A held key repeats at io.KeyRepeatDelay and Rate; with keyboard navigation, ImGui also
    // moves the focus (and presses a repeating button held with Space) on a faster schedule,
    // and an active slider or drag tweaks faster still: the same factors from 1.86 to 1.92
    // (ImGuiInputFlags_RepeatRateNavMove and NavTweak; ImGuiInputReadMode_Repeat and
    // RepeatFast in 1.86), in float as ImGui computes them.
    const bool nav = (io.ConfigFlags & ImGuiConfigFlags_NavEnableKeyboard) != 0;
    const auto held = [&](float t) {
      keep_sooner(out.repeat_in, repeat_after(t, io.KeyRepeatDelay, io.KeyRepeatRate));
      if (!nav) return;
      keep_sooner(out.repeat_in, repeat_after(t, io.KeyRepeatDelay * 0.72f, io.KeyRepeatRate * 0.80f));
      if (g.ActiveId != 0) keep_sooner(out.repeat_in, repeat_after(t, io.KeyRepeatDelay * 0.72f, io.KeyRepeatRate * 0.30f));
    };
#if CADENCE_IMGUI_INPUT_EVENTS
    for (int k = ImGuiKey_NamedKey_BEGIN; k < ImGuiKey_NamedKey_END; ++k) {
      const auto key = static_cast<ImGuiKey>(k);
      const bool modifier = key >= ImGuiKey_LeftCtrl && key <= ImGuiKey_RightSuper;  // ImGui::IsLRModKey, which 1.90 lacks
      if (ImGui::IsMouseKey(key) || modifier) continue;  // buttons: above; modifiers do not repeat
      const ImGuiKeyData& data = *ImGui::GetKeyData(key);  // io.KeysData is indexed by version and imconfig
      if (data.Down) held(data.DownDuration);
    }
#else
    for (int k = 0; k < IM_ARRAYSIZE(io.KeysDown); ++k) {
      if (io.KeysDown[k]) held(io.KeysDownDuration[k]);
    }
#endif
  }
  // A payload held over a closed tree node (or anything opening on hover) opens it.
  if (g.DragDropActive && g.HoveredId != 0 && g.HoveredIdTimer < kDragDropHoldToOpen) {
    keep_sooner(out.delay_in, static_cast<double>(kDragDropHoldToOpen - g.HoveredIdTimer));
  }
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
