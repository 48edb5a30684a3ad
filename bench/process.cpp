#include "process.h"

#include "timing.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

extern char** environ;

namespace bench {

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
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
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
  if (!(in >> result.exit_code >> result.signal >> result.wall_seconds >> result.cpu_seconds >> rss_kib)) {
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

}  // namespace bench
