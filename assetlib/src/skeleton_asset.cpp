// Skeleton assets ("SKEL"): the joints' metadata <-> SkeletonInfo (docs/format.md, "Skeleton").
#include "metadata.h"
#include "no_throw.h"

#include <assetlib/skeleton_asset.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace assetlib {
namespace {

using detail::json;

constexpr float kIdentity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

json floats(const float* v, size_t n) { return json(std::vector<float>(v, v + n)); }

bool is_identity(const float m[16]) { return std::memcmp(m, kIdentity, sizeof kIdentity) == 0; }

json joint_to_json(const SkeletonJoint& j) {
  // Most joints have no non-joint ancestors: an empty parent_matrix keeps their JSON short.
  return {
      {"name", j.name},
      {"parent", j.parent},
      {"node", j.node},
      {"translation", floats(j.rest.translation, 3)},
      {"rotation", floats(j.rest.rotation, 4)},
      {"scale", floats(j.rest.scale, 3)},
      {"parent_matrix", is_identity(j.parent_matrix) ? json::array() : floats(j.parent_matrix, 16)},
      {"inverse_bind", floats(j.inverse_bind, 16)}};
}

// `key`: 16 finite numbers, or [] for the identity.
void read_matrix_or_identity(detail::JsonReader& reader, detail::JsonValue j, const char* key,
                             float out[16]) {
  detail::JsonArray values = reader.array(j, key);
  if (!reader.ok()) return;
  if (values.empty()) {
    std::memcpy(out, kIdentity, sizeof kIdentity);
    return;
  }
  reader.f32_array(j, key, out, 16);
}

void read_joint(detail::JsonReader& reader, detail::JsonValue j, int32_t index,
                SkeletonJoint& joint) {
  joint.name = reader.string(j, "name");
  joint.parent = reader.i32(j, "parent", -1, index - 1);
  joint.node = reader.i32(j, "node", -1, INT32_MAX);
  reader.f32_array(j, "translation", joint.rest.translation, 3);
  reader.f32_array(j, "rotation", joint.rest.rotation, 4);
  reader.f32_array(j, "scale", joint.rest.scale, 3);
  read_matrix_or_identity(reader, j, "parent_matrix", joint.parent_matrix);
  reader.f32_array(j, "inverse_bind", joint.inverse_bind, 16);
}

// Skeletons are read once per asset, not per frame: built in an info of their own (allocating),
// then moved into `info`.
Status read_skeleton_info_throwing(const AssetView& file, SkeletonInfo& info) {
  detail::ParsedJson parsed;
  if (Status s = detail::parse_metadata(file, "SKEL", parsed); !s) return s;
  detail::JsonValue meta = parsed.root();
  detail::JsonReader reader("SKEL metadata");
  SkeletonInfo skeleton;
  skeleton.original_file = reader.string(meta, "original_file");
  detail::JsonArray joints = reader.entries(meta, "joints");
  if (reader.ok() && (joints.empty() || joints.size() > kMaxJoints)) {
    reader.fail(ErrorCode::InvalidValue, "a skeleton holds 1.." + std::to_string(kMaxJoints) +
                                             " joints, not " + std::to_string(joints.size()));
  }
  int32_t index = 0;
  for (detail::JsonValue j : joints) {
    if (!reader.ok()) break;
    read_joint(reader, j, index++, skeleton.joints.emplace_back());
  }
  detail::read_no_blob(reader, meta, file.blob.size());
  if (!reader.ok()) return reader.status();
  info = std::move(skeleton);
  return {};
}

// What read_skeleton_info checks of the structure, for the writer; finiteness is checked by reading
// the result back.
Status check_skeleton(const SkeletonInfo& info) {
  auto invalid = [](const std::string& what) {
    return Status::error(ErrorCode::InvalidArgument, "pack_skeleton: " + what);
  };
  if (info.joints.empty() || info.joints.size() > kMaxJoints) {
    return invalid("a skeleton holds 1.." + std::to_string(kMaxJoints) + " joints, not " +
                   std::to_string(info.joints.size()));
  }
  for (size_t i = 0; i < info.joints.size(); ++i) {
    const SkeletonJoint& j = info.joints[i];
    if (j.parent < -1 || j.parent >= int32_t(i))
      return invalid("joint " + std::to_string(i) + ": parent is not an earlier joint");
    if (j.node < -1) return invalid("joint " + std::to_string(i) + ": node is below -1");
  }
  return {};
}

Status pack_skeleton_throwing(const SkeletonInfo& info, AssetFile& out) {
  if (Status s = check_skeleton(info); !s) return s;
  json joints = json::array();
  for (const SkeletonJoint& j : info.joints) joints.push_back(joint_to_json(j));
  json meta = {{"joints", std::move(joints)}, {"original_file", info.original_file}};
  detail::write_no_blob(meta);
  AssetFile candidate;
  if (Status s = detail::finish_asset(candidate, "SKEL", meta, {}, "pack_skeleton"); !s) return s;
  // Finiteness, as the reader checks it: a round trip through the reader's own code.
  SkeletonInfo reread;
  if (Status s = read_skeleton_info_throwing(candidate, reread); !s) {
    return Status::error(ErrorCode::InvalidArgument, "pack_skeleton: " + s.message);
  }
  out = std::move(candidate);
  return {};
}

}  // namespace

Status pack_skeleton(const SkeletonInfo& info, AssetFile& out) {
  return detail::no_throw("pack_skeleton", [&] { return pack_skeleton_throwing(info, out); });
}

Status read_skeleton_info(const AssetView& file, SkeletonInfo& info) {
  return detail::no_throw("SKEL metadata", [&] { return read_skeleton_info_throwing(file, info); });
}

}  // namespace assetlib
