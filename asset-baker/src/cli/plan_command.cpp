#include "cli/commands.h"

#include "common/terminal_text.h"
#include "pipeline/bake_folders.h"
#include "pipeline/bake_tree.h"
#include "pipeline/depfile.h"
#include "pipeline/plan_textures.h"
#include "pipeline/side_files.h"
#include "pipeline/source_plan.h"

#include <assetlib/asset_file.h>

#include <cstdio>

namespace baker {

namespace fs = std::filesystem;

int run_plan(const PlanOptions& options) {
  fs::path root;
  BakeConfig config;
  BakeStatus ready = resolve_root(options.root, root);
  if (ready) ready = load_bake_config(root, options.config, options.preset, config);
  fs::path exclude = options.output ? resolved(*options.output) : fs::path();
  if (ready) ready = check_build_files(options.stamp, options.depfile, root, exclude);
  if (ready) {
    ready = check_side_file(options.plan_dir, SideFile::PlanFolder, "--plan-dir", root, exclude);
  }
  if (!ready) {
    print_message("error", ready.message());
    return 2;
  }
  ProgressReport progress(0, options.quiet, false);
  SourceWalk walk = scan_sources(root, exclude, config, progress);
  std::vector<Source>& sources = walk.sources;
  // Plans of the sources an unreadable folder hides would be missing: no stamp for that.
  if (!walk.unreadable.empty()) return 1;
  TexturePlan plan = plan_textures(root, config, sources);
  for (Source& s : sources) plan_outputs(plan, s);
  PlanWrite written;
  BakeStatus wrote =
      write_source_plans(options.plan_dir, root, sources, taken_outputs(sources), plan, written);
  if (wrote) wrote = write_excluded_plans(options.plan_dir, root, exclude, config, written);
  if (BakeStatus s = wrote; !s) {
    print_message("error", s.message());
    return 1;
  }
  if (options.depfile) {
    std::vector<std::string> read;
    for (const std::string& relative : written.files_read)
      read.push_back((root / relative).string());
    if (!config.path.empty()) read.push_back(resolved(config.path).string());
    std::string target = options.depfile_target ? *options.depfile_target
                         : options.stamp        ? options.stamp->string()
                                                : options.plan_dir.string();
    if (BakeStatus s = write_depfile(*options.depfile, target, read); !s) {
      print_message("error", s.message());
      return 1;
    }
  }
  if (options.stamp) {
    if (BakeStatus s = write_stamp(*options.stamp, std::nullopt); !s) {
      print_message("error", s.message());
      return 1;
    }
  }
  if (!options.quiet) {
    std::printf("planned %zu sources: %zu plan files rewritten, %zu unchanged -> %s\n",
                sources.size(), written.rewritten, written.unchanged,
                options.plan_dir.string().c_str());
  }
  return 0;
}

}  // namespace baker
