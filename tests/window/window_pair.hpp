// Two windows on one ManualClock for differential tests: the event-driven window under test and
// a reference that draws at every instant of a 16 ms frame grid, as a render-every-frame app
// does (settle check off, a redraw asked for each grid instant). Input reaches both at the same
// instants. The reference for every visual promise: what ImGui shows drawing every frame.
#pragma once
#include <gtest/gtest.h>
#include <imgui.h>

#include "cadence/imgui_features.hpp"  // before imgui_internal.h
#include <imgui_internal.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "window_fixture.hpp"

namespace cadence::testing {

constexpr Duration kGrid = 16ms;

// Draw function given the window and 0 (live) or 1 (every-frame reference).
using PairDraw = std::function<void(Window&, CallbackContext&, int)>;

class Pair {
 public:
  explicit Pair(PairDraw draw, int width = 480, int height = 320,
                std::function<void(WindowOptions&)> tweak = {}) : draw_(std::move(draw)) {
    WindowOptions a = test_options(&clock_, width, height);
    WindowOptions b = test_options(&clock_, width, height);
    b.settle_frames = false;
    if (tweak) { tweak(a); tweak(b); }
    live_ = open_window(a, [this](Window& w, CallbackContext& c) { draw_(w, c, 0); });
    every_ = open_window(b, [this](Window& w, CallbackContext& c) { draw_(w, c, 1); });
    t0_ = clock_.now();
    if (!ok()) return;
    // Both see the same pointer from the start: an injected one, outside them until a test
    // moves it. The display's own pointer sits wherever it is, perhaps over one window only
    // (SDL centres its windows, and ImGui's SDL2 backend reads the pointer of a focused window).
    for (Window* w : {live_.get(), every_.get()}) w->inject_mouse_position(-100, -100);
    step_instant();
  }
  bool ok() const { return live_ && every_; }
  Window& live() { return *live_; }
  Window& every() { return *every_; }
  Window& win(int i) { return i == 0 ? *live_ : *every_; }
  ManualClock& clock() { return clock_; }
  Duration now() const { return clock_.now() - t0_; }
  std::vector<Duration> live_frame_times;  // instants of the live window's drawn frames

  void run_to(Duration t) {
    for (int guard = 0; guard < 1'000'000; ++guard) {
      const Duration live_at = now() + live_->next_wake().value_or(1h);
      const Duration grid_at = (now() / kGrid + 1) * kGrid;
      const Duration next = std::min({live_at, grid_at, t});
      if (next >= t) break;
      (void)clock_.advance(next - now());
      step_instant();
    }
    (void)clock_.advance(t - now());
    at_instant_ = false;
  }
  void input_at(Duration t, const std::function<void(Window&)>& input) {
    run_to(t);
    input(*live_);
    input(*every_);
    step_instant();
  }
  // Runs to t, runs its frames, returns the number of differing pixels.
  int compare_at(Duration t, const std::string& what, bool expect_same = true) {
    run_to(t);
    step_instant();
    return compare_now(what, expect_same);
  }
  int compare_now(const std::string& what, bool expect_same = true) {
    int lw = 0, lh = 0, ew = 0, eh = 0;
    const auto a = live_->read_pixels(lw, lh);
    const auto b = every_->read_pixels(ew, eh);
    if (lw != ew || lh != eh) { ADD_FAILURE() << "sizes differ"; return -1; }
    int differ = 0, x0 = lw, y0 = lh, x1 = -1, y1 = -1;
    for (int y = 0; y < lh; ++y)
      for (int x = 0; x < lw; ++x) {
        const std::size_t i = (static_cast<std::size_t>(y) * static_cast<std::size_t>(lw) + static_cast<std::size_t>(x)) * 4;
        if (a[i] != b[i] || a[i + 1] != b[i + 1] || a[i + 2] != b[i + 2]) {
          ++differ;
          x0 = std::min(x0, x), y0 = std::min(y0, y), x1 = std::max(x1, x), y1 = std::max(y1, y);
        }
      }
    if (expect_same) {
      EXPECT_EQ(differ, 0) << what << " at " << now().count() / 1000 << " us: " << differ << " pixels differ in [" << x0
                           << "," << y0 << "]-[" << x1 << "," << y1 << "]";
    }
    return differ;
  }
  void step_instant() {
    for (int i = 0; i < 100 && live_->next_wake() == Duration::zero(); ++i) {
      const auto before = live_->stats().frames_drawn;
      live_->frame();
      if (live_->stats().frames_drawn != before) live_frame_times.push_back(now());
    }
    if (live_->next_wake() == Duration::zero()) ADD_FAILURE() << "100 frames at one instant: the window spins";
    if (now() % kGrid == Duration::zero() && !(at_instant_ && every_drawn_at_ == now())) {
      every_->request_redraw();
      every_->frame();
      every_drawn_at_ = now();
    }
    at_instant_ = true;
  }

 private:
  ManualClock clock_;
  PairDraw draw_;
  std::unique_ptr<Window> live_, every_;
  Instant t0_;
  Duration every_drawn_at_{-1};
  bool at_instant_ = false;
};

// Whether the last frame drew the active text field's caret, by ImGui's own rule on the phase it
// drew with (imgui_widgets.cpp: shown when CursorAnim <= 0 or fmod(CursorAnim, 1.2) <= 0.8).
// ImGui alone resets the phase on every edit, so it keeps the caret shown while a held key edits.
inline bool caret_shown(const Window& w) {
  const ImGuiContext& g = *w.imgui_context();
  if (g.ActiveId == 0 || g.InputTextState.ID != g.ActiveId) return false;
  const float anim = g.InputTextState.CursorAnim;
  return anim <= 0.0f || std::fmod(anim, 1.20f) <= 0.80f;
}

// An arrow button that repeats while held, as each ImGui version spells it.
inline bool repeating_arrow_button(const char* id, ImGuiDir dir) {
#if CADENCE_IMGUI_BUTTON_REPEAT_ITEM_FLAG
  ImGui::PushItemFlag(ImGuiItemFlags_ButtonRepeat, true);
#else
  ImGui::PushButtonRepeat(true);
#endif
  const bool pressed = ImGui::ArrowButton(id, dir);
#if CADENCE_IMGUI_BUTTON_REPEAT_ITEM_FLAG
  ImGui::PopItemFlag();
#else
  ImGui::PopButtonRepeat();
#endif
  return pressed;
}

inline void move_to(Window& w, ImVec2 p) { w.inject_mouse_position(p.x, p.y); }

}  // namespace cadence::testing
