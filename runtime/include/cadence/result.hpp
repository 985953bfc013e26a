// cadence/result.hpp: expected failures as values.
//
// A call that can fail for a reason the caller may expect (a bad argument, a stale handle, an
// empty queue) returns `Result<T>`: either a value or an `Error` whose message names the value
// and the rule it broke.
//
//     #include <cadence/result.hpp>
//     #include <string>
//     using namespace cadence;
//     Result<int> parse(const std::string& text);
//     void log(const std::string& message);
//     void use(int value);
//     Result<int> r = parse("42");
//     if (!r) { log(r.error().message); return; }
//     use(*r);
//
// For everything in this header: Thread: any; a value belongs to whoever holds it, like any other.
// Where: anywhere.
// Errors: none; reading the wrong alternative is a contract violation: it throws BadResultAccess.
// Cost: O(1); a Result allocates nothing beyond its T or Error.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>

#include "cadence/export.hpp"

namespace cadence {

/// What kind of failure an `Error` reports. The message carries the details.
enum class Errc : std::uint8_t {
  invalid_argument,   ///< a value outside the documented range
  not_found,          ///< an id or handle that does not name a live entry
  stale,              ///< a handle whose slot has since been reused
  already_cancelled,  ///< the entry was cancelled before
  mismatch,           ///< the handle is live but the caller's data does not match it
  empty,              ///< the container holds nothing to return
  clock_mismatch,     ///< instants from two different clock kinds were combined
  already_exists,     ///< an id that is already taken
  callback_threw,     ///< a callback threw; the message is the exception's
  clock_went_backwards,  ///< the time source returned an earlier time than before
  reentrant_call,     ///< a call made from inside a callback that must not make it
  closed,             ///< the other end is gone: a finished thread, a runtime being destroyed, a moved-from object
  resource,           ///< the system refused a resource (a thread could not be created)
  full,               ///< a fixed-size container has no room left
  unsafe,             ///< a file that is not safe to use (a symlink, another user's file)
  corrupt,            ///< stored data that is not what it must be (a damaged header)
  system,             ///< an operating-system call failed; the message has its reason
  wrong_thread,       ///< a call from a thread that may not make it (a UI-thread-only object)
};

/// A short, stable name for `code` ("invalid_argument", ...).
CADENCE_RUNTIME_API const char* to_string(Errc code) noexcept;

/// A failure: its kind and a message that says what was wrong and what the rule is.
struct Error {
  Errc code;
  std::string message;
};

/// Thrown only when a caller reads `value()` of a failed Result or `error()` of a good one.
class BadResultAccess : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

/// Either a `T` or an `Error`. Its size is the larger alternative's; no allocation for T.
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::in_place_index<0>, std::move(value)) {}  // NOLINT: implicit
  Result(Error error) : state_(std::in_place_index<1>, std::move(error)) {}  // NOLINT: implicit

  bool ok() const noexcept { return state_.index() == 0; }
  explicit operator bool() const noexcept { return ok(); }

  /// The value (also through * and ->); for an error, BadResultAccess with the error's message.
  T& value() & { check_value(); return std::get<0>(state_); }
  const T& value() const& { check_value(); return std::get<0>(state_); }
  T&& value() && { check_value(); return std::get<0>(std::move(state_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  /// The error; for a value, BadResultAccess.
  const Error& error() const {
    if (ok()) throw BadResultAccess("Result::error() called on a value; check ok() first");
    return std::get<1>(state_);
  }

 private:
  void check_value() const {
    if (!ok()) {
      throw BadResultAccess("Result::value() called on an error: " + std::get<1>(state_).message);
    }
  }
  std::variant<T, Error> state_;
};

/// A Result that carries no value: success, or an Error.
template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error error) : error_(std::move(error)), failed_(true) {}  // NOLINT: implicit

  bool ok() const noexcept { return !failed_; }
  explicit operator bool() const noexcept { return ok(); }
  const Error& error() const {
    if (ok()) throw BadResultAccess("Result::error() called on success; check ok() first");
    return error_;
  }

 private:
  Error error_{Errc::invalid_argument, {}};
  bool failed_ = false;
};

using Status = Result<void>;

}  // namespace cadence
