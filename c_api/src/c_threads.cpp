// The C API (cadence.h): background threads and the worker's end of their channels.
#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>

#include "cadence/cadence.h"
#include "c_api.hpp"

using namespace cadence;
using namespace cadence::detail::capi;

namespace {
/// A C thread keeps nothing on the UI thread: its data travels in write-backs.
struct NoState {};
}  // namespace

/// The worker's end, on the worker's stack while its function runs.
struct cadence_worker {
  ThreadSender<NoState>& out;
  ThreadReceiver& in;
  cadence_runtime* rt;
  std::thread::id thread = std::this_thread::get_id();
};

namespace {

std::string update_rule(const char* who, int value) {
  return std::string(who) + " returned " + std::to_string(value) +
         ", which is not CADENCE_UPDATE_NOTHING, _REDRAW or _REDRAW_ALL";
}

bool valid_update(int u) { return u >= CADENCE_UPDATE_NOTHING && u <= CADENCE_UPDATE_REDRAW_ALL; }

/// The worker checks every call shares: a live worker, its own thread, a live runtime.
int check_worker(const cadence_worker* w, const char* function) {
  if (w == nullptr) return null_argument(function, "worker");
  if (w->thread != std::this_thread::get_id()) {
    return fail(CADENCE_E_WRONG_THREAD, std::string(function) + ": called off the worker's own thread");
  }
  if (!w->out.connected()) {
    return fail(CADENCE_E_CLOSED, std::string(function) + ": the runtime is gone (its window closed): return");
  }
  return CADENCE_OK;
}

}  // namespace

extern "C" {

void cadence_thread_options_init(cadence_thread_options* options) {
  if (options == nullptr) return;
  *options = cadence_thread_options{sizeof(cadence_thread_options), nullptr, nullptr, nullptr, nullptr,
                                    CADENCE_PRIORITY_BACKGROUND};
}

int cadence_thread_start(cadence_runtime* rt, uint64_t id, const cadence_thread_options* options, uint64_t* out_id) {
  static constexpr const char* fn = "cadence_thread_start";
  // The user data runs its destroy once the worker and on_finish are done with it: both hold it.
  std::shared_ptr<UserData> user;
  if (options != nullptr && options->struct_size == sizeof(cadence_thread_options)) {
    user = std::make_shared<UserData>(options->user, options->destroy);
  }
  return guard(fn, [&]() -> int {
    if (const int s = check(rt, fn); s != CADENCE_OK) return s;
    Enter running(rt);
    if (options == nullptr) return null_argument(fn, "options");
    if (const int s = check_size(*options, fn, "cadence_thread_options"); s != CADENCE_OK) return s;
    const cadence_thread_options o = *options;
    if (o.worker == nullptr) return null_argument(fn, "options->worker");
    if (o.priority != CADENCE_PRIORITY_BACKGROUND && o.priority != CADENCE_PRIORITY_NORMAL) {
      return fail(CADENCE_E_INVALID_ARGUMENT, std::string(fn) + ": priority is " + std::to_string(o.priority) +
                                                  ", not a CADENCE_PRIORITY_* value");
    }
    Thread thread = Thread::create(
        user, NoState{},
        [rt, worker = o.worker](std::shared_ptr<UserData> data, ThreadSender<NoState>& out, ThreadReceiver& in) {
          cadence_worker w{out, in, rt};
          const int r = worker(data->get(), &w);
          if (r == CADENCE_OK) return;
          const char* name = cadence_status_name(r);
          throw std::runtime_error(std::string(name) == "unknown"
                                       ? "the worker returned " + std::to_string(r) + ", which is no cadence_status"
                                       : std::string("the worker returned ") + name);
        },
        [rt, finish = o.on_finish, user](NoState&, const ThreadOutcome& how, CallbackContext&) {
          if (finish == nullptr) return Update::nothing;
          const cadence_outcome c{how.id.value, static_cast<int>(how.kind), how.message.c_str()};
          int r;
          {
            Enter finishing(rt->ui == std::this_thread::get_id() ? rt : nullptr);
            r = finish(user->get(), rt, &c);
          }
          if (!valid_update(r)) throw std::runtime_error(update_rule("on_finish", r));
          return static_cast<Update>(r);
        });
    user.reset();  // the thread holds it now (or, if it is refused, nothing does: destroy runs)
    thread.with_priority(o.priority == CADENCE_PRIORITY_NORMAL ? ThreadPriority::normal : ThreadPriority::background);
    const ThreadId tid{thread_id_for(rt, id)};
    if (const int s = status_of(fn, rt->runtime->start_thread(tid, std::move(thread))); s != CADENCE_OK) return s;
    if (out_id != nullptr) *out_id = tid.value;
    return CADENCE_OK;
  });
}

int cadence_thread_stop(cadence_runtime* rt, uint64_t id) {
  static constexpr const char* fn = "cadence_thread_stop";
  return guard(fn, [&]() -> int {
    if (const int s = check(rt, fn); s != CADENCE_OK) return s;
    Enter running(rt);
    return status_of(fn, rt->runtime->stop_thread(ThreadId{id}));
  });
}

int cadence_thread_send(cadence_runtime* rt, uint64_t id, void* data, cadence_destroy_fn destroy) {
  static constexpr const char* fn = "cadence_thread_send";
  UserData message(data, destroy);
  return guard(fn, [&]() -> int {
    if (const int s = check(rt, fn); s != CADENCE_OK) return s;
    Enter running(rt);
    return status_of(fn, rt->runtime->send_to_thread(ThreadId{id}, Payload::of(std::move(message))));
  });
}

int cadence_thread_progress(cadence_runtime* rt, uint64_t id, double* out) {
  static constexpr const char* fn = "cadence_thread_progress";
  return guard(fn, [&]() -> int {
    if (const int s = check(rt, fn); s != CADENCE_OK) return s;
    if (out == nullptr) return null_argument(fn, "out");
    if (!rt->runtime->has_thread(ThreadId{id})) {
      return fail(CADENCE_E_NOT_FOUND, std::string(fn) + ": no thread has id " + std::to_string(id));
    }
    const double* value = rt->runtime->thread_progress<double>(ThreadId{id});
    if (value == nullptr) {
      return fail(CADENCE_E_EMPTY, std::string(fn) + ": thread " + std::to_string(id) + " has reported no progress yet");
    }
    *out = *value;
    return CADENCE_OK;
  });
}

int cadence_thread_exists(cadence_runtime* rt, uint64_t id, int* out) {
  static constexpr const char* fn = "cadence_thread_exists";
  return guard(fn, [&]() -> int {
    if (const int s = check(rt, fn); s != CADENCE_OK) return s;
    if (out == nullptr) return null_argument(fn, "out");
    *out = rt->runtime->has_thread(ThreadId{id}) ? 1 : 0;
    return CADENCE_OK;
  });
}

// ---- The worker's end ----------------------------------------------------------------------------

int cadence_worker_progress(cadence_worker* w, double value) {
  static constexpr const char* fn = "cadence_worker_progress";
  return guard(fn, [&]() -> int {
    if (const int s = check_worker(w, fn); s != CADENCE_OK) return s;
    return w->out.progress(value) ? CADENCE_OK : fail(CADENCE_E_CLOSED, std::string(fn) + ": the runtime is gone");
  });
}

int cadence_worker_update(cadence_worker* w, int update) {
  static constexpr const char* fn = "cadence_worker_update";
  return guard(fn, [&]() -> int {
    if (w != nullptr && !valid_update(update)) {
      return fail(CADENCE_E_INVALID_ARGUMENT, std::string(fn) + ": update is " + std::to_string(update) +
                                                  ", not a CADENCE_UPDATE_* value");
    }
    if (const int s = check_worker(w, fn); s != CADENCE_OK) return s;
    return w->out.update(static_cast<Update>(update)) ? CADENCE_OK
                                                       : fail(CADENCE_E_CLOSED, std::string(fn) + ": the runtime is gone");
  });
}

int cadence_worker_write_back(cadence_worker* w, cadence_writeback_fn wb, void* data, cadence_destroy_fn destroy) {
  static constexpr const char* fn = "cadence_worker_write_back";
  UserData payload(data, destroy);
  return guard(fn, [&]() -> int {
    if (const int s = check_worker(w, fn); s != CADENCE_OK) return s;
    if (wb == nullptr) return null_argument(fn, "fn");
    cadence_runtime* rt = w->rt;
    const bool sent = w->out.write_back([rt, wb, p = std::move(payload)](NoState&, CallbackContext&) {
      int r;
      {
        Enter running(rt);
        r = wb(p.get(), rt);
      }
      if (!valid_update(r)) throw std::runtime_error(update_rule("a write-back", r));
      return static_cast<Update>(r);
    });
    return sent ? CADENCE_OK : fail(CADENCE_E_CLOSED, std::string(fn) + ": the runtime is gone");
  });
}

int cadence_worker_receive(cadence_worker* w, cadence_ns timeout, int ticks, cadence_message* out) {
  static constexpr const char* fn = "cadence_worker_receive";
  return guard(fn, [&]() -> int {
    if (w == nullptr) return null_argument(fn, "worker");
    if (out == nullptr) return null_argument(fn, "out");
    if (w->thread != std::this_thread::get_id()) {
      return fail(CADENCE_E_WRONG_THREAD, std::string(fn) + ": called off the worker's own thread");
    }
    // Once the stop request was taken, nothing more ends a wait when the runtime goes: the wait
    // is cut into slices that look whether it is gone (while it lives, none of this runs).
    using Clock = std::chrono::steady_clock;
    const Clock::time_point start = Clock::now();
    std::optional<ThreadMessage> m;
    for (;;) {
      const Duration left = timeout == CADENCE_NEVER
                                ? Duration::max()
                                : saturating_sub(Duration{timeout}, std::chrono::duration_cast<Duration>(Clock::now() - start));
      const Duration slice = w->in.stop_requested() ? std::min<Duration>(left, std::chrono::milliseconds(50)) : left;
      m = w->in.receive_for(slice, ticks != 0);
      if (m) break;
      if (!w->out.connected()) {
        return fail(CADENCE_E_CLOSED, std::string(fn) + ": the runtime is gone (its window closed): return");
      }
      if (slice == left) break;
    }
    if (!m) return fail(CADENCE_E_EMPTY, std::string(fn) + ": no message came within the timeout");
    *out = cadence_message{CADENCE_MESSAGE_TICK, nullptr, nullptr};
    if (m->is_terminate()) out->kind = CADENCE_MESSAGE_TERMINATE;
    if (m->is_custom()) {
      out->kind = CADENCE_MESSAGE_CUSTOM;
      if (UserData* sent = m->payload.get<UserData>()) std::tie(out->data, out->destroy) = sent->release();
    }
    return CADENCE_OK;
  });
}

int cadence_worker_stop_requested(const cadence_worker* w) { return w != nullptr && w->in.stop_requested() ? 1 : 0; }

}  // extern "C"
