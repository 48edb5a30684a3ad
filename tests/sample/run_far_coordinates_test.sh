#!/usr/bin/env bash
# Meshes far out (the format allows positions to 3e38): a cube moved out to 1e20 is drawn and
# framed in the authored layout (a float dot product and the projection's near x far overflowed,
# and the whole frame came out blank); one at 1e37, beyond what float clip coordinates hold, is
# not drawn, with a warning naming it, and the rest of the scene still is. Validation stays silent.
#
#   run_far_coordinates_test.sh <asset-baker> <engine-sample> <assets-dir> <work-dir>
#                               <screenshot-check>
set -uo pipefail

if [[ $# -ne 5 ]]; then
  sed -n '2,8p' "$0" >&2
  exit 2
fi
baker=$1 sample=$2 assets=$3 work=$4 checker=$5

logs=("$work"/bake.log "$work"/sample.err)
source "$(dirname "$0")/sample_test_common.sh"

cp -r "$assets" "$work/src" || fail "cannot copy the assets"
bake_variant far '{ "compression": "None", "vertex_format": "PNCVT_F32" }'
cp -r "$work/baked" "$work/near"

# Scales the cube's positions and bounds in $work/baked by $1 (the file stays valid: uncompressed,
# 60-byte vertices with the position first).
scale_cube() {
  rm -rf "$work/baked" && cp -r "$work/near" "$work/baked"
  python3 - "$work/baked" "$1" <<'PY' || fail "cannot scale the cube"
import json, struct, sys
folder, scale = sys.argv[1], float(sys.argv[2])
manifest = json.load(open(folder + "/manifest.json"))
entry = next(a for a in manifest["assets"] if a["name"] == "models/cube.obj")
path = folder + "/" + entry["path"]
data = bytearray(open(path, "rb").read())
kind, version, json_length, blob_length = struct.unpack("<4sIII", data[:16])
meta = json.loads(data[16:16 + json_length].decode())
assert meta["vertex_format"] == "PNCVT_F32" and meta["compression"] == "None"
blob = 16 + json_length
for v in range(meta["vertex_count"]):
    at = blob + 60 * v
    data[at:at + 12] = struct.pack("<3f", *(c * scale for c in struct.unpack("<3f", data[at:at + 12])))
def scale_bounds(b):
    b["origin"] = [c * scale for c in b["origin"]]
    b["extents"] = [c * scale for c in b["extents"]]
    b["radius"] *= scale
scale_bounds(meta["bounds"])
for sub in meta["submeshes"]:
    scale_bounds(sub["bounds"])
text = json.dumps(meta).encode()
text += b" " * (-(16 + len(text)) % 16)
out = struct.pack("<4sIII", kind, version, len(text), blob_length) + text + bytes(data[blob:])
open(path, "wb").write(out)
entry["file_size"] = len(out)
json.dump(manifest, open(folder + "/manifest.json", "w"), indent=1)
PY
}

scale_cube 1e20
render_baked far --layout authored --size 160x120
"$checker" "$work/far.tx" --min-coverage 5 >/dev/null || fail "the cube at 1e20 was not drawn and framed"
grep -q "not drawn" "$work/sample.err" && fail "the cube at 1e20 was left out"

scale_cube 1e37
render_baked beyond --layout authored --size 160x120
grep -q "warning: models/cube.obj: reaches beyond 1e+30 in the scene, too far out for float clip coordinates; not drawn" \
  "$work/sample.err" || fail "the cube at 1e37 was not named as left out"
"$checker" "$work/beyond.tx" >/dev/null || fail "the rest of the scene was not drawn beside a cube at 1e37"
echo "PASS: far meshes are drawn while float holds them, left out with a warning beyond"
