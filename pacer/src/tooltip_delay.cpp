#include "cadence/imgui_features.hpp"  // before imgui_internal.h: the versions whose internals this reads
#include <imgui_internal.h>

#include <cstring>
#include <functional>

#include "tooltip_delay.hpp"

namespace cadence::detail {
namespace {

/// Identifies the last item: its id when it has one (buttons, inputs), else its rectangle (text).
std::uint64_t last_item_key() {
  const ImGuiID id = ImGui::GetItemID();
  if (id != 0) return id;
  const ImVec2 min = ImGui::GetItemRectMin();
  const ImVec2 max = ImGui::GetItemRectMax();
  std::uint64_t key = 0x9e3779b97f4a7c15ull;
  for (float v : {min.x, min.y, max.x, max.y}) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &v, sizeof bits);
    key = (key ^ bits) * 0x100000001b3ull;
  }
  return key | 1;
}

}  // namespace

bool TooltipDelay::tooltip(WindowRuntime& runtime, Instant frame_start, const char* text) {
  if (!ImGui::IsItemHovered()) return false;
  seen_this_frame_ = true;
  const std::uint64_t key = last_item_key();
  if (key != hovered_) {
    // A new hover: wake once, when the delay has passed (a redraw request is all it does).
    hovered_ = key;
    since_ = frame_start;
    (void)runtime.replace_timer(kTooltipDelayTimer, Timer::once(delay_, [](TimerCallbackInfo&) {
                                  return TimerCallbackReturn::redraw();
                                }));
    return false;
  }
  if (frame_start - since_ < delay_) return false;
  ImGui::SetTooltip("%s", text);
  return true;
}

void TooltipDelay::after_widgets(const FrameHooks& frame) {
  WindowRuntime& runtime = frame.runtime;
  if (!seen_this_frame_ && hovered_ != 0) {
    hovered_ = 0;
    (void)runtime.remove_timer(kTooltipDelayTimer);
  }
  seen_this_frame_ = false;
}

}  // namespace cadence::detail
