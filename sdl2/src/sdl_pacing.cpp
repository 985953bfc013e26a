#include "cadence/sdl_pacing.hpp"

#include <SDL.h>
#include <imgui.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "paced_windows.hpp"
#include "sdl_events.hpp"
#include "wait_ms.hpp"

namespace cadence {
namespace {

using detail::sdl::GamepadNews;
using detail::sdl::is_bookkeeping;
using detail::sdl::is_wake;
using detail::sdl::wake_type;
using detail::sdl::window_of;

}  // namespace

struct SdlPacing::Impl {
  SDL_Window* window = nullptr;
  Uint32 window_id = 0;
  Uint32 wake_type = 0;
  std::thread::id owner = std::this_thread::get_id();
  // An event another thread queued (not cadence's wake-up): the app's loop may act on it, so
  // the next wait() draws. Set by the watch on that thread, taken by wait().
  std::atomic<bool> foreign_event{false};
  std::unique_ptr<FramePacer> pacer;
  GamepadNews gamepad_news;  // a stick drifting in its dead zone is no input (UI thread only)

  /// Called by SDL for each event as it is queued, on the thread that queues it.
  static int watch(void* self, SDL_Event* event);
};

using Paced = detail::PacedWindows<SdlPacing::Impl>;

int SdlPacing::Impl::watch(void* self, SDL_Event* event) {
  Impl& p = *static_cast<Impl*>(self);
  if (is_wake(*event) || is_bookkeeping(event->type)) return 0;  // a worker's post: the runtime has it
  if (std::this_thread::get_id() != p.owner) {
    p.foreign_event = true;
    return 0;
  }
  // On the UI thread, while SDL pumps its events (in the app's SDL_PollEvent or in wait()).
  const Uint32 window = window_of(*event);
  if (window != 0 && window != p.window_id) return 0;  // another window's: that one's pacing sees it
  if (!p.gamepad_news.is_news(*event)) return 0;        // nothing ImGui reads
  if (event->type == SDL_WINDOWEVENT) {
    switch (event->window.event) {
      case SDL_WINDOWEVENT_MINIMIZED:
      case SDL_WINDOWEVENT_HIDDEN:
        p.pacer->set_hidden(true);
        return 0;
      case SDL_WINDOWEVENT_RESTORED:
      case SDL_WINDOWEVENT_MAXIMIZED:
      case SDL_WINDOWEVENT_SHOWN:
        p.pacer->set_hidden(false);
        break;
      default:
        break;
    }
  }
  if (event->type == SDL_MOUSEWHEEL) {
    p.pacer->on_scroll(static_cast<double>(event->wheel.preciseX), static_cast<double>(event->wheel.preciseY));
    return 0;
  }
  p.pacer->on_input();
  return 0;
}

SdlPacing::SdlPacing(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Result<std::unique_ptr<SdlPacing>> SdlPacing::create(SDL_Window* window, PacerOptions options) {
  if (window == nullptr) {
    return Error{Errc::invalid_argument, "SdlPacing::create needs a window: pass what SDL_CreateWindow returned"};
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
  impl->pacer = std::move(*pacer);
  WindowRuntime& runtime = impl->pacer->runtime();
  runtime.set_waker([type] { detail::sdl::push_wake(type); });  // thread-safe; called once per batch
  if (default_interval) {
    if (const auto refresh = detail::sdl::refresh_period(window)) (void)runtime.set_frame_interval(*refresh);
  }
  SDL_AddEventWatch(&Impl::watch, impl.get());
  Paced::add(impl.get());
  return std::unique_ptr<SdlPacing>(new SdlPacing(std::move(impl)));
}

SdlPacing::~SdlPacing() {
  // SDL runs watches under its lock: none runs once this returns.
  SDL_DelEventWatch(&Impl::watch, impl_.get());
  Paced::remove(impl_.get());
}

bool SdlPacing::wait() {
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
  SDL_FilterEvents([](void*, SDL_Event* e) { return is_wake(*e) ? 0 : 1; }, nullptr);
#if SDL_VERSION_ATLEAST(2, 0, 22)
  SDL_FlushEvent(SDL_POLLSENTINEL);
#endif
  if (SDL_PeepEvents(nullptr, 0, SDL_PEEKEVENT, SDL_FIRSTEVENT, SDL_LASTEVENT) > 0) return false;
  if (p.foreign_event.exchange(false)) pacer.on_input();
  return pacer.begin() != FrameKind::none;
}

void SdlPacing::new_frame() { impl_->pacer->new_frame(); }
void SdlPacing::render() { impl_->pacer->render(); }
WindowRuntime& SdlPacing::runtime() noexcept { return impl_->pacer->runtime(); }
FramePacer& SdlPacing::pacer() noexcept { return *impl_->pacer; }
SDL_Window* SdlPacing::window() const noexcept { return impl_->window; }
unsigned SdlPacing::wake_event_type() const noexcept { return impl_->wake_type; }

}  // namespace cadence
