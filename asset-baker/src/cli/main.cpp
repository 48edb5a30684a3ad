// asset-baker: command-line wiring only; the work lives in bake_tree, info_command, check_command,
// pack_command.
#include "cli/commands.h"
#include "cli/process_setup.h"
#include "common/terminal_text.h"
#include "pipeline/bake_tree.h"
#include "pipeline/watch_loop.h"

#include <CLI/CLI.hpp>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <stdexcept>
#include <string>

namespace {

// The last resort: an exception no subcommand handled ends the run with a message naming what it
// was working on and exit 1, never with std::terminate. Each subcommand catches running out of
// memory per file first, so this is reached only outside any one file.
template <typename Run>
int guarded(const std::string& subject, Run&& run) {
  const char* what = nullptr;
  std::string detail;
  try {
    return run();
  } catch (const std::bad_alloc&) {
    what = "out of memory (std::bad_alloc)";
  } catch (const std::length_error&) {
    what = "out of memory (std::length_error)";
  } catch (const std::exception& e) {
    what = "internal error: ";
    detail = e.what();
  }
  baker::print_message("error", subject + ": " + what + detail);
  return 1;
}

// info, check and presets print what their caller reads, often from a file or a pipe: a write
// that failed (a full disk, a closed pipe) fails the command, rather than leaving a truncated
// listing behind an exit 0. A closed pipe is said by the exit code alone, as it is on purpose
// (`| head`).
int with_output_written(int status) {
  const bool flushed = std::fflush(stdout) == 0;
  const int error = errno;
  if (flushed && !std::ferror(stdout)) return status;
  if (!flushed && error != EPIPE)
    baker::print_message("error", std::string("writing standard output: ") + std::strerror(error));
  else if (flushed)
    baker::print_message("error", "writing standard output failed");
  return status == 0 ? 1 : status;
}

}  // namespace

int main(int argc, char** argv) {
  baker::prepare_process();
  CLI::App app{
      "asset-baker: converts images, OBJ models and glTF scenes into engine-ready assetlib files"};
  app.require_subcommand(0, 1);
  app.set_version_flag("--version", baker::version_text());

  baker::BakeOptions bake;
  std::string input, output, config, json_report, root;
  bool watch = false, list_presets = false;
  app.add_option("input", input, "Folder of source assets to bake, or one source file");
  app.add_option("--root", root,
                 "With one source file: the folder its output names are relative to (default: "
                 "the file's folder)");
  app.add_option("-o,--output", output,
                 "Output folder (default: the preset's, else <input>-baked)");
  app.add_option("-j,--jobs", bake.jobs, "Parallel bakes (default: all cores)");
  uint64_t memory_budget_mb = 0;
  app.add_option(
      "--memory-budget", memory_budget_mb,
      "MiB that all running bakes may hold together; larger sources wait (default: half the RAM)");
  const CLI::Validator seconds(
      [](std::string& text) -> std::string {
        char* end = nullptr;
        double value = std::strtod(text.c_str(), &end);
        bool ok = !text.empty() && *end == '\0' && value >= 0;  // NaN is not >= 0
        return ok ? "" : "must be a number of seconds, 0 (no limit) or more";
      },
      "SECONDS");
  app.add_option("--time-limit", bake.time_limit,
                 "Seconds one source may bake before the bake stops (0: no limit)")
      ->default_val(baker::kDefaultTimeLimit)
      ->check(seconds);
  app.add_flag("--force", bake.force, "Rebake everything, ignoring the cache");
  app.add_option("--config", config,
                 "baker.json to use (default: nearest in the input folder or above)");
  app.add_option("--preset", bake.preset, "Preset from baker.json to apply");
  app.add_flag("--verify", bake.verify, "Re-read and unpack each output right after writing it");
  app.add_option("--json", json_report, "Write a machine-readable report to this file");
  app.add_flag("-q,--quiet", bake.quiet, "Print only errors");
  app.add_flag("-v,--verbose", bake.verbose, "Also list skipped and up-to-date files");
  app.add_flag("--warnings-as-errors", bake.warnings_as_errors,
               "Exit 1 when anything warned (the outputs are still written)");
  app.add_flag("--watch", watch, "Bake, then bake again on every change until Ctrl-C");
  app.add_flag("--list-presets", list_presets,
               "Print the baker.json a bake would use and its presets, and exit");
  std::string bake_pack;
  app.add_option("--pack", bake_pack,
                 "After a bake without failures, pack its output folder into this file");
  std::string cache_dir, shard;
  double cache_size_mb = double(baker::kDefaultCacheLimit >> 20);
  bool no_cache = false;
  app.add_option("--cache-dir", cache_dir,
                 "Shared cache folder of baked outputs (default: $ASSETLIB_CACHE_DIR, else none)");
  app.add_flag("--no-cache", no_cache, "Use no shared cache");
  app.add_option("--cache-size", cache_size_mb,
                 "MiB the shared cache is trimmed to, least recently used first (0: no limit)")
      ->check(CLI::Range(0.0, 1e9));
  app.add_option("--shard", shard, "Bake only shard K of N (K/N), e.g. one CI job of a matrix");

  std::string init_dir = ".";
  CLI::App* init = app.add_subcommand("init", "Write a commented starter baker.json");
  init->add_option("folder", init_dir, "Where to write it (default: the current folder)");

  std::string info_path, info_sources;
  bool info_json = false;
  CLI::App* info = app.add_subcommand("info", "Print header, metadata and sizes of baked files");
  info->add_option("path", info_path, "A .tx/.mesh file, a folder or a .pack file")->required();
  info->add_flag("--json", info_json, "Print JSON instead of text");
  info->add_option("--sources", info_sources,
                   "The bake's input folder: also report each texture's PSNR");

  std::string check_dir;
  bool check_quiet = false;
  CLI::App* check =
      app.add_subcommand("check", "Validate a baked folder against its manifest, or a pack file");
  check->add_option("dir", check_dir, "Baked folder or .pack file")->required();
  check->add_flag("-q,--quiet", check_quiet, "Print only problems");

  std::string export_in, export_out;
  uint32_t export_mip = 0;
  CLI::App* exporter = app.add_subcommand("export", "Decode a baked texture back to PNG");
  exporter->add_option("texture", export_in, "A .tx file")->required();
  exporter->add_option("-o,--output", export_out, "PNG to write")->required();
  exporter->add_option("--mip", export_mip, "Mip level to export (default 0)");

  std::string pack_dir, pack_out;
  bool pack_quiet = false;
  CLI::App* pack = app.add_subcommand("pack", "Pack every asset of a baked folder into one file");
  pack->add_option("dir", pack_dir, "Baked folder (with its manifest.json)")->required();
  pack->add_option("-o,--output", pack_out, "Pack file to write")->required();
  pack->add_flag("-q,--quiet", pack_quiet, "Print only problems");

  baker::BakeOneOptions one;
  std::string one_plan, one_depfile, one_stamp, one_config, one_cache;
  CLI::App* bake_one = app.add_subcommand(
      "bake-one", "Bake one source as a build edge: many at once in one output folder");
  bake_one->add_option("source", one.source, "The source file")->required();
  bake_one->add_option("--root", one.root, "The input folder its names are relative to")
      ->required();
  bake_one->add_option("-o,--output", one.output, "Output folder")->required();
  bake_one->add_option("--plan-dir", one_plan,
                       "Plan files written by `plan` (default: plan the "
                       "whole root here)");
  bake_one->add_option("--depfile", one_depfile, "Write the files the bake read here");
  bake_one->add_option("--stamp", one_stamp, "Write this file when the bake succeeded");
  std::string one_depfile_target, plan_depfile_target;
  bake_one->add_option("--depfile-target", one_depfile_target,
                       "The output the depfile names (default: the stamp)");
  bake_one->add_option("--config", one_config, "baker.json to use");
  bake_one->add_option("--preset", one.preset, "Preset from baker.json to apply");
  bake_one->add_option("--cache-dir", one_cache, "Shared cache folder");
  bake_one->add_flag("--no-cache", one.no_cache, "Use no shared cache");
  bake_one->add_option("--cache-size", cache_size_mb, "MiB the shared cache is trimmed to")
      ->check(CLI::Range(0.0, 1e9));
  bake_one->add_flag("--force", one.force, "Bake even when up to date");
  bake_one->add_flag("--verify", one.verify, "Re-read and unpack each output after writing it");
  bake_one->add_flag("-q,--quiet", one.quiet, "Print only errors");
  bake_one
      ->add_option("--time-limit", one.time_limit,
                   "Seconds the source may bake before it fails (0: no limit)")
      ->default_val(baker::kDefaultTimeLimit)
      ->check(seconds);

  baker::PlanOptions plan;
  std::string plan_output, plan_config, plan_depfile, plan_stamp;
  CLI::App* planner = app.add_subcommand(
      "plan", "Write every source's plan file (texture roles, output claims) for bake-one");
  planner->add_option("root", plan.root, "The input folder")->required();
  planner->add_option("--plan-dir", plan.plan_dir, "Where the plan files go")->required();
  planner->add_option("-o,--output", plan_output, "The output folder (left out of the walk)");
  planner->add_option("--config", plan_config, "baker.json to use");
  planner->add_option("--preset", plan.preset, "Preset from baker.json to apply");
  planner->add_option("--depfile", plan_depfile, "Write the files the plan read here");
  planner->add_option("--stamp", plan_stamp, "Write this file when done");
  planner->add_option("--depfile-target", plan_depfile_target,
                      "The output the depfile names (default: the stamp)");
  planner->add_flag("-q,--quiet", plan.quiet, "Print only errors");

  baker::CollectOptions collect;
  std::string collect_cache, collect_config;
  CLI::App* collector = app.add_subcommand(
      "collect", "Write the cache and manifest of an output folder from its bake-one records");
  collector->add_option("root", collect.root, "The input folder")->required();
  collector->add_option("-o,--output", collect.output, "Output folder")->required();
  collector->add_option("--cache-dir", collect_cache, "Shared cache folder to trim");
  collector->add_flag("--no-cache", collect.no_cache, "Use no shared cache");
  collector->add_option("--config", collect_config,
                        "baker.json to use (its \"exclude\" leaves sources out)");
  collector->add_option("--preset", collect.preset, "Preset from baker.json to apply");
  collector->add_option("--cache-size", cache_size_mb, "MiB the shared cache is trimmed to")
      ->check(CLI::Range(0.0, 1e9));
  collector->add_flag("-q,--quiet", collect.quiet, "Print only errors");

  std::vector<std::filesystem::path> merge_shards;
  std::string merge_out;
  bool merge_quiet = false;
  CLI::App* merger =
      app.add_subcommand("merge", "Join the output folders of --shard bakes into one");
  merger->add_option("shards", merge_shards, "Output folders of the shards")->required();
  merger->add_option("-o,--output", merge_out, "The merged output folder")->required();
  merger->add_flag("-q,--quiet", merge_quiet, "Print only problems");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help prints and succeeds; every usage error exits 2 (docs/baker.md), not CLI11's own codes.
    return app.exit(e) == 0 ? 0 : 2;
  }

  if (info->parsed())
    return with_output_written(
        guarded(info_path, [&] { return baker::run_info(info_path, info_sources, info_json); }));
  if (check->parsed())
    return with_output_written(
        guarded(check_dir, [&] { return baker::run_check(check_dir, check_quiet); }));
  if (exporter->parsed()) {
    return guarded(export_in, [&] { return baker::run_export(export_in, export_out, export_mip); });
  }
  if (pack->parsed()) {
    return guarded(pack_dir, [&] { return baker::run_pack(pack_dir, pack_out, pack_quiet); });
  }
  if (init->parsed()) return guarded(init_dir, [&] { return baker::run_init(init_dir); });
  auto optional_path = [](const std::string& text) {
    return text.empty() ? std::nullopt : std::optional<std::filesystem::path>(text);
  };
  if (bake_one->parsed()) {
    one.plan_dir = optional_path(one_plan);
    one.depfile = optional_path(one_depfile);
    one.stamp = optional_path(one_stamp);
    one.config = optional_path(one_config);
    one.cache_dir = optional_path(one_cache);
    if (!one_depfile_target.empty()) one.depfile_target = one_depfile_target;
    one.cache_limit = uint64_t(cache_size_mb * 1048576.0);
    return guarded(one.source.string(), [&] { return baker::run_bake_one(one); });
  }
  if (planner->parsed()) {
    plan.output = optional_path(plan_output);
    plan.config = optional_path(plan_config);
    plan.depfile = optional_path(plan_depfile);
    plan.stamp = optional_path(plan_stamp);
    if (!plan_depfile_target.empty()) plan.depfile_target = plan_depfile_target;
    return guarded(plan.root.string(), [&] { return baker::run_plan(plan); });
  }
  if (collector->parsed()) {
    collect.cache_dir = optional_path(collect_cache);
    collect.config = optional_path(collect_config);
    collect.cache_limit = uint64_t(cache_size_mb * 1048576.0);
    return guarded(collect.output.string(), [&] { return baker::run_collect(collect); });
  }
  if (merger->parsed()) {
    return guarded(merge_out,
                   [&] { return baker::run_merge(merge_shards, merge_out, merge_quiet); });
  }
  std::optional<std::filesystem::path> config_path;
  if (!config.empty()) config_path = config;
  if (list_presets)
    return with_output_written(
        guarded(input, [&] { return baker::run_list_presets(input, config_path); }));
  if (input.empty()) {
    std::fputs("error: no input folder or file given\nRun with --help for more information.\n",
               stderr);
    return 2;
  }
  bake.input = input;
  if (!root.empty()) bake.root = root;
  bake.memory_budget = memory_budget_mb << 20;
  if (!output.empty()) bake.output = output;
  bake.config = config_path;
  if (!json_report.empty()) bake.json_report = json_report;
  if (!bake_pack.empty()) bake.pack = bake_pack;
  if (!cache_dir.empty()) bake.cache_dir = cache_dir;
  bake.no_cache = no_cache;
  bake.cache_limit = uint64_t(cache_size_mb * 1048576.0);
  if (!shard.empty()) {
    std::string why;
    bake.shard = baker::parse_shard(shard, why);
    std::error_code ec;
    if (!bake.shard || !root.empty() || watch || !std::filesystem::is_directory(input, ec) ||
        !bake_pack.empty()) {
      std::fprintf(stderr, "error: --shard %s: %s\nRun with --help for more information.\n",
                   baker::terminal_text(shard).c_str(),
                   !bake.shard          ? why.c_str()
                   : !bake_pack.empty() ? "a shard's output holds its part alone: merge the "
                                          "shards (asset-baker merge), then pack"
                                        : "bakes a folder, not with one file or --watch");
      return 2;
    }
  }
  if (watch && !bake_pack.empty()) {
    std::fputs(
        "error: --pack packs one bake; it cannot be combined with --watch\n"
        "Run with --help for more information.\n",
        stderr);
    return 2;
  }
  if (watch) return guarded(input, [&] { return baker::run_watch(bake); });
  int status = guarded(input, [&] { return baker::run_bake(bake); });
  if (bake_pack.empty()) return status;
  if (status != 0) {
    // A pack is all or nothing: one with failed sources missing would load as a smaller game.
    std::fprintf(stderr, "pack: %s not written: the bake did not succeed (exit %d)\n",
                 baker::terminal_text(bake_pack).c_str(), status);
    return status;
  }
  std::optional<baker::ResolvedBake> baked = baker::resolve_bake(bake);
  if (!baked) return 2;  // run_bake resolved it just now: unreachable
  return guarded(bake_pack, [&] { return baker::run_pack(baked->output, bake_pack, bake.quiet); });
}
