#!/usr/bin/env bash
# engine-sample draws the compact vertex format (octahedral normals, half UVs) as it draws floats:
# curved corpus meshes, whose normals point every way, and a normal-mapped model (whose tangents
# are octahedral too) are baked once as PNCVT_F32 and once as PNCVT_OCT, and the two renders must
# match within the image comparison's tolerance. A shader that read the octahedral (x, y) as a
# plain normal lights most of the sphere wrongly.
#
#   run_vertex_format_test.sh <asset-baker> <engine-sample> <corpus-dir> <work-dir> <image-compare>
#                             <screenshot-check>
set -uo pipefail

if [[ $# -ne 6 ]]; then
  sed -n '2,8p' "$0" >&2
  exit 2
fi
baker=$1 sample=$2 corpus=$3 work=$4 compare=$5 checker=$6

logs=("$work"/bake.log "$work"/sample.out "$work"/sample.err)
source "$(dirname "$0")/sample_test_common.sh"

mkdir -p "$work/src"
cp -r "$corpus/bevy/assets/models/sphere/sphere.gltf" "$corpus/bevy/assets/models/sphere/sphere.bin" \
  "$corpus/bevy/assets/models/torus/torus.gltf" \
  "$corpus/bevy/assets/models/FlightHelmet" \
  "$work/src/" || fail "corpus meshes missing"

for format in PNCVT_F32 PNCVT_OCT; do
  printf '{ "settings": { "vertex_format": "%s" } }\n' "$format" >"$work/$format.json"
  "$baker" "$work/src" -o "$work/$format" --config "$work/$format.json" >"$work/bake.log" 2>&1 ||
    fail "asset-baker exited with $? baking $format"
  "$baker" info "$work/$format" >"$work/info.txt" || fail "asset-baker info failed"
  grep -q "mesh $format," "$work/info.txt" || fail "the meshes were not baked as $format"
  "$sample" "$work/$format" --validate --screenshot "$work/$format.tx" >"$work/sample.out" \
    2>"$work/sample.err" || fail "engine-sample exited with $? on $format"
  grep -qx 'validation messages: 0' "$work/sample.out" || fail "validation messages on $format"
  "$checker" "$work/$format.tx" || fail "the $format screenshot does not show a rendered scene"
  "$baker" export "$work/$format.tx" -o "$work/$format.png" >/dev/null || fail "export failed"
done
"$compare" "$work/PNCVT_OCT.png" "$work/PNCVT_F32.png" --diff "$work/diff.png" ||
  fail "the PNCVT_OCT render differs from the PNCVT_F32 one (see $work/diff.png)"
# Fine shading: a tangent decoded wrongly turns the normal maps' detail (0.16% of texels off by
# more than 8 when the octahedral tangent is read as a plain vector; quantisation alone: 0.002%).
"$compare" "$work/PNCVT_OCT.png" "$work/PNCVT_F32.png" --tolerance 8 --max-percent 0.05 ||
  fail "the PNCVT_OCT render's shading detail differs from the PNCVT_F32 one"
echo "PASS: PNCVT_OCT renders as PNCVT_F32"
