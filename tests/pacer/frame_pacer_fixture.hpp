// FramePacerTest: a FramePacer on a real ImGui context with no window, no renderer, no display,
// and a loop that sleeps as the pacer says on a manual clock and builds the frames it asks for.
#pragma once

#include "cadence/frame_pacer.hpp"

#include <gtest/gtest.h>
#include <imgui.h>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "cadence/manual_clock.hpp"

namespace cadence::testing {

using namespace std::chrono_literals;

// An ImGui context that needs no backend: a display size and a built font atlas.
class Headless {
 public:
  Headless() : context_(ImGui::CreateContext()) {
    ImGui::SetCurrentContext(context_);
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(480, 320);
    io.ConfigInputTextCursorBlink = true;
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  }
  ~Headless() { ImGui::DestroyContext(context_); }
  Headless(const Headless&) = delete;
  Headless& operator=(const Headless&) = delete;
  ImGuiContext* context() const { return context_; }

 private:
  ImGuiContext* context_;
};

class FramePacerTest : public ::testing::Test {
 protected:
  std::unique_ptr<FramePacer> make(PacerOptions o = {}) {
    o.time_source = clock.source();
    o.runtime.frame_interval = 16ms;
    auto p = FramePacer::create(imgui.context(), std::move(o));
    EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error().message);
    return p.ok() ? std::move(*p) : nullptr;
  }

  // A pacer whose kept-awake reports go to `named`.
  std::unique_ptr<FramePacer> make_naming() {
    PacerOptions o;
    o.on_kept_awake = [this](const AwakeCause& c) { named.push_back(c); };
    return make(std::move(o));
  }

  // Runs the loop until `until` from now: sleeps as the pacer says (jumping the clock), builds
  // each frame it asks for with `widgets`. Returns the instants of the drawn frames.
  std::vector<Instant> run(FramePacer& pacer, Duration until, const std::function<void()>& widgets) {
    std::vector<Instant> drawn;
    const Instant end = clock.now() + until;
    for (;;) {
      const std::optional<Duration> wake = pacer.next_wake();
      if (!wake || clock.now() + *wake > end) break;
      (void)clock.advance(*wake);
      if (pacer.begin() == FrameKind::none) continue;
      drawn.push_back(clock.now());
      pacer.new_frame();
      widgets();
      pacer.render();
    }
    (void)clock.set(end);
    return drawn;
  }

  ManualClock clock;
  Headless imgui;
  std::vector<AwakeCause> named;  // what make_naming()'s pacer reported
};

inline void window(const char* name, const std::function<void()>& body) {
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(ImVec2(480, 320));
  ImGui::Begin(name, nullptr, ImGuiWindowFlags_NoDecoration);
  body();
  ImGui::End();
}

}  // namespace cadence::testing
