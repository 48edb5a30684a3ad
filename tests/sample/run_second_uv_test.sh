#!/usr/bin/env bash
# A material sampling the second UV set on a mesh baked in a format without one (P32N8C8V16, where
# the baker warns that the first set is used) renders as the same mesh baked with both sets
# (PNCVVT_F32): engine-sample reads the first set where a format has no second (docs/format.md).
# The scene's TEXCOORD_1 is its TEXCOORD_0, so both bakes must show the same checker. Read from the
# stride-0 zero buffer instead, every texel would sample UV (0, 0): one flat colour.
#
#   run_second_uv_test.sh <asset-baker> <engine-sample> <corpus-dir> <work-dir> <image-compare>
set -uo pipefail

if [[ $# -ne 5 ]]; then
  sed -n '2,8p' "$0" >&2
  exit 2
fi
baker=$1 sample=$2 corpus=$3 work=$4 compare=$5

logs=("$work"/bake.log "$work"/sample.err)
source "$(dirname "$0")/sample_test_common.sh"

mkdir -p "$work/src"
cp "$corpus/bevy/assets/models/sphere/sphere.bin" "$work/src/" || fail "corpus mesh missing"
python3 - "$corpus/bevy/assets/models/sphere/sphere.gltf" "$work/src" <<'PY' || fail "cannot write the scene"
import json, struct, sys, zlib
doc = json.load(open(sys.argv[1]))
doc["materials"] = [{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0, "texCoord": 1},
                                              "metallicFactor": 0}}]
doc["textures"] = [{"source": 0}]
doc["images"] = [{"uri": "checker.png"}]
for primitive in doc["meshes"][0]["primitives"]:
    primitive["material"] = 0
    primitive["attributes"]["TEXCOORD_1"] = primitive["attributes"]["TEXCOORD_0"]
json.dump(doc, open(sys.argv[2] + "/sphere.gltf", "w"))
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
size = 64
rows = b"".join(b"\0" + b"".join(bytes([230, 40, 40] if (x // 8 + y // 8) % 2 else [40, 40, 230])
                                 for x in range(size)) for y in range(size))
png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)) +
       chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
open(sys.argv[2] + "/checker.png", "wb").write(png)
PY

for format in PNCVT_F32 P32N8C8V16; do
  bake_variant "$format" "{ \"vertex_format\": \"$format\" }"
  render_baked "$format" --size 160x160
done
grep -q "mesh PNCVVT_F32," "$work/PNCVT_F32.info" ||
  fail "the mesh sampling TEXCOORD_1 did not get the two-UV format: $(cat "$work/PNCVT_F32.info")"
grep -q "mesh P32N8C8V16," "$work/P32N8C8V16.info" || fail "the compact bake is not P32N8C8V16"
grep -q "samples the second UV set" "$work/bake.log" || fail "no warning that the second set is dropped"
# Half-float UVs and 8-bit normals may move a checker edge by a texel (none did on lavapipe); UV
# (0, 0) everywhere turns 19 % of the texels into another colour.
"$compare" "$work/P32N8C8V16.png" "$work/PNCVT_F32.png" --diff "$work/diff.png" --tolerance 8 \
  --max-percent 0.5 ||
  fail "the P32N8C8V16 render differs from the PNCVVT_F32 one (see $work/P32N8C8V16.png, $work/PNCVT_F32.png, $work/diff.png)"
echo "PASS: a second-UV material on a one-UV format samples the first set"
