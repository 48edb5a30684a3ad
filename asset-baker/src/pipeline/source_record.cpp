#include "pipeline/source_record.h"

#include <nlohmann/json.hpp>

#include <filesystem>

namespace baker {
namespace {

using nlohmann::json;

// A record is one source's entry: larger than this, it is not one the baker wrote.
constexpr uint64_t kMaxRecordBytes = 64ull << 20;

}  // namespace

std::string record_path(const std::string& source) {
  std::string path = kRecordFolder;
  path += '/';
  path += source;
  path += ".json";
  return path;
}

bool may_hold_records(const OutputTree& output) {
  // Sets `ec` for a missing folder too; any other error is taken as "may".
  std::error_code ec;
  const auto status = std::filesystem::symlink_status(output.root() / kRecordFolder, ec);
  return status.type() != std::filesystem::file_type::not_found;
}

BakeStatus write_record(const OutputTree& output, const SourceRecord& record) {
  json stamps = json::object();
  for (const auto& [path, s] : record.stamps) stamps[path] = {s.size, s.mtime_ns, s.hash};
  json doc = {{"record_version", kRecordVersion},
              {"source", record.source},
              {"run_started_ns", record.run_started_ns},
              {"failed", record.failed},
              {"keep_previous", record.keep_previous},
              {"entry", record.entry ? cache_entry_to_json(*record.entry) : json()},
              {"stamps", stamps}};
  std::string text = doc.dump(1, '\t', false, json::error_handler_t::replace) + "\n";
  const std::span<const std::byte> parts[] = {std::as_bytes(std::span(text))};
  return output.write(record_path(record.source), parts);
}

std::optional<SourceRecord> read_record(const OutputTree& output, const std::string& source) {
  std::optional<std::string> text = output.read_file(record_path(source), kMaxRecordBytes);
  if (!text) return std::nullopt;
  json doc = json::parse(*text, nullptr, false);
  SourceRecord record;
  try {
    if (doc.at("record_version").get<uint32_t>() != kRecordVersion ||
        doc.at("source").get<std::string>() != source)
      return std::nullopt;
    record.source = source;
    record.run_started_ns = doc.at("run_started_ns").get<int64_t>();
    record.failed = doc.at("failed").get<bool>();
    record.keep_previous = doc.at("keep_previous").get<bool>();
    if (!doc.at("entry").is_null()) record.entry = cache_entry_from_json(doc.at("entry"));
    for (auto& [path, s] : doc.at("stamps").items()) {
      record.stamps[path] = {s.at(0).get<uint64_t>(), s.at(1).get<int64_t>(),
                             s.at(2).get<std::string>()};
    }
  } catch (const json::exception&) {
    return std::nullopt;
  }
  if (record.entry && !trustworthy_entry(source, *record.entry)) return std::nullopt;
  return record;
}

}  // namespace baker
