// c_api.hpp: what the C API's implementation shares between the runtime and the
// window library (cadence.h is the API; nothing here is for apps).
#pragma once

#include <cstdint>
#include <exception>
#include <memory>
#include <new>
#include <set>
#include <string>
#include <thread>
#include <utility>

#include "cadence/cadence.h"
#include "cadence/export.hpp"
#include "cadence/manual_clock.hpp"
#include "cadence/window_runtime.hpp"

namespace cadence::detail::capi {

/// Records `message` as this thread's last error; returns `status`.
CADENCE_RUNTIME_API int fail(int status, std::string message);
/// The status of an error (Errc + 1), its message recorded after "<function>: ".
CADENCE_RUNTIME_API int fail(const char* function, const Error& error);
inline int status_of(const char* function, const Status& s) { return s.ok() ? CADENCE_OK : fail(function, s.error()); }
/// INVALID_ARGUMENT for a NULL argument: "<function>: <what> is NULL".
inline int null_argument(const char* function, const char* what) {
  return fail(CADENCE_E_INVALID_ARGUMENT, std::string(function) + ": " + what + " is NULL");
}

/// Runs `body` (returning a status), turning anything it throws into one: no exception leaves.
template <class F>
int guard(const char* function, F&& body) noexcept {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return fail(CADENCE_E_NO_MEMORY, std::string(function) + ": out of memory");
  } catch (const std::exception& e) {
    return fail(CADENCE_E_INTERNAL, std::string(function) + ": " + e.what());
  } catch (...) {
    return fail(CADENCE_E_INTERNAL, std::string(function) + ": an unknown exception");
  }
}

/// Checks a struct_size field: this version knows one size of each struct. `type` names it.
template <class Options>
int check_size(const Options& options, const char* function, const char* type) {
  if (options.struct_size == sizeof(Options)) return CADENCE_OK;
  return fail(CADENCE_E_INVALID_ARGUMENT, std::string(function) + ": " + type + ".struct_size is " +
                                              std::to_string(options.struct_size) + ", this cadence knows " +
                                              std::to_string(sizeof(Options)) + ": set it with " + type + "_init()");
}

/// A user pointer and its destroy function, which runs once, when the last owner lets go. What
/// the destroy function's own calls record as the last error does not replace the caller's.
class CADENCE_RUNTIME_API UserData {
 public:
  UserData(void* user, cadence_destroy_fn destroy) noexcept : user_(user), destroy_(destroy) {}
  UserData(UserData&& o) noexcept : user_(o.user_), destroy_(std::exchange(o.destroy_, nullptr)) {}
  UserData& operator=(UserData&&) = delete;
  ~UserData();
  void* get() const noexcept { return user_; }
  /// Hands the pointer and its destroy function over: nothing runs here any more.
  std::pair<void*, cadence_destroy_fn> release() noexcept { return {user_, std::exchange(destroy_, nullptr)}; }

 private:
  void* user_;
  cadence_destroy_fn destroy_;
};

inline constexpr std::uint32_t kRuntimeMagic = 0x43524e54;  // "CRNT"

}  // namespace cadence::detail::capi

/// A runtime handle. Its memory is never reused (see cadence.h: destroyed handles go to a list
/// freed at exit), so every field read here is defined for a destroyed handle too.
struct cadence_runtime {
  std::uint32_t magic = cadence::detail::capi::kRuntimeMagic;
  std::thread::id ui = std::this_thread::get_id();
  cadence::WindowRuntime* runtime = nullptr;  // null once destroyed or its window is gone
  cadence::Instant origin;                    // what C times are counted from
  std::unique_ptr<cadence::ManualClock> clock;
  std::unique_ptr<cadence::WindowRuntime> owned;  // null for a window's runtime
  bool of_window = false;  // a window's runtime: the window polls it and owns its waker
  int depth = 0;  // calls into cadence and app callbacks running on the UI thread
  bool destroying = false;
  /// The failure handler and its user data; a running handler holds a copy, so that replacing
  /// it from inside destroys the old one's data only once it has returned.
  struct FailureHandler {
    FailureHandler(cadence_failure_fn f, cadence::detail::capi::UserData u) : fn(f), user(std::move(u)) {}
    cadence_failure_fn fn;
    cadence::detail::capi::UserData user;
  };
  std::shared_ptr<FailureHandler> on_failure;
  /// Ids the app chose itself for this runtime's timers and threads far ahead of the process's
  /// counters: fresh ids skip them (an id near a counter makes it jump past instead).
  std::set<std::uint64_t> far_timer_ids, far_thread_ids;

  cadence_ns since(cadence::Instant t) const { return (t - origin).count(); }
};

namespace cadence::detail::capi {

/// Counts a call or callback on the runtime's UI thread as running (the destroy check).
class Enter {
 public:
  explicit Enter(cadence_runtime* rt) noexcept : rt_(rt) {
    if (rt_ != nullptr) ++rt_->depth;
  }
  ~Enter() {
    if (rt_ != nullptr) --rt_->depth;
  }
  Enter(const Enter&) = delete;
  Enter& operator=(const Enter&) = delete;

 private:
  cadence_runtime* rt_;
};

/// CADENCE_OK when `rt` is a live runtime and this is its UI thread; else the failure, named
/// after `function`.
CADENCE_RUNTIME_API int check(const cadence_runtime* rt, const char* function);
/// check(), and CLOSED while the runtime is destroyed: for calls that set what it keeps.
CADENCE_RUNTIME_API int check_change(const cadence_runtime* rt, const char* function);
/// The id the app passed for a new timer (thread) of `rt`: itself, or for 0 a fresh one, which
/// is never an id handed out before, nor one the app chose with `rt` (cadence.h's id rule).
/// Cost: O(log n) for n ids the app chose far ahead of the process's counter.
std::uint64_t timer_id_for(cadence_runtime* rt, std::uint64_t id);
std::uint64_t thread_id_for(cadence_runtime* rt, std::uint64_t id);
/// The window is gone: the handle reports closed; its failure handler's destroy runs.
CADENCE_RUNTIME_API void release(cadence_runtime* rt) noexcept;
/// Passes a failure to the handler, or prints it to stderr.
CADENCE_RUNTIME_API void report(cadence_runtime* rt, const Failure& failure) noexcept;
/// Keeps a destroyed handle's memory for the rest of the process (it is never freed, not even
/// at exit, where atexit handlers may still ask about it).
CADENCE_RUNTIME_API void retire_memory(const void* memory);
template <class Handle>
void retire(Handle* handle) {
  retire_memory(handle);
}

}  // namespace cadence::detail::capi
