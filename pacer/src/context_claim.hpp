// One pacer per ImGui context, used on the thread that made it, while the context lives. The
// claim registers the pacer for FramePacer::of(), and watches for ImGui::DestroyContext through
// a context hook, so that a pacer that outlives its context refuses to touch it instead of
// reading freed memory. Private to cadence::pacer.
#pragma once

#include <optional>
#include <thread>

#include "cadence/result.hpp"

struct ImGuiContext;

namespace cadence {
class FramePacer;
}

namespace cadence::detail {

class ContextClaim {
 public:
  /// Claims `context` for `pacer`. Errors: invalid_argument for a null context or one whose
  /// ImGui library is another version than the one cadence was built with; already_exists for
  /// a context another pacer holds. Takes nothing on error.
  static Result<std::optional<ContextClaim>> make(ImGuiContext* context, FramePacer* pacer);

  ContextClaim(ContextClaim&& other) noexcept;
  ContextClaim(const ContextClaim&) = delete;
  ContextClaim& operator=(const ContextClaim&) = delete;
  ContextClaim& operator=(ContextClaim&&) = delete;
  /// Releases the context (and its hook, if the context still lives).
  ~ContextClaim();

  /// The pacer that holds `context`, or nullptr. Thread: any. O(pacers).
  static FramePacer* pacer_of(const ImGuiContext* context) noexcept;

  /// Why `call` must not act now: the context was destroyed, the caller is not the thread that
  /// made the pacer, or (`needs_current`) the context is not ImGui's current one. nullopt when
  /// it may. O(1).
  std::optional<Error> refuse(const char* call, bool needs_current) const;
  /// True once ImGui::DestroyContext ran for the context. O(1).
  bool gone() const noexcept;
  /// Runs `fn(data)` from the context's NewFramePost hook, which the claim added when it was
  /// made: at the end of ImGui::NewFrame, before the widgets that hooks added later draw (tools
  /// draw into an app's frames from there). O(1).
  void on_new_frame(void (*fn)(void*), void* data) noexcept;

 private:
  ContextClaim(ImGuiContext* context, FramePacer* pacer);
  ImGuiContext* context_;
  std::thread::id owner_;
  struct Watch;  // what the context's shutdown hook sets; shared with the registry
  Watch* watch_;
};

}  // namespace cadence::detail
