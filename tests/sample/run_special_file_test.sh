#!/usr/bin/env bash
# A FIFO planted in a baked folder where the manifest lists an asset: engine-sample refuses it,
# naming it, instead of waiting forever for a writer, with and without --skip-mips (two read
# paths).
#
#   run_special_file_test.sh <asset-baker> <engine-sample> <assets-dir> <work-dir>
set -uo pipefail

if [[ $# -ne 4 ]]; then
  sed -n '2,6p' "$0" >&2
  exit 2
fi
baker=$1 sample=$2 assets=$3 work=$4

logs=("$work"/bake.log "$work"/sample.err)
source "$(dirname "$0")/sample_test_common.sh"

"$baker" "$assets" -o "$work/baked" >"$work/bake.log" 2>&1 || fail "asset-baker exited with $?"
for asset in models/cube.mesh textures/checker.tx; do
  rm "$work/baked/$asset" && mkfifo "$work/baked/$asset" || fail "cannot plant a FIFO"
  for args in "" "--skip-mips 1"; do
    timeout 60 "$sample" "$work/baked" --size 64x64 $args >/dev/null 2>"$work/sample.err"
    rc=$?
    [[ $rc != 124 ]] || fail "engine-sample $args hung on a FIFO at $asset"
    [[ $rc == 1 ]] || fail "engine-sample $args exited $rc on a FIFO at $asset, expected 1"
    grep -q "$asset: not a regular file" "$work/sample.err" || fail "the FIFO $asset was not named"
  done
  rm "$work/baked/$asset"
  "$baker" "$assets" -o "$work/baked" >"$work/bake.log" 2>&1 || fail "the rebake exited with $?"
done
echo "PASS: a FIFO in a baked folder is refused, named, without a hang"
