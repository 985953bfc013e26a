#include "cadence/timeout_heap.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <random>
#include <vector>

namespace cadence {
namespace {

using Entry = TimeoutHeap::Entry;

std::vector<std::pair<TimeoutHeap::Expiration, TimeoutHeap::Data>> drain(TimeoutHeap& heap) {
  std::vector<std::pair<TimeoutHeap::Expiration, TimeoutHeap::Data>> out;
  while (auto e = heap.pop()) out.emplace_back(e->expiration, e->data);
  return out;
}

TEST(TimeoutHeapTest, PopsInExpirationOrderWithTiesInPushOrder) {
  TimeoutHeap heap(2);  // grows past its initial capacity
  heap.push(30, 1);
  heap.push(10, 2);
  heap.push(20, 3);
  heap.push(10, 4);
  heap.push(-5, 5);
  const auto order = drain(heap);
  const std::vector<std::pair<std::int64_t, std::uint64_t>> expected = {{-5, 5}, {10, 2}, {10, 4}, {20, 3}, {30, 1}};
  EXPECT_EQ(order, expected);
}

TEST(TimeoutHeapTest, PeekAndPopOnAnEmptyHeapReturnNothing) {
  TimeoutHeap heap;
  EXPECT_FALSE(heap.peek().has_value());
  EXPECT_FALSE(heap.pop().has_value());
  EXPECT_EQ(heap.size(), 0u);
  heap.push(1, 1);
  ASSERT_TRUE(heap.pop().has_value());
  EXPECT_FALSE(heap.peek().has_value());
  EXPECT_FALSE(heap.pop().has_value());
}

TEST(TimeoutHeapTest, HandlesStayValidWhileEntriesMove) {
  TimeoutHeap heap;
  std::mt19937_64 rng(7);
  std::vector<TimeoutHeap::Handle> handles;
  for (std::uint64_t i = 0; i < 1000; ++i) handles.push_back(heap.push(static_cast<std::int64_t>(rng() % 500), i));
  // Cancel every third entry by handle after the heap has reshuffled them many times.
  for (std::size_t i = 0; i < handles.size(); i += 3) ASSERT_TRUE(heap.cancel_at(handles[i], i).ok()) << i;
  std::vector<std::uint64_t> left;
  while (auto e = heap.pop()) left.push_back(e->data);
  EXPECT_EQ(left.size(), 1000u - 334u);
  for (std::uint64_t d : left) EXPECT_NE(d % 3, 0u) << d;
}

TEST(TimeoutHeapTest, CancelIsLazyAndSizeCountsCancelledEntries) {
  TimeoutHeap heap;
  auto a = heap.push(10, 1);
  heap.push(20, 2);
  ASSERT_TRUE(heap.cancel_at(a).ok());
  EXPECT_EQ(heap.size(), 2u);
  EXPECT_EQ(heap.live_count(), 1u);
  EXPECT_EQ(heap.freed_count(), 0u);
  const auto top = heap.peek();  // drops the cancelled root
  ASSERT_TRUE(top.has_value());
  EXPECT_EQ(top->data, 2u);
  EXPECT_EQ(heap.size(), 1u);
  EXPECT_EQ(heap.freed_count(), 1u);
}

TEST(TimeoutHeapTest, FreeCallbackReleasesDroppedDataAndFreedCountCounts) {
  std::vector<std::uint64_t> released;
  {
    TimeoutHeap heap;
    heap.set_free_callback([&](TimeoutHeap::Data d) { released.push_back(d); });
    auto a = heap.push(10, 100);
    auto b = heap.push(20, 200);
    heap.push(30, 300);
    heap.push(40, 400);
    ASSERT_TRUE(heap.cancel_at(b).ok());
    ASSERT_TRUE(heap.cancel(10, 100).ok());
    (void)a;
    const auto popped = heap.pop();  // drops 100 and 200, returns 300 to the caller
    ASSERT_TRUE(popped.has_value());
    EXPECT_EQ(popped->data, 300u);
    EXPECT_EQ(heap.freed_count(), 2u);
    std::vector<std::uint64_t> dropped = released;
    std::sort(dropped.begin(), dropped.end());
    EXPECT_EQ((std::vector<std::uint64_t>{100, 200}), dropped);  // both cancelled entries
  }
  // The destructor released the entry still held (400), not the popped one (300).
  std::sort(released.begin(), released.end());
  EXPECT_EQ((std::vector<std::uint64_t>{100, 200, 400}), released);
}

TEST(TimeoutHeapTest, WithoutAFreeCallbackDroppingStillWorksAndCounts) {
  TimeoutHeap heap;
  auto a = heap.push(1, 0xdead);
  heap.push(2, 0xbeef);
  ASSERT_TRUE(heap.cancel_at(a).ok());
  const auto top = heap.pop();
  ASSERT_TRUE(top.has_value());
  EXPECT_EQ(top->data, 0xbeefu);
  EXPECT_EQ(heap.freed_count(), 1u);
  heap.set_free_callback({});  // unsetting is allowed too
  auto c = heap.push(3, 1);
  ASSERT_TRUE(heap.cancel_at(c).ok());
  heap.clear();
  EXPECT_EQ(heap.freed_count(), 2u);
  EXPECT_TRUE(heap.empty());
}

TEST(TimeoutHeapTest, CancelByValueFindsTheEarliestPushedMatch) {
  TimeoutHeap heap;
  heap.push(10, 7);
  heap.push(10, 7);
  heap.push(10, 8);
  ASSERT_TRUE(heap.cancel(10, 7).ok());
  EXPECT_EQ(heap.live_count(), 2u);
  const Status missing = heap.cancel(11, 7);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, Errc::not_found);
  EXPECT_NE(missing.error().message.find("expiration=11"), std::string::npos) << missing.error().message;
  const auto order = drain(heap);
  const std::vector<std::pair<std::int64_t, std::uint64_t>> expected = {{10, 7}, {10, 8}};
  EXPECT_EQ(order, expected);
}

// Every bad cancel_at: a clear error, and the heap exactly as it was.
class TimeoutHeapBadCancelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    first_ = heap_.push(10, 1);
    second_ = heap_.push(20, 2);
    third_ = heap_.push(5, 3);
  }
  void ExpectUnchanged() {
    EXPECT_EQ(heap_.size(), 3u);
    EXPECT_EQ(heap_.live_count(), 3u);
    const auto order = drain(heap_);
    const std::vector<std::pair<std::int64_t, std::uint64_t>> expected = {{5, 3}, {10, 1}, {20, 2}};
    EXPECT_EQ(order, expected);
  }
  TimeoutHeap heap_;
  TimeoutHeap::Handle first_, second_, third_;
};

TEST_F(TimeoutHeapBadCancelTest, HandleOutOfRange) {
  const TimeoutHeap::Handle bogus{(std::uint64_t{1} << 32) | 999};
  const Status s = heap_.cancel_at(bogus);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, Errc::not_found);
  EXPECT_NE(s.error().message.find("slot 999"), std::string::npos) << s.error().message;
  EXPECT_NE(s.error().message.find("3 slots"), std::string::npos) << s.error().message;
  ExpectUnchanged();
}

TEST_F(TimeoutHeapBadCancelTest, HandleZero) {
  const Status s = heap_.cancel_at(TimeoutHeap::Handle{0});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, Errc::not_found);
  ExpectUnchanged();
}

TEST_F(TimeoutHeapBadCancelTest, HandleNeverIssued) {
  const TimeoutHeap::Handle future{first_.value + (std::uint64_t{5} << 32)};
  const Status s = heap_.cancel_at(future);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, Errc::not_found);
  ExpectUnchanged();
}

TEST_F(TimeoutHeapBadCancelTest, DataDoesNotMatch) {
  const Status s = heap_.cancel_at(second_, 99);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, Errc::mismatch);
  EXPECT_NE(s.error().message.find("0x63"), std::string::npos) << s.error().message;  // 99
  EXPECT_NE(s.error().message.find("0x2"), std::string::npos) << s.error().message;   // what it holds
  ExpectUnchanged();
}

TEST_F(TimeoutHeapBadCancelTest, AlreadyCancelledThenStaleAfterReuse) {
  ASSERT_TRUE(heap_.cancel_at(third_).ok());
  const Status twice = heap_.cancel_at(third_);
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(twice.error().code, Errc::already_cancelled);
  ASSERT_TRUE(heap_.peek().has_value());  // drops the cancelled entry; its slot is free
  const auto reuse = heap_.push(5, 3);    // takes the freed slot with a new generation
  EXPECT_EQ(reuse.value & 0xffffffffu, third_.value & 0xffffffffu) << "the slot is reused";
  const Status stale = heap_.cancel_at(third_);
  ASSERT_FALSE(stale.ok());
  EXPECT_EQ(stale.error().code, Errc::stale);
  ExpectUnchanged();  // the entry now in the slot survived
}

TEST_F(TimeoutHeapBadCancelTest, HandleOfAPoppedEntryIsStale) {
  ASSERT_EQ(heap_.pop()->data, 3u);
  const Status s = heap_.cancel_at(third_);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, Errc::stale);
  heap_.push(5, 3);
  ExpectUnchanged();
}

TEST(TimeoutHeapTest, FreeCallbackMayPushIntoTheHeap) {
  TimeoutHeap heap;
  heap.set_free_callback([&](TimeoutHeap::Data d) {
    if (d == 1) heap.push(50, 2);
  });
  auto h = heap.push(10, 1);
  ASSERT_TRUE(heap.cancel_at(h).ok());
  const auto top = heap.pop();
  ASSERT_TRUE(top.has_value());
  EXPECT_EQ(top->data, 2u);
}

TEST(TimeoutHeapTest, FreeCallbackMayCallEveryMemberOfItsHeap) {
  TimeoutHeap heap;
  std::vector<TimeoutHeap::Data> freed;
  std::vector<TimeoutHeap::Data> popped;
  heap.set_free_callback([&](TimeoutHeap::Data d) {
    freed.push_back(d);
    if (d == 1) {
      const auto h = heap.push(5, 100);     // pushes
      EXPECT_TRUE(heap.cancel_at(h).ok());  // cancels, so that the pop below drops it (nested)
      if (auto e = heap.pop()) popped.push_back(e->data);
      heap.set_free_callback([&](TimeoutHeap::Data later) { freed.push_back(later + 1000); });  // replaces itself
      heap.clear();                         // and clears, all from inside
    }
  });
  for (TimeoutHeap::Data d : std::array<TimeoutHeap::Data, 3>{1, 2, 3}) heap.push(static_cast<TimeoutHeap::Expiration>(d), d);
  ASSERT_TRUE(heap.cancel(1, 1).ok());
  EXPECT_EQ(heap.peek(), std::nullopt) << "the clear inside the callback emptied it";
  // 1 dropped; inside it: 100 dropped by the nested pop (nested call, old callback), then the
  // pop took 2 (the caller owns popped data), and clear released 3 (still the old callback:
  // the new one is installed when the outer call returns).
  EXPECT_EQ(freed, (std::vector<TimeoutHeap::Data>{1, 100, 3}));
  EXPECT_EQ(popped, (std::vector<TimeoutHeap::Data>{2}));
  heap.push(7, 7);
  heap.clear();
  EXPECT_EQ(freed.back(), 1007u) << "the replacement is in place";
  EXPECT_TRUE(heap.empty());
}

TEST(TimeoutHeapTest, AnEntryPushedByTheFreeCallbackWhileTheHeapIsDestroyedIsReleasedToo) {
  std::vector<TimeoutHeap::Data> freed;
  {
    TimeoutHeap heap;
    heap.set_free_callback([&](TimeoutHeap::Data d) {
      freed.push_back(d);
      if (d == 1) heap.push(9, 2);
    });
    heap.push(1, 1);
  }
  EXPECT_EQ(freed, (std::vector<TimeoutHeap::Data>{1, 2}));
}

}  // namespace
}  // namespace cadence
