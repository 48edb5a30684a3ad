#!/usr/bin/env bash
# Builds the seed corpora of the fuzz targets from real files, into <out-dir>/<target>/.
#
#   fuzz_asset         the assets baked from assets/ (and small corpus models, a skinned and
#                      animated one among them) by this build's asset-baker under three settings (LZ4 + BCn; None + RGBA8 + 1 KiB chunks;
#                      LZ4-HC + meshlets + LODs + compact vertices)
#   fuzz_manifest      the manifest.json of each of those bakes
#   fuzz_image_import  small corpus images (PngSuite, libpng test PNGs incl. broken ones, JPEG, GIF),
#                      small assets/ textures, and tiny generated BMP/TGA/PNM/HDR/PSD files (stb_image
#                      formats the corpus has no example of)
#   fuzz_obj_import    small corpus and assets/ OBJ files, each followed by "\n%%MTL%%\n" and the
#                      .mtl its first mtllib names, when there is one
#   fuzz_gltf_import   small corpus .glb files, and .gltf files followed by "\n%%BIN%%\n" and their
#                      first external buffer
#   fuzz_pack          packs (asset-baker pack) of each of fuzz_asset's bakes (those within the size
#                      limit), of the smallest assets of one and of its materials, and an empty one
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
mkdir -p "$out"/{fuzz_asset,fuzz_manifest,fuzz_image_import,fuzz_obj_import,fuzz_gltf_import,fuzz_pack}

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
# Skinned and animated models: skeletons, clips and skinned meshes.
for f in "$corpus"/bevy/assets/models/SimpleSkin/SimpleSkin.gltf "$corpus"/bevy/assets/models/animated/Fox.glb; do
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
  done < <(find "$tmp/out-$config" -type f \( -name '*.tx' -o -name '*.mesh' -o -name '*.mat' -o -name '*.prefab' -o -name '*.skel' -o -name '*.clip' \) -print0)
  [ -f "$tmp/out-$config/manifest.json" ] && cp "$tmp/out-$config/manifest.json" "$out/fuzz_manifest/$config-manifest.json"
  if "$baker" pack "$tmp/out-$config" -o "$tmp/$config.pack" -q 2>>"$tmp/log-$config"; then
    keep "$tmp/$config.pack" "$out/fuzz_pack" "$tmp"
  fi
done
# Small packs whatever the bakes' sizes: the smallest assets of bake a of every type (up to 40 KB),
# its materials alone, and no assets at all.
if [ -f "$tmp/out-a/manifest.json" ]; then
  python3 - "$tmp/out-a" "$tmp" <<'PY'
import json, os, shutil, sys
src, tmp = sys.argv[1], sys.argv[2]
assets = json.load(open(os.path.join(src, "manifest.json")))["assets"]
def subset(name, chosen):
    dst = os.path.join(tmp, name)
    for a in chosen:
        os.makedirs(os.path.dirname(os.path.join(dst, a["path"])), exist_ok=True)
        shutil.copy(os.path.join(src, a["path"]), os.path.join(dst, a["path"]))
    json.dump({"version": 1, "assets": chosen}, open(os.path.join(dst, "manifest.json"), "w"))
small, total = [], 0
for a in sorted(assets, key=lambda a: a["file_size"]):
    if total + a["file_size"] <= 40000:
        small.append(a)
        total += a["file_size"]
subset("small", small)
subset("materials", [a for a in assets if a["type"] == "MATL"])
PY
  for set in small materials; do
    "$baker" pack "$tmp/$set" -o "$out/fuzz_pack/$set.pack" -q || echo "make_seeds: packing $set failed" >&2
  done
fi
mkdir -p "$tmp/empty"
echo '{ "version": 1, "assets": [] }' >"$tmp/empty/manifest.json"
"$baker" pack "$tmp/empty" -o "$out/fuzz_pack/empty.pack" -q || echo "make_seeds: packing nothing failed" >&2

# --- images ----------------------------------------------------------------------------------------
while IFS= read -r -d '' f; do
  keep "$f" "$out/fuzz_image_import" "$corpus" 24576
done < <(find "$corpus/stb/tests/pngsuite" "$corpus/libpng/contrib/testpngs" "$corpus/obj2gltf/specs/data/box-complex-material" \
              "$corpus/bevy/assets/textures/fantasy_ui_borders" "$corpus/draco-testdata" \
              -type f \( -iname '*.png' -o -iname '*.jpg' -o -iname '*.jpeg' -o -iname '*.gif' \) -print0)
while IFS= read -r -d '' f; do
  keep "$f" "$out/fuzz_image_import" "$root/assets" 24576
done < <(find "$root/assets/textures" -type f -print0)

python3 "$root/fuzz/make_format_samples.py" "$out/fuzz_image_import"

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

# --- glTF -----------------------------------------------------------------------------------------
# Small .glb files as they are, and small .gltf files followed by their first external buffer.
python3 - "$out/fuzz_gltf_import" "$corpus" "$max_seed" <<'PY'
import json, os, sys, urllib.parse
out, corpus, limit = sys.argv[1], sys.argv[2], int(sys.argv[3])
SEP = b"\n%%BIN%%\n"
for folder, _, files in sorted(os.walk(corpus)):
    for name in sorted(files):
        path = os.path.join(folder, name)
        lower = name.lower()
        if not lower.endswith((".gltf", ".glb")) or os.path.getsize(path) > limit:
            continue
        data = open(path, "rb").read()
        if lower.endswith(".gltf"):
            try:
                doc = json.loads(data)
            except ValueError:
                continue
            uri = next((b.get("uri", "") for b in doc.get("buffers", []) if not b.get("uri", "data:").startswith("data:")), "")
            binary = os.path.join(folder, urllib.parse.unquote(uri)) if uri else ""
            if binary and os.path.isfile(binary) and os.path.getsize(binary) + len(data) <= limit:
                data += SEP + open(binary, "rb").read()
        rel = os.path.relpath(path, corpus).replace("/", "_")
        with open(os.path.join(out, rel), "wb") as f:
            f.write(data)
PY

for t in fuzz_asset fuzz_manifest fuzz_image_import fuzz_obj_import fuzz_gltf_import fuzz_pack; do
  echo "seeds $t: $(find "$out/$t" -type f | wc -l) files, $(du -sk "$out/$t" | cut -f1) KiB"
done
