#include "machine.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <fstream>
#include <string>
#include <thread>

namespace bench {
namespace {

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
