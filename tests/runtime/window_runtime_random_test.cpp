// Random timers, random frames: next_wake() must agree with what runs. Sleeping until it and
// running a frame runs something; a frame before it runs nothing that was not running on every
// frame anyway; and no timer runs before its due time or after its due time plus its slack.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "runtime_fixture.hpp"

namespace cadence::testing {
namespace {

std::int64_t us(Instant t) { return std::chrono::duration_cast<std::chrono::microseconds>(t.since_origin()).count(); }

std::string describe(const std::optional<TimerStatus>& s) {
  if (!s) return "gone";
  return "runs " + std::to_string(s->run_count) + " last " + (s->last_run ? std::to_string(us(*s->last_run)) : "-") +
         " next " + (s->next_due ? std::to_string(us(*s->next_due)) : "-") + " paused " + std::to_string(s->paused) +
         " created " + std::to_string(us(s->created));
}

struct Tracked {
  Duration slack{0};
  bool ran_this_frame = false;
  bool every_frame_run = false;  // its last run was an every-frame (animation) run
};

class RandomNextWakeTest : public RuntimeFixture {
 protected:
  Timer random_timer(TimerId id) {
    std::uniform_int_distribution<int> pick(0, 99);
    const int kind = pick(rng_);
    Duration delay = std::chrono::milliseconds(std::uniform_int_distribution<int>(0, 2000)(rng_));
    if (pick(rng_) < 20) delay += std::chrono::microseconds(std::uniform_int_distribution<int>(1, 999)(rng_));
    Timer t([this, id](TimerCallbackInfo& info) {
      Tracked& tr = tracked_[id];
      EXPECT_FALSE(tr.ran_this_frame && !burst_[id]) << "ran twice in one frame";
      tr.ran_this_frame = true;
      tr.every_frame_run = every_frame_[id] && info.call_count > 0;
      if (std::uniform_int_distribution<int>(0, 99)(rng_) < 3) {
        EXPECT_TRUE(info.context.remove_timer(info.id).ok());
      }
      if (std::uniform_int_distribution<int>(0, 99)(rng_) < 3) {
        const TimerId child = TimerId::unique();
        EXPECT_TRUE(info.context.add_timer(child, random_timer(child)).ok());  // random_timer() tracks it
      }
      return TimerCallbackReturn{};
    });
    t.with_delay(delay);
    every_frame_[id] = kind < 10;
    if (kind >= 10) t.with_interval(std::chrono::milliseconds(std::uniform_int_distribution<int>(1, 400)(rng_)));
    if (kind < 10 || pick(rng_) < 30) {
      t.with_timeout(delay + std::chrono::milliseconds(std::uniform_int_distribution<int>(0, 3000)(rng_)));
    }
    if (pick(rng_) < 20) t.with_slack(std::chrono::milliseconds(std::uniform_int_distribution<int>(1, 100)(rng_)));
    const int policy = pick(rng_);
    t.with_missed_ticks(policy < 60 ? MissedTicks::skip : policy < 80 ? MissedTicks::delay : MissedTicks::burst);
    burst_[id] = policy >= 80;
    tracked_[id].slack = t.slack();
    knobs_[id] = "delay " + std::to_string(t.delay().count()) + " interval " +
                 std::to_string(t.interval() ? t.interval()->count() : -1) + " timeout " +
                 std::to_string(t.timeout() ? t.timeout()->count() : -1) + " policy " + std::to_string(policy);
    return t;
  }

  // Due times as the runtime reports them before a frame, to check each run against.
  std::map<TimerId, Instant> dues() {
    std::map<TimerId, Instant> out;
    for (const auto& [id, tr] : tracked_) {
      if (auto s = runtime.timer_status(id); s && s->next_due && !s->paused) out[id] = *s->next_due;
    }
    return out;
  }

  // Runs a frame at `t` and checks every timer against the due times known before it. Returns
  // how many runs were not every-frame runs.
  int checked_frame(Instant t) {
    const std::map<TimerId, Instant> before = dues();
    for (auto& [id, tr] : tracked_) tr.ran_this_frame = false;
    EXPECT_TRUE(clock.set(t).ok());
    last = runtime.poll(t);
    EXPECT_TRUE(last.failures.empty());
    int scheduled_runs = 0;
    for (auto& [id, tr] : tracked_) {
      auto due = before.find(id);
      if (tr.ran_this_frame && !tr.every_frame_run) {
        ++scheduled_runs;
        if (due != before.end()) {
          EXPECT_GE(t, due->second) << "ran before it was due: frame " << us(t)
                                    << " us, due " << us(due->second) << " us";
        }
      }
      if (due != before.end() && !tr.ran_this_frame) {
        // Due (plus slack, plus the round-up to a whole millisecond) but not run: late.
        EXPECT_LT(t, due->second + tr.slack + 1ms)
            << "did not run although due: frame " << us(t) << " us, due "
            << us(due->second) << " us, slack " << tr.slack.count() / 1000 << " us, id "
            << id.value << " every_frame " << every_frame_[id] << " burst " << burst_[id] << " status: "
            << describe(runtime.timer_status(id)) << " knobs: " << knobs_[id];
      }
    }
    return scheduled_runs;
  }

  std::mt19937_64 rng_{GetParam() == QueueKind::wheel ? 11u : 12u};
  std::map<TimerId, Tracked> tracked_;
  std::map<TimerId, bool> every_frame_;
  std::map<TimerId, bool> burst_;
  std::map<TimerId, std::string> knobs_;
};
INSTANTIATE_TEST_SUITE_P(Queues, RandomNextWakeTest, ::testing::Values(QueueKind::wheel, QueueKind::heap), queue_name);

TEST_P(RandomNextWakeTest, NextWakeAgreesWithWhatRuns) {
  std::uniform_int_distribution<int> pick(0, 99);
  int wakes = 0, probes = 0;
  for (int step = 0; step < 4000 && !HasFailure(); ++step) {
    if (runtime.timer_count() < 40 || pick(rng_) < 5) {
      const TimerId id = TimerId::unique();
      ASSERT_TRUE(runtime.add_timer(id, random_timer(id)).ok());
    }
    if (pick(rng_) < 3 && !tracked_.empty()) {
      auto it = std::next(tracked_.begin(), static_cast<long>(rng_() % tracked_.size()));
      if (pick(rng_) < 50) {
        (void)runtime.pause_timer(it->first);
      } else {
        (void)runtime.resume_timer(it->first);
      }
    }
    const std::optional<Instant> due = runtime.next_due();
    if (!due) continue;
    const Instant now = clock.now();
    // A frame some time before the wake-up runs nothing but every-frame timers.
    if (*due > now + 1ms && pick(rng_) < 40) {
      const auto gap = (*due - now).count();
      const Instant probe = now + Duration{std::uniform_int_distribution<std::int64_t>(1, gap - 1)(rng_)};
      EXPECT_EQ(checked_frame(probe), 0) << "something ran before next_wake said it would";
      ++probes;
      continue;
    }
    // A frame at the wake-up runs something (every-frame timers count when they set the wake-up).
    const int ran = checked_frame(later_of(*due, now));
    bool any = ran > 0;
    for (const auto& [id, tr] : tracked_) any = any || tr.ran_this_frame;
    EXPECT_TRUE(any) << "woke at " << us(*due) << " us and nothing ran";
    ++wakes;
  }
  EXPECT_GT(wakes, 1000);
  EXPECT_GT(probes, 500);
}

}  // namespace
}  // namespace cadence::testing
