// The first step of a bake, before any source bakes: which textures each image becomes
// (texture_plan.h), from every image's own role and the material slots that use it.
#pragma once

#include "import/import_inputs.h"
#include "pipeline/bake_config.h"
#include "pipeline/bake_job.h"

#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace baker {

// What a bake keeps of its plan for the next one (BakeCache::planned): a model whose files all
// still have the content they had when the last run read it gets the uses found then, unread (a
// no-op bake spent a third of its time parsing every model again).
struct PlanMemory {
  const std::map<std::string, PlannedModel>* previous = nullptr;  // the last run's records
  // A root-relative file's content hash now (from its stamp while size and mtime hold), or nullopt
  // when it cannot be read.
  std::function<std::optional<std::string>(const std::string&)> hash_now;
  std::map<std::string, PlannedModel>* planned = nullptr;  // gets every model's record of this run
};

// Adds every texture source of `sources` with its own role (baker.json's texture_role, else its
// file name), then reads each OBJ (its .mtl libraries) and glTF file for the images their
// materials use and in which slots, or takes them from `memory`. A file that cannot be read or
// parsed adds nothing: its own bake reports the problem.
TexturePlan plan_textures(const std::filesystem::path& root, const BakeConfig& config,
                          const std::vector<Source>& sources, const PlanMemory* memory = nullptr);

// The images the materials of the model `source` use, with roles and edges (none for an image, or
// a model that cannot be read). `files_read`, when given, gets every root-relative file read for
// it, the source and the material libraries it names, each with the content hash of the bytes
// read (kAbsentFile when it could not be read).
std::vector<ImageUse> texture_uses(const std::filesystem::path& root, const Source& source,
                                   std::vector<Dependency>* files_read = nullptr);

// The output paths `source` is known to write (Source::outputs) under `plan`, and the folder of
// its parts (Source::parts).
void plan_outputs(const TexturePlan& plan, Source& source);

}  // namespace baker
