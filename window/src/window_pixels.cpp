// Reading back what a window shows: pixels for tests, PNG screenshots.
#include <GL/gl.h>
#include <imgui.h>
#include <stb/stb_image_write.h>

#include <cstring>

#include "window_impl.hpp"

namespace cadence {

std::vector<std::uint8_t> Window::read_pixels(int& width, int& height) {
  Impl& w = *impl_;
  // Called from another window's draw function or callbacks, that window's frame goes on after.
  const detail::RestoreContexts restore(*w.system);
  w.make_current();
  width = height = 0;
  if (w.pacer->stats().frames_drawn == 0) return {};
  // Render the last frame's ImGui draw data again into the back buffer and read it there: what
  // a buffer holds after a swap is not defined, and the app's draw function must not run again.
  w.surface->drawable_size(width, height);
  w.render(ImGui::GetDrawData(), width, height);
  std::vector<std::uint8_t> pixels(static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 4);
  glReadBuffer(GL_BACK);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  // OpenGL's rows go bottom-up; flip to top-down.
  const std::size_t row = static_cast<std::size_t>(width) * 4;
  std::vector<std::uint8_t> flipped(pixels.size());
  for (int y = 0; y < height; ++y) {
    std::memcpy(flipped.data() + static_cast<std::size_t>(y) * row,
                pixels.data() + static_cast<std::size_t>(height - 1 - y) * row, row);
  }
  return flipped;
}

Status Window::screenshot(const std::string& path) {
  int width = 0, height = 0;
  const std::vector<std::uint8_t> pixels = read_pixels(width, height);
  if (pixels.empty()) return Error{Errc::resource, "no screenshot for " + path + ": the window has drawn no frame yet"};
  if (stbi_write_png(path.c_str(), width, height, 4, pixels.data(), width * 4) == 0) {
    return Error{Errc::resource, "could not write the screenshot to " + path};
  }
  return {};
}

}  // namespace cadence
