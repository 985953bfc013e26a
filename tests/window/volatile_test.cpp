// Volatile (volatile.hpp) where ImGui rearranges the draw data: tables merge their columns'
// commands, a list past 65,536 vertices starts new commands, windows begun inside a scope have
// draw lists of their own. Each case: a marked counter must let the window rest, and content
// outside the scope that changes must keep it drawing.
#include <gtest/gtest.h>
#include <imgui.h>

#include "cadence/imgui_features.hpp"

#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "window_fixture.hpp"

namespace cadence::testing {
namespace {

// One window on a manual clock whose body draws `counter`, a value that changes in every
// drawn frame, and calls tail() last in the ImGui window that holds the marked content: with
// `animate`, a progress bar driven by ImGui's time, after the marked content in the same list.
struct Rig {
  ManualClock clock;
  std::vector<AwakeCause> named;
  std::unique_ptr<Window> window;
  std::function<void(unsigned long long counter)> body;
  bool animate = false;

  bool open() {
    WindowOptions o = test_options(&clock);
    o.on_kept_awake = [this](Window&, const AwakeCause& c) { named.push_back(c); };
    window = open_window(std::move(o), [this](Window& w, CallbackContext&) { body(w.stats().frames_drawn); });
    return window != nullptr;
  }
  void tail() const {
    if (animate) ImGui::ProgressBar(static_cast<float>(std::fmod(ImGui::GetTime(), 1.0)));
  }
  int run(Duration d) { return run_for(*window, clock, d); }
  // After start-up: no wake-up in 4 s with the counter marked, then an animation after the
  // marked content draws at the frame interval.
  void expect_rest_then_animation() {
    ASSERT_TRUE(open());
    (void)run(1s);
    EXPECT_EQ(run(4s), 0) << "the marked counter keeps the window awake";
    EXPECT_TRUE(named.empty());
    animate = true;
    window->request_redraw();
    EXPECT_GT(run(1s), 55) << "the animation after the marked content must keep drawing";
  }
};

void table(const Rig& r, unsigned long long counter, int marked_column, bool last_in_cell, ImGuiTableFlags flags) {
  begin_full("Table");
  if (ImGui::BeginTable("t", 2, flags)) {
    for (int c = 0; c < 2; ++c) {
      ImGui::TableNextColumn();
      if (c != marked_column) {
        ImGui::Text("plain %d", c);
        continue;
      }
      if (!last_in_cell) ImGui::Text("before");
      {
        const Volatile v;
        ImGui::Text("cell counter %llu", counter);
      }
      if (!last_in_cell) ImGui::Text("after");
    }
    ImGui::EndTable();
  }
  r.tail();
  ImGui::End();
}

struct TableCase {
  int column;
  bool last_in_cell;
  ImGuiTableFlags flags;
};

class VolatileTableTest : public ::testing::TestWithParam<TableCase> {};

TEST_P(VolatileTableTest, AMarkedCounterInACellRestsAndWhatFollowsTheTableStillDraws) {
  const TableCase tc = GetParam();
  Rig r;
  r.body = [&](unsigned long long n) { table(r, n, tc.column, tc.last_in_cell, tc.flags); };
  r.expect_rest_then_animation();
}

INSTANTIATE_TEST_SUITE_P(Layouts, VolatileTableTest,
                         ::testing::Values(TableCase{0, true, 0}, TableCase{1, true, 0},
                                           TableCase{0, true, ImGuiTableFlags_Borders},
                                           TableCase{1, true, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg},
                                           TableCase{1, false, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg},
                                           TableCase{0, false, 0}, TableCase{0, true, ImGuiTableFlags_ScrollY}));

TEST(VolatileTest, ContentAfterAScopePastSixtyFourThousandVerticesHashesTheSame) {
  Rig r;
  r.body = [&](unsigned long long n) {
    begin_full("Big");
    ImDrawList* list = ImGui::GetWindowDrawList();
    const auto rect = [&](int i, float y, ImU32 colour) {
      const float x = static_cast<float>(i % 400);
      list->AddRectFilled(ImVec2(x, y), ImVec2(x + 1, y + 1), colour);
    };
    {
      const Volatile v;  // 15,000 or 15,200 rectangles: the list passes 65,536 vertices at a moving point
      for (int i = 0; i < 15000 + static_cast<int>(n % 2) * 200; ++i) rect(i, 10, IM_COL32_WHITE);
    }
    for (int i = 0; i < 2000; ++i) rect(i, 50, IM_COL32(255, 0, 0, 255));
    r.tail();
    ImGui::End();
  };
  r.expect_rest_then_animation();
}

TEST(VolatileTest, AScopeAroundAChildWindowMarksAllOfIt) {
  Rig r;
  r.body = [&](unsigned long long n) {
    begin_full("Parent");
    ImGui::Text("still");
    {
      const Volatile v;
      ImGui::BeginChild("kid", ImVec2(200, 60), true);
      ImGui::Text("child counter %llu", n);
      ImGui::EndChild();
    }
    r.tail();
    ImGui::End();
  };
  r.expect_rest_then_animation();
}

TEST(VolatileTest, AScopeAroundAnotherWindowMarksAllOfIt) {
  Rig r;
  r.body = [&](unsigned long long n) {
    begin_full("A");
    {
      const Volatile v;
      ImGui::SetNextWindowPos(ImVec2(50, 50));
      ImGui::SetNextWindowSize(ImVec2(200, 80));
      ImGui::Begin("B");
      ImGui::Text("B counter %llu", n);
      ImGui::End();
    }
    ImGui::Text("still");
    r.tail();
    ImGui::End();
  };
  r.expect_rest_then_animation();
}

TEST(VolatileTest, AScopeOutsideAnyWindowShowsNoWindowOfItsOwn) {
  Rig r;
  r.body = [&](unsigned long long) {
    { const Volatile top; }
    begin_full("Main");
    ImGui::Text("x");
    ImGui::End();
  };
  ASSERT_TRUE(r.open());
  (void)settle(*r.window, r.clock);
  ImGui::SetCurrentContext(r.window->imgui_context());
  const ImDrawData* data = ImGui::GetDrawData();
  ASSERT_NE(data, nullptr);
  for (const ImDrawList* list : detail::draw_lists(*data)) {
    EXPECT_EQ(std::string(list->_OwnerName), "Main") << "ImGui's implicit Debug window is shown";
  }
  ImGui::SetCurrentContext(nullptr);
}

TEST(VolatileTest, AScopeEndedBetweenFramesAddsNothingToTheLastFrame) {
  Rig r;
  std::unique_ptr<Volatile> held;
  r.body = [&](unsigned long long) {
    begin_full("A");
    if (!held) held = std::make_unique<Volatile>();
    ImGui::Text("x");
    ImGui::End();
  };
  ASSERT_TRUE(r.open());
  (void)settle(*r.window, r.clock);
  ImGui::SetCurrentContext(r.window->imgui_context());
  const ImDrawList* list = *detail::draw_lists(*ImGui::GetDrawData()).begin();
  const int commands = list->CmdBuffer.Size;
  const int vertices = list->VtxBuffer.Size;
  held.reset();
  EXPECT_EQ(list->CmdBuffer.Size, commands);
  EXPECT_EQ(list->VtxBuffer.Size, vertices);
  ImGui::SetCurrentContext(nullptr);
}

}  // namespace
}  // namespace cadence::testing
