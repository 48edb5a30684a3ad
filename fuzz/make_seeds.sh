#!/usr/bin/env bash
# Builds the seed corpora of the four fuzz targets from real files, into <out-dir>/<target>/.
#
#   fuzz_asset         .tx/.mesh files baked from assets/ (and small corpus models) by this build's
#                      asset-baker under three settings (LZ4 + BCn; None + RGBA8 + 1 KiB chunks;
#                      LZ4-HC + meshlets + LODs + compact vertices)
#   fuzz_manifest      the manifest.json of each of those bakes
#   fuzz_image_import  small corpus images (PngSuite, libpng test PNGs incl. broken ones, JPEG, GIF),
#                      small assets/ textures, and tiny generated BMP/TGA/PNM/HDR/PSD files (stb_image
#                      formats the corpus has no example of)
#   fuzz_obj_import    small corpus and assets/ OBJ files, each followed by "\n%%MTL%%\n" and the
#                      .mtl its first mtllib names, when there is one
#
# Usage: fuzz/make_seeds.sh <build-dir> [<out-dir>]     (default <build-dir>/fuzz-seeds)
# Needs <build-dir>/asset-baker/asset-baker and python3. The corpus is $ASSETLIB_CORPUS_DIR, else
# ../shared/corpus beside the project.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
build=$(cd "$1" && pwd)
out=${2:-$build/fuzz-seeds}
corpus=${ASSETLIB_CORPUS_DIR:-$root/../shared/corpus}
baker=$build/asset-baker/asset-baker
[ -x "$baker" ] || { echo "make_seeds: $baker not built" >&2; exit 2; }
[ -d "$corpus" ] || { echo "make_seeds: corpus not found at $corpus" >&2; exit 2; }

max_seed=65536   # bytes; larger files only slow the fuzzer down (libFuzzer's -max_len follows the seeds)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fuzz-seeds.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
rm -rf "$out"
mkdir -p "$out"/{fuzz_asset,fuzz_manifest,fuzz_image_import,fuzz_obj_import}

# Copies $1 to $2/<its path with '/' turned into '_'>, relative to $3, when not larger than $4.
keep() {
  local file=$1 dir=$2 base=$3 limit=${4:-$max_seed}
  [ "$(stat -c %s "$file")" -le "$limit" ] || return 0
  local rel=${file#"$base"/}
  cp "$file" "$dir/${rel//\//_}"
}

# --- baked assets and manifests -------------------------------------------------------------------
mkdir -p "$tmp/src"
cp -r "$root/assets/textures" "$root/assets/models" "$tmp/src/"
mkdir -p "$tmp/src/corpus-models"
for f in "$corpus"/tinyobjloader/models/{cube,cornell_box,issue-138,smoothing-group-two-squares,catmark_torus_creases0}.{obj,mtl}; do
  [ -f "$f" ] && cp "$f" "$tmp/src/corpus-models/"
done
cat >"$tmp/a.json" <<'JSON'
{ "settings": { "max_size": 32 } }
JSON
cat >"$tmp/b.json" <<'JSON'
{ "settings": { "max_size": 16, "compression": "None", "chunk_size": 1024, "block_compression": false,
                "vertex_format": "P32N8C8V16", "optimize": false } }
JSON
cat >"$tmp/c.json" <<'JSON'
{ "settings": { "max_size": 64, "lz4_hc_level": 9, "chunk_size": 1024, "vertex_format": "PNCVT_OCT",
                "meshlets": true, "lod_count": 2 },
  "rules": [ { "match": "ui/**", "settings": { "mips": false } } ] }
JSON
for config in a b c; do
  # A setting this baker does not know only costs that seed set; the others still get made.
  if ! "$baker" "$tmp/src" -o "$tmp/out-$config" --config "$tmp/$config.json" -q -j1 >"$tmp/log-$config" 2>&1; then
    echo "make_seeds: bake with $config.json failed (seeds from it may be missing):" >&2
    tail -n 5 "$tmp/log-$config" >&2
  fi
  [ -d "$tmp/out-$config" ] || continue
  while IFS= read -r -d '' f; do
    rel=${f#"$tmp/out-$config"/}
    [ "$(stat -c %s "$f")" -le "$max_seed" ] && cp "$f" "$out/fuzz_asset/$config-${rel//\//_}"
  done < <(find "$tmp/out-$config" -type f \( -name '*.tx' -o -name '*.mesh' \) -print0)
  [ -f "$tmp/out-$config/manifest.json" ] && cp "$tmp/out-$config/manifest.json" "$out/fuzz_manifest/$config-manifest.json"
done

# --- images ----------------------------------------------------------------------------------------
while IFS= read -r -d '' f; do
  keep "$f" "$out/fuzz_image_import" "$corpus" 24576
done < <(find "$corpus/stb/tests/pngsuite" "$corpus/libpng/contrib/testpngs" "$corpus/obj2gltf/specs/data/box-complex-material" \
              "$corpus/bevy/assets/textures/fantasy_ui_borders" "$corpus/draco-testdata" \
              -type f \( -iname '*.png' -o -iname '*.jpg' -o -iname '*.jpeg' -o -iname '*.gif' \) -print0)
while IFS= read -r -d '' f; do
  keep "$f" "$out/fuzz_image_import" "$root/assets" 24576
done < <(find "$root/assets/textures" -type f -print0)

python3 - "$out/fuzz_image_import" <<'PY'
# Tiny images in the stb_image formats the corpus lacks, written byte by byte.
import struct, sys, os
out = sys.argv[1]
def save(name, data):
    with open(os.path.join(out, "gen-" + name), "wb") as f:
        f.write(data)
W, H = 5, 3
px = [((x * 50) & 255, (y * 80) & 255, ((x + y) * 30) & 255, 255 if x else 128) for y in range(H) for x in range(W)]

# BMP: 24-bit bottom-up, 32-bit with alpha, 8-bit palette, 4-bit palette, top-down (negative height).
def bmp(bits, top_down=False):
    palette = b""
    if bits <= 8:
        palette = b"".join(struct.pack("<BBBB", i * 40 & 255, i * 90 & 255, i * 10 & 255, 0) for i in range(1 << bits))
    rows = []
    for y in (range(H) if top_down else reversed(range(H))):
        if bits == 24:
            row = b"".join(struct.pack("<BBB", p[2], p[1], p[0]) for p in px[y * W:(y + 1) * W])
        elif bits == 32:
            row = b"".join(struct.pack("<BBBB", p[2], p[1], p[0], p[3]) for p in px[y * W:(y + 1) * W])
        elif bits == 8:
            row = bytes((x + y) % 256 for x in range(W))
        else:
            idx = [(x + y) % 16 for x in range(W)] + [0]
            row = bytes((idx[i] << 4) | idx[i + 1] for i in range(0, W, 2))
        row += b"\0" * ((-len(row)) % 4)
        rows.append(row)
    pixels = b"".join(rows)
    offset = 14 + 40 + len(palette)
    header = struct.pack("<2sIHHI", b"BM", offset + len(pixels), 0, 0, offset)
    info = struct.pack("<IiiHHIIiiII", 40, W, -H if top_down else H, 1, bits, 0, len(pixels), 2835, 2835,
                       (1 << bits) if bits <= 8 else 0, 0)
    return header + info + palette + pixels
save("rgb24.bmp", bmp(24)); save("rgba32.bmp", bmp(32)); save("pal8.bmp", bmp(8)); save("pal4.bmp", bmp(4))
save("topdown.bmp", bmp(24, True))

# TGA: uncompressed true colour, RLE true colour with alpha, grey, colour-mapped.
def tga(kind, bits, data, cmap=b"", cmap_len=0):
    header = struct.pack("<BBBHHBHHHHBB", 0, 1 if cmap_len else 0, kind, 0, cmap_len, 24 if cmap_len else 0,
                         0, 0, W, H, bits, 0x28 if bits == 32 else 0x20)
    return header + cmap + data
save("rgb.tga", tga(2, 24, b"".join(struct.pack("<BBB", p[2], p[1], p[0]) for p in px)))
rle = b""
for y in range(H):
    p = px[y * W]
    rle += bytes([0x80 | 1]) + struct.pack("<BBBB", p[2], p[1], p[0], p[3])         # run of 2
    rle += bytes([W - 3]) + b"".join(struct.pack("<BBBB", q[2], q[1], q[0], q[3]) for q in px[y * W + 2:(y + 1) * W])
save("rle32.tga", tga(10, 32, rle))
save("grey.tga", tga(3, 8, bytes(p[0] for p in px)))
save("cmap.tga", tga(1, 8, bytes(i % 4 for i in range(W * H)),
                     b"".join(struct.pack("<BBB", i * 60, 255 - i * 60, i * 20) for i in range(4)), 4))

# PNM: grey and colour, 8 and 16 bits, binary.
save("grey.pgm", b"P5\n%d %d\n255\n" % (W, H) + bytes(p[0] for p in px))
save("rgb.ppm", b"P6\n# comment\n%d %d\n255\n" % (W, H) + b"".join(bytes(p[:3]) for p in px))
save("rgb16.ppm", b"P6 %d %d 65535\n" % (W, H) + b"".join(struct.pack(">HHH", p[0] * 257, p[1] * 257, p[2] * 257) for p in px))

# Radiance HDR: flat scanlines (width < 8) and RLE scanlines (width 8..32767).
def rgbe(r, g, b):
    return bytes([r, g, b, 129])
save("flat.hdr", b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y %d +X %d\n" % (H, W) + b"".join(rgbe(*p[:3]) for p in px))
w8 = 12
body = b""
for y in range(2):
    body += bytes([2, 2, w8 >> 8, w8 & 255])
    for c in range(4):
        values = [(x * 20 + y * 7 + c * 30) & 255 if c < 3 else 128 for x in range(w8)]
        body += bytes([128 + 6, values[0]])            # a run of 6
        body += bytes([w8 - 6]) + bytes(values[6:])    # then literals
save("rle.hdr", b"#?RGBE\nFORMAT=32-bit_rle_rgbe\nEXPOSURE=1.0\n\n-Y 2 +X %d\n" % w8 + body)

# PSD: RGB raw and RGBA PackBits, 8 bits.
def psd(channels, compression):
    head = b"8BPS" + struct.pack(">H6xHIIHH", 1, channels, H, W, 8, 3) + struct.pack(">III", 0, 0, 0)
    planes = [bytes(p[c] for p in px) for c in range(channels)]
    if compression == 0:
        return head + struct.pack(">H", 0) + b"".join(planes)
    counts, data = b"", b""
    for plane in planes:
        for y in range(H):
            row = plane[y * W:(y + 1) * W]
            packed = bytes([W - 1]) + row          # one literal packet per row
            counts += struct.pack(">H", len(packed))
            data += packed
    return head + struct.pack(">H", 1) + counts + data
save("rgb_raw.psd", psd(3, 0)); save("rgba_rle.psd", psd(4, 1))
PY

# --- OBJ + MTL -------------------------------------------------------------------------------------
python3 - "$out/fuzz_obj_import" "$corpus" "$root/assets/models" <<'PY'
# Each small .obj, then the separator, then the .mtl its first mtllib line names (if it exists).
import os, sys
out, corpus, assets = sys.argv[1], sys.argv[2], sys.argv[3]
SEP = b"\n%%MTL%%\n"
roots = [os.path.join(corpus, d) for d in ("tinyobjloader/models", "obj2gltf/specs/data", "draco-testdata")] + [assets]
for base in roots:
    for folder, _, files in os.walk(base):
        for name in sorted(files):
            if not name.lower().endswith(".obj"):
                continue
            path = os.path.join(folder, name)
            data = open(path, "rb").read()
            if len(data) > 16384:
                continue
            mtl = b""
            for line in data.splitlines():
                if line.strip().startswith(b"mtllib"):
                    ref = line.strip()[6:].strip().decode("utf-8", "replace").replace("\\", "/")
                    candidate = os.path.normpath(os.path.join(folder, ref))
                    if os.path.isfile(candidate):
                        mtl = open(candidate, "rb").read()
                    break
            rel = os.path.relpath(path, os.path.dirname(base)).replace("/", "_")
            with open(os.path.join(out, rel), "wb") as f:
                f.write(data + (SEP + mtl if mtl else b""))
PY

for t in fuzz_asset fuzz_manifest fuzz_image_import fuzz_obj_import; do
  echo "seeds $t: $(find "$out/$t" -type f | wc -l) files, $(du -sk "$out/$t" | cut -f1) KiB"
done
