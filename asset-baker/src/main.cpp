// asset-baker: command-line wiring only; the work lives in bake_tree, info_command, check_command.
#include "bake_tree.h"
#include "check_command.h"
#include "export_command.h"
#include "info_command.h"

#include <CLI/CLI.hpp>

int main(int argc, char** argv) {
  CLI::App app{"asset-baker: converts images and OBJ models into engine-ready assetlib files"};
  app.require_subcommand(0, 1);

  baker::BakeOptions bake;
  std::string input, output, config, json_report;
  app.add_option("input", input, "Folder of source assets to bake");
  app.add_option("-o,--output", output, "Output folder (default: the preset's, else <input>-baked)");
  app.add_option("-j,--jobs", bake.jobs, "Parallel bakes (default: all cores)");
  app.add_flag("--force", bake.force, "Rebake everything, ignoring the cache");
  app.add_option("--config", config, "baker.json to use (default: nearest in the input folder or above)");
  app.add_option("--preset", bake.preset, "Preset from baker.json to apply");
  app.add_flag("--verify", bake.verify, "Re-read and unpack each output right after writing it");
  app.add_option("--json", json_report, "Write a machine-readable report to this file");
  app.add_flag("-q,--quiet", bake.quiet, "Print only errors");
  app.add_flag("-v,--verbose", bake.verbose, "Also list skipped and up-to-date files");

  std::string info_path, info_sources;
  bool info_json = false;
  CLI::App* info = app.add_subcommand("info", "Print header, metadata and sizes of baked files");
  info->add_option("path", info_path, "A .tx/.mesh file or a folder")->required();
  info->add_flag("--json", info_json, "Print JSON instead of text");
  info->add_option("--sources", info_sources, "The bake's input folder: also report each texture's PSNR");

  std::string check_dir;
  bool check_quiet = false;
  CLI::App* check = app.add_subcommand("check", "Validate a baked folder against its manifest");
  check->add_option("dir", check_dir, "Baked folder")->required();
  check->add_flag("-q,--quiet", check_quiet, "Print only problems");

  std::string export_in, export_out;
  uint32_t export_mip = 0;
  CLI::App* exporter = app.add_subcommand("export", "Decode a baked texture back to PNG");
  exporter->add_option("texture", export_in, "A .tx file")->required();
  exporter->add_option("-o,--output", export_out, "PNG to write")->required();
  exporter->add_option("--mip", export_mip, "Mip level to export (default 0)");

  CLI11_PARSE(app, argc, argv);

  if (info->parsed()) return baker::run_info(info_path, info_sources, info_json);
  if (check->parsed()) return baker::run_check(check_dir, check_quiet);
  if (exporter->parsed()) return baker::run_export(export_in, export_out, export_mip);
  if (input.empty()) {
    std::fputs(app.help().c_str(), stderr);
    return 2;
  }
  bake.input = input;
  if (!output.empty()) bake.output = output;
  if (!config.empty()) bake.config = config;
  if (!json_report.empty()) bake.json_report = json_report;
  return baker::run_bake(bake);
}
