// assetlib-bench: what machine and build produced the figures.
#pragma once

#include "results.h"

#include <string>

namespace bench {

Machine describe_machine();

// The first line of /proc/loadavg ("1.02 0.87 0.60 2/300 1234"), or "".
std::string read_loadavg();

// CPU seconds the whole machine has spent busy (all cores, including time stolen by the
// hypervisor), from /proc/stat. The difference over an interval minus a child's own CPU time is
// what other processes took from the machine meanwhile.
double machine_busy_seconds();

// Waits until other processes leave the machine alone: returns once a `window` seconds long
// interval saw them use less than `max_cores` cores, or after `max_wait` seconds. Returns the
// cores others used in the last window.
double wait_for_quiet_machine(double max_wait, double window = 0.5, double max_cores = 0.15);

}  // namespace bench
