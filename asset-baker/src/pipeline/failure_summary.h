// The list a bake ends with when something failed: every failure once, grouped by kind, one line
// each, so a CI log that scrolled past hundreds of lines still ends with what to fix.
#pragma once

#include "common/bake_status.h"

#include <string>
#include <vector>

namespace baker {

// The failures under a heading per kind (in BakeError order), each "<file>: <reason>" cut to its
// first line, sorted by file. Empty when `failures` is.
std::string failure_summary(const std::vector<BakeStatus>& failures);

}  // namespace baker
