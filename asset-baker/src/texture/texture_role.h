// Which role an image plays (colour, normal map, data, UI) when nothing says otherwise: its name.
#pragma once

#include "common/bake_settings.h"

#include <string>

namespace baker {

// The role of an image from its path: "*_n.png", "*.n.png", "*_normal.*" are normal maps;
// "*_roughness.*", "*_ao.*", "*_mask.*" ... are data; anything under a "ui/" folder is UI;
// the rest is colour. docs/baker.md lists every suffix.
TextureRole role_from_name(const std::string& relative_path);

}  // namespace baker
