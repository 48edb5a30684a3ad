#!/usr/bin/env bash
# engine-sample --window under a virtual X server: bake assets/, open the window on Xvfb, present
# 30 frames through the swapchain with validation on, and require a clean exit. Then hot reload
# with frames in flight: open it again with --reload-wait, rebake a changed texture, and require
# that just that texture is reloaded, still without validation messages.
#
#   run_window_test.sh <asset-baker> <engine-sample> <source-assets-dir> <work-dir> <xvfb-run>
#
# Registered only when engine-sample was built with GLFW and xvfb-run exists. SAMPLE_DEVICE, if
# set, is passed as --device (without a GPU the Vulkan loader finds lavapipe by itself).
set -uo pipefail

if [[ $# -ne 5 ]]; then
  sed -n '2,8p' "$0" >&2
  exit 2
fi
baker=$1 sample=$2 source_dir=$3 work=$4 xvfb_run=$5
frames=30

logs=("$work"/bake.log "$work"/window.out "$work"/window.err "$work"/reload.out "$work"/reload.err)
source "$(dirname "$0")/sample_test_common.sh"
# A copy of the sources: the hot reload run below edits one.
cp -r "$source_dir" "$work/src" || fail "cannot copy $source_dir"
"$baker" "$work/src" -o "$work/baked" >"$work/bake.log" 2>&1 || fail "asset-baker exited with $?"
asset_count=$(grep -cE '"type": "(TEXI|MESH|MATL|PRFB)"' "$work/baked/manifest.json")

device_args=()
[[ -n ${SAMPLE_DEVICE:-} ]] && device_args=(--device "$SAMPLE_DEVICE")
# -a: a free display number, so parallel runs do not collide. The screen is spelled out because
# older xvfb-run defaults to 8-bit colour, which Vulkan surfaces do not support.
"$xvfb_run" -a -s "-screen 0 1280x1024x24" \
  "$sample" "$work/baked" --window --frames "$frames" --validate --json "$work/window.json" \
  "${device_args[@]}" >"$work/window.out" 2>"$work/window.err"
status=$?
(( status == 0 )) || fail "engine-sample --window exited with $status"
grep -qx 'validation messages: 0' "$work/window.out" || fail "validation messages were reported"
grep -q "^total ($asset_count assets)" "$work/window.out" ||
  fail "the load table does not list all $asset_count assets of the manifest"
grep -q "^rendered $frames frame(s) at [0-9]*x[0-9]*: [1-9][0-9]* draws" "$work/window.out" ||
  fail "the window did not present $frames frames of the scene"
grep -q '"validation_messages": 0' "$work/window.json" || fail "window.json lacks the validation count"

# Hot reload: the window stays open until a reload (--reload-wait), then presents 5 more frames.
"$xvfb_run" -a -s "-screen 0 1280x1024x24" \
  "$sample" "$work/baked" --window --frames 5 --reload-wait 60 --validate "${device_args[@]}" \
  >"$work/reload.out" 2>"$work/reload.err" &
window_pid=$!
trap '[[ -n $window_pid ]] && kill "$window_pid" 2>/dev/null' EXIT
wait_for_line "$work/reload.out" '^hot reload: waiting' "the window's scene" "$window_pid"
cp "$work/src/textures/checker.png" "$work/src/textures/bricks.png"
"$baker" "$work/src" -o "$work/baked" >>"$work/bake.log" 2>&1 || fail "the rebake exited with $?"
wait "$window_pid"
status=$?
window_pid=
(( status == 0 )) || fail "engine-sample --window --reload-wait exited with $status"
grep -qx 'reloaded textures/bricks.png' "$work/reload.out" ||
  fail "the window did not print 'reloaded textures/bricks.png'"
grep -q '^hot reload: 1 reloaded, 0 removed, 0 failed' "$work/reload.out" ||
  fail "the window reloaded more (or less) than the changed texture"
grep -qx 'validation messages: 0' "$work/reload.out" || fail "validation messages with hot reload"

grep -E '^(device|total|rendered|validation messages)' "$work/window.out"
grep -E '^(reloaded|hot reload)' "$work/reload.out"
echo "PASS: engine-sample --window on Xvfb ($frames frames, $asset_count assets; hot reload)"
