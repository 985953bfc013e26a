#include "cadence/glfw_pacing.hpp"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include "glfw_library.hpp"

namespace cadence {

struct GlfwPacing::Impl {
  GLFWwindow* window = nullptr;
  std::unique_ptr<FramePacer> pacer;
};

namespace {

// The callbacks that were installed before GlfwPacing's, which it passes every event on to.
struct Chain {
  GLFWwindow* window = nullptr;
  GlfwPacing::Impl* pacing = nullptr;  // nullptr once the GlfwPacing is gone: events only pass on
  GLFWmousebuttonfun mouse_button = nullptr;
  GLFWscrollfun scroll = nullptr;
  GLFWkeyfun key = nullptr;
  GLFWcharfun character = nullptr;
  GLFWwindowfocusfun focus = nullptr;
  GLFWcursorenterfun cursor_enter = nullptr;
  GLFWcursorposfun cursor_pos = nullptr;
  GLFWframebuffersizefun framebuffer_size = nullptr;
  GLFWwindowrefreshfun refresh = nullptr;
  GLFWwindowiconifyfun iconify = nullptr;
};

// One entry per window ever paced (GLFW's main thread only): a window's callbacks outlive its
// GlfwPacing, so its entry does too; a new GlfwPacing for the same window takes it over, and
// one for a new window at the same address (or one whose callbacks were reset) starts afresh.
std::vector<Chain>& chains() {
  static std::vector<Chain> all;
  return all;
}

Chain* chain_of(GLFWwindow* window) {
  for (Chain& c : chains()) {
    if (c.window == window) return &c;
  }
  return nullptr;
}

// Passes an event on to the callback installed before, then tells the pacer.
template <auto Previous, class... Args>
void forward(GLFWwindow* window, Args... args) {
  Chain* c = chain_of(window);
  if (c == nullptr) return;
  if (auto previous = c->*Previous) previous(window, args...);
  if (c->pacing != nullptr) c->pacing->pacer->on_input();
}

void on_key(GLFWwindow* w, int key, int scancode, int action, int mods) {
  forward<&Chain::key>(w, key, scancode, action, mods);
}

void on_scroll(GLFWwindow* w, double dx, double dy) {
  Chain* c = chain_of(w);
  if (c == nullptr) return;
  if (c->scroll != nullptr) c->scroll(w, dx, dy);
  if (c->pacing != nullptr) c->pacing->pacer->on_scroll(dx, dy);  // momentum, and input
}

void on_iconify(GLFWwindow* w, int iconified) {
  Chain* c = chain_of(w);
  if (c == nullptr) return;
  if (c->iconify != nullptr) c->iconify(w, iconified);
  if (c->pacing != nullptr) c->pacing->pacer->set_hidden(iconified == GLFW_TRUE);
}

// True while the window still has the callbacks `c` installed (not a new window at the address
// of one that was destroyed, nor one whose callbacks someone reset).
bool installed(const Chain& c) {
  const GLFWkeyfun current = glfwSetKeyCallback(c.window, nullptr);
  glfwSetKeyCallback(c.window, current);
  return current == &on_key;
}

void install(Chain& c) {
  GLFWwindow* w = c.window;
  c.mouse_button = glfwSetMouseButtonCallback(w, [](GLFWwindow* gw, int b, int a, int m) { forward<&Chain::mouse_button>(gw, b, a, m); });
  c.scroll = glfwSetScrollCallback(w, on_scroll);
  c.key = glfwSetKeyCallback(w, on_key);
  c.character = glfwSetCharCallback(w, [](GLFWwindow* gw, unsigned int ch) { forward<&Chain::character>(gw, ch); });
  c.focus = glfwSetWindowFocusCallback(w, [](GLFWwindow* gw, int f) { forward<&Chain::focus>(gw, f); });
  c.cursor_enter = glfwSetCursorEnterCallback(w, [](GLFWwindow* gw, int e) { forward<&Chain::cursor_enter>(gw, e); });
  c.cursor_pos = glfwSetCursorPosCallback(w, [](GLFWwindow* gw, double x, double y) { forward<&Chain::cursor_pos>(gw, x, y); });
  c.framebuffer_size = glfwSetFramebufferSizeCallback(w, [](GLFWwindow* gw, int x, int y) { forward<&Chain::framebuffer_size>(gw, x, y); });
  c.refresh = glfwSetWindowRefreshCallback(w, [](GLFWwindow* gw) { forward<&Chain::refresh>(gw); });
  c.iconify = glfwSetWindowIconifyCallback(w, on_iconify);
}

}  // namespace

GlfwPacing::GlfwPacing(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Result<std::unique_ptr<GlfwPacing>> GlfwPacing::create(GLFWwindow* window, PacerOptions options) {
  if (window == nullptr) {
    return Error{Errc::invalid_argument, "GlfwPacing::create needs a window: pass what glfwCreateWindow returned"};
  }
  Chain* chain = chain_of(window);
  if (chain != nullptr && chain->pacing != nullptr) {
    return Error{Errc::already_exists, "this GLFW window is paced already: one GlfwPacing per window"};
  }
  const bool default_interval = options.runtime.frame_interval == WindowRuntime::Options{}.frame_interval;
  Result<std::unique_ptr<FramePacer>> pacer = FramePacer::create(ImGui::GetCurrentContext(), std::move(options));
  if (!pacer) return pacer.error();
  auto impl = std::make_unique<Impl>();
  impl->window = window;
  impl->pacer = std::move(*pacer);
  WindowRuntime& runtime = impl->pacer->runtime();
  runtime.set_waker([] { glfwPostEmptyEvent(); });  // thread-safe; called once per batch
  if (default_interval) {
    if (const std::optional<Duration> refresh = detail::monitor_refresh_period()) (void)runtime.set_frame_interval(*refresh);
  }
  if (chain == nullptr) {
    chains().push_back(Chain{});
    chain = &chains().back();
  }
  if (chain->window != window || !installed(*chain)) {
    *chain = Chain{};
    chain->window = window;
    install(*chain);
  }
  chain->pacing = impl.get();
  return std::unique_ptr<GlfwPacing>(new GlfwPacing(std::move(impl)));
}

GlfwPacing::~GlfwPacing() {
  if (Chain* c = chain_of(impl_->window); c != nullptr && c->pacing == impl_.get()) c->pacing = nullptr;
}

bool GlfwPacing::wait() {
  FramePacer& pacer = *impl_->pacer;
  const std::optional<Duration> wake = pacer.next_wake();
  if (!wake) {
    glfwWaitEvents();
  } else if (*wake > Duration::zero()) {
    // Debian's GLFW aborts on a negative timeout; a wake-up a little early finds nothing due
    // and waits again for the rest.
    glfwWaitEventsTimeout(std::chrono::duration<double>(*wake).count());
  } else {
    glfwPollEvents();
  }
  return pacer.begin() != FrameKind::none;
}

void GlfwPacing::new_frame() { impl_->pacer->new_frame(); }
void GlfwPacing::render() { impl_->pacer->render(); }
WindowRuntime& GlfwPacing::runtime() noexcept { return impl_->pacer->runtime(); }
FramePacer& GlfwPacing::pacer() noexcept { return *impl_->pacer; }
GLFWwindow* GlfwPacing::window() const noexcept { return impl_->window; }

}  // namespace cadence
