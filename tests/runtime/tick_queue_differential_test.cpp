// A differential test of TickQueue::next_tokens(): random schedules,
// cancels (the earliest timer often, to make coarse minimums unknown), advances (to the wheel's
// opening ticks and drain ends, far jumps, backwards, before the origin, to the end of the
// timeline) against a brute-force model of "the tokens at the earliest tick, in schedule order".
// next_tokens() and next_tick() are asked only now and then, so that the cached answer has to
// survive several changes.
//
// Checked after each step:
// - advance() returns exactly the model's due tokens, in (tick, schedule) order;
// - next_tick() is the model's earliest tick;
// - a non-null next_tokens() is exactly the model's tokens of that tick (never a stale listing);
// - null only when allowed: the heap only for more than 64 ties; the wheel only for more than 64
//   ties or before the tick's level-1 block has begun moving (now <= its opening), with at most
//   4,096 timers pending in all (so no block is too large for one peek);
// - more than 64 ties are never listed.
//
// About 100,000 steps in all.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <vector>

#include "runtime_fixture.hpp"
#include "due_queue.hpp"
#include "runtime/wheel_widths.hpp"

namespace cadence::detail {
namespace {

using Tokens = std::vector<Token>;


struct Entry {
  std::int64_t tick;
  std::uint64_t seq;
  Token token;
  QueueId id;
};

struct Model {
  std::vector<Entry> live;
  std::vector<QueueId> dead;
  std::int64_t now = 0;
  std::uint64_t seq = 0;

  std::optional<std::int64_t> min_tick() const {
    std::optional<std::int64_t> best;
    for (const Entry& e : live) {
      if (!best || e.tick < *best) best = e.tick;
    }
    return best;
  }
  Tokens at(std::int64_t tick) const {
    std::vector<const Entry*> hits;
    for (const Entry& e : live) {
      if (e.tick == tick) hits.push_back(&e);
    }
    std::sort(hits.begin(), hits.end(), [](const Entry* a, const Entry* b) { return a->seq < b->seq; });
    Tokens out;
    for (const Entry* e : hits) out.push_back(e->token);
    return out;
  }
  Tokens advance(std::int64_t target) {
    std::int64_t t = std::clamp<std::int64_t>(target, 0, kLast);
    if (t < now) t = now;
    now = t;
    std::vector<Entry> due;
    std::vector<Entry> keep;
    for (const Entry& e : live) (e.tick <= t ? due : keep).push_back(e);
    live = std::move(keep);
    std::sort(due.begin(), due.end(),
              [](const Entry& a, const Entry& b) { return a.tick != b.tick ? a.tick < b.tick : a.seq < b.seq; });
    Tokens out;
    for (const Entry& e : due) {
      out.push_back(e.token);
      dead.push_back(e.id);
    }
    return out;
  }
  void cancel_at(std::size_t i) {
    dead.push_back(live[i].id);
    live.erase(live.begin() + static_cast<std::ptrdiff_t>(i));
  }
};

class TickQueueDifferentialTest : public ::testing::TestWithParam<QueueKind> {
 protected:
  std::int64_t r(std::int64_t lo, std::int64_t hi) { return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng_); }
  bool coin(int percent) { return r(0, 99) < percent; }

  std::int64_t pick_tick() {
    const std::int64_t now = m_.now;
    const std::int64_t k = r(0, 99);
    std::int64_t t = 0;
    if (k < 25 && !m_.live.empty()) {
      t = m_.live[static_cast<std::size_t>(r(0, static_cast<std::int64_t>(m_.live.size()) - 1))].tick;  // a tie
    } else if (k < 50) {
      t = now + r(1, 3000);
    } else if (k < 58) {
      t = now + kW1 + r(-64, 64);  // about the level-0 / level-1 edge
    } else if (k < 68) {
      t = (((now >> WheelCore::kLevel1Shift) + r(1, 3)) << WheelCore::kLevel1Shift) + r(0, 2);  // a block's first ticks
    } else if (k < 78) {
      t = now + r(kW2, 4 * kW2);  // level 2
    } else if (k < 84) {
      t = ((((now >> 20) + r(1, 3)) << 20)) + r(-2, 2);  // about level-2 block edges
    } else if (k < 91) {
      t = now + r(std::int64_t{1} << 26, std::int64_t{1} << 34);  // levels 3 and 4
    } else if (k < 96) {
      t = kMax - r(0, 3 * kW1);  // the end of the timeline
    } else {
      t = kMax + r(0, 5);  // past it: clamped to kMaxTick
    }
    if (t <= now) t = now + 1;
    return t;
  }

  std::int64_t pick_target(bool late) {
    const std::int64_t now = m_.now;
    const std::optional<std::int64_t> d = m_.min_tick();
    const std::int64_t k = r(0, 99);
    if (k < 22) return now + r(1, 40);
    if (k < 36 && d) {
      const std::int64_t choices[] = {*d - 1, *d, *d + r(0, 3)};
      return choices[r(0, 2)];
    }
    if (k < 58 && d) {
      // The instants the wheel's answers turn on: openings and drain ends of d's blocks.
      const std::int64_t o1 = ((*d >> 14) - 1) << 14;
      const std::int64_t o2 = ((*d >> 20) - 1) << 20;
      const std::int64_t e2 = ((*d >> 20) << 20) - kW1;
      const std::int64_t o3 = ((*d >> 26) - 1) << 26;
      const std::int64_t choices[] = {o1, o1 + 1, o1 - 1, o2, o2 + 1, e2 - 1, e2, e2 + 1, o3 + 1};
      return choices[r(0, 8)];
    }
    if (k < 70) return now + r(kW1, std::int64_t{1} << 24);
    if (k < 78) return now - r(1, 2000);  // backwards
    if (k < 80) return -r(0, 10);         // before the origin
    if (late && k < 83) return coin(50) ? kLast + r(0, 3) : std::numeric_limits<std::int64_t>::max();
    return now + r(1, 5000);
  }

  void schedule_one(std::int64_t tick) {
    const Token token = next_token_++;
    const QueueId id = q_->schedule(tick, token);
    m_.live.push_back(Entry{std::min(tick, kMax), m_.seq++, token, id});
  }

  void check(std::size_t step) {
    ASSERT_EQ(q_->now(), m_.now) << "step " << step;
    const std::optional<std::int64_t> d = m_.min_tick();
    if (coin(50)) {
      ASSERT_EQ(q_->next_tick(), d) << "step " << step;
    }
    if (!coin(60)) return;
    const Tokens* got = q_->next_tokens();
    if (!d) {
      ASSERT_NE(got, nullptr) << "step " << step << ": an empty queue lists nothing";
      ASSERT_TRUE(got->empty()) << "step " << step;
      return;
    }
    const Tokens want = m_.at(*d);
    if (got != nullptr) {
      ASSERT_EQ(*got, want) << "step " << step << ": a stale or wrong listing of tick " << *d << " at now "
                            << m_.now;
      return;
    }
    const bool busy = want.size() > TickQueue::kListMax;
    if (GetParam() == QueueKind::heap) {
      ASSERT_TRUE(busy) << "step " << step << ": the heap lists any tick of at most 64";
    } else {
      const bool opened = m_.now > (((*d >> WheelCore::kLevel1Shift) - 1) << WheelCore::kLevel1Shift);
      ASSERT_FALSE(opened && !busy && m_.live.size() <= WheelCore::kListDrainMax)
          << "step " << step << ": tick " << *d << " (" << want.size() << " tokens) at now " << m_.now
          << " is past its level-1 opening, so the wheel can list it, but next_tokens() said no";
    }
  }

  void run(std::uint64_t seed, bool from_the_end, std::size_t steps) {
    rng_.seed(seed);
    m_ = Model{};
    q_.emplace(GetParam());
    next_token_ = 1;
    if (from_the_end) {
      const std::int64_t start = kLast - r(std::int64_t{1} << 16, std::int64_t{1} << 23);
      ASSERT_TRUE(q_->advance(start).empty());
      m_.advance(start);
    }
    for (std::size_t step = 0; step < steps; ++step) {
      const std::int64_t k = r(0, 99);
      if (k < 40 && m_.live.size() < 400) {
        if (coin(3)) {
          const std::int64_t tick = pick_tick();
          for (std::size_t i = 0; i < TickQueue::kListMax + 2; ++i) schedule_one(tick);  // a busy tick
        } else {
          schedule_one(pick_tick());
        }
      } else if (k < 55 && !m_.live.empty()) {
        const std::int64_t how = r(0, 99);
        std::size_t i = static_cast<std::size_t>(r(0, static_cast<std::int64_t>(m_.live.size()) - 1));
        if (how < 40) {
          const std::int64_t d = *m_.min_tick();  // the earliest: its coarse slot relearns its minimum
          std::vector<std::size_t> at_d;
          for (std::size_t j = 0; j < m_.live.size(); ++j) {
            if (m_.live[j].tick == d) at_d.push_back(j);
          }
          i = at_d[static_cast<std::size_t>(r(0, static_cast<std::int64_t>(at_d.size()) - 1))];
        }
        if (how >= 90 && !m_.dead.empty()) {
          q_->cancel(m_.dead[static_cast<std::size_t>(r(0, static_cast<std::int64_t>(m_.dead.size()) - 1))]);  // stale
        } else {
          q_->cancel(m_.live[i].id);
          m_.cancel_at(i);
        }
      } else {
        const std::int64_t target = pick_target(step > steps - steps / 20);
        const Tokens want = m_.advance(target);
        const Tokens got = q_->advance(target);
        ASSERT_EQ(got, want) << "step " << step << ": advance(" << target << ")";
      }
      check(step);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }

  std::mt19937_64 rng_;
  Model m_;
  std::optional<TickQueue> q_;
  Token next_token_ = 1;
};
INSTANTIATE_TEST_SUITE_P(Queues, TickQueueDifferentialTest,
                         ::testing::Values(QueueKind::wheel, QueueKind::heap), testing::queue_name);

// Next_tokens() is never stale, and (wheel) is listed whenever the tick's level-1
// block has begun moving and it has at most 64 tokens.
TEST_P(TickQueueDifferentialTest, NextTokensMatchesAModelOfTheEarliestTick) {
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    SCOPED_TRACE(seed);
    run(seed * 0x9e3779b97f4a7c15ull, /*from_the_end=*/seed % 3 == 0, 4000);
    if (HasFatalFailure()) return;
  }
}

// As above with a block too large for one peek in the queue (more than
// kListDrainMax timers in one level-1 block ahead): correctness only (no liveness demand, as
// such a block may be listed late by design).
TEST_P(TickQueueDifferentialTest, NextTokensStaysRightBesideABlockTooLargeForOnePeek) {
  for (std::uint64_t seed = 1; seed <= 2; ++seed) {
    SCOPED_TRACE(seed);
    rng_.seed(seed);
    m_ = Model{};
    q_.emplace(GetParam());
    next_token_ = 1;
    const std::int64_t block = 3 * kW1;
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(WheelCore::kListDrainMax) + 300; ++i) {
      schedule_one(block + (i * 31) % kW1);
    }
    for (std::size_t step = 0; step < 3000; ++step) {
      const std::int64_t k = r(0, 99);
      if (k < 30) {
        schedule_one(pick_tick());
      } else if (k < 45 && !m_.live.empty()) {
        // The earliest, mostly: the big block's minimum goes unknown again and again.
        std::size_t i = 0;
        const std::int64_t d = *m_.min_tick();
        for (std::size_t j = 0; j < m_.live.size(); ++j) {
          if (m_.live[j].tick == d) i = j;
        }
        if (coin(30)) i = static_cast<std::size_t>(r(0, static_cast<std::int64_t>(m_.live.size()) - 1));
        q_->cancel(m_.live[i].id);
        m_.cancel_at(i);
      } else {
        const std::int64_t target = coin(70) ? m_.now + r(1, 300) : pick_target(false);
        const Tokens want = m_.advance(target);
        ASSERT_EQ(q_->advance(target), want) << "step " << step;
      }
      ASSERT_EQ(q_->now(), m_.now);
      if (coin(50)) {
        ASSERT_EQ(q_->next_tick(), m_.min_tick()) << "step " << step;
      }
      if (coin(70)) {
        const Tokens* got = q_->next_tokens();
        const std::optional<std::int64_t> d = m_.min_tick();
        if (got != nullptr) {
          ASSERT_EQ(*got, d ? m_.at(*d) : Tokens{}) << "step " << step << " now " << m_.now;
        } else if (GetParam() == QueueKind::heap) {
          ASSERT_TRUE(d && m_.at(*d).size() > TickQueue::kListMax) << "step " << step;
        }
      }
    }
  }
}

}  // namespace
}  // namespace cadence::detail
