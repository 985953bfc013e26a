// cadence/shared_timing_wheel.hpp: one hashed timing wheel that several processes share.
//
// A wheel of `num_slots` buckets and a fixed pool of `capacity` timers, kept in a shared
// mapping: a backing file that any process may open, an anonymous mapping that children
// inherit across fork(), or a memfd whose descriptor is passed to another process. Every
// process that maps it schedules into, cancels from and advances one clock. Time is in whole
// ticks (what a tick means is the app's choice); each timer carries a 64-bit payload that comes
// back when it fires. Linux only.
//
//     #include <cadence/shared_timing_wheel.hpp>
//     #include <string>
//     #include <vector>
//     using namespace cadence;
//     void log(const std::string& message);
//     void run(std::uint64_t job);
//     const std::uint64_t job_id = 17;
//     auto wheel = SharedTimingWheel::open("/run/user/1000/jobs.tw", 512, 10'000);
//     if (!wheel) { log(wheel.error().message); return; }
//     SharedTimerId id = *wheel->add(30, job_id);        // fires 30 ticks from now
//     (void)wheel->cancel(id);                            // ... or not at all
//     std::vector<std::uint64_t> due;
//     (void)wheel->advance(1, due);                       // appends what came due
//     for (std::uint64_t job : due) run(job);
//
// A timer more than one rotation (`num_slots` ticks) away waits in its bucket for its round.
// Timers due on one tick fire in the order they were added. Memory: 4 bytes per slot plus 32
// per timer plus a 128-byte header; pages of the pool are touched only as the pool fills.
//
// Sharing and safety:
// - Operations are serialised by a robust process-shared lock in the mapping. A process killed
//   in one never wedges the others: the next to lock repairs the wheel from its per-timer state.
//   A killed add, cancel or clear counts as done or not done; a killed advance has fired some of
//   its timers, whose payloads died with it (at most once), and the rest stay pending.
// - The first process to attach a wheel file after the machine restarted (or after the file
//   was copied from another machine) repairs it under its lock, and sets the lock up afresh if
//   it stays taken for half a second: a lock held when the machine went down would otherwise
//   wait for a thread that no longer exists. This needs the boot id in /proc. Files are best
//   kept on a tmpfs (/run/user/<uid>, /dev/shm), where a restart clears them anyway.
// - A file cannot be sealed: every process that can write a wheel file can truncate it (and
//   kill the processes that map it with SIGBUS); a memfd wheel's size is sealed.
// - The geometry is validated once, at attach, and every index read from the mapping is checked
//   against it. A mapping damaged from outside is never followed out of bounds: the operation
//   that meets the damage rebuilds the wheel from its timers' records (stats().recoveries counts
//   it) and returns `corrupt` saying what it found. What the damage did to the timers' own
//   records (a payload, a due tick) cannot be told and stays as it is.
// - A moved-from object holds no wheel: add(), advance(), check(), sync() and unlink() say so
//   (`closed`), cancel() is false, clear() does nothing, and the counters read 0.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cadence/export.hpp"
#include "cadence/result.hpp"

namespace cadence {

namespace detail {
struct SharedView;
}

/// Names one timer of a shared wheel: the generation of its pool slot (high 32 bits) and the
/// slot + 1 (low 32 bits). 0 is never issued. Valid in every process that shares the wheel.
struct SharedTimerId {
  std::uint64_t value = 0;
  friend constexpr bool operator==(SharedTimerId, SharedTimerId) = default;
};

/// A snapshot of a shared wheel's counters, taken under the wheel's lock: no operation of another
/// process is half in it.
struct SharedWheelStats {
  std::uint64_t now = 0;          ///< ticks since creation or the last clear()
  std::uint32_t count = 0;        ///< pending timers
  std::uint32_t num_slots = 0;
  std::uint32_t capacity = 0;
  std::uint32_t cur = 0;          ///< the bucket the hand is on: now % num_slots
  std::uint64_t ops = 0;          ///< adds, cancels, advances and clears since creation
  std::size_t mmap_size = 0;      ///< bytes mapped
  std::uint64_t recoveries = 0;   ///< repairs after a process died holding the lock or a restart
};

/// For every member: Thread: any, in any process; do not move or destroy the object while another uses it.
/// Where: anywhere; it calls no code of the caller's (payloads are plain numbers).
/// Errors: none.
/// Cost: O(1).
class CADENCE_SHARED_WHEEL_API SharedTimingWheel {
 public:
  static constexpr std::uint32_t kMaxSlots = std::uint32_t{1} << 24;
  static constexpr std::uint32_t kMaxCapacity = std::uint32_t{1} << 24;
  /// The largest delay add() accepts and the largest step advance() takes, in ticks (2^62).
  static constexpr std::int64_t kMaxTicks = std::int64_t{1} << 62;
  /// Bytes of the fixed header at the start of the mapping.
  static constexpr std::size_t kHeaderBytes = 128;

  /// Bytes a wheel of this geometry maps: 128 + 4 * num_slots + 32 * capacity (rounded up to 8).
  /// Errors: invalid_argument (a value outside [1, 2^24]).
  static Result<std::size_t> mapping_size(std::uint32_t num_slots, std::uint32_t capacity);

  /// Opens the wheel in the file at `path`, creating it (with `mode`, default 0600) when it does
  /// not exist, whole before it is named. Arguments are checked first, even when the file exists;
  /// its header is validated (magic, version, geometry, size: else corrupt) and its geometry
  /// wins. A symlink, a non-regular file, one with other hard links or another user's is refused
  /// (unsafe); another user's file is accepted when `mode` shares it (e.g. 0660) and it holds a
  /// wheel already. An all-zero or empty file of this user (a creator killed before its header,
  /// where unnamed files cannot be made) is set up afresh when it has exactly the size the
  /// geometry needs (or none); one with part of a header is corrupt (it never held timers, but
  /// check before deleting a file you care about). It waits up to 10 s, plus 1 s per 32 MiB of
  /// file, for another process opening the same file. Each error's message names the file.
  /// Errors: invalid_argument (geometry, mode beyond 0777); unsafe (as above); corrupt; system.
  /// Cost: an open, fstat, flock and mmap; creating writes the header; after a restart, O(file).
  static Result<SharedTimingWheel> open(const std::string& path, std::uint32_t num_slots, std::uint32_t capacity,
                                        std::uint32_t mode = 0600);
  /// A wheel in an anonymous shared mapping: children forked after this call share it.
  /// Errors: invalid_argument (geometry); system.
  /// Cost: an mmap, and writing the header.
  static Result<SharedTimingWheel> anonymous(std::uint32_t num_slots, std::uint32_t capacity);
  /// A wheel in a new memfd named `name` (a label for /proc, not a path); pass memfd() to
  /// another process, which reopens it with from_fd(). Its size is sealed (F_SEAL_SHRINK |
  /// F_SEAL_GROW): no holder of the descriptor can truncate it under the processes that map it.
  /// Errors: as open().
  /// Cost: as open() creating a file.
  static Result<SharedTimingWheel> memfd(const std::string& name, std::uint32_t num_slots, std::uint32_t capacity);
  /// Attaches to the wheel in descriptor `fd` (a memfd or an open wheel file). The file is
  /// reopened through /proc/self/fd (or, without /proc, the descriptor duplicated), close-on-
  /// exec: `fd` stays the caller's to close, and its flocks are its own (attaching takes an
  /// exclusive flock of its own for a moment, so the caller must not hold one across the call).
  /// Errors: as open(), plus invalid_argument for a negative fd or one not open read-write.
  /// Cost: as open().
  static Result<SharedTimingWheel> from_fd(int fd);
  /// Removes the file at `path` (the wheel lives on in processes that have it mapped). A file
  /// that is already gone is not an error.
  /// Errors: system, with the reason.
  static Status unlink(const std::string& path);

  SharedTimingWheel(SharedTimingWheel&& other) noexcept;
  SharedTimingWheel& operator=(SharedTimingWheel&& other) noexcept;
  SharedTimingWheel(const SharedTimingWheel&) = delete;
  SharedTimingWheel& operator=(const SharedTimingWheel&) = delete;
  /// Unmaps and closes; the wheel itself stays in its file, memfd or other processes.
  ~SharedTimingWheel();

  /// Schedules `payload` to fire `delay` ticks from now (a delay below 1 counts as 1).
  /// invalid_argument: a delay above kMaxTicks, or one that would fall due past kMaxTicks, where
  /// the clock stops. corrupt: a damaged mapping, rebuilt; the timer is not added. Other errors
  /// change nothing.
  /// Errors: invalid_argument; full (all `capacity` timers pending); corrupt; system (lock); closed.
  Result<SharedTimerId> add(std::int64_t delay, std::uint64_t payload);
  /// The same as add().
  Result<SharedTimerId> schedule(std::int64_t delay, std::uint64_t payload) { return add(delay, payload); }
  /// Cancels a pending timer: true if it was pending; false for a timer that fired or was
  /// cancelled, an id never issued, 0, or a stale id whose slot now holds another timer (that
  /// timer is left alone). On a damaged mapping it rebuilds the wheel and tries once more.
  bool cancel(SharedTimerId id);
  /// Moves the clock `ticks` forward and returns the payloads that came due, in fire order
  /// (tick by tick; within a tick, in the order they were added). invalid_argument: a negative
  /// `ticks`, or one that would take now() past kMaxTicks (nothing changes). corrupt: a damaged
  /// mapping, rebuilt; what fired before it was met is returned, the clock stays at the last
  /// tick whose timers are all out (a sweep checks every list before it fires, so damage it
  /// finds there leaves every timer pending). Below one rotation it walks tick by tick; beyond,
  /// it takes whichever of the walk and a sweep of every bucket the wheel's size and count make
  /// cheaper, so it never costs much more than either.
  /// Errors: invalid_argument; corrupt; system (the lock is unusable); closed.
  /// Cost: walk O(ticks + fired + waiting timers x rotations); sweep O(slots + pending + fired log fired).
  Result<std::vector<std::uint64_t>> advance(std::int64_t ticks = 1);
  /// The same, appending to `fired` (no allocation once it has room). Should growing `fired`
  /// throw, the payloads appended so far stay in it and the rest stay pending.
  /// Errors: as advance(ticks).
  /// Cost: as advance(ticks).
  Status advance(std::int64_t ticks, std::vector<std::uint64_t>& fired);

  /// Ticks since creation or the last clear(). Lock-free.
  std::uint64_t now() const noexcept;
  /// Pending timers. Lock-free.
  std::uint32_t count() const noexcept;
  std::uint32_t num_slots() const noexcept;
  std::uint32_t capacity() const noexcept;
  /// Cancels every timer (their ids go stale) and sets the clock back to 0.
  /// Cost: O(timers used + slots).
  void clear();
  /// A snapshot taken under the wheel's lock.
  SharedWheelStats stats() const noexcept;

  /// The backing file's path; empty for anonymous, memfd and from_fd wheels.
  const std::string& path() const noexcept { return path_; }
  /// The descriptor of a memfd wheel (or of the file of a from_fd wheel); -1 for anonymous and
  /// file wheels. Owned by this object.
  int memfd() const noexcept { return memfd_ ? fd_ : -1; }
  /// Checks the lists against the timers, under the lock, for tests: an empty string when they
  /// agree, else what is wrong first.
  /// Cost: O(slots + capacity).
  std::string check() const;

  /// Flushes the mapping to its file (msync). A no-op for anonymous wheels.
  /// Errors: system; closed.
  /// Cost: the msync.
  Status sync();
  /// Removes the backing file.
  /// Errors: invalid_argument (a wheel without a file); system; closed.
  Status unlink();

 private:
  struct Layout;
  SharedTimingWheel(void* base, std::size_t size, int fd, bool memfd, std::string path, std::uint32_t num_slots,
                    std::uint32_t capacity) noexcept;
  static Result<SharedTimingWheel> attach(int fd, std::string path, const std::string& what, std::uint32_t num_slots,
                                          std::uint32_t capacity, int trust, std::uint32_t mode);
  void release() noexcept;
  Status check_attached() const;
  detail::SharedView view() const noexcept;

  void* base_ = nullptr;
  std::size_t size_ = 0;
  int fd_ = -1;
  bool memfd_ = false;
  std::string path_;
  // The geometry validated at attach; indices read from the mapping are checked against it.
  std::uint32_t num_slots_ = 0;
  std::uint32_t capacity_ = 0;
};

}  // namespace cadence
