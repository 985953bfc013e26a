// cadence/detail/spsc_queue.hpp: an unbounded single-producer single-consumer queue.
//
// The worker-to-UI channel. One thread pushes, one thread pops, and neither ever waits for the
// other: items go into blocks of kBlockSize slots that are linked as they fill. The producer
// publishes an item with one store; the consumer sees it with one load. Both are seq_cst rather
// than release/acquire so that a caller can pair them with a flag on the other side (see
// ThreadCore: "publish, then look at the flag" against "set the flag, then look at the queue")
// without a fence; on x86 the store is one xchg instead of mov + mfence. A drained
// block goes back to the producer through a one-slot spare, so a steady stream allocates
// nothing. Unbounded, so a sender never blocks and nothing is dropped; memory follows what is
// queued (about sizeof(T) per item, plus one block).
//
// Thread: push() from one thread at a time (the producer), pop() and empty() from one thread at
// a time (the consumer). Destroy it when neither is using it.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <new>
#include <optional>
#include <utility>

namespace cadence::detail {

template <class T, std::size_t kBlockSize = 256>
class SpscQueue {
 public:
  SpscQueue() : head_(new Block), tail_(head_) {}
  ~SpscQueue() {
    while (pop()) {
    }
    Block* b = head_;
    while (b != nullptr) {
      Block* next = b->next.load(std::memory_order_relaxed);
      delete b;
      b = next;
    }
    delete spare_.load(std::memory_order_relaxed);
  }
  SpscQueue(const SpscQueue&) = delete;
  SpscQueue& operator=(const SpscQueue&) = delete;

  /// Producer: appends `value`. O(1); allocates a block once every kBlockSize pushes unless the
  /// consumer has returned one. Throws std::bad_alloc when memory runs out (nothing is queued).
  void push(T value) {
    if (tail_index_ == kBlockSize) {
      Block* fresh = spare_.exchange(nullptr, std::memory_order_acquire);
      if (fresh == nullptr) {
        fresh = new Block;
      } else {
        fresh->published.store(0, std::memory_order_relaxed);
        fresh->next.store(nullptr, std::memory_order_relaxed);
      }
      tail_->next.store(fresh, std::memory_order_seq_cst);
      tail_ = fresh;
      tail_index_ = 0;
    }
    ::new (tail_->slot(tail_index_)) T(std::move(value));
    ++tail_index_;
    tail_->published.store(tail_index_, std::memory_order_seq_cst);
  }

  /// Consumer: the oldest item, or nullopt when the queue is empty. O(1). Reads the producer's
  /// count only when the items it saw last time are used up, so a busy queue does not bounce
  /// that cache line between the two threads for every item.
  std::optional<T> pop() {
    if (head_index_ == kBlockSize) {
      Block* next = head_->next.load(std::memory_order_acquire);
      if (next == nullptr) return std::nullopt;
      recycle(head_);
      head_ = next;
      head_index_ = 0;
      head_seen_ = 0;
    }
    if (head_index_ == head_seen_) {
      head_seen_ = head_->published.load(std::memory_order_seq_cst);
      if (head_index_ == head_seen_) return std::nullopt;
    }
    T* item = std::launder(reinterpret_cast<T*>(head_->slot(head_index_)));
    std::optional<T> out(std::move(*item));
    item->~T();
    ++head_index_;
    return out;
  }

  /// Consumer: true when pop() would return nothing. O(1).
  bool empty() const {
    if (head_index_ == kBlockSize) return head_->next.load(std::memory_order_seq_cst) == nullptr;
    return head_index_ == head_->published.load(std::memory_order_seq_cst);
  }

 private:
  struct Block {
    alignas(64) std::atomic<std::size_t> published{0};  // slots [0, published) hold items
    std::atomic<Block*> next{nullptr};
    alignas(T) unsigned char storage[kBlockSize * sizeof(T)];
    void* slot(std::size_t i) noexcept { return storage + i * sizeof(T); }
  };

  void recycle(Block* drained) {
    Block* old = spare_.exchange(drained, std::memory_order_release);
    delete old;
  }

  // Consumer side.
  alignas(64) Block* head_;
  std::size_t head_index_ = 0;
  std::size_t head_seen_ = 0;  // the producer's count when the consumer last read it
  // Producer side.
  alignas(64) Block* tail_;
  std::size_t tail_index_ = 0;
  // Shared: a drained block handed back to the producer.
  alignas(64) std::atomic<Block*> spare_{nullptr};
};

}  // namespace cadence::detail
