#!/usr/bin/env bash
# engine-sample chooses levels of detail by projected size: a mesh baked with LODs and drawn small
# enough uses a coarser level (fewer triangles drawn, reported), `--lod full` draws every triangle,
# and the coarse picture still looks like the full one.
#
#   run_lod_test.sh <asset-baker> <engine-sample> <corpus-dir> <work-dir> <image-compare>
set -uo pipefail

if [[ $# -ne 5 ]]; then
  sed -n '2,7p' "$0" >&2
  exit 2
fi
baker=$1 sample=$2 corpus=$3 work=$4 compare=$5

logs=("$work"/bake.log "$work"/auto.out "$work"/sample.err)
source "$(dirname "$0")/sample_test_common.sh"

bake_corpus_sphere '{ "lod_count": 4 }' ' [1-9] LODs,'

# A 128x128 target: the sphere covers a few dozen pixels, so a coarse level is within one pixel.
for mode in auto full; do
  render_baked "$mode" --size 128x128 --lod "$mode"
done
triangles() { sed -nE 's/^rendered .* draws, ([0-9]+) triangles per frame \(([0-9]+) fewer.*/\1 \2/p' "$1"; }
read -r auto_drawn auto_saved <<<"$(triangles "$work/auto.out")"
read -r full_drawn full_saved <<<"$(triangles "$work/full.out")"
[[ -n $auto_drawn && -n $full_drawn ]] || fail "no triangle counts in the output"
(( full_saved == 0 )) || fail "--lod full still reports $full_saved triangles saved"
(( auto_saved > 0 && auto_drawn + auto_saved == full_drawn )) ||
  fail "--lod auto drew $auto_drawn (saved $auto_saved) of $full_drawn triangles"
(( auto_drawn * 2 <= full_drawn )) || fail "--lod auto drew $auto_drawn of $full_drawn triangles"
"$compare" "$work/auto.png" "$work/full.png" --diff "$work/diff.png" ||
  fail "the LOD render does not look like the full one (see $work/diff.png)"
# Large on screen, the full detail is needed: no coarser level is within a pixel.
"$sample" "$work/baked" --validate --size 1024x1024 >"$work/near.out" 2>"$work/sample.err" ||
  fail "engine-sample exited with $? on the large render"
read -r near_drawn near_saved <<<"$(triangles "$work/near.out")"
(( near_saved == 0 && near_drawn == full_drawn )) ||
  fail "a sphere filling 1024x1024 pixels drew $near_drawn of $full_drawn triangles"
echo "PASS: LODs by projected size: $auto_drawn of $full_drawn triangles drawn"
