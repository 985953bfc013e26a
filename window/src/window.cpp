#include "cadence/window.hpp"

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <string>
#include <utility>

#include "glfw_library.hpp"
#include "draw_hash.hpp"
#include "imgui_frames.hpp"
#include "imgui_input.hpp"
#include "imgui_timing.hpp"
#include "scoped_flag.hpp"
#include "window_impl.hpp"

namespace cadence {

Window::Window(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

namespace {

// How far past one of ImGui's own instants the window wakes (see plan_next_frames).
constexpr Duration kImGuiTimingMargin = std::chrono::microseconds(500);
// ImGui instants further away than this (seconds) are not waited for: a delay set to "never".
constexpr double kLongestImGuiWait = 24.0 * 3600.0;
// Identical frames in a row drawn only because ImGui's state said it needs another.
constexpr int kMaxNeedyFrames = 3;

std::string ms_text(Duration d) {
  char text[64];
  std::snprintf(text, sizeof text, "%g ms", std::chrono::duration<double, std::milli>(d).count());
  return text;
}

Status check(const WindowOptions& o) {
  if (o.width <= 0 || o.height <= 0 || o.width > kMaxWindowSide || o.height > kMaxWindowSide) {
    return Error{Errc::invalid_argument, "window size " + std::to_string(o.width) + "x" + std::to_string(o.height) +
                                             " is out of range: each side must be in [1, " +
                                             std::to_string(kMaxWindowSide) + "] screen coordinates"};
  }
  if (o.caret_blink <= Duration::zero()) {
    return Error{Errc::invalid_argument, "caret_blink " + ms_text(o.caret_blink) + " must be positive"};
  }
  if (o.tooltip_delay < Duration::zero()) {
    return Error{Errc::invalid_argument, "tooltip_delay " + ms_text(o.tooltip_delay) + " must not be negative"};
  }
  if (o.momentum_decay <= Duration::zero()) {
    return Error{Errc::invalid_argument, "momentum_decay " + ms_text(o.momentum_decay) + " must be positive"};
  }
  return {};
}

}  // namespace

Result<std::unique_ptr<Window>> Window::create(WindowOptions options, DrawFunction draw) {
  if (Status s = check(options); !s) return s.error();
  if (Status s = detail::GlfwLibrary::acquire(); !s) return s.error();
  auto impl = std::make_unique<Impl>(std::move(options), std::move(draw));
  std::unique_ptr<Window> window(new Window(std::move(impl)));  // from here ~Window cleans up
  // A window may be opened from another window's draw function: leave that one's ImGui and
  // OpenGL contexts current when done. Declared after `window`, so that it runs before a
  // failed window's destructor can terminate GLFW.
  const detail::RestoreContexts restore;
  Impl& w = *window->impl_;
  w.owner = window.get();
  *w.life = window.get();

  glfwWindowHint(GLFW_VISIBLE, w.options.visible ? GLFW_TRUE : GLFW_FALSE);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  w.glfw = glfwCreateWindow(w.options.width, w.options.height, w.options.title.c_str(), nullptr, nullptr);
  if (w.glfw == nullptr) {
    const std::string why = detail::GlfwLibrary::take_last_error();
    return Error{Errc::resource, "could not create a " + std::to_string(w.options.width) + "x" +
                                     std::to_string(w.options.height) + " window with an OpenGL 3.0 context: " +
                                     (why.empty() ? "GLFW gave no reason" : why)};
  }
  glfwMakeContextCurrent(w.glfw);
  glfwSwapInterval(w.options.vsync ? 1 : 0);

  w.imgui = ImGui::CreateContext();
  ImGui::SetCurrentContext(w.imgui);
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // no imgui.ini in the working directory
  io.ConfigInputTextCursorBlink = true;
  ImGui::StyleColorsDark();
  ImGui_ImplGlfw_InitForOpenGL(w.glfw, /*install_callbacks=*/false);  // ours route by window
  ImGui_ImplOpenGL3_Init("#version 130");
  w.install_callbacks();
  if (!w.options.settle_frames) w.frames_owed = 2;  // ImGui's two start-up frames

  w.runtime = std::make_unique<WindowRuntime>(w.options.time_source.value_or(TimeSource::system()), w.options.runtime);
  w.runtime->set_waker([] { glfwPostEmptyEvent(); });  // thread-safe; called once per batch
  // Every-frame timers follow the monitor's refresh, unless the app chose a frame interval.
  GLFWmonitor* monitor = glfwGetPrimaryMonitor();
  const GLFWvidmode* mode = monitor != nullptr ? glfwGetVideoMode(monitor) : nullptr;
  if (w.options.runtime.frame_interval == WindowRuntime::Options{}.frame_interval && mode != nullptr &&
      mode->refreshRate > 0) {
    (void)w.runtime->set_frame_interval(std::chrono::nanoseconds(1'000'000'000 / mode->refreshRate));
  }
  return window;
}

Window::~Window() {
  Impl& w = *impl_;
  *w.life = nullptr;  // handles see it gone from here
  ImGuiContext* previous_imgui = ImGui::GetCurrentContext();
  GLFWwindow* previous_gl = w.glfw != nullptr ? glfwGetCurrentContext() : nullptr;
  if (w.imgui != nullptr) w.make_current();
  // Stops and joins the threads; no waker call after this. Destroyed in place, so that app code
  // its destruction runs (an abandoned finish callback, a timer capture's destructor) and that
  // reaches it through this window finds it, refusing changes as it is destroyed, not a null
  // pointer (unique_ptr::reset() clears the pointer first).
  if (WindowRuntime* runtime = w.runtime.get()) {
    std::destroy_at(runtime);
    ::operator delete(w.runtime.release());  // the memory make_unique took for it
  }
  if (w.imgui != nullptr) {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext(w.imgui);
  }
  ImGui::SetCurrentContext(previous_imgui == w.imgui ? nullptr : previous_imgui);
  if (w.glfw != nullptr) {
    if (previous_gl != w.glfw) glfwMakeContextCurrent(previous_gl);
    glfwDestroyWindow(w.glfw);
  }
  detail::GlfwLibrary::release();  // acquired in create(), before the window existed
}

WindowRuntime& Window::runtime() noexcept { return *impl_->runtime; }
GLFWwindow* Window::glfw_window() const noexcept { return impl_->glfw; }
ImGuiContext* Window::imgui_context() const noexcept { return impl_->imgui; }
const WindowStats& Window::stats() const noexcept { return impl_->stats; }
bool Window::should_close() const { return impl_->closing || glfwWindowShouldClose(impl_->glfw) == GLFW_TRUE; }
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
  try {
    agreed = options.on_close(*owner);
  } catch (const std::exception& e) {
    report_failure(Failure{TimerId{}, Error{Errc::callback_threw, std::string("on_close threw: ") + e.what() +
                                                                      "; the window stays open"}});
    frames_owed = std::max(frames_owed, 1);
    return;
  } catch (...) {
    report_failure(Failure{TimerId{}, Error{Errc::callback_threw,
                                            "on_close threw something that is not a std::exception; the window stays open"}});
    frames_owed = std::max(frames_owed, 1);
    return;
  }
  closing = agreed;
}
void Window::request_redraw() noexcept { impl_->frames_owed = std::max(impl_->frames_owed, 1); }
bool Window::is_hidden() const noexcept { return impl_->hidden; }

void Window::set_visible(bool visible) {
  // Always to GLFW: a window created unshown (WindowOptions::visible) counts as shown here.
  impl_->shown = visible;
  if (visible) {
    glfwShowWindow(impl_->glfw);
  } else {
    glfwHideWindow(impl_->glfw);
  }
  impl_->update_hidden();
}

void Window::Impl::update_hidden() {
  const bool now_hidden = minimized || !shown;
  if (now_hidden == hidden) return;
  if (Status s = runtime->set_hidden(now_hidden); !s) {
    // From a timer callback or a write-back: the runtime runs its frame; done right after it.
    if (s.error().code == Errc::reentrant_call) hidden_pending = true;
    return;
  }
  hidden = now_hidden;
  if (hidden) {
    settle_at.reset();  // nothing is drawn, so nothing settles
  } else {
    frames_owed = std::max(frames_owed, 1);  // what changed meanwhile, at once
  }
}

void Window::Impl::make_current() const {
  ImGui::SetCurrentContext(imgui);
  if (glfwGetCurrentContext() != glfw) glfwMakeContextCurrent(glfw);  // a TLS read when it is
}

void Window::Impl::report_failure(const Failure& f) {
  ++stats.failures;
  if (options.on_failure) {
    options.on_failure(f);
  } else {
    std::fprintf(stderr, "cadence: %s: %s\n", to_string(f.error.code), f.error.message.c_str());
  }
}

void Window::Impl::report_kept_awake(const AwakeCause& cause) {
  if (options.on_kept_awake) {
    try {
      options.on_kept_awake(*owner, cause);
    } catch (const std::exception& e) {
      report_failure(Failure{TimerId{}, Error{Errc::callback_threw, std::string("on_kept_awake threw: ") + e.what()}});
    } catch (...) {
      report_failure(Failure{TimerId{}, Error{Errc::callback_threw, "on_kept_awake threw something that is not a std::exception"}});
    }
    return;
  }
  const double seconds = std::chrono::duration<double>(cause.over).count();
  std::string what = "ImGui window \"" + cause.imgui_window + "\"";
  if (!cause.text.empty()) {
    char where[64];
    std::snprintf(where, sizeof where, " at (%.0f, %.0f)", static_cast<double>(cause.x), static_cast<double>(cause.y));
    what += ", text \"" + cause.text + "\"" + where;
  }
  std::fprintf(stderr,
               "cadence: window \"%s\" drew %llu frames in %.1f s with nothing asking for them: %s changes in every "
               "frame it draws, so it never comes to rest. Draw values that change with each frame (a frame counter, "
               "io.Framerate) inside a cadence::Volatile scope, or sample them on a timer (docs/window.md, \"What "
               "keeps a window awake\").\n",
               options.title.c_str(), static_cast<unsigned long long>(cause.frames), seconds, what.c_str());
}

void Window::Impl::report(const ApplyReport& r, bool from_draw) {
  // A failure redraws, so that a UI showing errors shows this one at once. One from the draw
  // function's own changes redraws once: a draw function whose changes fail on every frame
  // must not make the window draw without pause.
  if (!r.failures.empty() && !(from_draw && drawn_for_failure)) {
    frames_owed = std::max(frames_owed, 1);
    failure_owed = true;
  }
  for (const Failure& f : r.failures) report_failure(f);
  if (r.update != Update::nothing) frames_owed = std::max(frames_owed, 1);
  if (r.update == Update::redraw_all) redraw_all_asked = true;  // the EventLoop passes it on
}

std::optional<Duration> Window::next_wake() {
  Impl& w = *impl_;
  if (w.hidden) return w.runtime->next_wake();  // only the timers that go on while hidden
  if (w.frames_owed > 0 || w.input || w.caret.toggled()) return Duration::zero();
  std::optional<Duration> wake = w.runtime->next_wake();
  if (w.settle_at) {
    const Duration left = std::max(Duration::zero(), *w.settle_at - w.runtime->now());
    if (!wake || left < *wake) wake = left;
  }
  return wake;
}

void Window::frame() {
  Impl& w = *impl_;
  if (w.in_frame || w.closing) return;  // a window that agreed to close draws no more
  const detail::ScopedFlag in_frame(w.in_frame);
  // A frame run from another window's callback leaves that window's contexts current after.
  const detail::RestoreContexts restore;
  w.make_current();
  ++w.stats.frames_run;
  w.redraw_all_asked = false;  // a request of an earlier frame run by hand, outside a loop
  w.frame_start = w.runtime->now();
  const bool owed = w.frames_owed > 0;
  const ApplyReport polled = w.runtime->poll(w.frame_start);
  w.report(polled, /*from_draw=*/false);
  if (std::exchange(w.hidden_pending, false)) w.update_hidden();  // asked for by a callback of the frame
  const bool for_input = w.input;
  const bool settling = w.settle_at && w.frame_start >= *w.settle_at;
  WakeReasons& why = w.stats.wakes;
  why.timer += polled.timers_run > 0 ? 1 : 0;
  why.worker += polled.thread_messages > 0 ? 1 : 0;
  why.input += for_input ? 1 : 0;
  const bool redraw_came = polled.redraws_came > 0;  // an instant asked for with request_redraw_at
  why.redraw += owed || redraw_came ? 1 : 0;
  why.settle += settling ? 1 : 0;
  why.none +=
      polled.timers_run == 0 && polled.thread_messages == 0 && !for_input && !owed && !redraw_came && !settling ? 1 : 0;
  if (w.hidden) {
    w.input = false;  // counted once; shown again, the window draws anyway
    return;           // runs the timers that go on while hidden; draws nothing, owes what it owed
  }
  const bool toggled = w.caret.take_toggle();
  w.input = false;
  if (for_input && !w.options.settle_frames) w.frames_owed = std::max(w.frames_owed, 2);
  if (w.frames_owed > 0 || for_input || settling) {
    // Drawn for the settle check alone: no input, no redraw owed or asked for by a timer or
    // worker (a timer that only ran, like the caret's blink, asks for nothing).
    const bool settle_only = settling && !for_input && w.frames_owed == 0 && polled.update == Update::nothing &&
                             polled.thread_messages == 0;
    w.draw_frame(/*settle=*/true, for_input, settle_only);
  } else if (toggled) {
    w.draw_frame(/*settle=*/false, /*for_input=*/false);  // only the caret's bar changes
  }
}

void Window::Impl::draw_frame(bool settle, bool for_input, bool settle_only) {
  drawn_for_failure = std::exchange(failure_owed, false);
  // This frame pays one owed frame now, so that a redraw the draw function asks for (its
  // request_redraw(), a failure it causes) is owed by the next.
  frames_owed = std::max(frames_owed - 1, 0);
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGuiIO& io = ImGui::GetIO();
  // ImGui's clock follows the runtime's, so that a manual clock drives everything in tests.
  const double dt = last_drawn ? std::chrono::duration<double>(frame_start - *last_drawn).count() : 1.0 / 60.0;
  io.DeltaTime = static_cast<float>(std::max(dt, 1e-5));
  detail::feed_pointer(glfw, io, mouse_position, mouse_buttons, pointer_entered);
  momentum.feed(io);
  ImGui::NewFrame();
  caret.before_widgets(io.DeltaTime);
  autoscroll.update(*runtime, frame_start);

  // The draw function sees the frame's own instant, and what it changes (timers added, threads
  // started) is applied before the swap, which may block for a frame.
  ChangeSet ui_changes;
  {
    CallbackContext context(*runtime, ui_changes, frame_start);
    if (draw) draw(*owner, context);
  }
  tooltips.after_widgets(*runtime);
  caret.after_widgets(*runtime);
  const ApplyReport applied = runtime->apply(std::move(ui_changes));

  ImGui::Render();
  const std::uint64_t hash = detail::draw_data_hash(ImGui::GetDrawData(), list_hashes);  // before textures are updated
  int width = 0, height = 0;
  glfwGetFramebufferSize(glfw, &width, &height);
  render(ImGui::GetDrawData(), width, height);
  glfwSwapBuffers(glfw);

  ++stats.frames_drawn;
  last_drawn = frame_start;
  const bool changed = !last_hash || hash != *last_hash;
  last_hash = hash;
  if (settle && options.settle_frames) {
    if (const std::optional<AwakeCause> cause =
            awake.after_frame(settle_only, changed, frame_start, *ImGui::GetDrawData(), *ImGui::GetIO().Fonts, list_hashes)) {
      stats.kept_awake = *cause;
      report_kept_awake(*cause);
    }
  }
  plan_next_frames(changed, settle, for_input);
  report(applied, /*from_draw=*/true);  // after this frame is counted, so that a redraw it asks for is owed
}

void Window::Impl::plan_next_frames(bool changed, bool settle, bool drawn_for_input) {
  if (detail::imgui_input_pending()) input = true;  // ImGui trickles queued events: next frame at once
  if (settle) {
    // The settle check: a frame that showed something new is followed by another at the frame
    // interval, until two in a row are the same; so is one after which ImGui still shows or
    // sizes a window.
    // A frame drawn for input is always followed by one: immediate mode shows what the input
    // changed late in that frame (a key handled after the text showing its effect) only in the
    // next. ImGui's own "needs a frame" is trusted for a few identical frames at most.
    settle_at.reset();
    const bool needs = detail::imgui_needs_next_frame();
    needy_streak = changed || drawn_for_input || !needs ? 0 : needy_streak + 1;
    if (options.settle_frames && (changed || drawn_for_input || (needs && needy_streak <= kMaxNeedyFrames))) {
      // A frame interval after this one, as the next frame of a loop drawing every frame: after
      // an event off the frame grid (a timer, input) as many frames have shown it as there.
      settle_at = frame_start + runtime->frame_interval();
    }
  }
  // ImGui's own instants. A repeat is waited for while the held item acts on it; two repeat
  // instants in a row that changed nothing (a held slider, a button without repeat, a value at
  // its limit) end the wait until the next input or change. Two, not one: ImGui 1.86 acts on a
  // held button half a repeat period after its delay, not at it. Not while a text field is
  // active: ImGui restarts its caret's blink at every repeat of a key it takes, even one that
  // changes nothing (Backspace in an empty field), and the caret follows that.
  if (changed || drawn_for_input) {
    idle_repeats = 0;
  } else if (timing_due) {
    ++idle_repeats;
  }
  timing_due = false;
  const detail::ImGuiTiming timing = detail::imgui_timing();
  std::optional<double> next = timing.delay_in;
  if (timing.repeat_in && (idle_repeats < 2 || caret.running()) && (!next || *timing.repeat_in < *next)) {
    next = timing.repeat_in;
  }
  if (runtime->has_timer(kImGuiTimingTimer)) (void)runtime->remove_timer(kImGuiTimingTimer);  // no error text per frame
  if (next && *next < kLongestImGuiWait) {  // a delay set beyond it (FLT_MAX) never comes
    // ImGui adds up float frame times: wake a little past the instant, so that its sum has
    // crossed the threshold when it looks, at the first instant of the frame grid from there,
    // where a loop that draws every frame would see it. Counted from the frame's start, not
    // from now (after the buffer swap, which may have waited for the screen).
    const Instant instant = frame_start + std::chrono::duration_cast<Duration>(std::chrono::duration<double>(*next)) +
                            kImGuiTimingMargin;
    const Instant at = runtime->frame_after(instant - Duration{1});
    const Duration in = std::max(Duration::zero(), at - runtime->now());
    if (settle_at && at <= *settle_at) {
      // The settle frame comes at or after the instant and sees it, as the next frame of a loop
      // that draws every frame would: no frame of its own (a drag autoscroll keeps drawing at
      // the frame interval; a frame added between would take the glide off that grid).
      return;
    }
    // A settle frame less than a frame interval before ImGui's instant is left to that
    // instant's frame, which settles too: a button repeating faster than every other frame
    // (ImGui 1.86's held "+", every 25 ms) costs one frame per repeat, not two. Not after a
    // frame drawn for input: what the input changed shows in the frame after it, on time.
    if (settle_at && !drawn_for_input && at <= *settle_at + runtime->frame_interval()) settle_at.reset();
    (void)runtime->add_system_timer(kImGuiTimingTimer, Timer::once(in, [this](TimerCallbackInfo&) {
                                      timing_due = true;
                                      return TimerCallbackReturn::redraw();
                                    }));
  }
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

bool Window::tooltip(const char* text) { return impl_->tooltips.tooltip(*impl_->runtime, impl_->frame_start, text); }

}  // namespace cadence
