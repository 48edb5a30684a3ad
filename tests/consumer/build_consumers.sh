#!/usr/bin/env bash
# Builds and runs tests/consumer against assetlib by add_subdirectory and by find_package after an
# install. Usage: build_consumers.sh <assetlib source dir>
set -euo pipefail
src=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/assetlib-consumer.XXXXXX")
trap 'rm -rf "$work"' EXIT
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)

cmake -G Ninja -S "$src/tests/consumer" -B "$work/sub" -DASSETLIB_SOURCE_DIR="$src" "${launcher[@]}" >/dev/null
cmake --build "$work/sub" >/dev/null
"$work/sub/consumer"

cmake -G Ninja -S "$src" -B "$work/lib" -DASSETLIB_BUILD_TOOLS=OFF -DCMAKE_INSTALL_PREFIX="$work/prefix" "${launcher[@]}" >/dev/null
cmake --build "$work/lib" >/dev/null
cmake --install "$work/lib" >/dev/null
cmake -G Ninja -S "$src/tests/consumer" -B "$work/pkg" -DCMAKE_PREFIX_PATH="$work/prefix" "${launcher[@]}" >/dev/null
cmake --build "$work/pkg" >/dev/null
"$work/pkg/consumer"
echo "PASS consumers"
