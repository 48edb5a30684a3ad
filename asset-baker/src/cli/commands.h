// The subcommands besides baking (`asset-baker <input>` is pipeline/bake_tree.h). Each returns the
// process exit code: 0 when all is well, 1 when a file has a problem, 2 on a usage error.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

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
// what the engine will sample. Only level N is unpacked. `out.png` must end in .png (exit 2
// otherwise); a level of 1 GiB of RGBA8 rows or more (16384 x 16384 and larger), which the PNG
// writer cannot size, is refused before it is decoded, exit 1.
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

// `asset-baker bake-one <source> --root DIR -o OUT`: bakes one source as a build system's edge
// runs it (one process per source, many at once in one output folder). It takes the output
// folder's lock shared (a whole-folder bake, which takes it exclusively, waits for none of them and
// none of them for each other), writes only its source's outputs and its record
// (pipeline/source_record.h), never the cache file or the manifest: `collect` does, after all of
// them. Texture roles and output claims come from `plan_dir` (pipeline/source_plan.h), else from
// the whole root (slow for big trees). `depfile` gets every file the bake read (the source, .mtl
// and .bin files, baker.json, its plan file; for a file looked for and missing, its nearest
// existing folder, whose time changes when it appears) for `depfile_target` (default: `stamp`:
// the name the build system gives the edge's output); `stamp` is written when it succeeded.
// Exit 0, 1 when the source failed, 2 on a usage or configuration error or a held lock.
struct BakeOneOptions {
  std::filesystem::path source, root, output;
  std::optional<std::filesystem::path> config, plan_dir, depfile, stamp, cache_dir;
  std::optional<std::string> depfile_target;
  std::string preset;
  bool no_cache = false, force = false, verify = false, quiet = false;
  uint64_t cache_limit = 0;
  double time_limit = 0;  // seconds the source may bake (pipeline/job_runner.h); 0: none
};
int run_bake_one(const BakeOneOptions& options);

// `asset-baker plan <root> --plan-dir DIR`: the plan file of every source under `root` (texture
// roles and output claims of the whole tree, pipeline/source_plan.h), rewriting only those that
// change. `output` (an output folder inside the root) is left out of the walk. `depfile` names
// every model and material library read, and baker.json; `stamp` is written last.
struct PlanOptions {
  std::filesystem::path root, plan_dir;
  std::optional<std::filesystem::path> output, config, depfile, stamp;
  std::optional<std::string> depfile_target;  // as for bake-one
  std::string preset;
  bool quiet = false;
};
int run_plan(const PlanOptions& options);

// `asset-baker collect <root> -o OUT`: after bake-one runs, writes the output folder's cache and
// manifest from their records (and, for sources not baked since, the previous cache), each entry
// checked against the files; deletes outputs nothing lists any more; trims the shared cache.
// Holds the output folder's lock exclusively. Exit 1 when an entry had to be left out, or a source
// was never baked into the folder (its stamps outlived a deleted output folder).
struct CollectOptions {
  std::filesystem::path root, output;
  std::optional<std::filesystem::path> config;  // else the nearest baker.json: its "exclude"
  std::string preset;
  std::optional<std::filesystem::path> cache_dir;
  bool no_cache = false, quiet = false;
  uint64_t cache_limit = 0;
};
int run_collect(const CollectOptions& options);

// `asset-baker merge <shard-dir>... -o OUT`: joins the output folders of `--shard K/N` bakes into
// one, equal file for file to a bake of the whole tree on one machine: every output each shard's
// cache lists is copied (hard-linked where it can) and verified against its recorded hash, then the
// cache and manifest are written from all their entries. A source or an output in two shards with
// different contents, or a damaged file, is an error (exit 1); what merged is still indexed.
int run_merge(const std::vector<std::filesystem::path>& shards, const std::filesystem::path& output,
              bool quiet);

// `asset-baker --version`: the baker's version, the asset format and cache versions it writes, and
// the versions of the decoders and libraries it was built with.
std::string version_text();

}  // namespace baker
