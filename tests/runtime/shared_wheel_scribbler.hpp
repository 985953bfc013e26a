// The shared wheel tests' own mapping of a memfd wheel: the bytes as another process would see
// them, to read and to damage (shared_wheel_layout.hpp says where each part sits).
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>

#include "shared_wheel_layout.hpp"

namespace cadence::testing {

class Scribbler {
 public:
  Scribbler(int fd, std::uint32_t slots, std::uint32_t capacity)
      : slots_(slots), size_(detail::mapping_bytes(slots, capacity)) {
    base_ = ::mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  }
  ~Scribbler() {
    if (base_ != MAP_FAILED) ::munmap(base_, size_);
  }
  Scribbler(const Scribbler&) = delete;
  Scribbler& operator=(const Scribbler&) = delete;

  bool ok() const { return base_ != MAP_FAILED; }
  detail::SharedHeader& header() const { return *static_cast<detail::SharedHeader*>(base_); }
  std::uint32_t& head(std::uint32_t slot) const {
    return reinterpret_cast<std::uint32_t*>(static_cast<char*>(base_) + detail::heads_offset())[slot];
  }
  detail::SharedNode& node(std::uint32_t link) const {
    return reinterpret_cast<detail::SharedNode*>(static_cast<char*>(base_) + detail::nodes_offset(slots_))[link - 1];
  }

 private:
  std::uint32_t slots_;
  std::size_t size_;
  void* base_;
};

}  // namespace cadence::testing
