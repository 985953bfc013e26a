#include "imgui_version.hpp"  // before imgui_internal.h: the versions whose internals this reads
#include <imgui_internal.h>

#include "cadence/volatile.hpp"
#include "draw_hash.hpp"

namespace cadence {

Volatile::Volatile() {
  const ImGuiContext* g = ImGui::GetCurrentContext();
  if (g == nullptr || !g->WithinFrameScope) return;
  list_ = ImGui::GetWindowDrawList();
  list_->AddCallback(&detail::volatile_begin, nullptr);
}

Volatile::~Volatile() {
  if (list_ != nullptr) list_->AddCallback(&detail::volatile_end, nullptr);
}

}  // namespace cadence
