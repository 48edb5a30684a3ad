#!/usr/bin/env bash
# Mesh values the format allows but a renderer can trip on. Positions far out (to 3e38): a cube
# moved out to 1e20 is drawn and framed in the authored layout (a float dot product and the
# projection's near x far overflowed, and the whole frame came out blank); one at 1e37, beyond what
# float clip coordinates hold, is not drawn, with a warning naming it, and the rest of the scene
# still is. Validation stays silent. An index not below the vertex count (readers do not check
# index values) fails the load naming the mesh, never reaching a draw.
#
#   run_mesh_values_test.sh <asset-baker> <engine-sample> <assets-dir> <work-dir>
#                           <screenshot-check>
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

# Scales the cube's positions and bounds in $work/baked by $1 and, with $2, sets its index $2 to
# its vertex count (the file stays valid: uncompressed, 60-byte vertices with the position first).
scale_cube() {
  rm -rf "$work/baked" && cp -r "$work/near" "$work/baked"
  python3 - "$work/baked" "$1" "${2:--1}" <<'PY' || fail "cannot edit the cube"
import json, struct, sys
folder, scale, bad_index = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
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
if bad_index >= 0:
    at = blob + 60 * meta["vertex_count"] + meta["index_size"] * bad_index
    data[at:at + meta["index_size"]] = meta["vertex_count"].to_bytes(meta["index_size"], "little")
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

scale_cube 1 4
"$sample" "$work/baked" --size 64x64 >/dev/null 2>"$work/sample.err" && fail "an index past the vertices was drawn"
grep -q "models/cube.mesh: check_mesh_indices: index 4 is 24, not below the mesh's 24 vertices" \
  "$work/sample.err" || fail "the index past the vertices was not named"
echo "PASS: far meshes drawn while float holds them, left out with a warning beyond; bad indices refused"
