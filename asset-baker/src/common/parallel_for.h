// Spreading independent pieces of one job (the meshes of a glTF, the block rows of a texture
// level) over the threads the job may use.
#pragma once

#include <cstddef>
#include <functional>

namespace baker {

// Runs `task(i)` for every i in [0, count) on up to `threads` threads, the caller's included.
// Items are handed out in increasing order, one at a time, so unequal items balance. If tasks
// throw, no further items start and the exception of the lowest item is rethrown once every
// thread has stopped: whichever thread runs what, the caller sees the same outcome.
void parallel_for(size_t count, unsigned threads, const std::function<void(size_t)>& task);

}  // namespace baker
