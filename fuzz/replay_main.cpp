// Runs the runtime driver on each file named on the command line (the committed corpus, or a
// crash file a fuzzing run left): the corpus as a regression test with any compiler.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <vector>

#include "runtime_driver.hpp"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s input-file...\n", argv[0]);
    return 2;
  }
  for (int i = 1; i < argc; ++i) {
    std::ifstream file(argv[i], std::ios::binary);
    if (!file) {
      std::fprintf(stderr, "cannot read %s\n", argv[i]);
      return 2;
    }
    const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    cadence::fuzz::run_runtime_input(bytes.data(), bytes.size());
  }
  std::printf("%d inputs ran, no invariant broken\n", argc - 1);
  return 0;
}
