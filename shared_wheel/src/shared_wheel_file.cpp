// SharedTimingWheel: creating, validating and mapping the shared memory (file, anonymous,
// memfd), and the object's lifetime.
//
// A new file is made whole before it gets its name (O_TMPFILE, then linkat), where the file
// system allows. Otherwise creation and attachment of a file or memfd happen under an exclusive
// flock() on it, so two processes opening a new file at once never both initialise it, and a
// process never reads a header another is still writing. The magic is stored last: a header
// without it is either an interrupted create (all zero: re-initialised when safe) or damage
// (refused).
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
#include <optional>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "cadence/shared_timing_wheel.hpp"
#include "shared_wheel_layout.hpp"

namespace cadence {

bool detail::shared_wheel_named_create_only = false;

using detail::SharedHeader;

namespace {

using detail::system_error;

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

// Takes the exclusive flock that serialises creating and attaching. Other processes hold it for
// an open's few system calls, or for a walk of the file (a repair after a restart, a check that
// a file is all zero): the wait allows 10 s plus 1 s per 32 MiB of the file, and a process that
// holds it longer is not to make this one wait for ever. Returns 0 or the errno.
int lock_file(int fd) {
  struct stat st {};
  const auto size = ::fstat(fd, &st) == 0 ? static_cast<std::size_t>(st.st_size) : 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10 + (size >> 25));
  while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK && errno != EINTR) return errno;
    if (std::chrono::steady_clock::now() >= deadline) return EWOULDBLOCK;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return 0;
}

Error symlink_refused(const std::string& path) {
  return Error{Errc::unsafe, path + " is a symbolic link; a shared wheel file must be a regular file (refused)"};
}

// A wheel made in an unnamed file and linked at its path, or why not.
struct Unnamed {
  int fd = -1;                 // the wheel's file when made and linked
  void* base = nullptr;
  std::size_t size = 0;
  std::optional<Error> error;  // set up failed
  bool exists = false;         // another process linked its file at the path first
};

// Makes the wheel in an unnamed file (O_TMPFILE) in the directory of `path`, sets it up and
// links it at `path`: other processes never find it half made, so two openers cannot race to
// set it up. Gives neither fd nor error when the path has come to exist (`exists`) or the file
// system cannot make unnamed files.
Unnamed make_unnamed(const std::string& path, std::uint32_t num_slots, std::uint32_t capacity, std::uint32_t mode) {
  Unnamed u;
  if (detail::shared_wheel_named_create_only) return u;
  const auto slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  const int fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, mode);
  if (fd < 0) return u;
  const std::size_t size = detail::mapping_bytes(num_slots, capacity);
  void* base = MAP_FAILED;
  auto fail = [&](Error e) {
    if (base != MAP_FAILED) ::munmap(base, size);
    ::close(fd);
    u.error = std::move(e);
    return u;
  };
  // The umask may have narrowed the mode; the caller asked for exactly this one.
  if (::fchmod(fd, mode) != 0) return fail(system_error("could not set the mode of " + path, errno));
  if (::ftruncate(fd, static_cast<off_t>(size)) != 0) {
    return fail(system_error("could not size " + path + " to " + std::to_string(size) + " bytes", errno));
  }
  base = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (base == MAP_FAILED) return fail(system_error("could not map " + path, errno));
  if (Status s = detail::initialise_shared_wheel(base, num_slots, capacity, size); !s) return fail(s.error());
  const std::string self = "/proc/thread-self/fd/" + std::to_string(fd);
  if (::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, path.c_str(), AT_SYMLINK_FOLLOW) != 0) {
    u.exists = errno == EEXIST;
    ::munmap(base, size);
    ::close(fd);
    return u;
  }
  u.fd = fd;
  u.base = base;
  u.size = size;
  return u;
}

// Seals the size of a memfd (no shrinking, no growing, no further seals), so that no holder of
// its descriptor can make every process that maps it die of SIGBUS. A memfd sealed so already
// is fine; so is a descriptor that cannot be sealed (a regular file, or a memfd made without
// MFD_ALLOW_SEALING, which then trusts its holders as a file trusts its writers).
Status seal_size(int fd, const std::string& what) {
  constexpr int kSeals = F_SEAL_SHRINK | F_SEAL_GROW;
  const int seals = ::fcntl(fd, F_GET_SEALS);
  if (seals < 0 || (seals & kSeals) == kSeals) return {};  // not a memfd, or sealed already
  if ((seals & F_SEAL_SEAL) != 0) return {};                 // made without MFD_ALLOW_SEALING
  if (::fcntl(fd, F_ADD_SEALS, kSeals | F_SEAL_SEAL) != 0) return system_error("could not seal the size of " + what, errno);
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

SharedTimingWheel::SharedTimingWheel(void* base, std::size_t size, int fd, bool memfd, std::string path,
                                     std::uint32_t num_slots, std::uint32_t capacity) noexcept
    : base_(base), size_(size), fd_(fd), memfd_(memfd), path_(std::move(path)), num_slots_(num_slots), capacity_(capacity) {}

SharedTimingWheel::SharedTimingWheel(SharedTimingWheel&& other) noexcept
    : base_(std::exchange(other.base_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      fd_(std::exchange(other.fd_, -1)),
      memfd_(std::exchange(other.memfd_, false)),
      path_(std::exchange(other.path_, {})),
      num_slots_(std::exchange(other.num_slots_, 0)),
      capacity_(std::exchange(other.capacity_, 0)) {}

SharedTimingWheel& SharedTimingWheel::operator=(SharedTimingWheel&& other) noexcept {
  if (this != &other) {
    release();
    base_ = std::exchange(other.base_, nullptr);
    size_ = std::exchange(other.size_, 0);
    fd_ = std::exchange(other.fd_, -1);
    memfd_ = std::exchange(other.memfd_, false);
    path_ = std::exchange(other.path_, {});
    num_slots_ = std::exchange(other.num_slots_, 0);
    capacity_ = std::exchange(other.capacity_, 0);
  }
  return *this;
}

SharedTimingWheel::~SharedTimingWheel() { release(); }

void SharedTimingWheel::release() noexcept {
  if (base_ != nullptr) ::munmap(base_, size_);
  if (fd_ >= 0) ::close(fd_);
  base_ = nullptr;
  size_ = 0;
  fd_ = -1;
  memfd_ = false;
  path_.clear();
  num_slots_ = 0;
  capacity_ = 0;
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
  // Files of other users are refused unless the caller asked for a mode that shares with them.
  const int trust = (mode & 077) != 0 ? 2 : 1;
  // The file that is there, or a new one made whole before it is named (a few tries: another
  // process may name its own first, or remove one between our two looks).
  for (int attempt = 0; attempt < 3; ++attempt) {
    const int fd = ::open(path.c_str(), O_RDWR | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0) return attach(fd, path, path, num_slots, capacity, trust, mode);
    if (errno == ELOOP) return symlink_refused(path);
    if (errno != ENOENT) return system_error("could not open " + path, errno);
    Unnamed made = make_unnamed(path, num_slots, capacity, mode);
    if (made.error) return *made.error;
    if (made.fd >= 0) return SharedTimingWheel(made.base, made.size, made.fd, false, path, num_slots, capacity);
    if (!made.exists) break;
  }
  // Unnamed files cannot be made here: create the file at its path, under the flock (see
  // attach()), or open the one that is there.
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
    if (fd < 0 && errno == ELOOP) return symlink_refused(path);
  }
  if (fd < 0) return system_error("could not open " + path, errno);
  return attach(fd, path, path, num_slots, capacity, trust, mode);
}

Result<SharedTimingWheel> SharedTimingWheel::memfd(const std::string& name, std::uint32_t num_slots,
                                                   std::uint32_t capacity) {
  if (Status s = check_geometry(num_slots, capacity); !s) return s.error();
  // Sealable, so that its size can be sealed once set (attach): a holder of the descriptor that
  // could shrink it would kill every process mapping it with SIGBUS.
  const int fd = ::memfd_create(name.c_str(), MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0) return system_error("could not create the memfd '" + name + "'", errno);
  return attach(fd, {}, "memfd '" + name + "'", num_slots, capacity, 1, 0600);
}

Result<SharedTimingWheel> SharedTimingWheel::from_fd(int fd) {
  const std::string what = "descriptor " + std::to_string(fd);
  if (fd < 0) return Error{Errc::invalid_argument, what + " is not a descriptor"};
  struct stat st {};
  if (::fstat(fd, &st) != 0) return system_error("could not stat " + what, errno);
  if (!S_ISREG(st.st_mode)) return Error{Errc::unsafe, what + " is not a regular file (refused)"};
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || (flags & O_ACCMODE) != O_RDWR) {
    return Error{Errc::invalid_argument, what + " is not open for reading and writing, which sharing a wheel needs"};
  }
  // Reopened rather than duplicated where /proc allows: a duplicate would share the caller's
  // open file description, and with it the caller's flocks, which attaching takes and lets go.
  int own = ::open(("/proc/thread-self/fd/" + std::to_string(fd)).c_str(), O_RDWR | O_CLOEXEC);
  if (own < 0) own = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (own < 0) return system_error("could not duplicate " + what, errno);
  // A descriptor handed over is an explicit share: its owner is not checked, and an empty or
  // all-zero one is refused rather than initialised (it should hold a wheel already).
  return attach(own, {}, what, 0, 0, 0, 0);
}

Result<SharedTimingWheel> SharedTimingWheel::anonymous(std::uint32_t num_slots, std::uint32_t capacity) {
  if (Status s = check_geometry(num_slots, capacity); !s) return s.error();
  const std::size_t size = detail::mapping_bytes(num_slots, capacity);
  void* base = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED) return system_error("could not map " + std::to_string(size) + " bytes", errno);
  if (Status s = detail::initialise_shared_wheel(base, num_slots, capacity, size); !s) {
    ::munmap(base, size);
    return s.error();
  }
  return SharedTimingWheel(base, size, -1, false, {}, num_slots, capacity);
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
    return system_error("could not lock " + what + (err == EWOULDBLOCK ? " (another process holds its flock)" : ""), err);
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
  } else if (size < sizeof(SharedHeader)) {
    return Error{Errc::corrupt, what + " is " + std::to_string(size) +
                                    " bytes, too small to hold a shared timing wheel (its header alone is 128 bytes)"};
  } else if (h.magic == 0) {
    return Error{Errc::corrupt, what + ": incomplete timing-wheel file left by an interrupted create; remove it and retry"};
  } else {
    return Error{Errc::corrupt, what + " is not a shared timing wheel (bad magic number; corrupted header?)"};
  }
  // From here the geometry is fixed: the object keeps its own copy and never reads the header's.
  const std::uint32_t slots = fresh ? num_slots : h.num_slots;
  const std::uint32_t timers = fresh ? capacity : h.capacity;
  const std::size_t mapped = detail::mapping_bytes(slots, timers);
  if (Status s = seal_size(fd, what); !s) return s.error();
  void* base = ::mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (base == MAP_FAILED) return system_error("could not map " + what, errno);
  const detail::SharedView view(base, slots, timers);
  if (Status s = fresh ? detail::initialise_shared_wheel(base, slots, timers, mapped) : detail::adopt_after_restart(view); !s) {
    ::munmap(base, mapped);
    return s.error();
  }
  guard.fd = -1;
  const bool no_file = path.empty();  // memfd or descriptor: memfd() hands the descriptor out
  return SharedTimingWheel(base, mapped, fd, no_file, std::move(path), slots, timers);
}

Status SharedTimingWheel::sync() {
  if (Status s = check_attached(); !s) return s;
  if (fd_ < 0) return {};  // anonymous: nothing to flush to
  if (::msync(base_, size_, MS_SYNC) != 0) {
    return system_error("could not flush " + (path_.empty() ? std::string("the shared wheel") : path_), errno);
  }
  return {};
}

Status SharedTimingWheel::unlink() {
  if (Status s = check_attached(); !s) return s;
  if (path_.empty()) {
    return Error{Errc::invalid_argument, "this shared wheel has no file to remove (anonymous, memfd or descriptor)"};
  }
  return unlink(path_);
}

Status SharedTimingWheel::unlink(const std::string& path) {
  // Already gone (another process removed it first) is what the caller wanted.
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) return system_error("could not remove " + path, errno);
  return {};
}

}  // namespace cadence
