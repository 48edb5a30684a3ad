#include "cli/commands.h"

#include "pipeline/bake_cache.h"

#include <assetlib/asset_file.h>
#include <draco/core/draco_version.h>
#include <meshoptimizer.h>
#include <xxhash.h>
#include <nlohmann/json.hpp>

#include <string>

// Set by asset-baker/CMakeLists.txt from the project and the packages found at configure time
// (stb and tinyobjloader have no version macro of their own).
#ifndef ASSET_BAKER_VERSION
#error "ASSET_BAKER_VERSION is defined by the build"
#endif

namespace baker {
namespace {

std::string dotted(unsigned major, unsigned minor, unsigned patch) {
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

}  // namespace

std::string version_text() {
  const unsigned xxh = XXH_versionNumber();  // major * 10000 + minor * 100 + release
  return std::string("asset-baker ") + ASSET_BAKER_VERSION + "\n" +
         "writes assetlib format version " + std::to_string(assetlib::kFormatVersion) +
         ", cache version " + std::to_string(kBakerVersion) + "\n" + "libraries: stb_image " +
         STB_IMAGE_VERSION + ", tinyobjloader " + TINYOBJLOADER_VERSION + ", Draco " +
         draco::kDracoVersion + ", meshoptimizer " +
         dotted(MESHOPTIMIZER_VERSION / 1000, MESHOPTIMIZER_VERSION / 10 % 100,
                MESHOPTIMIZER_VERSION % 10) +
         ", LZ4 " + assetlib::lz4_version() + ", xxHash " +
         dotted(xxh / 10000, xxh / 100 % 100, xxh % 100) + ", nlohmann_json " +
         dotted(NLOHMANN_JSON_VERSION_MAJOR, NLOHMANN_JSON_VERSION_MINOR,
                NLOHMANN_JSON_VERSION_PATCH);
}

}  // namespace baker
