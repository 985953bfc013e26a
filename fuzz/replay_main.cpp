// Runs the runtime driver on each input named on the command line: a file (a crash file a fuzzing
// run left), or a folder, whose files run in name order (the committed corpus, named by its
// folder: its ~600 paths would pass Windows' 32,767-character command line). The corpus as a
// regression test with any compiler. An unreadable file or a folder with no file is an error.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>
#include <vector>

#include "runtime_driver.hpp"

namespace {

bool run_file(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    std::fprintf(stderr, "cannot read %s\n", path.string().c_str());
    return false;
  }
  const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  cadence::fuzz::run_runtime_input(bytes.data(), bytes.size());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s input-file-or-folder...\n", argv[0]);
    return 2;
  }
  int ran = 0;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path arg(argv[i]);
    std::error_code error;
    if (!std::filesystem::is_directory(arg, error)) {
      if (!run_file(arg)) return 2;
      ++ran;
      continue;
    }
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(arg, error)) {
      if (entry.is_regular_file()) files.push_back(entry.path());
    }
    if (error || files.empty()) {
      std::fprintf(stderr, "the folder %s holds no input to run%s%s\n", argv[i], error ? ": " : "",
                   error ? error.message().c_str() : "");
      return 2;
    }
    std::sort(files.begin(), files.end());
    for (const auto& file : files) {
      if (!run_file(file)) return 2;
      ++ran;
    }
  }
  std::printf("%d inputs ran, no invariant broken\n", ran);
  return 0;
}
