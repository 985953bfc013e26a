#include "workers_panel.hpp"

#include <imgui.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

namespace demo {

using namespace cadence;

Job& WorkersPanel::add_job(std::string name) {
  jobs_.push_back(std::make_unique<Job>());
  Job& job = *jobs_.back();
  job.id = ThreadId::unique();
  job.name = std::move(name);
  return job;
}

void WorkersPanel::not_started(Job& job, const cadence::Error& error) {
  job.error = error.message;
  job.status = "could not start";
  job.finished = true;
}

namespace {

// Every job's finish callback: its one outcome, shown on its row.
Update show_outcome(Job& job, const ThreadOutcome& how) {
  job.finished = true;
  switch (how.kind) {
    case ThreadOutcome::Kind::finished:
      job.status = "done";
      job.progress = 1.0f;
      break;
    case ThreadOutcome::Kind::stopped:
      job.status = "cancelled";
      break;
    case ThreadOutcome::Kind::failed:
      job.status = "failed";
      job.error = how.message;
      break;
    case ThreadOutcome::Kind::abandoned:  // the window closed first
      job.status = "abandoned";
      break;
  }
  return Update::redraw_window;
}

Update on_finish(Job*& job, const ThreadOutcome& how, CallbackContext&) { return show_outcome(*job, how); }

// The result: one write-back, delivered before the thread's outcome.
void report_result(ThreadSender<Job*>& out, std::string result) {
  out.write_back(std::move(result), [](Job*& job, std::string& r, CallbackContext&) { job->result = std::move(r); });
}

}  // namespace

void WorkersPanel::start_primes(CallbackContext& ctx) {
  Job& job = add_job("count primes below 40,000,000");
  // Segmented sieve of Eratosthenes, 64 segments: real work, progress after each segment.
  const Status s = ctx.start_thread(job.id, Thread::create(std::uint64_t{40'000'000}, &job,
      [](std::uint64_t limit, ThreadSender<Job*>& out, ThreadReceiver&, std::stop_token stop) {
        const auto root = static_cast<std::uint64_t>(std::sqrt(static_cast<double>(limit))) + 1;
        std::vector<bool> small(root + 1, true);
        std::vector<std::uint64_t> base;
        for (std::uint64_t i = 2; i <= root; ++i) {
          if (!small[i]) continue;
          base.push_back(i);
          for (std::uint64_t j = i * i; j <= root; j += i) small[j] = false;
        }
        constexpr int kSegments = 64;
        const std::uint64_t width = limit / kSegments + 1;
        std::uint64_t count = 0;
        std::vector<bool> segment(width);
        for (int k = 0; k < kSegments; ++k) {
          if (stop.stop_requested()) return report_result(out, "stopped after " + std::to_string(count) + " primes");
          const std::uint64_t lo = static_cast<std::uint64_t>(k) * width;
          const std::uint64_t hi = std::min(limit, lo + width);
          std::fill(segment.begin(), segment.end(), true);
          for (std::uint64_t p : base) {
            std::uint64_t start = std::max(p * p, (lo + p - 1) / p * p);
            for (std::uint64_t j = start; j < hi; j += p) segment[j - lo] = false;
          }
          for (std::uint64_t n = std::max<std::uint64_t>(lo, 2); n < hi; ++n) count += segment[n - lo] ? 1 : 0;
          out.progress(Progress{static_cast<float>(k + 1) / kSegments, std::to_string(count) + " so far"});
        }
        report_result(out, std::to_string(count) + " primes");
      },
      on_finish));
  if (!s) not_started(job, s.error());
}

void WorkersPanel::start_pi(CallbackContext& ctx) {
  Job& job = add_job("estimate pi, 200 million samples");
  const Status s = ctx.start_thread(job.id, Thread::create(std::uint64_t{200'000'000}, &job,
      [](std::uint64_t samples, ThreadSender<Job*>& out, ThreadReceiver&, std::stop_token stop) {
        std::mt19937_64 rng(42);
        std::uniform_real_distribution<double> unit(0.0, 1.0);
        constexpr int kChunks = 1000;
        const std::uint64_t per_chunk = samples / kChunks;
        std::uint64_t inside = 0;
        double pi = 0;
        for (int c = 0; c < kChunks; ++c) {
          if (stop.stop_requested()) return report_result(out, "stopped at pi ~ " + std::to_string(pi));
          for (std::uint64_t i = 0; i < per_chunk; ++i) {
            const double x = unit(rng), y = unit(rng);
            inside += (x * x + y * y <= 1.0) ? 1 : 0;
          }
          pi = 4.0 * static_cast<double>(inside) / static_cast<double>(per_chunk * static_cast<std::uint64_t>(c + 1));
          // A thousand reports: the lane keeps the newest, the UI reads it once per frame.
          out.progress(Progress{static_cast<float>(c + 1) / kChunks, "pi ~ " + std::to_string(pi)});
        }
        report_result(out, "pi ~ " + std::to_string(pi));
      },
      on_finish));
  if (!s) not_started(job, s.error());
}

void WorkersPanel::start_failing(CallbackContext& ctx) {
  Job& job = add_job("verify archive (fails half way)");
  job.status = "verifying";
  // One job, one result (or its error): Thread::job, no write-back by hand.
  Job* row = &job;
  const Status s = ctx.start_thread(job.id, Thread::job(
      [](std::stop_token stop) -> std::string {
        for (int block = 1; block <= 40; ++block) {
          // Pretend each block takes a while.
          std::this_thread::sleep_for(std::chrono::milliseconds(25));
          if (stop.stop_requested()) return "stopped at block " + std::to_string(block);
          if (block == 20) throw std::runtime_error("checksum mismatch in block " + std::to_string(block));
        }
        return "archive intact";
      },
      [row](std::optional<std::string>& result, const ThreadOutcome& how, CallbackContext&) {
        if (result) row->result = *result;
        return show_outcome(*row, how);
      }));
  if (!s) not_started(job, s.error());
}

void WorkersPanel::start_all(CallbackContext& ctx) {
  start_primes(ctx);
  start_pi(ctx);
  start_failing(ctx);
}

bool WorkersPanel::on_failure(const Failure& failure) const {
  for (const auto& job : jobs_) {
    if (job->id == failure.thread) return true;  // its outcome shows it on its row
  }
  return false;
}

std::size_t WorkersPanel::running() const {
  std::size_t n = 0;
  for (const auto& job : jobs_) n += job->finished ? 0 : 1;
  return n;
}

void WorkersPanel::draw(CallbackContext& ctx) {
  if (ImGui::Button("Count primes")) start_primes(ctx);
  ImGui::SameLine();
  if (ImGui::Button("Estimate pi")) start_pi(ctx);
  ImGui::SameLine();
  if (ImGui::Button("Verify archive (fails)")) start_failing(ctx);
  ImGui::SameLine();
  if (ImGui::Button("Clear finished")) {
    std::erase_if(jobs_, [](const std::unique_ptr<Job>& j) { return j->finished; });
  }
  for (auto& job : jobs_) {
    // The newest value on the job's progress lane, as of this frame.
    if (const Progress* p = ctx.runtime().thread_progress<Progress>(job->id); p != nullptr && !job->finished) {
      job->progress = p->fraction;
      job->status = p->text;
    }
    ImGui::PushID(static_cast<int>(job->id.value));
    ImGui::TextUnformatted(job->name.c_str());
    ImGui::ProgressBar(job->progress, ImVec2(260, 0), job->status.c_str());
    ImGui::SameLine();
    if (!job->finished) {
      if (ImGui::SmallButton("Cancel")) (void)ctx.stop_thread(job->id);
    } else if (!job->error.empty()) {
      ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "error: %s", job->error.c_str());
    } else {
      ImGui::TextColored(ImVec4(0.5f, 0.9f, 0.5f, 1.0f), "%s", job->result.c_str());
    }
    ImGui::PopID();
  }
  if (jobs_.empty()) ImGui::TextDisabled("No jobs yet. Each runs on its own thread and reports back.");
}

}  // namespace demo
