#include "bake_job.h"

#include "asset_unpack_check.h"
#include "bake_mesh.h"
#include "bake_texture.h"
#include "content_hash.h"
#include "source_paths.h"

#include <assetlib/mesh_asset.h>
#include <assetlib/texture_asset.h>

#include <sys/stat.h>

#include <chrono>
#include <cstdio>
#include <memory>

namespace baker {
namespace {

namespace fs = std::filesystem;
using assetlib::ErrorCode;
using assetlib::Status;

// Source files larger than this are not assets anyone should ship; refuse before reading.
constexpr uint64_t kMaxSourceBytes = 1ull << 30;

std::optional<FileStamp> stat_file(const fs::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  return FileStamp{uint64_t(st.st_size), int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec, {}};
}

Status read_source(const fs::path& root, const std::string& relative, std::vector<std::byte>& out) {
  std::optional<fs::path> path = inside_root(root, relative);
  if (!path) return Status::error(ErrorCode::InvalidValue, relative + ": leads outside the input folder");
  std::optional<FileStamp> stamp = stat_file(*path);
  if (!stamp) return Status::error(ErrorCode::FileNotFound, relative + ": cannot read");
  if (stamp->size > kMaxSourceBytes) {
    return Status::error(ErrorCode::InvalidValue, relative + ": " + std::to_string(stamp->size) + " bytes is over the 1 GiB limit");
  }
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path->c_str(), "rb"), &std::fclose);
  out.resize(stamp->size);
  if (!f || std::fread(out.data(), 1, out.size(), f.get()) != out.size()) {
    return Status::error(ErrorCode::IoError, relative + ": read failed");
  }
  return {};
}

bool up_to_date(JobContext& context, const CacheEntry& old, const std::string& output, AssetKind kind,
                const std::string& settings_key, const std::string& source_hash) {
  if (old.output != output || old.kind != (kind == AssetKind::Texture ? "texture" : "mesh") ||
      old.settings != settings_key || old.source_hash != source_hash) {
    return false;
  }
  for (const Dependency& dep : old.deps) {
    if (dep.state == "present" || dep.state == "absent") {
      if ((context.textures.count(dep.path) ? "present" : "absent") != dep.state) return false;
    } else if (context.file_hash(dep.path).value_or("") != dep.state) {
      return false;
    }
  }
  std::optional<FileStamp> out = stat_file(context.output / output);
  return out && out->size == old.output_size;
}

Status bake_source(JobContext& context, const std::string& relative, AssetKind kind, const BakeSettings& settings,
                   std::span<const std::byte> bytes, assetlib::AssetFile& out, CacheEntry& entry,
                   std::vector<std::string>& warnings) {
  if (kind == AssetKind::Texture) {
    entry.type = "TEXI";
    return bake_texture(bytes, relative, settings, out, warnings, context.threads_per_job);
  }
  entry.type = "MESH";
  MeshInputs inputs;
  inputs.read_file = [&](const std::string& path) -> std::optional<std::string> {
    std::vector<std::byte> data;
    if (!read_source(context.input, path, data)) {
      entry.deps.push_back({path, "absent"});
      return std::nullopt;
    }
    std::string hash = hash_string(hash_bytes(data.data(), data.size()));
    context.remember(path, hash);
    entry.deps.push_back({path, hash});
    return std::string(reinterpret_cast<const char*>(data.data()), data.size());
  };
  inputs.texture_exists = [&](const std::string& path) {
    bool exists = context.textures.count(path) > 0;
    entry.deps.push_back({path, exists ? "present" : "absent"});
    return exists;
  };
  std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  return bake_mesh(text, relative, inputs, settings, out, warnings);
}

uint64_t unpacked_size(const assetlib::AssetFile& file) {
  if (assetlib::has_type(file, "TEXI")) {
    assetlib::TextureInfo info;
    return assetlib::read_texture_info(file, info) ? info.total_size : 0;
  }
  assetlib::MeshInfo info;
  return assetlib::read_mesh_info(file, info) ? assetlib::mesh_unpacked_size(info) : 0;
}

JobResult bake_one(JobContext& context, const std::string& relative, AssetKind kind, const std::string& output) {
  JobResult result;
  auto fail = [&](const Status& s) {
    result.outcome = Outcome::Failed;
    result.error = s.message;
    return result;
  };
  BakeSettings settings;
  if (Status s = settings_for(context.config, relative, kind, settings); !s) return fail(s);

  std::optional<std::string> source_hash = context.file_hash(relative);
  if (!source_hash) return fail(Status::error(ErrorCode::FileNotFound, relative + ": cannot read"));
  auto old = context.previous.entries.find(relative);
  if (!context.force && old != context.previous.entries.end() &&
      up_to_date(context, old->second, output, kind, settings.key, *source_hash)) {
    result.outcome = Outcome::UpToDate;
    result.entry = old->second;
    return result;
  }

  std::vector<std::byte> bytes;
  if (Status s = read_source(context.input, relative, bytes); !s) return fail(s);
  result.bytes_in = bytes.size();
  CacheEntry& entry = result.entry;
  entry.kind = kind == AssetKind::Texture ? "texture" : "mesh";
  entry.output = output;
  entry.settings = settings.key;
  entry.source_hash = hash_string(hash_bytes(bytes.data(), bytes.size()));
  assetlib::AssetFile file;
  if (Status s = bake_source(context, relative, kind, settings, bytes, file, entry, result.warnings); !s) {
    return fail(s.message.find(relative) == std::string::npos ? Status::error(s.code, relative + ": " + s.message) : s);
  }
  bytes = {};
  fs::path target = context.output / output;
  std::error_code ec;
  fs::create_directories(target.parent_path(), ec);
  if (Status s = assetlib::save_binaryfile(target.string(), file); !s) return fail(s);
  if (context.verify) {
    UnpackedAsset written;
    if (Status s = unpack_whole_asset(target.string(), written); !s) {
      return fail(Status::error(s.code, relative + ": --verify: " + s.message));
    }
  }
  uint64_t out_hash = 0;
  if (!hash_file(target.string(), out_hash)) return fail(Status::error(ErrorCode::IoError, target.string() + ": cannot re-read"));
  entry.output_hash = hash_string(out_hash);
  entry.output_size = fs::file_size(target, ec);
  entry.raw_size = unpacked_size(file);
  result.outcome = Outcome::Baked;
  return result;
}

}  // namespace

const char* to_string(Outcome outcome) {
  switch (outcome) {
    case Outcome::Baked: return "baked";
    case Outcome::UpToDate: return "up to date";
    case Outcome::Failed: return "failed";
  }
  return "?";
}

std::optional<std::string> JobContext::file_hash(const std::string& relative) {
  std::optional<fs::path> path = inside_root(input, relative);
  std::optional<FileStamp> now = path ? stat_file(*path) : std::nullopt;
  if (!now) return std::nullopt;
  {
    std::lock_guard lock(mutex_);
    auto known = stamps_.find(relative);
    if (known != stamps_.end() && known->second.size == now->size && known->second.mtime_ns == now->mtime_ns) {
      return known->second.hash;
    }
  }
  auto old = previous.stamps.find(relative);
  if (old != previous.stamps.end() && old->second.size == now->size && old->second.mtime_ns == now->mtime_ns) {
    now->hash = old->second.hash;
  } else {
    uint64_t h = 0;
    if (!hash_file(path->string(), h)) return std::nullopt;
    now->hash = hash_string(h);
  }
  std::lock_guard lock(mutex_);
  stamps_[relative] = *now;
  return now->hash;
}

void JobContext::remember(const std::string& relative, const std::string& hash) {
  std::optional<fs::path> path = inside_root(input, relative);
  std::optional<FileStamp> now = path ? stat_file(*path) : std::nullopt;
  if (!now) return;
  now->hash = hash;
  std::lock_guard lock(mutex_);
  stamps_[relative] = *now;
}

std::map<std::string, FileStamp> JobContext::take_stamps() {
  std::lock_guard lock(mutex_);
  return std::move(stamps_);
}

JobResult run_job(JobContext& context, const std::string& relative, AssetKind kind, const std::string& output) {
  auto start = std::chrono::steady_clock::now();
  JobResult result;
  try {
    result = bake_one(context, relative, kind, output);
  } catch (const std::exception& e) {
    // An importer threw (out of memory on a hostile file, a library bug): this source fails, the bake goes on.
    result = JobResult{};
    result.error = relative + ": " + e.what();
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace baker
