#include "imgui_timing.hpp"

#include "imgui_version.hpp"  // before imgui_internal.h: the versions whose internals this reads
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>

namespace cadence::detail {
namespace {

// ImGui's hold-to-open delay for drag and drop (DRAGDROP_HOLD_TO_OPEN_TIMER, private to
// imgui_widgets.cpp): 0.70 s in 1.86 and 1.92.
constexpr float kDragDropHoldToOpen = 0.70f;

// A held mouse button repeats (IsMouseClicked with repeat) at half io.KeyRepeatRate in 1.86, at
// the full rate in 1.92.
constexpr float kMouseRepeatRateScale = IMGUI_VERSION_NUM < 19000 ? 0.5f : 1.0f;

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
#if IMGUI_VERSION_NUM >= 18700
    for (int k = ImGuiKey_NamedKey_BEGIN; k < ImGuiKey_NamedKey_END; ++k) {
      const auto key = static_cast<ImGuiKey>(k);
      if (ImGui::IsMouseKey(key) || ImGui::IsLRModKey(key)) continue;  // buttons: above; modifiers do not repeat
      const ImGuiKeyData& data = io.KeysData[k - ImGuiKey_NamedKey_BEGIN];
      if (data.Down) keep_sooner(out.repeat_in, repeat_after(data.DownDuration, io.KeyRepeatDelay, io.KeyRepeatRate));
    }
#else
    for (int k = 0; k < IM_ARRAYSIZE(io.KeysDown); ++k) {
      if (io.KeysDown[k]) keep_sooner(out.repeat_in, repeat_after(io.KeysDownDuration[k], io.KeyRepeatDelay, io.KeyRepeatRate));
    }
#endif
  }
  // A payload held over a closed tree node (or anything opening on hover) opens it.
  if (g.DragDropActive && g.HoveredId != 0 && g.HoveredIdTimer < kDragDropHoldToOpen) {
    keep_sooner(out.delay_in, static_cast<double>(kDragDropHoldToOpen - g.HoveredIdTimer));
  }
#if IMGUI_VERSION_NUM >= 19000
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
