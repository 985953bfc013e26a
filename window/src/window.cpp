#include "cadence/window.hpp"

#include <GL/gl.h>
#include <dlfcn.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <string>
#include <utility>

#include "guarded_call.hpp"
#include "scoped_flag.hpp"
#include "window_impl.hpp"

namespace cadence {

Window::Window(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

namespace {

Status check(const WindowOptions& o) {
  if (o.width <= 0 || o.height <= 0 || o.width > kMaxWindowSide || o.height > kMaxWindowSide) {
    return Error{Errc::invalid_argument, "window size " + std::to_string(o.width) + "x" + std::to_string(o.height) +
                                             " is out of range: each side must be in [1, " +
                                             std::to_string(kMaxWindowSide) + "] screen coordinates"};
  }
  return {};
}

// What the window's pacer needs of its options; on_kept_awake is given the window.
PacerOptions pacer_options(const WindowOptions& o, Window* window) {
  PacerOptions p;
  p.name = o.title;
  p.time_source = o.time_source;
  p.runtime = o.runtime;
  p.caret_blink = o.caret_blink;
  p.tooltip_delay = o.tooltip_delay;
  p.momentum_decay = o.momentum_decay;
  p.settle_frames = o.settle_frames;
  p.on_failure = o.on_failure;
  if (o.on_kept_awake) p.on_kept_awake = [window, f = o.on_kept_awake](const AwakeCause& c) { f(*window, c); };
  return p;
}

// Dear ImGui's OpenGL loader (1.91 on) lets go of the GL library it opened when a window's
// renderer shuts down, and loads it again only while its function pointers are null, which they
// no longer are. With EGL (Wayland), where nothing else holds libOpenGL, the library was unloaded
// and the other windows' GL calls jumped into nothing. The GL libraries loaded now stay for the
// process.
void keep_gl_libraries() {
  for (const char* name : {"libOpenGL.so.0", "libEGL.so.1", "libGLX.so.0", "libGL.so.1"}) {
    if (void* lib = dlopen(name, RTLD_LAZY | RTLD_LOCAL | RTLD_NOLOAD | RTLD_NODELETE)) dlclose(lib);
  }
}

}  // namespace

Result<std::unique_ptr<Window>> Window::create(WindowOptions options, DrawFunction draw) {
  if (Status s = check(options); !s) return s.error();
  if (Status s = FramePacer::check(pacer_options(options, nullptr)); !s) return s.error();
  auto impl = std::make_unique<Impl>(std::move(options), std::move(draw));
  std::unique_ptr<Window> window(new Window(std::move(impl)));  // from here ~Window cleans up
  if (Status s = detail::acquire_backend(window->impl_->options.backend); !s) return s.error();
  window->impl_->system = detail::window_system(window->impl_->options.backend);  // ~Window releases it
  // A window may be opened from another window's draw function: leave that one's ImGui and
  // OpenGL contexts current when done. Declared after `window`, so that it runs before a
  // failed window's destructor can end the window system.
  Impl& w = *window->impl_;
  const detail::RestoreContexts restore(*w.system);
  w.owner = window.get();
  *w.life = window.get();

  Result<std::unique_ptr<detail::Surface>> surface = w.system->open(w);
  if (!surface) return surface.error();
  w.surface = std::move(*surface);

  w.imgui = ImGui::CreateContext();
  ImGui::SetCurrentContext(w.imgui);
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // no imgui.ini in the working directory
  io.ConfigInputTextCursorBlink = true;
  ImGui::StyleColorsDark();
  w.surface->init_imgui();
  ImGui_ImplOpenGL3_Init("#version 130");
  keep_gl_libraries();

  Result<std::unique_ptr<FramePacer>> pacer = FramePacer::create(w.imgui, pacer_options(w.options, w.owner));
  if (!pacer) return pacer.error();  // checked above: not expected
  w.pacer = std::move(*pacer);
  WindowRuntime& runtime = w.pacer->runtime();
  runtime.set_waker(w.surface->waker());  // thread-safe; called once per batch
  if (w.options.runtime.frame_interval == WindowRuntime::Options{}.frame_interval) {
    if (const std::optional<Duration> refresh = w.surface->refresh_period()) (void)runtime.set_frame_interval(*refresh);
  }
  return window;
}

Window::~Window() {
  Impl& w = *impl_;
  *w.life = nullptr;  // handles see it gone from here
  ImGuiContext* previous_imgui = ImGui::GetCurrentContext();
  const detail::CurrentGl previous_gl = w.surface ? w.system->current_gl() : detail::CurrentGl{};
  if (w.imgui != nullptr) w.make_current();
  // Stops and joins the threads. Destroyed in place, so that app code its destruction runs (an
  // abandoned finish callback, a timer capture's destructor) and that reaches it through this
  // window finds it, refusing changes as it is destroyed, not a null pointer
  // (unique_ptr::reset() clears the pointer first).
  if (FramePacer* pacer = w.pacer.get()) {
    std::destroy_at(pacer);
    ::operator delete(w.pacer.release());  // the memory create() took for it
  }
  if (w.imgui != nullptr) {
    // App code the pacer's destruction ran (an abandoned finish callback) may have made another
    // window's contexts current: the backends free this window's objects, in its own context.
    w.make_current();
    ImGui_ImplOpenGL3_Shutdown();
    w.surface->shutdown_imgui();
    ImGui::DestroyContext(w.imgui);
  }
  ImGui::SetCurrentContext(previous_imgui == w.imgui ? nullptr : previous_imgui);
  if (w.surface) {
    if (previous_gl.window != w.surface->native()) w.system->make_current_gl(previous_gl);
    w.surface.reset();
  }
  if (w.system != nullptr) detail::release_backend(w.options.backend);  // acquired in create()
}

WindowRuntime& Window::runtime() noexcept { return impl_->pacer->runtime(); }
WindowBackend Window::backend() const noexcept { return impl_->options.backend; }
GLFWwindow* Window::glfw_window() const noexcept {
  return impl_->options.backend == WindowBackend::glfw ? static_cast<GLFWwindow*>(impl_->surface->native()) : nullptr;
}
SDL_Window* Window::sdl_window() const noexcept {
  const bool sdl = impl_->options.backend == WindowBackend::sdl2 || impl_->options.backend == WindowBackend::sdl3;
  return sdl ? static_cast<SDL_Window*>(impl_->surface->native()) : nullptr;
}
ImGuiContext* Window::imgui_context() const noexcept { return impl_->imgui; }
const WindowStats& Window::stats() const noexcept { return impl_->pacer->stats(); }
bool Window::should_close() const { return impl_->closing || impl_->surface->close_flag(); }
void Window::request_close() { impl_->ask_close(); }
WindowHandle Window::handle() const { return WindowHandle(impl_->life, impl_->options.title); }

Result<Window*> WindowHandle::window() const {
  if (!life_) return Error{Errc::not_found, "this WindowHandle refers to no window; EventLoop::add() returns one that does"};
  if (*life_ == nullptr) {
    return Error{Errc::closed, "the window \"" + title_ + "\" has closed; its handle refers to nothing now"};
  }
  return *life_;
}

void Window::Impl::ask_close() {
  if (closing || asking_close) return;
  if (!options.on_close) {
    closing = true;
    return;
  }
  const detail::ScopedFlag asking(asking_close);
  bool agreed = false;
  if (std::optional<Error> threw = detail::guarded_call("on_close", [&] { agreed = options.on_close(*owner); })) {
    threw->message += "; the window stays open";
    pacer->report_failure(Failure{TimerId{}, std::move(*threw)});
    return;
  }
  closing = agreed;
}
void Window::request_redraw() noexcept { impl_->pacer->request_redraw(); }
bool Window::is_hidden() const noexcept { return impl_->pacer->is_hidden(); }

void Window::set_visible(bool visible) {
  // Always to the window system: a window created unshown (WindowOptions::visible) counts as
  // shown here.
  impl_->shown = visible;
  impl_->surface->show(visible);
  impl_->update_hidden();
}

void Window::Impl::make_current() const {
  ImGui::SetCurrentContext(imgui);
  surface->make_current();
}

std::optional<Duration> Window::next_wake() { return impl_->pacer->next_wake(); }

namespace {
// Windows whose frame() runs on this thread: more than none means a frame runs from inside
// another window's.
thread_local int frames_running = 0;
}  // namespace

void Window::frame() {
  Impl& w = *impl_;
  if (w.in_frame || w.closing) return;  // a window that agreed to close draws no more
  const detail::ScopedFlag in_frame(w.in_frame);
  // A frame run from another window's callback leaves that window's contexts current after.
  // Run from the loop, it leaves its OpenGL context current: switching back and forth costs a
  // round trip to the X server with SDL (it syncs on every switch). A frame that draws nothing
  // switches no OpenGL context at all.
  const bool nested = frames_running > 0;
  ++frames_running;
  struct Leave {
    ~Leave() { --frames_running; }
  } leave;
  const detail::RestoreContexts restore(*w.system, /*gl_too=*/nested);
  ImGui::SetCurrentContext(w.imgui);
  FramePacer& pacer = *w.pacer;
  if (pacer.begin() == FrameKind::none) return;  // no OpenGL: switching contexts is not free
  w.surface->make_current();
  ImGui_ImplOpenGL3_NewFrame();
  w.surface->new_frame(w.pointer);
  pacer.new_frame();
  // The draw function sees the frame's own instant, and what it changes (timers added, threads
  // started) is applied before the swap, which may block for a frame.
  if (w.draw) w.draw(*w.owner, pacer.context());
  pacer.render();
  int width = 0, height = 0;
  w.surface->drawable_size(width, height);
  w.render(ImGui::GetDrawData(), width, height);
  w.surface->swap();
}

void Window::Impl::render(ImDrawData* data, int width, int height) const {
  glViewport(0, 0, width, height);
  // Clear to the style's window background, so that a window covering the whole viewport can
  // skip its background (ImGuiWindowFlags_NoBackground) and look the same: with software
  // rendering a full-window blended quad is most of a frame's cost, a clear is nearly free.
  const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  glClearColor(bg.x, bg.y, bg.z, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  if (data != nullptr) ImGui_ImplOpenGL3_RenderDrawData(data);
}

bool Window::tooltip(const char* text) { return impl_->pacer->tooltip(text); }

}  // namespace cadence
