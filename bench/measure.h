// assetlib-bench: how it measures. Timing side by side with medians, a progress line, child
// processes measured through a small launcher (wall time, CPU time, peak RSS), and what the
// machine is and how busy it is. Nothing here knows about assets.
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace bench {

// --- Timing -------------------------------------------------------------------------------------
//
// Every comparison in the bench is a set of functions measured in the same loop: after one
// untimed warm-up call each, each round gives every function one sample in turn. A burst of load
// elsewhere on a shared machine then hits all sides of a ratio alike, and the median of the
// samples throws the bursts away.

struct TimingPolicy {
  int samples = 5;                    // timed samples per function
  double min_sample_seconds = 0.002;  // a sample repeats the call until it lasts at least this
  uint64_t max_calls_per_sample = 1u << 16;
};

struct Timing {
  double median = 0;  // seconds per call, median over the samples
  double min = 0;     // fastest sample, seconds per call
  double max = 0;     // slowest sample, seconds per call
  uint64_t calls_per_sample = 0;
  int samples = 0;
  bool ok = false;      // false when any call returned false (then the figures are meaningless)
  bool failed = false;  // this function's call returned false
};

// Seconds on the steady clock.
double now_seconds();

// Median of `values` (mean of the two middle ones for an even count); 0 when empty.
double median_of(std::vector<double> values);

// Measures `functions` side by side as described above. A function returns false on failure,
// which stops the measurement (every Timing then has ok == false).
std::vector<Timing> measure_side_by_side(std::span<const std::function<bool()>> functions,
                                         const TimingPolicy& policy);

// The bytes of the file at `path`; empty when it cannot be read.
std::string read_file_bytes(const std::filesystem::path& path);

// Reads the whole file once so that it sits in the page cache: every load is timed from the
// cache, which measures decode and unpack, not the disk. False when it cannot be read.
bool warm_page_cache(const std::filesystem::path& path);

// A progress line on stderr every few seconds during a long measurement, and its total at the end.
class Progress {
 public:
  Progress(std::string what, size_t total)
      : what_(std::move(what)), total_(total), start_(now_seconds()) {}
  ~Progress() {
    std::fprintf(stderr, "  %s: %zu files in %.1f s\n", what_.c_str(), total_,
                 now_seconds() - start_);
  }

  void step(size_t done) {
    double now = now_seconds();
    if (now - last_ < 10) return;
    last_ = now;
    std::fprintf(stderr, "  %s: %zu/%zu\n", what_.c_str(), done, total_);
  }

 private:
  std::string what_;
  size_t total_;
  double start_;
  double last_ = now_seconds();
};

// --- Child processes ----------------------------------------------------------------------------
//
// Linux carries a process's peak RSS across exec: a child forked from a big process and exec'd
// reports the parent's resident memory as its own ru_maxrss (fork copies the page mappings, exec
// records the old mm's high-water mark). The bench holds hundreds of MiB of decoded images, so it
// never measures a child directly: it starts a fresh copy of itself as a small launcher
// (`--measure-child`), which forks and execs the program and reads wait4()'s rusage.

struct ChildResult {
  bool ran = false;         // the launcher reported back
  int exit_code = -1;       // when the program exited
  int signal = 0;           // when a signal killed it
  double wall_seconds = 0;  // fork to reap, measured by the launcher
  double cpu_seconds = 0;   // user + system
  uint64_t peak_rss = 0;    // bytes (ru_maxrss)
  double others_cpu_seconds =
      0;              // CPU time other processes took meanwhile (set by callers that measure it)
  std::string error;  // why it did not run
};

// Runs `argv` (argv[0] a path or a name on PATH) through the launcher `self`; the program's
// stdout and stderr go to `log_prefix`.out / .err.
ChildResult run_measured(const std::filesystem::path& self, const std::vector<std::string>& argv,
                         const std::filesystem::path& log_prefix);

// The launcher: `--measure-child <result-file> <program> [args...]`. Returns the exit code of
// the launcher itself (0 when it could report).
int launcher_main(int argc, char** argv);

// --- The machine --------------------------------------------------------------------------------

struct Machine {
  std::string cpu, kernel, compiler, build_type, sanitize;
  unsigned cores = 0;
  uint64_t memory = 0;
  std::string loadavg_start, loadavg_end;
  std::string date;
};

// What machine and build produce the figures (the load average at start included).
Machine describe_machine();

// The first line of /proc/loadavg ("1.02 0.87 0.60 2/300 1234"), or "".
std::string read_loadavg();

// /proc/stat counts CPU time in 10 ms ticks: the cores other processes used are only shown for
// runs at least this long.
constexpr double kMinWallForOthers = 0.5;

// A machine on which other processes use fewer cores than this counts as quiet.
constexpr double kQuietCores = 0.15;

// CPU seconds the whole machine has spent busy (all cores, including time stolen by the
// hypervisor), from /proc/stat. The difference over an interval minus a child's own CPU time is
// what other processes took from the machine meanwhile.
double machine_busy_seconds();

// Waits until other processes leave the machine alone: returns once a `window` seconds long
// interval saw them use less than `max_cores` cores, or after `max_wait` seconds. Returns the
// cores others used in the last window.
double wait_for_quiet_machine(double max_wait, double window = 0.5, double max_cores = kQuietCores);

}  // namespace bench
