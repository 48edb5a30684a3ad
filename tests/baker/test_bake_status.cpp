// The baker's error convention (common/bake_status.h): a code, the file, the reason without the
// file; message() names the file once, also for statuses made from assetlib's path-taking calls.
#include "temp_dir.h"

#include "common/bake_status.h"

#include <assetlib/asset_file.h>
#include <catch2/catch.hpp>

#include <array>
#include <set>

using baker::BakeError;
using baker::BakeStatus;

namespace {

size_t count_of(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

constexpr std::array kAllCodes = {BakeError::Ok,
                                  BakeError::UnreadableSource,
                                  BakeError::InvalidSource,
                                  BakeError::UnsupportedFeature,
                                  BakeError::RefusedPath,
                                  BakeError::LimitExceeded,
                                  BakeError::TimeLimit,
                                  BakeError::InvalidAsset,
                                  BakeError::IoError,
                                  BakeError::Config,
                                  BakeError::Internal};

}  // namespace

TEST_CASE("status: the default status is ok with no message", "[status]") {
  BakeStatus s;
  CHECK(s.ok());
  CHECK(static_cast<bool>(s));
  CHECK(s.message().empty());
  CHECK_FALSE(s.blames_source());
}

TEST_CASE("status: message is the file then the reason, or the reason alone", "[status]") {
  BakeStatus s =
      BakeStatus::failure(BakeError::InvalidSource, "models/a.obj", "face 3 uses vertex 99");
  CHECK_FALSE(s.ok());
  CHECK_FALSE(static_cast<bool>(s));
  CHECK(s.message() == "models/a.obj: face 3 uses vertex 99");
  CHECK(BakeStatus::failure(BakeError::Config, "", "-j must be positive").message() ==
        "-j must be positive");
}

TEST_CASE("status: a failed load of a missing file is an IoError naming the file once",
          "[status]") {
  test::TempDir dir;
  std::string path = (dir.path() / "missing.tx").string();
  assetlib::AssetFile file;
  assetlib::Status loaded = assetlib::load_binaryfile(path, file);
  REQUIRE_FALSE(loaded.ok());
  // assetlib's contract that from_file_call relies on: the message starts with "<path>: ".
  REQUIRE(loaded.message.rfind(path + ": ", 0) == 0);

  BakeStatus s = BakeStatus::from_file_call(loaded, BakeError::InvalidAsset, path);
  CHECK(s.code == BakeError::IoError);
  CHECK(s.file == path);
  CHECK_FALSE(s.reason.empty());
  CHECK(s.reason.find(path) == std::string::npos);
  CHECK(s.message() == loaded.message);
  CHECK(count_of(s.message(), path) == 1);
}

TEST_CASE("status: a failed load of a garbage file keeps the caller's code and names the file once",
          "[status]") {
  test::TempDir dir;
  for (const char* bytes : {"this is not an asset file at all", "tiny"}) {
    INFO(bytes);
    std::string path = dir.write("garbage.tx", bytes).string();
    assetlib::AssetFile file;
    assetlib::Status loaded = assetlib::load_binaryfile(path, file);
    REQUIRE_FALSE(loaded.ok());
    REQUIRE(loaded.code != assetlib::ErrorCode::IoError);
    REQUIRE(loaded.code != assetlib::ErrorCode::FileNotFound);
    REQUIRE(loaded.message.rfind(path + ": ", 0) == 0);

    BakeStatus s = BakeStatus::from_file_call(loaded, BakeError::InvalidAsset, path);
    CHECK(s.code == BakeError::InvalidAsset);
    CHECK(s.file == path);
    CHECK(s.reason == loaded.message.substr(path.size() + 2));
    CHECK(count_of(s.message(), path) == 1);
  }
}

TEST_CASE("status: from_file_call keeps a message that does not start with the path", "[status]") {
  assetlib::Status other =
      assetlib::Status::error(assetlib::ErrorCode::InvalidJson, "./a.tx: bad JSON");
  BakeStatus s = BakeStatus::from_file_call(other, BakeError::InvalidAsset, "a.tx");
  CHECK(s.code == BakeError::InvalidAsset);
  CHECK(s.file == "a.tx");
  CHECK(s.reason == "./a.tx: bad JSON");

  // The path later in the text is not the prefix: nothing is cut.
  assetlib::Status inner =
      assetlib::Status::error(assetlib::ErrorCode::InvalidValue, "entry a.tx: too big");
  CHECK(BakeStatus::from_file_call(inner, BakeError::InvalidAsset, "a.tx").reason ==
        "entry a.tx: too big");
}

TEST_CASE("status: from_file_call maps assetlib I/O codes to IoError and an ok status to ok",
          "[status]") {
  for (assetlib::ErrorCode io : {assetlib::ErrorCode::IoError, assetlib::ErrorCode::FileNotFound}) {
    BakeStatus s = BakeStatus::from_file_call(assetlib::Status::error(io, "out/a.tx: write failed"),
                                              BakeError::Internal, "out/a.tx");
    CHECK(s.code == BakeError::IoError);
    CHECK(s.reason == "write failed");
  }
  BakeStatus ok =
      BakeStatus::from_file_call(assetlib::Status::success(), BakeError::InvalidAsset, "a.tx");
  CHECK(ok.ok());
  CHECK(ok.file.empty());
  CHECK(ok.message().empty());
}

TEST_CASE("status: from_memory_call keeps the reason and takes the caller's code and file",
          "[status]") {
  std::array<std::byte, 4> garbage{};
  assetlib::AssetView view;
  assetlib::Status parsed = assetlib::parse_binaryfile(garbage, view, "pack entry 7");
  REQUIRE_FALSE(parsed.ok());
  BakeStatus s = BakeStatus::from_memory_call(parsed, BakeError::InvalidAsset, "textures/a.tx");
  CHECK(s.code == BakeError::InvalidAsset);
  CHECK(s.file == "textures/a.tx");
  CHECK(s.reason == parsed.message);
  CHECK(s.message() == "textures/a.tx: " + parsed.message);

  // Even an I/O-looking code is the caller's to choose: no file was involved.
  assetlib::Status io = assetlib::Status::error(assetlib::ErrorCode::IoError, "x: y");
  BakeStatus kept = BakeStatus::from_memory_call(io, BakeError::Internal, "a.tx");
  CHECK(kept.code == BakeError::Internal);
  CHECK(kept.reason == "x: y");
  CHECK(
      BakeStatus::from_memory_call(assetlib::Status::success(), BakeError::Internal, "a.tx").ok());
}

TEST_CASE("status: only source faults blame the source", "[status]") {
  auto blames = [](BakeError code) { return BakeStatus::failure(code, "f", "r").blames_source(); };
  CHECK(blames(BakeError::UnreadableSource));
  CHECK(blames(BakeError::InvalidSource));
  CHECK(blames(BakeError::UnsupportedFeature));
  CHECK(blames(BakeError::RefusedPath));
  CHECK(blames(BakeError::LimitExceeded));
  CHECK_FALSE(blames(BakeError::Ok));
  CHECK_FALSE(blames(BakeError::InvalidAsset));
  CHECK_FALSE(blames(BakeError::IoError));
  CHECK_FALSE(blames(BakeError::Config));
  CHECK_FALSE(blames(BakeError::Internal));
  CHECK_FALSE(blames(BakeError::TimeLimit));  // the machine may just be slow
}

TEST_CASE("status: every code has its own stable name", "[status]") {
  CHECK(std::string(baker::bake_error_name(BakeError::Ok)) == "Ok");
  CHECK(std::string(baker::bake_error_name(BakeError::InvalidSource)) == "InvalidSource");
  CHECK(std::string(baker::bake_error_name(BakeError::RefusedPath)) == "RefusedPath");
  CHECK(std::string(baker::bake_error_name(BakeError::Config)) == "Config");
  std::set<std::string> names;
  for (BakeError code : kAllCodes) names.insert(baker::bake_error_name(code));
  CHECK(names.size() == kAllCodes.size());
  CHECK(names.count("Unknown") == 0);
}
