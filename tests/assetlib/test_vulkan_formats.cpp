// The VkFormat values assetlib hands out, checked against Vulkan's own header. The library itself
// may not include Vulkan (its public headers need only the standard library); tests may.
#include <assetlib/assetlib.h>

#include <vulkan/vulkan_core.h>
#include <catch2/catch.hpp>

#include <array>
#include <cstddef>

using namespace assetlib;

TEST_CASE("every vertex attribute's VkFormat is the one its layout needs") {
  struct Expected {
    VertexFormat format;
    uint32_t stride;
    std::vector<VkVertexInputAttributeDescription> attributes;  // binding unused
  };
  const Expected table[] = {
      {VertexFormat::PNCV_F32,
       44,
       {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0},
        {1, 0, VK_FORMAT_R32G32B32_SFLOAT, 12},
        {2, 0, VK_FORMAT_R32G32B32_SFLOAT, 24},
        {3, 0, VK_FORMAT_R32G32_SFLOAT, 36}}},
      {VertexFormat::P32N8C8V16,
       24,
       {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0},
        {1, 0, VK_FORMAT_R8G8B8A8_SNORM, 12},
        {2, 0, VK_FORMAT_R8G8B8A8_UNORM, 16},
        {3, 0, VK_FORMAT_R16G16_SFLOAT, 20}}},
      {VertexFormat::PNCVT_F32,
       60,
       {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0},
        {1, 0, VK_FORMAT_R32G32B32_SFLOAT, 12},
        {2, 0, VK_FORMAT_R32G32B32_SFLOAT, 24},
        {3, 0, VK_FORMAT_R32G32_SFLOAT, 36},
        {4, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 44}}},
      {VertexFormat::PNCVT_OCT,
       28,
       {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0},
        {1, 0, VK_FORMAT_R16G16_SNORM, 12},
        {2, 0, VK_FORMAT_R8G8B8A8_UNORM, 16},
        {3, 0, VK_FORMAT_R16G16_SFLOAT, 20},
        {4, 0, VK_FORMAT_R8G8B8A8_SNORM, 24}}},
      {VertexFormat::PNCVVT_F32,
       68,
       {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0},
        {1, 0, VK_FORMAT_R32G32B32_SFLOAT, 12},
        {2, 0, VK_FORMAT_R32G32B32_SFLOAT, 24},
        {3, 0, VK_FORMAT_R32G32_SFLOAT, 36},
        {4, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 52},
        {5, 0, VK_FORMAT_R32G32_SFLOAT, 44}}},
      {VertexFormat::PNCVVT_OCT,
       32,
       {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0},
        {1, 0, VK_FORMAT_R16G16_SNORM, 12},
        {2, 0, VK_FORMAT_R8G8B8A8_UNORM, 16},
        {3, 0, VK_FORMAT_R16G16_SFLOAT, 20},
        {4, 0, VK_FORMAT_R8G8B8A8_SNORM, 24},
        {5, 0, VK_FORMAT_R16G16_SFLOAT, 28}}},
      {VertexFormat::P32N8C8V16_VKGUIDE,  // read-only, legacy vkguide meshes
       28,
       {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0},
        {1, 0, VK_FORMAT_R8G8B8_UNORM, 12},
        {2, 0, VK_FORMAT_R8G8B8_UNORM, 15},
        {3, 0, VK_FORMAT_R32G32_SFLOAT, 20}}},
  };
  for (const Expected& e : table) {
    INFO(vertex_format_name(e.format));
    CHECK(vertex_format_stride(e.format) == e.stride);
    VertexAttribute got[8];
    REQUIRE(vertex_format_attributes(e.format, got) == e.attributes.size());
    for (size_t i = 0; i < e.attributes.size(); ++i) {
      INFO("attribute " << i);
      CHECK(got[i].location == e.attributes[i].location);
      CHECK(got[i].vk_format == uint32_t(e.attributes[i].format));
      CHECK(got[i].offset == e.attributes[i].offset);
    }
  }
}

TEST_CASE("every texture format's VkFormat is Vulkan's") {
  const std::pair<TextureFormat, VkFormat> table[] = {
      {TextureFormat::RGBA8_UNORM, VK_FORMAT_R8G8B8A8_UNORM},
      {TextureFormat::RGBA8_SRGB, VK_FORMAT_R8G8B8A8_SRGB},
      {TextureFormat::RGBA16_UNORM, VK_FORMAT_R16G16B16A16_UNORM},
      {TextureFormat::RGBA16_SFLOAT, VK_FORMAT_R16G16B16A16_SFLOAT},
      {TextureFormat::BC1_RGB_UNORM, VK_FORMAT_BC1_RGB_UNORM_BLOCK},
      {TextureFormat::BC1_RGB_SRGB, VK_FORMAT_BC1_RGB_SRGB_BLOCK},
      {TextureFormat::BC3_UNORM, VK_FORMAT_BC3_UNORM_BLOCK},
      {TextureFormat::BC3_SRGB, VK_FORMAT_BC3_SRGB_BLOCK},
      {TextureFormat::BC4_UNORM, VK_FORMAT_BC4_UNORM_BLOCK},
      {TextureFormat::BC5_UNORM, VK_FORMAT_BC5_UNORM_BLOCK},
  };
  for (const auto& [format, vk] : table) {
    INFO(texture_format_name(format));
    CHECK(texture_format_vk(format) == uint32_t(vk));
  }
}

TEST_CASE("every skin attribute's VkFormat is the one its layout needs") {
  const std::pair<SkinFormat, std::array<VkFormat, 2>> table[] = {
      {SkinFormat::J8W8, {VK_FORMAT_R8G8B8A8_UINT, VK_FORMAT_R8G8B8A8_UNORM}},
      {SkinFormat::J16W16, {VK_FORMAT_R16G16B16A16_UINT, VK_FORMAT_R16G16B16A16_UNORM}},
  };
  for (const auto& [format, vk] : table) {
    INFO(skin_format_name(format));
    VertexAttribute got[2];
    REQUIRE(skin_format_attributes(format, got) == 2);
    CHECK(got[0].vk_format == uint32_t(vk[0]));
    CHECK(got[1].vk_format == uint32_t(vk[1]));
    CHECK(got[0].offset == 0);
    CHECK(got[1].offset == skin_format_stride(format) / 2);
  }
}
