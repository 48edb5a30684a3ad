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
// each texture's PSNR against its source (unpacking level 0 only). A pack file (starting "APAK")
// is listed entry by entry (name, type, offset, sizes), each asset described as a file is.
int run_info(const std::filesystem::path& path, const std::filesystem::path& sources, bool as_json);

// `asset-baker check <dir>`: every manifest entry must exist with the recorded size and hash,
// decompress completely to the recorded size, and (meshes) name only textures the manifest has; no
// temporary or unlisted asset files may remain. Prints each problem. Files are unpacked chunk by
// chunk (pipeline/unpack_check.h): memory is one file plus its largest chunk, not its unpacked
// size.
// `asset-baker check <file.pack>` (any path that is not a folder): the pack's header and tables
// (assetlib::open_pack), then per entry its hash, that it parses with the table's type, unpacks
// completely to the table's raw size and names only assets the pack has. The pack is mapped;
// memory is the largest chunk. Each problem names the pack and the entry.
int run_check(const std::filesystem::path& baked_dir, bool quiet);

// `asset-baker pack <baked-dir> -o <file.pack>`: every asset the folder's manifest lists, verified
// against it, into one pack written atomically (pipeline/pack_folder.h); a one-line summary unless
// `quiet`. Exit 1 on a damaged or missing asset or a write failure (the pack is then untouched), 2
// when the pack would replace a file of the folder, 128 + signal when interrupted.
int run_pack(const std::filesystem::path& baked_dir, const std::filesystem::path& pack, bool quiet);

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
