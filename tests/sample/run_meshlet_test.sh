#!/usr/bin/env bash
# engine-sample culls meshlets on the CPU: a sphere baked with meshlets is drawn meshlet by meshlet,
# those facing away are left out (fewer triangles drawn, reported), `--meshlets off` draws every
# triangle, and both pictures are the same.
#
#   run_meshlet_test.sh <asset-baker> <engine-sample> <corpus-dir> <work-dir> <image-compare>
set -uo pipefail

if [[ $# -ne 5 ]]; then
  sed -n '2,7p' "$0" >&2
  exit 2
fi
baker=$1 sample=$2 corpus=$3 work=$4 compare=$5

logs=("$work"/bake.log "$work"/cull.out "$work"/sample.err)
source "$(dirname "$0")/sample_test_common.sh"

bake_corpus_sphere '{ "meshlets": true }' ', [1-9][0-9]* meshlets,'

for mode in cull off; do
  render_baked "$mode" --size 256x256 --meshlets "$mode"
done
counts() { sed -nE 's/^rendered .* draws, ([0-9]+) triangles per frame \(.*, ([0-9]+) culled by meshlet.*/\1 \2/p' "$1"; }
read -r cull_drawn cull_culled <<<"$(counts "$work/cull.out")"
read -r off_drawn off_culled <<<"$(counts "$work/off.out")"
[[ -n $cull_drawn && -n $off_drawn ]] || fail "no triangle counts in the output"
(( off_culled == 0 )) || fail "--meshlets off still reports $off_culled triangles culled"
(( cull_culled > 0 && cull_drawn + cull_culled == off_drawn )) ||
  fail "--meshlets cull drew $cull_drawn (culled $cull_culled) of $off_drawn triangles"
"$compare" "$work/cull.png" "$work/off.png" --diff "$work/diff.png" ||
  fail "the culled render does not look like the full one (see $work/diff.png)"
echo "PASS: meshlet culling: $cull_drawn of $off_drawn triangles drawn"
