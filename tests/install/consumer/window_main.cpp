// Links against an installed cadence::window: opens a window (or says why it cannot).
#include <cadence/event_loop.hpp>
#include <imgui.h>

#include <cstdio>

int main() {
  auto window = cadence::Window::create({.title = "consumer"}, [](cadence::Window& w, cadence::CallbackContext&) {
    ImGui::Begin("consumer");
    ImGui::TextUnformatted("installed cadence::window");
    ImGui::End();
    w.request_close();
  });
  if (!window) {
    std::fprintf(stderr, "%s\n", window.error().message.c_str());
    return 1;
  }
  cadence::EventLoop loop;
  loop.add(std::move(*window));
  loop.run();
  return 0;
}
