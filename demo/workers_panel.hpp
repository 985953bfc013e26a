// The workers panel: start background jobs that do real work, watch their progress, cancel them,
// see their results or errors. This is the pattern to copy for background work in an app.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <cadence/window.hpp>

namespace demo {

/// One job as the UI sees it. The worker's writeback data is a pointer to it: write-backs update
/// it on the UI thread, and it outlives the thread so the result stays on screen.
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
  /// A frame reported a failure: if it came from one of our workers, show it on its row.
  bool on_failure(const cadence::Failure& failure);
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
