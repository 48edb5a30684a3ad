#!/usr/bin/env bash
# A grey metallic-roughness texture, which the baker stores as BC4 (grey data in R), renders as the
# same texture stored uncompressed: engine-sample samples BC4 with R in G and B too, where a glTF
# material reads roughness (G) and metalness (B). Read as plain BC4 (R, 0, 0) the sphere would
# lose both and turn into a smooth dielectric.
#
#   run_grey_data_test.sh <asset-baker> <engine-sample> <corpus-dir> <work-dir> <image-compare>
set -uo pipefail

if [[ $# -ne 5 ]]; then
  sed -n '2,7p' "$0" >&2
  exit 2
fi
baker=$1 sample=$2 corpus=$3 work=$4 compare=$5

logs=("$work"/bake.log "$work"/bc4.out "$work"/rgba.out "$work"/sample.err)
source "$(dirname "$0")/sample_test_common.sh"

# The corpus sphere with a metallic-roughness texture of white (rough metal: it reflects the sky,
# where a smooth dielectric shows a white diffuse ball).
mkdir -p "$work/src"
cp "$corpus/bevy/assets/models/sphere/sphere.bin" "$work/src/" || fail "corpus mesh missing"
python3 - "$corpus/bevy/assets/models/sphere/sphere.gltf" "$work/src" <<'PY' || fail "cannot write the scene"
import json, struct, sys, zlib
doc = json.load(open(sys.argv[1]))
doc["materials"] = [{"pbrMetallicRoughness": {"baseColorFactor": [0.9, 0.9, 0.9, 1],
                     "metallicRoughnessTexture": {"index": 0}}}]
doc["textures"] = [{"source": 0}]
doc["images"] = [{"uri": "mr.png"}]
for primitive in doc["meshes"][0]["primitives"]:
    primitive["material"] = 0
json.dump(doc, open(sys.argv[2] + "/sphere.gltf", "w"))
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
rows = b"".join(b"\0" + bytes([255, 255, 255]) * 8 for _ in range(8))
png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 8, 8, 8, 2, 0, 0, 0)) +
       chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
open(sys.argv[2] + "/mr.png", "wb").write(png)
PY

# Rendered from a bake with block compression (the texture becomes BC4) and from one without
# (RGBA8: every channel stored).
for variant in bc4 rgba; do
  compression=true
  [[ $variant == rgba ]] && compression=false
  bake_variant "$variant" "{ \"block_compression\": $compression }"
  render_baked "$variant" --size 160x160
done
grep -q "texture BC4_UNORM" "$work/bc4.info" || fail "the grey texture did not become BC4: $(cat "$work/bc4.info")"
grep -q "texture RGBA8_UNORM" "$work/rgba.info" || fail "the uncompressed bake is not RGBA8: $(cat "$work/rgba.info")"
# White is exact in BC4: the two renders match to rounding (a plain BC4 view differs by ~20 levels).
"$compare" "$work/bc4.png" "$work/rgba.png" --diff "$work/diff.png" --tolerance 2 ||
  fail "the BC4 render differs from the uncompressed one (see $work/bc4.png, $work/rgba.png, $work/diff.png)"
echo "PASS: the BC4 grey texture renders as the uncompressed one"
