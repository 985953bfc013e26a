// cadence/payload.hpp: a value of any type, moved between threads.
//
// What the UI sends a worker in a Custom message. Like std::any, but move-only, so it can carry
// a std::unique_ptr, a file handle or a large buffer without copying. Reading it as the wrong
// type is an error value, not undefined behaviour.
//
//     #include <cadence/payload.hpp>
//     #include <string>
//     using namespace cadence;
//     struct Query { std::string sql; };
//     auto run = [](const Query& q) { return q.sql.size(); };
//     Payload p = Payload::of(Query{"SELECT ..."});
//     if (Query* q = p.get<Query>()) run(*q);
//     Result<Query> taken = std::move(p).take<Query>();
//
// For every member: Thread: any; a Payload belongs to its holder, and its last holder destroys its value.
// Where: anywhere; it runs no code but the held value's own (construction, moves, destruction).
// Errors: none.
// Cost: O(1).
#pragma once

#include <memory>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <utility>

#include "cadence/result.hpp"

namespace cadence {

class Payload {
 public:
  /// An empty payload.
  Payload() = default;
  /// A payload holding `value` (moved in).
  /// Cost: one allocation.
  template <class T, class D = std::decay_t<T>>
    requires(!std::is_same_v<D, Payload>)
  static Payload of(T&& value) {
    Payload p;
    p.box_ = std::make_unique<Holder<D>>(std::forward<T>(value));
    return p;
  }

  bool has_value() const noexcept { return box_ != nullptr; }
  /// The name of the held type (std::type_info::name), or "empty".
  const char* type_name() const noexcept { return box_ ? box_->type().name() : "empty"; }

  /// The held value if it is a T, else nullptr.
  template <class T>
  T* get() noexcept {
    if (!box_ || box_->type() != typeid(T)) return nullptr;
    return &static_cast<Holder<T>*>(box_.get())->value;
  }
  template <class T>
  const T* get() const noexcept {
    if (!box_ || box_->type() != typeid(T)) return nullptr;
    return &static_cast<const Holder<T>*>(box_.get())->value;
  }
  /// Moves the value out, leaving the payload empty.
  /// Errors: mismatch (it holds another type, or nothing), the payload unchanged.
  template <class T>
  Result<T> take() && {
    T* v = get<T>();
    if (v == nullptr) {
      return Error{Errc::mismatch, std::string("the payload holds ") + type_name() + ", not " + typeid(T).name()};
    }
    T out = std::move(*v);
    box_.reset();
    return out;
  }

 private:
  struct Box {
    virtual ~Box() = default;
    virtual const std::type_info& type() const noexcept = 0;
  };
  template <class T>
  struct Holder final : Box {
    template <class U>
    explicit Holder(U&& v) : value(std::forward<U>(v)) {}
    const std::type_info& type() const noexcept override { return typeid(T); }
    T value;
  };
  std::unique_ptr<Box> box_;
};

}  // namespace cadence
