#!/usr/bin/env bash
# asset-baker check / info / export on hostile baked files (docs/robustness.md, assetlib/limits.h).
# Usage: loader_limits.sh <asset-baker> <case>
#   max_ratio      legal LZ4 files at LZ4's best ratio: 4 GiB unpacked from 17 MB (at the
#                  kMaxUnpackedSize limit: check unpacks it chunk by chunk and passes) and 10.7 GiB
#                  from 45 MB (over it: refused); under `ulimit -v 2 GiB`, peak RSS about the file's size
#   json_header    a texture whose JSON header is 30 MB (over kMaxJsonSize): refused before it is read
#   out_of_memory  a 1 GiB chunk (4 MB file) under `ulimit -v 512 MiB`: a clean "out of memory"
#                  naming the file, exit 1, not an abort; export of a level past the PNG writer's
#                  int sizes (16384 x 16384): refused before decoding
#   special_files  a FIFO, a folder, a device and a socket in place of assets, of manifest.json, of
#                  a PSNR source and of baker.json: refused at once, never blocking
#   sparse_blob    a legal texture whose raw-stored 2.7 GiB blob is a hole: info and export --mip
#                  read what they describe or unpack, never the blob (peak RSS a few MiB)
#   straddling     a chunk crossing from one mip level into the next (a layout pack_texture never
#                  writes, which unpack_texture_mips refuses): check reports it
# The first three are skipped in sanitizer builds (ulimit -v and RSS do not apply there).
set -euo pipefail
export LC_ALL=C

baker=$1 case=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/loader-limits-$case.XXXXXX")
trap 'rm -rf "$work"' EXIT

fail() { echo "FAIL [$case]: $*" >&2; exit 1; }
# CMake passes its ASSETLIB_SANITIZE setting: sniffing the binary with `ldd | grep -q` raced with
# pipefail (grep exiting early sends ldd SIGPIPE) and sometimes ran these cases under ASan.
sanitized() { [ -n "${ASSETLIB_SANITIZE:-}" ]; }

# Writes baked files in the assetlib format whose chunks are LZ4 blocks of zeros at LZ4's best
# ratio (legal: every chunk decodes to exactly its size and claims at most 256x), plus manifests.
#   gen.py texture <file> <format> <width> <height> <mips> <chunk_size> [<padding_entries> [<straddle>]]
#   gen.py sparse <file> <width> <height> <mips>   (RGBA8 stored raw, the blob a hole)
#   gen.py manifest <folder> <file>...        (type, size, xxh3 hash and unpacked size of each)
cat >"$work/gen.py" <<'PY'
import ctypes, json, os, struct, sys
BPP = {"RGBA8_SRGB": 4, "RGBA16_SFLOAT": 8}
def lz4_zeros(n):
    # One LZ4 block of n zero bytes: a literal 0, a match at offset 1 over all but the last 5
    # bytes, then 5 literal zeros (the block format's end rules). About n / 255 bytes.
    ml = n - 1 - 5 - 4
    out = bytearray([0x10 | min(ml, 15), 0, 1, 0])
    if ml >= 15:
        rest = ml - 15
        out += b"\xff" * (rest // 255) + bytes([rest % 255])
    return bytes(out + bytes([0x50]) + b"\0" * 5)
def texture(path, fmt, w, h, mips, chunk, padding=0, straddle=0):
    levels, sections, chunks, blob, offset, packed_of = [], [], [], bytearray(), 0, {}
    for i in range(mips):
        lw, lh = max(1, w >> i), max(1, h >> i)
        size = lw * lh * BPP[fmt]
        levels.append({"width": lw, "height": lh, "offset": offset, "size": size})
        sections.append((offset, size))
        offset += size
    if straddle:
        sections = [(0, offset)]  # chunks that cross from one level into the next (never written)
    for begin, size in sections:
        for start in range(0, size, chunk):
            n = min(chunk, size - start)
            if n not in packed_of:
                packed_of[n] = lz4_zeros(n) if n >= 64 else b"\0" * n  # tiny chunks stored raw
            chunks.append([begin + start, n, len(blob), len(packed_of[n])])
            blob += packed_of[n]
    meta = {"format": fmt, "width": w, "height": h, "mips": levels, "total_size": offset,
            "original_file": "textures/x.png", "compression": "LZ4", "chunks": chunks}
    if padding:
        meta["padding"] = [{}] * padding  # an unknown key: ignored, but parsed
    text = json.dumps(meta, separators=(",", ":")).encode()
    text += b" " * ((16 - (16 + len(text)) % 16) % 16)
    with open(path, "wb") as f:
        f.write(b"TEXI" + struct.pack("<III", 1, len(text), len(blob)) + text + blob)
def xxh3(data):
    lib = ctypes.CDLL("libxxhash.so.0")
    lib.XXH3_64bits.restype = ctypes.c_uint64
    lib.XXH3_64bits.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
    return "xxh3-64:%016x" % lib.XXH3_64bits(data, len(data))
def manifest(folder, files):
    assets = []
    for rel in files:
        data = open(os.path.join(folder, rel), "rb").read()
        meta = json.loads(data[16:16 + struct.unpack("<I", data[8:12])[0]])
        assets.append({"name": rel, "type": data[:4].decode(), "path": rel, "hash": xxh3(data),
                       "file_size": len(data), "raw_size": meta["total_size"]})
    json.dump({"version": 1, "assets": assets}, open(os.path.join(folder, "manifest.json"), "w"))
def sparse(path, w, h, mips):
    # RGBA8 stored raw (compression None), chunks of at most 1 GiB per level: a legal file whose
    # blob is as large as its texels, written as a hole (no disk blocks, reads give zeros).
    levels, chunks, offset = [], [], 0
    for i in range(mips):
        lw, lh = max(1, w >> i), max(1, h >> i)
        size = lw * lh * 4
        levels.append({"width": lw, "height": lh, "offset": offset, "size": size})
        for start in range(0, size, 1 << 30):
            n = min(1 << 30, size - start)
            chunks.append([offset + start, n, offset + start, n])
        offset += size
    meta = {"format": "RGBA8_SRGB", "width": w, "height": h, "mips": levels, "total_size": offset,
            "original_file": "textures/x.png", "compression": "None", "chunks": chunks}
    text = json.dumps(meta, separators=(",", ":")).encode()
    text += b" " * ((16 - (16 + len(text)) % 16) % 16)
    with open(path, "wb") as f:
        f.write(b"TEXI" + struct.pack("<III", 1, len(text), offset) + text)
        f.truncate(16 + len(text) + offset)
if sys.argv[1] == "texture":
    texture(sys.argv[2], sys.argv[3], *map(int, sys.argv[4:]))
elif sys.argv[1] == "sparse":
    sparse(sys.argv[2], *map(int, sys.argv[3:]))
else:
    manifest(sys.argv[2], sys.argv[3:])
PY
gen() { python3 "$work/gen.py" "$@"; }

# Runs "$baker $*" with a time limit ($seconds) and, when $limit_kib is set, `ulimit -v $limit_kib`;
# exit code in $rc, output in $work/out, peak RSS (KiB) in $rss, seconds in $secs.
limit_kib="" seconds=60
run() {
  set +e
  ( if [ -n "$limit_kib" ]; then ulimit -v "$limit_kib"; fi
    exec /usr/bin/time -f '%M %e' -o "$work/time" timeout "$seconds" "$baker" "$@" ) >"$work/out" 2>&1
  rc=$?
  set -e
  read -r rss secs < <(tail -n 1 "$work/time" 2>/dev/null || echo "0 0")
  [ "$rc" != 124 ] || fail "asset-baker $1 hung (killed after $seconds s)"
  [ "$rc" -lt 128 ] || { cat "$work/out" >&2; fail "asset-baker $1 crashed (exit $rc)"; }
  if grep -aqE 'terminate called|bad_alloc$|Aborted' "$work/out"; then
    cat "$work/out" >&2; fail "asset-baker $1 let an exception escape"
  fi
}
expect() {  # expect <exit code> <regex>: the last run
  [ "$rc" = "$1" ] || { cat "$work/out" >&2; fail "exit $1 expected, got $rc"; }
  grep -aqE "$2" "$work/out" || { cat "$work/out" >&2; fail "expected /$2/ in the output"; }
}
within() {  # within <KiB>: the last run's peak RSS
  echo "  peak RSS ${rss} KiB, ${secs} s (allowed ${1} KiB)"
  [ "$rss" -le "$1" ] || fail "peak RSS ${rss} KiB over ${1} KiB"
}
# The peak RSS of check and info on a tiny valid asset: what the program costs by itself.
baseline() {
  mkdir -p "$work/base"
  gen texture "$work/base/t.tx" RGBA8_SRGB 64 64 1 1048576
  gen manifest "$work/base" t.tx
  run check "$work/base"; expect 0 "0 problem"; base_check=$rss
  run info "$work/base/t.tx"; expect 0 "RGBA8_SRGB 64x64"; base_info=$rss
  echo "baseline peak RSS: check ${base_check} KiB, info ${base_info} KiB"
}
kib() { echo $(( ($(stat -c %s "$1") + 1023) / 1024 )); }

case $case in
max_ratio)
  if sanitized; then echo "SKIP [$case]: sanitizer build"; exit 0; fi
  baseline
  mkdir -p "$work/legal" "$work/over"
  # 32768 x 32768 RGBA8, one level, 1 MiB chunks: exactly kMaxUnpackedSize (4 GiB) from 17 MB.
  gen texture "$work/legal/t.tx" RGBA8_SRGB 32768 32768 1 1048576
  gen manifest "$work/legal" t.tx
  # 32768 x 32768 RGBA16 with its full chain: 10.7 GiB from 45 MB (every chunk legal by itself).
  gen texture "$work/over/t.tx" RGBA16_SFLOAT 32768 32768 16 1048576
  gen manifest "$work/over" t.tx
  limit_kib=$((2048 * 1024))
  # Allowed: the program, the file (read whole), one chunk and the metadata (the chunk table).
  echo "check, 4 GiB legal:"; run check "$work/legal"; expect 0 "1 assets .*: 0 problem"
  within $((base_check + $(kib "$work/legal/t.tx") + 16 * 1024))
  echo "info, 4 GiB legal:"; run info "$work/legal/t.tx"; expect 0 "unpacked 4294967296 B"
  within $((base_info + $(kib "$work/legal/t.tx") + 16 * 1024))
  echo "check, 10.7 GiB:"; run check "$work/over"; expect 1 "t\.tx: .*11453246120 bytes is over the 4 GiB limit \(assetlib::kMaxUnpackedSize\)"
  within $((base_check + $(kib "$work/over/t.tx") + 16 * 1024))
  echo "info, 10.7 GiB:"; run info "$work/over/t.tx"; expect 1 "t\.tx: error: .*over the 4 GiB limit \(assetlib::kMaxUnpackedSize\)"
  within $((base_info + $(kib "$work/over/t.tx") + 16 * 1024))
  ;;
json_header)
  if sanitized; then echo "SKIP [$case]: sanitizer build"; exit 0; fi
  baseline
  mkdir -p "$work/json"
  # A 4 x 4 texture whose metadata also holds 10 million empty objects: 30 MB of JSON.
  gen texture "$work/json/t.tx" RGBA8_SRGB 4 4 1 1048576 10000000
  gen manifest "$work/json" t.tx
  limit_kib=$((2048 * 1024))
  # Refused from the 16-byte header: nothing of the JSON is parsed. check reads each listed file
  # whole, as pack does (the manifest bounds it), so it may hold the file.
  echo "check, 30 MB JSON:"; run check "$work/json"; expect 1 "t\.tx: JSON metadata of [0-9]+ bytes is over the 4 MiB limit \(assetlib::kMaxJsonSize\)"
  within $((base_check + $(kib "$work/json/t.tx") + 8 * 1024))
  echo "info, 30 MB JSON:"; run info "$work/json/t.tx"; expect 1 "t\.tx: error: JSON metadata of [0-9]+ bytes is over the 4 MiB limit \(assetlib::kMaxJsonSize\)"
  within $((base_info + 8 * 1024))
  ;;
out_of_memory)
  if sanitized; then echo "SKIP [$case]: sanitizer build"; exit 0; fi
  mkdir -p "$work/big"
  # 16384 x 16384 RGBA8 in one 1 GiB chunk (the kMaxChunkSize limit): legal, 4 MB on disk.
  gen texture "$work/big/t.tx" RGBA8_SRGB 16384 16384 1 1073741824
  gen manifest "$work/big" t.tx
  limit_kib=$((512 * 1024))
  # 16384 x 8192 in one 512 MiB chunk: under the PNG writer's limit, over this memory.
  mkdir -p "$work/wide"
  gen texture "$work/wide/e.tx" RGBA8_SRGB 16384 8192 1 1073741824
  run check "$work/big"; expect 1 "t\.tx: out of memory"
  run export "$work/wide/e.tx" -o "$work/big.png"; expect 1 "e\.tx: out of memory"
  [ ! -e "$work/big.png" ] || fail "export wrote a PNG after running out of memory"
  # 16384 x 16384 is past what stb_image_write can size (int): refused before decoding.
  run export "$work/big/t.tx" -o "$work/big.png"; expect 1 "t\.tx: level 0 is 16384x16384, more than the PNG writer takes"
  [ ! -e "$work/big.png" ] || fail "export wrote a PNG past the writer's limit"
  run info "$work/big/t.tx"; expect 0 "unpacked 1073741824 B"  # info does not unpack
  run info --sources "$work/big" "$work/big/t.tx"; expect 0 "unpacked 1073741824 B"
  ;;
special_files)
  seconds=10  # each run takes milliseconds; one that blocks is a failure, not a hang
  mkdir -p "$work/baked/sub" "$work/fifo-manifest" "$work/sources/textures"
  gen texture "$work/baked/t.tx" RGBA8_SRGB 64 64 1 1048576
  gen texture "$work/fifo-manifest/t.tx" RGBA8_SRGB 64 64 1 1048576
  gen manifest "$work/baked" t.tx
  mkfifo "$work/baked/fifo.tx" "$work/fifo-manifest/manifest.json" "$work/sources/textures/x.png"
  mkdir "$work/baked/folder.tx"
  ln -s /dev/zero "$work/baked/zero.tx"
  python3 -c "import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])" "$work/baked/sock.tx"
  # Each would block (a FIFO has no writer) or read for ever (/dev/zero) if opened as a file.
  run info "$work/baked/fifo.tx"; expect 1 "fifo\.tx: error: not a regular file \(a FIFO\)"
  run info "$work/baked/zero.tx"; expect 1 "zero\.tx: error: not a regular file \(a character device\)"
  run info "$work/baked/sock.tx"; expect 1 "sock\.tx: error: cannot open file"
  run export "$work/baked/fifo.tx" -o "$work/x.png"; expect 1 "fifo\.tx: not a regular file \(a FIFO\)"
  run export "$work/baked/folder.tx" -o "$work/x.png"; expect 1 "folder\.tx: not a regular file \(a folder\)"
  run check "$work/fifo-manifest"; expect 1 "manifest\.json: not a regular file \(a FIFO\)"
  # A folder walk skips what is not a regular file; the real asset is still described.
  run info "$work/baked"; expect 0 "total: 1 files"
  # The PSNR source named by the asset is a FIFO: no PSNR, no hang.
  run info --sources "$work/sources" "$work/baked/t.tx"; expect 0 "RGBA8_SRGB 64x64"
  # A manifest listing the FIFO, the folder and the device as assets.
  python3 - "$work/baked/manifest.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
for name in ("fifo.tx", "folder.tx", "zero.tx"):
    m["assets"].append(dict(m["assets"][0], name=name, path=name))
json.dump(m, open(sys.argv[1], "w"))
PY
  # baker.json named by --config is a FIFO: refused at once, exit 2.
  mkfifo "$work/baker.json"
  run "$work/sources" -o "$work/out" --config "$work/baker.json"; expect 2 "baker\.json: cannot read \(not a regular file\)"
  run check "$work/baked"; expect 1 "fifo\.tx: not a regular file"
  expect 1 "folder\.tx: not a regular file"
  expect 1 "zero\.tx: a symlink \(not followed\)"  # to /dev/zero
  expect 1 "4 assets in .*: 3 problem"
  ;;
sparse_blob)
  if sanitized; then echo "SKIP [$case]: sanitizer build"; exit 0; fi
  baseline
  mkdir -p "$work/sparse"
  # 32768 x 16384 RGBA8 and its chain stored raw: a 2.7 GiB blob that is a hole on disk. info and
  # export map the file: they read the pages they unpack, not the blob.
  gen sparse "$work/sparse/t.tx" 32768 16384 16
  echo "info, 2.7 GiB blob:"; run info "$work/sparse/t.tx"; expect 0 "unpacked 2863311532 B"
  within $((base_info + 16 * 1024))
  echo "export --mip 5 (1024 x 512):"; run export "$work/sparse/t.tx" --mip 5 -o "$work/l5.png"
  expect 0 "level 5, 1024x512"
  within $((base_info + 32 * 1024))
  [ -s "$work/l5.png" ] || fail "export wrote no PNG"
  ;;
straddling)
  mkdir -p "$work/s"
  gen texture "$work/s/t.tx" RGBA8_SRGB 64 64 3 1048576 0 1
  gen manifest "$work/s" t.tx
  run info "$work/s/t.tx"; expect 0 "3 mips, 1 chunks"
  run check "$work/s"; expect 1 "t\.tx: chunk 0 straddles two mip levels"
  ;;
*) fail "unknown case" ;;
esac
echo "PASS [$case]"
