#include "demo_app.hpp"

#include <imgui.h>

#include <cstdio>

namespace demo {

using namespace cadence;

Window* DemoApp::open(int width, int height) {
  WindowOptions options;
  options.title = name_;
  options.backend = backend_;
  options.width = width;
  options.height = height;
  options.on_failure = [this](const Failure& f) {
    if (!workers_.on_failure(f)) std::fprintf(stderr, "%s: %s\n", name_.c_str(), f.error.message.c_str());
  };
  auto window = Window::create(std::move(options), [this](Window& w, CallbackContext& ctx) { draw(w, ctx); });
  if (!window) {
    std::fprintf(stderr, "cadence-demo: %s\n", window.error().message.c_str());
    return nullptr;
  }
  return loop_.add(std::move(*window)).get();
}

void DemoApp::run_script(CallbackContext& ctx) {
  workers_.start_all(ctx);
  timers_.add_examples(ctx);
  children_.push_back(std::make_unique<DemoApp>(loop_, "cadence demo: second window", backend_));
  children_.back()->open(560, 420);
}

void DemoApp::draw(Window& window, CallbackContext& ctx) {
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(ImGui::GetIO().DisplaySize);
  // Covers the whole window: no background of its own (the window clears to the same colour).
  ImGui::Begin(name_.c_str(), nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoBackground);

  ImGui::TextUnformatted("Type here: the caret blinks on cadence's timer (530 ms on, 530 ms off).");
  if (focus_text_) {
    ImGui::SetKeyboardFocusHere();
    focus_text_ = false;
  }
  ImGui::SetNextItemWidth(-1);
  ImGui::InputText("##text", text_, sizeof text_);
  window.tooltip("While you do nothing, the app wakes only to blink this caret.");

  if (ImGui::CollapsingHeader("Workers", ImGuiTreeNodeFlags_DefaultOpen)) workers_.draw(ctx);
  if (ImGui::CollapsingHeader("Timers", ImGuiTreeNodeFlags_DefaultOpen)) timers_.draw(window.runtime(), ctx);
  if (ImGui::CollapsingHeader("Stats", ImGuiTreeNodeFlags_DefaultOpen)) stats_.draw(loop_, window, timers_.lateness_ms());

  if (ImGui::Button("Open another window")) {
    children_.push_back(std::make_unique<DemoApp>(loop_, "cadence demo: window " + std::to_string(children_.size() + 2), backend_));
    children_.back()->open(560, 420);
  }
  window.tooltip("Each window has its own runtime: its own timers and threads.");
  ImGui::End();
}

}  // namespace demo
