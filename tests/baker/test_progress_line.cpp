// The progress bar's line (pipeline/progress_report.h): never wider than the terminal, the name cut
// from its start, the rate and the time left by source bytes.
#include "pipeline/progress_report.h"

#include <catch2/catch.hpp>

using baker::progress_line;

TEST_CASE("progress: the line shows done/total, the rate, the time left and the name",
          "[progress]") {
  // 40 of 100 MB in 4 s: 10 MB/s, 60 MB to go: 6 s.
  std::string line = progress_line(2, 5, 40'000'000, 100'000'000, 4.0, "textures/a.png", 120);
  CHECK(line == "[########............] 2/5  10.0 MB/s  ETA 0:06  textures/a.png");
}

TEST_CASE("progress: no rate or time left before there is history to measure", "[progress]") {
  CHECK(progress_line(0, 5, 0, 100, 0.0, "a.png", 80) == "[....................] 0/5  a.png");
  CHECK(progress_line(1, 5, 10, 100, 0.1, "a.png", 80) == "[####................] 1/5  a.png");
}

TEST_CASE("progress: hours in the time left", "[progress]") {
  // 1 MB/s with 3723 MB to go: 1:02:03.
  std::string line = progress_line(1, 2, 1'000'000, 3'724'000'000, 1.0, "x", 80);
  CHECK(line.find("ETA 1:02:03") != std::string::npos);
}

TEST_CASE("progress: a long name is cut from its start to fit, never past the width",
          "[progress]") {
  std::string name = "a/very/deep/folder/structure/with/a/long/file_name_albedo.png";
  for (size_t columns : {20, 40, 60, 79, 80}) {
    std::string line = progress_line(3, 10, 30, 100, 2.0, name, columns);
    INFO(columns << ": " << line);
    CHECK(line.size() < columns);
    if (columns >= 40) CHECK(line.rfind("[######..............] 3/10  0.0 MB/s", 0) == 0);
  }
  std::string fitted = progress_line(3, 10, 0, 0, 0.0, name, 50);
  CHECK(fitted == "[######..............] 3/10  ...e_name_albedo.png");
  CHECK(progress_line(3, 10, 0, 0, 0.0, name, 2).size() < 2);
}
