#!/usr/bin/env bash
# Configures a build folder with Ninja (and ccache when present). Usage: configure.sh <dir> [cmake args...]
set -euo pipefail
dir=$1; shift
root="$(cd "$(dirname "$0")/.." && pwd)"
# ccache keyed by paths relative to the checkout (CCACHE_BASEDIR) and not by the build folder
# (CCACHE_NOHASHDIR): a fresh clone elsewhere, as CI makes, reuses what another clone compiled.
launcher=()
command -v ccache >/dev/null &&
  launcher=("-DCMAKE_CXX_COMPILER_LAUNCHER=env;CCACHE_BASEDIR=$root;CCACHE_NOHASHDIR=1;ccache")
cmake -G Ninja -S "$root" -B "$dir" "${launcher[@]}" "$@" >/dev/null
