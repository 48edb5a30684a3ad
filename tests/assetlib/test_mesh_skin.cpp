// Skinned meshes: the skin stream (section 4) round-trips in both formats, unpack_mesh_skin checks
// joint indices, readers refuse inconsistent skin metadata, and an older reader's view of a skinned
// mesh (no "skin" key) is refused rather than misread.
#include "edited_metadata.h"
#include "test_helpers.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstring>
#include <functional>

using namespace assetlib;
using nlohmann::json;
using test::edited;

namespace {

struct SkinnedGrid {
  test::GridMesh grid = test::grid_mesh(4);
  MeshInfo info = test::grid_info(grid);
  std::vector<std::byte> skin;
};

// Vertex v is bound to joints v % joints and (v + 1) % joints, weights 3:1 of the format's one.
SkinnedGrid skinned_grid(SkinFormat format, uint32_t joints) {
  SkinnedGrid m;
  m.info.skin_format = format;
  m.info.skin_joint_count = joints;
  m.info.skeleton = "models/grid.gltf#skin/0";
  for (uint32_t v = 0; v < m.info.vertex_count; ++v) {
    if (format == SkinFormat::J8W8) {
      Skin_J8W8 r{{uint8_t(v % joints), uint8_t((v + 1) % joints), 0, 0}, {191, 64, 0, 0}};
      auto bytes = reinterpret_cast<const std::byte*>(&r);
      m.skin.insert(m.skin.end(), bytes, bytes + sizeof r);
    } else {
      Skin_J16W16 r{{uint16_t(v % joints), uint16_t((v + 1) % joints), 0, 0}, {49151, 16384, 0, 0}};
      auto bytes = reinterpret_cast<const std::byte*>(&r);
      m.skin.insert(m.skin.end(), bytes, bytes + sizeof r);
    }
  }
  return m;
}

Status pack(const SkinnedGrid& m, AssetFile& out, Compression compression = Compression::LZ4) {
  PackOptions options;
  options.compression = compression;
  return pack_mesh(m.info, m.grid.vertices.data(), m.grid.vertices.size() * 44,
                   m.grid.indices.data(), m.grid.indices.size() * 4, out, options, nullptr,
                   m.skin.data(), m.skin.size());
}

}  // namespace

TEST_CASE("skin formats describe themselves") {
  CHECK(skin_format_stride(SkinFormat::J8W8) == 8);
  CHECK(skin_format_stride(SkinFormat::J16W16) == 16);
  CHECK(skin_format_stride(SkinFormat::None) == 0);
  CHECK(skin_format_stride(SkinFormat(7)) == 0);
  CHECK(std::string(skin_format_name(SkinFormat::J16W16)) == "J16W16");
  CHECK(std::string(skin_format_name(SkinFormat::None)) == "None");
  CHECK(std::string(skin_format_name(SkinFormat(7))) == "Unknown");
  CHECK(skin_format_from_name("J8W8") == SkinFormat::J8W8);
  CHECK(skin_format_from_name("j8w8") == SkinFormat::None);
  VertexAttribute attrs[2] = {{99, 99, 99}, {99, 99, 99}};
  CHECK(skin_format_attributes(SkinFormat::None, attrs) == 0);
  CHECK(attrs[0].location == 99);
  REQUIRE(skin_format_attributes(SkinFormat::J16W16, attrs) == 2);
  CHECK(attrs[0].location == 6);
  CHECK(attrs[1].location == 7);
  CHECK(attrs[1].offset == 8);
}

TEST_CASE("skinned meshes round-trip their skin stream in both formats") {
  SkinFormat format = GENERATE(SkinFormat::J8W8, SkinFormat::J16W16);
  uint32_t joints = format == SkinFormat::J8W8 ? 3 : 300;
  SkinnedGrid m = skinned_grid(format, joints);
  AssetFile file;
  REQUIRE(pack(m, file, GENERATE(Compression::LZ4, Compression::None)));
  MeshInfo info;
  REQUIRE(read_mesh_info(file, info));
  CHECK(info.skin_format == format);
  CHECK(info.skin_stride == skin_format_stride(format));
  CHECK(info.skin_joint_count == joints);
  CHECK(info.skeleton == "models/grid.gltf#skin/0");
  CHECK(info.skin_buffer_size == m.skin.size());
  CHECK(mesh_unpacked_size(info) ==
        info.vertex_buffer_size + info.index_buffer_size + m.skin.size());
  // The other sections are where they were.
  std::vector<std::byte> vertices(info.vertex_buffer_size), indices(info.index_buffer_size);
  REQUIRE(unpack_mesh(info, file.blob.data(), file.blob.size(), vertices.data(), vertices.size(),
                      indices.data(), indices.size()));
  CHECK(std::memcmp(vertices.data(), m.grid.vertices.data(), vertices.size()) == 0);
  std::vector<std::byte> skin(info.skin_buffer_size);
  REQUIRE(unpack_mesh_skin(info, file.blob.data(), file.blob.size(), skin.data(), skin.size()));
  CHECK(skin == m.skin);
  CHECK(unpack_mesh_skin(info, file.blob.data(), file.blob.size(), skin.data(), skin.size() - 1)
            .code == ErrorCode::DestinationTooSmall);
}

TEST_CASE("a rigid mesh has no skin to unpack") {
  test::GridMesh grid = test::grid_mesh(2);
  AssetFile file;
  REQUIRE(pack_mesh(test::grid_info(grid), grid.vertices.data(), grid.vertices.size() * 44,
                    grid.indices.data(), grid.indices.size() * 4, file));
  CHECK(json::parse(file.json).count("skin") == 0);
  MeshInfo info;
  REQUIRE(read_mesh_info(file, info));
  CHECK(info.skin_format == SkinFormat::None);
  CHECK(info.skin_buffer_size == 0);
  std::byte dst[16];
  CHECK(unpack_mesh_skin(info, file.blob.data(), file.blob.size(), dst, sizeof dst).code ==
        ErrorCode::InvalidArgument);
}

TEST_CASE("unpack_mesh_skin refuses a joint index past the skeleton") {
  SkinnedGrid m = skinned_grid(SkinFormat::J8W8, 3);
  AssetFile file;
  REQUIRE(pack(m, file, Compression::None));  // raw: the skin bytes are the blob's last ones
  MeshInfo info;
  REQUIRE(read_mesh_info(file, info));
  AssetFile hostile = file;
  size_t skin_at = hostile.blob.size() - m.skin.size();
  hostile.blob[skin_at + 8 * 5 + 2] = std::byte{3};  // vertex 5, third joint: 3 of 3 joints
  std::vector<std::byte> skin(info.skin_buffer_size);
  Status s =
      unpack_mesh_skin(info, hostile.blob.data(), hostile.blob.size(), skin.data(), skin.size());
  CHECK(s.code == ErrorCode::InvalidValue);
  CHECK(s.message.find("3 joints") != std::string::npos);
  // Weights are not checked: any bytes there are accepted.
  AssetFile weights = file;
  weights.blob[skin_at + 8 * 5 + 4] = std::byte{0};
  CHECK(unpack_mesh_skin(info, weights.blob.data(), weights.blob.size(), skin.data(), skin.size()));
}

TEST_CASE("pack_mesh refuses skin data that does not fit its skin layout") {
  AssetFile out;
  SkinnedGrid out_of_range = skinned_grid(SkinFormat::J8W8, 3);
  out_of_range.skin[8 * 2 + 1] = std::byte{3};
  CHECK(pack(out_of_range, out).code == ErrorCode::InvalidArgument);
  SkinnedGrid short_skin = skinned_grid(SkinFormat::J16W16, 3);
  short_skin.skin.resize(short_skin.skin.size() - 16);
  CHECK(pack(short_skin, out).code == ErrorCode::InvalidArgument);
  SkinnedGrid too_many = skinned_grid(SkinFormat::J8W8, 3);
  too_many.info.skin_joint_count = 257;
  CHECK(pack(too_many, out).code == ErrorCode::InvalidValue);
  SkinnedGrid no_joints = skinned_grid(SkinFormat::J8W8, 3);
  no_joints.info.skin_joint_count = 0;
  CHECK(pack(no_joints, out).code == ErrorCode::InvalidValue);
  SkinnedGrid rigid_with_skin = skinned_grid(SkinFormat::J8W8, 3);
  rigid_with_skin.info.skin_format = SkinFormat::None;
  CHECK_FALSE(pack(rigid_with_skin, out));
  SkinnedGrid unknown = skinned_grid(SkinFormat::J8W8, 3);
  unknown.info.skin_format = SkinFormat(9);
  CHECK(pack(unknown, out).code == ErrorCode::InvalidValue);
  CHECK(out.json.empty());
}

TEST_CASE("mesh readers refuse inconsistent skin metadata") {
  AssetFile good;
  REQUIRE(pack(skinned_grid(SkinFormat::J8W8, 3), good));
  struct Case {
    const char* what;
    std::function<void(json&)> edit;
    ErrorCode code;
  };
  const Case cases[] = {
      {"unknown format", [](json& m) { m["skin"]["format"] = "J4W4"; }, ErrorCode::InvalidValue},
      {"None named", [](json& m) { m["skin"]["format"] = "None"; }, ErrorCode::InvalidValue},
      {"wrong stride", [](json& m) { m["skin"]["stride"] = 16; }, ErrorCode::InvalidValue},
      {"too many joints for u8", [](json& m) { m["skin"]["joint_count"] = 257; },
       ErrorCode::InvalidValue},
      {"no joints", [](json& m) { m["skin"]["joint_count"] = 0; }, ErrorCode::InvalidValue},
      {"J16W16 beyond kMaxJoints",
       [](json& m) {
         m["skin"]["format"] = "J16W16";
         m["skin"]["stride"] = 16;
         m["skin"]["joint_count"] = 65537;
       },
       ErrorCode::InvalidValue},
      {"skin not an object", [](json& m) { m["skin"] = "J8W8"; }, ErrorCode::WrongKeyType},
      {"skeleton not a string", [](json& m) { m["skin"]["skeleton"] = 0; },
       ErrorCode::WrongKeyType},
      {"missing joint count", [](json& m) { m["skin"].erase("joint_count"); },
       ErrorCode::MissingKey},
      // What a reader that does not know "skin" sees: chunks past the three sections.
      {"skin key dropped", [](json& m) { m.erase("skin"); }, ErrorCode::InvalidValue},
      // A stream twice as large as the chunks cover.
      {"J16W16 over J8W8 chunks",
       [](json& m) {
         m["skin"]["format"] = "J16W16";
         m["skin"]["stride"] = 16;
       },
       ErrorCode::InvalidValue},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    MeshInfo info;
    info.original_file = "unchanged";
    Status s = read_mesh_info(edited(good, c.edit), info);
    CHECK(s.code == c.code);
    CHECK(s.message.rfind("MESH metadata", 0) == 0);
    CHECK(info.original_file == "unchanged");
  }
}

TEST_CASE("reading a skinned mesh then a rigid one into one info clears the skin") {
  SkinnedGrid m = skinned_grid(SkinFormat::J8W8, 3);
  AssetFile skinned;
  REQUIRE(pack(m, skinned));
  test::GridMesh grid = test::grid_mesh(2);
  AssetFile rigid;
  REQUIRE(pack_mesh(test::grid_info(grid), grid.vertices.data(), grid.vertices.size() * 44,
                    grid.indices.data(), grid.indices.size() * 4, rigid));
  MeshInfo info;
  REQUIRE(read_mesh_info(skinned, info));
  REQUIRE(read_mesh_info(rigid, info));
  CHECK(info.skin_format == SkinFormat::None);
  CHECK(info.skin_joint_count == 0);
  CHECK(info.skeleton.empty());
  CHECK(info.skin_buffer_size == 0);
}
