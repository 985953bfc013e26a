// libFuzzer's entry point for the runtime driver (built with clang -fsanitize=fuzzer).
#include <cstddef>
#include <cstdint>

#include "runtime_driver.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  cadence::fuzz::run_runtime_input(data, size);
  return 0;
}
