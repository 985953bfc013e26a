// cadence/timeout_heap.hpp: a binary min-heap of timeouts with lazy deletion.
//
// Entries are (expiration, data) pairs; the root is the earliest expiration, and entries with
// one expiration leave in the order they were pushed. A cancelled entry stays, counted by
// size(), until the next peek(), pop(), root_ties() or clear() drops it and releases its data
// through the free callback. The Handle push() returns stays valid while its entry is held; one
// kept after its entry left never cancels another entry.
//
//     #include <cadence/timeout_heap.hpp>
//     using namespace cadence;
//     struct Job { int id; };
//     void run(TimeoutHeap::Data job);
//     TimeoutHeap heap;
//     heap.set_free_callback([](TimeoutHeap::Data d) { delete reinterpret_cast<Job*>(d); });
//     auto h = heap.push(/*expiration=*/250, reinterpret_cast<TimeoutHeap::Data>(new Job{1}));
//     (void)heap.cancel_at(h);              // O(log n); the job is deleted at the next peek/pop
//     while (auto e = heap.pop()) run(e->data);
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "cadence/export.hpp"
#include "cadence/result.hpp"

namespace cadence {

/// For every member: Thread: one at a time; the free callback runs on the thread of the call that drops it.
/// Where: anywhere, the free callback included: it runs once the entry is out and the heap is consistent.
/// Errors: none.
/// Cost: O(1).
class CADENCE_RUNTIME_API TimeoutHeap {
 public:
  using Expiration = std::int64_t;
  using Data = std::uint64_t;

  /// What peek() and pop() return.
  struct Entry {
    Expiration expiration;
    Data data;
  };
  /// Names one pushed entry. 0 is never issued.
  struct Handle {
    std::uint64_t value = 0;
  };
  /// Releases the data of an entry the heap drops. An empty function releases nothing.
  using FreeCallback = std::function<void(Data)>;

  /// An empty heap with room for `initial_capacity` entries before it grows (it grows on its own).
  explicit TimeoutHeap(std::size_t initial_capacity = 16);
  /// Releases the data of every entry still held (cancelled or not) through the free callback,
  /// and of any entry the callback pushes meanwhile.
  /// Cost: O(n).
  ~TimeoutHeap();
  TimeoutHeap(const TimeoutHeap&) = delete;
  TimeoutHeap& operator=(const TimeoutHeap&) = delete;

  /// Sets (or, with an empty function, unsets) the callback that releases dropped data.
  /// Where: anywhere; from inside the free callback it takes effect once the callback returns.
  void set_free_callback(FreeCallback callback);

  /// Adds an entry.
  /// Cost: O(log n); amortized O(1) allocation.
  Handle push(Expiration expiration, Data data);

  /// The earliest live entry, without removing it; first drops cancelled roots (releasing their
  /// data). nullopt when no live entry is left.
  /// Cost: O(log n) per dropped root, O(1) otherwise.
  std::optional<Entry> peek();
  /// Removes and returns the earliest live entry; its data now belongs to the caller (it is not
  /// released). Drops cancelled roots first, like peek(). nullopt on an empty heap.
  /// Cost: O(log n).
  std::optional<Entry> pop();
  /// Appends the data of every live entry whose expiration equals the root's, in pop order, and
  /// returns true; returns false (having appended an unspecified part) when there are more than
  /// `max` or more than 4 * max entries would have to be visited. Drops cancelled roots first,
  /// as peek() does.
  /// Cost: O(max log max).
  bool root_ties(std::vector<Data>& out, std::size_t max);

  /// Cancels the earliest-pushed live entry with this expiration and data.
  /// Errors: not_found when no live entry matches; nothing changes.
  /// Cost: O(n) search.
  Status cancel(Expiration expiration, Data data);
  /// Cancels the entry `handle` names. Nothing changes on error.
  /// Errors: not_found (never issued, or 0); stale (popped, or dropped); already_cancelled (not dropped yet).
  /// Cost: O(log n).
  Status cancel_at(Handle handle);
  /// As cancel_at(handle), and the entry's data must equal `expected`.
  /// Errors: as cancel_at(handle), and mismatch when the data differs; nothing changes on error.
  /// Cost: O(log n).
  Status cancel_at(Handle handle, Data expected);

  /// Entries held, cancelled-but-not-dropped ones included.
  std::size_t size() const noexcept { return nodes_.size(); }
  /// Entries held that are not cancelled.
  std::size_t live_count() const noexcept { return nodes_.size() - cancelled_in_heap_; }
  bool empty() const noexcept { return nodes_.empty(); }
  /// Entries whose data the heap released: cancelled entries dropped by peek(), pop() or clear(),
  /// and live entries dropped by clear(). Counted whether or not a free callback is set (with
  /// none, releasing means forgetting). Popped entries are not counted: the caller owns them.
  std::size_t freed_count() const noexcept { return freed_count_; }

  /// Drops every entry, releasing its data. Handles issued before become stale.
  /// Cost: O(n).
  void clear();

 private:
  struct Node {
    Expiration expiration;
    std::uint64_t seq;  // push order; ties on expiration leave in push order. 0 marks cancelled.
    Data data;
    std::uint32_t slot;
  };
  enum class SlotState : std::uint8_t { free, live, cancelled, retired };
  struct Slot {
    std::uint32_t pos = 0;         // index of the node in nodes_ while live or cancelled
    std::uint32_t generation = 1;  // part of the handle; bumped when the slot is freed
    SlotState state = SlotState::free;
  };

  static bool before(const Node& a, const Node& b) noexcept {
    return a.expiration != b.expiration ? a.expiration < b.expiration : a.seq < b.seq;
  }
  Result<std::uint32_t> find_slot(Handle handle) const;
  void mark_cancelled(std::uint32_t slot);
  void sift_up(std::size_t pos);
  void sift_down(std::size_t pos);
  void place(std::size_t pos, const Node& node);
  Node remove_root();
  void release_slot(std::uint32_t slot);
  void release_data(Data data);
  void drop_cancelled_roots();

  std::vector<Node> nodes_;
  // Scratch for root_ties(), kept so that a call allocates nothing once they have room.
  std::vector<std::pair<std::uint64_t, Data>> ties_scratch_;
  std::vector<std::size_t> stack_scratch_;
  std::vector<Slot> slots_;
  std::vector<std::uint32_t> free_slots_;
  FreeCallback free_callback_;
  std::optional<FreeCallback> next_callback_;  // set from inside the callback: installed after it
  bool in_callback_ = false;
  std::uint64_t next_seq_ = 1;
  std::size_t cancelled_in_heap_ = 0;
  std::size_t freed_count_ = 0;
};

}  // namespace cadence
