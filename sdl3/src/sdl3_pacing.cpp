#include "cadence/sdl3_pacing.hpp"

#include <SDL3/SDL.h>
#include <imgui.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>

#include "paced_windows.hpp"
#include "sdl3_events.hpp"
#include "wait_ms.hpp"

namespace cadence {
namespace {

using detail::sdl3::is_wake;
using detail::sdl3::wake_type;
using detail::sdl3::window_of;

}  // namespace

struct Sdl3Pacing::Impl {
  SDL_Window* window = nullptr;
  SDL_WindowID window_id = 0;
  Uint32 wake_type = 0;
  std::thread::id owner = std::this_thread::get_id();
  // An event another thread queued (not cadence's wake-up): the app's loop may act on it, so
  // the next wait() draws. Set by the watch on that thread, taken by wait() and poll().
  std::atomic<bool> foreign_event{false};
  // What SDL says of the window: the pacer rests while any holds.
  bool minimized = false, hidden = false, occluded = false;
  detail::sdl3::GamepadNews gamepad_news;  // a stick drifting in its dead zone is no input
  // poll()'s wake-up timer: SDL's id (0: none), the instant it was set for on the pacer's
  // clock, and when it rings on SDL's (it may ring early by the pacer's: SDL counts on
  // CLOCK_MONOTONIC_RAW, steady_clock on CLOCK_MONOTONIC, which NTP slews).
  bool polled = false;  // poll() was called: render() sets the timer too
  SDL_TimerID timer = 0;
  Instant timer_at;
  Uint64 timer_rings_ns = 0;
  std::unique_ptr<FramePacer> pacer;

  /// Called by SDL for each event as it is queued, on the thread that queues it.
  static bool SDLCALL watch(void* self, SDL_Event* event);
  /// Called on SDL's timer thread at the instant poll() set: queues a wake-up, once.
  static Uint64 SDLCALL ring(void* type, SDL_TimerID, Uint64) {
    detail::sdl3::push_wake(static_cast<Uint32>(reinterpret_cast<std::uintptr_t>(type)));
    return 0;
  }
  void update_hidden() { pacer->set_hidden(minimized || hidden || occluded); }
  /// Sets the wake-up timer for `wake` from now (none for nullopt; the wake-up event itself for
  /// zero), unless it is set for that instant already.
  void set_timer(std::optional<Duration> wake);
};

using Paced = detail::PacedWindows<Sdl3Pacing::Impl>;

bool Sdl3Pacing::Impl::watch(void* self, SDL_Event* event) {
  Impl& p = *static_cast<Impl*>(self);
  if (is_wake(*event) || event->type == SDL_EVENT_POLL_SENTINEL) return true;  // a worker's post: the runtime has it
  if (std::this_thread::get_id() != p.owner) {
    p.foreign_event = true;
    return true;
  }
  // On the UI thread, while SDL pumps its events (in the app's SDL_PollEvent, wait(), or SDL's
  // main-callback loop).
  const SDL_WindowID window = window_of(*event);
  if (window != 0 && window != p.window_id) return true;  // another window's: that one's pacing sees it
  if (!p.gamepad_news.is_news(*event)) return true;      // nothing ImGui reads
  switch (event->type) {
    case SDL_EVENT_WINDOW_MINIMIZED: p.minimized = true; p.update_hidden(); return true;
    case SDL_EVENT_WINDOW_HIDDEN: p.hidden = true; p.update_hidden(); return true;
    case SDL_EVENT_WINDOW_OCCLUDED: p.occluded = true; p.update_hidden(); return true;
    case SDL_EVENT_WINDOW_RESTORED:
    case SDL_EVENT_WINDOW_MAXIMIZED: p.minimized = false; p.update_hidden(); break;
    case SDL_EVENT_WINDOW_SHOWN:  // SDL clears the window's minimized state with it (a tray restore)
      p.hidden = p.minimized = false;
      p.update_hidden();
      break;
    case SDL_EVENT_WINDOW_EXPOSED: p.occluded = false; p.update_hidden(); break;
    case SDL_EVENT_MOUSE_WHEEL:
      // As ImGui's SDL3 backend scrolls: SDL's right is its left.
      p.pacer->on_scroll(-static_cast<double>(event->wheel.x), static_cast<double>(event->wheel.y));
      return true;
    default: break;
  }
  p.pacer->on_input();
  return true;
}

void Sdl3Pacing::Impl::set_timer(std::optional<Duration> wake) {
  const Instant now = pacer->runtime().now();
  // The timer set before has not rung (by SDL's clock, the one it rings on) and rings within a
  // millisecond of this instant (the instants come from two readings of the clock): it stays.
  if (timer != 0 && wake && SDL_GetTicksNS() < timer_rings_ns &&
      std::chrono::abs((now + *wake) - timer_at) <= std::chrono::milliseconds(1)) {
    return;
  }
  if (timer != 0) (void)SDL_RemoveTimer(timer);  // false when it rang: SDL removed it then
  timer = 0;
  if (!wake) return;
  if (*wake <= Duration::zero()) {  // owed now: no timer, the wake-up itself
    detail::sdl3::push_wake(wake_type);
    return;
  }
  void* type = reinterpret_cast<void*>(static_cast<std::uintptr_t>(wake_type));
  const Uint64 ns = static_cast<Uint64>(wake->count());
  timer_rings_ns = SDL_GetTicksNS() + ns;  // SDL rings it then or later
  timer = SDL_AddTimerNS(ns, &Impl::ring, type);
  timer_at = now + *wake;
  if (timer == 0) detail::sdl3::push_wake(wake_type);  // SDL refused a timer: iterate again rather than stall
}

Sdl3Pacing::Sdl3Pacing(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Result<std::unique_ptr<Sdl3Pacing>> Sdl3Pacing::create(SDL_Window* window, PacerOptions options) {
  if (window == nullptr) {
    return Error{Errc::invalid_argument, "Sdl3Pacing::create needs a window: pass what SDL_CreateWindow returned"};
  }
  const bool default_interval = options.runtime.frame_interval == WindowRuntime::Options{}.frame_interval;
  Result<std::unique_ptr<FramePacer>> pacer = FramePacer::create(ImGui::GetCurrentContext(), std::move(options));
  if (!pacer) return pacer.error();
  const Uint32 type = wake_type();
  if (type == 0) {
    return Error{Errc::resource, "SDL has no user event type left (SDL_RegisterEvents) to wake the loop with: the app "
                                 "registered all of them"};
  }
  auto impl = std::make_unique<Impl>();
  impl->window = window;
  impl->window_id = SDL_GetWindowID(window);
  impl->wake_type = type;
  const SDL_WindowFlags flags = SDL_GetWindowFlags(window);
  impl->minimized = (flags & SDL_WINDOW_MINIMIZED) != 0;
  impl->hidden = (flags & SDL_WINDOW_HIDDEN) != 0;
  impl->occluded = (flags & SDL_WINDOW_OCCLUDED) != 0;
  impl->pacer = std::move(*pacer);
  WindowRuntime& runtime = impl->pacer->runtime();
  runtime.set_waker([type] { detail::sdl3::push_wake(type); });  // thread-safe; called once per batch
  if (default_interval) {
    if (const auto refresh = detail::sdl3::refresh_period(window)) (void)runtime.set_frame_interval(*refresh);
  }
  if (!SDL_AddEventWatch(&Impl::watch, impl.get())) {
    return Error{Errc::resource, std::string("SDL refused the event watch that tells the pacer of input: ") + SDL_GetError()};
  }
  impl->update_hidden();
  Paced::add(impl.get());
  return std::unique_ptr<Sdl3Pacing>(new Sdl3Pacing(std::move(impl)));
}

Sdl3Pacing::~Sdl3Pacing() {
  // SDL runs watches under its lock: none runs once this returns. A timer that rings meanwhile
  // only queues a wake-up, which needs nothing of this pacing.
  SDL_RemoveEventWatch(&Impl::watch, impl_.get());
  if (impl_->timer != 0) (void)SDL_RemoveTimer(impl_->timer);
  Paced::remove(impl_.get());
}

bool Sdl3Pacing::wait() {
  Impl& p = *impl_;
  FramePacer& pacer = *p.pacer;
  if (p.foreign_event.exchange(false)) pacer.on_input();
  const std::optional<Duration> wake = Paced::soonest_wake<Duration>();
  if (!wake || *wake > Duration::zero()) {
    (void)SDL_WaitEventTimeout(nullptr, detail::wait_ms(wake));
  }
  // Cadence's own wake-ups and SDL's markers go; any other event is the app's to handle before
  // the frame that shows it: its loop goes round once more.
  SDL_PumpEvents();
  SDL_FilterEvents([](void*, SDL_Event* e) { return !is_wake(*e); }, nullptr);
  SDL_FlushEvent(SDL_EVENT_POLL_SENTINEL);
  if (SDL_PeepEvents(nullptr, 0, SDL_PEEKEVENT, SDL_EVENT_FIRST, SDL_EVENT_LAST) > 0) return false;
  if (p.foreign_event.exchange(false)) pacer.on_input();
  return pacer.begin() != FrameKind::none;
}

bool Sdl3Pacing::poll() {
  Impl& p = *impl_;
  p.polled = true;
  if (p.foreign_event.exchange(false)) p.pacer->on_input();
  const bool draw = p.pacer->begin() != FrameKind::none;
  // A frame to draw: render() sets the timer once it is drawn; meanwhile one frame interval on,
  // so that a frame the app skips (it is owed again) still gets its iteration.
  p.set_timer(draw ? std::optional<Duration>(p.pacer->runtime().frame_interval()) : p.pacer->next_wake());
  return draw;
}

void Sdl3Pacing::new_frame() { impl_->pacer->new_frame(); }
void Sdl3Pacing::render() {
  impl_->pacer->render();
  if (impl_->polled) impl_->set_timer(impl_->pacer->next_wake());
}
WindowRuntime& Sdl3Pacing::runtime() noexcept { return impl_->pacer->runtime(); }
FramePacer& Sdl3Pacing::pacer() noexcept { return *impl_->pacer; }
SDL_Window* Sdl3Pacing::window() const noexcept { return impl_->window; }
unsigned Sdl3Pacing::wake_event_type() const noexcept { return impl_->wake_type; }

}  // namespace cadence
