// Ctrl-C, SIGTERM and SIGHUP during a bake: stop starting new sources, let the running ones finish,
// then write the cache and a consistent manifest of what is done, so that a rerun does only the
// rest. A second signal ends the process at once (the default action): temporaries it leaves are
// swept by the next run.
#pragma once

namespace baker {

// Installs the handlers for its lifetime and restores the previous ones after. A scope opened
// within another (a bake within --watch) leaves the outer one in charge.
class InterruptScope {
 public:
  InterruptScope();
  ~InterruptScope();
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;
};

// The signal received since the scope began (SIGINT, SIGTERM or SIGHUP), or 0.
int interrupt_signal();

}  // namespace baker
