#include "cadence/glfw_pacing.hpp"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <memory>
#include <vector>

#include "glfw_library.hpp"

namespace cadence {

struct GlfwPacing::Impl {
  GLFWwindow* window = nullptr;
  std::unique_ptr<FramePacer> pacer;
};

namespace {

// GLFW's callbacks that GlfwPacing installs: an index per kind.
enum Kind : std::size_t {
  kMouseButton, kScroll, kKey, kChar, kFocus, kCursorEnter, kCursorPos, kFramebufferSize, kRefresh, kIconify, kDrop,
  kContentScale, kKinds
};

// The callbacks that were installed before one of GlfwPacing's installs, which it passes every
// event on to.
struct Previous {
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
  GLFWdropfun drop = nullptr;
  GLFWwindowcontentscalefun content_scale = nullptr;
};

// A window's callbacks: one layer per install, oldest first. An install is needed again when
// someone installed over cadence's callbacks (ImGui's backend set up after a GlfwPacing that
// was then recreated): that one still calls cadence's older install, so the callbacks of one
// kind running n deep for a window pass the event to the layer n from the top, and the chain
// ends where it began instead of going round for ever.
struct Chain {
  GLFWwindow* window = nullptr;
  GlfwPacing::Impl* pacing = nullptr;  // nullptr once the GlfwPacing is gone: events only pass on
  std::vector<Previous> layers;
  std::array<std::size_t, kKinds> depth{};  // cadence's callbacks of each kind running now
};

// One entry per window ever paced (GLFW's main thread only), never erased, so that a callback
// may hold its entry while the app's callbacks pace more windows: a window's callbacks outlive
// its GlfwPacing, so its entry does too; a new GlfwPacing for the same window takes it over.
std::vector<std::unique_ptr<Chain>>& chains() {
  static std::vector<std::unique_ptr<Chain>> all;
  return all;
}

Chain* chain_of(GLFWwindow* window) {
  for (const std::unique_ptr<Chain>& c : chains()) {
    if (c->window == window) return c.get();
  }
  return nullptr;
}

// Passes an event on to the callback installed before this layer, then (the outermost call)
// tells the pacer with `Tell`.
template <Kind K, auto Member, auto Tell, class... Args>
void forward(GLFWwindow* window, Args... args) {
  Chain* c = chain_of(window);
  if (c == nullptr) return;
  const std::size_t depth = c->depth[K];
  if (depth >= c->layers.size()) return;  // more of these calls than installs: not one of ours
  if (auto previous = c->layers[c->layers.size() - 1 - depth].*Member) {
    ++c->depth[K];
    previous(window, args...);
    --c->depth[K];
  }
  if (depth == 0 && c->pacing != nullptr) Tell(*c->pacing, args...);
}

template <class... Args>
void any_input(GlfwPacing::Impl& p, Args...) {
  p.pacer->on_input();
}
void scrolled(GlfwPacing::Impl& p, double dx, double dy) { p.pacer->on_scroll(dx, dy); }  // momentum, and input
void iconified(GlfwPacing::Impl& p, int iconified) { p.pacer->set_hidden(iconified == GLFW_TRUE); }

void on_key(GLFWwindow* w, int key, int scancode, int action, int mods) {
  forward<kKey, &Previous::key, any_input<int, int, int, int>>(w, key, scancode, action, mods);
}

// True while the window's current callbacks are cadence's (not a new window at the address of
// one that was destroyed, nor one whose callbacks someone replaced or chained over).
bool installed(const Chain& c) {
  const GLFWkeyfun current = glfwSetKeyCallback(c.window, nullptr);
  glfwSetKeyCallback(c.window, current);
  return current == &on_key;
}

// Installs cadence's callbacks over the window's current ones, as a new layer.
void install(Chain& c) {
  GLFWwindow* w = c.window;
  Previous p;
  p.mouse_button = glfwSetMouseButtonCallback(
      w, [](GLFWwindow* gw, int b, int a, int m) { forward<kMouseButton, &Previous::mouse_button, any_input<int, int, int>>(gw, b, a, m); });
  p.scroll = glfwSetScrollCallback(w, [](GLFWwindow* gw, double x, double y) { forward<kScroll, &Previous::scroll, scrolled>(gw, x, y); });
  p.key = glfwSetKeyCallback(w, on_key);
  p.character = glfwSetCharCallback(w, [](GLFWwindow* gw, unsigned int ch) { forward<kChar, &Previous::character, any_input<unsigned>>(gw, ch); });
  p.focus = glfwSetWindowFocusCallback(w, [](GLFWwindow* gw, int f) { forward<kFocus, &Previous::focus, any_input<int>>(gw, f); });
  p.cursor_enter = glfwSetCursorEnterCallback(w, [](GLFWwindow* gw, int e) { forward<kCursorEnter, &Previous::cursor_enter, any_input<int>>(gw, e); });
  p.cursor_pos = glfwSetCursorPosCallback(
      w, [](GLFWwindow* gw, double x, double y) { forward<kCursorPos, &Previous::cursor_pos, any_input<double, double>>(gw, x, y); });
  p.framebuffer_size = glfwSetFramebufferSizeCallback(
      w, [](GLFWwindow* gw, int x, int y) { forward<kFramebufferSize, &Previous::framebuffer_size, any_input<int, int>>(gw, x, y); });
  p.refresh = glfwSetWindowRefreshCallback(w, [](GLFWwindow* gw) { forward<kRefresh, &Previous::refresh, any_input<>>(gw); });
  p.iconify = glfwSetWindowIconifyCallback(w, [](GLFWwindow* gw, int i) { forward<kIconify, &Previous::iconify, iconified>(gw, i); });
  p.drop = glfwSetDropCallback(
      w, [](GLFWwindow* gw, int n, const char** paths) { forward<kDrop, &Previous::drop, any_input<int, const char**>>(gw, n, paths); });
  p.content_scale = glfwSetWindowContentScaleCallback(w, [](GLFWwindow* gw, float x, float y) {
    forward<kContentScale, &Previous::content_scale, any_input<float, float>>(gw, x, y);
  });
  // Callbacks that are not cadence's reach no older layer unless they chain to it: a window at
  // a new address's, or none at all, surely do not.
  if (p.key == nullptr) c.layers.clear();
  c.layers.push_back(p);
}

// The soonest wake-up of the windows paced now. GLFW waits for the events of every window at
// once, so a loop that paces several (each with its ImGui context) sleeps for the soonest of
// them in any of their wait()s.
std::optional<Duration> soonest_wake() {
  std::optional<Duration> soonest;
  for (const std::unique_ptr<Chain>& c : chains()) {
    if (c->pacing == nullptr) continue;
    const std::optional<Duration> wake = c->pacing->pacer->next_wake();
    if (wake && (!soonest || *wake < *soonest)) soonest = wake;
  }
  return soonest;
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
    chains().push_back(std::make_unique<Chain>());
    chain = chains().back().get();
    chain->window = window;
  }
  if (!installed(*chain)) install(*chain);
  chain->pacing = impl.get();
  return std::unique_ptr<GlfwPacing>(new GlfwPacing(std::move(impl)));
}

GlfwPacing::~GlfwPacing() {
  if (Chain* c = chain_of(impl_->window); c != nullptr && c->pacing == impl_.get()) c->pacing = nullptr;
}

bool GlfwPacing::wait() {
  FramePacer& pacer = *impl_->pacer;
  const std::optional<Duration> wake = soonest_wake();
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
