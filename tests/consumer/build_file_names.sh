#!/usr/bin/env bash
# The names of the files a build keeps per source (plan files, stamps, depfiles) are spelt twice:
# by the baker (build_file_name, pipeline/depfile.cpp) and by assetlib_bake()
# (_assetlib_bake_build_file_names, assetlib/cmake/AssetlibBake.cmake). They must agree for every
# character a file name can hold, or an edge declares a plan file the plan never writes and the
# build runs again every time. Sources named by every ASCII byte (but the ones a CMake list cannot
# hold: ';', '\', '"', line ends; and '/') are planned by the baker, and their names computed by
# the CMake function; both lists must be equal.
# Usage: build_file_names.sh <asset-baker> <repo>
set -euo pipefail
baker=$1 repo=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/build-file-names.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

mkdir -p "$work/src"
python3 - "$work/src" "$work/names.hex" <<'PY'
import os, sys
folder, listing = sys.argv[1], sys.argv[2]
with open(listing, "w") as out:
    for b in range(1, 128):
        if chr(b) in ';\\"/\r\n':
            continue
        name = b"n" + bytes([b]) + b".png"
        open(os.path.join(folder.encode(), name), "wb").write(b"not read")
        out.write(name.hex() + "\n")
PY
"$baker" plan "$work/src" --plan-dir "$work/plan" -q || fail "plan"
(cd "$work/plan" && find . -name '*.plan' | sed 's|^\./||; s|\.plan$||' | LC_ALL=C sort) >"$work/baker"
cat >"$work/names.cmake" <<'CMAKE'
include("${REPO}/assetlib/cmake/AssetlibBake.cmake")
file(STRINGS "${LISTING}" hex_names)
file(WRITE "${OUT}" "")
foreach(hex IN LISTS hex_names)
  set(name "")
  string(LENGTH "${hex}" length)
  math(EXPR last "${length} - 2")
  foreach(at RANGE 0 ${last} 2)
    string(SUBSTRING "${hex}" ${at} 2 byte)
    math(EXPR code "0x${byte}")
    string(ASCII ${code} character)
    string(APPEND name "${character}")
  endforeach()
  set(names "${name}")
  _assetlib_bake_build_file_names(names)
  file(APPEND "${OUT}" "${names}\n")
endforeach()
CMAKE
cmake -DREPO="$repo" -DLISTING="$work/names.hex" -DOUT="$work/cmake.unsorted" -P "$work/names.cmake" ||
  fail "cmake -P"
LC_ALL=C sort "$work/cmake.unsorted" >"$work/cmake"
[ "$(wc -l <"$work/baker")" -ge 120 ] || fail "the plan wrote $(wc -l <"$work/baker") plan files"
diff "$work/baker" "$work/cmake" || fail "the baker and AssetlibBake.cmake name build files differently"
echo "PASS build file names ($(wc -l <"$work/baker") names)"
