// guarded_call.hpp: the one way cadence calls app code that may throw.
#pragma once

#include <exception>
#include <optional>
#include <string>
#include <utility>

#include "cadence/result.hpp"

namespace cadence::detail {

/// Calls `f()`. Whatever it throws stays here: the result is the error `callback_threw`, with
/// the message "<what> threw: <e.what()>", or "<what> threw something that is not a
/// std::exception"; nullopt when it returned. Cost: the call (no allocation unless it throws).
template <class F>
std::optional<Error> guarded_call(const char* what, F&& f) {
  try {
    std::forward<F>(f)();
    return std::nullopt;
  } catch (const std::exception& e) {
    return Error{Errc::callback_threw, std::string(what) + " threw: " + e.what()};
  } catch (...) {
    return Error{Errc::callback_threw, std::string(what) + " threw something that is not a std::exception"};
  }
}

}  // namespace cadence::detail
