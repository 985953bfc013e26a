// cadence/volatile.hpp: marks content that changes with every drawn frame, so that it does not
// keep a window drawing.
#pragma once

#include <cstddef>

#include "cadence/export.hpp"

struct ImDrawList;
struct ImGuiContext;

namespace cadence {

/// Marks what the app draws from here to the end of the scope as volatile: values that change
/// with every drawn frame rather than with time or input (a frame counter, io.Framerate, how
/// long the last frame took). Their changes do not keep the window drawing (the settle check
/// leaves them out); they are drawn, up to date, in every frame something else draws. For
/// content that changes with time (a plot of ImGui::GetTime(), a progress bar) do not use it:
/// that must keep drawing. What a marked value does to the layout around it still counts: text
/// after it on the same line that moves as the value's width changes keeps the window drawing
/// (give the value a fixed width, or put it last on its line). The frame-rate line of Dear
/// ImGui's examples, in one line:
///
///     { const cadence::Volatile fps; ImGui::Text("%.1f FPS", ImGui::GetIO().Framerate); }
///
/// What it marks: everything drawn from the scope's start to its end into the ImGui windows of
/// the frame: the current one (in any table cell or column), one begun earlier in the frame
/// that a Begin() inside the scope appends to, and all of every ImGui window first begun inside
/// the scope (a child window, a popup, a tooltip). Scopes may nest, or overlap and end in any
/// order. It adds nothing to the draw data.
/// Thread: the ImGui context's; not checked.
/// Where: an ImGui frame of a paced context; elsewhere, or ended in another frame, it marks nothing.
/// Errors: none.
/// Cost: a lock and a lookup among the live pacers, and a pass over ImGui's windows, at each end.
class CADENCE_PACER_API Volatile {
 public:
  Volatile();
  ~Volatile();
  Volatile(const Volatile&) = delete;
  Volatile& operator=(const Volatile&) = delete;

 private:
  ImGuiContext* context_ = nullptr;  // the ImGui context of the frame the scope began in, if paced
  int frame_ = 0;                    // that frame's number (ImGui's FrameCount)
  int windows_begun_ = 0;            // ImGui windows begun in the frame when the scope began
  std::size_t first_start_ = 0;      // where its lists' vertex counts start in the pacer's list of them
  std::size_t starts_ = 0;           // how many it has there
};

}  // namespace cadence
