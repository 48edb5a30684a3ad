#include "cli/commands.h"

#include "common/terminal_text.h"
#include "pipeline/interrupt.h"
#include "pipeline/pack_folder.h"

#include <chrono>
#include <cstdio>

namespace baker {

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
    std::printf("packed %zu assets (%llu bytes) from %s into %s: %llu bytes in %.1f ms\n",
                summary.assets, (unsigned long long)summary.asset_bytes,
                terminal_text(baked_dir.string()).c_str(), terminal_text(pack.string()).c_str(),
                (unsigned long long)summary.pack_bytes, ms);
  }
  return 0;
}

}  // namespace baker
