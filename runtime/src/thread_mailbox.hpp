// ThreadMailbox: the part of a worker's core that blocks: the app's messages to the worker,
// with the condition variable receive_for() sleeps on. Private to the library, so that
// thread.hpp need not pull <mutex>, <condition_variable> and <deque> into the app's files;
// ThreadCore holds one by pointer.
#pragma once

#include <condition_variable>
#include <deque>
#include <mutex>

#include "cadence/payload.hpp"

namespace cadence::detail {

struct ThreadMailbox {
  std::mutex inbox_mutex;
  std::condition_variable inbox_cv;
  std::deque<Payload> inbox;
};

}  // namespace cadence::detail
