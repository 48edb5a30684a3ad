// assetlib-bench: running a program as a measured child process (wall time, CPU time, peak RSS).
//
// Linux carries a process's peak RSS across exec: a child forked from a big process and exec'd
// reports the parent's resident memory as its own ru_maxrss (fork copies the page mappings, exec
// records the old mm's high-water mark). The bench holds hundreds of MiB of decoded images, so it
// never measures a child directly: it starts a fresh copy of itself as a small launcher
// (`--measure-child`), which forks and execs the program and reads wait4()'s rusage.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace bench {

struct ChildResult {
  bool ran = false;          // the launcher reported back
  int exit_code = -1;        // when the program exited
  int signal = 0;            // when a signal killed it
  double wall_seconds = 0;   // fork to reap, measured by the launcher
  double cpu_seconds = 0;    // user + system
  uint64_t peak_rss = 0;     // bytes (ru_maxrss)
  double others_cpu_seconds = 0;  // CPU time other processes took meanwhile (set by callers that measure it)
  std::string error;         // why it did not run
};

// Runs `argv` (argv[0] a path or a name on PATH) through the launcher `self`; the program's
// stdout and stderr go to `log_prefix`.out / .err.
ChildResult run_measured(const std::filesystem::path& self, const std::vector<std::string>& argv,
                         const std::filesystem::path& log_prefix);

// The launcher: `--measure-child <result-file> <program> [args...]`. Returns the exit code of
// the launcher itself (0 when it could report).
int launcher_main(int argc, char** argv);

}  // namespace bench
