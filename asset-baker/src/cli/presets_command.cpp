#include "cli/commands.h"

#include "common/terminal_text.h"
#include "pipeline/bake_config.h"

#include <cstdio>

namespace baker {

int run_list_presets(const std::filesystem::path& input,
                     const std::optional<std::filesystem::path>& config_path) {
  std::optional<std::filesystem::path> path =
      config_path ? config_path : find_config(input.empty() ? "." : input);
  if (!path) {
    std::puts("config: none, built-in defaults (no baker.json found; asset-baker init writes one)");
    return 0;
  }
  BakeConfig config;
  if (BakeStatus s = load_config(*path, "", config); !s) {
    print_message("error", s.message());
    return 2;
  }
  std::printf("%s\n", terminal_text(config_line(config)).c_str());
  if (config.presets.empty()) std::puts("no presets");
  for (auto it = config.presets.begin(); it != config.presets.end(); ++it) {
    const nlohmann::json& p = it.value();
    std::printf("%s", terminal_text(it.key()).c_str());
    if (p.is_object() && p.contains("output"))
      std::printf("  output: %s", p["output"].dump().c_str());
    if (p.is_object() && p.contains("settings"))
      std::printf("  settings: %s", p["settings"].dump().c_str());
    if (p.is_object() && p.contains("rules") && p["rules"].is_array())
      std::printf("  rules: %zu", p["rules"].size());
    std::printf("\n");
  }
  return 0;
}

}  // namespace baker
