#!/usr/bin/env bash
# assetlib_bake() end to end: a project bakes assets/ at build time through the installed package
# (and through add_subdirectory), one Ninja edge per source. Checks that the baked folder equals a
# whole-folder bake, that a second build does nothing, that changing one texture rebakes exactly
# that texture, that editing an .mtl rebakes exactly its OBJ, that deleting an image a material
# names and adding or removing a baker.json give a whole bake's folder, and that many edges at once
# (-j4, a generated tree of a few hundred sources) give the same folder as a whole bake.
# Usage: bake_consumer.sh <repo> <build dir> <assets dir>
set -euo pipefail
export LC_ALL=C
src=$1 build=$2 assets=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/assetlib-bake-consumer.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$work/prefix" >/dev/null
baker="$work/prefix/bin/asset-baker"
snapshot() { (cd "$1" && find . -type f ! -path './.assetlib-*' ! -name manifest.json -exec sha256sum {} + | sort); }
# Equal, file for file, to `asset-baker <tree> -o <fresh folder>` (the index files aside).
same_as_whole_bake() {
  rm -rf "$work/whole"
  "$baker" "$1" -o "$work/whole" -q --no-cache || true
  diff -r -x .assetlib-cache.json -x .assetlib-cache -x .assetlib-records -x .assetlib-lock \
    "$work/whole" "$2" || fail "$2 differs from a whole-folder bake of $1"
  "$baker" check "$2" >/dev/null || fail "check $2"
}
# Builds project `$1` and keeps Ninja's output in $work/log.
build() { ninja -C "$work/$1" -j "${2:-2}" >"$work/log" 2>&1 || { cat "$work/log"; fail "ninja $1"; }; }
baked_lines() { grep -c "Baking " "$work/log" || true; }

cp -r "$assets" "$work/assets"
sources=$(find "$work/assets" -type f \( -iname '*.png' -o -iname '*.obj' \) | wc -l)
# Plan files declared a few at a time (not the default 1000), so that several plan commands run.
cmake -G Ninja -S "$src/tests/consumer/bake" -B "$work/installed" -DCMAKE_PREFIX_PATH="$work/prefix" \
  -DASSETS_DIR="$work/assets" -DASSETLIB_BAKE_PLAN_CHUNK=4 >/dev/null
build installed
[ "$(baked_lines)" = "$sources" ] || { cat "$work/log"; fail "first build: expected $sources bakes"; }
out="$work/installed/baked"
same_as_whole_bake "$work/assets" "$out"

build installed
grep -q "no work to do" "$work/log" || { cat "$work/log"; fail "a second build did work"; }

# Another picture in one texture: that texture alone rebakes, only its output changes.
before=$(snapshot "$out")
cp "$work/assets/textures/ui/button.png" "$work/assets/textures/checker.png"
build installed
[ "$(baked_lines)" = 1 ] && grep -q "Baking textures/checker.png" "$work/log" ||
  { cat "$work/log"; fail "one changed texture: expected exactly one bake"; }
changes=$(diff <(echo "$before") <(snapshot "$out") | grep '^>' || true)
[ "$(echo "$changes" | wc -l)" = 1 ] && [[ "$changes" == *" ./textures/checker.tx" ]] ||
  fail "expected only textures/checker.tx to change: $changes"
same_as_whole_bake "$work/assets" "$out"

# An .mtl edit that changes no texture role: its OBJ alone rebakes.
sed -i 's/^Kd .*/Kd 0.25 0.5 0.75/' "$work/assets/models/cube.mtl"
build installed
[ "$(baked_lines)" = 1 ] && grep -q "Baking models/cube.obj" "$work/log" ||
  { cat "$work/log"; fail "an edited .mtl: expected exactly its OBJ to rebake"; }
same_as_whole_bake "$work/assets" "$out"

# A deleted image that a material names: re-planned out of the model, its output removed.
rm "$work/assets/textures/bricks.png"
build installed
grep -q "Baking models/" "$work/log" || { cat "$work/log"; fail "a deleted image: its model did not rebake"; }
same_as_whole_bake "$work/assets" "$out"
# A baker.json where there was none: every source rebakes with its settings; removed, again.
echo '{ "settings": { "mips": false } }' >"$work/assets/baker.json"
build installed
[ "$(baked_lines)" = "$((sources - 1))" ] || { cat "$work/log"; fail "an added baker.json: expected every source to rebake"; }
same_as_whole_bake "$work/assets" "$out"
rm "$work/assets/baker.json"
build installed
[ "$(baked_lines)" = "$((sources - 1))" ] || { cat "$work/log"; fail "a removed baker.json: expected every source to rebake"; }
same_as_whole_bake "$work/assets" "$out"

# add_subdirectory of the repository, the baker of this build.
cmake -G Ninja -S "$src/tests/consumer/bake" -B "$work/subdir" -DASSETLIB_SOURCE_DIR="$src" \
  -DASSETLIB_BAKER="$build/asset-baker/asset-baker" -DASSETS_DIR="$work/assets" >/dev/null
build subdir
same_as_whole_bake "$work/assets" "$work/subdir/baked"

# Many edges at once in one output folder: a generated tree (OBJ, glTF, shared textures).
python3 "$src/scripts/make_scale_tree.py" "$work/tree" --count 300 >/dev/null
cmake -G Ninja -S "$src/tests/consumer/bake" -B "$work/parallel" -DCMAKE_PREFIX_PATH="$work/prefix" \
  -DASSETS_DIR="$work/tree" -DASSETLIB_BAKE_PLAN_CHUNK=64 >/dev/null
build parallel 4
same_as_whole_bake "$work/tree" "$work/parallel/baked"
echo "PASS bake consumer"
