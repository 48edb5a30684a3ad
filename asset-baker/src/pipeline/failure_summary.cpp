#include "pipeline/failure_summary.h"

#include "common/terminal_text.h"

#include <algorithm>
#include <map>

namespace baker {
namespace {

// What a reader fixes for each kind of failure.
const char* heading(BakeError code) {
  switch (code) {
    case BakeError::Ok: break;
    case BakeError::UnreadableSource: return "unreadable sources";
    case BakeError::InvalidSource: return "malformed sources";
    case BakeError::UnsupportedFeature: return "unsupported features";
    case BakeError::RefusedPath: return "refused paths";
    case BakeError::LimitExceeded: return "over a limit";
    case BakeError::TimeLimit: return "over the time limit";
    case BakeError::InvalidAsset: return "invalid outputs";
    case BakeError::IoError: return "I/O errors (the output, not the source)";
    case BakeError::Config: return "configuration";
    case BakeError::Internal: return "internal errors";
  }
  return "other";
}

}  // namespace

std::string failure_summary(const std::vector<BakeStatus>& failures) {
  if (failures.empty()) return {};
  std::map<BakeError, std::vector<const BakeStatus*>> by_kind;
  for (const BakeStatus& f : failures) by_kind[f.code].push_back(&f);
  for (auto& [code, members] : by_kind) {  // by file: the same list whatever order jobs ended in
    std::stable_sort(members.begin(), members.end(),
                     [](const BakeStatus* a, const BakeStatus* b) { return a->file < b->file; });
  }
  std::string out = std::to_string(failures.size()) + " failed:\n";
  for (const auto& [code, members] : by_kind) {
    out += "  " + std::string(heading(code)) + " (" + std::to_string(members.size()) + "):\n";
    for (const BakeStatus* f : members) out += "    " + terminal_text(f->message()) + "\n";
  }
  return out;
}

}  // namespace baker
