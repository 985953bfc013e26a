#include "imgui_version.hpp"  // before imgui_internal.h: the versions whose internals this reads
#include <imgui_internal.h>

#include "cadence/volatile.hpp"
#include "frame_pacer_impl.hpp"

namespace cadence {
namespace {

// The marks of the pacer of `g`, or nullptr when it has none.
detail::VolatileMarks* marks_of(ImGuiContext* g) {
  FramePacer* pacer = FramePacer::of(g);
  return pacer != nullptr ? &FramePacer::Impl::of(*pacer).marks : nullptr;
}

}  // namespace

Volatile::Volatile() {
  ImGuiContext* g = ImGui::GetCurrentContext();
  // g->CurrentWindow, not ImGui::GetWindowDrawList(): that would mark ImGui's implicit
  // "Debug" window as used, and show it, for a scope outside any Begin.
  if (g == nullptr || !g->WithinFrameScope || g->CurrentWindow == nullptr || FramePacer::of(g) == nullptr) return;
  context_ = g;
  list_ = g->CurrentWindow->DrawList;
  frame_ = g->FrameCount;
  first_vertex_ = static_cast<unsigned>(list_->VtxBuffer.Size);
  windows_begun_ = g->WindowsActiveCount;
}

Volatile::~Volatile() {
  if (context_ == nullptr) return;
  ImGuiContext* g = ImGui::GetCurrentContext();
  if (g != context_ || !g->WithinFrameScope || g->FrameCount != frame_) return;  // not in the frame it began in
  detail::VolatileMarks* marks = marks_of(g);
  if (marks == nullptr) return;  // the pacer went meanwhile
  marks->add_range(list_, first_vertex_, static_cast<unsigned>(list_->VtxBuffer.Size));
  if (g->WindowsActiveCount == windows_begun_) return;
  for (const ImGuiWindow* w : g->Windows) {
    if (w->LastFrameActive == g->FrameCount && w->BeginOrderWithinContext >= windows_begun_) marks->add_list(w->DrawList);
  }
}

}  // namespace cadence
