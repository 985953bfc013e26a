// cadence/thread.hpp: background work that reports back to the UI thread.
//
// A Thread is a worker function run on its own thread, with init data, moved into the worker
// when it starts, and writeback data, which stays with the runtime on the UI thread and is only
// ever touched by write-back functions, run there. Two channels connect them:
// - UI -> worker (ThreadReceiver): Tick (once per frame, best effort: a worker that does not read
//   sees one Tick, however many frames passed), Terminate, Custom(payload).
// - worker -> UI (ThreadSender): WriteBack(payload, fn), where fn(writeback_data, payload,
//   context) runs on the UI thread and returns an update request, and Update(request); beside
//   them a latest-value lane, progress(value), which keeps only the newest report.
// Stopping is cooperative: Terminate and the worker's std::stop_token ask. The thread is finished
// once the worker function has returned; everything it sent is delivered first, then its one
// ThreadOutcome reaches its finish callback, and it is removed. A worker that throws is also
// reported to the window's failures with its message.
//
//     #include <cadence/window_runtime.hpp>
//     #include <string>
//     using namespace cadence;
//     void parse_chunk(const std::string& path, int chunk);  // the app's own work
//     struct Parsed { std::string status; };
//     WindowRuntime runtime(TimeSource::system());
//     Thread job = Thread::create(
//         std::string("data.csv"), Parsed{},
//         [](std::string path, ThreadSender<Parsed>& out, ThreadReceiver&, std::stop_token stop) {
//           for (int i = 1; i <= 100 && !stop.stop_requested(); ++i) {
//             parse_chunk(path, i);
//             out.progress(i / 100.0);  // the UI sees the newest value, once per frame at most
//           }
//         },
//         [](Parsed& p, const ThreadOutcome& how, CallbackContext&) {  // once, after all it sent
//           p.status = how.ok() ? to_string(how.kind) : how.message;
//           return Update::redraw_window;
//         });
//     const ThreadId id = ThreadId::unique();
//     (void)runtime.start_thread(id, std::move(job));
//     const double* done = runtime.thread_progress<double>(id);  // nullptr until its first report
//
// Write-backs and finish callbacks run on the UI thread and may call their runtime as a timer
// callback may (window_runtime.hpp: inside a frame); a write-back's payload is destroyed there
// (or on the worker's thread if the window closed first). The writeback data is destroyed on the
// UI thread once the thread is removed, and its destructor may call the runtime too. The worker
// function itself must not touch the runtime.
#pragma once

#include <concepts>
#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <stop_token>
#include <thread>
#include <type_traits>
#include <typeinfo>
#include <utility>

#include "cadence/detail/thread_core.hpp"
#include "cadence/detail/unique_function.hpp"
#include "cadence/export.hpp"
#include "cadence/ids.hpp"
#include "cadence/payload.hpp"
#include "cadence/time.hpp"
#include "cadence/timer.hpp"

namespace cadence {

class CallbackContext;

/// How a started thread ended. Each gets exactly one, on the UI thread, after everything its
/// worker sent: its finish callback's argument (Thread::create's `on_finish`, Thread::job's `done`).
struct ThreadOutcome {
  enum class Kind : std::uint8_t {
    finished,   ///< the worker function returned, unasked
    stopped,    ///< it returned after a stop request (stop_thread(), Terminate, its stop_token)
    failed,     ///< it threw; `message` says what (also reported to the window's failures)
    abandoned,  ///< its window's runtime was destroyed while the thread was still in it
  };
  Kind kind = Kind::finished;
  std::string message;  ///< failed: what the worker threw; else empty
  ThreadId id;

  bool ok() const noexcept { return kind == Kind::finished || kind == Kind::stopped; }
};

/// "finished", "stopped", "failed" or "abandoned".
CADENCE_RUNTIME_API const char* to_string(ThreadOutcome::Kind kind) noexcept;

/// How the system schedules a worker against the UI thread.
enum class ThreadPriority : std::uint8_t {
  /// The default: below the UI thread, so that CPU-bound workers do not make frames and timers
  /// late (Linux: the worker thread's nice value is raised by kBackgroundNice, to 19 at most;
  /// Windows: the level below the starting thread's, THREAD_PRIORITY_BELOW_NORMAL from a normal
  /// thread, HIGHEST from TIME_CRITICAL, and LOWEST and IDLE kept; elsewhere nothing changes).
  background,
  /// The same as the thread that started it (for work the user waits on, or latency-bound I/O).
  normal,
};

/// How much a background worker's nice value is raised (Linux). With CFS/EEVDF a nice-10 thread
/// gets about a tenth of the CPU time of a nice-0 thread it competes with.
inline constexpr int kBackgroundNice = 10;

/// What a worker receives.
struct ThreadMessage {
  enum class Kind : std::uint8_t { tick, terminate, custom };
  Kind kind = Kind::tick;
  Payload payload;  ///< for custom messages

  bool is_tick() const noexcept { return kind == Kind::tick; }
  bool is_terminate() const noexcept { return kind == Kind::terminate; }
  bool is_custom() const noexcept { return kind == Kind::custom; }
};

/// The worker's end of the UI -> worker channel. It cannot be copied or moved.
/// For every member: Thread: the worker's; elsewhere a receive takes nothing and returns nullopt at once.
/// Where: anywhere on the worker's thread.
/// Errors: none.
/// Cost: O(1).
class CADENCE_RUNTIME_API ThreadReceiver {
 public:
  explicit ThreadReceiver(detail::ThreadCore& core) noexcept : core_(core), frames_seen_(core.first_frame) {}
  ThreadReceiver(const ThreadReceiver&) = delete;
  ThreadReceiver& operator=(const ThreadReceiver&) = delete;

  /// The next message without waiting, or nullopt. Custom messages come in the order they were
  /// sent; then Terminate, once, after the thread was asked to stop; then one Tick if frames
  /// started since the last Tick.
  /// Cost: a lock and two atomic loads.
  std::optional<ThreadMessage> try_receive();
  /// Waits up to `timeout` for a message (a stop request ends the wait: it is a message).
  /// With `ticks` false, a Tick does not end the wait: a worker that waits for jobs costs the
  /// UI thread nothing per frame. Returns nullopt on timeout.
  /// - `Duration::max()` (or any timeout past the end of the steady clock) waits until a
  ///   message comes, however long; a timeout <= 0 (down to `Duration::min()`) does not wait.
  /// - Terminate ends one wait only: once the worker has received it, later calls wait for
  ///   Custom messages (and Ticks) for their whole timeout, so a worker may drain its last jobs.
  /// Cost: the wait, and a lock.
  std::optional<ThreadMessage> receive_for(Duration timeout, bool ticks = true);
  /// Thread: any (an atomic load).
  bool stop_requested() const noexcept { return core_.stop.stop_requested(); }
  std::stop_token stop_token() const noexcept { return core_.stop.get_token(); }

 private:
  bool has_message(bool ticks) const;
  bool on_worker() const noexcept { return std::this_thread::get_id() == owner_; }
  detail::ThreadCore& core_;
  std::thread::id owner_ = std::this_thread::get_id();  // the worker's thread
  std::uint64_t frames_seen_ = 0;
  bool terminate_seen_ = false;
};

/// The worker's end of the worker -> UI channel. `State` is the thread's writeback data type.
/// Sending never blocks and never drops a message while the runtime lives: the channel is an
/// unbounded lock-free queue with one producer. It cannot be copied or moved.
/// For every member: Thread: the worker's own; from another (a helper it started) nothing is sent: false.
/// Where: anywhere on the worker's thread.
/// Errors: none; a send returns false once the runtime is gone (the window closed): finish then.
/// Cost: ~10 ns.
template <class State>
class ThreadSender {
 public:
  explicit ThreadSender(detail::ThreadCore& core) noexcept : core_(core) {}
  ThreadSender(const ThreadSender&) = delete;
  ThreadSender& operator=(const ThreadSender&) = delete;

  /// Asks the window to redraw (or, with Update::nothing, just to wake).
  bool update(Update request = Update::redraw_window) {
    if (!connected() || !on_worker()) return false;
    detail::WorkerMessage m;
    m.kind = detail::WorkerMessage::Kind::update;
    m.update = request;
    core_.post(std::move(m));
    return true;
  }

  /// Sends `payload` (moved) and `fn`. On the UI thread the runtime calls
  /// fn(State& writeback_data, P& payload, CallbackContext& context), which returns an Update
  /// (or nothing).
  /// Cost: ~10 ns, plus one allocation if fn and payload exceed 48 bytes.
  template <class P, class F>
    requires std::invocable<F&, State&, P&, CallbackContext&>
  bool write_back(P payload, F fn) {
    return write_back([payload = std::move(payload), fn = std::move(fn)](State& state, CallbackContext& ctx) mutable {
      return call(fn, state, payload, ctx);
    });
  }
  /// Sends `fn` alone: fn(State& writeback_data, CallbackContext& context) on the UI thread.
  /// Cost: as above.
  template <class F>
    requires std::invocable<F&, State&, CallbackContext&>
  bool write_back(F fn) {
    if (!connected() || !on_worker()) return false;
    detail::WorkerMessage m;
    m.kind = detail::WorkerMessage::Kind::write_back;
    m.apply = [fn = std::move(fn)](void* state, CallbackContext& ctx) mutable -> Update {
      return call(fn, *static_cast<State*>(state), ctx);
    };
    core_.post(std::move(m));
    return true;
  }

  /// Reports progress on the thread's latest-value lane: `value` overwrites the lane's slot, and
  /// the UI thread takes the newest value at most once per frame (WindowRuntime::thread_progress
  /// reads it; each new value asks for a redraw). However often the worker reports, the UI is
  /// woken at most once per frame and the lane holds two values at most (the UI's and the
  /// newest): nothing queues. The last value reported before the worker returns is taken before its
  /// finish callback runs (after that frame's take, by the next frame, which comes at once).
  /// Errors: false as a send; what the value's copy throws reaches the caller, the lane still usable.
  /// Cost: an uncontended lock and an assignment; a report of another type than the last allocates both.
  template <class V>
  bool progress(V&& value) {
    using D = std::decay_t<V>;
    static_assert(std::is_move_constructible_v<D>,
                  "ThreadSender::progress(value): the value must be copyable or movable; it is moved into the "
                  "thread's progress slot and read on the UI thread");
    if (!connected() || !on_worker()) return false;
    core_.report_progress(std::forward<V>(value));
    return true;
  }

  /// False once the runtime that started this thread is gone.
  /// Thread: any.
  bool connected() const noexcept { return detail::alive(*core_.link); }

 private:
  friend class Thread;
  /// A job's result: fn(State&, CallbackContext&) on the UI thread, the worker's last message.
  template <class F>
  void post_result(F fn) {
    detail::WorkerMessage m;
    m.kind = detail::WorkerMessage::Kind::write_back;
    m.apply = [fn = std::move(fn)](void* state, CallbackContext& ctx) mutable -> Update {
      fn(*static_cast<State*>(state), ctx);
      return Update::nothing;
    };
    core_.post_result(std::move(m));
  }

  bool on_worker() const noexcept { return std::this_thread::get_id() == owner_; }
  template <class F, class... A>
  static Update call(F& fn, A&... args) {
    if constexpr (std::is_void_v<std::invoke_result_t<F&, A&...>>) {
      fn(args...);
      return Update::nothing;
    } else {
      return Update(fn(args...));
    }
  }
  detail::ThreadCore& core_;
  std::thread::id owner_ = std::this_thread::get_id();  // the worker's thread
};

/// For every member: Thread: any; a Thread is a plain value until it is started (start_thread).
/// Where: anywhere.
/// Errors: none; a worker, on_finish or done of the wrong signature is a compile error saying so.
/// Cost: O(1); create() and job() allocate the writeback data and the functions.
class Thread {
 public:
  /// A thread that, once started, runs worker(std::move(init), sender, receiver, stop_token) on a
  /// new std::thread; the stop_token parameter may be left out. `writeback_data` stays with the
  /// runtime on the UI thread.
  template <class Init, class State, class Worker>
  static Thread create(Init init, State writeback_data, Worker worker) {
    return create(std::move(init), std::move(writeback_data), std::move(worker),
                  [](State&, const ThreadOutcome&, CallbackContext&) {});
  }
  /// The same, plus `on_finish(State& writeback_data, const ThreadOutcome& outcome,
  /// CallbackContext& context)`, run once on the UI thread when the thread ends (ThreadOutcome
  /// says how), after every write-back it sent. It returns an Update or nothing; it may call the
  /// runtime as a write-back may. Abandoned: it runs while the runtime is destroyed, and what it
  /// asks of the runtime is refused with `closed`. If it throws, the failure is reported and the
  /// thread is removed all the same.
  template <class Init, class State, class Worker, class OnFinish>
  static Thread create(Init init, State writeback_data, Worker worker, OnFinish on_finish) {
    static_assert(std::is_invocable_v<OnFinish&, State&, const ThreadOutcome&, CallbackContext&>,
                  "on_finish takes (State& writeback_data, const ThreadOutcome&, CallbackContext&)");
    static_assert(std::is_invocable_v<Worker&, Init&&, ThreadSender<State>&, ThreadReceiver&, std::stop_token> ||
                      std::is_invocable_v<Worker&, Init&&, ThreadSender<State>&, ThreadReceiver&>,
                  "the worker takes (Init, ThreadSender<State>&, ThreadReceiver&[, std::stop_token])");
    Thread t;
    t.writeback_ = std::make_shared<State>(std::move(writeback_data));
    t.type_ = &typeid(State);
    t.body_ = [init = std::move(init), worker = std::move(worker)](detail::ThreadCore& core) mutable {
      ThreadSender<State> sender(core);
      ThreadReceiver receiver(core);
      if constexpr (std::is_invocable_v<Worker&, Init&&, ThreadSender<State>&, ThreadReceiver&, std::stop_token>) {
        worker(std::move(init), sender, receiver, core.stop.get_token());
      } else {
        worker(std::move(init), sender, receiver);
      }
    };
    t.finish_ = [fn = std::move(on_finish)](void* state, const ThreadOutcome& outcome, CallbackContext& ctx) mutable {
      if constexpr (std::is_void_v<std::invoke_result_t<OnFinish&, State&, const ThreadOutcome&, CallbackContext&>>) {
        fn(*static_cast<State*>(state), outcome, ctx);
        return Update::nothing;
      } else {
        return Update(fn(*static_cast<State*>(state), outcome, ctx));
      }
    };
    return t;
  }

  /// The common one-job case: runs `work()` (or `work(std::stop_token)`) on a new thread and
  /// hands what it returns to `done` on the UI thread:
  /// `done(std::optional<R>& value, const ThreadOutcome& outcome, CallbackContext& context)`,
  /// where `value` holds the result whenever the work returned (outcome finished; stopped if a
  /// stop was asked for meanwhile; abandoned if its window closed after it returned but before a
  /// frame delivered it, even as it returned: nothing is lost) and is empty when it threw or was
  /// abandoned before it returned (still running at the window's join deadline). For work that
  /// returns void, `done(const ThreadOutcome&, CallbackContext&)`.
  /// `done` returns an Update or nothing; it runs exactly once, as on_finish does. R must be
  /// movable (a compile error says so otherwise).
  ///
  ///     #include <cadence/window_runtime.hpp>
  ///     #include <string>
  ///     using namespace cadence;
  ///     long count_lines(const std::string& path);
  ///     WindowRuntime runtime(TimeSource::system());
  ///     std::string status;
  ///     (void)runtime.start_thread(ThreadId::unique(), Thread::job(
  ///         [] { return count_lines("data.csv"); },
  ///         [&](std::optional<long>& lines, const ThreadOutcome& how, CallbackContext&) {
  ///           status = lines ? std::to_string(*lines) + " lines" : how.message;
  ///           return Update::redraw_window;
  ///         }));
  template <class Work, class Done>
  static Thread job(Work work, Done done) {
    constexpr bool takes_stop = std::is_invocable_v<Work&, std::stop_token>;
    static_assert(takes_stop || std::is_invocable_v<Work&>, "a job's work takes () or (std::stop_token)");
    using R = typename std::conditional_t<takes_stop, std::invoke_result<Work&, std::stop_token>,
                                          std::invoke_result<Work&>>::type;
    if constexpr (std::is_void_v<R>) {
      static_assert(std::is_invocable_v<Done&, const ThreadOutcome&, CallbackContext&>,
                    "the done callback of a job whose work returns void takes (const ThreadOutcome&, "
                    "CallbackContext&)");
      return create(
          std::move(work), Nothing{},
          [](Work w, ThreadSender<Nothing>&, ThreadReceiver& in) { run_job(w, in); },
          [d = std::move(done)](Nothing&, const ThreadOutcome& outcome, CallbackContext& ctx) mutable {
            return d(outcome, ctx);
          });
    } else {
      static_assert(std::is_move_constructible_v<R>, "a job's result must be movable: it goes to the UI thread");
      static_assert(std::is_invocable_v<Done&, std::optional<R>&, const ThreadOutcome&, CallbackContext&>,
                    "a job's done callback takes (std::optional<R>& value, const ThreadOutcome&, CallbackContext&)");
      return create(
          std::move(work), std::optional<R>{},
          [](Work w, ThreadSender<std::optional<R>>& out, ThreadReceiver& in) {
            out.post_result([value = run_job(w, in)](std::optional<R>& slot, CallbackContext&) mutable {
              slot.emplace(std::move(value));
            });
          },
          std::move(done));
    }
  }

  Thread(Thread&&) noexcept = default;
  Thread& operator=(Thread&&) noexcept = default;

  /// Sets how the worker is scheduled (default: ThreadPriority::background).
  Thread& with_priority(ThreadPriority priority) & {
    priority_ = priority;
    return *this;
  }
  Thread&& with_priority(ThreadPriority priority) && { return std::move(with_priority(priority)); }
  ThreadPriority priority() const noexcept { return priority_; }

  /// The writeback data, for inspection on the UI thread (nullptr if `State` is not its type).
  template <class State>
  State* writeback_data() const noexcept {
    return *type_ == typeid(State) ? static_cast<State*>(writeback_.get()) : nullptr;
  }

 private:
  friend struct detail::ThreadTableAccess;
  Thread() = default;

  struct Nothing {};
  template <class Work>
  static decltype(auto) run_job(Work& w, ThreadReceiver& in) {
    if constexpr (std::is_invocable_v<Work&, std::stop_token>) {
      return w(in.stop_token());
    } else {
      return w();
    }
  }

  std::shared_ptr<void> writeback_;
  const std::type_info* type_ = &typeid(void);
  detail::UniqueFunction<void(detail::ThreadCore&)> body_;
  detail::UniqueFunction<Update(void*, const ThreadOutcome&, CallbackContext&)> finish_;
  ThreadPriority priority_ = ThreadPriority::background;
};

}  // namespace cadence
