#!/usr/bin/env bash
# Every test, from a fresh machine: install dependencies, build and run the whole suite, then the
# same suite built with AddressSanitizer + UndefinedBehaviorSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
jobs=$(nproc)

echo "== Release build + tests"
bash scripts/configure.sh build -DCMAKE_BUILD_TYPE=Release
cmake --build build
ctest --test-dir build --output-on-failure -j "$jobs"

echo "== ASan + UBSan build + tests"
# The Vulkan sample is left out here: the system's Vulkan loader and drivers are not instrumented.
bash scripts/configure.sh build-asan -DCMAKE_BUILD_TYPE=Debug -DASSETLIB_SANITIZE=address,undefined \
  -DASSETLIB_BUILD_SAMPLE=OFF
cmake --build build-asan
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-asan --output-on-failure -j "$jobs"
