#include "pipeline/interrupt.h"

#include <atomic>
#include <csignal>
#include <iterator>

namespace baker {
namespace {

std::atomic<int> g_signal{0};
static_assert(std::atomic<int>::is_always_lock_free, "read from a signal handler");

// SIGHUP is a closed terminal or a dropped SSH session: the same request to stop as the others,
// unless it is ignored (nohup). (SIGINT is taken even then: a script's background jobs start with
// it ignored, and Ctrl-C or `kill -INT` still means stop.)
constexpr int kStopSignals[] = {SIGINT, SIGTERM, SIGHUP};
struct sigaction g_previous[std::size(kStopSignals)];
// Scopes open on the main thread. Only the outermost acts: a --watch's scope spans its bakes, and
// a bake's own scope must not forget a Ctrl-C the watch received (nor take its handlers for the
// ones to restore).
int g_depth = 0;

void on_signal(int signal) { g_signal.store(signal); }

}  // namespace

InterruptScope::InterruptScope() {
  if (g_depth++ > 0) return;
  g_signal.store(0);
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND;  // the second signal takes the default action
  for (size_t i = 0; i < std::size(kStopSignals); ++i) {
    sigaction(kStopSignals[i], nullptr, &g_previous[i]);
    if (kStopSignals[i] == SIGHUP && g_previous[i].sa_handler == SIG_IGN) continue;
    sigaction(kStopSignals[i], &action, nullptr);
  }
}

InterruptScope::~InterruptScope() {
  if (--g_depth > 0) return;
  for (size_t i = 0; i < std::size(kStopSignals); ++i)
    sigaction(kStopSignals[i], &g_previous[i], nullptr);
}

int interrupt_signal() { return g_signal.load(); }

}  // namespace baker
