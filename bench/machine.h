// assetlib-bench: what machine and build produced the figures.
#pragma once

#include "results.h"

#include <string>

namespace bench {

Machine describe_machine();

// The first line of /proc/loadavg ("1.02 0.87 0.60 2/300 1234"), or "".
std::string read_loadavg();

}  // namespace bench
