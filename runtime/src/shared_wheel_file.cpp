// SharedTimingWheel: creating, validating and mapping the shared memory (file, anonymous,
// memfd), and the object's lifetime.
//
// Creation and attachment of a file or memfd happen under an exclusive flock() on it, so two
// processes opening a new file at once never both initialise it, and a process never reads a
// header another is still writing. The magic is stored last: a header without it is either an
// interrupted create (all zero: re-initialised when safe) or damage (refused).
#include <fcntl.h>
#include <pthread.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <new>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "cadence/shared_timing_wheel.hpp"
#include "shared_wheel_layout.hpp"

namespace cadence {

using detail::SharedHeader;

namespace {

Error system_error(const std::string& what, int err) { return Error{Errc::system, what + ": " + std::strerror(err)}; }

Status check_geometry(std::uint32_t num_slots, std::uint32_t capacity) {
  for (auto [name, value, limit] : {std::tuple{"num_slots", num_slots, SharedTimingWheel::kMaxSlots},
                                    std::tuple{"capacity", capacity, SharedTimingWheel::kMaxCapacity}}) {
    if (value < 1 || value > limit) {
      return Error{Errc::invalid_argument,
                   std::string(name) + " " + std::to_string(value) + " is out of range: [1, 2^24]"};
    }
  }
  return {};
}

// Releases a descriptor's flock and closes nothing.
struct FileLock {
  int fd;
  ~FileLock() { ::flock(fd, LOCK_UN); }
};

// Takes the exclusive flock that serialises creating and attaching, waiting at most 10 s: other
// processes hold it for an open's few system calls, and one that holds it longer is not to make
// this one wait for ever. Returns 0 or the errno.
int lock_file(int fd) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK && errno != EINTR) return errno;
    if (std::chrono::steady_clock::now() >= deadline) return EWOULDBLOCK;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return 0;
}

// A digest of this boot's id, the same in every process until the machine restarts; 0 when the
// id cannot be read.
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

// Writes a new, empty wheel into zeroed memory: everything but the magic, then the magic.
Status initialise(void* base, std::uint32_t num_slots, std::uint32_t capacity, std::size_t size) {
  auto* h = static_cast<SharedHeader*>(base);
  std::memset(base, 0, detail::nodes_offset(num_slots));  // header and slot heads; nodes are zero
  h->version = detail::kSharedWheelVersion;
  h->header_bytes = SharedTimingWheel::kHeaderBytes;
  h->num_slots = num_slots;
  h->capacity = capacity;
  h->mapping_size = size;
  h->boot = boot_digest();
  if (Status s = init_lock(h); !s) return s;
  detail::step_boundary();
  detail::store(h->magic, detail::kSharedWheelMagic);
  return {};
}

// A wheel file last attached in an earlier boot (or copied from another machine): its lock may
// name a thread that no longer exists, which no robust-mutex mechanism will ever release, and
// its pages may have reached the disk at different moments. No process of this boot uses it
// yet (attaching is serialised by the flock, and the first attach of a boot stamps it), so the
// lock is set up afresh and the lists are rebuilt from the timers.
Status adopt_from_earlier_boot(void* base) {
  auto* h = static_cast<SharedHeader*>(base);
  const std::uint32_t boot = boot_digest();
  if (boot == 0 || h->boot == boot) return {};
  if (Status s = init_lock(h); !s) return s;
  detail::repair_shared_wheel(detail::SharedView(base));
  h->boot = boot;
  return {};
}

// Whether the whole file is zero bytes.
bool all_zero(int fd, std::size_t size) {
  std::vector<char> buffer(std::min<std::size_t>(size, 1 << 20));
  for (std::size_t at = 0; at < size;) {
    const ssize_t n = ::pread(fd, buffer.data(), std::min(buffer.size(), size - at), static_cast<off_t>(at));
    if (n <= 0) return false;
    if (std::any_of(buffer.begin(), buffer.begin() + n, [](char c) { return c != 0; })) return false;
    at += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

Result<std::size_t> SharedTimingWheel::mapping_size(std::uint32_t num_slots, std::uint32_t capacity) {
  if (Status s = check_geometry(num_slots, capacity); !s) return s.error();
  return detail::mapping_bytes(num_slots, capacity);
}

SharedTimingWheel::SharedTimingWheel(void* base, std::size_t size, int fd, bool memfd, std::string path) noexcept
    : base_(base), size_(size), fd_(fd), memfd_(memfd), path_(std::move(path)) {}

SharedTimingWheel::SharedTimingWheel(SharedTimingWheel&& other) noexcept
    : base_(std::exchange(other.base_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      fd_(std::exchange(other.fd_, -1)),
      memfd_(other.memfd_),
      path_(std::move(other.path_)) {}

SharedTimingWheel& SharedTimingWheel::operator=(SharedTimingWheel&& other) noexcept {
  if (this != &other) {
    release();
    base_ = std::exchange(other.base_, nullptr);
    size_ = std::exchange(other.size_, 0);
    fd_ = std::exchange(other.fd_, -1);
    memfd_ = other.memfd_;
    path_ = std::move(other.path_);
  }
  return *this;
}

SharedTimingWheel::~SharedTimingWheel() { release(); }

void SharedTimingWheel::release() noexcept {
  if (base_ != nullptr) ::munmap(base_, size_);
  if (fd_ >= 0) ::close(fd_);
  base_ = nullptr;
  fd_ = -1;
}

Result<SharedTimingWheel> SharedTimingWheel::open(const std::string& path, std::uint32_t num_slots,
                                                  std::uint32_t capacity, std::uint32_t mode) {
  if (Status s = check_geometry(num_slots, capacity); !s) return s.error();
  if (mode > 0777) {
    char octal[16];
    std::snprintf(octal, sizeof octal, "0%o", mode);
    return Error{Errc::invalid_argument,
                 std::string("mode ") + octal + " is out of range: permission bits only (at most 0777)"};
  }
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
  if (fd >= 0) {
    // The umask may have narrowed the mode; the caller asked for exactly this one.
    if (::fchmod(fd, mode) != 0) {
      const int err = errno;
      ::close(fd);
      return system_error("could not set the mode of " + path, err);
    }
  } else if (errno == EEXIST) {
    fd = ::open(path.c_str(), O_RDWR | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0 && errno == ELOOP) {
      return Error{Errc::unsafe, path + " is a symbolic link; a shared wheel file must be a regular file (refused)"};
    }
  }
  if (fd < 0) return system_error("could not open " + path, errno);
  // Files of other users are refused unless the caller asked for a mode that shares with them.
  const bool shared_mode = (mode & 077) != 0;
  return attach(fd, path, path, num_slots, capacity, shared_mode ? 2 : 1, mode);
}

Result<SharedTimingWheel> SharedTimingWheel::memfd(const std::string& name, std::uint32_t num_slots,
                                                   std::uint32_t capacity) {
  if (Status s = check_geometry(num_slots, capacity); !s) return s.error();
  const int fd = ::memfd_create(name.c_str(), MFD_CLOEXEC);
  if (fd < 0) return system_error("could not create the memfd '" + name + "'", errno);
  return attach(fd, {}, "memfd '" + name + "'", num_slots, capacity, 1, 0600);
}

Result<SharedTimingWheel> SharedTimingWheel::from_fd(int fd) {
  if (fd < 0) return Error{Errc::invalid_argument, "descriptor " + std::to_string(fd) + " is not a descriptor"};
  // Reopened rather than duplicated where /proc allows: a duplicate would share the caller's
  // open file description, and with it the caller's flock, which attaching takes and lets go.
  int own = ::open(("/proc/self/fd/" + std::to_string(fd)).c_str(), O_RDWR | O_CLOEXEC);
  if (own < 0) own = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (own < 0) return system_error("could not duplicate descriptor " + std::to_string(fd), errno);
  // A descriptor handed over is an explicit share: its owner is not checked, and an empty or
  // all-zero one is refused rather than initialised (it should hold a wheel already).
  return attach(own, {}, "descriptor " + std::to_string(fd), 0, 0, 0, 0);
}

Result<SharedTimingWheel> SharedTimingWheel::anonymous(std::uint32_t num_slots, std::uint32_t capacity) {
  if (Status s = check_geometry(num_slots, capacity); !s) return s.error();
  const std::size_t size = detail::mapping_bytes(num_slots, capacity);
  void* base = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED) return system_error("could not map " + std::to_string(size) + " bytes", errno);
  if (Status s = initialise(base, num_slots, capacity, size); !s) {
    ::munmap(base, size);
    return s.error();
  }
  return SharedTimingWheel(base, size, -1, false, {});
}

// `trust`: 0 for a descriptor handed over (no owner check, no initialisation); 1 for a file or
// memfd of ours (owner must be us; empty or all-zero files of the right size are initialised,
// with `mode`); 2 as 1 but wheels in files of other owners are accepted (the caller asked for
// a shared mode); initialising is still left to a file's owner.
Result<SharedTimingWheel> SharedTimingWheel::attach(int fd, std::string path, const std::string& what,
                                                    std::uint32_t num_slots, std::uint32_t capacity, int trust,
                                                    std::uint32_t mode) {
  struct CloseOnError {
    int fd;
    ~CloseOnError() {
      if (fd >= 0) ::close(fd);
    }
  } guard{fd};
  if (const int err = lock_file(fd); err != 0) {
    return system_error("could not lock " + what + (err == EWOULDBLOCK ? " within 10 s (another process holds its flock)" : ""), err);
  }
  FileLock file_lock{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) return system_error("could not stat " + what, errno);
  if (!S_ISREG(st.st_mode)) return Error{Errc::unsafe, what + " is not a regular file (refused)"};
  if (!path.empty() && st.st_nlink != 1) {
    return Error{Errc::unsafe, what + " has " + std::to_string(st.st_nlink) +
                                   " hard links; a shared wheel file must have exactly one (refused)"};
  }
  const bool ours = st.st_uid == ::geteuid();
  if (trust == 1 && !ours) {
    return Error{Errc::unsafe, what + " is owned by uid " + std::to_string(st.st_uid) + ", not by this process's uid " +
                                   std::to_string(::geteuid()) + " (refused; open it with a mode that shares it, e.g. 0660, to accept that)"};
  }
  const auto size = static_cast<std::size_t>(st.st_size);
  const std::size_t wanted = trust != 0 ? detail::mapping_bytes(num_slots, capacity) : 0;
  bool fresh = false;
  SharedHeader h{};
  if (size >= sizeof(SharedHeader) && ::pread(fd, &h, sizeof h, 0) != static_cast<ssize_t>(sizeof h)) {
    return system_error("could not read the header of " + what, errno);
  }
  if (size >= sizeof(SharedHeader) && h.magic == detail::kSharedWheelMagic) {
    if (h.version != detail::kSharedWheelVersion || h.header_bytes != kHeaderBytes) {
      return Error{Errc::corrupt, what + ": header version " + std::to_string(h.version) + " (" +
                                      std::to_string(h.header_bytes) + " bytes) is not this library's version " +
                                      std::to_string(detail::kSharedWheelVersion) + " (128 bytes)"};
    }
    if (!check_geometry(h.num_slots, h.capacity)) {
      return Error{Errc::corrupt, what + ": corrupted header: geometry " + std::to_string(h.num_slots) + " slots, " +
                                      std::to_string(h.capacity) + " timers is out of range"};
    }
    const std::size_t needed = detail::mapping_bytes(h.num_slots, h.capacity);
    if (h.mapping_size != needed || size != needed) {
      return Error{Errc::corrupt, what + " is " + std::to_string(size) + " bytes, but its header's geometry (" +
                                      std::to_string(h.num_slots) + " slots, " + std::to_string(h.capacity) +
                                      " timers) needs " + std::to_string(needed) + " (wrong size)"};
    }
  } else if (size == 0 || (h.magic == 0 && all_zero(fd, size))) {
    // An interrupted create (or a memfd just made): safe to initialise only when it never held
    // a wheel, is ours, and has the size the requested geometry needs (or none yet).
    if (trust == 0) return Error{Errc::corrupt, what + " holds no shared wheel (it is empty or all zero)"};
    if (!ours) {
      return Error{Errc::unsafe, what + " holds no wheel yet and is owned by uid " + std::to_string(st.st_uid) +
                                     "; only its owner may set one up in it (refused)"};
    }
    if (size != 0 && size != wanted) {
      return Error{Errc::corrupt, what + " is an all-zero file of " + std::to_string(size) + " bytes; " +
                                      std::to_string(num_slots) + " slots and " + std::to_string(capacity) +
                                      " timers need " + std::to_string(wanted) + " (wrong size; not re-initialised)"};
    }
    if (size == 0 && ::ftruncate(fd, static_cast<off_t>(wanted)) != 0) {
      return system_error("could not size " + what + " to " + std::to_string(wanted) + " bytes", errno);
    }
    // A creator that died left the file with its mode; this one asked for `mode`.
    if (!path.empty() && ::fchmod(fd, mode) != 0) return system_error("could not set the mode of " + what, errno);
    fresh = true;
  } else if (h.magic == 0 || size < sizeof(SharedHeader)) {
    return Error{Errc::corrupt, what + ": incomplete timing-wheel file left by an interrupted create; remove it and retry"};
  } else {
    return Error{Errc::corrupt, what + " is not a shared timing wheel (bad magic number; corrupted header?)"};
  }
  const std::size_t mapped = fresh ? wanted : detail::mapping_bytes(h.num_slots, h.capacity);
  void* base = ::mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (base == MAP_FAILED) return system_error("could not map " + what, errno);
  if (Status s = fresh ? initialise(base, num_slots, capacity, mapped) : adopt_from_earlier_boot(base); !s) {
    ::munmap(base, mapped);
    return s.error();
  }
  guard.fd = -1;
  const bool no_file = path.empty();  // memfd or descriptor: memfd() hands the descriptor out
  return SharedTimingWheel(base, mapped, fd, no_file, std::move(path));
}

Status SharedTimingWheel::sync() {
  if (fd_ < 0) return {};  // anonymous: nothing to flush to
  if (::msync(base_, size_, MS_SYNC) != 0) {
    return system_error("could not flush " + (path_.empty() ? std::string("the shared wheel") : path_), errno);
  }
  return {};
}

Status SharedTimingWheel::unlink() {
  if (path_.empty()) {
    return Error{Errc::invalid_argument, "this shared wheel has no file to remove (anonymous, memfd or descriptor)"};
  }
  return unlink(path_);
}

Status SharedTimingWheel::unlink(const std::string& path) {
  if (::unlink(path.c_str()) != 0) return system_error("could not remove " + path, errno);
  return {};
}

}  // namespace cadence
