#include "stats_panel.hpp"

#include <imgui.h>
#include <sys/resource.h>

#include <algorithm>
#include <cinttypes>
#include <vector>

namespace demo {

std::chrono::duration<double> process_cpu_time() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; };
  return std::chrono::duration<double>(seconds(usage.ru_utime) + seconds(usage.ru_stime));
}

void StatsPanel::draw(const cadence::EventLoop& loop, const cadence::Window& window, const std::deque<float>& app_lateness_ms) {
  // Rates over windows of at least two seconds, measured between drawn frames.
  const auto now = Clock::now();
  if (!started_) {
    started_ = true;
    window_start_ = now;
    wakeups_at_start_ = loop.stats().wakeups;
    cpu_at_start_ = process_cpu_time();
  }
  const double elapsed = std::chrono::duration<double>(now - window_start_).count();
  if (elapsed >= 2.0) {
    wakeups_per_second_ = static_cast<double>(loop.stats().wakeups - wakeups_at_start_) / elapsed;
    cpu_percent_ = 100.0 * (process_cpu_time() - cpu_at_start_).count() / elapsed;
    window_start_ = now;
    wakeups_at_start_ = loop.stats().wakeups;
    cpu_at_start_ = process_cpu_time();
  }
  const cadence::WindowStats& s = window.stats();
  {
    // Counters that change in every frame they are drawn in: volatile, so showing them does not
    // keep the window drawing (they are up to date whenever anything else draws).
    const cadence::Volatile live;
    ImGui::Text("wake-ups: %.1f /s   frames drawn: %" PRIu64 "   CPU: %.2f %% of a core", wakeups_per_second_,
                s.frames_drawn, cpu_percent_);
    ImGui::Text("loop wake-ups: %" PRIu64 "   frames run: %" PRIu64 "   failures: %" PRIu64, loop.stats().wakeups,
                s.frames_run, s.failures);
    const cadence::WakeReasons& why = s.wakes;
    ImGui::Text("frames by why they ran: timer %" PRIu64 ", worker %" PRIu64 ", input %" PRIu64 ", redraw %" PRIu64
                ", settle %" PRIu64 ", none %" PRIu64,
                why.timer, why.worker, why.input, why.redraw, why.settle, why.none);
  }
  // Try it: a frame counter that is not marked keeps the window drawing at the frame rate, and
  // after 3 s the window names it (WindowStats::kept_awake, and a message on stderr).
  ImGui::Checkbox("show an unmarked frame counter", &unmarked_counter_);
  if (unmarked_counter_) {
    ImGui::SameLine();
    ImGui::Text("frames drawn: %" PRIu64, s.frames_drawn);
  }
  if (s.kept_awake) {
    ImGui::TextColored(ImVec4(0.95f, 0.65f, 0.3f, 1.0f), "kept awake by ImGui window \"%s\": \"%s\" (%.0f frames in %.1f s)",
                       s.kept_awake->imgui_window.c_str(), s.kept_awake->text.c_str(),
                       static_cast<double>(s.kept_awake->frames), std::chrono::duration<double>(s.kept_awake->over).count());
  } else {
    ImGui::TextDisabled("nothing has kept the window awake");
  }
  std::vector<float> lateness(s.caret_lateness_ms.begin(), s.caret_lateness_ms.end());
  lateness.insert(lateness.end(), app_lateness_ms.begin(), app_lateness_ms.end());
  std::vector<float> sorted = lateness;
  std::sort(sorted.begin(), sorted.end());
  const auto at = [&](double p) {
    return sorted.empty() ? 0.0 : static_cast<double>(sorted[static_cast<std::size_t>(p * static_cast<double>(sorted.size() - 1))]);
  };
  ImGui::Text("timer lateness (caret and app timers, last %zu runs): median %.2f ms, p99 %.2f ms, worst %.2f ms",
              lateness.size(), at(0.5), at(0.99), at(1.0));
  // One bar per run, 0 to 2 ms tall (longer runs are clipped and drawn red).
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = ImGui::GetContentRegionAvail().x;
  constexpr float kHeight = 60.0f;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddRectFilled(origin, ImVec2(origin.x + width, origin.y + kHeight), ImGui::GetColorU32(ImGuiCol_FrameBg));
  const float bar = lateness.empty() ? 0.0f : std::min(12.0f, width / static_cast<float>(lateness.size()));
  for (std::size_t i = 0; i < lateness.size(); ++i) {
    const float v = lateness[i];
    const float h = kHeight * std::clamp(v / 2.0f, 0.02f, 1.0f);
    const float x = origin.x + static_cast<float>(i) * bar;
    draw->AddRectFilled(ImVec2(x, origin.y + kHeight - h), ImVec2(x + std::max(1.0f, bar - 1.0f), origin.y + kHeight),
                        v > 2.0f ? IM_COL32(230, 90, 80, 255) : ImGui::GetColorU32(ImGuiCol_PlotHistogram));
  }
  ImGui::Dummy(ImVec2(width, kHeight));
  ImGui::TextDisabled("lateness of each timer run, 0-2 ms (red: over 2 ms)");
}

}  // namespace demo
