// The first step of a bake, before any source bakes: which textures each image becomes
// (texture_plan.h), from every image's own role and the material slots that use it.
#pragma once

#include "import/import_inputs.h"
#include "pipeline/bake_config.h"
#include "pipeline/bake_job.h"

#include <filesystem>
#include <vector>

namespace baker {

// Adds every texture source of `sources` with its own role (baker.json's texture_role, else its
// file name), then reads each OBJ (its .mtl libraries) and glTF file for the images their
// materials use and in which slots. A file that cannot be read or parsed adds nothing: its own
// bake reports the problem.
TexturePlan plan_textures(const std::filesystem::path& root, const BakeConfig& config,
                          const std::vector<Source>& sources);

// The images the materials of the model `source` use, with roles and edges (none for an image, or
// a model that cannot be read). `files_read`, when given, gets every root-relative file read for
// it: the source and the material libraries it names.
std::vector<ImageUse> texture_uses(const std::filesystem::path& root, const Source& source,
                                   std::vector<std::string>* files_read = nullptr);

// The output paths `source` is known to write (Source::outputs) under `plan`, and the folder of
// its parts (Source::parts).
void plan_outputs(const TexturePlan& plan, Source& source);

}  // namespace baker
