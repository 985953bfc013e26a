// Baseline: libuv's timers (uv_timer_start / uv_timer_stop on one loop), Debian's libuv1-dev.
// libuv keeps timers in an intrusive binary heap of uv_timer_t handles. Only schedule and
// cancel are measured: libuv reads the real clock when it runs timers, so it cannot be driven
// through simulated 16 ms frames.
#pragma once

#include <uv.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

#include "cadence/timer_queue.hpp"

namespace cadence::bench {

class LibuvQueue {
 public:
  explicit LibuvQueue(std::size_t capacity) : handles_(capacity) {
    if (uv_loop_init(&loop_) != 0) throw std::runtime_error("uv_loop_init failed");
    for (std::size_t i = 0; i < capacity; ++i) {
      uv_timer_init(&loop_, &handles_[i]);
      free_.push_back(static_cast<std::uint32_t>(i));
    }
  }
  ~LibuvQueue() {
    for (auto& h : handles_) uv_close(reinterpret_cast<uv_handle_t*>(&h), nullptr);
    uv_run(&loop_, UV_RUN_DEFAULT);
    uv_loop_close(&loop_);
  }
  LibuvQueue(const LibuvQueue&) = delete;
  LibuvQueue& operator=(const LibuvQueue&) = delete;

  QueueId schedule(Ticks after, Token token) {
    const std::uint32_t i = free_.back();
    free_.pop_back();
    uv_timer_t& h = handles_[i];
    h.data = reinterpret_cast<void*>(static_cast<std::uintptr_t>(token));
    uv_timer_start(&h, &on_timer, static_cast<std::uint64_t>(after.count() < 1 ? 1 : after.count()), 0);
    return QueueId{i + 1};
  }

  bool cancel(QueueId id) {
    uv_timer_t& h = handles_[id.value - 1];
    if (!uv_is_active(reinterpret_cast<uv_handle_t*>(&h))) return false;
    uv_timer_stop(&h);
    free_.push_back(static_cast<std::uint32_t>(id.value - 1));
    return true;
  }

 private:
  static void on_timer(uv_timer_t*) {}

  uv_loop_t loop_{};
  std::vector<uv_timer_t> handles_;
  std::vector<std::uint32_t> free_;
};

}  // namespace cadence::bench
