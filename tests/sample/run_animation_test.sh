#!/usr/bin/env bash
# engine-sample skins on the GPU and poses a prefab with a clip: the corpus' Fox.glb (a skinned
# mesh, 24 joints, three clips) is baked by the real asset-baker and rendered with
# `--animate <clip> --time <s>` at two times on lavapipe with validation on. Each frame must match
# its committed reference (animation_fox_<n>.png), and the two must differ substantially: the fox
# moves. The same frame must come out of the float vertex format (PNCVT_F32) as out of the compact
# default, out of a pack as out of the folder, and with the clip named by its logical name. Then
# CesiumMan, whose Z-up skinned mesh hangs under a node that turns it Y-up, must match
# animation_cesium_man.png: standing, framed, its node's matrix not applied on top of its joints.
#
#   run_animation_test.sh render <asset-baker> <engine-sample> <image-compare> <screenshot-check>
#                         <corpus-dir> <work-dir> <reference-dir>
#   run_animation_test.sh errors <the same arguments>
#
# `errors` checks the command line instead: an unknown clip fails (exit 1) with a message listing
# the clips there are, and --time without --animate is a usage error (exit 2).
# UPDATE_REFERENCES=1 writes the frames as the new references instead of comparing (look at them
# before committing). Fox, from the bevy repository (../shared/corpus/SOURCES.md, bevy's
# CREDITS.md): low poly fox by PixelMannen (CC0 1.0), rigging and animation by @tomkranis
# (CC-BY 4.0). CesiumMan, from google/draco's test data: CC-BY 4.0 Cesium.
set -uo pipefail

if [[ $# -ne 8 || ($1 != render && $1 != errors) ]]; then
  sed -n '2,20p' "$0" >&2
  exit 2
fi
mode=$1 baker=$2 sample=$3 compare=$4 checker=$5 corpus=$6 work=$7 references=$8

logs=("$work"/bake.log "$work"/sample.out "$work"/sample.err)
source "$(dirname "$0")/sample_test_common.sh"

# The clip and the two times: mid-stride and the opposite stride of the run cycle (1.16 s long).
clip=Run
times=(0.15 0.55)
size=256x256

# Bakes the corpus file $3 into $work/$1 with the bake settings $2 (a JSON object).
bake() {
  mkdir -p "$work/src-$1"
  cp "$corpus/$3" "$work/src-$1/" || fail "corpus file $3 missing"
  echo "{ \"settings\": $2 }" >"$work/$1.json"
  "$baker" "$work/src-$1" -o "$work/$1" --config "$work/$1.json" >"$work/bake.log" 2>&1 ||
    fail "asset-baker exited with $? baking $1"
  for type in PRFB MESH SKEL CLIP; do
    grep -q "\"type\": \"$type\"" "$work/$1/manifest.json" || fail "the $1 bake holds no $type"
  done
}
fox=bevy/assets/models/animated/Fox.glb

# Compares $work/$1.png with the committed reference $2 (or, with UPDATE_REFERENCES=1, replaces it).
check_reference() {
  if [[ ${UPDATE_REFERENCES:-} == 1 ]]; then
    cp "$work/$1.png" "$references/$2"
    echo "UPDATED: $references/$2 (look at it before committing)"
    return
  fi
  "$compare" "$work/$1.png" "$references/$2" --diff "$work/$1-diff.png" ||
    fail "$1 differs from its reference $2 (see $work/$1.png and $1-diff.png)"
}

# Renders with the options $2... into $work/$1.tx, .png and .out; validation must stay silent and
# the skinned mesh must be drawn posed.
render() {
  local name=$1
  shift
  "$sample" "$@" --validate --size "$size" --screenshot "$work/$name.tx" >"$work/$name.out" \
    2>"$work/sample.err" || fail "engine-sample $* exited with $?"
  grep -qx 'validation messages: 0' "$work/$name.out" || fail "validation messages with $*"
  grep -q '^animation: .*; 1 skinned mesh instance(s), 1 joint palette(s)$' "$work/$name.out" ||
    fail "engine-sample $* did not report one skinned mesh instance"
  "$checker" "$work/$name.tx" >/dev/null || fail "the screenshot of $* shows no rendered scene"
  "$baker" export "$work/$name.tx" -o "$work/$name.png" >/dev/null || fail "export failed"
}

if [[ $mode == errors ]]; then
  bake baked '{}' "$fox"
  "$sample" "$work/baked" --animate nosuchclip --time 1 >"$work/sample.out" 2>"$work/sample.err"
  status=$?
  [[ $status == 1 ]] || fail "--animate nosuchclip exited with $status, not 1"
  grep -q "error: --animate: no clip named 'nosuchclip'" "$work/sample.err" ||
    fail "--animate nosuchclip did not say which clip it could not find"
  for name in Survey Walk Run; do
    grep -q "'$name'" "$work/sample.err" || fail "the error does not list the clip '$name'"
  done
  cat "$work/sample.err"
  "$sample" "$work/baked" --time 1 >"$work/sample.out" 2>"$work/sample.err"
  status=$?
  [[ $status == 2 ]] || fail "--time without --animate exited with $status, not 2"
  grep -q -- '--time needs --animate' "$work/sample.err" || fail "no usage message for --time"
  echo "PASS: unknown clips and a lone --time are refused"
  exit 0
fi

bake baked '{}' "$fox"
grep -q "mesh PNCVT_OCT," <("$baker" info "$work/baked") || fail "the default bake is not PNCVT_OCT"
for i in 0 1; do
  render "t$i" "$work/baked" --animate "$clip" --time "${times[$i]}"
  grep -E '^(camera|animation|rendered)' "$work/t$i.out"
  check_reference "t$i" "animation_fox_$((i + 1)).png"
done

# A Z-up skinned mesh under its root node's Z-up-to-Y-up matrix, its one clip unnamed.
bake cesium '{}' draco-testdata/CesiumMan/glTF_Binary/CesiumMan.glb
render cesium "$work/cesium" --animate 'CesiumMan.glb#clip/0' --time 0.5
grep -E '^animation' "$work/cesium.out"
check_reference cesium animation_cesium_man.png
[[ ${UPDATE_REFERENCES:-} == 1 ]] && exit 0

# It moves: more than 2% of the texels differ between the two times (the legs swing, the body
# bobs; the camera is the same, framing the rest pose's bounds).
if "$compare" "$work/t0.png" "$work/t1.png" --max-percent 2 >"$work/moves.txt"; then
  cat "$work/moves.txt"
  fail "the frames at ${times[0]} s and ${times[1]} s look alike: the clip did not move the fox"
fi
cat "$work/moves.txt"

# The clip by its logical name (the line names it: "animation: 'Run' (Fox.glb#clip/2) ..."), which
# the manifest lists: the same frame.
logical=$(sed -n "s/^animation: '$clip' (\([^)]*\)) .*/\1/p" "$work/t0.out")
grep -q "\"name\": \"$logical\"" "$work/baked/manifest.json" ||
  fail "the animation line names no clip of the manifest: '$logical'"
render logical "$work/baked" --animate "$logical" --time "${times[0]}"
cmp -s "$work/logical.tx" "$work/t0.tx" || fail "--animate $logical renders unlike --animate $clip"

# Every vertex format the baker writes is skinned alike: floats against the compact default.
bake f32 '{ "vertex_format": "PNCVT_F32" }' "$fox"
grep -q "mesh PNCVT_F32," <("$baker" info "$work/f32") || fail "the f32 bake is not PNCVT_F32"
render f32 "$work/f32" --animate "$clip" --time "${times[0]}"
"$compare" "$work/f32.png" "$work/t0.png" --diff "$work/diff-f32.png" ||
  fail "the PNCVT_F32 fox differs from the PNCVT_OCT one (see $work/diff-f32.png)"

# A pack renders what its folder renders.
"$baker" pack "$work/baked" -o "$work/fox.pack" >"$work/bake.log" 2>&1 || fail "pack failed"
render pack --pack "$work/fox.pack" --animate "$clip" --time "${times[0]}"
cmp -s "$work/pack.tx" "$work/t0.tx" || fail "the fox from the pack differs from the folder's"

# Without --animate the fox stands in its rest pose, through the same skinned path.
"$sample" "$work/baked" --validate --size "$size" >"$work/rest.out" 2>"$work/sample.err" ||
  fail "engine-sample without --animate exited with $?"
grep -qx 'animation: rest pose; 1 skinned mesh instance(s), 1 joint palette(s)' "$work/rest.out" ||
  fail "without --animate the skinned mesh was not drawn in its rest pose"
grep -qx 'validation messages: 0' "$work/rest.out" || fail "validation messages at rest"

# The fox's node drawn three times (EXT_mesh_gpu_instancing): one pose, so one joint palette for
# the three (a palette per instance made a 20000-instance node of a big skeleton take gigabytes).
python3 - "$work/baked" <<'PY' || fail "cannot instance the fox's node"
import json, struct, sys
folder = sys.argv[1]
manifest = json.load(open(folder + "/manifest.json"))
entry = next(a for a in manifest["assets"] if a["type"] == "PRFB")
data = open(folder + "/" + entry["path"], "rb").read()
kind, version, json_length, blob_length = struct.unpack("<4sIII", data[:16])
meta = json.loads(data[16:16 + json_length].decode())
node = next(n for n in meta["nodes"] if n["skin"])
node["instances"] = [[x, 0, 0, 0, 0, 0, 1, 1, 1, 1] for x in (0, 100, 200)]
text = json.dumps(meta).encode()
text += b" " * (-(16 + len(text)) % 16)
out = struct.pack("<4sIII", kind, version, len(text), blob_length) + text + data[16 + json_length:]
open(folder + "/" + entry["path"], "wb").write(out)
entry["file_size"] = len(out)
json.dump(manifest, open(folder + "/manifest.json", "w"), indent=1)
PY
"$sample" "$work/baked" --validate --size "$size" >"$work/instanced.out" 2>"$work/sample.err" ||
  fail "engine-sample on the instanced fox exited with $?"
grep -qx 'animation: rest pose; 3 skinned mesh instance(s), 1 joint palette(s)' "$work/instanced.out" ||
  fail "the instances of one skinned node did not share one joint palette"
grep -qx 'validation messages: 0' "$work/instanced.out" || fail "validation messages, instanced"
echo "PASS: Fox is skinned and moves ($clip at ${times[*]} s)"
