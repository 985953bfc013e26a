#include "cadence/timeout_heap.hpp"

#include <algorithm>
#include <limits>
#include <utility>

#include "text.hpp"

namespace cadence {
namespace {

constexpr std::uint32_t kMaxGeneration = std::numeric_limits<std::uint32_t>::max();

std::uint64_t make_handle(std::uint32_t slot, std::uint32_t generation) {
  return (std::uint64_t{generation} << 32) | slot;
}

}  // namespace

TimeoutHeap::TimeoutHeap(std::size_t initial_capacity) {
  nodes_.reserve(initial_capacity);
  slots_.reserve(initial_capacity);
}

TimeoutHeap::~TimeoutHeap() {
  while (!nodes_.empty()) clear();  // again if a free callback pushed while the heap went
}

void TimeoutHeap::set_free_callback(FreeCallback callback) {
  if (in_callback_) {
    next_callback_ = std::move(callback);  // the running callback must not be destroyed under itself
    return;
  }
  free_callback_ = std::move(callback);
}

TimeoutHeap::Handle TimeoutHeap::push(Expiration expiration, Data data) {
  std::uint32_t slot = 0;
  if (!free_slots_.empty()) {
    slot = free_slots_.back();
    free_slots_.pop_back();
  } else {
    slot = static_cast<std::uint32_t>(slots_.size());
    slots_.emplace_back();
  }
  Slot& s = slots_[slot];
  s.state = SlotState::live;
  nodes_.push_back(Node{expiration, next_seq_++, data, slot});
  s.pos = static_cast<std::uint32_t>(nodes_.size() - 1);
  sift_up(nodes_.size() - 1);
  return Handle{make_handle(slot, s.generation)};
}

std::optional<TimeoutHeap::Entry> TimeoutHeap::peek() {
  drop_cancelled_roots();
  if (nodes_.empty()) return std::nullopt;
  return Entry{nodes_.front().expiration, nodes_.front().data};
}

bool TimeoutHeap::root_ties(std::vector<Data>& out, std::size_t max) {
  drop_cancelled_roots();
  if (nodes_.empty()) return true;
  const Expiration e = nodes_.front().expiration;
  // Entries sharing the root's expiration form a subtree hanging from the root: no entry below
  // a later one can be due at e. Visit it depth first, then order the live ones by push order.
  std::vector<std::pair<std::uint64_t, Data>>& ties = ties_scratch_;
  std::vector<std::size_t>& stack = stack_scratch_;
  ties.clear();
  stack.assign(1, 0);
  std::size_t visited = 0;
  while (!stack.empty()) {
    const std::size_t pos = stack.back();
    stack.pop_back();
    if (++visited > 4 * max) return false;
    const Node& n = nodes_[pos];
    if (n.seq != 0) {
      if (ties.size() == max) return false;
      ties.emplace_back(n.seq, n.data);
    }
    for (std::size_t child = 2 * pos + 1; child <= 2 * pos + 2 && child < nodes_.size(); ++child) {
      if (nodes_[child].expiration == e) stack.push_back(child);
    }
  }
  std::sort(ties.begin(), ties.end());
  for (const auto& t : ties) out.push_back(t.second);
  return true;
}

std::optional<TimeoutHeap::Entry> TimeoutHeap::pop() {
  drop_cancelled_roots();
  if (nodes_.empty()) return std::nullopt;
  Node root = remove_root();
  release_slot(root.slot);
  return Entry{root.expiration, root.data};
}

Status TimeoutHeap::cancel(Expiration expiration, Data data) {
  // The earliest-pushed match, so that repeated cancels of one (expiration, data) pair undo
  // repeated pushes in order.
  std::size_t best = nodes_.size();
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    const Node& n = nodes_[i];
    if (n.seq != 0 && n.expiration == expiration && n.data == data &&
        (best == nodes_.size() || n.seq < nodes_[best].seq)) {
      best = i;
    }
  }
  if (best == nodes_.size()) {
    return Error{Errc::not_found, "cancel(expiration=" + detail::num(expiration) + ", data=" +
                                      detail::hex(data) + "): no pending entry has both; nothing was cancelled"};
  }
  mark_cancelled(nodes_[best].slot);
  return {};
}

Status TimeoutHeap::cancel_at(Handle handle) {
  Result<std::uint32_t> slot = find_slot(handle);
  if (!slot) return slot.error();
  mark_cancelled(*slot);
  return {};
}

Status TimeoutHeap::cancel_at(Handle handle, Data expected) {
  Result<std::uint32_t> slot = find_slot(handle);
  if (!slot) return slot.error();
  const Node& node = nodes_[slots_[*slot].pos];
  if (node.data != expected) {
    return Error{Errc::mismatch, "cancel_at(" + detail::hex(handle.value) + ", data=" + detail::hex(expected) +
                                     "): the entry holds data " + detail::hex(node.data) +
                                     "; the data must match the pushed data. Nothing was cancelled"};
  }
  mark_cancelled(*slot);
  return {};
}

void TimeoutHeap::clear() {
  // Take the nodes out first so that a free callback that touches this heap sees it empty.
  std::vector<Node> nodes = std::move(nodes_);
  nodes_.clear();
  cancelled_in_heap_ = 0;
  for (const Node& n : nodes) release_slot(n.slot);
  for (const Node& n : nodes) release_data(n.data);
}

Result<std::uint32_t> TimeoutHeap::find_slot(Handle handle) const {
  const auto slot = static_cast<std::uint32_t>(handle.value & 0xffffffffu);
  const auto generation = static_cast<std::uint32_t>(handle.value >> 32);
  if (handle.value == 0 || slot >= slots_.size() || generation == 0) {
    return Error{Errc::not_found, "cancel_at(" + detail::hex(handle.value) + "): no such handle (slot " +
                                      detail::num(slot) + ", the heap has " + detail::num(slots_.size()) +
                                      " slots); pass a handle returned by push()"};
  }
  const Slot& s = slots_[slot];
  if (s.generation != generation) {
    if (generation > s.generation) {
      return Error{Errc::not_found, "cancel_at(" + detail::hex(handle.value) +
                                        "): this handle was never issued (its generation is ahead of the slot's)"};
    }
    return Error{Errc::stale, "cancel_at(" + detail::hex(handle.value) +
                                  "): the entry already left the heap (popped, or cancelled and dropped); "
                                  "its slot now belongs to another entry, which was left alone"};
  }
  if (s.state == SlotState::cancelled) {
    return Error{Errc::already_cancelled, "cancel_at(" + detail::hex(handle.value) + "): already cancelled"};
  }
  if (s.state != SlotState::live) {
    return Error{Errc::stale, "cancel_at(" + detail::hex(handle.value) +
                                  "): the entry already left the heap (popped, or cancelled and dropped)"};
  }
  return slot;
}

void TimeoutHeap::mark_cancelled(std::uint32_t slot) {
  Slot& s = slots_[slot];
  s.state = SlotState::cancelled;
  ++cancelled_in_heap_;
  const std::size_t pos = s.pos;
  nodes_[pos].expiration = std::numeric_limits<Expiration>::min();
  nodes_[pos].seq = 0;  // below every live key, so it rises to the root
  sift_up(pos);
}

void TimeoutHeap::place(std::size_t pos, const Node& node) {
  nodes_[pos] = node;
  slots_[node.slot].pos = static_cast<std::uint32_t>(pos);
}

void TimeoutHeap::sift_up(std::size_t pos) {
  const Node moving = nodes_[pos];
  while (pos > 0) {
    const std::size_t parent = (pos - 1) / 2;
    if (!before(moving, nodes_[parent])) break;
    place(pos, nodes_[parent]);
    pos = parent;
  }
  place(pos, moving);
}

void TimeoutHeap::sift_down(std::size_t pos) {
  const std::size_t n = nodes_.size();
  const Node moving = nodes_[pos];
  while (true) {
    std::size_t child = 2 * pos + 1;
    if (child >= n) break;
    if (child + 1 < n && before(nodes_[child + 1], nodes_[child])) ++child;
    if (!before(nodes_[child], moving)) break;
    place(pos, nodes_[child]);
    pos = child;
  }
  place(pos, moving);
}

TimeoutHeap::Node TimeoutHeap::remove_root() {
  Node root = nodes_.front();
  Node last = nodes_.back();
  nodes_.pop_back();
  if (!nodes_.empty()) {
    nodes_.front() = last;
    sift_down(0);
  }
  return root;
}

void TimeoutHeap::release_slot(std::uint32_t slot) {
  Slot& s = slots_[slot];
  if (s.generation == kMaxGeneration) {
    s.state = SlotState::retired;  // never reused: a handle's generation can never wrap around
    return;
  }
  ++s.generation;
  s.state = SlotState::free;
  free_slots_.push_back(slot);
}

void TimeoutHeap::release_data(Data data) {
  ++freed_count_;
  if (!free_callback_) return;
  if (in_callback_) {
    // A release set off from inside the callback (its pop() dropping a root) runs the callback
    // as a call of its own, nested.
    free_callback_(data);
    return;
  }
  in_callback_ = true;
  struct Done {
    TimeoutHeap& heap;
    ~Done() {
      heap.in_callback_ = false;
      if (heap.next_callback_) {
        heap.free_callback_ = std::move(*heap.next_callback_);
        heap.next_callback_.reset();
      }
    }
  } done{*this};
  free_callback_(data);
}

void TimeoutHeap::drop_cancelled_roots() {
  while (!nodes_.empty() && nodes_.front().seq == 0) {
    Node root = remove_root();
    --cancelled_in_heap_;
    release_slot(root.slot);
    release_data(root.data);
  }
}

}  // namespace cadence
