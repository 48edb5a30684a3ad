#!/usr/bin/env bash
# The asset-baker binary against a hostile or unlucky output folder (docs/robustness.md, "Output
# folder"). Usage: output_safety.sh <asset-baker> <case>
#   planted_cache     a committed .assetlib-cache.json naming ../x, /abs/x and a user's file as
#                     outputs: nothing outside the output folder, and nothing the baker did not
#                     write, is deleted
#   symlinked_folder  a folder of the output tree is a symlink to elsewhere: nothing is written
#                     there, the sources behind it fail with a reason, the rest bakes
#   symlinked_output  the default output folder (<input>-baked) is a symlink: refused (exit 2)
#   second_baker      another baker holds the output folder: exit 2, its temporaries are untouched
#   disk_full         writes fail (file size limit) during --force: the previous outputs and their
#                     manifest entries stay, the error says what failed, exit 1; the same when the
#                     cache cannot be written
#   interrupted       SIGINT mid-bake: exit 130, a consistent manifest of what is done, the rerun
#                     bakes only the rest
#   interrupted_long_job  SIGINT while one large texture compresses: the bake ends within seconds
#                     (the source abandoned a second later), exit 130, no output of it, the
#                     previous outputs and manifest kept
#   overlap           output = parent of the input, or the input itself: refused, no source touched
#   time_limit        a source still baking at --time-limit: it fails naming the limit, the bake
#                     stops, the manifest holds what finished, previous outputs are kept, exit 1;
#                     the same for bake-one; time the process was stopped (SIGSTOP) not counted
#   symlinked_assets  a baked asset replaced by a symlink to an identical file elsewhere, and a
#                     symlink loop: pack refuses it (no pack), check names it, neither follows it,
#                     check and info go on past the loop
#   cli_destinations  --pack into the input folder, or with --shard, refused before baking; --pack and
#                     pack -o through a symlinked folder planted in the output folder refused; export
#                     -o other than a .png refused; control characters in the names pack, check and
#                     export print are escaped
#   side_files        --json, bake-one --stamp/--depfile and plan --stamp/--plan-dir never replace a
#                     source, a user's file in the input folder or the output folder's own files,
#                     nor write through a symlinked folder planted in either folder
#   foreign_files     an output folder no bake wrote: another program's manifest.json refuses the
#                     bake (exit 2); a user's file where an output goes fails that source only
#   hijacking_entry   the output folder's cache edited so one source's entry claims another's
#                     output: not taken for up to date, rebaked; the folder checks clean
#   check_symlinks    check and info on a baked folder with a symlinked asset, folder and manifest:
#                     each reported, none followed; info --sources not through a symlink out
#   inherited_process what the baker inherits does not decide what it writes: with stdin, stdout
#                     and stderr closed nothing lands in its own files; piped into `head -1`, and
#                     on SIGHUP, the bake ends consistently; a low soft limit on open files does
#                     not fail a glTF of many materials
#   special_destinations  --json, pack -o and --depfile naming a FIFO or a device write into it (a
#                     rename replaced it with a regular file: as root, /dev/null itself); a FIFO
#                     read only a moment later is waited for, one never read fails in seconds
#   far_future_mtime  a source dated after 2262, edited at its size with its time put back, is
#                     rebaked (the nanosecond stamp wrapped into the past and was trusted)
#   bind_mounted_output  (root only) an output folder that is the input bind-mounted elsewhere is
#                     refused, nothing written into the sources
#   baker_names       source folders named manifest.json, .assetlib-cache.json, .assetlib-records:
#                     those sources fail naming why, the rest bakes (a 251-byte name too), the
#                     folder stays usable
set -euo pipefail

baker=$1 case=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/output-safety-$case.XXXXXX")
trap 'rm -rf "$work"' EXIT

fail() { echo "FAIL [$case]: $*" >&2; exit 1; }
expect_line() { grep -aqE -e "$2" "$1" || { cat "$1" >&2; fail "expected /$2/ in $(basename "$1")"; }; }
# Runs the baker with a time limit; exit code in $rc, output in $work/log.
run() {
  set +e
  timeout 300 "$baker" "$@" >"$work/log" 2>&1
  rc=$?
  set -e
  [ "$rc" != 124 ] || { cat "$work/log" >&2; fail "the baker hung"; }
}
expect_rc() { [ "$rc" = "$1" ] || { cat "$work/log" >&2; fail "exit code $rc, expected $1"; }; }
check_output() {
  "$baker" check "$1" >"$work/check" 2>&1 || { cat "$work/check" >&2; fail "check failed on $1"; }
}
# `count` noisy RGBA PNGs of `size`^2 pixels in folder $1 (noise keeps outputs large).
make_pngs() {
  python3 - "$@" <<'PY'
import os, random, struct, sys, zlib
out, count, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
os.makedirs(out, exist_ok=True)
rng = random.Random(7)
def chunk(t, d):
    return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
for i in range(count):
    rows = b"".join(b"\0" + rng.randbytes(size * 4) for _ in range(size))
    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)) +
           chunk(b"IDAT", zlib.compress(rows, 1)) + chunk(b"IEND", b""))
    open(os.path.join(out, "noise%03d.png" % i), "wb").write(png)
PY
}
# Bakes `$1` into `$2` at -j1 in the background and sends signal `$3` once a source has baked;
# exit code in $rc, output in $work/log. --foreground: timeout forwards the signal once. Without
# it, timeout also signals its process group, the baker takes a second signal and, as a second
# Ctrl-C should, dies at once.
signal_mid_bake() {
  set +e
  timeout --foreground 300 "$baker" "$1" -o "$2" -j1 >"$work/log" 2>&1 &
  local pid=$!
  for _ in $(seq 300); do grep -q "baked" "$work/log" && break; sleep 0.05; done
  kill "-$3" "$pid"
  wait "$pid"
  rc=$?
  set -e
}
tree_hash() { (cd "$1" && find . -type f ! -name '.assetlib-cache.json' ! -name '.assetlib-lock' ! -name '.assetlib-journal' -exec sha256sum {} + | sort); }

case $case in
inherited_process)
  make_pngs "$work/src" 300 4
  # Closed standard streams: the first files the baker opens would take descriptors 0-2 and its
  # progress lines land in them (the lock file, the journal, another thread's output).
  set +e
  timeout 300 "$baker" "$work/src" -o "$work/closed" -j2 --force <&- >&- 2>&-
  rc=$?
  set -e
  expect_rc 0
  [ ! -s "$work/closed/.assetlib-lock" ] || fail "the bake wrote into its lock file: $(head -c 200 "$work/closed/.assetlib-lock")"
  check_output "$work/closed"
  # Piped into head: the reader goes after one line, the bake goes on to a consistent folder.
  set +e
  timeout 300 "$baker" "$work/src" -o "$work/piped" -j1 | head -1 >/dev/null
  rc=${PIPESTATUS[0]}
  set -e
  expect_rc 0
  check_output "$work/piped"
  # SIGHUP (a closed terminal) stops the bake as SIGTERM does: exit 129, a consistent folder.
  make_pngs "$work/slow" 150 128
  signal_mid_bake "$work/slow" "$work/hup" HUP
  expect_rc 129
  expect_line "$work/log" "interrupted: [0-9]+ source\(s\) not started"
  check_output "$work/hup"
  ! find "$work/hup" -name '*.assetlib-tmp-*' | grep -q . || fail "temporaries left after SIGHUP"
  # A glTF of 300 materials under a soft limit of 128 open files (outputs are published together).
  mkdir -p "$work/many"
  python3 - "$work/many/many.gltf" <<'PY'
import base64, json, struct, sys
pos = struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0)
json.dump({"asset": {"version": "2.0"},
           "buffers": [{"byteLength": 36, "uri": "data:application/octet-stream;base64," + base64.b64encode(pos).decode()}],
           "bufferViews": [{"buffer": 0, "byteLength": 36}],
           "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                          "min": [0, 0, 0], "max": [1, 1, 0]}],
           "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "material": 0}]}],
           "nodes": [{"mesh": 0}], "scenes": [{"nodes": [0]}], "scene": 0,
           "materials": [{"name": "m%d" % i} for i in range(300)]}, open(sys.argv[1], "w"))
PY
  set +e
  (ulimit -Sn 128 && timeout 300 "$baker" "$work/many" -o "$work/many-out" -q) >"$work/log" 2>&1
  rc=$?
  set -e
  expect_rc 0
  [ "$(find "$work/many-out" -name '*.mat' | wc -l)" = 300 ] || fail "not every material baked"
  ;;
special_destinations)
  make_pngs "$work/src" 2 4
  mkfifo "$work/report.fifo" "$work/pack.fifo" "$work/deps.fifo"
  set +e
  timeout 60 cat "$work/report.fifo" >"$work/report.json" &
  reader=$!
  run "$work/src" -o "$work/out" --json "$work/report.fifo"
  wait "$reader"
  set -e
  expect_rc 0
  [ -p "$work/report.fifo" ] || fail "--json replaced the FIFO with a file"
  python3 -c "import json,sys; assert json.load(open(sys.argv[1]))['baked'] == 2" "$work/report.json" ||
    fail "the report did not arrive through the FIFO"
  # The reader opens the FIFO a moment after the pack starts, as a `cat fifo &` started just
  # before the baker may: the pack waits for it.
  set +e
  (sleep 1 && timeout 60 cat "$work/pack.fifo" >"$work/game.pack") &
  reader=$!
  timeout 60 "$baker" pack "$work/out" -o "$work/pack.fifo" -q >"$work/log" 2>&1
  rc=$?
  wait "$reader"
  set -e
  expect_rc 0
  [ -p "$work/pack.fifo" ] || fail "pack -o replaced the FIFO with a file"
  check_output "$work/game.pack"
  set +e
  timeout 60 cat "$work/deps.fifo" >"$work/deps.d" &
  reader=$!
  timeout 60 "$baker" bake-one "$work/src/noise000.png" --root "$work/src" -o "$work/one" \
    --depfile "$work/deps.fifo" -q >"$work/log" 2>&1
  rc=$?
  wait "$reader"
  set -e
  expect_rc 0
  [ -p "$work/deps.fifo" ] || fail "--depfile replaced the FIFO with a file"
  expect_line "$work/deps.d" "noise000.png"
  # A FIFO nobody ever reads fails within seconds, naming it, and is left a FIFO.
  set +e
  timeout 60 "$baker" pack "$work/out" -o "$work/pack.fifo" -q >"$work/log" 2>&1
  rc=$?
  set -e
  expect_rc 1
  expect_line "$work/log" "pack.fifo: a FIFO that no process opened for reading"
  [ -p "$work/pack.fifo" ] || fail "a failed pack replaced the FIFO"
  # Ctrl-C while it waits ends it at once; a socket (which no open() writes to) fails at once.
  set +e
  "$baker" pack "$work/out" -o "$work/pack.fifo" -q >"$work/log" 2>&1 &
  pid=$!
  sleep 0.5
  start=$(date +%s%N)
  kill -INT "$pid"
  wait "$pid"
  rc=$?
  waited_ms=$(( ($(date +%s%N) - start) / 1000000 ))
  set -e
  expect_rc 130
  [ "$waited_ms" -lt 3000 ] || fail "Ctrl-C took $waited_ms ms to end a pack waiting for a FIFO's reader"
  python3 -c "import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])" "$work/pack.sock"
  start=$(date +%s%N)
  set +e
  timeout 60 "$baker" pack "$work/out" -o "$work/pack.sock" -q >"$work/log" 2>&1
  rc=$?
  set -e
  waited_ms=$(( ($(date +%s%N) - start) / 1000000 ))
  expect_rc 1
  [ "$waited_ms" -lt 3000 ] || fail "a socket destination waited $waited_ms ms as a FIFO would"
  ! grep -q "a FIFO" "$work/log" || { cat "$work/log"; fail "a socket was called a FIFO"; }
  ;;
far_future_mtime)
  mkdir -p "$work/src"
  python3 -c "import sys; open(sys.argv[1], 'wb').write(b'P6 4 4 255\n' + bytes(range(48)))" "$work/src/a.ppm"
  touch -d "2300-01-01" "$work/src/a.ppm"
  run "$work/src" -o "$work/out"
  expect_rc 0
  python3 -c "import sys; p = sys.argv[1]; d = bytearray(open(p, 'rb').read()); d[-48:] = bytes(255 - b for b in d[-48:]); open(p, 'wb').write(d)" "$work/src/a.ppm"
  touch -d "2300-01-01" "$work/src/a.ppm"
  run "$work/src" -o "$work/out"
  expect_rc 0
  expect_line "$work/log" "baked 1, up to date 0"
  ;;
bind_mounted_output)
  if [ "$(id -u)" != 0 ] || ! unshare -m true 2>/dev/null; then
    echo "SKIP: needs root and unshare -m for a private bind mount"
    exit 0
  fi
  make_pngs "$work/src" 2 4
  mkdir -p "$work/mnt/out"
  set +e
  unshare -m bash -c 'mount --bind "$1" "$2" && exec "$3" "$1" -o "$2" -q' _ "$work/src" "$work/mnt/out" "$baker" >"$work/log" 2>&1
  rc=$?
  set -e
  expect_rc 2
  expect_line "$work/log" "is, or holds, the input folder .* under another path"
  [ "$(ls -A "$work/src")" = "$(printf 'noise000.png\nnoise001.png')" ] || fail "the bake wrote into the sources: $(ls -A "$work/src")"
  # The folder holding the input, mounted elsewhere as the output: it holds the input.
  mkdir -p "$work/real/in" "$work/mnt/up"
  make_pngs "$work/real/in" 1 4
  set +e
  unshare -m bash -c 'mount --bind "$1" "$2" && exec "$3" "$4" -o "$2" -q' _ "$work/real" "$work/mnt/up" "$baker" "$work/real/in" >"$work/log" 2>&1
  rc=$?
  set -e
  expect_rc 2
  [ "$(ls -A "$work/real")" = "in" ] || fail "the bake wrote beside the input: $(ls -A "$work/real")"
  ;;
planted_cache)
  make_pngs "$work/src" 2 32
  mkdir -p "$work/out" "$work/abs"
  echo "precious" >"$work/victim.txt"
  echo "precious" >"$work/abs/victim.tx"
  echo "a user's own file, not baked" >"$work/out/notes.tx"
  hash=$(python3 -c "print('xxh3-64:' + '0' * 16)")
  # The planted cache carries this baker's version, else it would be ignored as a whole.
  run "$work/src" -o "$work/probe"
  version=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['baker_version'])" \
            "$work/probe/.assetlib-cache.json")
  # A baked file copied in as "planted.tx": a real asset, which the planted cache may name (with its
  # true hash) and so have removed. It proves the planted cache was read at all.
  cp "$work/probe/noise000.tx" "$work/out/planted.tx"
  python3 - "$work/out" "$work/abs/victim.tx" <<PY
import ctypes, json, os, sys
lib = ctypes.CDLL("libxxhash.so.0")
lib.XXH3_64bits.restype = ctypes.c_uint64
lib.XXH3_64bits.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
def true_hash(path):
    data = open(path, "rb").read()
    return "xxh3-64:%016x" % lib.XXH3_64bits(data, len(data))
out = sys.argv[1]
def entry(path, hash="$hash"):
    return {"kind": "texture", "settings": "{}", "source_hash": "x", "deps": [],
            "outputs": [{"name": path, "path": path, "type": "TEXI", "hash": hash, "size": 9,
                         "mtime_ns": 0, "raw_size": 0}], "warnings": []}
doc = {"baker_version": $version, "stamps": {}, "entries": {
    "gone1.png": entry("../victim.txt"), "gone2.png": entry(sys.argv[2]),
    "gone3.png": entry("notes.tx"), "../gone4.png": entry("../../victim.txt"),
    # The true hash of a user's own file: it is not laid out as an asset, so it stays.
    "gone5.png": entry("notes.tx", true_hash(os.path.join(out, "notes.tx"))),
    "gone6.png": entry("planted.tx", true_hash(os.path.join(out, "planted.tx")))}}
json.dump(doc, open(os.path.join(out, ".assetlib-cache.json"), "w"))
PY
  run "$work/src" -o "$work/out"
  expect_rc 0
  [ -f "$work/victim.txt" ] || fail "deleted ../victim.txt outside the output folder"
  [ -f "$work/abs/victim.tx" ] || fail "deleted an absolute path named by the cache"
  [ -f "$work/out/notes.tx" ] || fail "deleted a file the baker did not write (named with its true hash)"
  [ ! -f "$work/out/planted.tx" ] || fail "the planted cache was not read (its asset entry was not removed)"
  [ "$(grep -ac "^removed " "$work/log")" = 1 ] || { cat "$work/log" >&2; fail "removed another file than planted.tx"; }
  # A file the baker did write, later changed by someone, is left alone too.
  rm "$work/src/noise000.png"
  echo "edited" >>"$work/out/noise001.tx"
  cp "$work/out/noise001.tx" "$work/edited.tx"
  rm "$work/src/noise001.png"
  run "$work/src" -o "$work/out"
  [ -f "$work/out/noise001.tx" ] || fail "deleted an output someone changed since the bake"
  [ ! -f "$work/out/noise000.tx" ] || fail "did not remove the output of a deleted source"
  ;;
symlinked_folder)
  make_pngs "$work/src/textures" 2 16
  make_pngs "$work/src" 1 16
  mkdir -p "$work/out" "$work/elsewhere"
  ln -s ../elsewhere "$work/out/textures"
  run "$work/src" -o "$work/out"
  expect_rc 1
  [ -z "$(ls -A "$work/elsewhere")" ] || fail "wrote through a symlinked folder: $(ls "$work/elsewhere")"
  expect_line "$work/log" "textures/noise000.tx: a folder on the way is a symlink"
  # The output folder's fault, not the sources': a source that fails so keeps its previous outputs.
  expect_line "$work/log" "I/O errors \(the output, not the source\)"
  [ -f "$work/out/noise000.tx" ] || fail "the sources outside the symlinked folder did not bake"
  ;;
symlinked_output)
  make_pngs "$work/src" 1 16
  mkdir -p "$work/elsewhere"
  ln -s "$work/elsewhere" "$work/src-baked"
  run "$work/src"
  expect_rc 2
  expect_line "$work/log" "src-baked: the output folder is a symlink"
  [ -z "$(ls -A "$work/elsewhere")" ] || fail "baked into a symlinked default output folder"
  ;;
second_baker)
  make_pngs "$work/src" 2 16
  run "$work/src" -o "$work/out"
  expect_rc 0
  # The other run: holds the lock and has a temporary in flight.
  echo "in flight" >"$work/out/noise000.tx.assetlib-tmp-99999-0"
  (exec 9>>"$work/out/.assetlib-lock"; flock 9; exec sleep 30) &
  holder=$!
  for _ in $(seq 50); do ! flock -n "$work/out/.assetlib-lock" true 2>/dev/null && break; sleep 0.1; done
  run "$work/src" -o "$work/out" --force
  kill "$holder" 2>/dev/null || true
  wait "$holder" 2>/dev/null || true
  expect_rc 2
  expect_line "$work/log" "another asset-baker is baking into this folder"
  [ -f "$work/out/noise000.tx.assetlib-tmp-99999-0" ] || fail "swept the other run's temporary"
  # Once it is gone, the next bake sweeps the leftover and succeeds.
  run "$work/src" -o "$work/out"
  expect_rc 0
  [ ! -f "$work/out/noise000.tx.assetlib-tmp-99999-0" ] || fail "a stale temporary survived a locked run"
  check_output "$work/out"
  ;;
disk_full)
  make_pngs "$work/src" 3 256
  run "$work/src" -o "$work/out" -j1
  expect_rc 0
  before=$(tree_hash "$work/out")
  # Output files over 64 KiB cannot be written (EFBIG, as a full disk gives ENOSPC); the manifest
  # and the cache are small enough to be. SIGXFSZ is left at its default: the baker must not die.
  set +e
  (ulimit -f 64; exec timeout 300 "$baker" "$work/src" -o "$work/out" -j1 --force) >"$work/log" 2>&1
  rc=$?
  set -e
  expect_rc 1
  expect_line "$work/log" "noise000.tx: writing failed: File too large"
  expect_line "$work/log" "kept the previous noise000.tx"
  [ "$before" = "$(tree_hash "$work/out")" ] || fail "a failed write changed or removed previous outputs"
  check_output "$work/out"
  # The cache cannot be written (a folder stands in its place): reported, exit 1, outputs kept.
  rm "$work/out/.assetlib-cache.json"
  mkdir "$work/out/.assetlib-cache.json"
  run "$work/src" -o "$work/out" -j1
  expect_rc 1
  expect_line "$work/log" "assetlib-cache\.json: renaming into place failed"
  [ "$before" = "$(tree_hash "$work/out")" ] || fail "a failed cache write changed outputs"
  check_output "$work/out"
  ;;
interrupted)
  make_pngs "$work/src" 150 128
  signal_mid_bake "$work/src" "$work/out" INT
  expect_rc 130
  expect_line "$work/log" "interrupted: [0-9]+ source\(s\) not started"
  check_output "$work/out"
  done=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['assets']))" "$work/out/manifest.json")
  [ "$done" -ge 1 ] && [ "$done" -lt 150 ] || fail "$done of 150 in the manifest after the interrupt"
  run "$work/src" -o "$work/out" -j1
  expect_rc 0
  expect_line "$work/log" "baked $((150 - done)), up to date $done,"
  ;;
interrupted_long_job)
  make_pngs "$work/src" 3 16
  run "$work/src" -o "$work/out" -j1
  expect_rc 0
  before=$(tree_hash "$work/out")
  # 16384 x 8192 grey: seconds of block compression, from a small file (a gradient).
  python3 - "$work/src/big.png" <<'PY'
import struct, sys, zlib
w, h = 16384, 8192
def chunk(t, d):
    return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
row = b"\0" + bytes(x * 255 // (w - 1) for x in range(w))
png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0)) +
       chunk(b"IDAT", zlib.compress(row * h, 1)) + chunk(b"IEND", b""))
open(sys.argv[1], "wb").write(png)
PY
  set +e
  timeout --foreground 300 "$baker" "$work/src" -o "$work/out" -j1 >"$work/log" 2>&1 &
  pid=$!
  # The handlers are in place once the configuration line is out; a moment later big.png bakes.
  for _ in $(seq 600); do grep -q "^config:" "$work/log" && break; sleep 0.1; done
  sleep 0.5
  start=$(date +%s.%N)
  kill -INT "$pid"
  wait "$pid"
  rc=$?
  set -e
  elapsed=$(python3 -c "import sys; print(float(sys.argv[2]) - float(sys.argv[1]))" "$start" "$(date +%s.%N)")
  expect_rc 130
  # A second's grace, then the end: writing what is done, and freeing the half-baked image (slow
  # under a sanitizer).
  limit=3.5
  [ -z "${ASSETLIB_SANITIZE:-}" ] || limit=10
  python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) < float(sys.argv[2]) else 1)" "$elapsed" "$limit" ||
    { cat "$work/log"; fail "the interrupted bake took $elapsed s to end"; }
  expect_line "$work/log" "interrupted: [0-9]+ source\(s\) not started or stopped"
  [ ! -e "$work/out/big.tx" ] || fail "the abandoned source wrote its output"
  [ "$before" = "$(tree_hash "$work/out")" ] || fail "the interrupted bake changed previous outputs"
  check_output "$work/out"
  ;;
symlinked_assets)
  make_pngs "$work/src" 2 16
  run "$work/src" -o "$work/out"
  expect_rc 0
  run "$work/src" -o "$work/elsewhere"
  expect_rc 0
  # The same bytes behind the link: the manifest's hash and size still match.
  rm "$work/out/noise000.tx"
  ln -s "$work/elsewhere/noise000.tx" "$work/out/noise000.tx"
  run pack "$work/out" -o "$work/game.pack"
  expect_rc 1
  expect_line "$work/log" "noise000.tx: a symlink \(not followed\); not packed"
  [ ! -e "$work/game.pack" ] || fail "a pack was written from a symlinked asset"
  ln -s stray.tx "$work/out/stray.tx"
  run check "$work/out"
  expect_rc 1
  expect_line "$work/log" "noise000.tx: a symlink \(not followed\)"
  ! grep -q "internal error" "$work/log" || { cat "$work/log"; fail "check stopped at the symlink loop"; }
  run info "$work/out"
  ! grep -q "internal error" "$work/log" || { cat "$work/log"; fail "info stopped at the symlink loop"; }
  expect_line "$work/log" "noise001.tx"
  ;;
baker_names)
  for folder in manifest.json .assetlib-cache.json .assetlib-records; do
    make_pngs "$work/src/$folder" 1 16
  done
  make_pngs "$work/src" 1 16
  # A name of 251 bytes: its output (248) leaves no room for a temporary's suffix within 255.
  long=$(printf 'L%.0s' $(seq 247))
  cp "$work/src/noise000.png" "$work/src/$long.png"
  # Names whose outputs no manifest holds: a drive letter as Windows reads one, a backslash.
  cp "$work/src/noise000.png" "$work/src/c:x.png"
  cp "$work/src/noise000.png" "$work/src/a\\b.png"
  for round in first second; do
    run "$work/src" -o "$work/out"
    expect_rc 1
    for folder in manifest.json .assetlib-cache.json .assetlib-records; do
      expect_line "$work/log" "error: $folder/noise000.png: output $folder/noise000.tx is a name the output folder keeps for the baker's own files"
    done
    expect_line "$work/log" "error: c:x.png: output c:x.tx is no path a manifest can hold"
    expect_line "$work/log" "output a.b.tx is no path a manifest can hold"
    expect_line "$work/log" "baked 2, up to date 0, failed 5|baked 0, up to date 2, failed 5"
    [ -f "$work/out/manifest.json" ] && [ -f "$work/out/.assetlib-cache.json" ] ||
      fail "the $round bake left no manifest or cache file"
    check_output "$work/out"
  done
  grep -q '"noise000.png"' "$work/out/.assetlib-cache.json" || fail "the good source is not in the cache"
  ;;
planted_journal)
  # A FIFO where the journal goes never blocks the bake (opening it for writing would wait for a
  # reader): the outputs fail with an I/O error naming it, the previous ones kept.
  make_pngs "$work/src" 2 16
  run "$work/src" -o "$work/out"
  expect_rc 0
  before=$(tree_hash "$work/out")
  mkfifo "$work/out/.assetlib-journal"
  set +e
  timeout 60 "$baker" "$work/src" -o "$work/out" --force >"$work/log" 2>&1
  rc=$?
  set -e
  [ "$rc" != 124 ] || fail "the bake hung on a FIFO journal"
  expect_rc 1
  expect_line "$work/log" "assetlib-journal: is not a regular file"
  [ "$before" = "$(tree_hash "$work/out")" ] || fail "outputs changed"
  # A journal whose last line a kill cut short: the next note starts on a line of its own.
  rm -f "$work/out/.assetlib-journal"  # the bake removed it once its cache was saved
  printf 'xxh3-64:0123456789abcdef cut-sh' >"$work/out/.assetlib-journal"
  rm "$work/out/.assetlib-cache.json" && mkdir "$work/out/.assetlib-cache.json"  # kept, not removed
  run "$work/src" -o "$work/out" --force
  grep -qE '^xxh3-64:[0-9a-f]{16} noise000.tx$' "$work/out/.assetlib-journal" ||
    { cat "$work/out/.assetlib-journal"; fail "a note was glued onto the cut line"; }
  ;;
overlap)
  make_pngs "$work/project/src" 1 16
  touch "$work/project/src/keep.png.assetlib-tmp-1-2"
  before=$(tree_hash "$work/project")
  run "$work/project/src" -o "$work/project"
  expect_rc 2
  expect_line "$work/log" "the output folder contains the input folder"
  run "$work/project/src" -o "$work/project/src/.."
  expect_rc 2
  run "$work/project/src" -o "$work/project/src"
  expect_rc 2
  expect_line "$work/log" "must differ from the input folder"
  [ "$before" = "$(tree_hash "$work/project")" ] || fail "a refused bake changed the input tree"
  # Output inside the input is fine: it is left out of the walk.
  run "$work/project/src" -o "$work/project/src/baked"
  expect_rc 0
  [ -f "$work/project/src/keep.png.assetlib-tmp-1-2" ] || fail "a source file was taken for a temporary"
  ;;
cli_destinations)
  # Where --pack and pack -o may not write: into the sources, through a symlinked folder planted in
  # the output folder, from a shard's part; an empty name is a usage error.
  make_pngs "$work/src" 2 16
  mkdir -p "$work/outside"
  before=$(tree_hash "$work/src")
  for target in "$work/src/noise000.png" "$work/src/game.pack" "$work/src/sub/game.pack"; do
    run "$work/src" -o "$work/out" --pack "$target"
    expect_rc 2
    expect_line "$work/log" "--pack names a file in the input folder"
  done
  [ "$before" = "$(tree_hash "$work/src")" ] || fail "--pack wrote into the input folder"
  [ ! -e "$work/out" ] || fail "a refused --pack still baked"
  run "$work/src" -o "$work/out" --shard 1/2 --pack "$work/shard.pack"
  expect_rc 2
  expect_line "$work/log" "merge the shards"
  run "$work/src" -o "$work/out"
  expect_rc 0
  ln -s ../outside "$work/out/packs"
  run "$work/src" -o "$work/out" --pack "$work/out/packs/sub/game.pack"
  expect_rc 2
  expect_line "$work/log" "would be written through the symlink .*/out/packs in the baked folder"
  run pack "$work/out" -o "$work/out/packs/game.pack"
  expect_rc 2
  [ -z "$(ls -A "$work/outside")" ] || fail "a pack was written through the planted symlink"
  run pack "$work/out" -o ""
  expect_rc 2
  expect_line "$work/log" "no pack file named"
  run pack "$work/out" -o "$work/out/sub/extra.tx"
  expect_rc 2
  expect_line "$work/log" "inside the baked folder a pack must not be named as an asset \(\.tx\)"
  # A pack in the output folder itself is fine.
  rm "$work/out/packs"
  run "$work/src" -o "$work/out" --pack "$work/out/game.pack"
  expect_rc 0
  # A manifest whose raw_size lies: pack and check both refuse it, naming the file.
  cp -r "$work/out" "$work/lying"
  python3 - "$work/lying/manifest.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["assets"][0]["raw_size"] = 2 ** 62
json.dump(m, open(sys.argv[1], "w"))
PY
  run pack "$work/lying" -o "$work/lying.pack"
  expect_rc 1
  expect_line "$work/log" "unpacked size [0-9]+ differs from the manifest's 4611686018427387904; not packed"
  [ ! -e "$work/lying.pack" ] || fail "a pack was written from a lying manifest"
  run check "$work/lying"
  expect_rc 1
  expect_line "$work/log" "unpacked size [0-9]+ differs from the manifest's 4611686018427387904"
  # export writes PNG only: never over the texture it reads, the manifest or another asset.
  before=$(tree_hash "$work/out")
  for target in "$work/out/noise000.tx" "$work/out/manifest.json" "$work/out/x.PNG.tx"; do
    run export "$work/out/noise000.tx" -o "$target"
    expect_rc 2
    expect_line "$work/log" "-o must name a .png file"
  done
  [ "$before" = "$(tree_hash "$work/out")" ] || fail "export wrote into the baked folder"
  run export "$work/out/noise000.tx" -o "$work/x.PNG"
  expect_rc 0
  run export "$work/out/game.pack" -o "$work/x.png"
  expect_rc 2
  expect_line "$work/log" "game.pack: a pack file: export takes one baked .tx file"
  # Names with control characters reach the terminal escaped, as every other message does.
  esc=$(printf 'out\033]0;owned\007')
  cp -r "$work/out" "$work/$esc"
  for args in "check $work/$esc" "pack $work/$esc -o $work/$esc.pack" \
              "export $work/$esc/noise000.tx -o $work/$esc.png"; do
    set +e
    timeout 60 "$baker" $args >"$work/log" 2>&1
    set -e
    ! grep -q $'\033' "$work/log" || fail "a raw escape reached the terminal: $args"
    grep -q '\\x1b' "$work/log" || { cat "$work/log"; fail "no escaped name printed: $args"; }
  done
  ;;
side_files)
  make_pngs "$work/src" 2 16
  printf 'o m\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n' >"$work/src/m.obj"
  echo '{"level": 1}' >"$work/src/levels.json"
  mkdir -p "$work/victim"
  echo precious >"$work/victim/report.json"
  run "$work/src" -o "$work/out"
  expect_rc 0
  ln -s ../victim "$work/out/evil"
  ln -s ../victim "$work/src/evil"
  before_src=$(tree_hash "$work/src") before_out=$(tree_hash "$work/out")
  # --json: through a planted symlink, or over a user's file in the input folder.
  for target in "$work/out/evil/report.json" "$work/src/evil/report.json"; do
    run "$work/src" -o "$work/out" --json "$target"
    expect_rc 2
    expect_line "$work/log" "--json leads through the symlink .*/evil out of the folder it lies in; not followed"
  done
  run "$work/src" -o "$work/out" --json "$work/src/levels.json"
  expect_rc 2
  expect_line "$work/log" "--json would replace 'levels.json' in the input folder, which is not a bake report"
  # A report of its own in the input folder is written, and replaced by the next bake's.
  run "$work/src" -o "$work/out" --json "$work/src/report.json"
  expect_rc 0
  run "$work/src" -o "$work/out" --json "$work/src/report.json"
  expect_rc 0
  rm "$work/src/report.json"
  # A build edge's stamp and depfile, and the plan folder: never in the input folder, never over
  # what the bake writes.
  for args in "--stamp $work/src/noise001.png" "--depfile $work/src/m.obj" \
    "--stamp $work/out/manifest.json" "--depfile $work/out/.assetlib-cache.json" \
    "--stamp $work/out/noise001.tx" "--stamp $work/out/evil/stamp"; do
    run bake-one "$work/src/noise000.png" --root "$work/src" -o "$work/out" $args
    expect_rc 2
    expect_line "$work/log" "(a file of the input folder's that a bake never modifies|which the bake writes|leads through the symlink)"
  done
  for args in "--stamp $work/src/m.obj" "--depfile $work/src/levels.json"; do
    run plan "$work/src" --plan-dir "$work/plans" $args
    expect_rc 2
    expect_line "$work/log" "(a file of the input folder's that a bake never modifies|which is not a stamp \\(.stamp\\) or depfile \\(.d\\))"
  done
  run plan "$work/src" --plan-dir "$work/src"
  expect_rc 2
  expect_line "$work/log" "--plan-dir names the input folder itself"
  # Named through a symlinked parent (macOS's /tmp), a planted symlink is still seen.
  ln -s "$work" "$work.alias"
  run "$work.alias/src" -o "$work.alias/out" --json "$work.alias/out/evil/report.json"
  rm "$work.alias"
  expect_rc 2
  expect_line "$work/log" "--json leads through the symlink .*/evil out of the folder it lies in"
  # Relative paths into an output folder that does not exist yet (a first build) are held to the
  # same rules.
  set +e
  (cd "$work" && timeout 60 "$baker" bake-one src/noise000.png --root src -o first --stamp first/manifest.json \
    >"$work/log" 2>&1)
  rc=$?
  set -e
  expect_rc 2
  expect_line "$work/log" "which the bake writes"
  [ ! -e "$work/first/manifest.json" ] || fail "a relative stamp was written over the manifest"
  [ "$before_src" = "$(tree_hash "$work/src")" ] || fail "a side file was written into the input folder"
  [ "$before_out" = "$(tree_hash "$work/out")" ] || fail "a side file replaced a file of the output folder"
  [ "$(cat "$work/victim/report.json")" = precious ] || fail "a side file was written through a symlink"
  # Where they belong, they are written: a build folder, also one inside the input folder (cmake
  # -B build in the project), again and again.
  for build in "$work/build" "$work/src/build"; do
    for round in 1 2; do
      run plan "$work/src" -o "$work/out" --plan-dir "$build/plans" --stamp "$build/plan.stamp" --depfile "$build/plan.d"
      expect_rc 0
      run bake-one "$work/src/noise000.png" --root "$work/src" -o "$work/out" --plan-dir "$build/plans" \
        --stamp "$build/a.stamp" --depfile "$build/a.d"
      expect_rc 0
    done
    [ -e "$build/a.stamp" ] && [ -e "$build/a.d" ] && [ -e "$build/plan.stamp" ] ||
      fail "the stamps and depfiles were not written into $build"
  done
  ;;
foreign_files)
  make_pngs "$work/src" 3 16
  mkdir -p "$work/out"
  echo '{"name": "my web app", "start_url": "/"}' >"$work/out/manifest.json"
  echo 'USER DATA' >"$work/out/noise001.tx"
  run "$work/src" -o "$work/out"
  expect_rc 2
  expect_line "$work/log" "out/manifest.json: is not an assetlib manifest, and no bake wrote this folder: not replaced"
  grep -q 'my web app' "$work/out/manifest.json" || fail "a foreign manifest.json was replaced"
  rm "$work/out/manifest.json"
  run "$work/src" -o "$work/out"
  expect_rc 1
  expect_line "$work/log" "noise001.tx: would replace a file that is not a baked asset \\(the baker did not write it\\)"
  [ "$(cat "$work/out/noise001.tx")" = 'USER DATA' ] || fail "a user's file was replaced by a bake"
  [ -e "$work/out/noise000.tx" ] && [ -e "$work/out/noise002.tx" ] || fail "the other sources did not bake"
  # A folder of the user's there is named as such, and kept.
  rm "$work/out/noise001.tx"
  mkdir "$work/out/noise001.tx"
  echo 'USER DATA' >"$work/out/noise001.tx/notes.txt"
  run "$work/src" -o "$work/out"
  expect_rc 1
  expect_line "$work/log" "noise001.tx: a folder is where this output goes"
  [ -f "$work/out/noise001.tx/notes.txt" ] || fail "a user's folder was touched"
  rm -r "$work/out/noise001.tx"
  echo 'USER DATA' >"$work/out/noise001.tx"
  # Moved away, the source bakes; a rebake replaces the baker's own files as ever, damaged ones
  # too (still of the baker's by their type).
  rm "$work/out/noise001.tx"
  run "$work/src" -o "$work/out" --force
  expect_rc 0
  head -c 40 "$work/out/noise002.tx" >"$work/cut" && mv "$work/cut" "$work/out/noise002.tx"
  run "$work/src" -o "$work/out" --force
  expect_rc 0
  check_output "$work/out"
  # merge holds to the same rule.
  run "$work/src" -o "$work/shard" --shard 1/1
  expect_rc 0
  run merge "$work/shard" -o "$work/merged"
  expect_rc 0
  rm "$work/merged/noise001.tx"  # a file of its own: merged files may be links to the shard's
  echo 'USER DATA' >"$work/merged/noise001.tx"
  run merge "$work/shard" -o "$work/merged"
  expect_rc 1
  expect_line "$work/log" "noise001.tx: would replace a file that is not a baked asset"
  [ "$(cat "$work/merged/noise001.tx")" = 'USER DATA' ] || fail "merge replaced a user's file"
  ;;
hijacking_entry)
  make_pngs "$work/src" 2 16
  run "$work/src" -o "$work/out"
  expect_rc 0
  python3 - "$work/out/.assetlib-cache.json" <<'PY'
import json, sys
cache = json.load(open(sys.argv[1]))
entries = cache["entries"]
stolen = dict(entries["noise001.png"]["outputs"][0])
stolen["name"] = "noise000.png"
entries["noise000.png"]["outputs"].append(stolen)
json.dump(cache, open(sys.argv[1], "w"))
PY
  run "$work/src" -o "$work/out"
  expect_rc 0
  expect_line "$work/log" "^baked 1, up to date 1,"
  check_output "$work/out"
  ;;
check_symlinks)
  # check and info read a baked folder without following symlinks: a symlinked folder of assets,
  # a symlinked manifest and an unlisted link are each reported, never read.
  make_pngs "$work/src" 2 16
  run "$work/src" -o "$work/out"
  expect_rc 0
  mkdir -p "$work/outside"
  cp -r "$work/out" "$work/linked"
  mkdir "$work/linked/sub"
  mv "$work/linked/noise000.tx" "$work/outside/"
  ln -s ../../outside/noise000.tx "$work/linked/sub/noise000.tx"
  python3 - "$work/linked/manifest.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
for a in m["assets"]:
    if a["path"] == "noise000.tx":
        a["path"] = "sub/noise000.tx"
json.dump(m, open(sys.argv[1], "w"))
PY
  run check "$work/linked"
  expect_rc 1
  expect_line "$work/log" "sub/noise000.tx: a symlink \(not followed\)"
  run info "$work/linked"
  expect_line "$work/log" "sub/noise000.tx: a symlink \(not followed\)"
  ! grep -qE 'sub/noise000\.tx$' "$work/log" || { cat "$work/log"; fail "info described a symlink"; }
  # The folder on the way is the symlink now.
  rm -r "$work/linked/sub"
  ln -s ../outside "$work/linked/sub"
  run check "$work/linked"
  expect_rc 1
  expect_line "$work/log" "sub/noise000.tx: a symlink or a file on the way to it \(not followed\)"
  expect_line "$work/log" "linked/sub: a symlink \(not followed\)"
  cp "$work/out/manifest.json" "$work/outside/manifest.json"
  rm "$work/linked/sub" "$work/linked/manifest.json"
  ln -s ../outside/manifest.json "$work/linked/manifest.json"
  run check "$work/linked"
  expect_rc 1
  expect_line "$work/log" "manifest.json: a symlink \(not followed\)"
  # info --sources reads no source through a symlink that leaves the sources folder.
  mkdir -p "$work/sources"
  ln -s "$work/src/noise001.png" "$work/sources/noise001.png"
  run info "$work/out/noise001.tx" --sources "$work/sources"
  expect_rc 0
  ! grep -q "PSNR" "$work/log" || { cat "$work/log"; fail "info read a source through a symlink"; }
  run info "$work/out/noise001.tx" --sources "$work/src"
  expect_line "$work/log" "PSNR"
  # A folder nested past PATH_MAX is one problem, and the walk goes on to the rest.
  (mkdir -p "$work/out/zz" && cd "$work/out/zz" &&
    for _ in $(seq 1 600); do mkdir d0123456 && cd d0123456; done)
  echo stray >"$work/out/stray.tx"
  run check "$work/out"
  expect_rc 1
  expect_line "$work/log" "cannot be looked at \(File name too long\)"
  expect_line "$work/log" "stray.tx: asset file not listed in the manifest"
  expect_line "$work/log" ": 2 problem\(s\)"
  rm -rf "$work/out/zz"
  ;;
time_limit)
  make_pngs "$work/src" 12 16
  run "$work/src" -o "$work/out" -j2
  expect_rc 0
  make_pngs "$work/big" 1 2048
  mv "$work/big/noise000.png" "$work/src/big.png"
  # Longest first: a worker is stuck on big.png. Whether the other one gets through the 12 up-to-date
  # sources before the bake stops depends on the machine's load; either way they keep their outputs.
  run "$work/src" -o "$work/out" -j2 --time-limit 0.05
  expect_rc 1
  expect_line "$work/log" "big\.png: still baking after 0\.05 s, the per-file time limit \(--time-limit\)"
  expect_line "$work/log" "stopped at the time limit"
  check_output "$work/out"
  [ ! -e "$work/out/big.tx" ] || fail "the abandoned source wrote its output"
  ! ls "$work/out" | grep -q assetlib-tmp || fail "a temporary was left behind"
  done=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['assets']))" "$work/out/manifest.json")
  [ "$done" = 12 ] || fail "$done of the 12 small sources in the manifest"
  # Without the limit the rerun bakes only what was left.
  run "$work/src" -o "$work/out" -j2
  expect_rc 0
  expect_line "$work/log" "baked 1, up to date 12,"
  before=$(tree_hash "$work/out")
  # A source stopped at the limit keeps its previous output and manifest entry.
  run "$work/src" -o "$work/out" -j1 --force --time-limit 0.05
  expect_rc 1
  expect_line "$work/log" "kept the previous big\.tx"
  [ "$before" = "$(tree_hash "$work/out")" ] || fail "a bake stopped at the time limit changed previous outputs"
  check_output "$work/out"
  run "$work/src" -o "$work/out" --time-limit -1
  expect_rc 2
  # A model the stopped bake never reached keeps its previous outputs, and so does the texture its
  # material names, though that image was deleted meanwhile: removed, the manifest named a
  # texture it did not hold (check failed). The next whole bake removes it.
  mkdir -p "$work/m"
  printf 'mtllib a.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 0 1\nusemtl m\nf 1/1 2/2 3/3\n' >"$work/m/a.obj"
  printf 'newmtl m\nmap_Kd t.ppm\n' >"$work/m/a.mtl"
  python3 -c "import sys; open(sys.argv[1], 'wb').write(b'P6 4 4 255\n' + bytes(range(48)))" "$work/m/t.ppm"
  run "$work/m" -o "$work/m-out"
  expect_rc 0
  rm "$work/m/t.ppm"
  cp "$work/src/big.png" "$work/m/"
  run "$work/m" -o "$work/m-out" -j1 --time-limit 0.05
  expect_rc 1
  check_output "$work/m-out"
  [ -f "$work/m-out/t.tx" ] || fail "the texture a kept material names was removed"
  run "$work/m" -o "$work/m-out"
  expect_rc 0
  [ ! -e "$work/m-out/t.tx" ] || fail "the deleted image's texture outlived the model's rebake"
  check_output "$work/m-out"
  # The texture cleared out of another output's way (t.tx, now the folder of t.tx/u.ppm) by a bake
  # stopped before it rebaked the model: the model goes too (its material named what the manifest
  # no longer held), and the rerun bakes it.
  python3 -c "import sys; open(sys.argv[1], 'wb').write(b'P6 4 4 255\n' + bytes(range(48)))" "$work/m/t.ppm"
  run "$work/m" -o "$work/m-out"
  expect_rc 0
  mkdir "$work/m/t.tx" && mv "$work/m/t.ppm" "$work/m/t.tx/u.ppm"
  run "$work/m" -o "$work/m-out" -j1 --force --time-limit 0.05
  expect_rc 1
  check_output "$work/m-out"
  run "$work/m" -o "$work/m-out"
  expect_rc 0
  [ -f "$work/m-out/a.mesh" ] || fail "the model was not baked again"
  check_output "$work/m-out"
  # bake-one has the same limit: the source fails naming it and keeps its previous output.
  big_before=$(sha256sum "$work/out/big.tx")
  run bake-one "$work/src/big.png" --root "$work/src" -o "$work/out" --force --time-limit 0.05
  expect_rc 1
  expect_line "$work/log" "big\.png: still baking after 0\.05 s, the per-file time limit \(--time-limit\)"
  [ "$big_before" = "$(sha256sum "$work/out/big.tx")" ] || fail "bake-one at the time limit changed big.tx"
  ! ls "$work/out" | grep -q assetlib-tmp || fail "bake-one left a temporary behind"
  run bake-one "$work/src/big.png" --root "$work/src" -o "$work/out" --time-limit -1
  expect_rc 2
  run bake-one "$work/src/big.png" --root "$work/src" -o "$work/out" --force
  expect_rc 0
  # Time the process is stopped (Ctrl-Z, SIGSTOP, docker pause) is not baking: a bake stopped
  # mid-source for longer than the limit still finishes. The limit is set well above what big.png
  # takes with this build on this machine, and the bake stopped for longer than it.
  t0=$(date +%s%N)
  run bake-one "$work/src/big.png" --root "$work/src" -o "$work/out" --force
  expect_rc 0
  limit=$(( ($(date +%s%N) - t0) * 3 / 1000000000 + 1 ))
  set +e
  "$baker" bake-one "$work/src/big.png" --root "$work/src" -o "$work/out" --force \
    --time-limit "$limit" >"$work/log" 2>&1 &
  pid=$!
  # Stopped once its worker thread runs (the source is baking then), not before: that would test
  # nothing.
  for _ in $(seq 500); do [ "$(ls "/proc/$pid/task" 2>/dev/null | wc -l)" -ge 2 ] && break; sleep 0.01; done
  kill -STOP "$pid"
  sleep $((limit + 1))
  kill -CONT "$pid"
  wait "$pid"
  rc=$?
  set -e
  expect_rc 0
  ;;
*) fail "unknown case" ;;
esac
echo "ok [$case]"
