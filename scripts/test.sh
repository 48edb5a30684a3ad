#!/usr/bin/env bash
# Every test, from a fresh machine: install dependencies, check the formatting, then four builds in
# a row:
#   1. Release: the whole suite (unit, end-to-end, hostile inputs, crash safety, sample, consumer)
#   2. ASan + UBSan: the same suite without the Vulkan sample
#   3. ThreadSanitizer: the loader API from many threads (hostile.concurrency, unpack_jobs)
#   4. clang + libFuzzer: each fuzz target for FUZZ_SECONDS (default 60) from the committed seeds
#      and regressions; any finding fails the run (docs/robustness.md)
# Set FUZZ_SECONDS=0 to skip the fuzzing stage locally.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
jobs=$(nproc)
stage() { echo "== $1 ($(date +%T))"; }

stage "Format check (clang-format, .clang-format)"
git ls-files '*.h' '*.cpp' 2>/dev/null | xargs clang-format --dry-run --Werror ||
  { echo "run: git ls-files '*.h' '*.cpp' | xargs clang-format -i" >&2; exit 1; }

stage "Release build + tests"
bash scripts/configure.sh build -DCMAKE_BUILD_TYPE=Release
cmake --build build
# A test that hangs fails after --timeout seconds (those with a TIMEOUT of their own keep it)
# instead of holding the run until CI's own limit.
ctest --test-dir build --output-on-failure -j "$jobs" --timeout 900

stage "ASan + UBSan build + tests"
# The Vulkan sample is left out here: the system's Vulkan loader and drivers are not instrumented.
bash scripts/configure.sh build-asan -DCMAKE_BUILD_TYPE=Debug -DASSETLIB_SANITIZE=address,undefined \
  -DASSETLIB_BUILD_SAMPLE=OFF
cmake --build build-asan
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-asan --output-on-failure -j "$jobs" --timeout 900

stage "ThreadSanitizer build + concurrency stress test"
bash scripts/configure.sh build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DASSETLIB_SANITIZE=thread \
  -DASSETLIB_BUILD_SAMPLE=OFF
cmake --build build-tsan --target hostile-concurrency hostile-tsan-canary assetlib-tests
# unpack_jobs on real threads too: chunks of many assets decoded by a pool into shared buffers.
ctest --test-dir build-tsan --output-on-failure --timeout 900 -R '^(hostile\.(concurrency|tsan_canary)|unpack_jobs? .*)$'

fuzz_seconds=${FUZZ_SECONDS:-60}
if [ "$fuzz_seconds" != 0 ]; then
  stage "libFuzzer build + ${fuzz_seconds} s per target"
  CC=clang CXX=clang++ bash scripts/configure.sh build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DASSETLIB_FUZZ=ON \
    -DASSETLIB_SANITIZE=fuzzer-no-link,address,undefined -DASSETLIB_BUILD_SAMPLE=OFF
  cmake --build build-fuzz --target fuzzers
  # A fixed seed: the same inputs on every machine (a run only goes further on a faster one), so a
  # red run is reproducible with the same command. Local campaigns leave FUZZ_SEED unset.
  FUZZ_SEED=${FUZZ_SEED:-1} bash fuzz/run_fuzzers.sh build-fuzz "$fuzz_seconds"
fi
stage "all tests passed"
