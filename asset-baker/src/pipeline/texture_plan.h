// Which textures the bake makes of each image (docs/baker.md, "Textures by use").
//
// A material slot decides how its image must be encoded: base colour and emissive as sRGB colour
// (BC1/BC3), normal maps as BC5, metallic-roughness and occlusion as linear data. Before any source
// bakes, the pipeline reads which images the bake's models use in which slots (the OBJ .mtl
// libraries, the glTF materials) and records it here. An image then bakes once per role it is
// used in; an image no model uses bakes in its own role (from its file name or baker.json). The
// texture of an image in its own role has the image's name; in another role, "<image>#<role>".
#pragma once

#include "bake/bake_image.h"
#include "common/bake_settings.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace baker {

class TexturePlan {
 public:
  // An image this bake includes (a texture source), with its own role (never Auto).
  void add_image(const std::string& image, TextureRole natural);
  // A model uses `image` in `role`, sampled as `sampling` says; ignored when the image is not
  // part of the bake. Uses of one role that sample differently are merged (either()).
  void add_use(const std::string& image, TextureRole role, SlotSampling sampling);

  bool has_image(const std::string& image) const { return images_.count(image) > 0; }
  bool has_images() const { return !images_.empty(); }
  TextureRole natural_role(const std::string& image) const;
  // The roles `image` bakes in: those models use it in, else its own role. In a fixed order.
  std::vector<TextureRole> roles(const std::string& image) const;
  // The logical name of the texture made of `image` in `role`, or nullopt when the bake makes
  // none (the image is not part of it, or no model uses it in that role).
  std::optional<std::string> texture_name(const std::string& image, TextureRole role) const;
  // The textures `image` bakes into: one per role, with its name, output path and sampling (that
  // of its uses; repeat, unmasked, for an image no model uses).
  std::vector<TextureTarget> targets(const std::string& image) const;
  // XXH3-64 of every image with its own role and its uses: equal for two plans of one tree.
  uint64_t digest() const;

 private:
  struct Image {
    TextureRole natural = TextureRole::Color;
    std::map<TextureRole, SlotSampling> uses;
  };
  std::map<std::string, Image> images_;
};

}  // namespace baker
