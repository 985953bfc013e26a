// SharedTimingWheel operations: add, cancel, advance, clear, under the wheel's robust lock.
//
// Crash ordering (see shared_wheel_layout.hpp): a node becomes pending only after it is linked
// (a linked node that is not pending is ignored by the repair), and stops being pending before
// it is unlinked; the free list and the count are rebuilt by the repair, so they may lag. The
// clock moves only after the tick's timers are out, so a tick cut short is simply run again.
#include "cadence/shared_timing_wheel.hpp"

#include <pthread.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include "advance_plan.hpp"
#include "shared_wheel_layout.hpp"

namespace cadence {

using detail::fault_point;
using detail::SharedHeader;
using detail::SharedNode;
using detail::SharedView;
using detail::SharedWheelFault;
using detail::step_boundary;

namespace detail {

void (*shared_wheel_fault_hook)(SharedWheelFault) = nullptr;

namespace {

// Holds the wheel's lock; repairs the wheel first when its last holder died holding it.
class WheelLock {
 public:
  explicit WheelLock(const SharedView& v) : v_(v) {
    int r = pthread_mutex_lock(&v.header->lock);
    if (r == EOWNERDEAD) {
      repair_shared_wheel(v);
      r = pthread_mutex_consistent(&v.header->lock);
      // Held but not made consistent: let go, so that the others are told (ENOTRECOVERABLE)
      // instead of waiting for ever.
      if (r != 0) pthread_mutex_unlock(&v.header->lock);
    }
    error_ = r;
  }
  ~WheelLock() {
    if (error_ == 0) pthread_mutex_unlock(&v_.header->lock);
  }
  WheelLock(const WheelLock&) = delete;
  WheelLock& operator=(const WheelLock&) = delete;
  /// 0 when held; else the errno of the failure (the mapping's lock is damaged).
  int error() const noexcept { return error_; }

 private:
  const SharedView& v_;
  int error_ = 0;
};

Error lock_error(int r) {
  return Error{Errc::system, std::string("the shared wheel's lock is unusable: ") + std::strerror(r)};
}

// ---- damage ---------------------------------------------------------------------------------
// Every link an operation follows is checked before it is used. One that no operation of this
// library writes (beyond the nodes handed out, a list entry that is not pending) means the
// mapping was written from outside: the wheel is rebuilt from its nodes' records, and the
// operation reports what it found.

Error damaged(const SharedView& v, const std::string& what) {
  repair_shared_wheel(v);
  return Error{Errc::corrupt, "the shared wheel's mapping was damaged from outside (" + what +
                                  "); it was rebuilt from its timers' records (stats().recoveries counts this) "
                                  "and this call changed nothing more"};
}

std::string bad_link(const char* field, std::uint32_t value, const SharedView& v) {
  return std::string(field) + " " + std::to_string(value) + " names no timer in use (" + std::to_string(v.used()) +
         " of " + std::to_string(v.capacity) + ")";
}

// What link_tail() touches for slot `slot`, checked: "" when usable. The head's backward link
// must name the list's tail: a node whose forward link ends the list.
std::string check_tail(const SharedView& v, std::uint32_t slot) {
  const std::uint32_t head = v.heads[slot];
  if (!v.link_or_none(head)) return bad_link("a slot head", head, v);
  if (head == 0) return {};
  const std::uint32_t tail = v.node(head).prev;
  if (!v.is_link(tail)) return bad_link("a slot's tail link", tail, v);
  if (v.node(tail).next != 0) return "slot " + std::to_string(slot) + "'s tail link names a timer that is not its last";
  return {};
}

// What unlink() touches to take node `link` out of slot `slot`, checked: "" when usable. The
// node must be on that list as its neighbours say: the head, or its predecessor's successor;
// its successor's predecessor; and a last node must be what the head names as the tail.
std::string check_linked(const SharedView& v, std::uint32_t slot, std::uint32_t link) {
  const SharedNode& n = v.node(link);
  const std::uint32_t head = v.heads[slot];
  if (!v.is_link(head)) return bad_link("the slot head of a pending timer", head, v);
  if (!v.link_or_none(n.next)) return bad_link("a timer's next link", n.next, v);
  if (!v.is_link(n.prev)) return bad_link("a timer's previous link", n.prev, v);
  // The message is built only for a broken list: this runs for every cancel and fired timer.
  const bool in_place = (head == link || v.node(n.prev).next == link) &&
                        (n.next == 0 || head == n.next || v.node(n.next).prev == link) &&
                        (n.next != 0 || v.node(head).prev == link);
  if (in_place) return {};
  return "timer " + std::to_string(link) + " is not where slot " + std::to_string(slot) + "'s list says";
}

// Appends node `link` at the tail of `slot`'s list (its own fields first, then the links that
// make it reachable). check_tail() has passed.
void link_tail(const SharedView& v, std::uint32_t slot, std::uint32_t link) noexcept {
  SharedNode& n = v.node(link);
  const std::uint32_t head = v.heads[slot];
  n.next = 0;
  if (head == 0) {
    n.prev = link;
    step_boundary();
    v.heads[slot] = link;
    return;
  }
  SharedNode& h = v.node(head);
  n.prev = h.prev;
  step_boundary();
  v.node(h.prev).next = link;  // reachable from here
  step_boundary();
  h.prev = link;
}

// Takes node `link` out of `slot`'s list: one store removes it from the forward chain.
// check_linked() has passed.
void unlink(const SharedView& v, std::uint32_t slot, std::uint32_t link) noexcept {
  SharedNode& n = v.node(link);
  const std::uint32_t head = v.heads[slot];
  if (head == link) {
    v.heads[slot] = n.next;
    step_boundary();
    if (n.next != 0) v.node(n.next).prev = n.prev;  // the tail stays the tail
  } else {
    v.node(n.prev).next = n.next;
    step_boundary();
    if (n.next != 0) {
      v.node(n.next).prev = n.prev;
    } else {
      v.node(head).prev = n.prev;  // a new tail
    }
  }
}

// Frees a pending node: not pending (next generation), out of its list, onto the free list.
// Returns what was damaged instead, changing nothing.
std::string release(const SharedView& v, std::uint32_t link, SharedWheelFault after_tag, SharedWheelFault after_unlink) {
  SharedHeader& h = *v.header;
  SharedNode& n = v.node(link);
  const std::uint32_t slot = v.slot_of(n);
  if (std::string bad = check_linked(v, slot, link); !bad.empty()) return bad;
  if (load(h.count) == 0) return "the count is 0, but a timer is pending";
  store(n.tag, detail::tag_freed(n.tag));
  step_boundary();
  fault_point(after_tag);
  unlink(v, slot, link);
  step_boundary();
  fault_point(after_unlink);
  n.next = h.free_head;
  h.free_head = link;
  store(h.count, load(h.count) - 1);
  return {};
}

}  // namespace
}  // namespace detail

using detail::load;
using detail::store;

Status SharedTimingWheel::check_attached() const {
  if (base_ != nullptr) return {};
  return Error{Errc::closed, "this SharedTimingWheel was moved from and holds no wheel; use the object it was moved to"};
}

detail::SharedView SharedTimingWheel::view() const noexcept { return SharedView(base_, num_slots_, capacity_); }

namespace detail {
namespace {

// What the header says that an operation relies on, checked: "" when usable.
std::string check_header(const SharedView& v) {
  const SharedHeader& h = *v.header;
  if (h.num_slots != v.num_slots || h.capacity != v.capacity) {
    return "the header says " + std::to_string(h.num_slots) + " slots and " + std::to_string(h.capacity) +
           " timers, but it was attached with " + std::to_string(v.num_slots) + " and " + std::to_string(v.capacity);
  }
  if (h.high_water > v.capacity) return bad_link("the high-water mark", h.high_water, v);
  if (load(h.count) > v.used()) return "the count " + std::to_string(load(h.count)) + " is more than the timers in use";
  const std::uint64_t now = load(h.now);
  if (now > static_cast<std::uint64_t>(SharedTimingWheel::kMaxTicks)) return "the clock reads " + std::to_string(now) + ", past 2^62";
  return {};
}

}  // namespace
}  // namespace detail

Result<SharedTimerId> SharedTimingWheel::add(std::int64_t delay, std::uint64_t payload) {
  if (Status s = check_attached(); !s) return s.error();
  if (delay > kMaxTicks) {
    return Error{Errc::invalid_argument, "delay " + std::to_string(delay) + " ticks is out of range: at most 2^62"};
  }
  const auto ticks = static_cast<std::uint64_t>(std::max<std::int64_t>(delay, 1));
  const SharedView v = view();
  SharedHeader& h = *v.header;
  detail::WheelLock lock(v);
  if (lock.error() != 0) return detail::lock_error(lock.error());
  if (std::string bad = detail::check_header(v); !bad.empty()) return detail::damaged(v, bad);
  const std::uint64_t now = load(h.now);
  if (ticks > static_cast<std::uint64_t>(kMaxTicks) - now) {
    return Error{Errc::invalid_argument, "delay " + std::to_string(ticks) + " ticks from " + std::to_string(now) +
                                             " would be due past 2^62 ticks, where the clock stops"};
  }
  std::uint32_t link = h.free_head;
  if (link != 0) {
    if (!v.is_link(link) || detail::tag_pending(v.node(link).tag)) {
      return detail::damaged(v, detail::bad_link("the free-list head", link, v));
    }
    if (!v.link_or_none(v.node(link).next)) return detail::damaged(v, detail::bad_link("a free timer's next link", v.node(link).next, v));
  } else if (h.high_water >= capacity_) {
    return Error{Errc::full, "the shared wheel is full: all " + std::to_string(capacity_) +
                                 " timers are pending (its capacity, fixed when it was created)"};
  }
  const auto slot = static_cast<std::uint32_t>((now + ticks) % num_slots_);
  if (std::string bad = detail::check_tail(v, slot); !bad.empty()) return detail::damaged(v, bad);
  if (link != 0) {
    h.free_head = v.node(link).next;
  } else {
    link = ++h.high_water;
  }
  step_boundary();
  fault_point(SharedWheelFault::add_after_pop);
  SharedNode& n = v.node(link);
  n.payload = payload;
  n.expire = now + ticks;
  detail::link_tail(v, slot, link);
  step_boundary();
  fault_point(SharedWheelFault::add_after_link);
  const std::uint32_t generation = detail::tag_generation(n.tag);
  store(n.tag, generation << 1 | 1u);
  store(h.count, load(h.count) + 1);
  store(h.ops, load(h.ops) + 1);
  return SharedTimerId{std::uint64_t{generation} << 32 | link};
}

bool SharedTimingWheel::cancel(SharedTimerId id) {
  if (base_ == nullptr) return false;
  const auto link = static_cast<std::uint32_t>(id.value & 0xffff'ffffu);
  const auto generation = static_cast<std::uint32_t>(id.value >> 32);
  if (link == 0 || link > capacity_ || generation > 0x7fff'ffffu) return false;
  const SharedView v = view();
  SharedHeader& h = *v.header;
  detail::WheelLock lock(v);
  if (lock.error() != 0) return false;
  // A damaged list is rebuilt and the cancel tried once more: the timer is there or not.
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (!v.is_link(link) || v.node(link).tag != (generation << 1 | 1u)) return false;
    const std::string bad =
        detail::release(v, link, SharedWheelFault::cancel_after_tag, SharedWheelFault::cancel_after_unlink);
    if (bad.empty()) {
      store(h.ops, load(h.ops) + 1);
      return true;
    }
    (void)detail::damaged(v, bad);
  }
  return false;
}

Result<std::vector<std::uint64_t>> SharedTimingWheel::advance(std::int64_t ticks) {
  std::vector<std::uint64_t> fired;
  if (Status s = advance(ticks, fired); !s) return s.error();
  return fired;
}

Status SharedTimingWheel::advance(std::int64_t ticks, std::vector<std::uint64_t>& fired) {
  if (Status s = check_attached(); !s) return s;
  if (ticks < 0) {
    return Error{Errc::invalid_argument, "advance by " + std::to_string(ticks) + " ticks: time only moves forward"};
  }
  const SharedView v = view();
  SharedHeader& h = *v.header;
  detail::WheelLock lock(v);
  if (lock.error() != 0) return detail::lock_error(lock.error());
  if (std::string bad = detail::check_header(v); !bad.empty()) return detail::damaged(v, bad);
  const std::uint64_t now = load(h.now);
  if (static_cast<std::uint64_t>(ticks) > static_cast<std::uint64_t>(kMaxTicks) - now) {
    return Error{Errc::invalid_argument, "advance by " + std::to_string(ticks) + " ticks from " + std::to_string(now) +
                                             " would take the clock past 2^62"};
  }
  const std::uint64_t target = now + static_cast<std::uint64_t>(ticks);
  const std::uint32_t slots = num_slots_;
  const std::uint32_t used = v.used();
  // Fires a node met on a list: it must be pending and linked as the lists say.
  auto fire = [&](std::uint32_t link) -> std::string {
    if (!detail::tag_pending(v.node(link).tag)) return "a slot lists timer " + std::to_string(link) + ", which is not pending";
    const std::uint64_t payload = v.node(link).payload;
    std::string bad = detail::release(v, link, SharedWheelFault::advance_mid_tick, SharedWheelFault::advance_mid_tick);
    if (bad.empty()) fired.push_back(payload);
    return bad;
  };
  // The count is not trusted to skip work: a damaged one would hide pending timers for good.
  // An unused wheel has nothing to visit; otherwise the walks below are bounded anyway.
  if (used == 0) {
    // Nothing to visit.
  } else if (detail::walk_is_cheaper(static_cast<std::uint64_t>(ticks), slots, std::min(load(h.count), used))) {
    // Tick by tick: the hand visits one bucket per tick and fires what is due there (a timer
    // of a later round stays). The clock moves after each tick's timers are out.
    // Each walk is bounded by the nodes in use, so even a damaged list cannot trap the lock.
    for (std::uint64_t t = now + 1; t <= target; ++t) {
      std::uint32_t link = v.heads[t % slots];
      for (std::uint32_t steps = 0; link != 0; ++steps) {
        if (!v.is_link(link) || steps >= used) return detail::damaged(v, detail::bad_link("a slot's link", link, v));
        const std::uint32_t next = v.node(link).next;
        if (v.node(link).expire <= t) {
          if (std::string bad = fire(link); !bad.empty()) return detail::damaged(v, bad);
        }
        link = next;
      }
      store(h.now, t);
    }
  } else {
    // A sweep (a rotation or more, when cheaper than the walk: advance_plan.hpp): every bucket
    // is visited once, and what is due by `target` fires in tick order (stable, so ties keep
    // their list order, the order they were added).
    std::vector<std::pair<std::uint64_t, std::uint32_t>> due;
    for (std::uint32_t s = 0; s < slots; ++s) {
      std::uint32_t link = v.heads[s];
      for (std::uint32_t steps = 0; link != 0; ++steps) {
        if (!v.is_link(link) || steps >= used) return detail::damaged(v, detail::bad_link("a slot's link", link, v));
        if (v.node(link).expire <= target) due.emplace_back(v.node(link).expire, link);
        link = v.node(link).next;
      }
    }
    std::stable_sort(due.begin(), due.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    // As on the walk, the clock reads the last tick whose timers are all out, so that damage
    // met, or a process killed, while firing leaves it where the walk would.
    std::uint64_t done = now;
    for (const auto& d : due) {
      if (d.first > done + 1) {  // done < target <= 2^62: no overflow
        done = d.first - 1;
        store(h.now, done);
      }
      if (std::string bad = fire(d.second); !bad.empty()) return detail::damaged(v, bad);
    }
  }
  store(h.now, target);
  store(h.ops, load(h.ops) + 1);
  return {};
}

void SharedTimingWheel::clear() {
  if (base_ == nullptr) return;
  const SharedView v = view();
  SharedHeader& h = *v.header;
  detail::WheelLock lock(v);
  if (lock.error() != 0) return;
  // All or nothing: once the flag is up, a repair after a crash finishes the clear.
  h.clearing = 1;
  step_boundary();
  const std::uint32_t used = v.used();
  for (std::uint32_t link = 1; link <= used; ++link) {
    SharedNode& n = v.node(link);
    if (detail::tag_pending(n.tag)) store(n.tag, detail::tag_freed(n.tag));  // its id goes stale
    if (link == used / 2) {
      step_boundary();
      fault_point(SharedWheelFault::clear_mid_tags);
    }
  }
  step_boundary();
  fault_point(SharedWheelFault::clear_mid_way);
  std::memset(v.heads, 0, std::size_t{num_slots_} * sizeof(std::uint32_t));
  h.free_head = 0;
  h.high_water = 0;  // nodes keep their generations for when they are handed out again
  store(h.count, std::uint32_t{0});
  store(h.now, std::uint64_t{0});
  step_boundary();
  h.clearing = 0;
  store(h.ops, load(h.ops) + 1);
}

std::string SharedTimingWheel::check() const {
  if (Status s = check_attached(); !s) return s.error().message;
  const SharedView v = view();
  detail::WheelLock lock(v);
  if (lock.error() != 0) return detail::lock_error(lock.error()).message;
  return detail::check_shared_wheel(v);
}

std::uint64_t SharedTimingWheel::now() const noexcept { return base_ == nullptr ? 0 : load(view().header->now); }
std::uint32_t SharedTimingWheel::count() const noexcept { return base_ == nullptr ? 0 : load(view().header->count); }
std::uint32_t SharedTimingWheel::num_slots() const noexcept { return num_slots_; }
std::uint32_t SharedTimingWheel::capacity() const noexcept { return capacity_; }

SharedWheelStats SharedTimingWheel::stats() const noexcept {
  SharedWheelStats s;
  if (base_ == nullptr) return s;
  const SharedView v = view();
  const SharedHeader& h = *v.header;
  s.num_slots = num_slots_;
  s.capacity = capacity_;
  s.mmap_size = size_;
  // One snapshot: under the lock, so no operation of another process is half in it. (Should
  // the lock be unusable, the fields are read one by one, each still exact.)
  detail::WheelLock lock(v);
  s.now = load(h.now);
  s.count = load(h.count);
  s.cur = static_cast<std::uint32_t>(s.now % num_slots_);
  s.ops = load(h.ops);
  s.recoveries = load(h.recoveries);
  return s;
}

}  // namespace cadence
