#!/usr/bin/env bash
# End-to-end test of engine-sample: bake the source assets, load the baked folder onto the GPU
# with validation on, render, and check the screenshot shows a scene.
#
#   run_sample_test.sh <asset-baker> <engine-sample> <source-assets-dir> <work-dir> [<screenshot-check>
#                      [<image-compare> <reference.png>]]
#
# <asset-baker> may be "none": <source-assets-dir> is then taken as an already baked folder.
# <screenshot-check> is the sample_screenshot_check binary; without it only the .tx header is
# checked, which cannot tell a blank image from a rendered one.
# <image-compare> compares the screenshot, exported to PNG, with <reference.png> (a lavapipe render
# of assets/; regenerate it with `asset-baker export <work>/shot.tx -o tests/sample/reference.png`
# when the scene changes on purpose).
# SAMPLE_DEVICE, if set, is passed as --device (CI without a GPU gets lavapipe by default).
# SAMPLE_BAKE_CONFIG, if set, is the baker.json the bake uses.
set -uo pipefail

if [[ $# -lt 4 || $# -gt 7 ]]; then
  sed -n '2,15p' "$0" >&2
  exit 2
fi
baker=$1 sample=$2 source_dir=$3 work=$4 checker=${5:-} compare=${6:-} reference=${7:-}

logs=("$work"/bake.log "$work"/sample.out "$work"/sample.err)
source "$(dirname "$0")/sample_test_common.sh"

# 1. Bake.
if [[ $baker == none ]]; then
  baked=$source_dir
else
  baked=$work/baked
  "$baker" "$source_dir" -o "$baked" ${SAMPLE_BAKE_CONFIG:+--config "$SAMPLE_BAKE_CONFIG"} \
    >"$work/bake.log" 2>&1 || fail "asset-baker exited with $? on $source_dir"
fi
[[ -f $baked/manifest.json ]] || fail "no manifest.json in $baked"
if [[ -n ${SAMPLE_BAKE_CONFIG:-} ]] && grep -q '"meshlets": true' "$SAMPLE_BAKE_CONFIG"; then
  "$baker" info "$baked" >"$work/info.txt" || fail "asset-baker info failed on $baked"
  grep -qE ', [1-9][0-9]* meshlets,' "$work/info.txt" || fail "the bake holds no meshlets"
fi
# The assets the sample loads: textures and meshes onto the GPU, materials and prefabs into memory.
asset_count=$(grep -cE '"type": "(TEXI|MESH|MATL|PRFB)"' "$baked/manifest.json")
(( asset_count > 0 )) || fail "$baked/manifest.json lists no assets"

# The command line: --version names the format read; usage errors exit 2.
"$sample" --version >"$work/version.txt" || fail "engine-sample --version exited with $?"
grep -qE '^reads assetlib format version [0-9]+; Vulkan headers [0-9.]+; LZ4 [0-9]+\.[0-9]+' "$work/version.txt" ||
  fail "engine-sample --version must name the format version, the Vulkan headers and LZ4"
"$sample" --bogus >/dev/null 2>&1
(( $? == 2 )) || fail "engine-sample --bogus must exit 2"

# 2. Load, render, screenshot, with the validation layer counting every warning and error.
device_args=()
[[ -n ${SAMPLE_DEVICE:-} ]] && device_args=(--device "$SAMPLE_DEVICE")
"$sample" "$baked" --validate --screenshot "$work/shot.tx" --frames 3 --json "$work/report.json" \
  "${device_args[@]}" >"$work/sample.out" 2>"$work/sample.err"
status=$?
(( status == 0 )) || fail "engine-sample exited with $status"
grep -q '^device: ' "$work/sample.out" || fail "engine-sample did not print the device it chose"
grep -qx 'validation messages: 0' "$work/sample.out" || fail "validation messages were reported"
grep -q "^total ($asset_count assets)" "$work/sample.out" ||
  fail "the load table does not list all $asset_count assets of the manifest"
grep -q '"validation_messages": 0' "$work/report.json" || fail "report.json lacks the validation count"

# 3. The screenshot is a texture, and (with the checker) a rendered scene.
[[ -s $work/shot.tx ]] || fail "no screenshot written"
[[ $(head -c 4 "$work/shot.tx") == TEXI ]] || fail "shot.tx is not a TEXI asset"
if [[ -n $checker ]]; then
  "$checker" "$work/shot.tx" --ppm "$work/shot.ppm" || fail "the screenshot does not show a rendered scene"
else
  echo "note: no screenshot checker given; only the .tx header was checked"
fi

# The screenshot, exported to PNG by the baker, must match the committed reference render.
if [[ -n $compare && $baker != none ]]; then
  "$baker" export "$work/shot.tx" -o "$work/shot.png" >/dev/null || fail "asset-baker export of the screenshot failed"
  "$compare" "$work/shot.png" "$reference" --diff "$work/diff.png" ||
    fail "the screenshot differs from $reference (see $work/shot.png and $work/diff.png)"
fi

# The low-memory path: the 3 largest levels of each texture are never read nor decompressed, so
# far fewer bytes are read and unpacked, and the uploads are still valid.
"$sample" "$baked" --validate --skip-mips 3 "${device_args[@]}" >"$work/skip.out" 2>"$work/skip.err" ||
  fail "engine-sample --skip-mips 3 exited with $?"
grep -qx 'validation messages: 0' "$work/skip.out" || fail "validation messages with --skip-mips"
full=$(awk '/^total \(/ {print $(NF-3)}' "$work/sample.out")
skipped=$(awk '/^total \(/ {print $(NF-3)}' "$work/skip.out")
(( skipped * 4 < full )) || fail "--skip-mips 3 unpacked $skipped of $full bytes; expected far fewer"
full_read=$(awk '/^total \(/ {print $(NF-4)}' "$work/sample.out")
skipped_read=$(awk '/^total \(/ {print $(NF-4)}' "$work/skip.out")
(( skipped_read * 2 < full_read )) ||
  fail "--skip-mips 3 read $skipped_read of $full_read file bytes; expected a partial read of each texture"

# A folder without meshes (textures only) loads and renders an empty scene, with a warning.
if [[ $baker != none ]]; then
  mkdir -p "$work/no-meshes"
  cp "$source_dir/textures/bricks.png" "$work/no-meshes/" || fail "no textures/bricks.png in $source_dir"
  "$baker" "$work/no-meshes" -o "$work/no-meshes-baked" >/dev/null 2>&1 || fail "baking one texture failed"
  "$sample" "$work/no-meshes-baked" --validate "${device_args[@]}" >"$work/empty.out" 2>"$work/empty.err" ||
    fail "engine-sample exited with $? on a folder without meshes"
  grep -q 'warning: no meshes to draw' "$work/empty.err" || fail "no warning about the missing meshes"
  grep -qx 'validation messages: 0' "$work/empty.out" || fail "validation messages without meshes"
fi

grep -E '^(device|total|files to GPU-ready|rendered|validation messages)' "$work/sample.out"
echo "PASS: engine-sample end to end ($asset_count assets)"
