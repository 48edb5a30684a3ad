// Runs a fuzz target's entry point over files, without libFuzzer: the regression test of each
// target in normal and sanitizer builds. Usage: <target>_replay <file-or-folder>...
// Folders are walked recursively in sorted order; README.md and dot files are skipped. Each path is
// printed before it runs, so a crash names its input. An input running longer than
// $FUZZ_REPLAY_TIMEOUT seconds (default 30, like libFuzzer's -timeout) is a hang: reported,
// aborted. Exit 0 when every input ran; a finding aborts.
#include <algorithm>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace fs = std::filesystem;

namespace {

void on_alarm(int) {
  const char message[] = "replay: TIMEOUT: the input above ran too long (a hang)\n";
  ssize_t ignored = write(2, message, sizeof message - 1);
  (void)ignored;
  std::abort();
}

bool skipped(const fs::path& p) {
  std::string name = p.filename().string();
  return name.empty() || name[0] == '.' || name == "README.md";
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<fs::path> inputs;
  for (int i = 1; i < argc; ++i) {
    fs::path arg = argv[i];
    std::error_code ec;
    if (fs::is_directory(arg, ec)) {
      for (const auto& entry : fs::recursive_directory_iterator(arg)) {
        if (entry.is_regular_file() && !skipped(entry.path())) inputs.push_back(entry.path());
      }
    } else if (fs::is_regular_file(arg, ec)) {
      inputs.push_back(arg);
    } else {
      std::fprintf(stderr, "replay: %s: no such file or folder\n", argv[i]);
      return 2;
    }
  }
  std::sort(inputs.begin(), inputs.end());
  const char* limit = std::getenv("FUZZ_REPLAY_TIMEOUT");
  unsigned seconds = limit ? unsigned(std::strtoul(limit, nullptr, 10)) : 30;
  std::signal(SIGALRM, on_alarm);
  for (const fs::path& path : inputs) {
    std::printf("replay %s\n", path.c_str());
    std::fflush(stdout);
    std::ifstream in(path, std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    // An exact-size heap copy, as libFuzzer passes it: reading past the input is a finding.
    std::vector<uint8_t> data(bytes.begin(), bytes.end());
    alarm(seconds);
    LLVMFuzzerTestOneInput(data.data(), data.size());
    alarm(0);
  }
  std::printf("replayed %zu inputs, no finding\n", inputs.size());
  return 0;
}
