// Fuzz target 1: an asset file from memory, as a game loads it from a mod or a download.
// parse_binaryfile -> read_texture_info / read_mesh_info / read_clip_info -> unpack into buffers
// of exactly the promised size (so AddressSanitizer sees any write past them), by every unpack
// entry point (the skin stream, the clip keys too), sample_clip over what unpack_clip accepted;
// read_material_info, read_prefab_info and read_skeleton_info, whose output must pack again, and
// skeleton_joint_matrices over an accepted skeleton.
//
// Each input is tried twice: as is (the container checks), and with its header lengths and
// version repaired to match the input size, so mutations inside the JSON and the blob reach the
// metadata readers and the decompressor instead of stopping at LengthMismatch.
#include "fuzz_common.h"

#include <assetlib/assetlib.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <vector>

namespace {

using namespace assetlib;

// LZ4 cannot expand more than this; the readers promise never to accept more (docs/format.md).
constexpr uint64_t kMaxExpansion = 256;

// A heap buffer of exactly `size` bytes: a write past it is a heap-buffer-overflow under ASan.
// 16-byte aligned (operator new), as a staging buffer would be.
std::unique_ptr<std::byte[]> exact_buffer(uint64_t size) {
  return std::unique_ptr<std::byte[]>(new std::byte[size_t(size)]);
}

void check_chunks(const std::vector<Chunk>& chunks, Compression compression, uint64_t raw_total,
                  size_t blob_size) {
  uint64_t raw = 0, packed = 0;
  for (const Chunk& c : chunks) {
    FUZZ_CHECK(c.raw_offset == raw && c.packed_offset == packed, "chunks contiguous");
    // A legacy vkguide block (LegacyLZ4) may be larger than its data, within LZ4's bound.
    uint64_t max_packed =
        compression == Compression::LegacyLZ4 ? c.raw_size + c.raw_size / 255 + 16 : c.raw_size;
    FUZZ_CHECK(c.raw_size >= 1 && c.packed_size <= max_packed, "chunk sizes");
    FUZZ_CHECK(c.raw_size <= kMaxExpansion * c.packed_size, "chunk expansion bounded");
    raw += c.raw_size;
    packed += c.packed_size;
  }
  FUZZ_CHECK(raw == raw_total && packed == blob_size, "chunks cover the data and the blob");
}

void exercise_texture(const AssetView& view) {
  TextureInfo info;
  Status s = read_texture_info(view, info);
  if (!s) {
    FUZZ_CHECK(!s.message.empty(), "errors carry a message");
    return;
  }
  // Nothing may be allocated beyond what the file can justify.
  FUZZ_CHECK(info.total_size <= kMaxExpansion * view.blob.size(),
             "unpacked size justified by the blob");
  FUZZ_CHECK(!info.mips.empty() && info.width >= 1 && info.height >= 1, "a texture has a level");
  FUZZ_CHECK(info.width <= 32768 && info.height <= 32768, "dimension cap");
  check_chunks(info.chunks, info.compression, info.total_size, view.blob.size());

  auto all = exact_buffer(info.total_size);
  Status whole =
      unpack_texture(info, view.blob.data(), view.blob.size(), all.get(), info.total_size);
  if (info.total_size > 0) {
    Status small =
        unpack_texture(info, view.blob.data(), view.blob.size(), all.get(), info.total_size - 1);
    FUZZ_CHECK(small.code == ErrorCode::DestinationTooSmall, "a short destination is refused");
  }
  // The smallest levels alone, into a buffer of exactly their size.
  uint32_t last = uint32_t(info.mips.size() - 1);
  uint64_t tail_size = info.total_size - info.mips[last].offset;
  auto tail = exact_buffer(tail_size);
  Status tail_status =
      unpack_texture_mips(info, last, view.blob.data(), view.blob.size(), tail.get(), tail_size);
  if (whole && tail_status) {
    FUZZ_CHECK(std::memcmp(tail.get(), all.get() + info.mips[last].offset, size_t(tail_size)) == 0,
               "unpack_texture_mips agrees with unpack_texture");
  }
  // A partial read of the same levels: only their blob bytes, in a buffer of exactly that size.
  BlobRange range;
  if (texture_mips_blob_range(info, last, range)) {
    FUZZ_CHECK(range.offset <= view.blob.size() && range.size <= view.blob.size() - range.offset,
               "the blob range of the last levels lies inside the blob");
    auto part = exact_buffer(range.size);
    std::memcpy(part.get(), view.blob.data() + range.offset, size_t(range.size));
    auto partial = exact_buffer(tail_size);
    UnpackJob job;
    std::span<const std::byte> bytes(part.get(), size_t(range.size));
    FUZZ_CHECK(texture_unpack_job(info, last, bytes, partial.get(), tail_size, job, range.offset),
               "a job for the levels whose range was found");
    Status partial_status = unpack_jobs(std::span<const UnpackJob>(&job, 1));
    FUZZ_CHECK(partial_status.ok() == tail_status.ok(),
               "a partial read unpacks exactly when the whole blob does");
    if (partial_status && tail_status) {
      FUZZ_CHECK(std::memcmp(partial.get(), tail.get(), size_t(tail_size)) == 0,
                 "a partial read unpacks the same bytes");
    }
  }
  FUZZ_CHECK(unpack_texture_mips(info, uint32_t(info.mips.size()), view.blob.data(),
                                 view.blob.size(), tail.get(), tail_size)
                     .code == ErrorCode::InvalidArgument,
             "a level past the chain is refused");
  // Chunk by chunk, in reverse order, into one shared destination.
  auto pieces = exact_buffer(info.total_size);
  bool chunks_ok = true;
  for (size_t i = info.chunks.size(); i-- > 0;) {
    const Chunk& c = info.chunks[i];
    Status cs = unpack_chunk(info.compression, c, view.blob.data(), view.blob.size(),
                             pieces.get() + c.raw_offset, size_t(info.total_size - c.raw_offset));
    chunks_ok = chunks_ok && cs.ok();
  }
  FUZZ_CHECK(whole.ok() == chunks_ok, "unpack_texture fails exactly when a chunk fails");
  if (whole && chunks_ok) {
    FUZZ_CHECK(std::memcmp(pieces.get(), all.get(), size_t(info.total_size)) == 0,
               "chunks unpack to the same bytes as the whole");
  }
}

// The skin stream: every joint index of an accepted stream is below the skeleton's joint count.
template <typename Record>
void check_skin_joints(const std::byte* skin, const MeshInfo& info) {
  for (uint32_t v = 0; v < info.vertex_count; ++v) {
    Record r;
    std::memcpy(&r, skin + size_t(v) * sizeof(Record), sizeof r);
    for (auto j : r.joints) FUZZ_CHECK(j < info.skin_joint_count, "skin joints in range");
  }
}

void exercise_mesh_skin(const AssetView& view, const MeshInfo& info) {
  auto skin = exact_buffer(info.skin_buffer_size);
  Status s =
      unpack_mesh_skin(info, view.blob.data(), view.blob.size(), skin.get(), info.skin_buffer_size);
  if (info.skin_format == SkinFormat::None) {
    FUZZ_CHECK(s.code == ErrorCode::InvalidArgument, "a rigid mesh has no skin to unpack");
    return;
  }
  FUZZ_CHECK(info.skin_joint_count >= 1 &&
                 info.skin_joint_count <= (info.skin_format == SkinFormat::J8W8 ? 256 : kMaxJoints),
             "skin joint count");
  if (!s) return;
  if (info.skin_format == SkinFormat::J8W8) {
    check_skin_joints<Skin_J8W8>(skin.get(), info);
  } else {
    check_skin_joints<Skin_J16W16>(skin.get(), info);
  }
  if (info.skin_buffer_size > 0) {
    FUZZ_CHECK(unpack_mesh_skin(info, view.blob.data(), view.blob.size(), skin.get(),
                                info.skin_buffer_size - 1)
                       .code == ErrorCode::DestinationTooSmall,
               "a short skin destination is refused");
  }
}

void exercise_mesh(const AssetView& view) {
  MeshInfo info;
  Status s = read_mesh_info(view, info);
  if (!s) {
    FUZZ_CHECK(!s.message.empty(), "errors carry a message");
    return;
  }
  uint64_t total = mesh_unpacked_size(info);
  FUZZ_CHECK(total <= kMaxExpansion * view.blob.size(), "unpacked size justified by the blob");
  FUZZ_CHECK(info.skin_buffer_size == uint64_t(info.vertex_count) * info.skin_stride &&
                 info.skin_stride == skin_format_stride(info.skin_format),
             "skin size");
  FUZZ_CHECK(info.vertex_buffer_size == uint64_t(info.vertex_count) * info.vertex_stride,
             "vertex size");
  FUZZ_CHECK(info.vertex_stride == vertex_format_stride(info.vertex_format), "stride");
  FUZZ_CHECK(info.index_size == 2 || info.index_size == 4, "index size");
  check_chunks(info.chunks, info.compression, total, view.blob.size());
  uint64_t next = 0;
  for (const Submesh& sub : info.submeshes) {
    FUZZ_CHECK(sub.first_index == next && sub.material < info.materials.size(), "submesh ranges");
    next += sub.index_count;
  }
  FUZZ_CHECK(next == info.index_count, "submeshes cover LOD 0");

  auto vertices = exact_buffer(info.vertex_buffer_size);
  auto indices = exact_buffer(info.index_buffer_size);
  Status u = unpack_mesh(info, view.blob.data(), view.blob.size(), vertices.get(),
                         info.vertex_buffer_size, indices.get(), info.index_buffer_size);
  (void)u;
  if (info.vertex_buffer_size > 0) {
    Status small = unpack_mesh(info, view.blob.data(), view.blob.size(), vertices.get(),
                               info.vertex_buffer_size - 1, indices.get(), info.index_buffer_size);
    FUZZ_CHECK(small.code == ErrorCode::DestinationTooSmall,
               "a short vertex destination is refused");
  }
  // Meshlets: unpacked data is checked against its arrays before anyone views it.
  auto meshlets = exact_buffer(info.meshlet_data_size);
  Status m = unpack_meshlets(info, view.blob.data(), view.blob.size(), meshlets.get(),
                             info.meshlet_data_size);
  if (m && info.meshlet_count > 0) {
    MeshletView mv = meshlet_view(info, meshlets.get());
    uint64_t sum = 0;
    for (uint32_t i = 0; i < info.meshlet_count; ++i) {
      const Meshlet& ml = mv.meshlets[i];
      for (uint32_t v = 0; v < ml.vertex_count; ++v) sum += mv.vertices[ml.vertex_offset + v];
      for (uint32_t t = 0; t < ml.triangle_count * 3; ++t) {
        FUZZ_CHECK(mv.triangles[ml.triangle_offset + t] < ml.vertex_count, "meshlet triangle");
      }
    }
    (void)sum;
  }
  exercise_mesh_skin(view, info);
}

// Metadata-only assets: whatever is accepted has a consistent structure and packs again to the
// same metadata.
void exercise_material(const AssetView& view) {
  MaterialInfo info;
  Status s = read_material_info(view, info);
  if (!s) {
    FUZZ_CHECK(!s.message.empty(), "errors carry a message");
    return;
  }
  FUZZ_CHECK(view.blob.empty() && info.alpha_mode != AlphaMode::Unknown, "material structure");
  AssetFile again;
  FUZZ_CHECK(pack_material(info, again).ok(), "an accepted material packs again");
  MaterialInfo reread;
  FUZZ_CHECK(read_material_info(again, reread).ok() && reread.name == info.name,
             "material round trip");
}

void exercise_prefab(const AssetView& view) {
  PrefabInfo info;
  Status s = read_prefab_info(view, info);
  if (!s) {
    FUZZ_CHECK(!s.message.empty(), "errors carry a message");
    return;
  }
  std::vector<float> world(16 * info.nodes.size());
  for (size_t i = 0; i < info.nodes.size(); ++i) {
    const PrefabNode& n = info.nodes[i];
    FUZZ_CHECK(n.parent >= -1 && n.parent < int32_t(i), "parents first");
    FUZZ_CHECK(n.camera < int32_t(info.cameras.size()) && n.light < int32_t(info.lights.size()),
               "camera and light indices");
    prefab_local_matrix(n, &world[16 * i]);
  }
  AssetFile again;
  FUZZ_CHECK(pack_prefab(info, again).ok(), "an accepted prefab packs again");
}

void exercise_skeleton(const AssetView& view) {
  SkeletonInfo info;
  Status s = read_skeleton_info(view, info);
  if (!s) {
    FUZZ_CHECK(!s.message.empty(), "errors carry a message");
    return;
  }
  FUZZ_CHECK(!info.joints.empty() && info.joints.size() <= kMaxJoints, "joint count");
  std::vector<NodePose> poses;
  for (size_t i = 0; i < info.joints.size(); ++i) {
    const SkeletonJoint& j = info.joints[i];
    FUZZ_CHECK(j.parent >= -1 && j.parent < int32_t(i) && j.node >= -1, "parents first");
    poses.push_back(j.rest);
  }
  std::vector<float> matrices(16 * info.joints.size());
  FUZZ_CHECK(skeleton_joint_matrices(info, poses, matrices), "joint matrices of the rest pose");
  AssetFile again;
  FUZZ_CHECK(pack_skeleton(info, again).ok(), "an accepted skeleton packs again");
}

// An accepted clip unpacks into exactly its key floats; what unpack_clip accepts samples, at any
// time, into poses of the nodes it names (those past the poses are skipped) with unit rotations.
void exercise_clip(const AssetView& view) {
  ClipInfo info;
  Status s = read_clip_info(view, info);
  if (!s) {
    FUZZ_CHECK(!s.message.empty(), "errors carry a message");
    return;
  }
  uint64_t bytes = clip_unpacked_size(info);
  FUZZ_CHECK(bytes <= kMaxExpansion * view.blob.size(), "unpacked size justified by the blob");
  FUZZ_CHECK(info.duration >= 0 && std::isfinite(info.duration), "duration");
  check_chunks(info.chunks, info.compression, bytes, view.blob.size());
  std::vector<float> keys(size_t(info.key_float_count));
  Status u = unpack_clip(info, view.blob.data(), view.blob.size(), keys.data(), keys.size());
  if (info.key_float_count > 0) {
    FUZZ_CHECK(
        unpack_clip(info, view.blob.data(), view.blob.size(), keys.data(), keys.size() - 1).code ==
            ErrorCode::DestinationTooSmall,
        "a short key destination is refused");
  }
  if (!u) return;
  uint32_t nodes = 0;
  for (const ClipChannel& c : info.channels) nodes = std::max(nodes, std::min(c.node, 4095u) + 1);
  std::vector<NodePose> poses(nodes);
  for (float t : {-1.0f, 0.0f, info.duration * 0.37f, info.duration, info.duration + 1,
                  std::nanf(""), INFINITY}) {
    sample_clip(info, keys.data(), t, poses);
    for (const NodePose& p : poses) {
      float q = p.rotation[0] * p.rotation[0] + p.rotation[1] * p.rotation[1] +
                p.rotation[2] * p.rotation[2] + p.rotation[3] * p.rotation[3];
      FUZZ_CHECK(std::fabs(q - 1) < 1e-5f, "sampled rotations are unit");
    }
  }
}

void exercise(std::span<const std::byte> bytes) {
  AssetView view;
  Status s = parse_binaryfile(bytes, view, "fuzz.bin");
  if (!s) {
    FUZZ_CHECK(s.code == ErrorCode::TruncatedHeader || s.code == ErrorCode::LengthMismatch ||
                   s.code == ErrorCode::UnknownType || s.code == ErrorCode::UnsupportedVersion ||
                   s.code == ErrorCode::InvalidValue,
               "container errors (UnknownType: not a type tag; InvalidValue: JSON over "
               "assetlib::kMaxJsonSize)");
    FUZZ_CHECK(fuzz::starts_with(s.message, "fuzz.bin"), "errors name the source");
    return;
  }
  FUZZ_CHECK(kHeaderSize + view.json.size() + view.blob.size() == bytes.size(),
             "the view covers the file");
  exercise_texture(view);
  exercise_mesh(view);
  exercise_material(view);
  exercise_prefab(view);
  exercise_skeleton(view);
  exercise_clip(view);
}

uint32_t get_u32(const std::byte* p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}
void put_u32(std::byte* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = std::byte((v >> (8 * i)) & 0xff);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The input is copied into a buffer of its exact size: reading past it is a finding.
  std::vector<std::byte> bytes(reinterpret_cast<const std::byte*>(data),
                               reinterpret_cast<const std::byte*>(data) + size);
  exercise(bytes);
  if (size >= kHeaderSize && size - kHeaderSize <= UINT32_MAX) {
    uint32_t body = uint32_t(size - kHeaderSize);
    uint32_t json_length = std::min(get_u32(bytes.data() + 8), body);
    std::vector<std::byte> repaired = bytes;
    put_u32(repaired.data() + 4, kFormatVersion);
    put_u32(repaired.data() + 8, json_length);
    put_u32(repaired.data() + 12, body - json_length);
    if (repaired != bytes) exercise(repaired);
  }
  return 0;
}
