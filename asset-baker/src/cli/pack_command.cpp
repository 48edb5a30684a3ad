#include "cli/commands.h"

#include "common/terminal_text.h"
#include "pipeline/interrupt.h"
#include "pipeline/pack_folder.h"

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>

namespace baker {
namespace {

// Whether `path` is the file standard output goes to (`pack -o /dev/stdout`): the summary then
// goes to standard error, not into the pack.
bool is_standard_output(const std::filesystem::path& path) {
  struct stat out {
  }, named{};
  return ::fstat(STDOUT_FILENO, &out) == 0 && ::stat(path.c_str(), &named) == 0 &&
         out.st_dev == named.st_dev && out.st_ino == named.st_ino;
}

}  // namespace

int run_pack(const std::filesystem::path& baked_dir, const std::filesystem::path& pack,
             bool quiet) {
  InterruptScope interrupts;  // Ctrl-C removes the temporary instead of leaving it behind
  auto start = std::chrono::steady_clock::now();
  PackSummary summary;
  BakeStatus s = pack_baked_folder(baked_dir, pack, summary);
  if (!s) {
    print_message("error", s.message());
    if (int signal = interrupt_signal(); signal != 0) return 128 + signal;
    return s.code == BakeError::Config ? 2 : 1;
  }
  double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (!quiet) {
    std::fprintf(is_standard_output(pack) ? stderr : stdout,
                 "packed %zu assets (%llu bytes) from %s into %s: %llu bytes in %.1f ms\n",
                 summary.assets, (unsigned long long)summary.asset_bytes,
                 terminal_text(baked_dir.string()).c_str(), terminal_text(pack.string()).c_str(),
                 (unsigned long long)summary.pack_bytes, ms);
  }
  return 0;
}

}  // namespace baker
