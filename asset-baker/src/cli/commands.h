// The subcommands besides baking (`asset-baker <input>` is pipeline/bake_tree.h). Each returns the
// process exit code: 0 when all is well, 1 when a file has a problem, 2 on a usage error.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace baker {

// `asset-baker info <file-or-dir>`: header, metadata and sizes of every .tx/.mesh at `path` (a
// file, or a folder walked recursively). With `sources` (the bake's input folder) it also measures
// each texture's PSNR against its source (unpacking level 0 only).
int run_info(const std::filesystem::path& path, const std::filesystem::path& sources, bool as_json);

// `asset-baker check <dir>`: every manifest entry must exist with the recorded size and hash,
// decompress completely to the recorded size, and (meshes) name only textures the manifest has; no
// temporary or unlisted asset files may remain. Prints each problem. Files are unpacked chunk by
// chunk (pipeline/unpack_check.h): memory is one file plus its largest chunk, not its unpacked
// size.
int run_check(const std::filesystem::path& baked_dir, bool quiet);

// `asset-baker export <file.tx> -o <out.png> [--mip N]`: a baked texture back to PNG, to look at
// what the engine will sample. Only level N is unpacked.
//
// All three read only regular files (a FIFO, a folder or a device is an error at once, never a
// hang), within assetlib's limits (assetlib/limits.h), and report running out of memory as an
// error about the file, exit 1.
int run_export(const std::filesystem::path& texture, const std::filesystem::path& png,
               uint32_t mip);

// `asset-baker init [folder]`: writes a commented starter baker.json there (every setting at its
// default, a rule and a preset as examples). Never replaces an existing one (exit 1).
int run_init(const std::filesystem::path& folder);
// The text run_init writes.
std::string starter_config();

// `asset-baker --list-presets [input] [--config FILE]`: the baker.json a bake of `input` would use
// (or `config_path`) and each preset's output, settings and rule count. Exit 2 when it is invalid.
int run_list_presets(const std::filesystem::path& input,
                     const std::optional<std::filesystem::path>& config_path);

// `asset-baker --version`: the baker's version, the asset format and cache versions it writes, and
// the versions of the decoders and libraries it was built with.
std::string version_text();

}  // namespace baker
