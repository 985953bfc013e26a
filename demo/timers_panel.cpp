#include "timers_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cinttypes>

namespace demo {

using namespace cadence;

Timer TimersPanel::counting(Entry& entry) {
  // The callback captures app state (the entry and the lateness log) and runs on the UI thread.
  const WhenHidden policies[] = {WhenHidden::keep_running(), WhenHidden::pause(), WhenHidden::throttle(std::chrono::seconds(1))};
  return Timer([this, &entry](TimerCallbackInfo& info) {
    ++entry.calls;
    lateness_ms_.push_back(std::chrono::duration<float, std::milli>(info.frame_start - info.due).count());
    if (lateness_ms_.size() > WindowStats::kLatenessSamples) lateness_ms_.pop_front();
    return TimerCallbackReturn::redraw();
  }).with_owner(kPanel).with_when_hidden(policies[when_hidden_]);
}

void TimersPanel::add(CallbackContext& ctx, std::string kind, Timer timer) {
  const TimerId id = TimerId::unique();
  if (ctx.add_timer(id, std::move(timer)).ok()) {
    entries_.back()->id = id;
    entries_.back()->kind = std::move(kind);
  } else {
    entries_.pop_back();
  }
}

void TimersPanel::add_examples(CallbackContext& ctx) {
  entries_.push_back(std::make_unique<Entry>());
  add(ctx, "every 250 ms", counting(*entries_.back()).with_delay(std::chrono::milliseconds(250)).with_interval(std::chrono::milliseconds(250)));
  entries_.push_back(std::make_unique<Entry>());
  add(ctx, "once after 1 s", counting(*entries_.back()).with_delay(std::chrono::seconds(1)).with_timeout(std::chrono::seconds(1)));
}

void TimersPanel::draw(WindowRuntime& runtime, CallbackContext& ctx) {
  ImGui::SetNextItemWidth(140);
  ImGui::Combo("kind", &kind_, "one-shot\0interval\0interval + timeout\0");
  ImGui::SetNextItemWidth(100);
  ImGui::InputInt("delay ms", &delay_ms_, 50);
  if (kind_ >= 1) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(100);
    ImGui::InputInt("interval ms", &interval_ms_, 50);
  }
  if (kind_ == 2) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(100);
    ImGui::InputInt("timeout ms", &timeout_ms_, 100);
  }
  ImGui::SetNextItemWidth(200);
  ImGui::Combo("when minimized", &when_hidden_, "keep running\0pause\0throttle to 1/s\0");
  if (ImGui::Button("Add timer")) {
    entries_.push_back(std::make_unique<Entry>());
    Timer t = counting(*entries_.back()).with_delay(std::chrono::milliseconds(delay_ms_));
    std::string kind;
    if (kind_ == 0) {
      t.with_timeout(std::chrono::milliseconds(delay_ms_));
      kind = "once after " + std::to_string(delay_ms_) + " ms";
      if (when_hidden_ == 2) t.with_when_hidden(WhenHidden::keep_running());  // throttling needs an interval
    } else {
      t.with_interval(std::chrono::milliseconds(interval_ms_));
      kind = "every " + std::to_string(interval_ms_) + " ms";
      if (kind_ == 2) {
        t.with_timeout(std::chrono::milliseconds(timeout_ms_));
        kind += ", for " + std::to_string(timeout_ms_) + " ms";
      }
    }
    // Bad knobs (a negative delay, a timeout shorter than the delay) are refused with a message.
    if (Status s = t.validate(); !s) {
      entries_.pop_back();
      ImGui::OpenPopup("refused");
      refused_ = s.error().message;
    } else {
      add(ctx, std::move(kind), std::move(t));
    }
  }
  ImGui::SameLine();
  // Every timer of the panel's widget, in one call each.
  if (ImGui::Button("pause all")) (void)ctx.pause_timers_of(kPanel);
  ImGui::SameLine();
  if (ImGui::Button("resume all")) (void)ctx.resume_timers_of(kPanel);
  ImGui::SameLine();
  if (ImGui::Button("remove all")) (void)ctx.remove_timers_of(kPanel);
  if (ImGui::BeginPopup("refused")) {
    ImGui::TextUnformatted(refused_.c_str());
    ImGui::EndPopup();
  }
  if (ImGui::BeginTable("timers", 6, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg)) {
    ImGui::TableSetupColumn("id");
    ImGui::TableSetupColumn("kind");
    ImGui::TableSetupColumn("calls");
    ImGui::TableSetupColumn("time left");
    ImGui::TableSetupColumn("late: last / worst");
    ImGui::TableSetupColumn("");
    ImGui::TableHeadersRow();
    const auto ms = [](Duration d) { return std::chrono::duration<double, std::milli>(d).count(); };
    for (auto& e : entries_) {
      ImGui::PushID(static_cast<int>(e->id.value));
      const auto status = runtime.timer_status(e->id);
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::Text("0x%" PRIx64, e->id.value);
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(e->kind.c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%" PRIu64, e->calls);
      ImGui::TableNextColumn();
      // Tenths of a second: a countdown in milliseconds would change in every frame it is drawn
      // in, and the window would draw for ever to show it.
      if (!status) {
        ImGui::TextDisabled("finished");
      } else if (status->paused) {
        ImGui::TextDisabled("%.1f s (paused)", ms(status->remaining) / 1000.0);
      } else {
        ImGui::Text("%.1f s", ms(status->remaining) / 1000.0);
      }
      ImGui::TableNextColumn();
      if (status) ImGui::Text("%.2f / %.2f ms", ms(status->lateness.last), ms(status->lateness.worst));
      ImGui::TableNextColumn();
      if (status) {
        if (ImGui::SmallButton(status->paused ? "resume" : "pause")) {
          (void)(status->paused ? ctx.resume_timer(e->id) : ctx.pause_timer(e->id));
        }
        ImGui::SameLine();
        if (ImGui::SmallButton("remove")) (void)ctx.remove_timer(e->id);
      }
      ImGui::PopID();
    }
    ImGui::EndTable();
  }
}

}  // namespace demo
