// unpack_jobs: the same bytes as the serial unpackers whatever the threads and the task order, and
// errors reported per job, deterministically.
#include "test_helpers.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <thread>

using namespace assetlib;

namespace {

// A real pool of `threads` threads pulling task indices from a shared counter.
ParallelFor thread_pool(unsigned threads) {
  return [threads](size_t count, const TaskBody& body) {
    std::atomic<size_t> next{0};
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) {
      pool.emplace_back([&] {
        for (size_t i; (i = next.fetch_add(1)) < count;) body(i);
      });
    }
    for (std::thread& th : pool) th.join();
  };
}

// Runs the tasks last to first, each once: any order must give the same result.
void reverse_order(size_t count, const TaskBody& body) {
  for (size_t i = count; i-- > 0;) body(i);
}

struct LoadedTexture {
  AssetFile file;
  TextureInfo info;
};

LoadedTexture texture(uint32_t side, uint32_t chunk_size) {
  PackOptions options;
  options.chunk_size = chunk_size;
  LoadedTexture t;
  t.file = test::packed_texture(side, side, 20, options);
  REQUIRE(read_texture_info(t.file, t.info));
  return t;
}

std::vector<std::byte> serial_unpack(const LoadedTexture& t, uint32_t first_mip = 0) {
  std::vector<std::byte> out(t.info.total_size - t.info.mips[first_mip].offset);
  REQUIRE(unpack_texture_mips(t.info, first_mip, t.file.blob.data(), t.file.blob.size(), out.data(),
                              out.size()));
  return out;
}

}  // namespace

TEST_CASE("unpack_jobs gives the serial bytes on 1, 2 and 4 threads and in reverse order") {
  std::vector<LoadedTexture> textures;
  for (uint32_t side : {1u, 16u, 64u, 128u, 256u}) textures.push_back(texture(side, 1024));
  REQUIRE(textures.back().info.chunks.size() > 100);  // the large one is split into many tasks

  const ParallelFor schedules[] = {
      {}, thread_pool(1), thread_pool(2), thread_pool(4), reverse_order};
  for (const ParallelFor& schedule : schedules) {
    for (uint32_t first_mip : {0u, 1u}) {
      std::vector<std::vector<std::byte>> dst;
      std::vector<UnpackJob> jobs(textures.size());
      size_t job_count = 0;
      for (const LoadedTexture& t : textures) {
        if (first_mip >= t.info.mips.size()) continue;
        dst.emplace_back(t.info.total_size - t.info.mips[first_mip].offset, std::byte{0xcd});
        REQUIRE(texture_unpack_job(t.info, first_mip, t.file.blob, dst.back().data(),
                                   dst.back().size(), jobs[job_count++], 0));
      }
      jobs.resize(job_count);
      std::vector<Status> statuses(jobs.size(), Status::error(ErrorCode::IoError, "unset"));
      REQUIRE(unpack_jobs(jobs, schedule, statuses));
      size_t d = 0;
      for (const LoadedTexture& t : textures) {
        if (first_mip >= t.info.mips.size()) continue;
        CHECK(statuses[d].ok());
        CHECK(dst[d] == serial_unpack(t, first_mip));
        ++d;
      }
    }
  }
}

TEST_CASE("unpack_jobs unpacks meshes into their vertex and index buffers") {
  test::GridMesh grid = test::grid_mesh(40);
  MeshInfo info = test::grid_info(grid);
  AssetFile file;
  PackOptions options;
  options.chunk_size = 1024;
  REQUIRE(pack_mesh(info, grid.vertices.data(), grid.vertices.size() * sizeof(grid.vertices[0]),
                    grid.indices.data(), grid.indices.size() * 4, file, options));
  MeshInfo read;
  REQUIRE(read_mesh_info(file, read));
  std::vector<std::byte> vertices(read.vertex_buffer_size), indices(read.index_buffer_size);
  UnpackJob jobs[2];
  REQUIRE(mesh_unpack_jobs(read, file.blob, vertices.data(), vertices.size(), indices.data(),
                           indices.size(), jobs[0], jobs[1]));
  REQUIRE(unpack_jobs(jobs, thread_pool(2)));
  CHECK(std::memcmp(vertices.data(), grid.vertices.data(), vertices.size()) == 0);
  CHECK(std::memcmp(indices.data(), grid.indices.data(), indices.size()) == 0);

  SECTION("a destination too small is refused before anything is written") {
    UnpackJob unused[2];
    Status s = mesh_unpack_jobs(read, file.blob, vertices.data(), vertices.size(), indices.data(),
                                indices.size() - 1, unused[0], unused[1]);
    CHECK(s.code == ErrorCode::DestinationTooSmall);
  }
}

TEST_CASE("unpack_jobs reports each corrupt job and the first one in job order") {
  std::vector<LoadedTexture> textures;
  for (int i = 0; i < 6; ++i) textures.push_back(texture(128, 1024));
  // Jobs 1 and 4 are corrupt: an LZ4 chunk's bytes overwritten.
  for (int bad : {4, 1}) {
    const Chunk& victim = textures[size_t(bad)].info.chunks[7];
    REQUIRE(victim.packed_size < victim.raw_size);
    std::memset(textures[size_t(bad)].file.blob.data() + victim.packed_offset, 0xff,
                victim.packed_size);
  }
  for (const ParallelFor& schedule : {ParallelFor{}, thread_pool(4), ParallelFor(reverse_order)}) {
    std::vector<std::vector<std::byte>> dst;
    std::vector<UnpackJob> jobs(textures.size());
    for (size_t i = 0; i < textures.size(); ++i) {
      dst.emplace_back(textures[i].info.total_size);
      REQUIRE(texture_unpack_job(textures[i].info, 0, textures[i].file.blob, dst[i].data(),
                                 dst[i].size(), jobs[i], 0));
    }
    std::vector<Status> statuses(jobs.size());
    Status s = unpack_jobs(jobs, schedule, statuses);
    CHECK(s.code == ErrorCode::CorruptBlob);
    CHECK(s.message == statuses[1].message);
    for (size_t i = 0; i < textures.size(); ++i) {
      INFO("job " << i);
      bool corrupt = i == 1 || i == 4;
      CHECK(statuses[i].ok() == !corrupt);
      if (!corrupt) CHECK(dst[i] == serial_unpack(textures[i]));
    }
  }
}

TEST_CASE("unpack_job arguments are checked before any byte is written") {
  LoadedTexture t = texture(64, 1024);
  std::vector<std::byte> dst(t.info.total_size);
  UnpackJob job;
  CHECK(texture_unpack_job(t.info, uint32_t(t.info.mips.size()), t.file.blob, dst.data(),
                           dst.size(), job, 0)
            .code == ErrorCode::InvalidArgument);
  CHECK(texture_unpack_job(t.info, 0, t.file.blob, dst.data(), dst.size() - 1, job, 0).code ==
        ErrorCode::DestinationTooSmall);
  REQUIRE(texture_unpack_job(t.info, 0, t.file.blob, dst.data(), dst.size(), job, 0));
  std::vector<Status> two(2);
  CHECK(unpack_jobs(std::span<const UnpackJob>(&job, 1), {}, two).code ==
        ErrorCode::InvalidArgument);
  CHECK(unpack_jobs({}, thread_pool(2)));  // nothing to do is fine

  SECTION("a blob shorter than the job needs is TruncatedHeader, not a read past it") {
    std::span<const std::byte> short_blob(t.file.blob.data(), t.file.blob.size() / 2);
    REQUIRE(texture_unpack_job(t.info, 0, short_blob, dst.data(), dst.size(), job, 0));
    CHECK(unpack_jobs(std::span<const UnpackJob>(&job, 1), thread_pool(2)).code ==
          ErrorCode::TruncatedHeader);
  }
  SECTION("a partial blob starting after a chunk the job needs is TruncatedHeader") {
    std::span<const std::byte> tail(t.file.blob.data() + 16, t.file.blob.size() - 16);
    REQUIRE(texture_unpack_job(t.info, 0, tail, dst.data(), dst.size(), job, 16));
    CHECK(unpack_jobs(std::span<const UnpackJob>(&job, 1)).code == ErrorCode::TruncatedHeader);
  }
}

TEST_CASE("partial reads fetch only the blob bytes of the levels asked for") {
  test::TempDir dir("partial");
  PackOptions options;
  options.chunk_size = 1024;
  AssetFile file = test::packed_texture(256, 128, 20, options);
  const std::string path = dir.file("t.tx");
  REQUIRE(save_binaryfile(path, file));
  TextureInfo full;
  REQUIRE(read_texture_info(file, full));

  AssetHead head;
  REQUIRE(load_asset_head(path, head));
  CHECK(head.blob_length == file.blob.size());
  CHECK(head.json.substr(0, file.json.size()) == file.json);  // then the padding
  TextureInfo info;
  REQUIRE(read_texture_info(head, info));
  REQUIRE(info.chunks.size() == full.chunks.size());

  for (uint32_t first_mip = 0; first_mip < info.mips.size(); ++first_mip) {
    INFO("first_mip " << first_mip);
    BlobRange range;
    REQUIRE(texture_mips_blob_range(info, first_mip, range));
    // The levels are stored last-to-the-end: the range is the blob's tail.
    CHECK(range.offset + range.size == head.blob_length);
    if (first_mip > 0) CHECK(range.size < head.blob_length);
    std::vector<std::byte> bytes;
    REQUIRE(load_blob_range(path, head, range.offset, range.size, bytes));
    CHECK(bytes.size() == range.size);
    // The same bytes read into memory of the caller's.
    std::vector<std::byte> own(range.size + 1, std::byte{0x5a});
    REQUIRE(load_blob_range(path, head, range.offset, std::span(own).first(range.size)));
    CHECK(std::equal(bytes.begin(), bytes.end(), own.begin()));
    CHECK(own.back() == std::byte{0x5a});  // nothing past the range
    std::vector<std::byte> dst(info.total_size - info.mips[first_mip].offset);
    UnpackJob job;
    REQUIRE(texture_unpack_job(info, first_mip, bytes, dst.data(), dst.size(), job, range.offset));
    REQUIRE(unpack_jobs(std::span<const UnpackJob>(&job, 1)));
    std::vector<std::byte> expected(dst.size());
    REQUIRE(unpack_texture_mips(full, first_mip, file.blob.data(), file.blob.size(),
                                expected.data(), expected.size()));
    CHECK(dst == expected);
  }

  SECTION("the bytes of level 2 on cannot unpack level 1 on: TruncatedHeader, no read before") {
    BlobRange range;
    REQUIRE(texture_mips_blob_range(info, 2, range));
    std::vector<std::byte> bytes;
    REQUIRE(load_blob_range(path, head, range.offset, range.size, bytes));
    std::vector<std::byte> dst(info.total_size - info.mips[1].offset);
    UnpackJob job;
    REQUIRE(texture_unpack_job(info, 1, bytes, dst.data(), dst.size(), job, range.offset));
    CHECK(unpack_jobs(std::span<const UnpackJob>(&job, 1)).code == ErrorCode::TruncatedHeader);
  }
  SECTION("ranges outside the blob and files changed since the head are refused") {
    std::vector<std::byte> bytes{std::byte{7}};
    CHECK(load_blob_range(path, head, head.blob_length, 1, bytes).code ==
          ErrorCode::TruncatedHeader);
    CHECK(load_blob_range(path, head, 1, head.blob_length, bytes).code ==
          ErrorCode::TruncatedHeader);
    CHECK(bytes.size() == 1);  // unchanged on error
    std::byte one[1] = {std::byte{7}};
    CHECK(load_blob_range(path, head, head.blob_length, std::span(one)).code ==
          ErrorCode::TruncatedHeader);
    CHECK(one[0] == std::byte{7});
    REQUIRE(save_binaryfile(path, test::packed_texture(64, 64, 1)));
    CHECK(load_blob_range(path, head, 0, 16, bytes).code == ErrorCode::LengthMismatch);
    // The same size, laid out anew: 16 bytes more JSON, 16 bytes less blob.
    std::vector<std::byte> relaid = serialize_binaryfile_head(file);
    const uint32_t json_length = uint32_t(relaid.size() - 16) + 16;
    const uint32_t blob_length = uint32_t(file.blob.size()) - 16;
    for (int k = 0; k < 4; ++k) {  // the header's lengths are little-endian
      relaid[size_t(8 + k)] = std::byte((json_length >> (8 * k)) & 0xff);
      relaid[size_t(12 + k)] = std::byte((blob_length >> (8 * k)) & 0xff);
    }
    relaid.insert(relaid.end(), 16, std::byte{' '});
    relaid.insert(relaid.end(), file.blob.begin(), file.blob.end() - 16);
    test::write_bytes(path, relaid.data(), relaid.size());
    REQUIRE(std::filesystem::file_size(path) == 16 + head.json.size() + head.blob_length);
    CHECK(load_blob_range(path, head, 0, 16, bytes).code == ErrorCode::LengthMismatch);
    CHECK(bytes.size() == 1);
  }
  SECTION("a head is checked like a whole file") {
    std::vector<std::byte> whole = test::read_bytes(path);
    test::write_bytes(path, whole.data(), whole.size() - 1);
    AssetHead unchanged = head;
    CHECK(load_asset_head(path, head).code == ErrorCode::TruncatedHeader);
    CHECK(head.json == unchanged.json);
    test::write_bytes(path, "not an asset at all", 19);
    CHECK(load_asset_head(path, head).code == ErrorCode::UnknownType);
    CHECK(load_asset_head(dir.file("missing.tx"), head).code == ErrorCode::FileNotFound);
  }
  SECTION("a head's chunk table is checked against the blob length the header gives") {
    AssetHead shorter = head;
    shorter.blob_length -= 1;
    TextureInfo unchanged;
    CHECK(read_texture_info(shorter, unchanged).code == ErrorCode::InvalidValue);
    CHECK(unchanged.chunks.empty());
  }
}
