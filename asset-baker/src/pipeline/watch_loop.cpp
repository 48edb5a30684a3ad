#include "pipeline/watch_loop.h"

#include "common/terminal_text.h"
#include "pipeline/interrupt.h"
#include "pipeline/output_tree.h"

#include <poll.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <string>

namespace baker {
namespace {

namespace fs = std::filesystem;

constexpr uint32_t kEvents = IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO |
                             IN_DELETE_SELF | IN_DONT_FOLLOW | IN_ONLYDIR;

// One inotify instance watching every folder of the input tree except the output folder.
class TreeWatch {
 public:
  // `exclude`: the output folder; `report`: the --json file, if any (its rename is an event too).
  TreeWatch(fs::path root, fs::path exclude, fs::path report)
      : root_(std::move(root)),
        exclude_(std::move(exclude)),
        report_(std::move(report)),
        fd_(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) {}
  ~TreeWatch() {
    if (fd_ >= 0) ::close(fd_);
  }
  TreeWatch(const TreeWatch&) = delete;
  TreeWatch& operator=(const TreeWatch&) = delete;

  bool ok() const { return fd_ >= 0; }
  int descriptor() const { return fd_; }

  // Watches `folder` and every real folder below it (symlinks are not followed, as in a bake).
  void add_tree(const fs::path& folder) {
    add(folder);
    std::error_code ec;
    fs::recursive_directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec);
    for (fs::recursive_directory_iterator end; !ec && it != end; it.increment(ec)) {
      std::error_code entry_ec;
      if (it->is_symlink(entry_ec) || !it->is_directory(entry_ec)) continue;
      if (excluded(it->path())) {
        it.disable_recursion_pending();
        continue;
      }
      add(it->path());
    }
  }

  // Reads what happened: root-relative paths of changed files, new folders to watch.
  void drain(std::set<std::string>& changed) {
    alignas(inotify_event) char buffer[16384];
    for (ssize_t n; (n = ::read(fd_, buffer, sizeof buffer)) > 0;) {
      for (char* at = buffer; at < buffer + n;) {
        auto* event = reinterpret_cast<inotify_event*>(at);
        at += sizeof(inotify_event) + event->len;
        auto folder = folders_.find(event->wd);
        if (folder == folders_.end() || event->len == 0) continue;
        fs::path path = folder->second / event->name;
        if (is_temporary_name(event->name) || excluded(path)) continue;
        if ((event->mask & IN_ISDIR) && (event->mask & (IN_CREATE | IN_MOVED_TO))) add_tree(path);
        changed.insert(path.lexically_relative(root_).generic_string());
      }
    }
  }

 private:
  void add(const fs::path& folder) {
    int wd = ::inotify_add_watch(fd_, folder.c_str(), kEvents);
    if (wd >= 0) folders_[wd] = folder;
  }
  bool excluded(const fs::path& path) const {
    std::error_code ec;
    return fs::equivalent(path, exclude_, ec) || (!report_.empty() && path == report_);
  }

  fs::path root_, exclude_, report_;
  int fd_;
  std::map<int, fs::path> folders_;
};

// Waits until something changed and then `kSettleTime` passed without more; false on a signal.
bool wait_for_changes(TreeWatch& watch, std::set<std::string>& changed) {
  int timeout = -1;  // until the first change, then until the folder settles
  for (;;) {
    pollfd p{watch.descriptor(), POLLIN, 0};
    int ready = ::poll(&p, 1, timeout < 0 ? 250 : timeout);
    if (interrupt_signal()) return false;
    if (ready > 0) {
      watch.drain(changed);
      if (!changed.empty()) timeout = int(kSettleTime.count());
    } else if (ready == 0 && timeout >= 0) {
      return true;
    }
  }
}

std::string change_list(const std::set<std::string>& changed) {
  constexpr size_t kShown = 5;
  std::string text;
  size_t shown = 0;
  for (const std::string& path : changed) {
    if (shown++ == kShown) break;
    text += (text.empty() ? "" : ", ") + path;
  }
  if (changed.size() > kShown) text += " and " + std::to_string(changed.size() - kShown) + " more";
  return text;
}

}  // namespace

int run_watch(const BakeOptions& options) {
  std::error_code ec;
  if (!fs::is_directory(options.input, ec)) {
    std::fprintf(stderr, "error: %s: --watch needs a folder\n", options.input.string().c_str());
    return 2;
  }
  fs::path root = fs::weakly_canonical(options.input);
  int code = run_bake(options);
  std::optional<fs::path> output = output_folder(options);
  if (code == 2 || code >= 128 || !output) return code >= 128 ? code : 2;
  fs::path report =
      options.json_report ? fs::weakly_canonical(*options.json_report, ec) : fs::path();
  TreeWatch watch(root, *output, report);
  if (!watch.ok()) {
    std::perror("error: inotify");
    return 2;
  }
  watch.add_tree(root);
  InterruptScope interrupt_scope;
  for (;;) {
    std::printf("watching %s for changes (Ctrl-C to stop)\n", root.string().c_str());
    std::fflush(stdout);
    std::set<std::string> changed;
    if (!wait_for_changes(watch, changed)) return 128 + interrupt_signal();
    std::printf("changed: %s\n", terminal_text(change_list(changed)).c_str());
    code = run_bake(options);
    if (code >= 128) return code;
  }
}

}  // namespace baker
