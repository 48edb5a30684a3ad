#include "pipeline/bake_folders.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>

namespace baker {

namespace fs = std::filesystem;

bool folder_within(const fs::path& inner, const fs::path& outer) {
  auto [outer_end, inner_end] =
      std::mismatch(outer.begin(), outer.end(), inner.begin(), inner.end());
  (void)inner_end;
  return outer_end == outer.end();
}

fs::path resolved(const fs::path& path) {
  std::error_code ec;
  fs::path absolute = fs::absolute(path, ec);
  fs::path canonical = fs::weakly_canonical(ec ? path : absolute, ec);
  return ec ? absolute.lexically_normal() : canonical;
}

std::string source_relative(const fs::path& file, const fs::path& root) {
  std::error_code ec;
  const fs::path named = fs::absolute(file, ec).lexically_normal();
  const fs::path named_root = fs::absolute(root, ec).lexically_normal();
  const fs::path relative = named.lexically_relative(named_root);
  const bool below = !relative.empty() && relative != "." && *relative.begin() != "..";
  fs::path real_folder = resolved(named_root);  // where the file's folder lies, if no symlink
  if (!relative.parent_path().empty()) real_folder /= relative.parent_path();
  if (below && resolved(named.parent_path()) == real_folder)
    return relative.lexically_normal().generic_string();
  const fs::path canonical = resolved(file), canonical_root = resolved(root);
  if (!folder_within(canonical, canonical_root) || canonical == canonical_root) return {};
  return canonical.lexically_relative(canonical_root).generic_string();
}

BakeStatus resolve_root(const fs::path& root, fs::path& out) {
  std::error_code ec;
  if (!fs::is_directory(root, ec))
    return BakeStatus::failure(BakeError::Config, root.string(), "not a folder");
  out = resolved(root);
  return {};
}

bool output_holds_input(const fs::path& input, const fs::path& output) {
  if (folder_within(input, output)) return true;
  struct stat output_stat {};
  if (::stat(output.c_str(), &output_stat) != 0) return false;  // not there yet: by path alone
  // The input, or a folder above it, that is the output folder reached by another path. (Above
  // the output no folder is: an output inside the input is the input's business, its walk leaves
  // it out.)
  for (fs::path p = input;; p = p.parent_path()) {
    struct stat st {};
    if (p != output && ::stat(p.c_str(), &st) == 0 && st.st_dev == output_stat.st_dev &&
        st.st_ino == output_stat.st_ino)
      return true;
    if (p == p.parent_path()) return false;
  }
}

BakeStatus resolve_output(const fs::path& root, const fs::path& output, fs::path& out) {
  out = resolved(output);
  if (output_holds_input(root, out)) {
    return BakeStatus::failure(
        BakeError::Config, out.string(),
        "the output folder must not be or contain the input folder " + root.string());
  }
  return {};
}

BakeStatus load_bake_config(const fs::path& root, const std::optional<fs::path>& config,
                            const std::string& preset, BakeConfig& out) {
  std::optional<fs::path> path = config ? config : find_config(root);
  if (path) return load_config(*path, preset, out);
  if (!preset.empty()) {
    return BakeStatus::failure(BakeError::Config, "",
                               "--preset " + preset + " given but no baker.json found");
  }
  return {};
}

std::unique_ptr<SharedCache> open_cache_for(const CacheChoice& choice, const fs::path& input,
                                            const OutputTree& output, std::string& warning) {
  std::unique_ptr<SharedCache> cache;
  const char* variable = std::getenv(kCacheDirVariable);
  std::optional<fs::path> named = choice.dir;
  if (!named && variable && *variable) named = fs::path(variable);
  if (choice.none || !named) return cache;
  fs::path dir = resolved(*named);
  BakeStatus s;
  if (folder_within(dir, input) || folder_within(input, dir) || dir == resolved(output.root())) {
    s = BakeStatus::failure(BakeError::Config, named->string(),
                            "a cache folder must not be, hold or lie in the input folder, nor be "
                            "the output folder");
  } else {
    s = SharedCache::open(dir, choice.limit, cache);
  }
  if (!s) warning = "--cache-dir: " + s.message() + "; baking without a cache";
  return cache;
}

}  // namespace baker
