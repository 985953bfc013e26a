#include "context_claim.hpp"

#include "cadence/imgui_features.hpp"  // before imgui_internal.h: the versions whose internals this reads
#include <imgui_internal.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

namespace cadence::detail {

struct ContextClaim::Watch {
  std::atomic<bool> gone{false};  // ImGui::DestroyContext ran for the context
  ImGuiID hook = 0;
  ImGuiID new_frame_hook = 0;
  void (*new_frame)(void*) = nullptr;  // on_new_frame()
  void* new_frame_data = nullptr;
};

namespace {

struct Entry {
  const ImGuiContext* context;
  FramePacer* pacer;
};

std::mutex& registry_mutex() {
  static std::mutex m;
  return m;
}

std::vector<Entry>& registry() {
  static std::vector<Entry> entries;
  return entries;
}

void forget(const ImGuiContext* context) {
  std::vector<Entry>& r = registry();
  std::erase_if(r, [&](const Entry& e) { return e.context == context; });
}

std::string pointer_text(const void* p) {
  char text[32];
  std::snprintf(text, sizeof text, "%p", p);
  return text;
}

}  // namespace

Result<std::optional<ContextClaim>> ContextClaim::make(ImGuiContext* context, FramePacer* pacer) {
  if (context == nullptr) {
    return Error{Errc::invalid_argument,
                 "FramePacer::create needs an ImGui context: call ImGui::CreateContext() first and pass what it returns"};
  }
  if (std::strcmp(ImGui::GetVersion(), IMGUI_VERSION) != 0) {
    return Error{Errc::invalid_argument, std::string("cadence was built with Dear ImGui ") + IMGUI_VERSION +
                                             ", but this program links Dear ImGui " + ImGui::GetVersion() +
                                             ": build cadence against the ImGui the app uses (CADENCE_IMGUI_DIR)"};
  }
  {
    const std::lock_guard lock(registry_mutex());
    for (const Entry& e : registry()) {
      if (e.context == context) {
        return Error{Errc::already_exists, "the ImGui context " + pointer_text(context) +
                                               " has a FramePacer already: one pacer per context (destroy the other "
                                               "first, or use FramePacer::of(context) to reach it)"};
      }
    }
    registry().push_back(Entry{context, pacer});
  }
  return std::optional<ContextClaim>(ContextClaim(context, pacer));
}

ContextClaim::ContextClaim(ImGuiContext* context, FramePacer*)
    : context_(context), owner_(std::this_thread::get_id()), watch_(new Watch) {
  ImGuiContextHook hook;
  hook.Type = ImGuiContextHookType_Shutdown;
  hook.UserData = watch_;
  hook.Callback = [](ImGuiContext* ctx, ImGuiContextHook* h) {
    const std::lock_guard lock(registry_mutex());
    static_cast<Watch*>(h->UserData)->gone = true;
    forget(ctx);  // a new context may come at the same address
  };
  watch_->hook = ImGui::AddContextHook(context, &hook);
  ImGuiContextHook new_frame;
  new_frame.Type = ImGuiContextHookType_NewFramePost;
  new_frame.UserData = watch_;
  new_frame.Callback = [](ImGuiContext*, ImGuiContextHook* h) {
    const Watch& w = *static_cast<Watch*>(h->UserData);
    if (w.new_frame != nullptr) w.new_frame(w.new_frame_data);
  };
  watch_->new_frame_hook = ImGui::AddContextHook(context, &new_frame);
}

void ContextClaim::on_new_frame(void (*fn)(void*), void* data) noexcept {
  watch_->new_frame = fn;
  watch_->new_frame_data = data;
}

ContextClaim::ContextClaim(ContextClaim&& other) noexcept
    : context_(other.context_), owner_(other.owner_), watch_(std::exchange(other.watch_, nullptr)) {}

ContextClaim::~ContextClaim() {
  if (watch_ == nullptr) return;  // moved from
  {
    const std::lock_guard lock(registry_mutex());
    if (!watch_->gone) {
      ImGui::RemoveContextHook(context_, watch_->hook);
      ImGui::RemoveContextHook(context_, watch_->new_frame_hook);
      forget(context_);
    }
  }
  delete watch_;
}

FramePacer* ContextClaim::pacer_of(const ImGuiContext* context) noexcept {
  if (context == nullptr) return nullptr;
  const std::lock_guard lock(registry_mutex());
  for (const Entry& e : registry()) {
    if (e.context == context) return e.pacer;
  }
  return nullptr;
}

bool ContextClaim::gone() const noexcept { return watch_->gone; }

std::optional<Error> ContextClaim::refuse(const char* call, bool needs_current) const {
  // Every frame asks: nothing is built unless there is something to say.
  const auto error = [call](Errc code, const char* why) {
    return Error{code, std::string("FramePacer::") + call + ": " + why + "; nothing was done"};
  };
  if (watch_->gone) {
    return error(Errc::closed, "its ImGui context was destroyed (ImGui::DestroyContext) while the pacer lives: "
                               "destroy the pacer first");
  }
  if (std::this_thread::get_id() != owner_) {
    return error(Errc::wrong_thread, "called from another thread than the one that created the pacer: call it on "
                                     "that (UI) thread");
  }
  if (needs_current && ImGui::GetCurrentContext() != context_) {
    return error(Errc::invalid_argument, "the pacer's ImGui context is not the current one: call "
                                         "ImGui::SetCurrentContext(pacer.imgui_context()) first");
  }
  return std::nullopt;
}

}  // namespace cadence::detail
