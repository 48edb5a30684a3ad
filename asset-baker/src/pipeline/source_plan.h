// Plans one file per source, for builds that bake each source in its own process (`asset-baker
// bake-one`, one build edge per source): what a source's bake needs to know about the rest of the
// tree, so that it need not read the whole tree itself.
//
// An image's bake needs the roles its image bakes in (texture roles come from every model that
// uses it, plan_textures.h); a model's bake needs the texture names of the images its materials
// use; either may lose its outputs to an earlier source (taken_outputs). `<plan-dir>/<source>.plan`
// holds exactly that, as JSON:
//   { "refused": "<output another source takes>",                        (only when refused)
//     "images": { "<image>": { "natural": "<role>", "roles": ["<role>", ...] }, ... } }
// A plan file is rewritten only when its text changes: a build system that compares modification
// times (Ninja with restat) then rebakes only the sources whose plan changed.
#pragma once

#include "common/bake_status.h"
#include "pipeline/bake_config.h"
#include "pipeline/bake_job.h"
#include "pipeline/texture_plan.h"

#include <filesystem>
#include <string>
#include <vector>

namespace baker {

inline constexpr const char* kPlanExtension = ".plan";
// The plan file of the source `relative`, inside the plan folder: its build_file_name (depfile.h)
// and kPlanExtension, as assetlib_bake() names it.
std::string plan_file_name(const std::string& relative);
// A plan file larger than this is not one the baker wrote.
inline constexpr uint64_t kMaxPlanBytes = 64ull << 20;

struct PlanWrite {
  size_t rewritten = 0, unchanged = 0;
  std::vector<std::string> files_read;  // root-relative: every model and material library read
};

// Writes the plan file of every one of `sources` (outputs planned under `plan`; `taken` from
// taken_outputs) into `plan_dir`, reading each model's material references again (root `root`).
BakeStatus write_source_plans(const std::filesystem::path& plan_dir,
                              const std::filesystem::path& root, const std::vector<Source>& sources,
                              const std::vector<std::string>& taken, const TexturePlan& plan,
                              PlanWrite& result);

// Writes a plan file saying "excluded" for every source under `root` (outside `output`) that
// `config` excludes, itself or by a folder above it: a build that globs every file declares a plan
// file for each, and one never written would run the plan edge on every build. Folders that
// cannot be listed are passed over in silence here (the bake's walk never lists them).
BakeStatus write_excluded_plans(const std::filesystem::path& plan_dir,
                                const std::filesystem::path& root,
                                const std::filesystem::path& output, const BakeConfig& config,
                                PlanWrite& result);

// Reads the plan file of `relative`: the images its bake may name into `plan`, and the output
// another source takes into `refused` ("" when none). A missing or malformed plan is an error
// (Config): the build ran the bake before its plan.
BakeStatus read_source_plan(const std::filesystem::path& plan_dir, const std::string& relative,
                            TexturePlan& plan, std::string& refused);

}  // namespace baker
