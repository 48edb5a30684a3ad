#include "measure.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <ctime>
#include <fstream>
#include <memory>
#include <sstream>
#include <thread>

extern char** environ;

namespace bench {

// --- Timing -------------------------------------------------------------------------------------

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double median_of(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  size_t mid = values.size() / 2;
  return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

std::vector<Timing> measure_side_by_side(std::span<const std::function<bool()>> functions,
                                         const TimingPolicy& policy) {
  const size_t n = functions.size();
  std::vector<Timing> out(n);
  std::vector<std::vector<double>> samples(n);
  auto fail = [&](size_t i) {
    out[i].failed = true;
    return out;
  };
  // Warm-up (first touch of buffers, file already in the page cache), then one more call to
  // learn how many calls make a sample long enough for the clock.
  for (size_t i = 0; i < n; ++i) {
    if (!functions[i]()) return fail(i);
    double start = now_seconds();
    if (!functions[i]()) return fail(i);
    double once = std::max(now_seconds() - start, 1e-9);
    double wanted = std::ceil(policy.min_sample_seconds / once);
    out[i].calls_per_sample =
        std::clamp<uint64_t>(uint64_t(wanted), 1, policy.max_calls_per_sample);
  }
  for (int round = 0; round < std::max(1, policy.samples); ++round) {
    for (size_t i = 0; i < n; ++i) {
      double start = now_seconds();
      for (uint64_t c = 0; c < out[i].calls_per_sample; ++c) {
        if (!functions[i]()) return fail(i);
      }
      samples[i].push_back((now_seconds() - start) / double(out[i].calls_per_sample));
    }
  }
  for (size_t i = 0; i < n; ++i) {
    out[i].median = median_of(samples[i]);
    out[i].min = *std::min_element(samples[i].begin(), samples[i].end());
    out[i].max = *std::max_element(samples[i].begin(), samples[i].end());
    out[i].samples = int(samples[i].size());
    out[i].ok = true;
  }
  return out;
}

std::string read_file_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

bool warm_page_cache(const std::filesystem::path& path) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) return false;
  static char buffer[1 << 16];
  while (std::fread(buffer, 1, sizeof buffer, f.get()) == sizeof buffer) {
  }
  return std::ferror(f.get()) == 0;
}

// --- Child processes ----------------------------------------------------------------------------

ChildResult run_measured(const std::filesystem::path& self, const std::vector<std::string>& argv,
                         const std::filesystem::path& log_prefix) {
  ChildResult result;
  std::string result_file = log_prefix.string() + ".rusage";
  std::string out_file = log_prefix.string() + ".out", err_file = log_prefix.string() + ".err";
  std::filesystem::remove(result_file);

  std::vector<std::string> args = {self.string(), "--measure-child", result_file};
  args.insert(args.end(), argv.begin(), argv.end());
  std::vector<char*> c_args;
  for (std::string& a : args) c_args.push_back(a.data());
  c_args.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out_file.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err_file.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, c_args[0], &actions, nullptr, c_args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    result.error = "cannot start " + self.string() + ": " + std::strerror(rc);
    return result;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  std::ifstream in(result_file);
  uint64_t rss_kib = 0;
  if (!(in >> result.exit_code >> result.signal >> result.wall_seconds >> result.cpu_seconds >>
        rss_kib)) {
    std::ifstream err(err_file);
    std::string first_line;
    std::getline(err, first_line);
    result.error = "the launcher did not report (" + first_line + ")";
    return result;
  }
  result.peak_rss = rss_kib * 1024;
  result.ran = true;
  if (result.exit_code == 127 && result.signal == 0) result.error = "cannot execute " + argv.at(0);
  return result;
}

int launcher_main(int argc, char** argv) {
  if (argc < 4) {
    std::fputs("usage: --measure-child <result-file> <program> [args...]\n", stderr);
    return 2;
  }
  const char* result_file = argv[2];
  char** program = argv + 3;
  double start = now_seconds();
  pid_t pid = fork();
  if (pid < 0) {
    std::perror("fork");
    return 1;
  }
  if (pid == 0) {
    execvp(program[0], program);
    std::fprintf(stderr, "cannot execute %s: %s\n", program[0], std::strerror(errno));
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  while (wait4(pid, &status, 0, &usage) < 0) {
    if (errno != EINTR) {
      std::perror("wait4");
      return 1;
    }
  }
  double wall = now_seconds() - start;
  double cpu = double(usage.ru_utime.tv_sec) + double(usage.ru_utime.tv_usec) * 1e-6 +
               double(usage.ru_stime.tv_sec) + double(usage.ru_stime.tv_usec) * 1e-6;
  int exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  int signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  std::FILE* f = std::fopen(result_file, "w");
  if (!f) {
    std::perror(result_file);
    return 1;
  }
  std::fprintf(f, "%d %d %.9f %.9f %ld\n", exit_code, signal, wall, cpu, usage.ru_maxrss);
  return std::fclose(f) == 0 ? 0 : 1;
}

// --- The machine --------------------------------------------------------------------------------

namespace {

// The value of the first "key: value" line of a /proc file starting with `key`, or "".
std::string proc_value(const char* file, const std::string& key) {
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(key, 0) != 0) continue;
    size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    size_t start = line.find_first_not_of(" \t", colon + 1);
    return start == std::string::npos ? "" : line.substr(start);
  }
  return {};
}

}  // namespace

std::string read_loadavg() {
  std::ifstream in("/proc/loadavg");
  std::string line;
  std::getline(in, line);
  return line;
}

double machine_busy_seconds() {
  std::ifstream in("/proc/stat");
  std::string cpu;
  in >> cpu;  // "cpu": the sum over all cores
  // user nice system idle iowait irq softirq steal (guest time is already counted in user)
  double v[8] = {};
  for (double& x : v) in >> x;
  if (!in || cpu != "cpu") return 0;
  double busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
  return busy / double(sysconf(_SC_CLK_TCK));
}

double wait_for_quiet_machine(double max_wait, double window, double max_cores) {
  auto start = std::chrono::steady_clock::now();
  double others = 0;
  while (true) {
    double busy = machine_busy_seconds();
    std::this_thread::sleep_for(std::chrono::duration<double>(window));
    others = (machine_busy_seconds() - busy) / window;  // this process sleeps meanwhile
    double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (others < max_cores || waited >= max_wait) return others;
  }
}

Machine describe_machine() {
  Machine m;
  m.cpu = proc_value("/proc/cpuinfo", "model name");
  m.cores = std::max(1u, std::thread::hardware_concurrency());
  std::string mem = proc_value("/proc/meminfo", "MemTotal");  // "24574952 kB"
  if (!mem.empty()) m.memory = std::stoull(mem) * 1024;
  utsname u{};
  if (uname(&u) == 0) m.kernel = std::string(u.sysname) + " " + u.release;
#if defined(__clang__)
  m.compiler = "clang " __clang_version__;
#elif defined(__GNUC__)
  m.compiler = "gcc " __VERSION__;
#endif
  m.build_type = ASSETLIB_BENCH_BUILD_TYPE;
  m.sanitize = ASSETLIB_BENCH_SANITIZE;
  m.loadavg_start = read_loadavg();
  char date[32];
  std::time_t t = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", std::gmtime(&t));
  m.date = date;
  return m;
}

}  // namespace bench
