// Must not compile: a progress value that can be neither copied nor moved. The test expects the
// compiler's message to name the rule (ThreadSender::progress's static_assert).
#include <mutex>

#include "cadence/thread.hpp"

int main() {
  struct None {};
  cadence::Thread t = cadence::Thread::create(0, None{}, [](int, cadence::ThreadSender<None>& out, cadence::ThreadReceiver&) {
    std::mutex m;  // neither copyable nor movable
    out.progress(m);
  });
  (void)t;
}
