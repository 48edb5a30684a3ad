// What an importer may read besides its source file. The pipeline supplies it, so that it alone
// decides (and records, for the cache) which files are read; importers never open paths themselves.
#pragma once

#include "common/bake_settings.h"

#include <functional>
#include <optional>
#include <string>

namespace baker {

// Everything an import reads besides its source file, supplied by the caller so that it controls
// (and records) which files are read. Both take root-relative paths already checked to stay inside.
struct ImportInputs {
  // Returns the bytes of the file (an .mtl, a .bin) at `relative_path`, or nullopt when it cannot
  // be read.
  std::function<std::optional<std::string>(const std::string& relative_path)> read_file;
  // The logical name of the texture this bake makes of the image at `relative_path` in `role`
  // (asset_names.h), or nullopt when the image is not part of the bake; then `why` may say why in
  // words that follow the path ("is excluded by ..."), or stay empty (not found, or no image).
  std::function<std::optional<std::string>(const std::string& relative_path, TextureRole role,
                                           std::string& why)>
      texture_name;
};

// An image file a model's material uses, as the texture plan needs it before any source bakes:
// its root-relative path, the role of the slot, and how the slot samples it.
struct ImageUse {
  std::string image;
  TextureRole role = TextureRole::Color;
  SlotSampling sampling;
  bool operator==(const ImageUse&) const = default;
};

}  // namespace baker
