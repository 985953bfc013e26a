// FramePacer::Impl: what a pacer holds, shared by the pacer's source files.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "awake_watch.hpp"
#include "cadence/frame_pacer.hpp"
#include "context_claim.hpp"
#include "draw_hash.hpp"
#include "pacing_rules.hpp"
#include "system_timer_list.hpp"
#include "volatile_marks.hpp"

namespace cadence {

struct FramePacer::Impl {
  Impl(ImGuiContext* context, PacerOptions o, detail::ContextClaim c)
      : claim(std::move(c)),
        options(std::move(o)),
        imgui(context),
        timers(options, stats),
        caret(timers.get<detail::CaretBlink>()) {
    frame_start = runtime->now();
  }

  /// The system timers' hooks before the widgets, from the claim's NewFramePost hook: before any
  /// widget, the ones that hooks added after the pacer draw included. Once per new_frame().
  void before_widgets() {
    if (!std::exchange(widgets_pending, false)) return;
    timers.before_widgets(detail::FrameHooks{*runtime, frame_start, ImGui::GetIO()});
  }

  /// The pacer's Impl, for the pacer's own files (Volatile).
  static Impl& of(FramePacer& pacer) noexcept { return *pacer.impl_; }

  detail::ContextClaim claim;  // first: released last
  PacerOptions options;
  ImGuiContext* imgui;
  WindowStats stats;
  detail::PaceState pace;
  bool building = false;       // between begin() that drew and render()
  bool widgets_pending = false;  // new_frame() called ImGui::NewFrame: its NewFramePost hook is next
  bool hidden_pending = false;  // set_hidden from inside the runtime's frame: applied right after it
  bool want_hidden = false;     // what set_hidden asked last
  bool redraw_all_asked = false;
  bool failure_owed = false;       // a failure owes the next frame
  bool drawn_for_failure = false;  // the frame being drawn was owed to a failure
  detail::Iteration iteration;     // what begin() decided, for render()
  detail::VolatileMarks marks;  // what this frame's Volatile scopes marked
  std::optional<std::uint64_t> last_hash;
  std::vector<detail::ListHash> list_hashes;  // per draw list, of the last drawn frame
  detail::AwakeWatch awake;
  std::optional<Instant> last_drawn;
  Instant frame_start;

  detail::SystemTimers timers;
  detail::CaretBlink& caret;  // the pacer asks it about toggles

  // Declared after what its timers' callbacks point at, so that it goes first: its threads are
  // stopped and its timers gone before anything else goes.
  std::unique_ptr<WindowRuntime> runtime =
      std::make_unique<WindowRuntime>(options.time_source.value_or(TimeSource::system()), options.runtime);
  ChangeSet ui_changes;  // what the app changes through context(), applied in render()
  std::optional<CallbackContext> ui_context;

  /// Passes a frame's failures on and owes the frames its redraw request and its failures ask
  /// for. `from_draw`: the report of the app's own changes in a drawn frame.
  void report(const ApplyReport& r, bool from_draw);
  void pass_failure(const Failure& f);
  void report_kept_awake(const AwakeCause& cause);
  void apply_hidden();
  void plan_next_frames(bool changed);
  /// Whether the app skipped the frame begin() said to draw: no new_frame(), or ImGui's frame
  /// ended without render(). Not while it is being built. O(1).
  bool frame_skipped() const;
  /// Whether `call` may act now (the context lives, the owner thread, the context current if
  /// `needs_current`); if not, says why (on_failure on the owner thread, else stderr).
  bool allowed(const char* call, bool needs_current);
};

}  // namespace cadence
