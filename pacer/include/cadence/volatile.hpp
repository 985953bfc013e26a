// cadence/volatile.hpp: marks content that changes with every drawn frame, so that it does not
// keep a window drawing.
#pragma once

#include "cadence/export.hpp"

struct ImDrawList;

namespace cadence {

/// Marks what the app draws from here to the end of the scope as volatile: values that change
/// with every drawn frame rather than with time or input (a frame counter, io.Framerate, how
/// long the last frame took). Their changes do not keep the window drawing (the settle check
/// leaves them out); they are drawn, up to date, in every frame something else draws. For
/// content that changes with time (a plot of ImGui::GetTime(), a progress bar) do not use it:
/// that must keep drawing. The frame-rate line of Dear ImGui's examples, in one line:
///
///     { const cadence::Volatile fps; ImGui::Text("%.1f FPS", ImGui::GetIO().Framerate); }
///
/// Begin and end a scope in the same ImGui window (and table cell); scopes may nest. Outside an
/// ImGui frame it does nothing. It works in any ImGui app (two draw callbacks that draw nothing
/// mark the content), and does nothing where no FramePacer hashes the frames. Thread: the
/// ImGui context's. Cost: two empty draw commands.
class CADENCE_PACER_API Volatile {
 public:
  Volatile();
  ~Volatile();
  Volatile(const Volatile&) = delete;
  Volatile& operator=(const Volatile&) = delete;

 private:
  ImDrawList* list_ = nullptr;  // the ImGui window's draw list the scope began in
};

}  // namespace cadence
