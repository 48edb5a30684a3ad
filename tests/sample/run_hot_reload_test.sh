#!/usr/bin/env bash
# engine-sample hot reload, headless: bake a cube with a red texture, start the sample with
# --reload-wait in the background, and once its first screenshot is written, break the folder
# twice (a half-written manifest, then a manifest naming a corrupt texture: both must be reported
# and survived), restore it, make the texture blue and rebake with the ordinary asset-baker. The
# sample must reload just that texture ("reloaded paint.ppm"), with validation on and silent, and
# its second screenshot must show a blue cube where the first showed a red one.
#
#   run_hot_reload_test.sh <asset-baker> <engine-sample> <source-assets-dir> <work-dir>
#                          <screenshot-check>
#
# SAMPLE_DEVICE, if set, is passed as --device.
set -uo pipefail

if [[ $# -ne 5 ]]; then
  sed -n '2,12p' "$0" >&2
  exit 2
fi
baker=$1 sample=$2 source_dir=$3 work=$4 checker=$5
src=$work/src baked=$work/baked

logs=("$work"/bake.log "$work"/sample.out "$work"/sample.err)
source "$(dirname "$0")/sample_test_common.sh"

sample_pid=
# The sample is ours; a failing test must not leave it running.
trap '[[ -n $sample_pid ]] && kill "$sample_pid" 2>/dev/null' EXIT

# An 8x8 PPM of one colour: $1 path, $2 $3 $4 red, green, blue.
solid_ppm() {
  local texel i
  texel=$(printf '\\%03o\\%03o\\%03o' "$2" "$3" "$4")
  { printf 'P6\n8 8\n255\n'; for ((i = 0; i < 64; ++i)); do printf '%b' "$texel"; done; } >"$1"
}

# Replaces file $2 with $1 in one rename, as the baker writes, so the sample never reads half.
replace_file() {
  if ! cp "$1" "$2.tmp" || ! mv "$2.tmp" "$2"; then fail "cannot replace $2"; fi
}

# "R G B": the mean colour of the scene in screenshot $1.
scene_rgb() {
  "$checker" "$1" --min-colors 1 --mean-rgb | sed -n 's/^scene mean rgb: //p'
}

# 1. A cube whose material's base colour is one red texture.
mkdir -p "$src"
sed 's/^usemtl bricks$/usemtl paint/' "$source_dir/models/cube.obj" >"$src/cube.obj" ||
  fail "no models/cube.obj in $source_dir"
printf 'newmtl paint\nKd 1 1 1\nmap_Kd paint.ppm\n' >"$src/cube.mtl"
solid_ppm "$src/paint.ppm" 220 30 20
"$baker" "$src" -o "$baked" >"$work/bake.log" 2>&1 || fail "asset-baker exited with $?"

# 2. The sample renders it, saves shot.tx, then waits for the manifest to change.
device_args=()
[[ -n ${SAMPLE_DEVICE:-} ]] && device_args=(--device "$SAMPLE_DEVICE")
"$sample" "$baked" --validate --size 160x120 --screenshot "$work/shot.tx" --reload-wait 60 \
  "${device_args[@]}" >"$work/sample.out" 2>"$work/sample.err" &
sample_pid=$!
wait_for_line "$work/sample.out" '^hot reload: waiting' "the first screenshot" "$sample_pid"
cp "$baked/manifest.json" "$work/good-manifest.json"
cp "$baked/paint.tx" "$work/good-paint.tx"

# 3. A manifest caught half-written (a tool that writes in place): reported, nothing reloaded.
printf '{"assets": [' >"$baked/manifest.json"
wait_for_line "$work/sample.err" '^hot reload: error: .*manifest.json' \
  "an error about the manifest" "$sample_pid"

# 4. A manifest whose texture entry changed, naming a corrupt file: reported, the red one kept.
paint_hash=$(grep -B3 -A3 '"name": "paint.ppm"' "$work/good-manifest.json" |
  grep -o 'xxh3-64:[0-9a-f]*')
[[ -n $paint_hash ]] || fail "no hash for paint.ppm in the manifest"
head -c "$(stat -c %s "$work/good-paint.tx")" /dev/zero >"$work/zeros.tx"
replace_file "$work/zeros.tx" "$baked/paint.tx"
sed "s/$paint_hash/xxh3-64:0123456789abcdef/" "$work/good-manifest.json" >"$work/bad-manifest.json"
replace_file "$work/bad-manifest.json" "$baked/manifest.json"
wait_for_line "$work/sample.err" 'keeping the loaded paint.ppm' \
  "an error about the corrupt texture" "$sample_pid"

# 5. The folder as baked again (nothing differs from what is loaded), then a blue texture baked
# the ordinary way: that is the change the sample must show.
replace_file "$work/good-paint.tx" "$baked/paint.tx"
replace_file "$work/good-manifest.json" "$baked/manifest.json"
solid_ppm "$src/paint.ppm" 20 40 230
"$baker" "$src" -o "$baked" >>"$work/bake.log" 2>&1 || fail "the rebake exited with $?"
wait "$sample_pid"
status=$?
sample_pid=
(( status == 0 )) || fail "engine-sample --reload-wait exited with $status"

# 6. Just the texture reloaded, the validation layer silent, and the cube now blue.
grep -qx 'reloaded paint.ppm' "$work/sample.out" || fail "the sample did not print 'reloaded paint.ppm'"
grep -q '^reloaded cube' "$work/sample.out" && fail "unchanged assets were reloaded"
grep -qx 'validation messages: 0' "$work/sample.out" || fail "validation messages were reported"
[[ -s $work/shot-reloaded.tx ]] || fail "no shot-reloaded.tx written"
read -r r1 g1 b1 <<<"$(scene_rgb "$work/shot.tx")"
read -r r2 g2 b2 <<<"$(scene_rgb "$work/shot-reloaded.tx")"
[[ -n ${b1:-} && -n ${b2:-} ]] || fail "sample_screenshot_check could not read the screenshots"
(( r1 > 2 * b1 )) || fail "the first screenshot is not red (mean rgb $r1 $g1 $b1)"
(( b2 > 2 * r2 )) || fail "the reloaded screenshot is not blue (mean rgb $r2 $g2 $b2)"

# 7. No change in time: exit status 1, naming the option.
"$sample" "$baked" --size 64x64 --reload-wait 0.5 "${device_args[@]}" >"$work/timeout.out" \
  2>"$work/timeout.err"
status=$?
(( status == 1 )) || fail "--reload-wait without a change exited with $status, expected 1"
grep -q 'reload-wait: nothing was reloaded' "$work/timeout.err" || fail "no timeout message"

grep -E '^(reloaded|hot reload)' "$work/sample.out"
echo "PASS: engine-sample hot reload (red $r1 $g1 $b1 -> blue $r2 $g2 $b2)"
