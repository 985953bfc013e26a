// cadence/detail/progress_lane.hpp: a worker's latest-value progress lane (ThreadSender::progress).
//
// Two values live in the lane: the one the UI thread reads (ProgressValue, until its next take)
// and the slot the worker overwrites. A take swaps them, so the worker then writes into the
// storage of the value the UI let go. A report of another type than the one before makes both
// storages at once (the value's, and a vacant spare that the next take hands to the worker),
// outside the lock; a report of the same type assigns into the slot, and no take allocates.
//
// Thread: report() on the worker's thread, take() on the UI thread, each the only one of its
// side; ProgressValue belongs to the UI thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <type_traits>
#include <typeinfo>
#include <utility>

#include "cadence/export.hpp"

namespace cadence::detail {

/// Sleeps while `state` is 2 (held, and a sleeper announced): SlotLock's slow path, out of line
/// so that the sleep and its wake-up always meet in the library: a mutex and condition variable
/// from a table of 16 that locks share by address, not std::atomic::wait (which loses wake-ups
/// in MinGW's standard library, and, inlined into an app, can wait in another pool than the
/// library notifies). Worker or UI thread. Tested by slot_lock_test.cpp.
CADENCE_RUNTIME_API void slot_lock_sleep(const std::atomic<std::uint8_t>& state) noexcept;
/// Wakes whoever sleeps in slot_lock_sleep() on `state` (which has just left 2).
CADENCE_RUNTIME_API void slot_lock_wake(const std::atomic<std::uint8_t>& state) noexcept;

/// The lane's lock: held for one assignment (worker) or one swap (UI thread) at a time. Inline
/// and without <mutex>: uncontended, it costs one compare-exchange and one exchange. A thread
/// that finds it held sleeps in slot_lock_sleep(); unlock wakes a sleeper only when one said it
/// sleeps (state 2), so the common case calls nothing out of line.
class SlotLock {
 public:
  void lock() noexcept {
    std::uint8_t seen = 0;
    if (state_.compare_exchange_strong(seen, 1, std::memory_order_acquire)) return;
    if (seen != 2) seen = state_.exchange(2, std::memory_order_acquire);
    while (seen != 0) {
      slot_lock_sleep(state_);
      seen = state_.exchange(2, std::memory_order_acquire);
    }
  }
  void unlock() noexcept {
    if (state_.exchange(0, std::memory_order_release) == 2) slot_lock_wake(state_);
  }
  /// Holds the lock for a scope, released also when what the scope does throws.
  class Held {
   public:
    explicit Held(SlotLock& lock) noexcept : lock_(lock) { lock_.lock(); }
    Held(const Held&) = delete;
    Held& operator=(const Held&) = delete;
    ~Held() { lock_.unlock(); }

   private:
    SlotLock& lock_;
  };

 private:
  std::atomic<std::uint8_t> state_{0};  // 0 free, 1 held, 2 held and someone may sleep on it
};

/// The newest progress value the UI took from a lane: empty before the first take.
class ProgressValue {
 public:
  /// The value if it is a T, else nullptr. O(1).
  template <class T>
  const T* get() const noexcept {
    if (!box_ || box_->type() != typeid(T)) return nullptr;
    const std::optional<T>& v = static_cast<const Holder<T>*>(box_.get())->value;
    return v ? &*v : nullptr;
  }

 private:
  friend class ProgressLane;
  struct Box {
    virtual ~Box() = default;
    virtual const std::type_info& type() const noexcept = 0;
  };
  /// Storage for one T that outlives the T itself (vacant: no value), so the lane can reuse it.
  template <class T>
  struct Holder final : Box {
    const std::type_info& type() const noexcept override { return typeid(T); }
    std::optional<T> value;
  };
  std::unique_ptr<Box> box_;
};

class ProgressLane {
 public:
  /// Worker: makes `value` the newest report. True when it is the first since the UI's last
  /// take (the caller then wakes the UI: once per frame at most). Cost: an uncontended lock and
  /// an assignment; a report of another type than the one before makes the lane's two storages
  /// instead, before taking the lock. If the value's copy throws, the lock is released: a new
  /// type's report changes nothing, and an assignment over a value the UI has not taken yet
  /// leaves that value as the type's assignment left it.
  template <class V>
  bool report(V&& value) {
    using D = std::decay_t<V>;
    using Holder = ProgressValue::Holder<D>;
    if (type_ != nullptr && *type_ == typeid(D)) {
      // The slot holds a D (its last report's, or the vacant storage a take handed back).
      const SlotLock::Held held(lock_);
      std::optional<D>& slot = static_cast<Holder*>(slot_.get())->value;
      if constexpr (std::is_assignable_v<D&, V&&>) {
        if (slot) {
          *slot = std::forward<V>(value);
        } else {
          slot.emplace(std::forward<V>(value));
        }
      } else {
        slot.emplace(std::forward<V>(value));
      }
      waiting_ = true;
    } else {
      auto fresh = std::make_unique<Holder>();
      fresh->value.emplace(std::forward<V>(value));
      std::unique_ptr<ProgressValue::Box> spare = std::make_unique<Holder>();
      std::unique_ptr<ProgressValue::Box> old_slot;
      {
        const SlotLock::Held held(lock_);
        old_slot = std::exchange(slot_, std::move(fresh));
        spare.swap(spare_);  // `spare` now holds the old spare, if any
        waiting_ = true;
      }
      type_ = &typeid(D);
      // old_slot and the old spare are destroyed here, on the worker's thread, after the lock.
    }
    return !fresh_.exchange(true, std::memory_order_seq_cst);
  }

  /// UI: swaps the newest report into `latest`, whose storage goes back to the worker; false
  /// (and `latest` unchanged) when nothing was reported since the last take. A value of a type
  /// the worker no longer reports is destroyed here, after the lock. Cost: one exchange when
  /// nothing came, else a lock and a swap; never an allocation.
  bool take(ProgressValue& latest) {
    if (!fresh_.exchange(false, std::memory_order_seq_cst)) return false;
    std::unique_ptr<ProgressValue::Box> dropped;
    {
      const SlotLock::Held held(lock_);
      if (!std::exchange(waiting_, false)) return false;
      std::swap(latest.box_, slot_);
      // The slot must hold the worker's type: `latest`'s old storage if it has it, else the spare.
      dropped = (slot_ == nullptr || slot_->type() != latest.box_->type()) ? std::exchange(slot_, std::move(spare_))
                                                                           : std::move(spare_);
    }
    return true;
  }

  /// Whether a report waits that the UI has not taken. Thread: any (an atomic load).
  bool fresh() const noexcept { return fresh_.load(std::memory_order_seq_cst); }

 private:
  SlotLock lock_;
  std::unique_ptr<ProgressValue::Box> slot_;   // under lock_: the newest report while waiting_
  std::unique_ptr<ProgressValue::Box> spare_;  // under lock_: vacant storage of the slot's type
  bool waiting_ = false;                       // under lock_
  // Set by the first report since the UI last took one; that report wakes the UI.
  std::atomic<bool> fresh_{false};
  const std::type_info* type_ = nullptr;  // the worker's: the type of its last report
};

}  // namespace cadence::detail
