#!/usr/bin/env bash
# engine-sample renders a real scene as it should: a corpus glTF (or any source folder) is baked,
# drawn with its prefab's node transforms and PBR materials on lavapipe with validation on, and
# the screenshot must match the committed reference within the image comparison's tolerance.
#
#   run_scene_test.sh <asset-baker> <engine-sample> <image-compare> <screenshot-check> <work-dir>
#                     <reference.png> <source>... [-- <engine-sample options>...]
#
# Each <source> (a file, or a folder copied with its contents) goes into one source folder.
# SCENE_TEST_NORMAL_MAPS=1: also render with every normal map left out of the manifest (the
# sample then uses its flat stand-in) and require a visibly different picture, so the normal maps
# are proven to light the surface detail.
# UPDATE_REFERENCES=1 writes the render as the new reference instead of comparing (look at it).
set -uo pipefail

if [[ $# -lt 7 ]]; then
  sed -n '2,14p' "$0" >&2
  exit 2
fi
baker=$1 sample=$2 compare=$3 checker=$4 work=$5 reference=$6
shift 6
sources=()
while [[ $# -gt 0 && $1 != -- ]]; do
  sources+=("$1")
  shift
done
[[ ${1:-} == -- ]] && shift
sample_args=("$@")

logs=("$work"/bake.log "$work"/sample.out "$work"/sample.err)
source "$(dirname "$0")/sample_test_common.sh"

mkdir -p "$work/src"
cp -r "${sources[@]}" "$work/src/" || fail "cannot copy the sources (is the corpus there?)"
"$baker" "$work/src" -o "$work/baked" >"$work/bake.log" 2>&1 || fail "asset-baker exited with $?"
grep -q '"type": "PRFB"' "$work/baked/manifest.json" || fail "the bake holds no prefab"

# Renders the baked folder $1 into $2.png; the validation layer must stay silent.
render() {
  "$sample" "$1" --validate --size 480x360 --screenshot "$2.tx" "${sample_args[@]}" \
    >"$work/sample.out" 2>"$work/sample.err" || fail "engine-sample exited with $? on $1"
  grep -qx 'validation messages: 0' "$work/sample.out" || fail "validation messages were reported"
  "$checker" "$2.tx" || fail "the screenshot of $1 does not show a rendered scene"
  "$baker" export "$2.tx" -o "$2.png" >/dev/null || fail "asset-baker export failed"
}

render "$work/baked" "$work/shot"
grep -E '^(camera|rendered)' "$work/sample.out"
if [[ ${UPDATE_REFERENCES:-} == 1 ]]; then
  cp "$work/shot.png" "$reference"
  echo "UPDATED: $reference (look at it before committing)"
  exit 0
fi
"$compare" "$work/shot.png" "$reference" --diff "$work/diff.png" ||
  fail "the render differs from $reference (see $work/shot.png and $work/diff.png)"

if [[ ${SCENE_TEST_NORMAL_MAPS:-} == 1 ]]; then
  # The same folder, its manifest without the normal maps.
  cp -r "$work/baked" "$work/flat"
  python3 - "$work/flat/manifest.json" <<'PY' || fail "cannot edit the manifest"
import json, sys
path = sys.argv[1]
manifest = json.load(open(path))
before = len(manifest["assets"])
# glTF images in a normal slot are named "#normal"; loose files by their name ("_Normal.png").
manifest["assets"] = [a for a in manifest["assets"]
                      if a["type"] != "TEXI" or "normal" not in a["name"].lower()]
assert len(manifest["assets"]) < before, "no normal maps in the bake"
json.dump(manifest, open(path, "w"), indent=1)
PY
  render "$work/flat" "$work/flat"
  grep -q "normal texture .* is not in the baked folder" "$work/sample.err" ||
    fail "the sample did not warn about the normal maps left out"
  # Normal maps change shading in fine detail: count texels off by more than 8 of 255.
  if "$compare" "$work/flat.png" "$work/shot.png" --tolerance 8 >"$work/flat-compare.txt"; then
    fail "the render without normal maps looks like the one with them: they light nothing"
  fi
  cat "$work/flat-compare.txt"
fi
echo "PASS: $(basename "$reference" .png) renders as its reference"
