// Repairing a shared wheel whose lock holder died, and checking one (for tests).
//
// The truth is in the nodes: a node is pending when its tag says so, and belongs to the slot its
// expire tick names. The repair walks each slot's forward chain (which, by the operations'
// ordering, still reaches every pending node of that slot) and relinks the pending ones in the
// order met, dropping the rest; a pending node the chains missed (only possible if the mapping
// was damaged from outside) is appended to its slot. Then the free list and the count are
// rebuilt. The repair only ever shortcuts forward links, so it can itself be cut short and run
// again by the next locker. A clear() cut short is finished instead, so that it is all or
// nothing.
#include <string>

#include "shared_wheel_layout.hpp"

namespace cadence::detail {
namespace {

bool belongs(const SharedView& v, std::uint32_t link, std::uint32_t slot) {
  const SharedNode& n = v.node(link);
  return tag_pending(n.tag) && v.slot_of(n) == slot;
}

// Finishes a clear() cut short: every timer cancelled, the clock back at 0.
void finish_clear(const SharedView& v, std::uint32_t used) noexcept {
  SharedHeader& h = *v.header;
  for (std::uint32_t link = 1; link <= used; ++link) {
    SharedNode& n = v.node(link);
    if (tag_pending(n.tag)) store(n.tag, tag_freed(n.tag));
  }
  for (std::uint32_t s = 0; s < v.num_slots; ++s) v.heads[s] = 0;
  h.free_head = 0;
  h.high_water = 0;
  store(h.count, std::uint32_t{0});
  store(h.now, std::uint64_t{0});
  step_boundary();
  h.clearing = 0;
}

}  // namespace

void repair_shared_wheel(const SharedView& v) noexcept {
  SharedHeader& h = *v.header;
  const std::uint32_t used = v.used();
  // The geometry was validated when this process attached; what the header says now is damage.
  h.num_slots = v.num_slots;
  h.capacity = v.capacity;
  h.mapping_size = mapping_bytes(v.num_slots, v.capacity);
  if (h.clearing != 0) {
    finish_clear(v, used);
    store(h.recoveries, load(h.recoveries) + 1);
    return;
  }
  h.high_water = used;
  // A pass number no node carries yet, whatever the marks hold (a repair cut short, or damage).
  const std::uint32_t epoch = ++h.epoch;
  for (std::uint32_t link = 1; link <= used; ++link) {
    if (v.node(link).mark == epoch) v.node(link).mark = epoch - 1;
  }
  for (std::uint32_t s = 0; s < v.num_slots; ++s) {
    std::uint32_t first = 0, last = 0;
    std::uint32_t steps = 0;
    for (std::uint32_t link = v.heads[s]; link != 0 && link <= used && steps <= used; ++steps) {
      SharedNode& n = v.node(link);
      const std::uint32_t next = n.next;
      if (belongs(v, link, s) && n.mark != epoch) {
        n.mark = epoch;
        n.prev = last;
        if (last != 0) {
          v.node(last).next = link;
        } else {
          first = link;
        }
        last = link;
      }
      link = next;
    }
    if (last != 0) {
      v.node(last).next = 0;
      v.node(first).prev = last;
    }
    v.heads[s] = first;
  }
  fault_point(SharedWheelFault::recovery_mid_way);
  std::uint32_t count = 0;
  for (std::uint32_t link = 1; link <= used; ++link) {
    SharedNode& n = v.node(link);
    if (!tag_pending(n.tag)) continue;
    ++count;
    if (n.mark == epoch) continue;
    // Pending but on no chain: append it to its slot.
    n.mark = epoch;
    const std::uint32_t s = v.slot_of(n);
    n.next = 0;
    if (v.heads[s] == 0) {
      n.prev = link;
      v.heads[s] = link;
    } else {
      SharedNode& head = v.node(v.heads[s]);
      n.prev = head.prev;
      v.node(head.prev).next = link;
      head.prev = link;
    }
  }
  h.free_head = 0;
  for (std::uint32_t link = used; link >= 1; --link) {
    SharedNode& n = v.node(link);
    if (tag_pending(n.tag)) continue;
    n.next = h.free_head;
    h.free_head = link;
  }
  store(h.count, count);
  store(h.recoveries, load(h.recoveries) + 1);
}

std::string check_shared_wheel(const SharedView& v) {
  const SharedHeader& h = *v.header;
  if (h.clearing != 0) return "a clear() was cut short and not finished";
  if (h.high_water > v.capacity) return "high_water " + std::to_string(h.high_water) + " > capacity";
  if (h.num_slots != v.num_slots || h.capacity != v.capacity) return "the header's geometry changed since it was attached";
  std::uint32_t linked = 0;
  for (std::uint32_t s = 0; s < v.num_slots; ++s) {
    std::uint32_t prev = 0, tail = 0;
    for (std::uint32_t link = v.heads[s]; link != 0; link = v.node(link).next) {
      if (link > h.high_water) return "slot " + std::to_string(s) + " links to an unused node";
      if (++linked > h.high_water) return "a cycle in slot " + std::to_string(s);
      const SharedNode& n = v.node(link);
      if (!belongs(v, link, s)) return "slot " + std::to_string(s) + " holds a node that is not pending there";
      if (prev != 0 && n.prev != prev) return "a broken backward link in slot " + std::to_string(s);
      prev = link;
      tail = link;
    }
    if (tail != 0 && v.node(v.heads[s]).prev != tail) return "slot " + std::to_string(s) + "'s head does not name its tail";
  }
  std::uint32_t pending = 0;
  for (std::uint32_t link = 1; link <= h.high_water; ++link) pending += tag_pending(v.node(link).tag) ? 1 : 0;
  if (pending != linked) return std::to_string(pending) + " pending nodes but " + std::to_string(linked) + " linked";
  if (pending != load(h.count)) return "count " + std::to_string(load(h.count)) + " but " + std::to_string(pending) + " pending";
  std::uint32_t free = 0;
  for (std::uint32_t link = h.free_head; link != 0; link = v.node(link).next) {
    if (link > h.high_water || tag_pending(v.node(link).tag)) return "the free list holds a pending or unused node";
    if (++free > h.high_water) return "a cycle in the free list";
  }
  if (free + pending != h.high_water) {
    return std::to_string(h.high_water - free - pending) + " nodes are neither pending nor free";
  }
  return {};
}

}  // namespace cadence::detail
