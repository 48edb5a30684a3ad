#include "pipeline/source_plan.h"

#include "pipeline/depfile.h"
#include "pipeline/output_tree.h"
#include "pipeline/plan_textures.h"

#include <nlohmann/json.hpp>

namespace baker {
namespace {

using nlohmann::json;

// The "roles" of each texture made of `image`, in one order, and for the image's own plan file
// how they are sampled, as "edges" (wrap u, wrap v, and the alpha cutoff of a masked use). A
// model's plan file leaves the edges out: the model's bake does not use them, and a wrap changed
// in one model must not rebake the others that use the image.
json image_plan(const TexturePlan& plan, const std::string& image, bool with_edges) {
  json roles = json::array(), edges = json::array();
  for (const TextureTarget& target : plan.targets(image)) {
    roles.push_back(texture_role_name(target.role));
    edges.push_back(sampling_to_json(target.sampling));
  }
  json entry = {{"natural", texture_role_name(plan.natural_role(image))}, {"roles", roles}};
  if (with_edges) entry["edges"] = edges;
  return entry;
}

// The plan file text of `source`.
std::string plan_text(const std::filesystem::path& root, const Source& source,
                      const std::string& taken, const TexturePlan& plan,
                      std::vector<std::string>& files_read) {
  json images = json::object();
  if (source.kind == AssetKind::Texture) {
    images[source.relative] = image_plan(plan, source.relative, true);
  } else {
    std::vector<Dependency> read;
    for (const ImageUse& use : texture_uses(root, source, &read)) {
      // The image's plan lists every role of it.
      if (plan.has_image(use.image)) images[use.image] = image_plan(plan, use.image, false);
    }
    for (const Dependency& file : read) files_read.push_back(file.path);
  }
  json doc = {{"images", images}};
  if (!taken.empty()) doc["refused"] = taken;
  return doc.dump(1, '\t', false, json::error_handler_t::replace) + "\n";
}

}  // namespace

std::string plan_file_name(const std::string& relative) {
  return build_file_name(relative) + kPlanExtension;
}

namespace {

// Writes `text` as the plan file of `relative`, unless it holds that already.
BakeStatus write_plan_file(const OutputTree& tree, const std::string& relative,
                           const std::string& text, PlanWrite& result) {
  std::string path = plan_file_name(relative);
  if (tree.read_file(path, kMaxPlanBytes) == text) {
    ++result.unchanged;
    return {};
  }
  const std::span<const std::byte> parts[] = {std::as_bytes(std::span(text))};
  if (BakeStatus s = tree.write(path, parts); !s) return s;
  ++result.rewritten;
  return {};
}

}  // namespace

BakeStatus write_source_plans(const std::filesystem::path& plan_dir,
                              const std::filesystem::path& root, const std::vector<Source>& sources,
                              const std::vector<std::string>& taken, const TexturePlan& plan,
                              PlanWrite& result) {
  OutputTree tree;
  if (BakeStatus s = OutputTree::open(plan_dir, tree); !s) return s;
  for (size_t i = 0; i < sources.size(); ++i) {
    std::string text = plan_text(root, sources[i], taken[i], plan, result.files_read);
    if (BakeStatus s = write_plan_file(tree, sources[i].relative, text, result); !s) return s;
  }
  return {};
}

BakeStatus write_excluded_plans(const std::filesystem::path& plan_dir,
                                const std::filesystem::path& root,
                                const std::filesystem::path& output, const BakeConfig& config,
                                PlanWrite& result) {
  namespace fs = std::filesystem;
  if (config.exclude.empty()) return {};
  OutputTree tree;
  if (BakeStatus s = OutputTree::open(plan_dir, tree); !s) return s;
  std::error_code ec;
  fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    std::error_code entry_ec;
    if (it->is_directory(entry_ec) && !output.empty() &&
        fs::equivalent(it->path(), output, entry_ec)) {
      it.disable_recursion_pending();
      continue;
    }
    const std::string relative = it->path().lexically_relative(root).generic_string();
    // Any entry with a source's name (a FIFO too): a build globs them all.
    if (it->is_directory(entry_ec) || !source_kind(relative)) continue;
    std::optional<std::string> glob = exclusion_above(config, relative);
    if (!glob) continue;
    const std::string text = json{{"excluded", *glob}}.dump() + "\n";
    if (BakeStatus s = write_plan_file(tree, relative, text, result); !s) return s;
  }
  return {};
}

BakeStatus read_source_plan(const std::filesystem::path& plan_dir, const std::string& relative,
                            TexturePlan& plan, std::string& refused) {
  std::string path = (plan_dir / plan_file_name(relative)).string();
  OutputTree tree;
  std::error_code ec;
  if (!std::filesystem::is_directory(plan_dir, ec) || !OutputTree::open(plan_dir, tree))
    return BakeStatus::failure(BakeError::Config, plan_dir.string(), "no such plan folder");
  std::optional<std::string> text = tree.read_file(plan_file_name(relative), kMaxPlanBytes);
  if (!text) {
    return BakeStatus::failure(BakeError::Config, path,
                               "missing: run `asset-baker plan` before the bake");
  }
  json doc = json::parse(*text, nullptr, false);
  if (doc.is_object() && doc.contains("excluded")) {
    return BakeStatus::failure(BakeError::Config, path,
                               "planned as excluded by baker.json: run `asset-baker plan` again");
  }
  try {
    for (auto& [image, entry] : doc.at("images").items()) {
      std::optional<TextureRole> natural =
          texture_role_from_name(entry.at("natural").get<std::string>());
      if (!natural) throw std::invalid_argument("unknown role");
      plan.add_image(image, *natural);
      const json& roles = entry.at("roles");
      const json edges = entry.value("edges", json::array());  // a model's plan has none
      if (!roles.is_array() || !edges.is_array() ||
          (!edges.empty() && edges.size() != roles.size()))
        throw std::invalid_argument("roles and edges differ");
      for (size_t i = 0; i < roles.size(); ++i) {
        std::optional<TextureRole> role = texture_role_from_name(roles[i].get<std::string>());
        std::optional<SlotSampling> e =
            edges.empty() ? SlotSampling{} : sampling_from_json(edges[i]);
        if (!role || !e) throw std::invalid_argument("unknown role, wrap or alpha cutoff");
        plan.add_use(image, *role, *e);
      }
    }
    refused = doc.value("refused", std::string());
  } catch (const std::exception&) {
    return BakeStatus::failure(BakeError::Config, path, "not a plan the baker wrote");
  }
  return {};
}

}  // namespace baker
