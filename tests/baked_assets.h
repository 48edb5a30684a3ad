// Picking assets out of what a source baked into (bake/baked_asset.h), for tests.
#pragma once

#include "bake/baked_asset.h"
#include "common/bake_settings.h"

#include <catch2/catch.hpp>

#include <cstring>

namespace test {

// The one asset of `type` ("MESH") in `baked`; fails the test unless there is exactly one.
inline const assetlib::AssetFile& the_asset(const baker::BakedAssets& baked,
                                            const char (&type)[5]) {
  const baker::BakedAsset* found = nullptr;
  size_t count = 0;
  for (const baker::BakedAsset& a : baked) {
    if (std::memcmp(a.file.type, type, 4) == 0) found = &a, ++count;
  }
  INFO("assets of type " << type);
  REQUIRE(count == 1);
  return found->file;
}

// Default settings, except that meshes keep full-float vertices (PNCVT_F32): tests of geometry
// compare positions, normals and tangents exactly, which the compact default format rounds.
inline baker::BakeSettings float_vertex_settings() {
  baker::BakeSettings settings;
  settings.mesh.vertex_format = "PNCVT_F32";
  return settings;
}

}  // namespace test
