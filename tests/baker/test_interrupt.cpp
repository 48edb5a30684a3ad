#include "pipeline/interrupt.h"

#include <catch2/catch.hpp>

#include <csignal>

// A --watch opens a scope for its whole run and each bake opens its own within it: a Ctrl-C the
// watch received must survive the bake's scope (it was cleared, and the watch went on).
TEST_CASE("an interrupt scope within another keeps the signal the outer one received") {
  baker::InterruptScope outer;
  CHECK(baker::interrupt_signal() == 0);
  std::raise(SIGINT);  // handled: the process goes on
  CHECK(baker::interrupt_signal() == SIGINT);
  {
    baker::InterruptScope inner;
    CHECK(baker::interrupt_signal() == SIGINT);
  }
  CHECK(baker::interrupt_signal() == SIGINT);
}

TEST_CASE("nested interrupt scopes give back the handlers found before the outer one") {
  struct sigaction before {};
  ::sigaction(SIGTERM, nullptr, &before);
  {
    baker::InterruptScope outer;
    baker::InterruptScope inner;  // took the outer's handler for the one to give back
  }
  struct sigaction after {};
  ::sigaction(SIGTERM, nullptr, &after);
  CHECK(after.sa_handler == before.sa_handler);
}

TEST_CASE("an interrupt scope forgets the signals of an earlier one") {
  {
    baker::InterruptScope first;
    std::raise(SIGTERM);
    CHECK(baker::interrupt_signal() == SIGTERM);
  }
  baker::InterruptScope second;
  CHECK(baker::interrupt_signal() == 0);
}
