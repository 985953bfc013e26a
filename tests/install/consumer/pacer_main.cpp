// Links against an installed cadence::pacer and paces one headless ImGui frame: no window, no
// renderer, no display.
#include <cadence/frame_pacer.hpp>
#include <imgui.h>

#include <cstdio>

int main() {
  ImGuiContext* context = ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.DisplaySize = ImVec2(320, 240);
  unsigned char* pixels = nullptr;
  int width = 0, height = 0;
  io.Fonts->GetTexDataAsRGBA32(&pixels, &width, &height);
  int status = 1;
  {
    auto pacer = cadence::FramePacer::create(context, {});
    if (!pacer) {
      std::fprintf(stderr, "%s\n", pacer.error().message.c_str());
    } else if ((*pacer)->begin() == cadence::FrameKind::none) {
      std::fprintf(stderr, "the first iteration drew nothing\n");
    } else {
      (*pacer)->new_frame();
      ImGui::TextUnformatted("installed cadence::pacer");
      (*pacer)->render();
      status = (*pacer)->stats().frames_drawn == 1 ? 0 : 1;
    }
  }
  ImGui::DestroyContext(context);
  if (status == 0) std::puts("pacer consumer: ok");
  return status;
}
