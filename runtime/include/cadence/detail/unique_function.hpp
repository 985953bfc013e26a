// cadence/detail/unique_function.hpp: a move-only std::function.
//
// std::function needs a copyable callable; a write-back that carries a std::unique_ptr or a big
// vector is not. Small callables (up to kInline bytes) live inside the object; larger ones cost
// one allocation.
#pragma once

#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

namespace cadence::detail {

template <class Signature>
class UniqueFunction;

template <class R, class... Args>
class UniqueFunction<R(Args...)> {
 public:
  static constexpr std::size_t kInline = 48;

  UniqueFunction() = default;
  template <class F, class D = std::decay_t<F>>
    requires(!std::is_same_v<D, UniqueFunction> && std::is_invocable_r_v<R, D&, Args...>)
  UniqueFunction(F&& f) {  // NOLINT: implicit, like std::function
    if constexpr (sizeof(D) <= kInline && alignof(D) <= alignof(std::max_align_t) &&
                  std::is_nothrow_move_constructible_v<D>) {
      ::new (storage_) D(std::forward<F>(f));
      ops_ = &inline_ops<D>;
    } else {
      *reinterpret_cast<D**>(storage_) = new D(std::forward<F>(f));
      ops_ = &heap_ops<D>;
    }
  }
  UniqueFunction(UniqueFunction&& other) noexcept : ops_(other.ops_) {
    if (ops_ != nullptr) ops_->move(other.storage_, storage_);
    other.ops_ = nullptr;
  }
  UniqueFunction& operator=(UniqueFunction&& other) noexcept {
    if (this != &other) {
      reset();
      ops_ = other.ops_;
      if (ops_ != nullptr) ops_->move(other.storage_, storage_);
      other.ops_ = nullptr;
    }
    return *this;
  }
  UniqueFunction(const UniqueFunction&) = delete;
  UniqueFunction& operator=(const UniqueFunction&) = delete;
  ~UniqueFunction() { reset(); }

  explicit operator bool() const noexcept { return ops_ != nullptr; }
  R operator()(Args... args) { return ops_->call(storage_, std::forward<Args>(args)...); }

 private:
  struct Ops {
    R (*call)(void*, Args&&...);
    void (*move)(void* from, void* to) noexcept;
    void (*destroy)(void*) noexcept;
  };
  template <class D>
  static constexpr Ops inline_ops = {
      [](void* s, Args&&... a) -> R { return (*static_cast<D*>(s))(std::forward<Args>(a)...); },
      [](void* from, void* to) noexcept {
        ::new (to) D(std::move(*static_cast<D*>(from)));
        static_cast<D*>(from)->~D();
      },
      [](void* s) noexcept { static_cast<D*>(s)->~D(); }};
  template <class D>
  static constexpr Ops heap_ops = {
      [](void* s, Args&&... a) -> R { return (**static_cast<D**>(s))(std::forward<Args>(a)...); },
      [](void* from, void* to) noexcept { *static_cast<D**>(to) = *static_cast<D**>(from); },
      [](void* s) noexcept { delete *static_cast<D**>(s); }};

  void reset() noexcept {
    if (ops_ != nullptr) ops_->destroy(storage_);
    ops_ = nullptr;
  }

  alignas(std::max_align_t) unsigned char storage_[kInline];
  const Ops* ops_ = nullptr;
};

}  // namespace cadence::detail
