// Baseline: the channel most code would write: a std::deque behind a std::mutex, with a flag so
// that only the first message of a batch wakes the reader (the same doorbell rule as cadence's).
#pragma once

#include <deque>
#include <mutex>
#include <optional>

namespace cadence::bench {

template <class T>
class MutexChannel {
 public:
  /// Returns true when this message started a batch (the reader should be woken).
  bool send(T value) {
    std::lock_guard lock(mutex_);
    items_.push_back(std::move(value));
    const bool first = !signalled_;
    signalled_ = true;
    return first;
  }
  std::optional<T> receive() {
    std::lock_guard lock(mutex_);
    if (items_.empty()) {
      signalled_ = false;
      return std::nullopt;
    }
    T out = std::move(items_.front());
    items_.pop_front();
    return out;
  }

 private:
  std::mutex mutex_;
  std::deque<T> items_;
  bool signalled_ = false;
};

}  // namespace cadence::bench
