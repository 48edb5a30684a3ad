#include "pipeline/watch_loop.h"

#include "common/asset_kinds.h"
#include "common/terminal_text.h"
#include "pipeline/bake_folders.h"
#include "pipeline/interrupt.h"
#include "pipeline/output_tree.h"

#include <poll.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <csignal>
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

// What inotify_event::name is when the kernel's queue overflowed and events were lost.
constexpr const char* kLostEvents = "(more changes than inotify could queue)";

// One inotify instance watching every folder of the input tree except the output folder, and the
// files outside it that decide the bake's settings (baker.json). Folders baker.json excludes are
// watched too: an .mtl or .bin there may belong to a model outside, and a --config file may lie
// there; a source file they exclude is no change.
class TreeWatch {
 public:
  // `bake`: the output folder and configuration; `report`: the --json file, if any (its rename is
  // an event too).
  TreeWatch(fs::path root, ResolvedBake bake, fs::path report)
      : root_(std::move(root)),
        report_(std::move(report)),
        bake_(std::move(bake)),
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
      if (ignored(it->path())) {
        it.disable_recursion_pending();
        continue;
      }
      add(it->path());
    }
  }

  // Follows what a rebake will use (baker.json edited): its exclude list and output folder.
  void follow(ResolvedBake bake) { bake_ = std::move(bake); }

  // Watches the file `path`, outside the input folder, through its folder: a save that writes a
  // new file and renames it over the old one is seen too.
  void add_file(const fs::path& path) {
    int wd = ::inotify_add_watch(fd_, path.parent_path().c_str(), kEvents);
    if (wd < 0) return;
    files_[wd].folder = path.parent_path();
    files_[wd].names.insert(path.filename().string());
  }

  // Reads what happened: root-relative paths of changed files, new folders to watch. When the
  // kernel's queue overflowed, the whole tree is watched again (a folder created meanwhile has no
  // watch yet) and the change is kLostEvents.
  void drain(std::set<std::string>& changed) {
    alignas(inotify_event) char buffer[16384];
    for (ssize_t n; (n = ::read(fd_, buffer, sizeof buffer)) > 0;) {
      for (char* at = buffer; at < buffer + n;) {
        auto* event = reinterpret_cast<inotify_event*>(at);
        at += sizeof(inotify_event) + event->len;
        if (event->mask & IN_Q_OVERFLOW) {
          add_tree(root_);
          changed.insert(kLostEvents);
          continue;
        }
        if (event->len == 0) continue;
        if (auto files = files_.find(event->wd); files != files_.end()) {
          if (files->second.names.count(event->name))
            changed.insert((files->second.folder / event->name).string());
          continue;
        }
        auto folder = folders_.find(event->wd);
        if (folder == folders_.end()) continue;
        fs::path path = folder->second / event->name;
        if (is_temporary_name(event->name) || ignored(path) || excluded(path)) continue;
        if ((event->mask & IN_ISDIR) && (event->mask & (IN_CREATE | IN_MOVED_TO))) add_tree(path);
        changed.insert(relative(path));
      }
    }
  }

 private:
  void add(const fs::path& folder) {
    int wd = ::inotify_add_watch(fd_, folder.c_str(), kEvents);
    if (wd >= 0) folders_[wd] = folder;
  }
  std::string relative(const fs::path& path) const {
    return path.lexically_relative(root_).generic_string();
  }
  // The bake's own files: the output folder and what is in it, and the report.
  bool ignored(const fs::path& path) const {
    std::error_code ec;
    return folder_within(path, bake_.output) || fs::equivalent(path, bake_.output, ec) ||
           (!report_.empty() && path == report_);
  }
  // A source file baker.json leaves out of every bake.
  bool excluded(const fs::path& path) const {
    const std::string name = relative(path);
    return source_kind(name) && exclusion_above(bake_.config, name);
  }

  fs::path root_, report_;
  ResolvedBake bake_;
  int fd_;
  std::map<int, fs::path> folders_;
  struct WatchedFiles {
    fs::path folder;  // outside the tree
    std::set<std::string> names;
  };
  std::map<int, WatchedFiles> files_;
};

// The baker.json files that decide the settings outside the input folder (those inside are
// watched with it): the one given, or a baker.json in any folder above the input, where a new one
// would be the nearest and an edited one may be.
std::vector<fs::path> config_files_outside(const BakeOptions& options, const fs::path& root) {
  if (options.config) {
    fs::path config = resolved(*options.config);
    return folder_within(config, root) ? std::vector<fs::path>{} : std::vector<fs::path>{config};
  }
  std::vector<fs::path> files;
  for (fs::path dir = root; !dir.empty() && dir != dir.root_path();) {
    dir = dir.parent_path();
    files.push_back(dir / "baker.json");
  }
  return files;
}

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
  BakeOptions bake = options;
  bake.wait_for_lock = true;
  std::optional<ResolvedBake> resolved = resolve_bake(options);
  if (!resolved) {
    int code = run_bake(bake);  // it says what does not resolve
    return code >= 128 ? code : 2;
  }
  fs::path report =
      options.json_report ? fs::weakly_canonical(*options.json_report, ec) : fs::path();
  TreeWatch watch(root, std::move(*resolved), report);
  if (!watch.ok()) {
    std::perror("error: inotify");
    return 2;
  }
  // Watched before the first bake: a file saved while it runs is baked by the next.
  watch.add_tree(root);
  for (const fs::path& config : config_files_outside(options, root)) watch.add_file(config);
  InterruptScope interrupt_scope;  // before the first bake: it may wait for the lock
  int code = run_bake(bake);
  if (code == 2 || code >= 128) return code;
  for (;;) {
    std::printf("watching %s for changes (Ctrl-C to stop)\n", root.string().c_str());
    // Nobody reads what a watch says any more (`--watch | head`, SIGPIPE ignored): it ends, as
    // the pipe's signal would have ended it.
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) return 128 + SIGPIPE;
    std::set<std::string> changed;
    if (!wait_for_changes(watch, changed)) return 128 + interrupt_signal();
    std::printf("changed: %s\n", terminal_text(change_list(changed)).c_str());
    // What the rebake will follow, before it runs: its own writes into an output folder baker.json
    // moved are not changes (they made a rebake each, for ever).
    if (std::optional<ResolvedBake> now = resolve_bake(options)) watch.follow(std::move(*now));
    code = run_bake(bake);
    if (code >= 128) return code;
  }
}

}  // namespace baker
