#include "glfw_library.hpp"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <mutex>

#include "cadence/glfw_pacing.hpp"
#include "glfw_platform.hpp"

namespace cadence::detail {
namespace {

std::mutex mutex;  // guards the two below (GLFW's error callback may run on any thread)
int holders = 0;
std::string last_error;

void on_error(int code, const char* description) {
  std::lock_guard lock(mutex);
  last_error = std::string(description ? description : "unknown error") + " (GLFW error " + std::to_string(code) + ")";
}

}  // namespace

Status GlfwLibrary::acquire() {
  std::unique_lock lock(mutex);
  if (holders > 0) {
    ++holders;
    return {};
  }
  glfwSetErrorCallback(on_error);
  lock.unlock();  // GLFW's error callback takes it, and the choice may ask the compositor
  if (Status chosen = choose_glfw_platform(); !chosen) return chosen;
  const bool ok = glfwInit() == GLFW_TRUE;
  lock.lock();
  if (!ok) {
    std::string why = last_error.empty() ? "glfwInit() failed" : last_error;
    last_error.clear();
    return Error{Errc::resource, "GLFW could not start: " + why +
                                     ". A window needs a display: run under X11 or Wayland, or headless with "
                                     "xvfb-run -a <program>"};
  }
  ++holders;
  return {};
}

void GlfwLibrary::release() {
  std::unique_lock lock(mutex);
  if (holders == 0) return;
  if (--holders == 0) {
    lock.unlock();
    glfwTerminate();
  }
}

std::string GlfwLibrary::take_last_error() {
  std::lock_guard lock(mutex);
  std::string out = std::move(last_error);
  last_error.clear();
  return out;
}

std::optional<Duration> monitor_refresh_period() {
  GLFWmonitor* monitor = glfwGetPrimaryMonitor();
  const GLFWvidmode* mode = monitor != nullptr ? glfwGetVideoMode(monitor) : nullptr;
  if (mode == nullptr || mode->refreshRate <= 0) return std::nullopt;
  return std::chrono::nanoseconds(1'000'000'000 / mode->refreshRate);
}

}  // namespace cadence::detail

namespace cadence {

double glfw_timeout_seconds(double seconds) noexcept {
  if (!(seconds > 0)) return 0.0;  // negative, zero and NaN
  return std::min(seconds, kMaxWaitSeconds);
}

}  // namespace cadence
