#!/usr/bin/env bash
# The asset-baker binary on hostile source trees (docs/robustness.md).
# Usage: hostile_e2e.sh <asset-baker> <assets-dir> <corpus-dir> <case>
#   non_utf8_names   file, folder, .mtl and texture names that are not UTF-8
#   control_names    file and material names holding a line end, an escape sequence or a C1
#                    control: every line the baker and `info` print shows them escaped
#   hostile_sources  empty, truncated, lying and huge-header files, a FIFO, a folder named x.png,
#                    symlink loops, .mtl paths leaving the root: errors, no crash, no hang
#   memory_cap       header-only images announcing large sizes, under `ulimit -v 1.5 GiB`: refused without
#                    allocating what the headers announce (skipped in sanitizer builds)
#   memory_budget    two large images at -j2 under --memory-budget: baked one after the other
#   out_of_memory    a --force rebake of a good 4096² image under `ulimit -v` at which decoding
#                    runs out of memory (at several limits): exit 1, the previous output and its
#                    manifest entry kept, whatever error stb_image gives (sanitizer builds skip it)
# Every case: exit 1 (not a crash, not a hang), each broken source named with a reason, `check`
# passes on the output, and a second bake changes nothing.
set -euo pipefail
export LC_ALL=C  # file names that are not UTF-8 in logs

baker=$1 assets=$2 corpus=$3 case=$4
work=$(mktemp -d "${TMPDIR:-/tmp}/hostile-e2e-$case.XXXXXX")
trap 'rm -rf "$work"' EXIT

fail() { echo "FAIL [$case]: $*" >&2; exit 1; }
expect_line() { grep -aqE "$2" "$1" || { cat "$1" >&2; fail "expected /$2/ in $(basename "$1")"; }; }
# Bakes $work/src into $work/out with a time limit; exit code in $rc, output in $work/log.
bake() {
  set +e
  timeout 300 "$baker" "$work/src" -o "$work/out" "$@" >"$work/log" 2>&1
  rc=$?
  set -e
  [ "$rc" != 124 ] || { cat "$work/log" >&2; fail "the baker hung (killed after 300 s)"; }
  [ "$rc" -lt 128 ] || { cat "$work/log" >&2; fail "the baker crashed (exit $rc)"; }
}
check_output() {
  "$baker" check "$work/out" >"$work/check" 2>&1 || { cat "$work/check" >&2; fail "check failed on the output"; }
  python3 -c "import json,sys; json.load(open(sys.argv[1], encoding='utf-8'))" "$work/out/manifest.json" ||
    fail "manifest.json is not valid UTF-8 JSON"
}
second_bake_is_noop() {
  local before after
  before=$(cd "$work/out" && find . -type f ! -name '.assetlib-cache.json' -exec sha256sum {} + | sort)
  bake
  after=$(cd "$work/out" && find . -type f ! -name '.assetlib-cache.json' -exec sha256sum {} + | sort)
  [ "$before" = "$after" ] || fail "a second bake changed the output"
  expect_line "$work/log" "baked 0, "
}
# CMake passes its ASSETLIB_SANITIZE setting: sniffing the binary with `ldd | grep -q` raced with
# pipefail (grep exiting early sends ldd SIGPIPE) and sometimes ran these cases under ASan.
sanitized() { [ -n "${ASSETLIB_SANITIZE:-}" ]; }

# Header-only images of each stb_image format announcing W x H (PNG gets an empty IDAT).
write_headers() {
  python3 - "$1" "$2" "$3" <<'PY'
import struct, sys, zlib, os
out, w, h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
os.makedirs(out, exist_ok=True)
def save(name, data):
    open(os.path.join(out, name), "wb").write(data)
def chunk(t, d, length=None):
    return struct.pack(">I", len(d) if length is None else length) + t + d + struct.pack(">I", zlib.crc32(t + d))
sig = b"\x89PNG\r\n\x1a\n"
ihdr = chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
save("hdr_only.png", sig + ihdr + chunk(b"IEND", b""))
save("lying_idat.png", sig + ihdr + chunk(b"IDAT", b"\x78\x01", 0x7ffffff0))
save("hdr_only.bmp", struct.pack("<2sIHHI", b"BM", 54, 0, 0, 54) + struct.pack("<IiiHHIIiiII", 40, w, h, 1, 24, 0, 0, 0, 0, 0, 0))
save("hdr_only.tga", struct.pack("<BBBHHBHHHHBB", 0, 0, 2, 0, 0, 0, 0, 0, min(w, 65535), min(h, 65535), 24, 0x20))
save("hdr_only.ppm", b"P6\n%d %d\n255\n" % (w, h))
save("hdr_only.hdr", b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y %d +X %d\n" % (h, w))
save("hdr_only.psd", b"8BPS" + struct.pack(">H6xHIIHH", 1, 3, h, w, 8, 3) + struct.pack(">IIIH", 0, 0, 0, 0))
save("hdr_only.gif", b"GIF89a" + struct.pack("<HHBBB", min(w, 65535), min(h, 65535), 0x80, 0, 0) + b"\0\0\0\xff\xff\xff"
     + b"," + struct.pack("<HHHHB", 0, 0, min(w, 65535), min(h, 65535), 0) + b"\x02\x00;")
PY
}

case $case in
non_utf8_names)
  mkdir -p "$work/src/textures" "$work/src/models" "$work/src/d$(printf '\xef')r"
  cp "$assets/textures/checker.png" "$work/src/textures/"
  cp "$assets/textures/checker.png" "$work/src/textures/caf$(printf '\xe9').png"
  cp "$assets/textures/checker.png" "$work/src/d$(printf '\xef')r/x.png"
  cp "$assets/textures/checker.png" "$work/src/textures/ok-$(printf '\xc3\xa9').png"   # valid UTF-8 (é)
  tri='v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 0 1\n'
  printf "mtllib m$(printf '\xe9').mtl\n${tri}usemtl a\nf 1/1 2/2 3/3\nusemtl b$(printf '\xff')\nf 3/3 2/2 1/1\n" >"$work/src/models/m.obj"
  printf "newmtl a\nmap_Kd ../textures/caf\xe9.png\nnewmtl b\xff\nmap_Kd ../textures/ok-\xc3\xa9.png\nnorm ../d\xefr/x.png\n" \
    >"$work/src/models/m$(printf '\xe9').mtl"
  printf "${tri}f 1 2 3\n" >"$work/src/models/m$(printf '\xe9')sh.obj"
  bake -j2
  [ "$rc" = 1 ] || { cat "$work/log"; fail "non-UTF-8 source names must fail those sources: exit 1 expected, got $rc"; }
  expect_line "$work/log" "error: textures/caf.*\.png: .*UTF-8"
  expect_line "$work/log" "error: d.*r/x\.png: .*UTF-8"
  expect_line "$work/log" "error: models/m.*sh\.obj: .*UTF-8"
  [ -f "$work/out/textures/checker.tx" ] && [ -f "$work/out/textures/ok-$(printf '\xc3\xa9').tx" ] || fail "valid names not baked"
  [ -f "$work/out/models/m.mesh" ] || { cat "$work/log"; fail "models/m.obj (UTF-8 name, non-UTF-8 references) not baked"; }
  # The mesh may only name textures that are in the manifest, byte for byte: check verifies it
  # (finding F7), and a .mtl with a non-UTF-8 name must not make the mesh rebake each time (F11)
  # (a reference to textures/caf\xe9.png must not be stored as "textures/caf\ufffd.png").
  check_output
  second_bake_is_noop
  ;;
control_names)
  mkdir -p "$work/src"
  nl=$'\n' esc=$'\e' bel=$'\a' csi=$'\xc2\x9b'
  cp "$assets/textures/checker.png" "$work/src/good${nl}error: forged.png"
  cp "$assets/textures/checker.png" "$work/src/title${esc}]0;owned${bel}${csi}2J.png"
  printf 'not a png' >"$work/src/broken${nl}line.png"
  printf "v 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl red${esc}[31m\nf 1 2 3\n" >"$work/src/tri.obj"
  bake -j1
  [ "$rc" = 1 ] || { cat "$work/log"; fail "exit 1 expected (one broken source), got $rc"; }
  "$baker" info "$work/out" >>"$work/log" 2>&1 || { cat "$work/log"; fail "info failed on the output"; }
  # A build edge (bake-one) names its source too.
  "$baker" bake-one "$work/src/title${esc}]0;owned${bel}${csi}2J.png" --root "$work/src" \
    -o "$work/one" >>"$work/log" 2>&1 || { cat "$work/log"; fail "bake-one failed"; }
  # Line ends are the only control characters printed, and no C1 control (U+0080..U+009F).
  python3 - "$work/log" <<'PY' || fail "a control character from a name reached the terminal"
import re, sys
text = open(sys.argv[1], "rb").read()
bad = re.search(rb"[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]", text)
if bad: sys.exit("control character %r at byte %d" % (bad.group(), bad.start()))
PY
  # No name split into lines of its own (a forged "error: " line).
  if grep -aqE '^(error: forged|line\.png)' "$work/log"; then fail "a name's line end split a line"; fi
  expect_line "$work/log" '^error: broken\\nline\.png: '
  expect_line "$work/log" '^    broken\\nline\.png: '  # the summary, whole
  expect_line "$work/log" 'baked good\\nerror: forged\.png$'
  expect_line "$work/log" 'title\\x1b\]0;owned\\x07\\u009b2J\.tx'
  expect_line "$work/log" '^baked title\\x1b\]0;owned\\x07\\u009b2J\.png$'  # bake-one's line
  expect_line "$work/log" "usemtl names 1 material.*'red\\\\x1b\[31m'"
  [ -f "$work/out/good${nl}error: forged.tx" ] || fail "a name with a line end was not baked under its name"
  check_output
  second_bake_is_noop
  ;;
hostile_sources)
  mkdir -p "$work/src/textures" "$work/src/models" "$work/src/weird"
  cp "$assets/textures/checker.png" "$assets/textures/bricks.png" "$work/src/textures/"
  : >"$work/src/textures/empty.png"
  : >"$work/src/models/empty.obj"
  head -c 1000 "$assets/textures/bricks.png" >"$work/src/textures/truncated.png"
  head -c 2000 "$corpus/obj2gltf/specs/data/box-complex-material/emission.jpg" >"$work/src/textures/truncated.jpg"
  cp "$corpus/libpng/contrib/testpngs/crashers/huge_IDAT.png" "$corpus/stb/tests/pngsuite/corrupt/xc9n2c08.png" "$work/src/textures/"
  write_headers "$work/src/huge" 100000 100000
  write_headers "$work/src/limit" 16385 16
  mkdir "$work/src/weird/folder.png"                      # a folder with an image name
  mkfifo "$work/src/weird/fifo.png"                       # reading it would block for ever
  ln -s loop.obj "$work/src/weird/loop.obj"               # a symlink to itself (finding F10)
  ln -s /dev/zero "$work/src/weird/zero.png"              # outside the root, endless
  ln -s ../weird "$work/src/weird/cycle"                  # a folder cycle
  printf 'mtllib ../../../../../../etc/passwd\nmtllib /etc/shadow\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n' >"$work/src/models/escape.obj"
  printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n' >"$work/src/models/range.obj"
  printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 -9\n' >"$work/src/models/negative.obj"
  python3 -c "import random,sys; sys.stdout.buffer.write(random.Random(7).randbytes(300000))" >"$work/src/models/noise.obj"
  # F13: a truncated RLE scanline made stb_image loop for ever. On its own, with a short time limit.
  mkdir -p "$work/hdr"
  printf '#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 1 +X 8\n\x02\x02\x00\x08' >"$work/hdr/hang.hdr"
  set +e; timeout 30 "$baker" "$work/hdr" -o "$work/hdr-out" >"$work/log" 2>&1; rc=$?; set -e
  [ "$rc" != 124 ] || fail "the baker hung on a truncated HDR file (finding F13 in docs/robustness.md)"
  [ "$rc" = 1 ] || { cat "$work/log"; fail "a truncated HDR file must fail: exit 1 expected, got $rc"; }
  bake -j2
  [ "$rc" = 1 ] || { cat "$work/log"; fail "broken sources must give exit 1, got $rc"; }
  for f in textures/empty.png models/empty.obj textures/truncated.png textures/huge_IDAT.png huge/hdr_only.png \
           huge/hdr_only.bmp huge/hdr_only.psd limit/hdr_only.png limit/lying_idat.png models/range.obj models/negative.obj; do
    expect_line "$work/log" "error: $f: "
  done
  expect_line "$work/log" "models/escape.obj: mtllib .*(leaves the input folder|absolute path)"
  expect_line "$work/log" "weird/zero.png: symlink leads outside the input folder"
  [ -f "$work/out/textures/checker.tx" ] && [ -f "$work/out/models/escape.mesh" ] || fail "good files not baked"
  check_output
  second_bake_is_noop
  ;;
memory_cap)
  if sanitized; then echo "SKIP [$case]: sanitizer build (ulimit -v and RSS do not apply)"; exit 0; fi
  # Baseline: the peak RSS of baking one small valid image.
  mkdir -p "$work/base"
  cp "$assets/textures/roughness.png" "$work/base/"
  /usr/bin/time -f '%M' -o "$work/base.rss" "$baker" "$work/base" -o "$work/base-out" -q -j1 >/dev/null 2>&1 ||
    fail "baseline bake failed"
  base_kib=$(tail -n 1 "$work/base.rss")
  # Header-only files of a few dozen bytes announcing 4096 x 4096 (64 MiB as RGBA8, 256 MiB as
  # float) and 16384 x 16384: nothing in them justifies more than the baseline.
  write_headers "$work/src/m4096" 4096 4096
  write_headers "$work/src/m16384" 16384 16384
  budget_kib=$((base_kib + 32 * 1024))
  set +e
  ( ulimit -v $((1536 * 1024)); exec /usr/bin/time -f '%M' -o "$work/rss" timeout 300 "$baker" "$work/src" -o "$work/out" -j1 ) \
    >"$work/log" 2>&1
  rc=$?
  set -e
  peak_kib=$(tail -n 1 "$work/rss" 2>/dev/null || echo 0)
  echo "baseline peak RSS ${base_kib} KiB; hostile tree peak RSS ${peak_kib} KiB (budget ${budget_kib} KiB); exit $rc"
  [ "$rc" != 124 ] || fail "the baker hung"
  [ "$rc" -lt 128 ] || { cat "$work/log" >&2; fail "the baker crashed under ulimit -v (exit $rc)"; }
  [ "$rc" = 1 ] || { cat "$work/log" >&2; fail "header-only images must fail: exit 1 expected, got $rc"; }
  if grep -aq 'baked [1-9]' "$work/log"; then
    grep -a 'baked ' "$work/log" >&2
    fail "header-only images were baked as textures (finding F6 in docs/robustness.md)"
  fi
  if grep -aqiE 'outofmem|out of memory|bad_alloc' "$work/log"; then
    grep -aiE 'outofmem|out of memory|bad_alloc' "$work/log" >&2
    fail "refused only because memory ran out, after trying to allocate what a header announced"
  fi
  [ "$peak_kib" -le "$budget_kib" ] || fail "peak RSS ${peak_kib} KiB over the budget ${budget_kib} KiB"
  ;;
memory_budget)
  if sanitized; then echo "SKIP [$case]: sanitizer build (RSS does not apply)"; exit 0; fi
  # Two 4096² images (about 200 MB each while baking) at -j2: with a 300 MiB budget they bake one
  # after the other, so the peak stays near one image's, not two.
  python3 - "$work/src" <<'PY'
import os, struct, sys, zlib
def chunk(t, d): return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
os.makedirs(sys.argv[1], exist_ok=True)
for i in range(2):
    row = b"\0" + bytes((i * 40 + k) % 256 for k in range(4096 * 4))
    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 4096, 4096, 8, 6, 0, 0, 0)) +
           chunk(b"IDAT", zlib.compress(row * 4096, 6)) + chunk(b"IEND", b""))
    open(os.path.join(sys.argv[1], "big%d.png" % i), "wb").write(png)
PY
  peak() { /usr/bin/time -f '%M' -o "$work/rss" "$baker" "$work/src" -o "$work/out-$1" -q -j2 --memory-budget "$1" ||
             fail "bake with budget $1 failed"; tail -n 1 "$work/rss"; }
  free_kib=$(peak 100000)
  bounded_kib=$(peak 300)
  echo "peak RSS at -j2: ${free_kib} KiB with a large budget, ${bounded_kib} KiB with 300 MiB"
  [ "$bounded_kib" -lt $((free_kib * 3 / 4)) ] || fail "the memory budget did not bound the peak"
  [ "$bounded_kib" -lt $((300 * 1024)) ] || fail "peak RSS ${bounded_kib} KiB over the 300 MiB budget"
  cmp "$work/out-100000/big0.tx" "$work/out-300/big0.tx" || fail "the budget changed an output"
  ;;
out_of_memory)
  if sanitized; then echo "SKIP [$case]: sanitizer build (ulimit -v does not apply)"; exit 0; fi
  python3 - "$work/src/big.png" <<'PY'
import os, random, struct, sys, zlib
def chunk(t, d): return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
os.makedirs(os.path.dirname(sys.argv[1]), exist_ok=True)
rng = random.Random(3)
rows = b"".join(b"\0" + rng.randbytes(4096 * 4) for _ in range(4096))
open(sys.argv[1], "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 4096, 4096, 8, 6, 0, 0, 0)) +
                              chunk(b"IDAT", zlib.compress(rows, 1)) + chunk(b"IEND", b""))
PY
  bake -j1
  [ "$rc" = 0 ] || { cat "$work/log" >&2; fail "the first bake failed"; }
  good=$(sha256sum <"$work/out/big.tx")
  # Limits at which the process starts but the image cannot be decoded or baked: each failure
  # (stb_image's "outofmem" or another reason, std::bad_alloc) must keep the good output.
  for limit_mib in 100 120 160 200; do
    set +e
    ( ulimit -v $((limit_mib * 1024)); exec timeout 300 "$baker" "$work/src" -o "$work/out" -j1 --force ) >"$work/log" 2>&1
    rc=$?
    set -e
    [ "$rc" -lt 128 ] || { cat "$work/log" >&2; fail "the baker crashed under ulimit -v ${limit_mib} MiB (exit $rc)"; }
    [ "$rc" = 1 ] || { cat "$work/log" >&2; fail "exit 1 expected under ulimit -v ${limit_mib} MiB, got $rc"; }
    [ "$good" = "$(sha256sum <"$work/out/big.tx")" ] || fail "the good output was lost at ${limit_mib} MiB"
    expect_line "$work/log" "kept the previous big\.tx"
    check_output
  done
  ;;
*) fail "unknown case" ;;
esac
echo "PASS [$case]"
