// The C API (cadence.h): status codes, errors, runtime handles and timers.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "cadence/cadence.h"
#include "c_api.hpp"
#include "id_counters.hpp"

using namespace cadence;
using namespace cadence::detail::capi;

namespace {

/// The last failure's message on this thread. A plain buffer, without a destructor: atexit
/// handlers and thread-exit code may still fail a call after the thread's objects are gone.
constexpr std::size_t kMessageBytes = 1024;
thread_local char last_error[kMessageBytes];

void set_last_error(const std::string& message) noexcept {
  const std::size_t n = std::min(message.size(), kMessageBytes - 1);
  std::memcpy(last_error, message.data(), n);
  last_error[n] = '\0';
  if (n < message.size()) std::memcpy(last_error + kMessageBytes - 4, "...", 4);  // cut: says so
}

static_assert(static_cast<int>(Errc::wrong_thread) + 1 == CADENCE_E_WRONG_THREAD, "C status = Errc + 1");
static_assert(static_cast<int>(Errc::invalid_argument) + 1 == CADENCE_E_INVALID_ARGUMENT, "C status = Errc + 1");
static_assert(static_cast<int>(Errc::callback_threw) + 1 == CADENCE_E_CALLBACK_FAILED, "C status = Errc + 1");

/// Destroyed handles, kept so that a call on one is answered, not undefined. Never freed: an
/// atexit handler may still ask about a handle, or destroy one, after static destructors ran.
struct Graveyard {
  std::mutex mutex;
  std::vector<const void*> handles;
};
Graveyard& graveyard() {
  static Graveyard& g = *new Graveyard;  // reachable for ever: not a leak
  return g;
}

std::string hex(std::uint64_t id) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(id));
  return text;
}

/// `id` as the app passed it, or for 0 a fresh one (see timer_id_for).
template <class Id>
std::uint64_t id_for(std::set<std::uint64_t>& far, std::uint64_t id, bool (*skip)(std::uint64_t) noexcept) {
  if (id != 0) {
    if (Id{id}.is_valid() && !Id{id}.is_system() && !skip(id)) far.insert(id);
    return id;
  }
  for (;;) {
    const Id fresh = Id::unique();
    far.erase(far.begin(), far.lower_bound(fresh.value));  // the counter is past these for good
    if (far.erase(fresh.value) == 0 && fresh.is_valid() && !fresh.is_system()) return fresh.value;
  }
}

/// INVALID_ARGUMENT for what a window does with its runtime itself.
int of_window(const char* function, const char* why) {
  return fail(CADENCE_E_INVALID_ARGUMENT, std::string(function) + ": the runtime belongs to a window; " + why);
}

/// INVALID_ARGUMENT for a reserved (system) timer id: the window's own timers are not the app's.
int system_id(const char* function, std::uint64_t id) {
  return fail(CADENCE_E_INVALID_ARGUMENT, std::string(function) + ": id " + hex(id) +
                                              " is reserved for the window's own timers (1 to 0xff)");
}

/// The C++ timer of a C callback, checking what it returns.
Timer make_timer(cadence_runtime* rt, const cadence_timer_options& o, cadence_timer_fn fn,
                 std::shared_ptr<UserData> user) {
  Timer timer([rt, fn, user = std::move(user)](TimerCallbackInfo& info) {
    const cadence_timer_info c{info.id.value,   rt->since(info.frame_start), rt->since(info.due),
                               info.call_count, info.missed_ticks,           info.is_about_to_finish ? 1 : 0};
    int r;
    {
      Enter running(rt);
      r = fn(user->get(), rt, &c);
    }
    if ((r & ~(CADENCE_TIMER_REDRAW | CADENCE_TIMER_STOP)) != 0) {
      throw std::runtime_error("timer " + hex(info.id.value) + " returned " + std::to_string(r) +
                               ", which is not a combination of CADENCE_TIMER_REDRAW and CADENCE_TIMER_STOP: "
                               "the timer is removed");
    }
    return TimerCallbackReturn{(r & CADENCE_TIMER_REDRAW) ? Update::redraw_window : Update::nothing,
                               (r & CADENCE_TIMER_STOP) != 0};
  });
  timer.with_delay(Duration{o.delay}).with_slack(Duration{o.slack});
  if (o.interval != 0) timer.with_interval(Duration{o.interval});
  if (o.timeout != CADENCE_NEVER) timer.with_timeout(Duration{o.timeout});
  timer.with_missed_ticks(static_cast<MissedTicks>(o.missed_ticks));
  if (o.when_hidden == CADENCE_HIDDEN_PAUSE) timer.with_when_hidden(WhenHidden::pause());
  if (o.when_hidden == CADENCE_HIDDEN_THROTTLE) timer.with_when_hidden(WhenHidden::throttle(Duration{o.hidden_period}));
  return timer;
}

/// The checks every timer call shares; on success `timer` holds the C++ timer. The user data
/// is destroyed (its destroy runs) when a check fails.
int prepare_timer(cadence_runtime* rt, const char* function, const cadence_timer_options* options,
                  cadence_timer_fn fn, UserData user, std::optional<Timer>& timer) {
  if (const int s = check(rt, function); s != CADENCE_OK) return s;
  if (fn == nullptr) return null_argument(function, "fn");
  cadence_timer_options o;
  cadence_timer_options_init(&o);
  if (options != nullptr) {
    if (const int s = check_size(*options, function, "cadence_timer_options"); s != CADENCE_OK) return s;
    o = *options;
  }
  if (o.missed_ticks < CADENCE_MISSED_SKIP || o.missed_ticks > CADENCE_MISSED_DELAY) {
    return fail(CADENCE_E_INVALID_ARGUMENT, std::string(function) + ": missed_ticks is " +
                                                std::to_string(o.missed_ticks) + ", not a CADENCE_MISSED_* value");
  }
  if (o.when_hidden < CADENCE_HIDDEN_KEEP || o.when_hidden > CADENCE_HIDDEN_THROTTLE) {
    return fail(CADENCE_E_INVALID_ARGUMENT, std::string(function) + ": when_hidden is " +
                                                std::to_string(o.when_hidden) + ", not a CADENCE_HIDDEN_* value");
  }
  if (o.interval < 0) {
    return fail(CADENCE_E_INVALID_ARGUMENT, std::string(function) + ": interval is " + std::to_string(o.interval) +
                                                " ns; it must be > 0, or 0 for none (every frame)");
  }
  timer.emplace(make_timer(rt, o, fn, std::make_shared<UserData>(std::move(user))));
  if (Status s = timer->validate(); !s.ok()) {
    timer.reset();
    return fail(CADENCE_E_INVALID_ARGUMENT, std::string(function) + ": " + s.error().message);
  }
  return CADENCE_OK;
}

template <class Op>
int timer_call(cadence_runtime* rt, const char* name, std::uint64_t id, Op op) {
  return guard(name, [&]() -> int {
    if (const int s = check(rt, name); s != CADENCE_OK) return s;
    if (TimerId{id}.is_system()) return system_id(name, id);
    Enter running(rt);
    return status_of(name, op(*rt->runtime));
  });
}
}  // namespace

// ---- What the window library shares -------------------------------------------------------------

namespace cadence::detail::capi {

int fail(int status, std::string message) {
  set_last_error(message);
  return status;
}

int fail(const char* function, const Error& error) {
  return fail(static_cast<int>(error.code) + 1, std::string(function) + ": " + error.message);
}

int check(const cadence_runtime* rt, const char* function) {
  if (rt == nullptr) return null_argument(function, "runtime");
  if (rt->magic != kRuntimeMagic) {
    return fail(CADENCE_E_MISMATCH, std::string(function) + ": the handle is not a cadence_runtime");
  }
  if (rt->ui != std::this_thread::get_id()) {
    return fail(CADENCE_E_WRONG_THREAD,
                std::string(function) + ": called off the runtime's UI thread (the thread that made it)");
  }
  if (rt->runtime == nullptr) {
    return fail(CADENCE_E_CLOSED, std::string(function) + ": the runtime was destroyed (or its window closed)");
  }
  return CADENCE_OK;
}

int check_change(const cadence_runtime* rt, const char* function) {
  if (const int s = check(rt, function); s != CADENCE_OK) return s;
  if (rt->destroying) return fail(CADENCE_E_CLOSED, std::string(function) + ": the runtime is being destroyed");
  return CADENCE_OK;
}

std::uint64_t timer_id_for(cadence_runtime* rt, std::uint64_t id) {
  return id_for<TimerId>(rt->far_timer_ids, id, detail::skip_timer_id);
}
std::uint64_t thread_id_for(cadence_runtime* rt, std::uint64_t id) {
  return id_for<ThreadId>(rt->far_thread_ids, id, detail::skip_thread_id);
}

void release(cadence_runtime* rt) noexcept {
  rt->runtime = nullptr;
  rt->on_failure.reset();  // its destroy runs (once no handler call holds it); calls see the handle closed
  retire(rt);
}

void report(cadence_runtime* rt, const Failure& failure) noexcept {
  const int status = static_cast<int>(failure.error.code) + 1;
  // Counted as running until the copy below is gone: when the handler replaced itself, the old
  // one's destroy function runs there, and may not destroy the runtime either.
  Enter running(rt);
  if (std::shared_ptr<cadence_runtime::FailureHandler> handler = rt->on_failure; handler && handler->fn) {
    handler->fn(handler->user.get(), status, failure.error.message.c_str(), failure.timer.value, failure.thread.value);
  } else {
    std::fprintf(stderr, "cadence: %s: %s\n", cadence_status_name(status), failure.error.message.c_str());
  }
}

void retire_memory(const void* memory) {
  Graveyard& g = graveyard();
  std::lock_guard lock(g.mutex);
  g.handles.push_back(memory);
}

UserData::~UserData() {
  if (destroy_ == nullptr) return;
  const std::string caller(last_error);  // what the destroy function's calls fail with stays theirs
  destroy_(user_);
  set_last_error(caller);
}

}  // namespace cadence::detail::capi

// ---- Versions, status codes, errors ------------------------------------------------------------

extern "C" {

uint32_t cadence_version(void) { return CADENCE_VERSION; }

const char* cadence_status_name(int status) {
  switch (status) {
    case CADENCE_OK: return "CADENCE_OK";
    case CADENCE_E_INVALID_ARGUMENT: return "CADENCE_E_INVALID_ARGUMENT";
    case CADENCE_E_NOT_FOUND: return "CADENCE_E_NOT_FOUND";
    case CADENCE_E_STALE: return "CADENCE_E_STALE";
    case CADENCE_E_ALREADY_CANCELLED: return "CADENCE_E_ALREADY_CANCELLED";
    case CADENCE_E_MISMATCH: return "CADENCE_E_MISMATCH";
    case CADENCE_E_EMPTY: return "CADENCE_E_EMPTY";
    case CADENCE_E_CLOCK_MISMATCH: return "CADENCE_E_CLOCK_MISMATCH";
    case CADENCE_E_ALREADY_EXISTS: return "CADENCE_E_ALREADY_EXISTS";
    case CADENCE_E_CALLBACK_FAILED: return "CADENCE_E_CALLBACK_FAILED";
    case CADENCE_E_CLOCK_WENT_BACKWARDS: return "CADENCE_E_CLOCK_WENT_BACKWARDS";
    case CADENCE_E_REENTRANT_CALL: return "CADENCE_E_REENTRANT_CALL";
    case CADENCE_E_CLOSED: return "CADENCE_E_CLOSED";
    case CADENCE_E_RESOURCE: return "CADENCE_E_RESOURCE";
    case CADENCE_E_FULL: return "CADENCE_E_FULL";
    case CADENCE_E_UNSAFE: return "CADENCE_E_UNSAFE";
    case CADENCE_E_CORRUPT: return "CADENCE_E_CORRUPT";
    case CADENCE_E_SYSTEM: return "CADENCE_E_SYSTEM";
    case CADENCE_E_WRONG_THREAD: return "CADENCE_E_WRONG_THREAD";
    case CADENCE_E_NO_MEMORY: return "CADENCE_E_NO_MEMORY";
    case CADENCE_E_UNSUPPORTED: return "CADENCE_E_UNSUPPORTED";
    case CADENCE_E_NOT_DRAWING: return "CADENCE_E_NOT_DRAWING";
    case CADENCE_E_INTERNAL: return "CADENCE_E_INTERNAL";
    default: return "unknown";
  }
}

const char* cadence_last_error(void) { return last_error; }

// ---- Runtimes --------------------------------------------------------------------------------

void cadence_runtime_options_init(cadence_runtime_options* options) {
  if (options == nullptr) return;
  const WindowRuntime::Options defaults;
  *options = cadence_runtime_options{sizeof(cadence_runtime_options), CADENCE_CLOCK_SYSTEM, CADENCE_QUEUE_WHEEL,
                                     defaults.frame_interval.count(), defaults.join_deadline.count()};
}

int cadence_runtime_create(const cadence_runtime_options* options, cadence_runtime** out) {
  static constexpr const char* fn = "cadence_runtime_create";
  return guard(fn, [&]() -> int {
    if (out == nullptr) return null_argument(fn, "out");
    cadence_runtime_options o;
    cadence_runtime_options_init(&o);
    if (options != nullptr) {
      if (const int s = check_size(*options, fn, "cadence_runtime_options"); s != CADENCE_OK) return s;
      o = *options;
    }
    if (o.clock != CADENCE_CLOCK_SYSTEM && o.clock != CADENCE_CLOCK_MANUAL) {
      return fail(CADENCE_E_INVALID_ARGUMENT, std::string(fn) + ": clock is " + std::to_string(o.clock) +
                                                  ", not CADENCE_CLOCK_SYSTEM or CADENCE_CLOCK_MANUAL");
    }
    if (o.queue != CADENCE_QUEUE_WHEEL && o.queue != CADENCE_QUEUE_HEAP) {
      return fail(CADENCE_E_INVALID_ARGUMENT, std::string(fn) + ": queue is " + std::to_string(o.queue) +
                                                  ", not CADENCE_QUEUE_WHEEL or CADENCE_QUEUE_HEAP");
    }
    if (o.frame_interval <= 0) {
      return fail(CADENCE_E_INVALID_ARGUMENT, std::string(fn) + ": frame_interval is " +
                                                  std::to_string(o.frame_interval) + " ns; it must be > 0");
    }
    auto rt = std::make_unique<cadence_runtime>();
    WindowRuntime::Options ro;
    ro.queue = o.queue == CADENCE_QUEUE_HEAP ? QueueKind::heap : QueueKind::wheel;
    ro.frame_interval = Duration{o.frame_interval};
    ro.join_deadline = Duration{o.join_deadline};
    if (o.clock == CADENCE_CLOCK_MANUAL) rt->clock = std::make_unique<ManualClock>();
    TimeSource source = rt->clock ? rt->clock->source() : TimeSource::system();
    rt->origin = source.now();
    rt->owned = std::make_unique<WindowRuntime>(std::move(source), ro);
    rt->runtime = rt->owned.get();
    *out = rt.release();
    return CADENCE_OK;
  });
}

int cadence_runtime_destroy(cadence_runtime* rt) {
  static constexpr const char* fn = "cadence_runtime_destroy";
  return guard(fn, [&]() -> int {
    if (const int s = check(rt, fn); s != CADENCE_OK) return s;
    if (rt->depth > 0 || rt->destroying) {
      return fail(CADENCE_E_REENTRANT_CALL,
                  std::string(fn) + ": called from one of the runtime's own callbacks or calls; destroy it after "
                                    "the call that runs them returns");
    }
    if (rt->of_window) return of_window(fn, "destroy the window (cadence_window_destroy)");
    rt->destroying = true;
    rt->owned.reset();  // joins the workers; destroy functions run, their calls refused with closed
    rt->runtime = nullptr;
    rt->clock.reset();
    rt->on_failure.reset();
    retire(rt);
    return CADENCE_OK;
  });
}

int cadence_runtime_now(cadence_runtime* rt, cadence_ns* out) {
  static constexpr const char* fn = "cadence_runtime_now";
  return guard(fn, [&]() -> int {
    if (const int s = check(rt, fn); s != CADENCE_OK) return s;
    if (out == nullptr) return null_argument(fn, "out");
    *out = rt->since(rt->runtime->now());
    return CADENCE_OK;
  });
}

int cadence_runtime_advance_clock(cadence_runtime* rt, cadence_ns delta) {
  static constexpr const char* fn = "cadence_runtime_advance_clock";
  return guard(fn, [&]() -> int {
    if (const int s = check(rt, fn); s != CADENCE_OK) return s;
    if (!rt->clock) {
      return fail(CADENCE_E_INVALID_ARGUMENT,
                  std::string(fn) + ": the runtime reads the system clock; only a CADENCE_CLOCK_MANUAL one moves");
    }
    if (delta < 0) {
      return fail(CADENCE_E_INVALID_ARGUMENT,
                  std::string(fn) + ": delta is " + std::to_string(delta) + " ns; a manual clock only moves forward");
    }
    return status_of(fn, rt->clock->advance(Duration{delta}));
  });
}

int cadence_runtime_poll(cadence_runtime* rt, cadence_report* out) {
  static constexpr const char* fn = "cadence_runtime_poll";
  return guard(fn, [&]() -> int {
    if (const int s = check(rt, fn); s != CADENCE_OK) return s;
    if (rt->of_window) return of_window(fn, "the window runs its frames itself (cadence_loop_run)");
    if (rt->depth > 0 || rt->destroying) {
      return fail(CADENCE_E_REENTRANT_CALL, std::string(fn) + ": called from inside the runtime's own frame or "
                                                              "calls; a frame cannot start inside another");
    }
    // Running until the last failure is reported: the handler (and a destroy function of one it
    // replaces) runs inside this poll, which it may not destroy or run again.
    Enter running(rt);
    const ApplyReport report = rt->runtime->poll(rt->runtime->now());
    for (const Failure& f : report.failures) cadence::detail::capi::report(rt, f);
    if (out != nullptr) {
      *out = cadence_report{static_cast<int>(report.update), static_cast<uint32_t>(report.timers_run),
                            static_cast<uint32_t>(report.thread_messages), static_cast<uint32_t>(report.failures.size())};
    }
    return CADENCE_OK;
  });
}

int cadence_runtime_next_wake(cadence_runtime* rt, cadence_ns* out) {
  static constexpr const char* fn = "cadence_runtime_next_wake";
  return guard(fn, [&]() -> int {
    if (const int s = check(rt, fn); s != CADENCE_OK) return s;
    if (out == nullptr) return null_argument(fn, "out");
    const std::optional<Duration> wake = rt->runtime->next_wake();
    *out = wake ? std::max<cadence_ns>(wake->count(), 0) : CADENCE_NEVER;
    return CADENCE_OK;
  });
}

int cadence_runtime_set_waker(cadence_runtime* rt, void (*waker)(void*), void* user, cadence_destroy_fn destroy) {
  static constexpr const char* fn = "cadence_runtime_set_waker";
  UserData data(user, destroy);
  return guard(fn, [&]() -> int {
    if (const int s = check_change(rt, fn); s != CADENCE_OK) return s;
    if (rt->of_window) return of_window(fn, "the window wakes its own loop");
    Enter running(rt);
    if (waker == nullptr) {
      rt->runtime->set_waker({});
      return CADENCE_OK;
    }
    rt->runtime->set_waker([waker, data = std::make_shared<UserData>(std::move(data))] { waker(data->get()); });
    return CADENCE_OK;
  });
}

int cadence_runtime_set_failure_handler(cadence_runtime* rt, cadence_failure_fn handler, void* user,
                                        cadence_destroy_fn destroy) {
  static constexpr const char* fn = "cadence_runtime_set_failure_handler";
  UserData data(user, destroy);
  return guard(fn, [&]() -> int {
    if (const int s = check_change(rt, fn); s != CADENCE_OK) return s;
    Enter running(rt);
    auto next = std::make_shared<cadence_runtime::FailureHandler>(handler, std::move(data));
    std::swap(rt->on_failure, next);
    next.reset();  // the old handler's destroy, once the new one is in place and it has returned
    return CADENCE_OK;
  });
}

int cadence_runtime_request_redraw(cadence_runtime* rt, cadence_ns delay) {
  static constexpr const char* fn = "cadence_runtime_request_redraw";
  return guard(fn, [&]() -> int {
    if (const int s = check(rt, fn); s != CADENCE_OK) return s;
    return status_of(fn, rt->runtime->request_redraw_after(Duration{delay}));
  });
}

int cadence_runtime_set_hidden(cadence_runtime* rt, int hidden) {
  static constexpr const char* fn = "cadence_runtime_set_hidden";
  return guard(fn, [&]() -> int {
    if (const int s = check(rt, fn); s != CADENCE_OK) return s;
    if (rt->of_window) return of_window(fn, "the window knows when it is hidden or minimized");
    Enter running(rt);
    return status_of(fn, rt->runtime->set_hidden(hidden != 0));
  });
}

// ---- Timers ------------------------------------------------------------------------------------

void cadence_timer_options_init(cadence_timer_options* options) {
  if (options == nullptr) return;
  *options = cadence_timer_options{sizeof(cadence_timer_options), 0, 0, CADENCE_NEVER, 0,
                                   CADENCE_MISSED_SKIP, CADENCE_HIDDEN_KEEP, 0};
}

int cadence_timer_add(cadence_runtime* rt, uint64_t id, const cadence_timer_options* options, cadence_timer_fn fn,
                      void* user, cadence_destroy_fn destroy, uint64_t* out_id) {
  static constexpr const char* name = "cadence_timer_add";
  return guard(name, [&]() -> int {
    Enter running(rt != nullptr && check(rt, name) == CADENCE_OK ? rt : nullptr);
    std::optional<Timer> timer;
    if (const int s = prepare_timer(rt, name, options, fn, UserData(user, destroy), timer); s != CADENCE_OK) return s;
    const TimerId tid{timer_id_for(rt, id)};
    if (const int s = status_of(name, rt->runtime->add_timer(tid, std::move(*timer))); s != CADENCE_OK) return s;
    if (out_id != nullptr) *out_id = tid.value;
    return CADENCE_OK;
  });
}

int cadence_timer_replace(cadence_runtime* rt, uint64_t id, const cadence_timer_options* options, cadence_timer_fn fn,
                          void* user, cadence_destroy_fn destroy) {
  static constexpr const char* name = "cadence_timer_replace";
  return guard(name, [&]() -> int {
    Enter running(rt != nullptr && check(rt, name) == CADENCE_OK ? rt : nullptr);
    std::optional<Timer> timer;
    if (const int s = prepare_timer(rt, name, options, fn, UserData(user, destroy), timer); s != CADENCE_OK) return s;
    if (id == 0) {
      timer.reset();
      return fail(CADENCE_E_INVALID_ARGUMENT, std::string(name) + ": id is 0; replace names the timer to replace");
    }
    if (TimerId{id}.is_system()) {
      timer.reset();
      return system_id(name, id);
    }
    (void)timer_id_for(rt, id);  // the app chose it: fresh ids skip it
    return status_of(name, rt->runtime->replace_timer(TimerId{id}, std::move(*timer)));
  });
}

int cadence_timer_remove(cadence_runtime* rt, uint64_t id) {
  return timer_call(rt, "cadence_timer_remove", id, [id](WindowRuntime& r) { return r.remove_timer(TimerId{id}); });
}

int cadence_timer_pause(cadence_runtime* rt, uint64_t id) {
  return timer_call(rt, "cadence_timer_pause", id, [id](WindowRuntime& r) { return r.pause_timer(TimerId{id}); });
}

int cadence_timer_resume(cadence_runtime* rt, uint64_t id) {
  return timer_call(rt, "cadence_timer_resume", id, [id](WindowRuntime& r) { return r.resume_timer(TimerId{id}); });
}

int cadence_timer_exists(cadence_runtime* rt, uint64_t id, int* out) {
  static constexpr const char* name = "cadence_timer_exists";
  return guard(name, [&]() -> int {
    if (const int s = check(rt, name); s != CADENCE_OK) return s;
    if (out == nullptr) return null_argument(name, "out");
    *out = !TimerId{id}.is_system() && rt->runtime->has_timer(TimerId{id}) ? 1 : 0;
    return CADENCE_OK;
  });
}

}  // extern "C"
