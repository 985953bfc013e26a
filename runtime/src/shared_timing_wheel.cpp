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

// Appends node `link` at the tail of `slot`'s list (its own fields first, then the links that
// make it reachable).
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
void release(const SharedView& v, std::uint32_t link, SharedWheelFault after_tag, SharedWheelFault after_unlink) {
  SharedHeader& h = *v.header;
  SharedNode& n = v.node(link);
  store(n.tag, detail::tag_freed(n.tag));
  step_boundary();
  fault_point(after_tag);
  unlink(v, static_cast<std::uint32_t>(n.expire % h.num_slots), link);
  step_boundary();
  fault_point(after_unlink);
  n.next = h.free_head;
  h.free_head = link;
  store(h.count, load(h.count) - 1);
}

}  // namespace
}  // namespace detail

using detail::load;
using detail::store;

Result<SharedTimerId> SharedTimingWheel::add(std::int64_t delay, std::uint64_t payload) {
  if (delay > kMaxTicks) {
    return Error{Errc::invalid_argument, "delay " + std::to_string(delay) + " ticks is out of range: at most 2^62"};
  }
  const auto ticks = static_cast<std::uint64_t>(std::max<std::int64_t>(delay, 1));
  const SharedView v(base_);
  SharedHeader& h = *v.header;
  detail::WheelLock lock(v);
  if (lock.error() != 0) return detail::lock_error(lock.error());
  const std::uint64_t now = load(h.now);
  if (ticks > static_cast<std::uint64_t>(kMaxTicks) - now) {
    return Error{Errc::invalid_argument, "delay " + std::to_string(ticks) + " ticks from " + std::to_string(now) +
                                             " would be due past 2^62 ticks, where the clock stops"};
  }
  std::uint32_t link = h.free_head;
  if (link != 0) {
    h.free_head = v.node(link).next;
  } else if (h.high_water < h.capacity) {
    link = ++h.high_water;
  } else {
    return Error{Errc::full, "the shared wheel is full: all " + std::to_string(h.capacity) +
                                 " timers are pending (its capacity, fixed when it was created)"};
  }
  step_boundary();
  fault_point(SharedWheelFault::add_after_pop);
  SharedNode& n = v.node(link);
  n.payload = payload;
  n.expire = now + ticks;
  detail::link_tail(v, static_cast<std::uint32_t>(n.expire % h.num_slots), link);
  step_boundary();
  fault_point(SharedWheelFault::add_after_link);
  const std::uint32_t generation = detail::tag_generation(n.tag);
  store(n.tag, generation << 1 | 1u);
  store(h.count, load(h.count) + 1);
  store(h.ops, load(h.ops) + 1);
  return SharedTimerId{std::uint64_t{generation} << 32 | link};
}

bool SharedTimingWheel::cancel(SharedTimerId id) {
  const auto link = static_cast<std::uint32_t>(id.value & 0xffff'ffffu);
  const auto generation = static_cast<std::uint32_t>(id.value >> 32);
  const SharedView v(base_);
  SharedHeader& h = *v.header;
  if (link == 0 || link > h.capacity || generation > 0x7fff'ffffu) return false;
  detail::WheelLock lock(v);
  if (lock.error() != 0) return false;
  if (link > h.high_water || v.node(link).tag != (generation << 1 | 1u)) return false;
  detail::release(v, link, SharedWheelFault::cancel_after_tag, SharedWheelFault::cancel_after_unlink);
  store(h.ops, load(h.ops) + 1);
  return true;
}

Result<std::vector<std::uint64_t>> SharedTimingWheel::advance(std::int64_t ticks) {
  std::vector<std::uint64_t> fired;
  if (Status s = advance(ticks, fired); !s) return s.error();
  return fired;
}

Status SharedTimingWheel::advance(std::int64_t ticks, std::vector<std::uint64_t>& fired) {
  if (ticks < 0) {
    return Error{Errc::invalid_argument, "advance by " + std::to_string(ticks) + " ticks: time only moves forward"};
  }
  const SharedView v(base_);
  SharedHeader& h = *v.header;
  detail::WheelLock lock(v);
  if (lock.error() != 0) return detail::lock_error(lock.error());
  const std::uint64_t now = load(h.now);
  if (static_cast<std::uint64_t>(ticks) > static_cast<std::uint64_t>(kMaxTicks) - now) {
    return Error{Errc::invalid_argument, "advance by " + std::to_string(ticks) + " ticks from " + std::to_string(now) +
                                             " would take the clock past 2^62"};
  }
  const std::uint64_t target = now + static_cast<std::uint64_t>(ticks);
  const std::uint32_t slots = h.num_slots;
  auto fire = [&](std::uint32_t link) {
    fired.push_back(v.node(link).payload);
    detail::release(v, link, SharedWheelFault::advance_mid_tick, SharedWheelFault::advance_mid_tick);
  };
  if (load(h.count) == 0) {
    // Nothing to visit.
  } else if (static_cast<std::uint64_t>(ticks) < slots) {
    // Tick by tick: the hand visits one bucket per tick and fires what is due there (a timer
    // of a later round stays). The clock moves after each tick's timers are out.
    // Each walk is bounded by the pool's size, so even a damaged list cannot trap the lock.
    for (std::uint64_t t = now + 1; t <= target && load(h.count) > 0; ++t) {
      std::uint32_t link = v.heads[t % slots];
      for (std::uint32_t steps = 0; link != 0 && link <= h.capacity && steps < h.capacity; ++steps) {
        const std::uint32_t next = v.node(link).next;
        if (v.node(link).expire <= t) fire(link);
        link = next;
      }
      store(h.now, t);
    }
  } else {
    // A rotation or more: every bucket is visited once, and what is due by `target` fires in
    // tick order (stable, so ties keep their list order, the order they were added).
    std::vector<std::pair<std::uint64_t, std::uint32_t>> due;
    for (std::uint32_t s = 0; s < slots; ++s) {
      std::uint32_t link = v.heads[s];
      for (std::uint32_t steps = 0; link != 0 && link <= h.capacity && steps < h.capacity; ++steps) {
        if (v.node(link).expire <= target) due.emplace_back(v.node(link).expire, link);
        link = v.node(link).next;
      }
    }
    std::stable_sort(due.begin(), due.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& d : due) fire(d.second);
  }
  store(h.now, target);
  store(h.ops, load(h.ops) + 1);
  return {};
}

void SharedTimingWheel::clear() {
  const SharedView v(base_);
  SharedHeader& h = *v.header;
  detail::WheelLock lock(v);
  if (lock.error() != 0) return;
  // All or nothing: once the flag is up, a repair after a crash finishes the clear.
  h.clearing = 1;
  step_boundary();
  const std::uint32_t used = h.high_water;
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
  std::memset(v.heads, 0, std::size_t{h.num_slots} * sizeof(std::uint32_t));
  h.free_head = 0;
  h.high_water = 0;  // nodes keep their generations for when they are handed out again
  store(h.count, std::uint32_t{0});
  store(h.now, std::uint64_t{0});
  step_boundary();
  h.clearing = 0;
  store(h.ops, load(h.ops) + 1);
}

std::string SharedTimingWheel::check() const {
  const SharedView v(base_);
  detail::WheelLock lock(v);
  if (lock.error() != 0) return detail::lock_error(lock.error()).message;
  return detail::check_shared_wheel(v);
}

std::uint64_t SharedTimingWheel::now() const noexcept { return load(SharedView(base_).header->now); }
std::uint32_t SharedTimingWheel::count() const noexcept { return load(SharedView(base_).header->count); }
std::uint32_t SharedTimingWheel::num_slots() const noexcept { return SharedView(base_).header->num_slots; }
std::uint32_t SharedTimingWheel::capacity() const noexcept { return SharedView(base_).header->capacity; }

SharedWheelStats SharedTimingWheel::stats() const noexcept {
  const SharedHeader& h = *SharedView(base_).header;
  SharedWheelStats s;
  s.now = load(h.now);
  s.count = load(h.count);
  s.num_slots = h.num_slots;
  s.capacity = h.capacity;
  s.cur = static_cast<std::uint32_t>(s.now % h.num_slots);
  s.ops = load(h.ops);
  s.mmap_size = size_;
  s.recoveries = load(h.recoveries);
  return s;
}

}  // namespace cadence
