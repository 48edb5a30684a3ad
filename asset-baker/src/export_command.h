// `asset-baker export <file.tx> -o <out.png> [--mip N]`: a baked texture back to PNG, to look at
// what the engine will sample.
#pragma once

#include <cstdint>
#include <filesystem>

namespace baker {

int run_export(const std::filesystem::path& texture, const std::filesystem::path& png, uint32_t mip);

}  // namespace baker
