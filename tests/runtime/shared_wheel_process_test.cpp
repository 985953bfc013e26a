// SharedTimingWheel across processes: forked schedulers with one advancer, and processes killed
// with SIGKILL inside every step of every operation while they hold the lock. The survivors
// repair the wheel and go on; every timer fires exactly once or, if its operation died with
// its process, is consistently there or not.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <fstream>
#include <iterator>
#include <map>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "cadence/shared_timing_wheel.hpp"
#include "shared_wheel_layout.hpp"

namespace cadence {
namespace {

using detail::SharedWheelFault;
using namespace std::chrono_literals;

// Runs `body` in a child process, which exits with its return value (never returns here).
template <class F>
pid_t spawn(F body) {
  const pid_t pid = ::fork();
  if (pid == 0) ::_exit(body());
  return pid;
}

// Waits for `pid` to end, blocked in poll() on its pidfd for up to 60 s; returns its wait
// status, or -1 when it did not end in time (it is killed then). Without pidfds (Linux before
// 5.3) it waits without a deadline, and ctest's own timeout stands in.
int wait_for(pid_t pid) {
  const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
  bool timed_out = false;
  if (pidfd >= 0) {
    pollfd ended{pidfd, POLLIN, 0};
    timed_out = ::poll(&ended, 1, 60'000) == 0;
    ::close(pidfd);
  }
  if (timed_out) ::kill(pid, SIGKILL);
  int status = 0;
  if (::waitpid(pid, &status, 0) != pid || timed_out) return -1;
  return status;
}

// Whether process `pid` is asleep (blocked, as on a lock), from /proc/<pid>/stat.
bool process_is_sleeping(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  const std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const std::size_t paren = text.rfind(')');
  return paren != std::string::npos && paren + 2 < text.size() && text[paren + 2] == 'S';
}

// Waits (up to `limit`) until process `pid` is asleep: its state can only be read, not waited
// for, so it looks again each time the scheduler lets this thread run.
bool wait_until_sleeping(pid_t pid, std::chrono::seconds limit = std::chrono::seconds(10)) {
  const auto by = std::chrono::steady_clock::now() + limit;
  while (!process_is_sleeping(pid) && std::chrono::steady_clock::now() < by) std::this_thread::yield();
  return process_is_sleeping(pid);
}

bool killed(int status) { return status != -1 && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL; }
bool exited_ok(int status) { return status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0; }

// ---- several processes at once ----------------------------------------------------------------

enum class Sharing { inherited, file, memfd };

struct Record {
  std::uint64_t before;  // now() just before add
  std::uint64_t after;   // now() just after
  std::int64_t delay;
  int cancel_result;     // -1 not cancelled, 0 cancel said false, 1 cancel said true
};

class SharedWheelProcessTest : public ::testing::TestWithParam<Sharing> {};
INSTANTIATE_TEST_SUITE_P(Sharing, SharedWheelProcessTest,
                         ::testing::Values(Sharing::inherited, Sharing::file, Sharing::memfd),
                         [](const auto& param_info) {
                           return std::string(param_info.param == Sharing::inherited ? "inherited"
                                              : param_info.param == Sharing::file    ? "file"
                                                                                     : "memfd");
                         });

TEST_P(SharedWheelProcessTest, ForkedSchedulersAndOneAdvancerFireEveryTimerExactlyOnceOnTime) {
  constexpr int kChildren = 4;
  constexpr int kPerChild = 2000;
  const std::string path = ::testing::TempDir() + "cadence_procs_" + std::to_string(::getpid()) + ".tw";
  ::unlink(path.c_str());
  auto made = GetParam() == Sharing::file    ? SharedTimingWheel::open(path, 256, 20'000)
              : GetParam() == Sharing::memfd ? SharedTimingWheel::memfd("procs", 256, 20'000)
                                             : SharedTimingWheel::anonymous(256, 20'000);
  ASSERT_TRUE(made.ok()) << made.error().message;
  SharedTimingWheel& wheel = *made;
  const std::size_t records_bytes = sizeof(Record) * kChildren * kPerChild;
  auto* records = static_cast<Record*>(::mmap(nullptr, records_bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0));
  ASSERT_NE(records, MAP_FAILED);

  std::vector<pid_t> children;
  for (int c = 0; c < kChildren; ++c) {
    children.push_back(spawn([&, c]() -> int {
      // Each child attaches the way an unrelated process would.
      std::optional<SharedTimingWheel> own;
      if (GetParam() == Sharing::file) {
        auto w = SharedTimingWheel::open(path, 1, 1);  // the file's geometry wins
        if (!w) return 10;
        own.emplace(std::move(*w));
      } else if (GetParam() == Sharing::memfd) {
        auto w = SharedTimingWheel::from_fd(wheel.memfd());
        if (!w) return 11;
        own.emplace(std::move(*w));
      }
      SharedTimingWheel& w = own ? *own : wheel;
      std::mt19937_64 rng(static_cast<std::uint64_t>(c) + 1);
      std::vector<SharedTimerId> ids;
      std::uint64_t first_half_due = 0;
      for (int i = 0; i < kPerChild; ++i) {
        if (i == kPerChild / 2) {
          // Halfway, wait until every timer of the first half is due, so that those fire while
          // this child still schedules, however the OS runs the processes.
          const auto until = std::chrono::steady_clock::now() + 60s;
          while (w.now() < first_half_due) {
            if (std::chrono::steady_clock::now() > until) return 13;
            std::this_thread::yield();
          }
        }
        Record& r = records[c * kPerChild + i];
        r.delay = static_cast<std::int64_t>(1 + rng() % 300);
        r.cancel_result = -1;
        r.before = w.now();
        auto id = w.add(r.delay, static_cast<std::uint64_t>(c) << 32 | static_cast<std::uint64_t>(i));
        r.after = w.now();
        if (!id) return 12;
        if (i < kPerChild / 2) first_half_due = std::max(first_half_due, r.after + static_cast<std::uint64_t>(r.delay));
        ids.push_back(*id);
        if (rng() % 4 == 0) {
          const std::size_t k = rng() % ids.size();
          Record& victim = records[c * kPerChild + static_cast<int>(k)];
          if (victim.cancel_result == -1) victim.cancel_result = w.cancel(ids[k]) ? 1 : 0;
        }
        if (rng() % 8 == 0) std::this_thread::yield();  // vary the interleaving with the advancer
      }
      return 0;
    }));
  }
  // This process advances the clock one tick at a time while the others schedule.
  std::map<std::uint64_t, std::vector<std::uint64_t>> fired_at;  // payload -> ticks it fired at
  std::vector<std::uint64_t> order;
  auto advance_once = [&] {
    auto fired = wheel.advance(1);
    ASSERT_TRUE(fired.ok());
    for (std::uint64_t p : *fired) {
      fired_at[p].push_back(wheel.now());
      order.push_back(wheel.now());
    }
  };
  std::size_t fired_while_scheduling = 0;
  int running = kChildren;
  std::vector<int> statuses(kChildren, -1);
  const auto deadline = std::chrono::steady_clock::now() + 120s;
  while (running > 0 && std::chrono::steady_clock::now() < deadline) {
    advance_once();
    fired_while_scheduling = order.size();
    std::this_thread::yield();  // let the schedulers at the lock between ticks
    for (std::size_t c = 0; c < kChildren; ++c) {
      int status = 0;
      if (statuses[c] == -1 && ::waitpid(children[c], &status, WNOHANG) == children[c]) {
        statuses[c] = status;
        --running;
      }
    }
  }
  for (std::size_t c = 0; c < kChildren; ++c) EXPECT_TRUE(exited_ok(statuses[c])) << "child " << c << " status " << statuses[c];
  for (int i = 0; i < 400 && wheel.count() > 0; ++i) advance_once();
  EXPECT_EQ(wheel.count(), 0u);
  EXPECT_EQ(wheel.check(), "");
  EXPECT_TRUE(std::is_sorted(order.begin(), order.end())) << "fired in tick order";

  int fired = 0, cancelled = 0;
  for (int c = 0; c < kChildren; ++c) {
    for (int i = 0; i < kPerChild; ++i) {
      const Record& r = records[c * kPerChild + i];
      const auto it = fired_at.find(static_cast<std::uint64_t>(c) << 32 | static_cast<std::uint64_t>(i));
      if (r.cancel_result == 1) {
        EXPECT_EQ(it, fired_at.end()) << "child " << c << " timer " << i << " fired after it was cancelled";
        ++cancelled;
        continue;
      }
      ASSERT_NE(it, fired_at.end()) << "child " << c << " timer " << i << " never fired";
      ASSERT_EQ(it->second.size(), 1u) << "child " << c << " timer " << i << " fired more than once";
      const std::uint64_t t = it->second[0];
      EXPECT_GE(t, r.before + static_cast<std::uint64_t>(r.delay)) << "early";
      EXPECT_LE(t, r.after + static_cast<std::uint64_t>(r.delay)) << "late";
      ++fired;
    }
  }
  EXPECT_EQ(fired + cancelled, kChildren * kPerChild);
  EXPECT_EQ(static_cast<std::size_t>(fired), fired_at.size()) << "nothing else fired";
  EXPECT_GT(cancelled, 500);
  EXPECT_GT(fired_while_scheduling, 1000u) << "the clock moved and timers fired while the others scheduled";
  ::munmap(records, records_bytes);
  ::unlink(path.c_str());
}

// ---- processes killed inside an operation -------------------------------------------------------

SharedWheelFault g_kill_at;
int g_signal_fd = -1;

void kill_self_at(SharedWheelFault point) {
  if (point == g_kill_at) ::raise(SIGKILL);
}

void report_and_hold_at(SharedWheelFault point) {
  if (point != g_kill_at) return;
  const char byte = 1;
  (void)::write(g_signal_fd, &byte, 1);
  for (;;) ::pause();  // holding the lock until killed
}

// Forks a process that stops inside add(delay 10, payload 999), after linking the timer,
// holding the lock until killed; returns once it is there (-1 if it never got there).
pid_t spawn_lock_holder(SharedTimingWheel& wheel) {
  int fds[2];
  if (::pipe(fds) != 0) return -1;
  const pid_t holder = spawn([&]() -> int {
    g_kill_at = SharedWheelFault::add_after_link;
    g_signal_fd = fds[1];
    detail::shared_wheel_fault_hook = report_and_hold_at;
    (void)wheel.add(10, 999);
    return 3;
  });
  char byte = 0;
  const bool there = ::read(fds[0], &byte, 1) == 1;
  ::close(fds[0]);
  ::close(fds[1]);
  return there ? holder : -1;
}

// 20 timers, 1-7 ticks away (three or so per tick), payload = their index.
struct Populated {
  SharedTimingWheel wheel;
  std::vector<SharedTimerId> ids;
};
Populated populate() {
  auto w = SharedTimingWheel::anonymous(16, 64);
  EXPECT_TRUE(w.ok());
  Populated p{std::move(*w), {}};
  for (std::uint64_t i = 0; i < 20; ++i) p.ids.push_back(*p.wheel.add(static_cast<std::int64_t>(1 + i % 7), i));
  return p;
}

std::set<std::uint64_t> fire_all(SharedTimingWheel& w) {
  std::set<std::uint64_t> out;
  const auto fired = w.advance(100);
  EXPECT_TRUE(fired.ok());
  for (std::uint64_t p : fired.value()) EXPECT_TRUE(out.insert(p).second) << "payload " << p << " fired twice";
  return out;
}

std::set<std::uint64_t> all_but(std::initializer_list<std::uint64_t> gone) {
  std::set<std::uint64_t> s;
  for (std::uint64_t i = 0; i < 20; ++i) s.insert(i);
  for (std::uint64_t g : gone) s.erase(g);
  return s;
}

struct CrashCase {
  SharedWheelFault point;
  const char* name;
};

class SharedWheelCrashTest : public ::testing::TestWithParam<CrashCase> {};
INSTANTIATE_TEST_SUITE_P(Points, SharedWheelCrashTest,
                         ::testing::Values(CrashCase{SharedWheelFault::add_after_pop, "add_after_pop"},
                                           CrashCase{SharedWheelFault::add_after_link, "add_after_link"},
                                           CrashCase{SharedWheelFault::cancel_after_tag, "cancel_after_tag"},
                                           CrashCase{SharedWheelFault::cancel_after_unlink, "cancel_after_unlink"},
                                           CrashCase{SharedWheelFault::advance_mid_tick, "advance_mid_tick"},
                                           CrashCase{SharedWheelFault::clear_mid_tags, "clear_mid_tags"},
                                           CrashCase{SharedWheelFault::clear_mid_way, "clear_mid_way"}),
                         [](const auto& param_info) { return std::string(param_info.param.name); });

TEST_P(SharedWheelCrashTest, AProcessKilledInsideAnOperationLeavesAWheelTheOthersRepair) {
  Populated p = populate();
  const SharedWheelFault point = GetParam().point;
  const pid_t child = spawn([&]() -> int {
    g_kill_at = point;
    detail::shared_wheel_fault_hook = kill_self_at;
    switch (point) {
      case SharedWheelFault::add_after_pop:
      case SharedWheelFault::add_after_link: (void)p.wheel.add(3, 500); break;
      case SharedWheelFault::cancel_after_tag:
      case SharedWheelFault::cancel_after_unlink: (void)p.wheel.cancel(p.ids[5]); break;
      case SharedWheelFault::advance_mid_tick: (void)p.wheel.advance(2); break;
      default: p.wheel.clear(); break;
    }
    return 3;  // the hook should have killed it
  });
  ASSERT_TRUE(killed(wait_for(child))) << "the child died at the fault point, holding the lock";
  EXPECT_EQ(p.wheel.check(), "") << "repaired by the next process to lock";
  EXPECT_EQ(p.wheel.stats().recoveries, 1u);
  switch (point) {
    case SharedWheelFault::add_after_pop:
    case SharedWheelFault::add_after_link:
      EXPECT_EQ(p.wheel.count(), 20u) << "the add never completed";
      EXPECT_EQ(fire_all(p.wheel), all_but({}));
      break;
    case SharedWheelFault::cancel_after_tag:
    case SharedWheelFault::cancel_after_unlink:
      EXPECT_EQ(p.wheel.count(), 19u) << "the cancel had taken effect";
      EXPECT_FALSE(p.wheel.cancel(p.ids[5]));
      EXPECT_EQ(fire_all(p.wheel), all_but({5}));
      break;
    case SharedWheelFault::advance_mid_tick:
      // Tick 1 holds 0, 7 and 14; the dead process had taken 0 out (it died with it). The
      // clock had not moved: the next advance runs tick 1 again.
      EXPECT_EQ(p.wheel.now(), 0u);
      EXPECT_EQ(p.wheel.count(), 19u);
      EXPECT_EQ(*p.wheel.advance(1), (std::vector<std::uint64_t>{7, 14}));
      EXPECT_EQ(fire_all(p.wheel), all_but({0, 7, 14}));
      break;
    default:
      EXPECT_EQ(p.wheel.count(), 0u) << "the clear is finished by the repair: all or nothing";
      EXPECT_EQ(fire_all(p.wheel), std::set<std::uint64_t>{});
      EXPECT_FALSE(p.wheel.cancel(p.ids[0]));
      break;
  }
  ASSERT_TRUE(p.wheel.add(1, 77).ok()) << "and the wheel goes on";
  EXPECT_EQ(*p.wheel.advance(1), std::vector<std::uint64_t>{77});
  EXPECT_EQ(p.wheel.check(), "");
}

TEST(SharedWheelCrashTest, AProcessBlockedBehindAKilledLockHolderGoesOn) {
  Populated p = populate();
  const pid_t holder = spawn_lock_holder(p.wheel);
  ASSERT_GT(holder, 0) << "the holder is inside add(), holding the lock";
  const pid_t waiter = spawn([&]() -> int {
    auto id = p.wheel.add(5, 1000);  // blocks on the lock until the holder dies
    if (!id) return 1;
    return p.wheel.check().empty() ? 0 : 2;
  });
  // The waiter blocks on the lock the holder keeps: wait until it is asleep there, so that the
  // kill below finds it blocked.
  EXPECT_TRUE(wait_until_sleeping(waiter)) << "the waiter is blocked behind the holder";
  ASSERT_EQ(::kill(holder, SIGKILL), 0);
  EXPECT_TRUE(killed(wait_for(holder)));
  EXPECT_TRUE(exited_ok(wait_for(waiter))) << "the waiter got the lock, repaired the wheel and went on";
  EXPECT_EQ(p.wheel.check(), "");
  EXPECT_EQ(p.wheel.stats().recoveries, 1u);
  std::set<std::uint64_t> expected = all_but({});
  expected.insert(1000);
  EXPECT_EQ(fire_all(p.wheel), expected) << "the killed add (999) left no timer; the waiter's (1000) fired";
}

TEST(SharedWheelCrashTest, StatsIsOneSnapshotTakenUnderTheLock) {
  Populated p = populate();
  const pid_t holder = spawn_lock_holder(p.wheel);  // inside add(): linked, not yet counted
  ASSERT_GT(holder, 0);
  const pid_t reader = spawn([&]() -> int {
    const SharedWheelStats s = p.wheel.stats();  // waits for the lock: never half an operation
    return s.count == 20 && s.recoveries == 1 ? 0 : 1;
  });
  EXPECT_TRUE(wait_until_sleeping(reader)) << "stats() waits while another process is inside an operation";
  ASSERT_EQ(::kill(holder, SIGKILL), 0);
  EXPECT_TRUE(killed(wait_for(holder)));
  EXPECT_TRUE(exited_ok(wait_for(reader))) << "it then saw the repaired wheel: 20 timers, one repair";
}

TEST(SharedWheelCrashTest, ARepairCutShortIsRedoneByTheNextProcess) {
  Populated p = populate();
  const pid_t first = spawn([&]() -> int {
    g_kill_at = SharedWheelFault::cancel_after_unlink;
    detail::shared_wheel_fault_hook = kill_self_at;
    (void)p.wheel.cancel(p.ids[3]);
    return 3;
  });
  ASSERT_TRUE(killed(wait_for(first)));
  const pid_t second = spawn([&]() -> int {
    g_kill_at = SharedWheelFault::recovery_mid_way;
    detail::shared_wheel_fault_hook = kill_self_at;
    (void)p.wheel.add(1, 500);  // its lock finds the dead owner and starts the repair
    return 3;
  });
  ASSERT_TRUE(killed(wait_for(second)));
  EXPECT_EQ(p.wheel.check(), "");
  EXPECT_EQ(p.wheel.stats().recoveries, 1u) << "one repair completed (the first was cut short)";
  EXPECT_EQ(fire_all(p.wheel), all_but({3}));
}

// ---- after a restart ---------------------------------------------------------------------

// Copies the file at `from` to a new file `to`, byte for byte.
void copy_file(const std::string& from, const std::string& to) {
  const int in = ::open(from.c_str(), O_RDONLY | O_CLOEXEC);
  const int out = ::open(to.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  ASSERT_GE(in, 0);
  ASSERT_GE(out, 0);
  char buffer[4096];
  for (ssize_t n; (n = ::read(in, buffer, sizeof buffer)) > 0;) ASSERT_EQ(::write(out, buffer, static_cast<std::size_t>(n)), n);
  ::close(in);
  ::close(out);
}

// A wheel file saved while a process held its lock, as a machine that went down (or a copy to
// another machine) leaves it: the lock names a thread that no longer exists, and nothing will
// ever mark it dead. The first process of a new boot to open it starts the lock afresh.
TEST(SharedWheelRestartTest, AFileLockedWhenTheMachineWentDownOpensAfterARestart) {
  if (::access("/proc/sys/kernel/random/boot_id", R_OK) != 0) GTEST_SKIP() << "no boot id to tell boots apart";
  const std::string dir = ::testing::TempDir() + "cadence_restart_" + std::to_string(::getpid());
  const std::string live = dir + ".tw", saved = dir + ".saved.tw";
  ::unlink(live.c_str());
  ::unlink(saved.c_str());
  auto made = SharedTimingWheel::open(live, 16, 64);
  ASSERT_TRUE(made.ok()) << made.error().message;
  SharedTimingWheel wheel = std::move(*made);
  for (std::uint64_t i = 1; i <= 5; ++i) ASSERT_TRUE(wheel.add(static_cast<std::int64_t>(i), i).ok());

  const pid_t holder = spawn_lock_holder(wheel);
  ASSERT_GT(holder, 0) << "the holder is inside add(), holding the lock";
  copy_file(live, saved);  // the state on disk when the machine went down
  ASSERT_EQ(::kill(holder, SIGKILL), 0);
  EXPECT_TRUE(killed(wait_for(holder)));

  // The saved file names a boot that is over.
  std::uint32_t boot = 0;
  const int fd = ::open(saved.c_str(), O_RDWR | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::pread(fd, &boot, sizeof boot, offsetof(detail::SharedHeader, boot)), 4);
  EXPECT_NE(boot, 0u);
  boot ^= 0x5a5a5a5au;
  ASSERT_EQ(::pwrite(fd, &boot, sizeof boot, offsetof(detail::SharedHeader, boot)), 4);
  ::close(fd);

  const pid_t next_boot = spawn([&]() -> int {
    auto w = SharedTimingWheel::open(saved, 16, 64);
    if (!w) return 1;
    if (!w->check().empty() || w->count() != 5) return 2;
    if (!w->add(1, 6).ok()) return 3;  // would wait for ever on the old lock
    const auto fired = w->advance(10);
    if (!fired || *fired != std::vector<std::uint64_t>{1, 6, 2, 3, 4, 5}) return 4;  // tick 1: 1, then 6
    return w->stats().recoveries == 1 ? 0 : 5;
  });
  EXPECT_TRUE(exited_ok(wait_for(next_boot)))
      << "it opened the saved wheel, kept its five timers and the half-done add's absence, and went on";
  ::unlink(live.c_str());
  ::unlink(saved.c_str());
}

// Patches the boot digest stored in the wheel file at `path` (what a restart changes).
void set_stored_boot(const std::string& path, std::uint32_t boot) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::pwrite(fd, &boot, sizeof boot, offsetof(detail::SharedHeader, boot)), 4);
  ::close(fd);
}

TEST(SharedWheelRestartTest, AFileFromAnEarlierBootWithAFreeLockIsRepairedAndKept) {
  if (detail::boot_digest() == 0) GTEST_SKIP() << "no boot id to tell boots apart";
  const std::string path = ::testing::TempDir() + "cadence_restart_free_" + std::to_string(::getpid()) + ".tw";
  ::unlink(path.c_str());
  {
    auto w = SharedTimingWheel::open(path, 16, 64);
    ASSERT_TRUE(w.ok()) << w.error().message;
    for (std::uint64_t i = 1; i <= 3; ++i) ASSERT_TRUE(w->add(static_cast<std::int64_t>(i), i).ok());
  }
  set_stored_boot(path, detail::boot_digest() ^ 1u);
  auto w = SharedTimingWheel::open(path, 16, 64);
  ASSERT_TRUE(w.ok()) << w.error().message;
  EXPECT_EQ(w->stats().recoveries, 1u) << "rebuilt under its lock, in case pages reached the disk torn";
  EXPECT_EQ(w->check(), "");
  EXPECT_EQ(*w->advance(3), (std::vector<std::uint64_t>{1, 2, 3}));
  // A file whose boot was never known (stamped 0) is left alone: there is nothing to compare.
  set_stored_boot(path, 0);
  auto again = SharedTimingWheel::open(path, 16, 64);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->stats().recoveries, 1u) << "no second repair";
  ::unlink(path.c_str());
}

// Several processes open one new path at once: exactly one wheel is made and named, every
// process attaches to it, and none sets it up again over the others' timers. Odd rounds create
// as on a file system without unnamed files (at the path, under the flock).
TEST(SharedWheelOpenRaceTest, ProcessesOpeningANewFileAtOnceShareOneWheel) {
  const std::string path = ::testing::TempDir() + "cadence_open_race_" + std::to_string(::getpid()) + ".tw";
  for (int round = 0; round < 6; ++round) {
    ::unlink(path.c_str());
    detail::shared_wheel_named_create_only = round % 2 == 1;  // the children inherit it
    int go[2];
    ASSERT_EQ(::pipe(go), 0);
    std::vector<pid_t> openers;
    for (int i = 0; i < 4; ++i) {
      openers.push_back(spawn([&, i]() -> int {
        ::close(go[1]);
        char byte;
        (void)::read(go[0], &byte, 1);  // all start together
        auto w = SharedTimingWheel::open(path, 16, 64, i % 2 == 0 ? 0600 : 0640);
        if (!w) return 1;
        return w->add(5, static_cast<std::uint64_t>(i)).ok() ? 0 : 2;
      }));
    }
    ::close(go[0]);
    ::close(go[1]);  // releases them all
    for (pid_t pid : openers) EXPECT_TRUE(exited_ok(wait_for(pid)));
    auto w = SharedTimingWheel::open(path, 16, 64, 0640);
    ASSERT_TRUE(w.ok()) << w.error().message;
    EXPECT_EQ(w->count(), 4u) << "round " << round << ": every opener's timer is in the one wheel";
    EXPECT_EQ(w->check(), "");
  }
  detail::shared_wheel_named_create_only = false;
  ::unlink(path.c_str());
}

}  // namespace
}  // namespace cadence
