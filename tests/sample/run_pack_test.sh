#!/usr/bin/env bash
# engine-sample loads a pack file as it loads the baked folder it was made from: assets/ is baked,
# packed (asset-baker pack), rendered from the folder and from the pack with validation on, and the
# two screenshots must be the same bytes (same assets, same order, same loader). A pack whose table
# is fine but whose asset is damaged fails with the pack and the entry named; --pack with
# --reload-wait, or with a folder, is a usage error.
#
#   run_pack_test.sh <asset-baker> <engine-sample> <source-assets-dir> <work-dir> <screenshot-check>
#
# SAMPLE_DEVICE, if set, is passed as --device.
set -uo pipefail

if [[ $# -ne 5 ]]; then
  sed -n '2,10p' "$0" >&2
  exit 2
fi
baker=$1 sample=$2 source_dir=$3 work=$4 checker=$5

logs=("$work"/bake.log "$work"/sample.out "$work"/sample.err)
source "$(dirname "$0")/sample_test_common.sh"

"$baker" "$source_dir" -o "$work/baked" --pack "$work/game.pack" >"$work/bake.log" 2>&1 ||
  fail "asset-baker --pack exited with $?"
grep -q '^packed [0-9]* assets' "$work/bake.log" || fail "no pack summary in the bake's output"
asset_count=$(grep -cE '"type": "(TEXI|MESH|MATL|PRFB)"' "$work/baked/manifest.json")

device_args=()
[[ -n ${SAMPLE_DEVICE:-} ]] && device_args=(--device "$SAMPLE_DEVICE")

# Renders with the options $2... into $work/$1.tx and .out; validation must stay silent.
render() {
  local name=$1
  shift
  "$sample" "$@" --validate --size 640x360 --screenshot "$work/$name.tx" "${device_args[@]}" \
    >"$work/$name.out" 2>"$work/sample.err" || fail "engine-sample $* exited with $?"
  grep -qx 'validation messages: 0' "$work/$name.out" || fail "validation messages with $*"
  grep -q "^total ($asset_count assets)" "$work/$name.out" ||
    fail "engine-sample $* did not load all $asset_count assets"
}

render folder "$work/baked"
render pack --pack "$work/game.pack"
"$checker" "$work/pack.tx" || fail "the pack's screenshot does not show a rendered scene"
cmp -s "$work/folder.tx" "$work/pack.tx" ||
  fail "the render from the pack differs from the render from its folder"
grep -E '^(total|files to GPU-ready)' "$work/pack.out"

# A damaged asset behind a valid table: the error names the pack and the entry, exit 1.
offset=$("$baker" info "$work/game.pack" --json | python3 -c '
import json, sys
entry = next(f for f in json.load(sys.stdin)["files"] if f["entry"] == "textures/bricks.png")
print(entry["offset"] + 16)') || fail "asset-baker info --json on the pack"
cp "$work/game.pack" "$work/damaged.pack"
printf '\xff' | dd of="$work/damaged.pack" bs=1 seek="$offset" conv=notrunc status=none
"$sample" --pack "$work/damaged.pack" "${device_args[@]}" >"$work/damaged.out" 2>"$work/damaged.err"
status=$?
((status == 1)) || fail "a damaged pack entry must exit 1, got $status"
grep -q "^engine-sample: error: $work/damaged.pack: textures/bricks.png: TEXI metadata" \
  "$work/damaged.err" || fail "the error does not name the pack and the entry: $(cat "$work/damaged.err")"
# Not a pack at all.
"$sample" --pack "$work/baked/manifest.json" >/dev/null 2>"$work/not-a-pack.err"
(($? == 1)) || fail "a file that is no pack must exit 1"
grep -q "manifest.json: not a pack file" "$work/not-a-pack.err" || fail "no 'not a pack file' error"

# Usage errors.
"$sample" --pack "$work/game.pack" --reload-wait 1 >/dev/null 2>&1
(($? == 2)) || fail "--pack with --reload-wait must exit 2"
"$sample" "$work/baked" --pack "$work/game.pack" >/dev/null 2>&1
(($? == 2)) || fail "a folder and --pack must exit 2"

echo "PASS: engine-sample --pack renders what the folder renders ($asset_count assets)"
