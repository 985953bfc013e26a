// The bytes of a shared timing wheel, as every process maps them, and the rules for changing
// them so that a process killed between any two stores leaves a wheel that the next locker can
// repair. Private to the library (and its crash tests).
//
// Mapping: [header, 128 bytes][slot heads: num_slots x u32, padded to 8][nodes: capacity x 32].
// All integers are native-endian (the file is shared by processes of one machine).
//
// Links are node index + 1, with 0 meaning "none", so a zero-filled mapping is an empty wheel.
// A slot's list is NULL-terminated forwards through `next`; the head's `prev` is the tail, and
// every other node's `prev` is its predecessor. The source of truth is each node's `tag`
// (generation and pending bit) and `expire`: the lists, the free list and the count can all be
// rebuilt from them, in the order the forward chains give. Every operation is ordered so that
// at each store the forward chains still reach every pending node (see shared_timing_wheel.cpp).
#pragma once

#include <pthread.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

#include "cadence/export.hpp"
#include "cadence/result.hpp"

namespace cadence::detail {

inline constexpr std::uint64_t kSharedWheelMagic = 0x3157'5445'434e'4443;  // "CDNCETW1" little-endian
inline constexpr std::uint32_t kSharedWheelVersion = 2;

struct SharedHeader {
  std::uint64_t magic;         // kSharedWheelMagic, stored last when a wheel is created
  std::uint32_t version;
  std::uint32_t header_bytes;  // 128
  std::uint32_t num_slots;
  std::uint32_t capacity;
  std::uint64_t mapping_size;
  std::uint64_t now;           // atomic: ticks since creation or clear()
  std::uint64_t ops;           // atomic
  std::uint64_t recoveries;    // atomic
  std::uint32_t count;         // atomic: pending timers
  std::uint32_t free_head;     // link of the first free node below high_water
  std::uint32_t high_water;    // nodes [0, high_water) have been handed out at least once
  std::uint32_t epoch;         // recovery pass number, for node marks
  std::uint32_t clearing;      // 1 while clear() runs: a repair finishes the clear
  std::uint32_t boot;          // digest of the boot that last attached it (0: unknown)
  pthread_mutex_t lock;        // robust, process-shared
};
static_assert(sizeof(SharedHeader) <= 128, "the header must fit its 128 bytes");
static_assert(alignof(SharedHeader) <= 8);
// Processes share these words through atomics that must be lock-free: a lock inside libatomic
// would be private to each process.
static_assert(std::atomic_ref<std::uint64_t>::is_always_lock_free);
static_assert(std::atomic_ref<std::uint32_t>::is_always_lock_free);

struct SharedNode {
  std::uint64_t payload;
  std::uint64_t expire;  // absolute tick at which it fires
  std::uint32_t next;    // forward link in its slot's list, or in the free list
  std::uint32_t prev;    // backward link; a head's prev is its list's tail
  std::uint32_t tag;     // generation << 1 | pending
  std::uint32_t mark;    // the recovery pass that last placed it
};
static_assert(sizeof(SharedNode) == 32, "32 bytes per timer");

constexpr std::uint32_t tag_generation(std::uint32_t tag) noexcept { return tag >> 1; }
constexpr bool tag_pending(std::uint32_t tag) noexcept { return (tag & 1u) != 0; }
/// The tag of a node freed from `tag`: not pending, next generation (31 bits, wrapping).
constexpr std::uint32_t tag_freed(std::uint32_t tag) noexcept { return ((tag_generation(tag) + 1) & 0x7fff'ffffu) << 1; }

constexpr std::size_t heads_offset() noexcept { return 128; }
constexpr std::size_t nodes_offset(std::uint32_t num_slots) noexcept {
  return heads_offset() + ((std::size_t{num_slots} * 4 + 7) & ~std::size_t{7});
}
constexpr std::size_t mapping_bytes(std::uint32_t num_slots, std::uint32_t capacity) noexcept {
  return nodes_offset(num_slots) + std::size_t{capacity} * sizeof(SharedNode);
}

/// Views of one mapping, with the geometry validated when it was attached. The header's own
/// geometry fields are never read again: another process may have scribbled on them, and every
/// index taken from the mapping is checked against these before it is used.
struct SharedView {
  SharedHeader* header;
  std::uint32_t* heads;
  SharedNode* nodes;
  std::uint32_t num_slots;
  std::uint32_t capacity;
  SharedView(void* base, std::uint32_t slots, std::uint32_t timers) noexcept
      : header(static_cast<SharedHeader*>(base)),
        heads(reinterpret_cast<std::uint32_t*>(static_cast<char*>(base) + heads_offset())),
        nodes(reinterpret_cast<SharedNode*>(static_cast<char*>(base) + nodes_offset(slots))),
        num_slots(slots),
        capacity(timers) {}
  /// Nodes handed out so far, as far as the mapping can be believed: high_water, at most capacity.
  std::uint32_t used() const noexcept { return header->high_water <= capacity ? header->high_water : capacity; }
  /// `link` is 0 (none) or names a node handed out so far.
  bool link_or_none(std::uint32_t link) const noexcept { return link <= used(); }
  /// `link` names a node handed out so far.
  bool is_link(std::uint32_t link) const noexcept { return link != 0 && link <= used(); }
  /// The node of `link`; is_link(link) must hold.
  SharedNode& node(std::uint32_t link) const noexcept { return nodes[link - 1]; }
  std::uint32_t slot_of(const SharedNode& n) const noexcept { return static_cast<std::uint32_t>(n.expire % num_slots); }
};

/// Fields other processes read without the lock.
template <class T>
T load(const T& field) noexcept {
  return std::atomic_ref<T>(const_cast<T&>(field)).load(std::memory_order_acquire);
}
template <class T>
void store(T& field, T value) noexcept {
  std::atomic_ref<T>(field).store(value, std::memory_order_release);
}

/// Keeps the compiler from reordering the stores of one step after those of the next: a
/// process can die between any two steps, and the repair relies on their order.
inline void step_boundary() noexcept { std::atomic_signal_fence(std::memory_order_seq_cst); }

/// Fault injection for the crash tests: when set, called at each named point of an operation
/// while the lock is held (the test's hook kills the process there). Null in normal use.
enum class SharedWheelFault : int {
  add_after_pop = 1,       // a node left the free list, nothing linked yet
  add_after_link,          // linked into its slot, not yet marked pending
  cancel_after_tag,        // marked free, still linked
  cancel_after_unlink,     // unlinked, not yet on the free list
  advance_mid_tick,        // some of a tick's timers fired, the clock not yet moved
  clear_mid_way,           // some timers cancelled, the lists not yet reset
  recovery_mid_way,        // a repair half done
  clear_mid_tags,          // half the timers' ids made stale, the other half still pending
};
CADENCE_SHARED_WHEEL_API extern void (*shared_wheel_fault_hook)(SharedWheelFault point);
/// For tests: when true, open() creates new files at their path under a flock, as on a file
/// system without unnamed (O_TMPFILE) files. False in normal use.
CADENCE_SHARED_WHEEL_API extern bool shared_wheel_named_create_only;
inline void fault_point(SharedWheelFault point) {
  if (shared_wheel_fault_hook != nullptr) shared_wheel_fault_hook(point);
}

/// Repairs the wheel after a process died holding its lock (the caller holds it now), when a
/// new boot first attaches it, or when an operation found a link that no operation writes (the
/// mapping was damaged from outside): finishes a clear() that was cut short, else rebuilds
/// every list from the nodes' tags, keeping the order of the forward chains. Safe on any bytes:
/// every link it follows is checked. O(slots + nodes).
void repair_shared_wheel(const SharedView& v) noexcept;

/// Checks the lists against the nodes; an empty string when they agree, else what is wrong
/// first. For tests. O(slots + nodes).
std::string check_shared_wheel(const SharedView& v);

// ---- setting up (shared_wheel_header.cpp) ----

/// An Errc::system error: `what`, then the reason errno `err` gives.
Error system_error(const std::string& what, int err);
/// A digest of this boot's id (/proc/sys/kernel/random/boot_id), the same in every process until
/// the machine restarts; 0 when the id cannot be read.
CADENCE_SHARED_WHEEL_API std::uint32_t boot_digest();
/// Writes a new, empty wheel into zeroed memory: everything but the magic, then the magic.
Status initialise_shared_wheel(void* base, std::uint32_t num_slots, std::uint32_t capacity, std::size_t size);
/// For a wheel file stamped by an earlier boot (the machine restarted, or the file was copied
/// from another one): repairs it under its lock, setting the lock up afresh when it is held by
/// a thread that no longer exists, and stamps this boot. Nothing for a file of this boot.
/// The caller holds the file's flock. O(slots + nodes), plus up to a second of waiting.
Status adopt_after_restart(const SharedView& v);

}  // namespace cadence::detail
