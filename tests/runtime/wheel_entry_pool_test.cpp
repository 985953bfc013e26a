// The TimerWheel's entry pool: free entries come back as its header says (the last freed by
// itself, then the lowest 64 at a time) and never twice, never retired, never while live, never
// fresh while one is free, across chunk (4,096) and summary-word (262,144) boundaries, directly
// and through TimerWheel. PolicyModel writes the policy with std::set.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "cadence/detail/wheel_core.hpp"
#include "cadence/timer_wheel.hpp"

namespace cadence {
namespace {

using detail::kMaxGeneration;
using detail::kNil;
using detail::WheelEntryPool;

constexpr std::uint32_t kChunk = WheelEntryPool::kChunkSize;  // 4,096 entries
constexpr std::uint32_t kSummary = 64 * kChunk;                // 262,144 entries per summary word

// The documented policy: the entry freed last by itself; the others in a set; when nothing is
// checked out, the 64-aligned word holding the lowest free entry is checked out whole and handed
// out lowest first; a fresh entry (generation 1) only when nothing is free; an entry released at
// kMaxGeneration is retired and goes nowhere.
class PolicyModel {
 public:
  std::uint32_t allocate() {
    if (last_ != kNil) {
      const std::uint32_t i = last_;
      last_ = kNil;
      return i;
    }
    if (taking_.empty() && !bitmap_.empty()) {
      const std::uint32_t base = *bitmap_.begin() & ~63u;
      for (auto it = bitmap_.begin(); it != bitmap_.end() && *it < base + 64;) {
        taking_.insert(*it);
        it = bitmap_.erase(it);
      }
    }
    if (!taking_.empty()) {
      const std::uint32_t i = *taking_.begin();
      taking_.erase(taking_.begin());
      return i;
    }
    const std::uint32_t i = next_fresh_++;
    if (generation_.size() <= i) generation_.resize(std::size_t{i} + 1, 0);
    generation_[i] = 1;
    return i;
  }
  void release(std::uint32_t i) {
    std::uint32_t& g = generation_[i];
    if (g == kMaxGeneration) return;  // retired
    ++g;
    if (last_ != kNil) bitmap_.insert(last_);
    last_ = i;
  }
  void set_generation(std::uint32_t i, std::uint32_t g) { generation_[i] = g; }
  std::uint64_t id_of(std::uint32_t i) const { return (std::uint64_t{generation_[i]} << 32) | i; }

 private:
  std::uint32_t last_ = kNil;
  std::set<std::uint32_t> bitmap_;
  std::set<std::uint32_t> taking_;
  std::uint32_t next_fresh_ = 1;
  std::vector<std::uint32_t> generation_ = std::vector<std::uint32_t>(1, 0);
};

// Drives a pool and the model together, as TimerWheel does (set_level(0) once handed out), and
// records the first broken promise (gtest assertions per step would be too slow here).
class Driver {
 public:
  std::uint32_t allocate() {
    const std::uint32_t got = pool.allocate();
    const std::uint32_t want = model.allocate();
    if (got == kNil) fail("index 0 handed out");
    if (got < live_at_.size() && live_at_[got] != kNoSlot) fail("index " + std::to_string(got) + " handed out while live");
    if (retired_.contains(got)) fail("retired index " + std::to_string(got) + " handed out again");
    if (got >= next_fresh_) {
      if (free_ > 0) fail("fresh index " + std::to_string(got) + " while " + std::to_string(free_) + " entries were free");
      if (got != next_fresh_) fail("fresh index " + std::to_string(got) + " skips " + std::to_string(next_fresh_));
      next_fresh_ = got + 1;
    } else if (free_ == 0) {
      fail("index " + std::to_string(got) + " reused, but no entry was free");
    } else {
      --free_;
    }
    if (got != want) fail("handed out " + std::to_string(got) + ", the policy says " + std::to_string(want));
    pool.links(got).set_level(0);
    if (pool.id_of(got) != model.id_of(want)) fail("id of " + std::to_string(got) + " has the wrong generation");
    if (pool.find_live(pool.id_of(got)) != got) fail("the new id does not name its entry");
    if (live_at_.size() <= got) live_at_.resize(std::size_t{got} + 1, kNoSlot);
    live_at_[got] = live.size();
    live.push_back(got);
    return got;
  }
  void release_index(std::uint32_t i) { release_slot(live_at_.at(i)); }
  void release_slot(std::size_t k) {
    const std::uint32_t i = live[k];
    const std::uint64_t old_id = pool.id_of(i);
    const bool retiring = pool.links(i).generation() == kMaxGeneration;
    pool.release(i);
    model.release(i);
    if (pool.find_live(old_id) != kNil) fail("a released id still names its entry");
    if (retiring) {
      retired_.insert(i);
    } else {
      ++free_;
    }
    if (stale_.size() < 50'000) stale_.push_back(old_id);
    else stale_[rng_() % stale_.size()] = old_id;
    live[k] = live.back();
    live_at_[live[k]] = k;
    live.pop_back();
    live_at_[i] = kNoSlot;
  }
  void release_random(std::mt19937_64& rng) { release_slot(rng() % live.size()); }
  // Pretends entry i has been reused g - 1 times (only its tag carries that).
  void set_generation(std::uint32_t i, std::uint32_t g) {
    pool.links(i).tag = (g << 4) | pool.links(i).level();
    model.set_generation(i, g);
  }
  bool is_live(std::uint32_t i) const { return i < live_at_.size() && live_at_[i] != kNoSlot; }
  // Every live id names its entry; no stale one names anything.
  void check_ids() {
    for (std::uint32_t i : live) {
      if (pool.find_live(pool.id_of(i)) != i) fail("live " + std::to_string(i) + " not found");
    }
    for (std::uint64_t id : stale_) {
      if (pool.find_live(id) != kNil) fail("stale id " + std::to_string(id) + " came back to life");
    }
  }
  void fail(const std::string& what) {
    if (error.empty()) error = what;
  }

  WheelEntryPool pool;
  PolicyModel model;
  std::vector<std::uint32_t> live;
  std::string error;

 private:
  static constexpr std::size_t kNoSlot = ~std::size_t{0};
  std::vector<std::size_t> live_at_;
  std::set<std::uint32_t> retired_;
  std::vector<std::uint64_t> stale_;
  std::uint32_t next_fresh_ = 1;
  std::uint64_t free_ = 0;  // released, not retired, not handed out again
  std::mt19937_64 rng_{99};
};

// Covers chunk boundaries (4,096), the 64-chunk summary words (262,144), the hint after
// releases below it, and a long random churn, against the policy model and the independent
// checks.
TEST(WheelEntryPoolTest, MatchesItsPolicyAcrossChunksAndSummaryWords) {
  Driver d;
  std::mt19937_64 rng(14);
  for (std::uint32_t n = 0; n < 300'000; ++n) d.allocate();
  ASSERT_EQ(d.error, "");
  // Entries on both sides of chunk and summary-word boundaries, released from the top down, so
  // that each release lands below the hint.
  std::vector<std::uint32_t> edges;
  for (std::uint32_t b : {kChunk, 2 * kChunk, kSummary, kSummary + kChunk, 70 * kChunk}) {
    for (std::uint32_t i = b - 3; i <= b + 3; ++i) edges.push_back(i);
  }
  edges.push_back(1);
  edges.push_back(299'999);
  std::sort(edges.rbegin(), edges.rend());
  for (std::uint32_t i : edges) d.release_index(i);
  for (std::size_t n = 0; n < edges.size(); ++n) d.allocate();
  ASSERT_EQ(d.error, "");
  // Hint: a word checked out from summary word 1, then releases in summary word 0.
  for (std::uint32_t k = 0; k < 100; ++k) d.release_index(70 * kChunk + 7 * k);
  d.allocate();
  d.allocate();  // checks out chunk 70's first word
  for (std::uint32_t k = 0; k < 10; ++k) d.release_index(3 * kChunk + 100 + 5 * k);
  for (int n = 0; n < 200; ++n) d.allocate();
  ASSERT_EQ(d.error, "");
  // Random churn with bursts.
  for (int step = 0; step < 150'000 && d.error.empty(); ++step) {
    if (step % 10'000 == 0) {
      for (int n = 0; n < 5'000; ++n) d.release_random(rng);
      for (int n = 0; n < 5'000; ++n) d.allocate();
    }
    if (rng() % 2 == 0 && !d.live.empty()) {
      d.release_random(rng);
    } else {
      d.allocate();
    }
  }
  ASSERT_EQ(d.error, "");
  d.check_ids();
  ASSERT_EQ(d.error, "");
  // Everything back and out again: every entry is reused, none is fresh, memory stays.
  const std::size_t bytes = d.pool.memory_bytes();
  const std::size_t n_live = d.live.size();
  while (!d.live.empty()) d.release_random(rng);
  for (std::size_t n = 0; n < n_live; ++n) d.allocate();
  EXPECT_EQ(d.error, "");
  EXPECT_EQ(d.pool.memory_bytes(), bytes);
}

// Checks last_freed_ against taking_: an entry released while the rest of its word is checked
// out (taking_), and one released on top of it, so that the first goes back into a bitmap word
// that is checked out at that moment. Expected order, by the policy: the last freed, the rest
// of the checked-out word, then the word again with the one entry, then the higher words.
TEST(WheelEntryPoolTest, AnEntryReleasedWhileItsWordIsCheckedOutIsHandedOutOnceLater) {
  Driver d;
  for (int n = 0; n < 200; ++n) d.allocate();  // 1..200
  for (std::uint32_t i = 100; i < 200; ++i) d.release_index(i);  // last freed 199; bits 100..198
  EXPECT_EQ(d.allocate(), 199u);
  EXPECT_EQ(d.allocate(), 100u);  // checks out word 1 (64..127): 101..127 stay checked out
  d.release_index(100);           // last freed
  d.release_index(64);            // 100 goes back to word 1's bits while word 1 is checked out
  std::vector<std::uint32_t> got;
  for (int n = 0; n < 101; ++n) got.push_back(d.allocate());
  ASSERT_EQ(d.error, "");
  std::vector<std::uint32_t> want{64};
  for (std::uint32_t i = 101; i <= 127; ++i) want.push_back(i);
  want.push_back(100);
  for (std::uint32_t i = 128; i <= 198; ++i) want.push_back(i);
  want.push_back(201);  // then a fresh one: nothing else is free
  EXPECT_EQ(got, want);
}

// Checks the hint first_free_word_: a word is checked out from summary word 1 (hint moves to
// 1), then an entry of summary word 0 is freed into the bitmap. It must be found (hint lowered)
// before a fresh entry is taken. Also the exact summary-word boundary 262,143 | 262,144.
TEST(WheelEntryPoolTest, ReleasesBelowTheHintAreFoundAgain) {
  Driver d;
  for (std::uint32_t n = 0; n < 300'000; ++n) d.allocate();
  d.release_index(280'000);
  d.release_index(280'001);
  EXPECT_EQ(d.allocate(), 280'001u);
  EXPECT_EQ(d.allocate(), 280'000u);  // found through summary word 1
  d.release_index(5);
  d.release_index(6);
  EXPECT_EQ(d.allocate(), 6u);
  EXPECT_EQ(d.allocate(), 5u) << "below the hint";
  d.release_index(kSummary + 1);
  d.release_index(kSummary);
  d.release_index(kSummary - 1);
  EXPECT_EQ(d.allocate(), kSummary - 1);
  EXPECT_EQ(d.allocate(), kSummary);
  EXPECT_EQ(d.allocate(), kSummary + 1);
  EXPECT_EQ(d.allocate(), 300'001u) << "fresh only when nothing is free";
  EXPECT_EQ(d.error, "");
}

// Checks retirement through every path: an entry one generation short of the maximum is freed
// among others (so it passes through last_freed_, the bitmap and taking_), handed out at
// kMaxGeneration, then released (retired) once in the middle of a batch and, in a second run,
// as the last release of a batch (last_freed_ must keep the previous entry). Never handed out
// again; its ids never live; no other free entry lost.
TEST(WheelEntryPoolTest, ARetiredEntryStaysOutOfEveryPath) {
  for (const bool retired_last : {false, true}) {
    SCOPED_TRACE(retired_last ? "retired by the last release" : "retired mid-batch");
    Driver d;
    for (int n = 0; n < 200; ++n) d.allocate();
    d.set_generation(70, kMaxGeneration - 1);
    for (std::uint32_t i = 60; i <= 80; ++i) d.release_index(i);  // 70 free at kMaxGeneration
    std::vector<std::uint32_t> batch;
    for (int n = 0; n < 21; ++n) batch.push_back(d.allocate());
    ASSERT_NE(std::find(batch.begin(), batch.end(), 70u), batch.end());
    EXPECT_EQ(d.pool.id_of(70) >> 32, kMaxGeneration);
    const std::uint64_t last_id = d.pool.id_of(70);
    std::vector<std::uint32_t> order = batch;
    std::mt19937_64 rng(3);
    std::shuffle(order.begin(), order.end(), rng);
    std::erase(order, 70u);
    order.insert(retired_last ? order.end() : order.begin() + 10, 70u);
    for (std::uint32_t i : order) d.release_index(i);
    EXPECT_EQ(d.pool.find_live(last_id), kNil);
    EXPECT_EQ(d.pool.find_live((std::uint64_t{kMaxGeneration} << 32) | 70u), kNil);
    std::set<std::uint32_t> again;
    for (int n = 0; n < 20; ++n) again.insert(d.allocate());
    std::set<std::uint32_t> others(batch.begin(), batch.end());
    others.erase(70);
    EXPECT_EQ(again, others) << "the 20 others come back, the retired one does not";
    EXPECT_EQ(d.allocate(), 201u);
    for (int step = 0; step < 20'000; ++step) {
      if (rng() % 2 == 0 && !d.live.empty()) {
        d.release_random(rng);
      } else {
        d.allocate();
      }
    }
    EXPECT_FALSE(d.is_live(70));
    d.check_ids();
    EXPECT_EQ(d.error, "");
  }
}

std::uint32_t index_of(QueueId id) { return static_cast<std::uint32_t>(id.value); }

// Checks "a free entry lost" at the wheel level, past one summary word: schedules (level 0 and
// coarse), random cancels, firing (fire_slot releases whole slots) over rounds whose live peak
// is about 270,000. Since a fresh entry is taken only when none is free, the pool must hold
// exactly ceil((peak + 1) / 4096) chunks and no index may exceed the peak; no id may be issued
// while the entry it names is live.
TEST(WheelEntryPoolTest, ChurnPastOneSummaryWordNeverGrowsPastThePeak) {
  TimerWheel empty;
  const std::size_t fixed = empty.memory_bytes();
  std::size_t per_chunk = 0;
  {
    TimerWheel one;
    one.schedule(Ticks{5}, 0);
    per_chunk = one.memory_bytes() - fixed;
  }
  TimerWheel wheel;
  std::mt19937_64 rng(270);
  std::unordered_map<std::uint32_t, QueueId> live;  // index -> id
  std::vector<std::uint32_t> live_list;
  std::size_t peak = 0;
  std::uint32_t max_index = 0;
  std::uint64_t wrong = 0;
  std::vector<Token> fired;
  std::int64_t now = 0;
  const auto drop_fired = [&] {
    // Fired entries are free again: forget them (their ids must be stale now).
    std::vector<std::uint32_t> keep;
    for (std::uint32_t i : live_list) {
      if (wheel.deadline_of(live.at(i))) {
        keep.push_back(i);
      } else {
        live.erase(i);
      }
    }
    live_list.swap(keep);
  };
  for (int round = 0; round < 3; ++round) {
    const std::size_t target = round == 1 ? 270'000 : 140'000;
    while (live.size() < target) {
      const std::int64_t delay = rng() % 8 == 0 ? static_cast<std::int64_t>(20'000 + rng() % 5'000'000)
                                               : static_cast<std::int64_t>(1 + rng() % 3'000);
      const QueueId id = wheel.schedule(Ticks{delay}, live.size());
      const std::uint32_t i = index_of(id);
      if (live.contains(i)) ++wrong;
      live[i] = id;
      live_list.push_back(i);
      max_index = std::max(max_index, i);
      peak = std::max(peak, live.size());
    }
    std::shuffle(live_list.begin(), live_list.end(), rng);
    const std::size_t cancels = live_list.size() / 2;
    for (std::size_t k = 0; k < cancels; ++k) {
      const std::uint32_t i = live_list.back();
      live_list.pop_back();
      if (!wheel.cancel(live.at(i))) ++wrong;
      if (wheel.cancel(live.at(i))) ++wrong;  // stale at once
      live.erase(i);
    }
    now += 1'500;
    fired.clear();
    wheel.advance(Ticks{now}, fired);
    drop_fired();
    ASSERT_EQ(wheel.active_count(), live.size());
  }
  EXPECT_EQ(wrong, 0u) << "an id issued while its entry was live, or a cancel that lied";
  const std::size_t chunks = (peak + 1 + WheelEntryPool::kChunkSize - 1) / WheelEntryPool::kChunkSize;
  EXPECT_LE(max_index, peak) << "an index beyond the live peak: a free entry was lost";
  EXPECT_EQ(wheel.memory_bytes(), fixed + chunks * per_chunk) << "peak " << peak;
  EXPECT_EQ(wheel.check_invariants(), "");
}

// Checks fire_slot()'s releases (a whole slot released in list order, each pushing the one
// before into the bitmap) followed by schedules: every fired entry is reused, each once, and
// nothing fresh is taken.
TEST(WheelEntryPoolTest, EntriesFreedByFiringAreAllReused) {
  TimerWheel wheel;
  std::set<std::uint32_t> first;
  for (Token t = 0; t < 10'000; ++t) first.insert(index_of(wheel.schedule(Ticks{7}, t)));
  const std::size_t bytes = wheel.memory_bytes();
  std::vector<Token> fired;
  wheel.advance(Ticks{7}, fired);
  ASSERT_EQ(fired.size(), 10'000u);
  std::set<std::uint32_t> second;
  for (Token t = 0; t < 10'000; ++t) {
    EXPECT_TRUE(second.insert(index_of(wheel.schedule(Ticks{1 + static_cast<std::int64_t>(t % 50)}, t))).second);
  }
  EXPECT_EQ(second, first);
  EXPECT_EQ(wheel.memory_bytes(), bytes);
  fired.clear();
  wheel.advance(Ticks{100}, fired);
  EXPECT_EQ(fired.size(), 10'000u);
  EXPECT_EQ(wheel.check_invariants(), "");
}

}  // namespace
}  // namespace cadence
