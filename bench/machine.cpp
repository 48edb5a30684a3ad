#include "machine.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
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
