// SharedTimingWheel against a mapping that another process scribbled on: each field of the
// header, the slot heads and the timers damaged in turn, then every operation run on it. None
// may follow an index out of the mapping; the damage to a link is met with a clear `corrupt`
// error and a rebuilt wheel that works again. Also: a memfd wheel's size is sealed, and a
// moved-from object says it holds no wheel.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "cadence/shared_timing_wheel.hpp"
#include "shared_wheel_layout.hpp"
#include "shared_wheel_scribbler.hpp"

namespace cadence {
namespace {

using detail::SharedHeader;
using detail::SharedNode;

constexpr std::uint32_t kSlots = 16;
constexpr std::uint32_t kCapacity = 32;

using testing::Scribbler;

struct Damage {
  std::string what;
  std::function<void(const Scribbler&)> apply;
  bool a_link = false;  // an index the operations follow: must be met with `corrupt`
};

// A wheel with timers in several slots, some sharing one, and a free list.
struct PopulatedFile {
  SharedTimingWheel wheel;
  std::vector<SharedTimerId> ids;
};

PopulatedFile populate_file() {
  auto w = SharedTimingWheel::memfd("damage", kSlots, kCapacity);
  EXPECT_TRUE(w.ok());
  PopulatedFile p{std::move(*w), {}};
  for (std::uint64_t i = 0; i < 20; ++i) p.ids.push_back(*p.wheel.add(static_cast<std::int64_t>(1 + i % 5 + (i % 3) * kSlots), i));
  for (int i = 0; i < 6; ++i) EXPECT_TRUE(p.wheel.cancel(p.ids[static_cast<std::size_t>(i * 3)]));
  EXPECT_EQ(p.wheel.check(), "");
  return p;
}

std::vector<Damage> damages() {
  std::vector<Damage> d;
  for (std::uint32_t bad : {kCapacity + 1, 0x7fff'ffffu, 0xffff'ffffu}) {
    const std::string v = " = " + std::to_string(bad);
    d.push_back({"free_head" + v, [=](const Scribbler& s) { s.header().free_head = bad; }, true});
    d.push_back({"high_water" + v, [=](const Scribbler& s) { s.header().high_water = bad; }, true});
    for (std::uint32_t slot : {1u, 2u, 5u, 7u}) {
      d.push_back({"head[" + std::to_string(slot) + "]" + v, [=](const Scribbler& s) { s.head(slot) = bad; }, true});
    }
    for (std::uint32_t link : {2u, 5u, 14u}) {
      d.push_back({"node " + std::to_string(link) + " next" + v, [=](const Scribbler& s) { s.node(link).next = bad; }, true});
      // A middle node's backward link is overwritten by its neighbour's removal before it is
      // read, so it may never be met.
      d.push_back({"node " + std::to_string(link) + " prev" + v, [=](const Scribbler& s) { s.node(link).prev = bad; }});
    }
  }
  // Links that stay in range but make no sense: cycles, a free node on a list, a pending one
  // on the free list, a slot head's tail link of 0.
  d.push_back({"node 2 next = itself", [](const Scribbler& s) { s.node(2).next = 2; }});
  d.push_back({"a slot head names a free node", [](const Scribbler& s) { s.head(2) = s.header().free_head; }});
  d.push_back({"the free list names a pending node", [](const Scribbler& s) { s.header().free_head = 2; }});
  d.push_back({"head 2's tail link = 0", [](const Scribbler& s) {
                 if (s.head(2) != 0) s.node(s.head(2)).prev = 0;
               }});
  // Values the operations do not follow: wrong, but never out of bounds.
  for (std::uint64_t bad : {std::uint64_t{0}, std::uint64_t{1} << 62, ~std::uint64_t{0}}) {
    const std::string v = " = " + std::to_string(bad);
    d.push_back({"now" + v, [=](const Scribbler& s) { s.header().now = bad; }});
    d.push_back({"node 5 expire" + v, [=](const Scribbler& s) { s.node(5).expire = bad; }});
    d.push_back({"ops" + v, [=](const Scribbler& s) { s.header().ops = bad; }});
  }
  for (std::uint32_t bad : {0u, 1u, kCapacity + 1, 0xffff'ffffu}) {
    const std::string v = " = " + std::to_string(bad);
    d.push_back({"count" + v, [=](const Scribbler& s) { s.header().count = bad; }});
    d.push_back({"num_slots" + v, [=](const Scribbler& s) { s.header().num_slots = bad; }});
    d.push_back({"capacity" + v, [=](const Scribbler& s) { s.header().capacity = bad; }});
    d.push_back({"epoch" + v, [=](const Scribbler& s) { s.header().epoch = bad; }});
    d.push_back({"clearing" + v, [=](const Scribbler& s) { s.header().clearing = bad; }});
    d.push_back({"node 5 tag" + v, [=](const Scribbler& s) { s.node(5).tag = bad; }});
    d.push_back({"node 7 mark" + v, [=](const Scribbler& s) { s.node(7).mark = bad; }});
    d.push_back({"every mark" + v, [=](const Scribbler& s) {
                   for (std::uint32_t l = 1; l <= kCapacity; ++l) s.node(l).mark = bad;
                 }});
  }
  return d;
}

bool allowed(Errc code) { return code == Errc::corrupt || code == Errc::full || code == Errc::invalid_argument; }

TEST(SharedWheelDamageTest, EveryFieldDamagedInTurnNeverTakesAnOperationOutOfBounds) {
  for (const Damage& damage : damages()) {
    SCOPED_TRACE(damage.what);
    PopulatedFile p = populate_file();
    Scribbler scribbler(p.wheel.memfd(), kSlots, kCapacity);
    ASSERT_TRUE(scribbler.ok());
    damage.apply(scribbler);
    int corrupt = 0;
    const auto note = [&](const Error& e) {
      EXPECT_TRUE(allowed(e.code)) << to_string(e.code) << ": " << e.message;
      if (e.code == Errc::corrupt) {
        ++corrupt;
        EXPECT_NE(e.message.find("damaged"), std::string::npos) << e.message;
      }
    };
    // Every operation, a few times: the first to meet the damage reports and rebuilds.
    for (int round = 0; round < 3; ++round) {
      auto added = p.wheel.add(3, 1000);
      if (!added) note(added.error());
      for (SharedTimerId id : p.ids) (void)p.wheel.cancel(id);
      std::vector<std::uint64_t> fired;
      if (Status s = p.wheel.advance(1, fired); !s) note(s.error());
      if (Status s = p.wheel.advance(kSlots * 3, fired); !s) note(s.error());
      (void)p.wheel.stats();
      (void)p.wheel.check();
    }
    if (damage.a_link) {
      EXPECT_GE(corrupt + static_cast<int>(p.wheel.stats().recoveries), 1) << "the damage was met and reported";
    }
    // Whatever it was, clear() and a repair leave a wheel that works.
    p.wheel.clear();
    EXPECT_EQ(p.wheel.check(), "");
    auto id = p.wheel.add(2, 77);
    ASSERT_TRUE(id.ok()) << id.error().message;
    auto fired = p.wheel.advance(2);
    ASSERT_TRUE(fired.ok());
    EXPECT_EQ(*fired, std::vector<std::uint64_t>{77});
  }
}

TEST(SharedWheelDamageTest, ADamagedLinkIsReportedOnceAndTheRebuiltWheelKeepsItsTimers) {
  PopulatedFile p = populate_file();
  Scribbler scribbler(p.wheel.memfd(), kSlots, kCapacity);
  ASSERT_TRUE(scribbler.ok());
  const std::uint32_t pending = p.wheel.count();
  scribbler.header().free_head = 0xffff'ffffu;
  auto added = p.wheel.add(1, 500);
  ASSERT_FALSE(added.ok());
  EXPECT_EQ(added.error().code, Errc::corrupt);
  EXPECT_NE(added.error().message.find("free-list head 4294967295"), std::string::npos) << added.error().message;
  EXPECT_EQ(p.wheel.stats().recoveries, 1u);
  EXPECT_EQ(p.wheel.check(), "") << "rebuilt";
  EXPECT_EQ(p.wheel.count(), pending) << "no timer lost";
  ASSERT_TRUE(p.wheel.add(1, 500).ok()) << "the next call works";
  auto all = p.wheel.advance(kSlots * 3);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), pending + 1u);
}

TEST(SharedWheelDamageTest, ACancelMeetingADamagedListStillCancels) {
  PopulatedFile p = populate_file();
  Scribbler scribbler(p.wheel.memfd(), kSlots, kCapacity);
  ASSERT_TRUE(scribbler.ok());
  const SharedTimerId victim = p.ids[1];
  const std::uint32_t link = static_cast<std::uint32_t>(victim.value & 0xffff'ffffu);
  scribbler.node(link).prev = 0xffff'fff0u;
  EXPECT_TRUE(p.wheel.cancel(victim));
  EXPECT_EQ(p.wheel.stats().recoveries, 1u);
  EXPECT_EQ(p.wheel.check(), "");
  EXPECT_FALSE(p.wheel.cancel(victim)) << "once";
}

// ---- damage that stays in range: wrong, but only a consistency check can tell ------------------

TEST(SharedWheelDamageTest, ATailLinkNamingAnotherTimerOfItsListIsCaughtBeforeTheListIsCut) {
  auto w = SharedTimingWheel::memfd("tail", 8, 16);
  ASSERT_TRUE(w.ok());
  for (std::uint64_t p : std::array<std::uint64_t, 3>{101, 102, 103}) ASSERT_TRUE(w->add(1, p).ok());  // links 1, 2, 3 in slot 1
  Scribbler s(w->memfd(), 8, 16);
  s.node(1).prev = 1;  // the head's tail link names itself, not node 3
  auto added = w->add(1, 104);
  ASSERT_FALSE(added.ok()) << "appending after node 1 would cut off 2 and 3";
  EXPECT_EQ(added.error().code, Errc::corrupt);
  EXPECT_EQ(w->check(), "");
  ASSERT_TRUE(w->add(1, 104).ok());
  EXPECT_EQ(*w->advance(1), (std::vector<std::uint64_t>{101, 102, 103, 104})) << "nothing lost";
}

TEST(SharedWheelDamageTest, ATimerWhoseDueTickWasDamagedCannotUnlinkAnotherSlotsList) {
  auto w = SharedTimingWheel::memfd("expire", 8, 16);
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE(w->add(1, 101).ok());               // A: link 1, slot 1
  const SharedTimerId b = *w->add(1, 102);        // B: link 2, slot 1
  Scribbler s(w->memfd(), 8, 16);
  s.node(2).expire = 2;                           // B's record now names slot 2
  ASSERT_TRUE(w->add(2, 201).ok());               // C: slot 2
  (void)w->cancel(b);                             // meets B where its record does not say
  EXPECT_EQ(w->check(), "") << "slot 2's list untouched";
  ASSERT_TRUE(w->add(2, 202).ok());               // D, undamaged, due at tick 2
  auto first = w->advance(1);
  ASSERT_TRUE(first.ok());
  auto second = w->advance(1);
  ASSERT_TRUE(second.ok()) << second.error().message;
  EXPECT_NE(std::find(second->begin(), second->end(), 202u), second->end()) << "D fires on time";
  EXPECT_NE(std::find(second->begin(), second->end(), 201u), second->end());
}

TEST(SharedWheelDamageTest, ACountTooSmallNeitherHidesTimersNorWrapsAround) {
  auto w = SharedTimingWheel::memfd("count", 8, 16);
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE(w->add(2, 201).ok());
  ASSERT_TRUE(w->add(4, 204).ok());
  Scribbler s(w->memfd(), 8, 16);
  s.header().count = 1;
  std::vector<std::uint64_t> fired;
  const Status first = w->advance(5, fired);
  std::vector<std::uint64_t> more;
  const Status second = w->advance(8, more);
  fired.insert(fired.end(), more.begin(), more.end());
  EXPECT_FALSE(first.ok()) << "firing the second timer finds the count already at 0";
  EXPECT_EQ(first.error().code, Errc::corrupt);
  EXPECT_TRUE(second.ok());
  EXPECT_EQ(fired, (std::vector<std::uint64_t>{201, 204})) << "both fire: the count does not decide what is visited";
  EXPECT_EQ(w->count(), 0u) << "rebuilt, never wrapped below 0";
  const SharedTimerId id = *w->add(3, 304);
  s.header().count = 0;
  EXPECT_TRUE(w->cancel(id)) << "a count of 0 with a timer pending: rebuilt, then cancelled";
  EXPECT_EQ(w->count(), 0u);
  EXPECT_EQ(w->check(), "");
}

// ---- sealing --------------------------------------------------------------------------------

TEST(SharedWheelSealTest, AMemfdWheelCannotBeShrunkOrGrownByAnyHolder) {
  auto w = SharedTimingWheel::memfd("sealed", kSlots, kCapacity);
  ASSERT_TRUE(w.ok());
  const off_t size = static_cast<off_t>(detail::mapping_bytes(kSlots, kCapacity));
  const int other = ::dup(w->memfd());  // what another process holds
  EXPECT_NE(::ftruncate(other, 0), 0);
  EXPECT_EQ(errno, EPERM);
  EXPECT_NE(::ftruncate(other, size * 2), 0);
  EXPECT_EQ(errno, EPERM);
  EXPECT_EQ(::fcntl(other, F_ADD_SEALS, F_SEAL_WRITE), -1) << "no further seals either";
  ::close(other);
  ASSERT_TRUE(w->add(1, 5).ok());
  EXPECT_EQ(*w->advance(1), std::vector<std::uint64_t>{5}) << "still a working wheel";
}

TEST(SharedWheelSealTest, AnUnsealedMemfdHandedOverIsSealedWhenAttached) {
  auto original = SharedTimingWheel::memfd("source", kSlots, kCapacity);
  ASSERT_TRUE(original.ok());
  ASSERT_TRUE(original->add(4, 9).ok());
  const std::size_t size = detail::mapping_bytes(kSlots, kCapacity);
  std::vector<char> bytes(size);
  ASSERT_EQ(::pread(original->memfd(), bytes.data(), size, 0), static_cast<ssize_t>(size));
  const int copy = ::memfd_create("copy", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  ASSERT_GE(copy, 0);
  ASSERT_EQ(::write(copy, bytes.data(), size), static_cast<ssize_t>(size));
  auto attached = SharedTimingWheel::from_fd(copy);
  ASSERT_TRUE(attached.ok()) << attached.error().message;
  EXPECT_NE(::ftruncate(copy, 0), 0) << "sealed by attaching";
  EXPECT_EQ(*attached->advance(4), std::vector<std::uint64_t>{9});
  ::close(copy);
}

// ---- a moved-from object --------------------------------------------------------------------

TEST(SharedWheelMovedFromTest, EveryCallSaysItHoldsNoWheel) {
  auto made = SharedTimingWheel::memfd("moved", kSlots, kCapacity);
  ASSERT_TRUE(made.ok());
  SharedTimingWheel from = std::move(*made);
  const SharedTimerId id = *from.add(3, 42);
  SharedTimingWheel to = std::move(from);
  for (SharedTimingWheel* w : {&from, &*made}) {  // moved from twice over
    auto added = w->add(1, 1);
    ASSERT_FALSE(added.ok());
    EXPECT_EQ(added.error().code, Errc::closed);
    EXPECT_NE(added.error().message.find("moved from"), std::string::npos);
    EXPECT_FALSE(w->cancel(id));
    EXPECT_FALSE(w->advance(1).ok());
    std::vector<std::uint64_t> fired;
    EXPECT_EQ(w->advance(1, fired).error().code, Errc::closed);
    w->clear();
    EXPECT_EQ(w->now(), 0u);
    EXPECT_EQ(w->count(), 0u);
    EXPECT_EQ(w->num_slots(), 0u);
    EXPECT_EQ(w->capacity(), 0u);
    EXPECT_EQ(w->stats().mmap_size, 0u);
    EXPECT_EQ(w->memfd(), -1);
    EXPECT_NE(w->check().find("moved from"), std::string::npos);
    EXPECT_EQ(w->sync().error().code, Errc::closed);
    EXPECT_EQ(w->unlink().error().code, Errc::closed);
  }
  EXPECT_EQ(to.count(), 1u) << "the object it moved to has the wheel";
  EXPECT_EQ(*to.advance(3), std::vector<std::uint64_t>{42});
  from = std::move(to);  // assigning to a moved-from object gives it a wheel again
  EXPECT_EQ(from.num_slots(), kSlots);
  EXPECT_EQ(to.capacity(), 0u);
}

}  // namespace
}  // namespace cadence
