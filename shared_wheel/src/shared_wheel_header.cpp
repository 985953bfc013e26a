// Setting up a shared wheel's header: a new wheel, its robust lock, and a wheel file first
// attached after the machine restarted.
#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>

#include "cadence/shared_timing_wheel.hpp"
#include "shared_wheel_layout.hpp"

namespace cadence::detail {
namespace {

// Sets up the header's robust, process-shared lock (unlocked).
Status init_lock(SharedHeader* h) {
  pthread_mutexattr_t attr;
  pthread_mutexattr_init(&attr);
  pthread_mutexattr_setpshared(&attr, PTHREAD_PROCESS_SHARED);
  pthread_mutexattr_setrobust(&attr, PTHREAD_MUTEX_ROBUST);
  const int r = pthread_mutex_init(&h->lock, &attr);
  pthread_mutexattr_destroy(&attr);
  if (r != 0) return system_error("could not set up the shared wheel's lock", r);
  return {};
}

// Locks the header's lock, waiting at most `ms` milliseconds. Returns 0 (repairing first when
// its holder died) or the error: ETIMEDOUT, ENOTRECOVERABLE, ...
int lock_within(const SharedView& v, long ms) {
  timespec deadline{};
  clock_gettime(CLOCK_REALTIME, &deadline);
  deadline.tv_sec += ms / 1000;
  deadline.tv_nsec += (ms % 1000) * 1'000'000;
  if (deadline.tv_nsec >= 1'000'000'000) {
    deadline.tv_nsec -= 1'000'000'000;
    ++deadline.tv_sec;
  }
  int r = pthread_mutex_timedlock(&v.header->lock, &deadline);
  if (r == EOWNERDEAD) {
    repair_shared_wheel(v);
    r = pthread_mutex_consistent(&v.header->lock);
    if (r != 0) pthread_mutex_unlock(&v.header->lock);
  }
  return r;
}

}  // namespace

Error system_error(const std::string& what, int err) { return Error{Errc::system, what + ": " + std::strerror(err)}; }

std::uint32_t boot_digest() {
  static const std::uint32_t digest = [] {
    char id[64] = {};
    const int fd = ::open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return std::uint32_t{0};
    const ssize_t n = ::read(fd, id, sizeof id);
    ::close(fd);
    std::uint32_t h = 2166136261u;  // FNV-1a
    for (ssize_t i = 0; i < n; ++i) h = (h ^ static_cast<unsigned char>(id[i])) * 16777619u;
    return n <= 0 ? 0u : (h == 0 ? 1u : h);
  }();
  return digest;
}

Status initialise_shared_wheel(void* base, std::uint32_t num_slots, std::uint32_t capacity, std::size_t size) {
  auto* h = static_cast<SharedHeader*>(base);
  std::memset(base, 0, nodes_offset(num_slots));  // header and slot heads; nodes are zero
  h->version = kSharedWheelVersion;
  h->header_bytes = SharedTimingWheel::kHeaderBytes;
  h->num_slots = num_slots;
  h->capacity = capacity;
  h->mapping_size = size;
  h->boot = boot_digest();
  if (Status s = init_lock(h); !s) return s;
  step_boundary();
  store(h->magic, kSharedWheelMagic);
  return {};
}

Status adopt_after_restart(const SharedView& v) {
  SharedHeader& h = *v.header;
  const std::uint32_t boot = boot_digest();
  if (boot == 0 || h.boot == 0 || h.boot == boot) return {};  // the same boot, or no way to tell
  // Stamped by an earlier boot. Its pages may have reached the disk at different moments, so
  // the lists are rebuilt, under the lock. The lock itself may name a thread of that boot, which
  // no robust-mutex mechanism will ever release: a lock still taken after far longer than any
  // operation holds it (or one marked unrecoverable) is set up afresh. A process of this boot
  // that could not read the boot id (and so did not stamp the file) may be using the wheel: it
  // takes the lock only for microseconds, so it is waited for, not overridden.
  int r = lock_within(v, 500);
  if (r == ETIMEDOUT || r == ENOTRECOVERABLE) {
    if (Status s = init_lock(&h); !s) return s;
    r = lock_within(v, 500);
  }
  if (r != 0) return system_error("could not take the shared wheel's lock after a restart", r);
  repair_shared_wheel(v);
  h.boot = boot;
  pthread_mutex_unlock(&h.lock);
  return {};
}

}  // namespace cadence::detail
