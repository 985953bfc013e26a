#include "cadence/imgui_features.hpp"  // before imgui_internal.h: the versions whose internals this reads
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
  // Only inside a frame (g->CurrentWindow is then at least ImGui's implicit "Debug" window).
  if (g == nullptr || !g->WithinFrameScope || g->CurrentWindow == nullptr) return;
  detail::VolatileMarks* marks = marks_of(g);
  if (marks == nullptr) return;
  context_ = g;
  frame_ = g->FrameCount;
  windows_begun_ = g->WindowsActiveCount;
  // Every window begun in this frame so far may be drawn into inside the scope: the current one,
  // and one that a Begin() inside the scope appends to. Each list's count now is where the
  // scope's part of it starts. A window not begun yet is reset by its first Begin(): that one is
  // the scope's as a whole (below).
  std::vector<detail::VolatileMarks::Start>& starts = marks->starts();
  first_start_ = starts.size();
  for (const ImGuiWindow* w : g->Windows) {
    if (w->LastFrameActive == g->FrameCount) starts.push_back({w->DrawList, static_cast<unsigned>(w->DrawList->VtxBuffer.Size)});
  }
  starts_ = starts.size() - first_start_;
}

Volatile::~Volatile() {
  if (context_ == nullptr) return;
  ImGuiContext* g = ImGui::GetCurrentContext();
  if (g != context_ || !g->WithinFrameScope || g->FrameCount != frame_) return;  // not in the frame it began in
  detail::VolatileMarks* marks = marks_of(g);
  if (marks == nullptr) return;  // the pacer went meanwhile
  const std::vector<detail::VolatileMarks::Start>& starts = marks->starts();
  // Its own entries: they stay until the frame ends, so that scopes may end in any order.
  if (starts.size() < first_start_ + starts_) return;  // cleared meanwhile: nothing of this scope's is left
  for (std::size_t i = first_start_; i < first_start_ + starts_; ++i) {
    marks->add_range(starts[i].list, starts[i].vertices, static_cast<unsigned>(starts[i].list->VtxBuffer.Size));
  }
  if (g->WindowsActiveCount == windows_begun_) return;
  for (const ImGuiWindow* w : g->Windows) {
    if (w->LastFrameActive == g->FrameCount && w->BeginOrderWithinContext >= windows_begun_) marks->add_list(w->DrawList);
  }
}

}  // namespace cadence
