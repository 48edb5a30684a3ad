#!/usr/bin/env bash
# Builds and runs tests/consumer against assetlib every way a project can take it:
#   1. add_subdirectory(<repo>)            4. pkg-config, from the same moved prefix
#   2. add_subdirectory(<repo>/assetlib)   5. `cmake --install` of a tools build: asset-baker runs
#   3. find_package after `cmake --install`, with the prefix moved elsewhere first
# Usage: build_consumers.sh <assetlib source dir> <this project's build dir>
set -euo pipefail
src=$1
build=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/assetlib-consumer.XXXXXX")
trap 'rm -rf "$work"' EXIT
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)

consume() {  # consume <name> <cmake args...>: configures, builds and runs the consumer
  local name=$1
  shift
  cmake -G Ninja -S "$src/tests/consumer" -B "$work/$name" "${launcher[@]}" "$@" >/dev/null
  cmake --build "$work/$name" >/dev/null
  "$work/$name/consumer"
}

consume root -DASSETLIB_SOURCE_DIR="$src"
consume library-folder -DASSETLIB_SOURCE_DIR="$src/assetlib"

cmake -G Ninja -S "$src" -B "$work/lib" -DASSETLIB_BUILD_TOOLS=OFF \
  -DCMAKE_INSTALL_PREFIX="$work/prefix" "${launcher[@]}" >/dev/null
cmake --build "$work/lib" >/dev/null
cmake --install "$work/lib" >/dev/null
mv "$work/prefix" "$work/moved"  # nothing installed may name the prefix it was built for
if grep -rlE "$work/prefix|/liblz4\.(so|a)" "$work/moved"; then
  echo "FAIL: the installed package names an absolute path (above)" >&2
  exit 1
fi
consume package -DCMAKE_PREFIX_PATH="$work/moved"

pc=$(dirname "$(find "$work/moved" -name assetlib.pc)")
flags=$(PKG_CONFIG_PATH="$pc" pkg-config --cflags --libs assetlib)
# shellcheck disable=SC2086  # the flags are words
g++ -std=c++20 "$src/tests/consumer/main.cpp" -o "$work/pkgconfig-consumer" $flags
"$work/pkgconfig-consumer"

cmake --install "$build" --prefix "$work/tools" >/dev/null
"$work/tools/bin/asset-baker" --version | grep -q "asset-baker" || {
  echo "FAIL: the installed asset-baker does not run" >&2
  exit 1
}
echo "PASS consumers"
