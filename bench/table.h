// assetlib-bench: Markdown tables (readable in a terminal, pasted as is into docs/benchmarks.md)
// and the number formats every table uses.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace bench {

class Table {
 public:
  explicit Table(std::vector<std::string> header) : header_(std::move(header)) {}
  void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  // Columns padded to their widest cell; the first column left-aligned, the others right-aligned.
  std::string markdown() const;

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

std::string fixed(double value, int decimals);
std::string mib(uint64_t bytes);             // "12.3"
std::string seconds(double s);               // "850 ns", "12.3 us", "4.56 ms", "1.23 s"
std::string ratio(double r);                 // "123x", "4.5x"
std::string percent(double fraction);        // "87%", "0.31%"
std::string gbps(uint64_t bytes, double s);  // GB/s (10^9 bytes per second)

}  // namespace bench
