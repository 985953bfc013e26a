// The workers panel: start background jobs that do real work, watch their progress, cancel them,
// see their results or errors. This is the pattern to copy for background work in an app:
// progress goes through the thread's progress lane (the UI reads the newest value as it draws),
// the result through one last write-back, and the thread's outcome (finished, stopped, failed,
// abandoned) reaches its finish callback exactly once. A one-shot job without progress uses
// Thread::job.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <cadence/window.hpp>

namespace demo {

/// What a worker reports on its progress lane: the newest one is all the UI needs.
struct Progress {
  float fraction = 0;
  std::string text;
};

/// One job as the UI sees it. The worker's writeback data is a pointer to it: write-backs and
/// the finish callback update it on the UI thread, and it outlives the thread so the result
/// stays on screen.
struct Job {
  cadence::ThreadId id;
  std::string name;
  float progress = 0;
  std::string status = "starting";
  std::string result;
  std::string error;
  bool finished = false;
};

class WorkersPanel {
 public:
  void draw(cadence::CallbackContext& ctx);
  /// Starts one job of each kind (the headless demo's script).
  void start_all(cadence::CallbackContext& ctx);
  /// A frame reported a failure: true if it came from one of our workers (its outcome shows it
  /// on the job's row).
  bool on_failure(const cadence::Failure& failure) const;
  std::size_t running() const;

 private:
  void start_primes(cadence::CallbackContext& ctx);
  void start_pi(cadence::CallbackContext& ctx);
  void start_failing(cadence::CallbackContext& ctx);
  Job& add_job(std::string name);
  /// A job whose thread could not start: shown as failed at once, never as running.
  static void not_started(Job& job, const cadence::Error& error);

  std::vector<std::unique_ptr<Job>> jobs_;
};

}  // namespace demo
