// The order in which a bake hands its sources to the workers: longest estimated bake first.
// With N workers, a long bake that starts last runs on alone while the others idle; starting the
// long ones first leaves only short ones for the end. The order changes no output.
#pragma once

#include "pipeline/bake_job.h"

#include <cstdint>
#include <filesystem>
#include <vector>

namespace baker {

// An estimate, in nanoseconds of a -j1 bake, of how long baking `source` (under `input`) takes,
// made before it bakes: for an image from its header's pixel count and its roles (the header read
// from the file's first bytes; its size when the header does not say), for a model from its size.
// Only its order matters. Reads nothing outside `input`, never blocks on a FIFO.
uint64_t estimated_bake_cost(const std::filesystem::path& input, const Source& source);

// Sorts `to_run` (indices into `sources`) by estimated_bake_cost, longest first; equal estimates
// keep their order. Estimates on up to `threads` threads: a no-op rebuild reads every image's
// header too, before any job starts.
void longest_first(const std::filesystem::path& input, const std::vector<Source>& sources,
                   unsigned threads, std::vector<size_t>& to_run);

}  // namespace baker
