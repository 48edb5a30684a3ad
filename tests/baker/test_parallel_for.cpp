// common/parallel_for.h: every item runs once, whatever the thread count, and a failure reaches the
// caller as the same exception on every run.
#include "common/parallel_for.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <stdexcept>
#include <string>
#include <vector>

using baker::parallel_for;

TEST_CASE("parallel_for runs every item exactly once") {
  for (unsigned threads : {0u, 1u, 2u, 7u, 64u}) {
    for (size_t count : {size_t(0), size_t(1), size_t(3), size_t(1000)}) {
      std::vector<std::atomic<int>> runs(count);
      parallel_for(count, threads, [&](size_t i) { ++runs[i]; });
      for (size_t i = 0; i < count; ++i) {
        INFO(threads << " threads, " << count << " items, item " << i);
        CHECK(runs[i] == 1);
      }
    }
  }
}

TEST_CASE("parallel_for rethrows the failure of the lowest failing item") {
  // Items 5 and 17 fail, 17 quickly and 5 late: the caller must still see item 5's exception.
  for (int run = 0; run < 50; ++run) {
    std::string seen;
    try {
      parallel_for(40, 4, [](size_t i) {
        if (i == 5) {
          volatile double x = 0;
          for (int k = 0; k < 100000; ++k) x = x + k;
          throw std::runtime_error("item 5");
        }
        if (i == 17) throw std::runtime_error("item 17");
      });
    } catch (const std::runtime_error& e) {
      seen = e.what();
    }
    CHECK(seen == "item 5");
  }
}
