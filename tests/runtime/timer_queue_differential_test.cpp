// Drives TimerWheel, HeapTimerQueue and a plain std::map model with the same long random
// operation sequences and requires identical results after every operation: the same tokens
// fired in the same order, the same cancel answers, counts and next-fire times.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <optional>
#include <ostream>
#include <random>
#include <unordered_map>
#include <utility>
#include <vector>

#include "cadence/heap_timer_queue.hpp"
#include "cadence/timer_wheel.hpp"

namespace cadence {
namespace {

// The contract in its plainest form: a map ordered by (deadline, schedule sequence).
class ModelQueue {
 public:
  explicit ModelQueue(std::int64_t start) : now_(start) {}

  std::uint64_t schedule(std::int64_t after, Token token) {
    const std::int64_t deadline = deadline_after(now_, after);
    const std::uint64_t seq = next_seq_++;
    timers_.emplace(std::pair{deadline, seq}, token);
    by_seq_.emplace(seq, deadline);
    return seq;
  }
  bool cancel(std::uint64_t seq) {
    auto it = by_seq_.find(seq);
    if (it == by_seq_.end()) return false;
    timers_.erase(std::pair{it->second, seq});
    by_seq_.erase(it);
    return true;
  }
  void advance(std::int64_t now, std::vector<Token>& fired) {
    now = std::min(now, kLastTick.count());
    if (now < now_) return;
    now_ = now;
    while (!timers_.empty() && timers_.begin()->first.first <= now) {
      fired.push_back(timers_.begin()->second);
      by_seq_.erase(timers_.begin()->first.second);
      timers_.erase(timers_.begin());
    }
  }
  std::optional<Ticks> next_fire() const {
    if (timers_.empty()) return std::nullopt;
    return Ticks{timers_.begin()->first.first};
  }
  std::size_t size() const { return timers_.size(); }
  std::optional<std::uint64_t> earliest() const {
    if (timers_.empty()) return std::nullopt;
    return timers_.begin()->first.second;
  }
  std::int64_t now() const { return now_; }

 private:
  std::int64_t now_;
  std::uint64_t next_seq_ = 1;
  std::map<std::pair<std::int64_t, std::uint64_t>, Token> timers_;
  std::map<std::uint64_t, std::int64_t> by_seq_;
};

struct Issued {
  std::uint64_t model;
  QueueId wheel;
  QueueId heap;
};

struct Profile {
  const char* name;
  std::uint64_t seed;
  std::int64_t start_ms;
  int ops;
  bool gui_like;  // frames of 16 ms and mostly short timers, versus every kind of jump
  int check_every = 997;  // operations between full invariant walks of the wheel
};

class Differential {
 public:
  explicit Differential(const Profile& p)
      : profile_(p), rng_(p.seed), model_(p.start_ms), wheel_(Ticks{p.start_ms}), heap_(Ticks{p.start_ms}) {}

  void run() {
    for (int op = 0; op < profile_.ops && !::testing::Test::HasFatalFailure(); ++op) {
      step(op);
    }
    // Jump to the end of time: everything fires but the timers clamped to "never".
    advance_to(kMaxTick.count(), -1);
    EXPECT_EQ(wheel_.active_count(), model_.size());
    EXPECT_EQ(heap_.active_count(), model_.size());
    if (model_.next_fire()) {
      EXPECT_EQ(*model_.next_fire(), kMaxTick);
    }
  }

  struct Coverage {
    std::uint64_t fired = 0, cancelled = 0, refused_cancels = 0, backwards = 0;
    std::size_t max_pending = 0;
  };
  const Coverage& coverage() const { return coverage_; }
  const WheelStats& wheel_stats() const { return wheel_.stats(); }

 private:
  std::int64_t uniform(std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng_);
  }
  bool chance(double p) { return std::bernoulli_distribution(p)(rng_); }
  std::int64_t log_uniform(std::int64_t lo, std::int64_t hi) {
    const double l = std::log2(static_cast<double>(lo));
    const double h = std::log2(static_cast<double>(hi));
    return static_cast<std::int64_t>(std::exp2(std::uniform_real_distribution<double>(l, h)(rng_)));
  }

  std::int64_t random_delay() {
    const std::int64_t now = model_.now();
    const int kind = static_cast<int>(uniform(0, 99));
    if (profile_.gui_like) {
      if (kind < 60) return uniform(-2, 2000);
      if (kind < 85) return uniform(2000, 60'000);
      return hot_delay();
    }
    if (kind < 25) return uniform(-3, 200);
    if (kind < 45) return uniform(200, 40'000);
    if (kind < 60) return uniform(40'000, 50'000'000);
    if (kind < 67) return log_uniform(50'000'000, std::int64_t{1} << 61);
    if (kind < 69) return chance(0.5) ? Ticks::max().count() : kMaxTick.count() - now + uniform(-5, 5);
    return hot_delay();
  }

  // Deadlines that many timers share, reached from many distances and so from many levels.
  std::int64_t hot_delay() {
    const std::int64_t now = model_.now();
    if (hot_.empty() || chance(0.02)) {
      const std::int64_t ahead = profile_.gui_like ? uniform(1, 40'000) : log_uniform(2, 200'000'000);
      hot_.push_back(now + ahead);
      if (hot_.size() > 16) hot_.erase(hot_.begin());
    }
    const std::int64_t target = hot_[static_cast<std::size_t>(uniform(0, static_cast<std::int64_t>(hot_.size()) - 1))];
    return target - now;  // may be in the past: then it is clamped to one tick, like any delay
  }

  // Phases of 25,000 operations: let timers pile up, then mix every kind of jump, then frames.
  std::int64_t random_advance_target(int op) {
    const std::int64_t now = model_.now();
    const int kind = static_cast<int>(uniform(0, 999));
    const int phase = (op / 25'000) % 3;
    if (profile_.gui_like || phase == 2) {
      if (kind < 900) return now + 16;
      if (kind < 990) return now + uniform(0, 2000);
      return now - uniform(1, 50);
    }
    if (phase == 0) {
      if (kind < 980) return now + uniform(0, 8);
      return now - uniform(1, 1000);
    }
    if (kind < 100) return now;
    if (kind < 350) return now + 1;
    if (kind < 650) return now + uniform(2, 40);
    if (kind < 850) return now + uniform(40, 20'000);
    if (kind < 930) return now + uniform(20'000, 20'000'000);
    if (kind < 940 && now < (std::int64_t{1} << 55)) return now + log_uniform(20'000'000, std::int64_t{1} << 50);
    if (kind < 970 && !hot_.empty()) {
      const std::int64_t h = hot_[static_cast<std::size_t>(uniform(0, static_cast<std::int64_t>(hot_.size()) - 1))];
      return h + uniform(-1, 0);
    }
    return now - uniform(1, 1000);  // a clock that goes backwards
  }

  void cancel(const Issued& h, int op) {
    const bool expected = model_.cancel(h.model);
    ASSERT_EQ(wheel_.cancel(h.wheel), expected) << "op " << op;
    ASSERT_EQ(heap_.cancel(h.heap), expected) << "op " << op;
    ++(expected ? coverage_.cancelled : coverage_.refused_cancels);
  }

  void step(int op) {
    const int kind = static_cast<int>(uniform(0, 99));
    if (kind < 42) {
      const std::int64_t delay = random_delay();
      const Token token = next_token_++;
      Issued h{model_.schedule(delay, token), wheel_.schedule(Ticks{delay}, token), heap_.schedule(Ticks{delay}, token)};
      ASSERT_NE(h.wheel.value, 0u);
      ASSERT_NE(h.heap.value, 0u);
      issued_.push_back(h);
      by_model_[h.model] = issued_.size() - 1 + issued_base_;
    } else if (kind < 54 && !issued_.empty()) {
      // A recent id: most likely still pending.
      const auto back = std::min<std::int64_t>(static_cast<std::int64_t>(issued_.size()), 200);
      cancel(issued_[issued_.size() - 1 - static_cast<std::size_t>(uniform(0, back - 1))], op);
    } else if (kind < 62 && !issued_.empty()) {
      // Any id ever issued: live, fired, cancelled, or stale with its slot reused.
      cancel(issued_[static_cast<std::size_t>(uniform(0, static_cast<std::int64_t>(issued_.size()) - 1))], op);
    } else if (kind < 65) {
      // The earliest pending timer: next_fire() must find the new earliest at once.
      if (auto seq = model_.earliest()) {
        auto it = by_model_.find(*seq);
        if (it != by_model_.end() && it->second >= issued_base_) cancel(issued_[it->second - issued_base_], op);
      }
    } else if (kind < 67) {
      // Never issued: id 0, or a generation far beyond any this run reaches.
      const QueueId unknown{chance(0.2) ? 0 : (rng_() | (std::uint64_t{1} << 63))};
      ASSERT_FALSE(wheel_.cancel(unknown)) << "op " << op;
      ASSERT_FALSE(heap_.cancel(unknown)) << "op " << op;
    } else {
      advance_to(random_advance_target(op), op);
    }
    ASSERT_EQ(wheel_.active_count(), model_.size()) << "op " << op;
    ASSERT_EQ(heap_.active_count(), model_.size()) << "op " << op;
    coverage_.max_pending = std::max(coverage_.max_pending, model_.size());
    if (op % profile_.check_every == 0) {
      ASSERT_EQ(wheel_.check_invariants(), "") << "op " << op;
    }
    if (chance(0.5)) {
      const auto expected = model_.next_fire();
      ASSERT_EQ(wheel_.next_fire(), expected) << "op " << op;
      ASSERT_EQ(heap_.next_fire(), expected) << "op " << op;
    }
    if (issued_.size() > 200'000) {
      issued_.erase(issued_.begin(), issued_.begin() + 100'000);
      issued_base_ += 100'000;
    }
  }

  void advance_to(std::int64_t target, int op) {
    std::vector<Token> expected, from_wheel, from_heap;
    model_.advance(target, expected);
    const AdvanceReport rw = wheel_.advance(Ticks{target}, from_wheel);
    const AdvanceReport rh = heap_.advance(Ticks{target}, from_heap);
    ASSERT_EQ(from_wheel, expected) << "op " << op << " advancing to " << target;
    ASSERT_EQ(from_heap, expected) << "op " << op << " advancing to " << target;
    ASSERT_EQ(rw.fired, expected.size());
    ASSERT_EQ(rh.clamped_by, rw.clamped_by);
    ASSERT_EQ(wheel_.now().count(), model_.now());
    ASSERT_EQ(heap_.now().count(), model_.now());
    coverage_.fired += expected.size();
    if (rw.went_backwards()) ++coverage_.backwards;
  }

  Profile profile_;
  std::mt19937_64 rng_;
  ModelQueue model_;
  TimerWheel wheel_;
  HeapTimerQueue heap_;
  std::vector<Issued> issued_;
  std::size_t issued_base_ = 0;                          // index of issued_[0] since the start
  std::unordered_map<std::uint64_t, std::size_t> by_model_;  // model id -> index since the start
  std::vector<std::int64_t> hot_;
  Token next_token_ = 1;
  Coverage coverage_;
};

void PrintTo(const Profile& p, std::ostream* os) { *os << p.name << " (seed " << p.seed << ")"; }

class TimerQueueDifferentialTest : public ::testing::TestWithParam<Profile> {};

TEST_P(TimerQueueDifferentialTest, WheelHeapAndModelAgreeOnEveryOperation) {
  Differential d(GetParam());
  d.run();
  // The run must really exercise what it claims to.
  const auto& c = d.coverage();
  const auto& w = d.wheel_stats();
  const auto ops = static_cast<std::uint64_t>(GetParam().ops);
  EXPECT_GT(c.fired, ops / 10);
  EXPECT_GT(c.cancelled, ops / 100);
  EXPECT_GT(c.refused_cancels, ops / 100);
  EXPECT_GT(c.backwards, 0u);
  EXPECT_GT(w.moved, ops / 100) << "timers crossed levels";
  EXPECT_GT(c.max_pending, GetParam().gui_like ? 100u : 5000u) << "the structures grew large";
  if (!GetParam().gui_like) {
    EXPECT_GT(w.slot_rescans, 0u) << "next_fire relearned a cancelled minimum";
  }
  std::printf("  max pending %zu, fired %llu, cancelled %llu, refused %llu, backwards %llu, moved %llu, rescans %llu\n",
              c.max_pending,
              static_cast<unsigned long long>(c.fired), static_cast<unsigned long long>(c.cancelled),
              static_cast<unsigned long long>(c.refused_cancels), static_cast<unsigned long long>(c.backwards),
              static_cast<unsigned long long>(w.moved), static_cast<unsigned long long>(w.slot_rescans));
}

// 1,400,000 operations in all, from fixed seeds.
INSTANTIATE_TEST_SUITE_P(
    Seeds, TimerQueueDifferentialTest,
    ::testing::Values(Profile{"every_jump_a", 1, 0, 300'000, false},
                      Profile{"every_jump_b", 2, 0, 300'000, false},
                      Profile{"unaligned_start", 3, 123'456'789'013, 300'000, false},
                      Profile{"late_start", 4, (std::int64_t{1} << 50) + 77, 200'000, false},
                      Profile{"gui_frames", 5, 0, 300'000, true}),
    [](const ::testing::TestParamInfo<Profile>& p) { return std::string(p.param.name); });

}  // namespace
}  // namespace cadence
