// An image -> one "TEXI" asset per role the bake needs it in (docs/baker.md, "Textures by use"):
// the roles the models' materials use it in, or its own role (file name, baker.json) when no
// model uses it.
#pragma once

#include "bake/baked_asset.h"
#include "common/bake_settings.h"
#include "common/bake_status.h"

#include <span>
#include <string>
#include <vector>

namespace baker {

// One texture to make of an image: its role, logical name and output path (asset_names.h).
struct TextureTarget {
  TextureRole role = TextureRole::Color;
  std::string name;
  std::string path;
  SlotSampling sampling;  // as the slots using the image in `role` sample it
};

// Bakes `source` (the image named `image_name`, whose file is `relative_path` or, for an image
// inside a glTF, that glTF) once per target into `out`. `threads` bounds block compression.
BakeStatus bake_image(std::span<const std::byte> source, const std::string& image_name,
                      const std::vector<TextureTarget>& targets, const BakeSettings& settings,
                      unsigned threads, BakedAssets& out, std::vector<std::string>& warnings);

}  // namespace baker
