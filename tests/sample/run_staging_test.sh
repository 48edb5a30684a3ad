#!/usr/bin/env bash
# The staging ring is sized from the manifest's raw_size, which readers do not check: a manifest
# that lies must not break the load. Here a 4096x4096 RGBA8 texture (89 MB with its mips, more
# than a staging slot) is listed with raw_size 0, and a material with raw_size 2^62. The texture
# gets a staging buffer of its own, the ring stays within the upload heap, and the sample loads
# everything with the validation layer silent.
#
#   run_staging_test.sh <asset-baker> <engine-sample> <assets-dir> <work-dir>
set -uo pipefail

if [[ $# -ne 4 ]]; then
  sed -n '2,8p' "$0" >&2
  exit 2
fi
baker=$1 sample=$2 assets=$3 work=$4

logs=("$work"/bake.log "$work"/staging.out "$work"/sample.err)
source "$(dirname "$0")/sample_test_common.sh"

cp -r "$assets" "$work/src" || fail "cannot copy the assets"
python3 - "$work/src/textures/large.png" <<'PY' || fail "cannot write the large texture"
import struct, sys, zlib
size = 4096
row = b"\0" + bytes((x * 7 + c * 50) % 256 for x in range(size) for c in range(4))
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)) +
       chunk(b"IDAT", zlib.compress(row * size, 1)) + chunk(b"IEND", b""))
open(sys.argv[1], "wb").write(png)
PY
bake_variant staging '{ "block_compression": false }'
python3 - "$work/baked/manifest.json" <<'PY' || fail "cannot edit the manifest"
import json, sys
manifest = json.load(open(sys.argv[1]))
edited = set()
for asset in manifest["assets"]:
    if asset["name"] == "textures/large.png":
        assert asset["raw_size"] > 64 << 20, asset
        asset["raw_size"] = 0
        edited.add("texture")
    elif asset["type"] == "MATL" and "material" not in edited:
        asset["raw_size"] = 2 ** 62
        edited.add("material")
assert edited == {"texture", "material"}, edited
json.dump(manifest, open(sys.argv[1], "w"), indent=1)
PY
render_baked staging --size 160x120
grep -q "textures/large.png" "$work/staging.out" || fail "the large texture was not loaded"
echo "PASS: a lying manifest's sizes load through a bounded staging ring"
