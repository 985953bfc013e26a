#include "cadence/frame_pacer.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <mutex>
#include <string>
#include <utility>

#include "guarded_call.hpp"
#include "frame_pacer_impl.hpp"
#include "imgui_frames.hpp"
#include "imgui_timing.hpp"

namespace cadence {
namespace {

std::mutex& hook_mutex() {
  static std::mutex m;
  return m;
}

// FramePacer::set_created_hook's hook, under hook_mutex().
std::function<void(FramePacer&)>& created_hook() {
  static std::function<void(FramePacer&)> hook;
  return hook;
}

std::string ms_text(Duration d) {
  char text[64];
  std::snprintf(text, sizeof text, "%g ms", std::chrono::duration<double, std::milli>(d).count());
  return text;
}

}  // namespace

Status FramePacer::check(const PacerOptions& o) {
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


FramePacer::FramePacer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Result<std::unique_ptr<FramePacer>> FramePacer::create(ImGuiContext* imgui, PacerOptions options) {
  if (Status s = check(options); !s) return s.error();
  std::unique_ptr<FramePacer> pacer(new FramePacer(nullptr));
  Result<std::optional<detail::ContextClaim>> claim = detail::ContextClaim::make(imgui, pacer.get());
  if (!claim) return claim.error();
  pacer->impl_ = std::make_unique<Impl>(imgui, std::move(options), std::move(**claim));
  if (!pacer->impl_->options.settle_frames) pacer->impl_->pace.frames_owed = 2;  // ImGui's two start-up frames
  pacer->impl_->claim.on_new_frame([](void* impl) { static_cast<Impl*>(impl)->before_widgets(); }, pacer->impl_.get());
  std::function<void(FramePacer&)> hook;
  {
    const std::lock_guard lock(hook_mutex());
    hook = created_hook();
  }
  if (hook) hook(*pacer);
  return pacer;
}

FramePacer* FramePacer::of(const ImGuiContext* imgui) noexcept { return detail::ContextClaim::pacer_of(imgui); }

void FramePacer::set_created_hook(std::function<void(FramePacer&)> hook) {
  const std::lock_guard lock(hook_mutex());
  created_hook() = std::move(hook);
}

FramePacer::~FramePacer() {
  if (!impl_) return;  // create() failed
  impl_->claim.on_new_frame(nullptr, nullptr);
  // What the app scheduled through context() and no render() applied goes first, while the
  // runtime that its timers' destructors may ask still answers (what they schedule in turn
  // goes the same way).
  impl_->ui_context.reset();
  while (!impl_->ui_changes.empty()) ChangeSet dropped = std::exchange(impl_->ui_changes, ChangeSet{});
  // Stops and joins the threads; destroyed in place, so that app code its destruction runs (an
  // abandoned finish callback, a timer capture's destructor) that reaches it through this pacer
  // finds it, refusing changes as it is destroyed, not a null pointer (unique_ptr::reset()
  // clears the pointer first).
  if (WindowRuntime* runtime = impl_->runtime.get()) {
    std::destroy_at(runtime);
    ::operator delete(impl_->runtime.release());  // the memory make_unique took for it
  }
}

WindowRuntime& FramePacer::runtime() noexcept { return *impl_->runtime; }
ImGuiContext* FramePacer::imgui_context() const noexcept { return impl_->imgui; }
const WindowStats& FramePacer::stats() const noexcept { return impl_->stats; }
CallbackContext& FramePacer::context() noexcept {
  Impl& p = *impl_;
  if (!p.ui_context) p.ui_context.emplace(*p.runtime, p.ui_changes, p.frame_start);
  return *p.ui_context;
}
bool FramePacer::is_hidden() const noexcept { return impl_->pace.hidden; }
void FramePacer::on_input() noexcept { impl_->pace.input = true; }
void FramePacer::request_redraw() noexcept { impl_->pace.frames_owed = std::max(impl_->pace.frames_owed, 1); }
bool FramePacer::take_redraw_all() noexcept { return std::exchange(impl_->redraw_all_asked, false); }

void FramePacer::on_scroll(double dx, double dy) {
  impl_->timers.get<detail::ScrollMomentum>().on_scroll(*impl_->runtime, dx, dy);
  on_input();
}

bool FramePacer::tooltip(const char* text) { return impl_->timers.get<detail::TooltipDelay>().tooltip(*impl_->runtime, impl_->frame_start, text); }

void FramePacer::report_failure(const Failure& f) {
  impl_->pass_failure(f);
  request_redraw();
}

void FramePacer::set_hidden(bool hidden) {
  impl_->want_hidden = hidden;
  impl_->apply_hidden();
}

void FramePacer::Impl::apply_hidden() {
  if (want_hidden == pace.hidden) return;
  if (Status s = runtime->set_hidden(want_hidden); !s) {
    // From a timer callback or a write-back: the runtime runs its frame; done right after it.
    if (s.error().code == Errc::reentrant_call) hidden_pending = true;
    return;
  }
  pace.hidden = want_hidden;
  if (pace.hidden) {
    pace.settle_at.reset();  // nothing is drawn, so nothing settles
  } else {
    pace.frames_owed = std::max(pace.frames_owed, 1);  // what changed meanwhile, at once
  }
}

void FramePacer::Impl::pass_failure(const Failure& f) {
  ++stats.failures;
  if (options.on_failure) {
    options.on_failure(f);
  } else {
    std::fprintf(stderr, "cadence: %s: %s\n", to_string(f.error.code), f.error.message.c_str());
  }
}

void FramePacer::Impl::report_kept_awake(const AwakeCause& cause) {
  if (options.on_kept_awake) {
    if (std::optional<Error> threw = detail::guarded_call("on_kept_awake", [&] { options.on_kept_awake(cause); })) {
      pass_failure(Failure{TimerId{}, std::move(*threw)});
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
               options.name.c_str(), static_cast<unsigned long long>(cause.frames), seconds, what.c_str());
}

void FramePacer::Impl::report(const ApplyReport& r, bool from_draw) {
  // A failure redraws, so that a UI showing errors shows this one at once. One from the app's
  // own changes redraws once: an app whose changes fail on every frame must not draw without
  // pause.
  if (!r.failures.empty() && !(from_draw && drawn_for_failure)) {
    pace.frames_owed = std::max(pace.frames_owed, 1);
    failure_owed = true;
  }
  for (const Failure& f : r.failures) pass_failure(f);
  if (r.update != Update::nothing) pace.frames_owed = std::max(pace.frames_owed, 1);
  if (r.update == Update::redraw_all) redraw_all_asked = true;  // the backend passes it on
}

bool FramePacer::Impl::frame_skipped() const {
  return building && !claim.gone() && !detail::imgui_frame_open(*imgui);
}

std::optional<Duration> FramePacer::next_wake() {
  Impl& p = *impl_;
  if (p.claim.gone()) return std::nullopt;  // begin() refuses: nothing to wake for
  if (p.frame_skipped()) return Duration::zero();  // begin() draws it again
  return detail::wake_in(p.pace, p.caret.toggled(), p.runtime->next_wake(), p.runtime->now());
}

bool FramePacer::Impl::allowed(const char* call, bool needs_current) {
  const std::optional<Error> refused = claim.refuse(call, needs_current);
  if (!refused) return true;
  if (refused->code == Errc::wrong_thread) {
    std::fprintf(stderr, "cadence: %s: %s\n", to_string(refused->code), refused->message.c_str());
  } else {
    pass_failure(Failure{TimerId{}, *refused});
  }
  return false;
}

FrameKind FramePacer::begin() {
  Impl& p = *impl_;
  if (!p.allowed("begin", false)) return FrameKind::none;
  if (p.frame_skipped()) {  // owed again
    p.runtime->set_drawing(std::nullopt);
    p.building = false;
    p.widgets_pending = false;
    p.pace.frames_owed = std::max(p.pace.frames_owed, 1);
  }
  if (p.building) return FrameKind::none;  // from inside the frame being built
  ++p.stats.frames_run;
  p.redraw_all_asked = false;  // a request of an earlier iteration not taken
  p.frame_start = p.runtime->now();
  const bool owed = p.pace.frames_owed > 0;
  const ApplyReport polled = p.runtime->poll(p.frame_start);
  p.report(polled, /*from_draw=*/false);
  if (std::exchange(p.hidden_pending, false)) p.apply_hidden();  // asked for by a callback of the frame
  const bool asked = polled.update != Update::nothing || polled.thread_messages > 0;
  const bool toggled = !p.pace.hidden && p.caret.take_toggle();
  p.iteration = detail::decide(p.pace, p.frame_start, toggled, asked, p.options.settle_frames);
  WakeReasons& why = p.stats.wakes;
  const bool redraw_came = polled.redraws_came > 0;  // an instant asked for with request_redraw_at
  why.timer += polled.timers_run > 0 ? 1 : 0;
  why.worker += polled.thread_messages > 0 ? 1 : 0;
  why.input += p.iteration.for_input ? 1 : 0;
  why.redraw += owed || redraw_came ? 1 : 0;
  why.settle += p.iteration.settling ? 1 : 0;
  why.none += polled.timers_run == 0 && polled.thread_messages == 0 && !p.iteration.for_input && !owed &&
                      !redraw_came && !p.iteration.settling
                  ? 1
                  : 0;
  switch (p.iteration.draw) {
    case detail::Draw::nothing: return FrameKind::none;
    case detail::Draw::caret: break;
    case detail::Draw::full: break;
  }
  p.building = true;
  p.drawn_for_failure = std::exchange(p.failure_owed, false);
  // This frame pays one owed frame now, so that a redraw the app asks for while building it
  // (its request_redraw(), a failure it causes) is owed by the next.
  p.pace.frames_owed = std::max(p.pace.frames_owed - 1, 0);
  return p.iteration.draw == detail::Draw::full ? FrameKind::full : FrameKind::caret;
}

void FramePacer::new_frame() {
  Impl& p = *impl_;
  if (!p.allowed("new_frame", true)) return;
  p.marks.clear();
  ImGuiIO& io = ImGui::GetIO();
  // ImGui's clock follows the runtime's, so that a manual clock drives everything in tests.
  const double dt =
      p.last_drawn ? std::chrono::duration<double>(p.frame_start - *p.last_drawn).count() : 1.0 / 60.0;
  io.DeltaTime = static_cast<float>(std::max(dt, 1e-5));
  const detail::FrameHooks hooks{*p.runtime, p.frame_start, io};
  p.timers.before_new_frame(hooks);
  p.widgets_pending = true;
  ImGui::NewFrame();  // its NewFramePost hook runs the timers' before-widgets hooks (Impl::before_widgets)
  p.before_widgets();  // done already, unless the hook was taken out
  p.ui_context.emplace(*p.runtime, p.ui_changes, p.frame_start);
  p.runtime->set_drawing(p.frame_start);  // the draw code asking for this instant gets this frame
}

void FramePacer::render() {
  Impl& p = *impl_;
  if (!p.allowed("render", true)) return;
  p.timers.after_widgets(detail::FrameHooks{*p.runtime, p.frame_start, ImGui::GetIO()});
  const ApplyReport applied = p.runtime->apply(std::exchange(p.ui_changes, ChangeSet{}));
  p.runtime->set_drawing(std::nullopt);
  ImGui::Render();
  const std::uint64_t hash = detail::draw_data_hash(ImGui::GetDrawData(), p.marks, p.list_hashes);
  ++p.stats.frames_drawn;
  p.last_drawn = p.frame_start;
  const bool changed = !p.last_hash || hash != *p.last_hash;
  p.last_hash = hash;
  const bool settle = p.iteration.draw == detail::Draw::full;
  if (settle && p.options.settle_frames) {
    if (const std::optional<AwakeCause> cause =
            p.awake.after_frame(p.iteration.settle_only, changed, p.frame_start, *ImGui::GetDrawData(),
                                *ImGui::GetIO().Fonts, p.marks, p.list_hashes)) {
      p.stats.kept_awake = *cause;
      p.report_kept_awake(*cause);
    }
  }
  p.plan_next_frames(changed);
  p.building = false;
  p.report(applied, /*from_draw=*/true);  // after this frame is counted, so that a redraw it asks for is owed
}

void FramePacer::Impl::plan_next_frames(bool changed) {
  detail::DrawnFrame f;
  f.start = frame_start;
  f.changed = changed;
  f.settle = iteration.draw == detail::Draw::full;
  f.for_input = iteration.for_input;
  f.needs_next = f.settle && detail::imgui_needs_next_frame();
  f.input_pending = detail::imgui_input_pending();
  f.timing = detail::imgui_timing(caret.text_field_ran());
  f.caret_running = caret.running();
  const std::optional<Instant> at =
      detail::plan_after_frame(pace, f, options.settle_frames, runtime->frame_interval(),
                               [this](Instant t) { return runtime->frame_after(t); });
  if (!at) {
    if (runtime->has_timer(kImGuiTimingTimer)) (void)runtime->remove_timer(kImGuiTimingTimer);  // no error text per frame
    return;
  }
  const Duration in = std::max(Duration::zero(), *at - runtime->now());
  (void)runtime->replace_timer(kImGuiTimingTimer, Timer::once(in, [this](TimerCallbackInfo&) {
                                 pace.timing_due = true;
                                 return TimerCallbackReturn::redraw();
                               }));
}

}  // namespace cadence
