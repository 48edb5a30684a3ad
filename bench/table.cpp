#include "table.h"

#include <algorithm>
#include <cstdio>

namespace bench {

std::string Table::markdown() const {
  std::vector<size_t> width(header_.size(), 3);
  auto measure = [&](const std::vector<std::string>& row) {
    for (size_t c = 0; c < row.size() && c < width.size(); ++c) width[c] = std::max(width[c], row[c].size());
  };
  measure(header_);
  for (const auto& row : rows_) measure(row);
  // Built with append() only: GCC 12 at -O3 warns falsely (-Wrestrict, GCC bug 105651) on
  // "literal" + std::string temporaries.
  auto line = [&](const std::vector<std::string>& row) {
    std::string out = "|";
    for (size_t c = 0; c < width.size(); ++c) {
      std::string cell = c < row.size() ? row[c] : std::string();
      size_t pad = width[c] - std::min(width[c], cell.size());
      out.append(" ");
      if (c != 0) out.append(pad, ' ');
      out.append(cell);
      if (c == 0) out.append(pad, ' ');
      out.append(" |");
    }
    out.append("\n");
    return out;
  };
  std::string out = line(header_);
  out.append("|");
  for (size_t c = 0; c < width.size(); ++c) {
    out.append(c == 0 ? " :" : " ");
    out.append(width[c] - 1, '-');
    out.append(c == 0 ? " |" : ": |");
  }
  out.append("\n");
  for (const auto& row : rows_) out += line(row);
  return out;
}

std::string fixed(double value, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

std::string mib(uint64_t bytes) {
  double m = double(bytes) / double(1 << 20);
  return fixed(m, m < 10 ? 2 : 1);
}

std::string seconds(double s) {
  if (s < 1e-6) return fixed(s * 1e9, 0) + " ns";
  if (s < 1e-3) return fixed(s * 1e6, s < 1e-5 ? 2 : 1) + " us";
  if (s < 1) return fixed(s * 1e3, s < 1e-2 ? 2 : 1) + " ms";
  return fixed(s, 2) + " s";
}

std::string ratio(double r) { return fixed(r, r < 10 ? 2 : r < 100 ? 1 : 0) + "x"; }

std::string percent(double fraction) {
  double p = fraction * 100;
  return fixed(p, p < 1 ? 2 : p < 10 ? 1 : 0) + "%";
}

std::string gbps(uint64_t bytes, double s) { return s > 0 ? fixed(double(bytes) / s / 1e9, 2) : "-"; }

}  // namespace bench
