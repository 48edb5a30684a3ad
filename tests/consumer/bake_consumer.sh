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
# Without ASSETLIB_BAKER, ASSETLIB_BUILD_BAKER gives the edges the baker built in the project
# (configured only: building it is the code build's business).
cmake -G Ninja -S "$src/tests/consumer/bake" -B "$work/subdir-baker" -DASSETLIB_SOURCE_DIR="$src" \
  -DASSETLIB_BUILD_BAKER=ON -DASSETS_DIR="$work/assets" >"$work/log" 2>&1 ||
  { cat "$work/log"; fail "configure with ASSETLIB_BUILD_BAKER"; }
ninja -C "$work/subdir-baker" -t query "$work/subdir-baker/game_assets.assetlib-bake/plan.stamp" \
  >"$work/query"
grep -q "asset-baker/asset-baker" "$work/query" || fail "the plan edge does not run the project's baker"

# Many edges at once in one output folder: a generated tree (OBJ, glTF, shared textures).
python3 "$src/scripts/make_scale_tree.py" "$work/tree" --count 300 >/dev/null
cmake -G Ninja -S "$src/tests/consumer/bake" -B "$work/parallel" -DCMAKE_PREFIX_PATH="$work/prefix" \
  -DASSETS_DIR="$work/tree" -DASSETLIB_BAKE_PLAN_CHUNK=64 >/dev/null
build parallel 4
same_as_whole_bake "$work/tree" "$work/parallel/baked"
# File names a whole-folder bake takes, which build files cannot hold as they are: '#' (CMake
# refuses it in an output), '$' (a Ninja variable), quotes, '&', '^', backticks and '%' (Ninja
# ends a depfile path there). Each bakes once, and a second build does nothing.
mkdir -p "$work/odd"
for name in 'rock#2' 'cost$1' "it's" 'a&b' 'a^b' 'tick`s' '100%' 'ab:c'; do
  cp "$work/assets/textures/checker.png" "$work/odd/$name.png"
done
printf 'mtllib it'"'"'s.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nusemtl m\nf 1/1 2/1 3/1\n' >"$work/odd/model.obj"
printf 'newmtl m\nmap_Kd rock#2.png\n' >"$work/odd/it's.mtl"
# A broken symlink and one leading out of the folder: a whole bake passes them over, so does the build.
ln -s /nonexistent/x.png "$work/odd/broken.png"
ln -s "$work/assets/textures/checker.png" "$work/odd/outside.png"
cmake -G Ninja -S "$src/tests/consumer/bake" -B "$work/odd-build" -DCMAKE_PREFIX_PATH="$work/prefix" \
  -DASSETS_DIR="$work/odd" >"$work/log" 2>&1 || { cat "$work/log"; fail "configure with odd names"; }
build odd-build
same_as_whole_bake "$work/odd" "$work/odd-build/baked"
build odd-build
grep -q "no work to do" "$work/log" || { cat "$work/log"; fail "a second build with odd names did work"; }
# The .mtl of an odd name is still an input of its model: an edit rebakes it.
sleep 1.1  # a folder's time, which names it in the depfile, moves in whole seconds on some filesystems
printf 'newmtl m\nKd 0.5 0.5 0.5\nmap_Kd rock#2.png\n' >"$work/odd/it's.mtl.tmp"
mv "$work/odd/it's.mtl.tmp" "$work/odd/it's.mtl"
build odd-build
grep -q "Baking model.obj" "$work/log" || { cat "$work/log"; fail "a replaced .mtl of an odd name did not rebake its model"; }
same_as_whole_bake "$work/odd" "$work/odd-build/baked"
# baker.json's exclude, through every edge: the excluded source's output goes, as in a whole bake,
# and the next build has nothing to do (the plan writes a plan file for it all the same).
printf '{ "exclude": ["100%%.png", "a&b.png"] }\n' >"$work/odd/baker.json"
build odd-build
same_as_whole_bake "$work/odd" "$work/odd-build/baked"
[ ! -e "$work/odd-build/baked/100%.tx" ] || fail "the excluded source's output stayed"
build odd-build
grep -q "no work to do" "$work/log" || { cat "$work/log"; fail "a second build with an exclude did work"; }
rm "$work/odd/baker.json"
# A name no CMake list can hold (';', '\\'): the configure step fails naming it, not the build later.
touch "$work/odd/a;b.png"
if cmake -G Ninja -S "$src/tests/consumer/bake" -B "$work/odd-build" >"$work/log" 2>&1; then
  fail "configure took a file name holding ';'"
fi
tr -s ' \n' ' ' <"$work/log" | grep -q "in its name, which a CMake build cannot hold: rename it" ||
  { cat "$work/log"; fail "the ';' name is not explained"; }
echo "PASS bake consumer"
