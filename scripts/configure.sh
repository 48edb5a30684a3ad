#!/usr/bin/env bash
# Configures a build folder with Ninja (and ccache when present). Usage: configure.sh <dir> [cmake args...]
set -euo pipefail
dir=$1; shift
root="$(cd "$(dirname "$0")/.." && pwd)"
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -G Ninja -S "$root" -B "$dir" "${launcher[@]}" "$@" >/dev/null
