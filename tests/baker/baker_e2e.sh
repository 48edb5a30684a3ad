#!/usr/bin/env bash
# End-to-end tests of the asset-baker binary on a temporary copy of assets/ and on ../shared/corpus.
# Usage: baker_e2e.sh <asset-baker> <assets-dir> <corpus-dir> <case>
set -euo pipefail
export LC_ALL=C  # logs may hold file names that are not UTF-8

baker=$1 assets=$2 corpus=$3 case=$4
work=$(mktemp -d "${TMPDIR:-/tmp}/baker-e2e-$case.XXXXXX")
trap 'rm -rf "$work"' EXIT

fail() { echo "FAIL [$case]: $*" >&2; exit 1; }
expect_line() { grep -aqE "$2" "$1" || { cat "$1" >&2; fail "expected /$2/ in $(basename "$1")"; }; }
count_outputs() { find "$1" -name '*.tx' -o -name '*.mesh' | wc -l; }
fresh_assets() { rm -rf "$work/src"; cp -r "$assets" "$work/src"; }
# Bakes $work/src into $work/out; extra args pass through. Output in $work/log, exit code in $rc.
bake() { set +e; "$baker" "$work/src" -o "$work/out" "$@" >"$work/log" 2>&1; rc=$?; set -e; }
# For a --watch running as $pid with its output in $work/log: waits up to 60 s for the count-th
# line matching <regex> (a sanitizer build on a busy machine is slow), else stops it and fails.
wait_for() {  # wait_for <regex> [count]
  for _ in $(seq 600); do
    [ "$(grep -cE "$1" "$work/log")" -ge "${2:-1}" ] && return 0
    sleep 0.1
  done
  cat "$work/log" >&2; kill "$pid" 2>/dev/null; fail "timed out waiting for /$1/ (${2:-1})"
}
# For the permission cases: fresh assets baked into $work/out, kept as $work/before, by a user
# that permissions stop (nobody when running as root, who reads every file and lists every
# folder). Afterwards run_as bakes the same way (extra args pass through; $rc, $work/log) and
# as_user prefixes a command to run as that user.
first_unprivileged_bake() {
  fresh_assets
  as_user=()
  if [ "$(id -u)" = 0 ]; then
    chmod 755 "$work" && mkdir "$work/out" && chown -R 65534:65534 "$work/src" "$work/out"
    as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
  fi
  run_as() { set +e; "${as_user[@]}" "$baker" "$work/src" -o "$work/out" "$@" >"$work/log" 2>&1; rc=$?; set -e; }
  run_as
  [ "$rc" = 0 ] || { cat "$work/log"; fail "the first bake exited $rc"; }
  cp -r "$work/out" "$work/before"
}
sources_in() { find "$1" -type f \( -iname '*.png' -o -iname '*.obj' \) | wc -l; }

case $case in
cli_basics)
  # --version names the baker, the format it writes and the libraries built in.
  "$baker" --version >"$work/version" || fail "--version must exit 0"
  expect_line "$work/version" "^asset-baker [0-9]+\.[0-9]+\.[0-9]+$"
  expect_line "$work/version" "^writes assetlib format version [0-9]+, cache version [0-9]+$"
  expect_line "$work/version" "stb_image v[0-9.]+, tinyobjloader .*, Draco [0-9.]+, meshoptimizer [0-9.]+, LZ4 [0-9.]+"
  # Every usage error exits 2 (docs/baker.md), whatever CLI11 would return.
  for args in "--bogus" "info" "-j abc $work" "check" "export x.tx" "--time-limit -1 $work" ""; do
    set +e; "$baker" $args >/dev/null 2>&1; code=$?; set -e
    [ "$code" = 2 ] || fail "'asset-baker $args' must exit 2, got $code"
  done
  "$baker" --help >/dev/null || fail "--help must exit 0"
  # A usage error is one line and a hint, not the whole help.
  set +e; "$baker" 2>"$work/usage"; set -e
  [ "$(wc -l <"$work/usage")" = 2 ] || { cat "$work/usage"; fail "no input: expected an error and a hint"; }
  expect_line "$work/usage" "^error: no input folder or file given$"
  expect_line "$work/usage" "--help"
  for args in "--root $work $work" "$work/missing.png"; do
    set +e; "$baker" $args >/dev/null 2>&1; code=$?; set -e
    [ "$code" = 2 ] || fail "'asset-baker $args' must exit 2, got $code"
  done
  ;;
init_and_presets)
  fresh_assets
  (cd "$work/src" && "$baker" init >"$work/log") || fail "init must exit 0"
  expect_line "$work/log" "wrote ./baker.json"
  before=$(sha256sum "$work/src/baker.json")
  set +e; "$baker" init "$work/src" >/dev/null 2>"$work/log"; rc=$?; set -e
  [ "$rc" = 1 ] || fail "a second init must exit 1, got $rc"
  expect_line "$work/log" "already exists; not replaced"
  [ "$(sha256sum "$work/src/baker.json")" = "$before" ] || fail "init replaced a baker.json"
  # The starter file is valid as written and names itself and the preset it used.
  bake --preset release
  [ "$rc" = 0 ] || { cat "$work/log"; fail "bake with the starter config"; }
  expect_line "$work/log" "^config: $work/src/baker.json, preset 'release'$"
  if grep -q "warning: .*baker.json" "$work/log"; then cat "$work/log"; fail "the starter config warned"; fi
  "$baker" --list-presets "$work/src" >"$work/presets"
  expect_line "$work/presets" "^config: $work/src/baker.json$"
  expect_line "$work/presets" '^release  settings: \{"lz4_hc_level":9\}$'
  set +e; "$baker" "$work/src" -o "$work/out" --preset relase >"$work/log" 2>&1; rc=$?; set -e
  [ "$rc" = 2 ] || fail "a misspelt preset must exit 2"
  expect_line "$work/log" "no preset 'relase' \(did you mean 'release'\?\)"
  # No baker.json anywhere: the bake says it used the defaults.
  rm "$work/src/baker.json"
  bake
  expect_line "$work/log" "^config: none, built-in defaults$"
  ;;
config_errors)
  # A bad config stops the bake before any output is touched: exit 2, the outputs as they were.
  fresh_assets
  bake && [ "$rc" = 0 ] || fail "first bake"
  snapshot() { (cd "$work/out" && find . -type f -exec sha256sum {} + | sort); }
  before=$(snapshot)
  printf '{\n  "settings": { "mips": true },\n  "rules": [ { "match": "*.obj", "settings": { "vertex_format": "XYZ" } } ]\n}\n' >"$work/src/baker.json"
  bake
  [ "$rc" = 2 ] || { cat "$work/log"; fail "a bad value in a rule must exit 2, got $rc"; }
  expect_line "$work/log" "rule '\*\.obj': .*vertex_format"
  [ "$(snapshot)" = "$before" ] || fail "a bad rule touched the outputs"
  printf '{\n  "settings": { "mips": true,, }\n}\n' >"$work/src/baker.json"
  bake
  [ "$rc" = 2 ] || fail "a JSON syntax error must exit 2"
  expect_line "$work/log" "invalid JSON at line 2, column 30: .*unexpected ','"
  printf '{ "settings": { "max_size": -5 } }' >"$work/src/baker.json"
  bake
  [ "$rc" = 2 ] && grep -q "max_size" "$work/log" || fail "a negative max_size must exit 2"
  printf '{ "settings": { "lz4_hc_level": 3.9 } }' >"$work/src/baker.json"
  bake
  [ "$rc" = 2 ] && grep -q "lz4_hc_level" "$work/log" || fail "a fractional lz4_hc_level must exit 2"
  printf '{ "settings": { "lod_cuont": 1 } }' >"$work/src/baker.json"
  bake
  expect_line "$work/log" "unknown setting 'lod_cuont' ignored \(did you mean 'lod_count'\?\)"
  [ "$(snapshot | grep -v cache)" != "" ] || fail "outputs vanished"
  ;;
single_file)
  fresh_assets
  bake && [ "$rc" = 0 ] || fail "first bake"
  snapshot() { (cd "$work/out" && find . -type f ! -name '.assetlib-cache.json' ! -name manifest.json -exec sha256sum {} + | sort); }
  before=$(snapshot)
  cp "$work/src/textures/ui/button.png" "$work/src/textures/checker.png"  # another picture
  set +e; "$baker" "$work/src/textures/checker.png" --root "$work/src" -o "$work/out" >"$work/log" 2>&1; rc=$?; set -e
  [ "$rc" = 0 ] || { cat "$work/log"; fail "single-file bake exit $rc"; }
  expect_line "$work/log" "baked 1, up to date 0, failed 0, removed 0, skipped 0 unsupported"
  # Only that file's output changed; every other output and manifest entry is as it was.
  changes=$(diff <(echo "$before") <(snapshot) | grep '^>' || true)
  [ "$(echo "$changes" | wc -l)" = 1 ] || fail "expected exactly one output to change: $changes"
  [[ "$changes" == *" ./textures/checker.tx" ]] || fail "checker.tx did not change: $changes"
  "$baker" check "$work/out" >"$work/check" 2>&1 || { cat "$work/check"; fail "check after a single-file bake"; }
  # The whole bake agrees: nothing more to do.
  bake
  expect_line "$work/log" "baked 0, up to date $(sources_in "$work/src"), failed 0"
  # An output another source writes is refused, whichever comes first in path order.
  cp "$work/src/textures/checker.png" "$work/src/textures/checker.jpg"
  set +e; "$baker" "$work/src/textures/checker.jpg" --root "$work/src" -o "$work/out" >"$work/log" 2>&1; rc=$?; set -e
  [ "$rc" = 1 ] || { cat "$work/log"; fail "a single file taking another source's output must exit 1, got $rc"; }
  expect_line "$work/log" "output textures/checker.tx is already produced by another source"
  rm "$work/src/textures/checker.jpg"
  "$baker" check "$work/out" >"$work/check" 2>&1 || { cat "$work/check"; fail "check after a refused single-file bake"; }
  # Without --root the output is named from the file's own folder.
  set +e; "$baker" "$work/src/textures/ui/button.png" -o "$work/one" >"$work/log" 2>&1; rc=$?; set -e
  [ "$rc" = 0 ] && [ -f "$work/one/button.tx" ] || { cat "$work/log"; fail "single file without --root"; }
  # The source that took an output is deleted, then the other one baked alone: it takes the output,
  # and the deleted source's entry goes (the manifest listed the file twice, check failed).
  mkdir -p "$work/pair"
  cp "$work/src/textures/bricks.png" "$work/pair/a.jpg"  # any image: named .jpg it sorts first
  cp "$work/src/textures/checker.png" "$work/pair/a.png"
  set +e; "$baker" "$work/pair" -o "$work/pair-out" -q >/dev/null 2>&1; set -e
  rm "$work/pair/a.jpg"
  "$baker" "$work/pair/a.png" --root "$work/pair" -o "$work/pair-out" -q || fail "single-file bake of the freed output"
  "$baker" check "$work/pair-out" >"$work/check" 2>&1 || { cat "$work/check"; fail "check after the freed output was baked alone"; }
  ;;
watch)
  fresh_assets
  mkdir "$work/src/wip"
  echo '{"exclude": ["wip", "*.json"]}' >"$work/src/baker.json"
  # A model outside the excluded folder reads its material library there.
  sed 's|^mtllib .*|mtllib ../wip/w.mtl|' "$work/src/models/cube.obj" >"$work/src/models/w.obj"
  printf 'newmtl bricks\nKd 1 1 1\n' >"$work/src/wip/w.mtl"
  # The --json report inside the input folder is written every bake: it must not trigger one.
  "$baker" "$work/src" -o "$work/out" --watch --json "$work/src/report.json" >"$work/log" 2>&1 &
  pid=$!
  # A file saved whole, in one event: a cp stalled past the settle time between creating and
  # closing the file would make two bakes.
  save() { cp "$1" "$work/save.tmp" && mv "$work/save.tmp" "$2"; }
  wait_for "^watching "
  save "$work/src/textures/checker.png" "$work/src/textures/new_albedo.png"
  wait_for "^changed: textures/new_albedo.png$"
  wait_for "baked 1, up to date"
  [ -f "$work/out/textures/new_albedo.tx" ] || fail "the new file was not baked"
  # A source saved in a folder baker.json excludes is no change (inotify reports it before the
  # next one, which alone is listed).
  save "$work/src/textures/checker.png" "$work/src/wip/draft.png"
  rm "$work/src/textures/new_albedo.png"
  wait_for "^changed: textures/new_albedo.png$" 2
  wait_for "removed textures/new_albedo.tx"
  # The material library there is: a model outside reads it.
  printf 'newmtl bricks\nKd 0.2 0.3 0.4\n' >"$work/src/wip/w.mtl"
  wait_for "^changed: wip/w.mtl$"
  wait_for "^baked 1, up to date" 2
  # baker.json itself is watched, whatever it excludes; a source it no longer excludes is a change.
  echo '{"exclude": ["*.json"]}' >"$work/src/baker.json"
  wait_for "^changed: baker.json$"
  wait_for "^baked 1, up to date" 3   # wip/draft.png, no longer excluded
  save "$work/src/textures/bricks.png" "$work/src/wip/draft.png"
  wait_for "^changed: wip/draft.png$"
  wait_for "^baked " 6
  kill -INT "$pid"
  set +e; wait "$pid"; rc=$?; set -e
  [ "$rc" = 130 ] || fail "Ctrl-C must end --watch with 130, got $rc"
  # Its own writes to the output folder never trigger a bake: exactly six bakes ran.
  [ "$(grep -c '^baked ' "$work/log")" = 6 ] || { cat "$work/log"; fail "expected 6 bakes"; }
  # An output folder baker.json moves into the input folder: the watch follows it (its own writes
  # there made a rebake each, for ever).
  rm -rf "$work/src/wip" "$work/src/models/w.obj" "$work/src/report.json"
  echo '{"presets": {"p": {"output": "o1"}}}' >"$work/src/baker.json"
  "$baker" "$work/src" --preset p --watch >"$work/log" 2>&1 &
  pid=$!
  wait_for "^watching "
  echo '{"presets": {"p": {"output": "o2"}}}' >"$work/src/baker.json"
  wait_for "^baked " 2
  sleep 1.5   # a loop rebakes every 200 ms or so
  kill -INT "$pid"
  set +e; wait "$pid"; set -e
  [ "$(grep -c '^baked ' "$work/log")" = 2 ] || { cat "$work/log"; fail "the watch rebaked for its own writes into the moved output folder"; }
  ;;
watch_races)
  # What a watch must not miss: saves during a bake, a bake held up by another baker, more changes
  # than inotify queues, and the baker.json in force above the input folder.
  fresh_assets
  mkdir -p "$work/parent" "$work/out"
  mv "$work/src" "$work/parent/src"
  src="$work/parent/src"
  mkdir "$src/junk"
  echo '{"settings": {"mips": true}}' >"$work/parent/baker.json"
  exec 9>"$work/out/.assetlib-lock"
  flock 9  # another baker holds the output folder
  "$baker" "$src" -o "$work/out" --watch -j2 >"$work/log" 2>&1 &
  pid=$!
  # The first bake waits for the lock (it used to exit 2), and the folder is watched already: a
  # file saved while a bake runs is seen after it (the watch used to start after the first bake).
  wait_for "^waiting for another asset-baker"
  cp "$src/textures/checker.png" "$src/textures/new_albedo.png"
  flock -u 9
  wait_for "^changed: textures/new_albedo.png$"
  wait_for "^baked " 2
  # A rebake held up by another baker waits for it, then bakes the change.
  flock 9
  cp "$src/textures/bricks.png" "$src/textures/new_albedo.png"
  wait_for "^waiting for another asset-baker" 2
  flock -u 9
  wait_for "^baked 1, up to date" 1
  # More changes than the kernel queues while a rebake waits: the tree is watched again, so a
  # folder made meanwhile is watched too.
  flock 9
  : >>"$src/textures/checker.png"
  wait_for "^waiting for another asset-baker" 3
  # Two names in turn: the kernel merges repeats of one event.
  python3 -c "
import sys
for i in range(int(sys.argv[1]) + 1000): open(sys.argv[2] + str(i % 2), 'a').close()" \
    "$(cat /proc/sys/fs/inotify/max_queued_events)" "$src/junk/a"
  mkdir "$src/newdir"
  cp "$src/textures/checker.png" "$src/newdir/img.png"
  flock -u 9
  wait_for "^changed: .*more changes than inotify could queue"
  wait_for "^baked " 5
  cp "$src/textures/bricks.png" "$src/newdir/img.png"
  wait_for "^changed: newdir/img.png$"
  wait_for "^baked 1, up to date" 3
  # The baker.json in force, in the folder above the input.
  echo '{"settings": {"mips": false}}' >"$work/parent/baker.json"
  wait_for "^changed: .*/parent/baker.json$"
  wait_for "^baked " 7
  # Ctrl-C while a bake waits for the lock ends the watch with 130, and no error.
  flock 9
  : >>"$src/textures/checker.png"
  wait_for "^waiting for another asset-baker" 4
  kill -INT "$pid"
  set +e; wait "$pid"; rc=$?; set -e
  flock -u 9
  [ "$rc" = 130 ] || fail "Ctrl-C must end --watch with 130, got $rc"
  ! grep -q "^error" "$work/log" || { cat "$work/log"; fail "Ctrl-C while waiting printed an error"; }
  "$baker" info "$work/out/textures/checker.tx" >"$work/info"
  grep -q " 1 mips" "$work/info" || { cat "$work/log" "$work/info"; fail "baker.json above the input was not applied"; }
  ;;
wrap_rebake)
  # A material that starts clamping its map rebakes the image (its mips filter other edges), and
  # the texture is the one a fresh bake makes.
  mkdir -p "$work/src"
  cp "$assets/textures/bricks.png" "$work/src/wall.png"
  printf 'mtllib m.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 0 1\nusemtl M\nf 1/1 2/2 3/3\n' >"$work/src/m.obj"
  printf 'newmtl M\nmap_Kd wall.png\n' >"$work/src/m.mtl"
  bake
  [ "$rc" = 0 ] || { cat "$work/log"; fail "first bake exit $rc"; }
  tiled=$(sha256sum <"$work/out/wall.tx")
  printf 'newmtl M\nmap_Kd -clamp on wall.png\n' >"$work/src/m.mtl"
  bake
  [ "$rc" = 0 ] || { cat "$work/log"; fail "second bake exit $rc"; }
  expect_line "$work/log" "baked 2, up to date 0"
  [ "$tiled" != "$(sha256sum <"$work/out/wall.tx")" ] || fail "the clamped texture did not change"
  "$baker" "$work/src" -o "$work/fresh" >/dev/null 2>&1
  cmp "$work/out/wall.tx" "$work/fresh/wall.tx" || fail "the rebaked texture differs from a fresh bake"
  ;;
progress_terminal)
  # On a terminal of 60 columns the bar never runs wider and the summary starts on a clean line.
  fresh_assets
  script -qec "stty cols 60; '$baker' '$work/src' -o '$work/out' -j1" /dev/null >"$work/tty" || true
  python3 - "$work/tty" <<'PY'
import re, sys
text = open(sys.argv[1], "rb").read().decode("utf-8", "replace")
frames = [f for f in re.split(r"[\r\n]", text) if f.startswith("\x1b[K[")]
assert frames, "no bar was drawn:\n" + text
for f in frames:
    visible = f[len("\x1b[K"):]
    assert len(visible) < 60, "bar wider than the terminal: %r" % visible
    assert re.match(r"\[[#.]{20}\] \d+/\d+", visible), visible
summary = re.search(r"(^|\n|\x1b\[K)baked \d+, up to date", text)
assert summary, "the summary is glued onto the bar:\n" + text
PY
  ;;
unreadable_inputs)
  # A source or an .mtl that is there but cannot be read (permissions) fails its bake with an I/O
  # error that says so, and the previous outputs stay: nothing bakes untextured without its .mtl.
  first_unprivileged_bake
  chmod 000 "$work/src/models/cube.mtl" "$work/src/textures/checker.png"
  run_as --force  # a mode change keeps the mtime: only a forced bake reads them again
  [ "$rc" = 1 ] || { cat "$work/log"; fail "unreadable inputs must exit 1, got $rc"; }
  expect_line "$work/log" "models/cube.obj: its input models/cube.mtl: is there but cannot be read"
  expect_line "$work/log" "textures/checker.png: is there but cannot be read"
  diff -r -x .assetlib-cache.json "$work/before" "$work/out" >"$work/diff" ||
    { cat "$work/diff"; fail "outputs changed although their inputs could not be read"; }
  "$baker" check "$work/out" >"$work/check" 2>&1 || { cat "$work/check"; fail "check after unreadable inputs"; }
  ;;
exclude)
  # baker.json's exclude: a folder it names is not even listed (one that cannot be listed stops no
  # bake: tested as nobody), its broken sources fail nothing; an excluded file that was baked has
  # its outputs removed; a single-file bake and bake-one of an excluded source bake nothing and
  # succeed; plan, bake-one and collect leave the folder a whole bake leaves.
  fresh_assets
  mkdir -p "$work/src/wip" "$work/src/lost+found"
  printf 'garbage' >"$work/src/wip/broken.png"
  printf 'garbage' >"$work/src/lost+found/x.png"
  bake
  [ "$rc" = 1 ] || { cat "$work/log"; fail "broken sources must fail the bake before they are excluded"; }
  printf '{ "exclude": ["**/wip", "lost+found", "textures/roughness.png"] }\n' >"$work/src/baker.json"
  bake
  [ "$rc" = 0 ] || { cat "$work/log"; fail "a bake with the broken folders excluded exited $rc"; }
  expect_line "$work/log" "removed textures/roughness.tx \(source excluded by baker.json\)"
  [ ! -e "$work/out/textures/roughness.tx" ] || fail "the excluded source's output stayed"
  "$baker" check "$work/out" >/dev/null || fail "check after excluding"
  if [ "$(id -u)" = 0 ]; then
    chmod 755 "$work" && mkdir "$work/nobody" && chown 65534:65534 "$work/nobody"
    chmod 000 "$work/src/lost+found"
    set +e; setpriv --reuid=65534 --regid=65534 --clear-groups "$baker" "$work/src" -o "$work/nobody" -q >"$work/log" 2>&1; rc=$?; set -e
    chmod 755 "$work/src/lost+found"
    [ "$rc" = 0 ] || { cat "$work/log"; fail "an excluded folder that cannot be listed stopped the bake ($rc)"; }
  fi
  set +e; "$baker" "$work/src/wip/broken.png" --root "$work/src" -o "$work/out" >"$work/log" 2>&1; rc=$?; set -e
  [ "$rc" = 0 ] || { cat "$work/log"; fail "a single-file bake of an excluded source exited $rc"; }
  expect_line "$work/log" "wip/broken.png: excluded by baker.json \('\*\*/wip'\); nothing baked"
  # A single-file bake of a source excluded since it was baked removes its outputs, as a whole
  # bake does, and writes its report.
  printf '{ "exclude": ["**/wip", "lost+found", "textures/roughness.png", "textures/gradient_16bit.png"] }\n' >"$work/src/baker.json"
  set +e; "$baker" "$work/src/textures/gradient_16bit.png" --root "$work/src" -o "$work/out" --json "$work/one.json" >"$work/log" 2>&1; rc=$?; set -e
  [ "$rc" = 0 ] || { cat "$work/log"; fail "a single-file bake of a newly excluded source exited $rc"; }
  [ ! -e "$work/out/textures/gradient_16bit.tx" ] || fail "a single-file bake kept the excluded source's output"
  [ -f "$work/one.json" ] || fail "a single-file bake of an excluded source wrote no report"
  "$baker" check "$work/out" >/dev/null || fail "check after a single-file bake of an excluded source"
  # One a material names: removed too, and the material said to name a texture no longer there.
  printf '{ "exclude": ["**/wip", "lost+found", "textures/roughness.png", "textures/gradient_16bit.png", "textures/checker.png"] }\n' >"$work/src/baker.json"
  set +e; "$baker" "$work/src/textures/checker.png" --root "$work/src" -o "$work/out" >"$work/log" 2>&1; rc=$?; set -e
  [ ! -e "$work/out/textures/checker.tx" ] || fail "a single-file bake kept the excluded source's output"
  expect_line "$work/log" "a material names texture 'textures/checker.png' of textures/checker.png, which is not baked"
  bake
  [ "$rc" = 0 ] || { cat "$work/log"; fail "the whole bake after excluding checker.png exited $rc"; }
  # The model's warning says why its texture is gone: excluded, not "not found".
  expect_line "$work/log" "texture 'textures/checker.png' is excluded by baker.json \('textures/checker.png'\); material left untextured"
  "$baker" check "$work/out" >/dev/null || fail "check after the whole bake"
  # A symlinked source is named as the walk names it, whatever its target (here in an excluded
  # folder): the whole bake, bake-one and a single-file bake all bake textures/alias.png.
  cp "$work/src/textures/bricks.png" "$work/src/wip/real.png"
  ln -s ../wip/real.png "$work/src/textures/alias.png"
  "$baker" plan "$work/src" --plan-dir "$work/plan" -o "$work/edges" -q || fail "plan"
  [ -f "$work/plan/wip/broken.png.plan" ] || fail "no plan file for an excluded source (a build declares one)"
  (cd "$work/src" && find . \( -type f -o -type l \) | sed 's|^\./||' | grep -iE '\.(png|obj|gltf)$') >"$work/list"
  while read -r f; do
    "$baker" bake-one "$work/src/$f" --root "$work/src" -o "$work/edges" --plan-dir "$work/plan" -q ||
      fail "bake-one $f"
  done <"$work/list"
  "$baker" collect "$work/src" -o "$work/edges" -q || fail "collect"
  rm -rf "$work/whole"
  "$baker" "$work/src" -o "$work/whole" -q --no-cache || fail "whole bake"
  [ -f "$work/whole/textures/alias.tx" ] || fail "the whole bake did not bake the symlinked source"
  "$baker" "$work/src/textures/alias.png" --root "$work/src" -o "$work/single" -q || fail "single-file bake of the symlink"
  [ -f "$work/single/textures/alias.tx" ] || fail "a single-file bake named the symlinked source by its target"
  diff -r -x .assetlib-cache.json -x .assetlib-records -x .assetlib-lock "$work/whole" "$work/edges" ||
    fail "plan, bake-one and collect differ from a whole bake"
  ;;
unreadable_folders)
  # A folder the walk cannot list (permissions, a lost mount) fails the run, naming it, and the
  # outputs of its sources stay: nothing says those sources are gone. The root too.
  first_unprivileged_bake
  for folder in "$work/src/textures" "$work/src"; do
    # A source deleted meanwhile in a readable folder keeps its outputs too: nothing ran.
    mv "$work/src/models/ground.obj" "$work/ground.obj"
    chmod 000 "$folder"
    run_as
    chmod 755 "$folder"
    mv "$work/ground.obj" "$work/src/models/ground.obj"
    [ "$rc" = 1 ] || { cat "$work/log"; fail "an unreadable folder must exit 1, got $rc"; }
    expect_line "$work/log" "cannot list the folder \\(Permission denied\\): nothing is baked \\(what it holds may change other assets\\), every previous output is kept"
    if grep -q "^removed" "$work/log"; then cat "$work/log"; fail "outputs removed behind an unreadable folder"; fi
    diff -r -x .assetlib-cache.json "$work/before" "$work/out" >"$work/diff" ||
      { cat "$work/diff"; fail "outputs changed behind an unreadable folder"; }
    "$baker" check "$work/out" >"$work/check" 2>&1 || { cat "$work/check"; fail "check after an unreadable folder"; }
  done
  expect_line "$work/log" "error: $work/src: cannot list the folder"
  # bake-one plans from the whole root: with a folder of it unlisted, the source does not bake.
  chmod 000 "$work/src/textures"
  set +e; "${as_user[@]}" "$baker" bake-one "$work/src/models/cube.obj" --root "$work/src" -o "$work/out" \
    --force >"$work/log" 2>&1; rc=$?; set -e
  chmod 755 "$work/src/textures"
  [ "$rc" = 1 ] || { cat "$work/log"; fail "bake-one with an unlisted folder must exit 1, got $rc"; }
  expect_line "$work/log" "textures: cannot list the folder: the root's texture roles are unknown, so the source is not baked"
  # Readable again, the next bake has everything up to date: the entries were carried.
  run_as
  [ "$rc" = 0 ] || { cat "$work/log"; fail "the bake after the folders came back exited $rc"; }
  expect_line "$work/log" "^baked 0, "
  # A FIFO with a source's name is named and fails the run, without blocking on it.
  mkfifo "$work/src/textures/pipe.png"
  set +e; timeout 60 "$baker" "$work/src" -o "$work/out" >"$work/log" 2>&1; rc=$?; set -e
  [ "$rc" = 1 ] || { cat "$work/log"; fail "a FIFO source must exit 1, got $rc"; }
  expect_line "$work/log" "textures/pipe.png: not a regular file \\(a FIFO, socket or device\\); not read"
  ;;
default_output)
  # The default output goes beside the input as named: through a symlinked folder, beside the
  # symlink (where the user looks), not beside its target.
  mkdir -p "$work/real/deep"
  cp -r "$assets" "$work/real/deep/assets"
  ln -s real/deep/assets "$work/alias"
  for spelling in alias alias/ ./alias/.; do
    (cd "$work" && "$baker" "$spelling" -q) || fail "baking '$spelling' failed"
    [ -f "$work/alias-baked/manifest.json" ] || fail "'$spelling' did not bake into alias-baked"
    [ ! -e "$work/real/deep/assets-baked" ] || fail "'$spelling' baked beside the symlink's target"
  done
  ;;
output_inside_input)
  # An output folder inside the input is left out of the walk; sources in it are named, not lost
  # without a word.
  fresh_assets
  set +e; "$baker" "$work/src" -o "$work/src/textures" >"$work/log" 2>&1; rc=$?; set -e
  [ "$rc" = 0 ] || { cat "$work/log"; fail "baking into a folder of the input exited $rc"; }
  expect_line "$work/log" "warning: 7 source file\\(s\\) inside the output folder textures are not baked \\(first: textures/"
  ;;
json_report)
  # The report has exactly the fields docs/baker.md lists, with the types it gives.
  fresh_assets
  printf 'not a png' >"$work/src/textures/broken.png"
  bake --json "$work/report.json"
  [ "$rc" = 1 ] || fail "a broken file must exit 1"
  python3 - "$work/report.json" "$assets/../docs/baker.md" <<'PY'
import json, re, sys
report = json.load(open(sys.argv[1]))
docs = open(sys.argv[2]).read()
section = docs[docs.index("### JSON report"):]
section = section[:section.index("\n## ")]
tables = re.findall(r"((?:^\|.*\n)+)", section, re.M)
def keys(table):
    return {m.group(1): m.group(2) for m in re.finditer(r"^\| `(\w+)` \| ([^|]+) \|", table, re.M)}
top, per_file = keys(tables[0]), keys(tables[1])
types = {"number": (int, float), "string": str, "array": list, "array of strings": list,
         "boolean": bool}
assert set(report) == set(top), (set(report) ^ set(top))
for k, t in top.items():
    assert isinstance(report[k], types[t.strip()]), (k, t)
assert report["schema_version"] == 1
for f in report["files"]:
    assert set(f) == set(per_file), (set(f) ^ set(per_file))
    for k, t in per_file.items():
        assert isinstance(f[k], types[t.strip()]), (k, t)
broken = [f for f in report["files"] if f["source"] == "textures/broken.png"][0]
assert broken["status"] == "failed" and broken["code"] != "Ok" and "broken.png" in broken["message"]
assert report["failed"] == 1 and report["baked"] == len(report["files"]) - 1
PY
  # A report over a source, baker.json, the manifest or an asset is refused before anything is
  # written (exit 2); a .json file of its own in either folder is fine.
  rm "$work/src/textures/broken.png"
  bake
  cp "$work/src/textures/checker.png" "$work/checker.png.orig"
  echo '{}' >"$work/src/baker.json"
  for target in "$work/src/textures/checker.png" "$work/src/baker.json" "$work/out/manifest.json" \
    "$work/out/textures/checker.tx" "$work/out"; do
    bake --json "$target"
    [ "$rc" = 2 ] || { cat "$work/log"; fail "--json $target must be refused with exit 2, got $rc"; }
    expect_line "$work/log" "must name a .json file of its own"
  done
  cmp -s "$work/src/textures/checker.png" "$work/checker.png.orig" || fail "--json overwrote a source"
  [ "$(cat "$work/src/baker.json")" = '{}' ] || fail "--json overwrote baker.json"
  "$baker" check "$work/out" >"$work/check" 2>&1 || { cat "$work/check"; fail "--json damaged the output"; }
  bake --json "$work/out/report.json"
  [ "$rc" = 0 ] || { cat "$work/log"; fail "a report of its own in the output folder, got $rc"; }
  "$baker" check "$work/out" >"$work/check" 2>&1 || { cat "$work/check"; fail "check after a report in the output folder"; }
  ;;
full_bake)
  fresh_assets
  bake -j2
  [ "$rc" = 0 ] || { cat "$work/log"; fail "exit $rc"; }
  n=$(sources_in "$work/src")
  [ "$(count_outputs "$work/out")" = "$n" ] || fail "expected $n outputs"
  [ -f "$work/out/models/cube.mesh" ] && [ -f "$work/out/textures/ui/button.tx" ] || fail "mirrored paths missing"
  expect_line "$work/log" "baked $n, up to date 0, failed 0"
  # Skipped: the README alone; the .mtl files are read with their models.
  expect_line "$work/log" "skipped 1 unsupported files"
  "$baker" check "$work/out" >"$work/check" 2>&1 || { cat "$work/check"; fail "check failed"; }
  "$baker" info "$work/out" >"$work/info"
  expect_line "$work/info" "texture BC1_RGB_SRGB 256x256, 9 mips"
  expect_line "$work/info" "texture BC5_UNORM 256x256"
  expect_line "$work/info" "texture BC3_SRGB 128x128"
  "$baker" export "$work/out/textures/bricks_n.tx" -o "$work/n.png" --mip 2 >/dev/null
  python3 -c "import sys; d=open(sys.argv[1],'rb').read(); assert d[:8]==b'\\x89PNG\\r\\n\\x1a\\n' and int.from_bytes(d[16:20],'big')==64" "$work/n.png"
  expect_line "$work/info" "mesh PNCVT_OCT, .* 3 submeshes"
  "$baker" info --json "$work/out" >"$work/info.json"
  # Every manifest entry is a file info describes: textures, meshes, and the meshes' materials.
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); m=json.load(open(sys.argv[2])); assert d['totals']['files']==len(m['assets']) and sum(a['type']=='MATL' for a in m['assets'])==6" "$work/info.json" "$work/out/manifest.json"
  ;;
noop_rebuild)
  fresh_assets
  bake && [ "$rc" = 0 ] || fail "first bake"
  before=$(cd "$work/out" && find . -type f ! -name '.assetlib-cache.json' -exec sha256sum {} + | sort)
  # Past the racy window of the first bake's outputs (kRacyWindowNs): the second bake records them
  # as trusted, and a third then finds nothing to record and writes nothing, not even the cache.
  sleep 2.1
  bake
  n=$(sources_in "$work/src")
  expect_line "$work/log" "baked 0, up to date $n, failed 0"
  after=$(cd "$work/out" && find . -type f ! -name '.assetlib-cache.json' -exec sha256sum {} + | sort)
  [ "$before" = "$after" ] || fail "a no-op rebuild changed outputs"
  written=$(stat -c '%i %y' "$work/out/.assetlib-cache.json" "$work/out/manifest.json")
  bake
  expect_line "$work/log" "baked 0, up to date $n, failed 0"
  [ "$written" = "$(stat -c '%i %y' "$work/out/.assetlib-cache.json" "$work/out/manifest.json")" ] ||
    fail "a no-op rebuild rewrote the cache or the manifest"
  # Beside bake-one records the cache is written all the same: its new start is what tells collect
  # that the records are older than this whole bake.
  cache_written=$(stat -c '%i %y' "$work/out/.assetlib-cache.json")
  mkdir "$work/out/.assetlib-records"
  bake
  expect_line "$work/log" "baked 0, up to date $n, failed 0"
  [ "$cache_written" != "$(stat -c '%i %y' "$work/out/.assetlib-cache.json")" ] ||
    fail "a no-op rebuild beside bake-one records kept the cache's old start"
  bake --force --verify
  expect_line "$work/log" "baked $n, up to date 0"
  ;;
edit_one_file)
  fresh_assets
  bake && [ "$rc" = 0 ] || fail "first bake"
  touch "$work/src/textures/checker.png"   # same bytes: nothing to do
  bake
  expect_line "$work/log" "baked 0, "
  sed -i 's/^Kd .*/Kd 0.2 0.4 0.6/' "$work/src/models/ground.mtl"   # the .mtl is a dependency
  bake
  expect_line "$work/log" "baked 1, "
  expect_line "$work/log" "baked models/ground.obj"
  printf '\n# edited\n' >>"$work/src/models/cube.obj"
  bake
  expect_line "$work/log" "baked 1, "
  expect_line "$work/log" "baked models/cube.obj"
  ;;
config_rules)
  fresh_assets
  bake && [ "$rc" = 0 ] || fail "first bake"
  cat >"$work/src/baker.json" <<'JSON'
{ "settings": { "compression": "LZ4" },
  "rules": [ { "match": "textures/ui/**", "settings": { "mips": false } },
             { "match": "*.obj", "settings": { "vertex_format": "P32N8C8V16", "meshlets": true, "lod_count": 2 } } ],
  "presets": { "release": { "settings": { "lz4_hc_level": 9 }, "output": "release-out" } },
  "surprise": 1 }
JSON
  # Restating the default compression rebakes nothing; the ui rule touches button.png and the
  # obj rule the 4 meshes: exactly those 5 rebake.
  bake
  expect_line "$work/log" "unknown key 'surprise'"
  expect_line "$work/log" "baked 5, up to date 6"
  expect_line "$work/log" "baked textures/ui/button.png"
  "$baker" info "$work/out/models/sphere_smooth.mesh" >"$work/info"
  expect_line "$work/info" "mesh P32N8C8V16, .* 2 LODs, [0-9]+ meshlets"
  "$baker" check "$work/out" >/dev/null || fail "check after a bake with meshlets and LODs"
  set +e; "$baker" "$work/src" --preset release >"$work/log" 2>&1; rc=$?; set -e
  [ "$rc" = 0 ] || { cat "$work/log"; fail "preset bake"; }
  [ -f "$work/src/release-out/manifest.json" ] || fail "preset output folder not used"
  set +e; "$baker" "$work/src" -o "$work/out" --preset nope >"$work/log" 2>&1; rc=$?; set -e
  [ "$rc" = 2 ] || fail "unknown preset should exit 2"
  expect_line "$work/log" "no preset 'nope' \(known: release\)"
  ;;
delete_source)
  fresh_assets
  bake && [ "$rc" = 0 ] || fail "first bake"
  rm "$work/src/textures/leaf_alpha.png"
  bake
  [ "$rc" = 0 ] || { cat "$work/log"; fail "exit $rc"; }
  expect_line "$work/log" "removed textures/leaf_alpha.tx \(source deleted\)"
  [ ! -e "$work/out/textures/leaf_alpha.tx" ] || fail "stale output kept"
  expect_line "$work/log" "texture 'textures/leaf_alpha.png' not found"   # the mesh using it rebaked
  "$baker" check "$work/out" || fail "check after delete"
  # A folder of sources deleted: its output folder goes too, as a fresh bake would not have it.
  rm -r "$work/src/textures/ui"
  bake
  [ "$rc" = 0 ] || { cat "$work/log"; fail "exit $rc after deleting a folder"; }
  [ ! -e "$work/out/textures/ui" ] || fail "the emptied output folder textures/ui stayed"
  [ -d "$work/out/textures" ] || fail "a folder still holding outputs was removed"
  # An output edited since it was baked (another tool touched it) is left in place when its source
  # goes, and said so: check reports it as not listed, and the bake says why.
  printf 'X' | dd of="$work/out/textures/bricks.tx" bs=1 seek=100 conv=notrunc 2>/dev/null
  rm "$work/src/textures/bricks.png"
  bake
  [ "$rc" = 0 ] || { cat "$work/log"; fail "exit $rc after deleting the source of an edited output"; }
  [ -e "$work/out/textures/bricks.tx" ] || fail "an edited output was deleted"
  expect_line "$work/log" "warning: textures/bricks.tx: no source makes it any more, but it no longer holds what the baker wrote"
  # A source deleted while a new one needs a folder where its output file was (checker.png made
  # textures/checker.tx; textures/checker.tx/c.png needs that folder), and the other way round: the
  # stale output goes before the jobs run, so the bake succeeds as a clean bake of the tree would
  # (it failed once, then healed on the next bake). The way back is a single-file bake, which
  # carries other sources' entries over: not the deleted one's.
  rm "$work/out/textures/bricks.tx"   # as the warning above asks
  mkdir "$work/src/textures/checker.tx"
  mv "$work/src/textures/checker.png" "$work/src/textures/checker.tx/c.png"
  cp "$work/out/.assetlib-cache.json" "$work/cache-before"
  bake
  [ "$rc" = 0 ] || { cat "$work/log"; fail "exit $rc when a new source needs a deleted one's output file as its folder"; }
  expect_line "$work/log" "removed textures/checker.tx \(no source makes it any more, and an output of this bake goes there\)"
  [ -f "$work/out/textures/checker.tx/c.tx" ] || fail "the source needing the folder did not bake"
  "$baker" check "$work/out" || fail "check after a file gave way to a folder"
  # As if that bake had been killed before writing its cache: the next one finds checker.tx, which
  # the old cache lists as a file, a folder now. Not an output "edited since": nothing to warn of.
  cp "$work/cache-before" "$work/out/.assetlib-cache.json"
  bake
  [ "$rc" = 0 ] || { cat "$work/log"; fail "exit $rc after a killed bake that cleared the way"; }
  ! grep -q "checker.tx: no source makes it any more" "$work/log" ||
    { cat "$work/log"; fail "a false warning of an edited output where another output took the place"; }
  "$baker" check "$work/out" || fail "check after the rerun of a killed bake that cleared the way"
  # The same when the output in the way is one its source, still there, no longer makes (a normal
  # map role the material dropped), or lies where a model's parts folder now is.
  p=$work/p
  mkdir -p "$p/models" "$p/textures" "$p/m/cube.obj.parts/0.mat"
  cp "$assets/models/cube.obj" "$p/models/"
  cp "$assets/textures/bricks.png" "$assets/textures/checker.png" "$p/textures/"
  cp "$assets/textures/checker.png" "$p/m/cube.obj.parts/0.mat/x.png"
  printf 'newmtl bricks\nmap_Kd ../textures/bricks.png\nnorm ../textures/checker.png\n' >"$p/models/cube.mtl"
  "$baker" "$p" -o "$work/p-out" -q || fail "first bake of the role and parts tree"
  [ -f "$work/p-out/textures/checker.normal.tx" ] || fail "no normal map role: the case tests nothing"
  printf 'newmtl bricks\nmap_Kd ../textures/bricks.png\n' >"$p/models/cube.mtl"
  mkdir "$p/textures/checker.normal.tx"
  cp "$assets/textures/roughness.png" "$p/textures/checker.normal.tx/r.png"
  rm -r "$p/m/cube.obj.parts"
  cp "$assets/models/cube.obj" "$assets/models/cube.mtl" "$p/m/"
  set +e; "$baker" "$p" -o "$work/p-out" >"$work/log" 2>&1; rc=$?; set -e
  [ "$rc" = 0 ] || { cat "$work/log"; fail "exit $rc when a dropped role's output or a deleted source's folder stood in the way"; }
  "$baker" "$p" -o "$work/p-clean" -q || fail "clean bake of the role and parts tree"
  diff -r -x '.assetlib*' "$work/p-out" "$work/p-clean" || fail "the incremental bake differs from a clean one"
  # A single-file bake removes the one output in its way, of a source still there, and carries the
  # rest of that source's entry (it removed all of it, as if the source were deleted).
  q=$work/q
  mkdir -p "$q"
  cp "$assets/textures/checker.png" "$q/a.png"
  cp "$assets/models/cube.obj" "$q/m.obj"
  printf 'newmtl bricks\nmap_Kd a.png\nmap_Bump a.png\n' >"$q/cube.mtl"
  "$baker" "$q" -o "$work/q-out" -q || fail "first bake of the single-file tree"
  printf 'newmtl bricks\nmap_Bump a.png\n' >"$q/cube.mtl"
  mkdir "$q/a.tx"
  cp "$assets/textures/roughness.png" "$q/a.tx/b.png"
  set +e; "$baker" "$q/a.tx/b.png" --root "$q" -o "$work/q-out" >"$work/log" 2>&1; rc=$?; set -e
  [ "$rc" = 0 ] || { cat "$work/log"; fail "exit $rc when a single-file bake found another source's output in its way"; }
  [ -f "$work/q-out/a.tx/b.tx" ] && [ -f "$work/q-out/a.normal.tx" ] || fail "the single-file bake removed more than what stood in its way"
  grep -q '"name": "a.png#normal"' "$work/q-out/manifest.json" || fail "the carried entry lost an output that stayed"
  # Empty folders (a failed bake-one's parts folder) go with the next whole bake; hidden ones stay.
  mkdir -p "$work/q-out/gone.obj.parts/x" "$work/q-out/.git/refs/tags"
  "$baker" "$q" -o "$work/q-out" -q || fail "the whole bake after the single-file one"
  [ ! -e "$work/q-out/gone.obj.parts" ] || fail "an empty folder outlived a whole bake"
  [ -d "$work/q-out/.git/refs/tags" ] || fail "an empty folder in a hidden one was removed"
  rm -r "$work/q-out/.git"
  "$baker" "$q" -o "$work/q-clean" -q || fail "clean bake of the single-file tree"
  diff -r -x '.assetlib*' "$work/q-out" "$work/q-clean" || fail "the bakes after the single-file one differ from a clean one"
  mv "$work/src/textures/checker.tx/c.png" "$work/src/textures/checker.png"
  rmdir "$work/src/textures/checker.tx"
  set +e   # the way back as a single-file bake, which carries other entries over
  "$baker" "$work/src/textures/checker.png" --root "$work/src" -o "$work/out" >"$work/log" 2>&1
  rc=$?
  set -e
  [ "$rc" = 0 ] || { cat "$work/log"; fail "exit $rc when a new source needs a deleted one's output folder as its file"; }
  expect_line "$work/log" "removed textures/checker.tx/c.tx \(no source makes it any more, and an output of this bake goes there\)"
  [ -f "$work/out/textures/checker.tx" ] || fail "the source needing the file did not bake"
  "$baker" check "$work/out" || fail "check after a folder gave way to a file"
  ;;
broken_files)
  fresh_assets
  cp "$corpus/stb/tests/pngsuite/corrupt/xcrn0g04.png" "$work/src/textures/"
  cp "$corpus/libpng/contrib/testpngs/crashers/huge_IDAT.png" "$work/src/textures/"
  cp "$corpus/tinyobjloader/models/invalid-relative-vertex-index.obj" "$work/src/models/"
  cp "$corpus/tinyobjloader/models/line-prim.obj" "$work/src/models/"
  printf 'garbage' >"$work/src/textures/zero.jpg"
  cp "$work/src/textures/checker.png" "$work/src/textures/latin1-$(printf '\xe9').png"
  cp "$work/src/textures/checker.png" "$work/src/textures/checker.tga"   # same output as checker.png
  bake -j2
  [ "$rc" = 1 ] || fail "broken files must give exit 1, got $rc"
  expect_line "$work/log" "error: textures/xcrn0g04.png: "
  expect_line "$work/log" "error: textures/huge_IDAT.png: "
  expect_line "$work/log" "error: models/invalid-relative-vertex-index.obj: .*position"
  expect_line "$work/log" "error: models/line-prim.obj: no triangles"
  expect_line "$work/log" "error: textures/zero.jpg: "
  expect_line "$work/log" "error: textures/latin1-.*png: file name is not valid UTF-8"
  expect_line "$work/log" "error: textures/checker.tga: output textures/checker.tx is already produced"
  n=$(( $(sources_in "$work/src") - 5 ))   # zero.jpg and checker.tga are not counted by sources_in
  expect_line "$work/log" "baked $n, up to date 0, failed 7"
  # The log ends with every failure once, grouped by kind, one line each.
  sed -n '/^7 failed:$/,$p' "$work/log" >"$work/summary"
  [ "$(grep -c '^    ' "$work/summary")" = 7 ] || { cat "$work/log"; fail "the closing list must hold the 7 failures"; }
  expect_line "$work/summary" "^  refused paths \(2\):$"
  expect_line "$work/summary" "^    models/line-prim.obj: no triangles"
  [ "$(tail -n 1 "$work/log" | cut -c1-4)" = "    " ] || fail "the failure list must end the log"
  [ -f "$work/out/models/cube.mesh" ] || fail "good files not baked"
  "$baker" check "$work/out" || fail "check after partial failure"
  ;;
failed_texture)
  # An image that fails to bake while models name it: they are baked again with that slot
  # untextured, so that the folder passes check (the bake still fails on the image); while the
  # image stays broken they are up to date; once it is fixed they name its texture again.
  fresh_assets
  head -c 40 "$assets/textures/bricks.png" >"$work/src/textures/bricks.png"   # a PNG cut short
  printf 'not an image' >"$work/src/models/bad.png"
  python3 - "$work/src/models/uses_bad.gltf" <<'PY'
import base64, json, struct, sys
tri = struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0) + struct.pack("<6f", 0, 0, 1, 0, 0, 1)
uri = "data:application/octet-stream;base64," + base64.b64encode(tri).decode()
json.dump({"asset": {"version": "2.0"}, "buffers": [{"byteLength": len(tri), "uri": uri}],
           "bufferViews": [{"buffer": 0, "byteLength": 36}, {"buffer": 0, "byteOffset": 36, "byteLength": 24}],
           "accessors": [{"bufferView": 0, "componentType": 5126, "type": "VEC3", "count": 3},
                         {"bufferView": 1, "componentType": 5126, "type": "VEC2", "count": 3}],
           "images": [{"uri": "bad.png"}], "textures": [{"source": 0}],
           "materials": [{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}],
           "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "TEXCOORD_0": 1}, "material": 0}]}],
           "nodes": [{"mesh": 0}], "scenes": [{"nodes": [0]}]}, open(sys.argv[1], "w"))
PY
  bake -j2
  [ "$rc" = 1 ] || { cat "$work/log"; fail "a broken image must fail the bake, exit $rc"; }
  expect_line "$work/log" "error: textures/bricks.png: "
  expect_line "$work/log" "warning: models/cube.obj: texture 'textures/bricks.png' failed to bake; material left untextured"
  expect_line "$work/log" "warning: models/uses_bad.gltf: .*images\[0\] 'models/bad.png' failed to bake; slot left untextured"
  "$baker" check "$work/out" >"$work/check" 2>&1 || { cat "$work/check"; fail "a material names a texture that failed"; }
  # With a shared cache: the model the first pass stored (naming the texture) is not restored in
  # the second, in a folder of its own or in a fresh one filled from the cache.
  for round in 1 2; do
    rm -rf "$work/out-shared"
    set +e; "$baker" "$work/src" -o "$work/out-shared" --cache-dir "$work/shared-cache" -j2 >"$work/log" 2>&1; rc=$?; set -e
    [ "$rc" = 1 ] || { cat "$work/log"; fail "shared cache round $round: exit $rc"; }
    "$baker" check "$work/out-shared" >"$work/check" 2>&1 || { cat "$work/check"; fail "shared cache round $round: a material names a texture that failed"; }
  done
  bake -j2
  [ "$rc" = 1 ] || fail "the image still fails, exit $rc"
  ! grep -q "baked models/" "$work/log" || { cat "$work/log"; fail "a model was baked again while its image stays broken"; }
  "$baker" check "$work/out" >"$work/check" 2>&1 || { cat "$work/check"; fail "check after the rerun"; }
  cp "$assets/textures/bricks.png" "$work/src/textures/bricks.png"
  cp "$assets/textures/checker.png" "$work/src/models/bad.png"
  bake -j2
  [ "$rc" = 0 ] || { cat "$work/log"; fail "exit $rc once the images are fixed"; }
  expect_line "$work/log" "baked models/cube.obj"
  expect_line "$work/log" "baked models/uses_bad.gltf"
  "$baker" check "$work/out" >"$work/check" 2>&1 || { cat "$work/check"; fail "check once fixed"; }
  base_colour() {  # the base colour texture a baked material names
    python3 -c 'import json, struct, sys; b = open(sys.argv[1], "rb").read(); n = struct.unpack("<I", b[8:12])[0]; print(json.loads(b[16:16 + n])["base_color_texture"]["texture"])' "$1"
  }
  [ "$(base_colour "$work/out/models/cube.obj.parts/0.mat")" = textures/bricks.png ] || fail "cube.obj's material names no bricks texture once fixed"
  [ "$(base_colour "$work/out/models/uses_bad.gltf.parts/0.mat")" = models/bad.png ] || fail "the glTF's material names no texture once fixed"
  ;;
path_safety)
  fresh_assets
  mkdir -p "$work/outside"
  printf 'newmtl evil\nKd 1 0 0\nmap_Kd /etc/hostname\n' >"$work/outside/evil.mtl"
  printf 'mtllib ../../outside/evil.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n' >"$work/src/models/escape.obj"
  printf 'mtllib local.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl m\nf 1 2 3\n' >"$work/src/models/abs.obj"
  printf 'newmtl m\nmap_Kd /etc/hostname\nnorm ../../../x.png\n' >"$work/src/models/local.mtl"
  cp "$work/src/textures/checker.png" "$work/outside/secret.png"
  ln -s "$work/outside/secret.png" "$work/src/textures/link.png"
  ln -s "$work/outside" "$work/src/linkdir"
  cp "$work/src/textures/checker.png" "$work/src/textures/Checker.png"  # one file on Windows/macOS
  bake
  [ "$rc" = 0 ] || { cat "$work/log"; fail "exit $rc"; }
  expect_line "$work/log" "^warning: textures/checker.png: output textures/checker.tx differs from textures/Checker.tx \(of textures/Checker.png\) only by case"
  [ -f "$work/out/textures/Checker.tx" ] && [ -f "$work/out/textures/checker.tx" ] || fail "both case variants must bake here"
  expect_line "$work/log" "models/escape.obj: mtllib path '../../outside/evil.mtl' leaves the input folder"
  expect_line "$work/log" "models/abs.obj: texture absolute path '/etc/hostname' refused"
  expect_line "$work/log" "models/abs.obj: texture path '../../../x.png' leaves the input folder"
  expect_line "$work/log" "textures/link.png: symlink leads outside the input folder"
  [ ! -e "$work/out/textures/link.tx" ] && [ ! -e "$work/out/linkdir" ] || fail "followed a symlink out of the root"
  # Strict CI: the same warnings make the exit code 1, and nothing else changes; the sources are
  # up to date now, and their cached warnings still count.
  bake --warnings-as-errors
  [ "$rc" = 1 ] || { cat "$work/log"; fail "--warnings-as-errors must exit 1 on warnings, got $rc"; }
  expect_line "$work/log" "^warning: models/abs.obj: texture path '../../../x.png' leaves the input folder"
  expect_line "$work/log" "baked 0, "
  expect_line "$work/log" "^[0-9]+ warning\(s\) treated as errors \(--warnings-as-errors\)$"
  expect_line "$work/log" ", failed 0, "
  ;;
determinism)
  fresh_assets
  cp -r "$corpus/tinyobjloader/models" "$work/src/tinyobj"
  cp -r "$corpus/bevy/assets/textures/rpg" "$work/src/rpg"
  "$baker" "$work/src" -o "$work/j1" -j1 -q || true
  "$baker" "$work/src" -o "$work/j4" -j4 -q || true
  # The cache records file times, so it is the one file that may differ between two runs.
  diff -r -x .assetlib-cache.json "$work/j1" "$work/j4" || fail "-j1 and -j4 outputs differ"
  # One source's output file is a folder another's output needs (textures/bricks.png makes
  # textures/bricks.tx; textures/bricks.tx/x.png needs that folder): the first in path order bakes,
  # the other fails naming the output, on every run alike (it was whichever job wrote first).
  mkdir -p "$work/clash/textures/bricks.tx" "$work/clash/models/cube.mesh"
  cp "$work/src/textures/bricks.png" "$work/clash/textures/"
  cp "$work/src/textures/checker.png" "$work/clash/textures/bricks.tx/x.png"
  cp "$work/src/models/cube.obj" "$work/src/models/cube.mtl" "$work/clash/models/"
  cp "$work/src/textures/roughness.png" "$work/clash/models/cube.mesh/r.png"
  for run in 1 2 3 4 5 6; do
    rm -rf "$work/clash-out"
    set +e; "$baker" "$work/clash" -o "$work/clash-out" -j2 >"$work/log" 2>&1; rc=$?; set -e
    [ "$rc" = 1 ] || { cat "$work/log"; fail "a clash of a file and a folder exited $rc"; }
    expect_line "$work/log" "error: textures/bricks.tx/x.png: output textures/bricks.tx is already produced by another source"
    expect_line "$work/log" "error: models/cube.obj: output models/cube.mesh is already produced by another source"
    [ -f "$work/clash-out/textures/bricks.tx" ] && [ -f "$work/clash-out/models/cube.mesh/r.tx" ] ||
      fail "run $run baked other sources of the clash"
  done
  ;;
check_catches_corruption)
  fresh_assets
  bake && [ "$rc" = 0 ] || fail "first bake"
  f="$work/out/textures/bricks.tx"
  size=$(stat -c %s "$f")
  printf '\xff\xff\xff\xff' | dd of="$f" bs=1 seek=$((size - 100)) conv=notrunc status=none
  set +e; "$baker" check "$work/out" >"$work/check" 2>&1; crc=$?; set -e
  [ "$crc" = 1 ] || fail "check should fail on a corrupted file"
  expect_line "$work/check" "bricks.tx: content hash differs"
  touch "$work/out/textures/orphan.tx" "$work/out/models/x.mesh.assetlib-tmp-1-2"
  set +e; "$baker" check "$work/out" >"$work/check" 2>&1; set -e
  expect_line "$work/check" "orphan.tx: asset file not listed"
  expect_line "$work/check" "temporary file left behind"
  # A normal rebake notices the damage too (same size, new modification time) and repairs it.
  rm "$work/out/textures/orphan.tx" "$work/out/models/x.mesh.assetlib-tmp-1-2"
  bake
  expect_line "$work/log" "baked 1, "
  expect_line "$work/log" "baked textures/bricks.png"
  "$baker" check "$work/out" >"$work/check" 2>&1 || { cat "$work/check"; fail "check failed after the repair"; }
  # Damage that keeps the size and the modification time (a write in the same timestamp tick as
  # the bake's, or a restore that sets the old time): a rebake right after still repairs it.
  cp -p "$f" "$work/good.tx"
  printf '\xff\xff\xff\xff' | dd of="$f" bs=1 seek=$((size - 100)) conv=notrunc status=none
  touch -r "$work/good.tx" "$f"
  bake
  expect_line "$work/log" "baked 1, "
  cmp -s "$f" "$work/good.tx" || fail "a same-size, same-time damage was not repaired"
  ;;
info_not_an_asset)
  set +e; "$baker" info "$assets/../README.md" >"$work/stdout" 2>"$work/info"; irc=$?; set -e
  [ "$irc" != 0 ] || fail "info on a README should fail"
  expect_line "$work/info" "not an asset file"
  [ "$(grep -c README.md "$work/info")" = 1 ] || fail "the error must name the file once, on stderr"
  if grep -q "error" "$work/stdout"; then fail "an error went to stdout: $(cat "$work/stdout")"; fi
  if grep -q "format version" "$work/info"; then cat "$work/info"; fail "info blamed the version of a text file"; fi
  ;;
legacy_vkguide)
  # vkguide's files read through the same API (docs/format.md, "Legacy vkguide files").
  python3 - "$work" <<'PY'
import json, struct, sys
def write(path, kind, meta, blob):
    text = json.dumps(meta).encode()
    open(path, "wb").write(kind + struct.pack("<III", 1, len(text), len(blob)) + text + blob)
pixels = bytes(range(16))
write(sys.argv[1] + "/rock.tx", b"TEXI", {"format": "RGBA8", "width": 2, "height": 2,
      "buffer_size": 16, "compression": "None", "original_file": "rock.png"}, pixels)
vertices = struct.pack("<11f", *range(11)) * 3
indices = struct.pack("<3I", 0, 1, 2)
write(sys.argv[1] + "/tri.mesh", b"MESH", {"vertex_format": "PNCV_F32",
      "vertex_buffer_size": len(vertices), "index_buffer_size": len(indices), "index_size": 4,
      "compression": "None", "original_file": "tri.obj",
      "bounds": [0, 0, 0, 1, 1, 1, 1]}, vertices + indices)
PY
  "$baker" info "$work" >"$work/info" 2>&1 || { cat "$work/info"; fail "info on legacy files"; }
  expect_line "$work/info" "legacy vkguide file"
  expect_line "$work/info" "texture RGBA8_SRGB 2x2, 1 mips"
  expect_line "$work/info" "mesh PNCV_F32, 3 vertices"
  "$baker" export "$work/rock.tx" -o "$work/rock.png" >/dev/null || fail "export of a legacy texture"
  ;;
killed_before_recording)
  # A bake that ends after putting an output in place but before writing its cache (killed, or
  # its cache unwritable as here) leaves a file the old cache does not describe; once its source is
  # gone, the next bake removes it all the same (from the journal it kept), and check passes.
  fresh_assets
  bake
  cp "$work/out/.assetlib-cache.json" "$work/cache.before"
  cp "$work/src/textures/ui/button.png" "$work/src/textures/checker.png"
  rm "$work/out/.assetlib-cache.json" && mkdir "$work/out/.assetlib-cache.json"
  bake
  [ "$rc" = 1 ] || { cat "$work/log"; fail "a bake that cannot write its cache exited $rc"; }
  grep -q " textures/checker.tx$" "$work/out/.assetlib-journal" || fail "the output was not noted"
  rmdir "$work/out/.assetlib-cache.json" && cp "$work/cache.before" "$work/out/.assetlib-cache.json"
  rm "$work/src/textures/checker.png"
  bake
  [ "$rc" = 0 ] || { cat "$work/log"; fail "the next bake exited $rc"; }
  expect_line "$work/log" "removed textures/checker.tx \\(put there by a bake that ended before"
  [ ! -e "$work/out/textures/checker.tx" ] || fail "the unrecorded output is still there"
  [ ! -e "$work/out/.assetlib-journal" ] || fail "the journal outlived a whole bake"
  "$baker" check "$work/out" >"$work/check" 2>&1 || { cat "$work/check"; fail "check"; }
  ;;
kill_and_rerun)
  mkdir -p "$work/src"
  cp -r "$corpus/vulkan-guide" "$corpus/intellij-gltf-viewer-plugin" "$corpus/common-3d-test-models" "$work/src/"
  "$baker" "$work/src" -o "$work/clean" -q -j2 || true
  for delay in 0.3 0.9 1.7; do
    "$baker" "$work/src" -o "$work/out" -q -j2 >/dev/null 2>&1 &
    pid=$!
    sleep "$delay"
    kill -9 "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  "$baker" "$work/src" -o "$work/out" -q -j2 || true
  "$baker" check "$work/out" || fail "check after kill and rerun"
  [ -z "$(find "$work/out" -name '*assetlib-tmp*')" ] || fail "temporary files remain"
  diff -r -x .assetlib-cache.json "$work/clean" "$work/out" || fail "outputs differ from a clean bake"
  ;;
corpus)
  [ -d "$corpus" ] || fail "corpus not found at $corpus"
  set +e; "$baker" "$corpus" -o "$work/out" -q -j2 --json "$work/report.json" 2>"$work/log"; rc=$?; set -e
  [ "$rc" = 1 ] || fail "the corpus holds broken files: exit 1 expected, got $rc"
  python3 - "$work/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
failed = [f["source"] for f in r["files"] if f["status"] == "failed"]
# Every failure is a file that is broken on purpose.
broken_markers = ("crashers/", "corrupt/", "invalid-", "line-prim", "points-prim", "test_lines", "incomplete-positions",
                  "issue-140-zero", "issue-356", "test_wrong_attribute_mapping", "degenerate_mesh", "inf_nan",
                  "BoundsChecking/")
unexpected = [f for f in failed if not any(m in f for m in broken_markers)]
assert not unexpected, f"unexpected failures: {unexpected}"
assert r["baked"] >= 700, r["baked"]
by_source = {f["source"]: f for f in r["files"]}
for f in r["files"]:
    if f["status"] == "failed":
        assert f["message"].startswith(f["source"]), f["message"]
# Valid glTF with morph targets bakes at its default weights, saying so.
for source in ("draco-testdata/KhronosSampleModels/AnimatedMorphCube/glTF/AnimatedMorphCube.gltf",
               "tinygltf/models/SparseMorphTargets-issue280/singleBlendshapeCube_sparse.glb"):
    assert by_source[source]["status"] == "baked", by_source[source]
    assert any("baked at the mesh's default weights" in w for w in by_source[source]["warnings"]), by_source[source]
# Every glTF file but the 4 broken on purpose bakes into a prefab.
scenes = [f for f in r["files"] if f["source"].lower().endswith((".gltf", ".glb"))]
assert len(scenes) == 94, len(scenes)
baked = [f for f in scenes if f["status"] == "baked"]
assert len(baked) == 94 - 4, [f["source"] for f in scenes if f["status"] != "baked"]
assert all(any(o.endswith(".prefab") for o in f["outputs"]) for f in baked)
PY
  # A second bake of the corpus is a no-op: no source rebakes, whatever it depends on or lacks.
  set +e; "$baker" "$corpus" -o "$work/out" -j2 >"$work/again" 2>&1; set -e
  expect_line "$work/again" "^baked 0, up to date [0-9]+, failed [0-9]+,"
  "$baker" check "$work/out" -q || fail "check on the corpus bake"
  ;;
gltf_scene)
  # A glTF using one image in two roles (base colour and normal map), an image nothing uses, and
  # DamagedHelmet beside it.
  mkdir -p "$work/src/scene" "$work/src/helmet"
  cp "$assets/textures/checker.png" "$work/src/scene/tex.png"
  cp "$assets/textures/bricks.png" "$work/src/scene/plain.png"
  cp "$corpus"/intellij-gltf-viewer-plugin/models/DamagedHelmet/glTF/* "$work/src/helmet/"
  python3 - "$work/src/scene/two_roles.gltf" <<'PY'
import base64, json, struct, sys
tri = struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0) + struct.pack("<6f", 0, 0, 1, 0, 0, 1)
uri = "data:application/octet-stream;base64," + base64.b64encode(tri).decode()
prim = lambda m: {"attributes": {"POSITION": 0, "TEXCOORD_0": 1}, "material": m}
json.dump({"asset": {"version": "2.0"}, "buffers": [{"byteLength": len(tri), "uri": uri}],
           "bufferViews": [{"buffer": 0, "byteLength": 36}, {"buffer": 0, "byteOffset": 36, "byteLength": 24}],
           "accessors": [{"bufferView": 0, "componentType": 5126, "type": "VEC3", "count": 3},
                         {"bufferView": 1, "componentType": 5126, "type": "VEC2", "count": 3}],
           "images": [{"uri": "tex.png"}], "textures": [{"source": 0}],
           "materials": [{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}},
                         {"normalTexture": {"index": 0}}],
           "meshes": [{"primitives": [prim(0), prim(1)]}],
           "nodes": [{"mesh": 0, "name": "tri"}], "scenes": [{"nodes": [0]}]}, open(sys.argv[1], "w"))
PY
  bake -j2
  [ "$rc" = 0 ] || { cat "$work/log"; fail "exit $rc"; }
  "$baker" check "$work/out" >"$work/check" 2>&1 || { cat "$work/check"; fail "check failed"; }
  "$baker" info "$work/out" >"$work/info"
  expect_line "$work/info" "scene/tex.tx"
  info_of() { "$baker" info "$work/out/$1" | sed -n 3p; }
  [[ "$(info_of scene/tex.tx)" == *"BC1_RGB_SRGB"* ]] || fail "tex.png as colour: $(info_of scene/tex.tx)"
  [[ "$(info_of scene/tex.normal.tx)" == *"BC5_UNORM"* ]] || fail "tex.png as normal map: $(info_of scene/tex.normal.tx)"
  [[ "$(info_of scene/plain.tx)" == *"BC1_RGB_SRGB"* ]] || fail "an image no model uses bakes in its own role"
  [[ "$(info_of helmet/Default_normal.tx)" == *"BC5_UNORM"* ]] || fail "the helmet's normal map"
  [[ "$(info_of helmet/Default_albedo.tx)" == *"BC1_RGB_SRGB"* ]] || fail "the helmet's albedo"
  [[ "$(info_of helmet/Default_metalRoughness.tx)" == *"_UNORM"* ]] || fail "the helmet's metal-roughness map is data"
  expect_line "$work/info" "prefab, 1 nodes \(1 roots\), 1 meshes, 2 materials"
  python3 - "$work/out/manifest.json" <<'PY'
import json, sys
m = {a["name"]: a for a in json.load(open(sys.argv[1]))["assets"]}
for name, path, kind in [("scene/tex.png", "scene/tex.tx", "TEXI"), ("scene/tex.png#normal", "scene/tex.normal.tx", "TEXI"),
                         ("scene/two_roles.gltf", "scene/two_roles.prefab", "PRFB"),
                         ("scene/two_roles.gltf#mesh/0", "scene/two_roles.gltf.parts/0.mesh", "MESH"),
                         ("scene/two_roles.gltf#material/1", "scene/two_roles.gltf.parts/1.mat", "MATL"),
                         ("helmet/DamagedHelmet.gltf", "helmet/DamagedHelmet.prefab", "PRFB")]:
    assert m[name]["path"] == path and m[name]["type"] == kind, (name, m.get(name))
PY
  # Editing an image rebakes that image only: the glTF names it, it does not read it.
  printf 'trailing bytes' >>"$work/src/scene/tex.png"
  bake -j2
  expect_line "$work/log" "baked 1, up to date"
  # The glTF no longer uses the image as a normal map: the image and the glTF rebake, and the
  # normal-map texture of it goes.
  python3 - "$work/src/scene/two_roles.gltf" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["materials"][1] = {}
json.dump(d, open(sys.argv[1], "w"))
PY
  bake -j2
  expect_line "$work/log" "baked 2, up to date"
  [ ! -e "$work/out/scene/tex.normal.tx" ] || fail "the unused normal-map texture was kept"
  "$baker" check "$work/out" >"$work/check" 2>&1 || { cat "$work/check"; fail "check failed after the edit"; }
  bake -j2
  expect_line "$work/log" "baked 0, up to date"
  ;;
skins_and_clips)
  # The corpus' skinned and animated models: they bake (with --verify), check, and info lists each
  # skeleton's joints and each clip's name, duration and channels.
  mkdir -p "$work/src"
  cp "$corpus/bevy/assets/models/animated/Fox.glb" "$corpus/bevy/assets/models/SimpleSkin/SimpleSkin.gltf" \
     "$corpus/draco-testdata/simple_skin.gltf" "$corpus/tinygltf/models/regression/unassigned-skeleton.gltf" "$work/src/"
  for d in draco-testdata/Fox/glTF draco-testdata/CesiumMan/glTF intellij-gltf-viewer-plugin/models/BrainStem/gLTF \
           draco-testdata/InterpolationTest/glTF; do
    mkdir -p "$work/src/$d" && cp "$corpus/$d"/* "$work/src/$d/"
  done
  bake -j2 --verify
  [ "$rc" = 0 ] || { cat "$work/log"; fail "exit $rc"; }
  if grep -qE "skins? not baked|animations?\(s\) not baked" "$work/log"; then cat "$work/log"; fail "skins or animations left out"; fi
  "$baker" check "$work/out" >"$work/check" 2>&1 || { cat "$work/check"; fail "check failed"; }
  "$baker" info "$work/out" >"$work/info"
  expect_line "$work/info" "^  skeleton, 24 joints \(1 roots\): _rootJoint, b_Root_00, b_Hip_01, "
  expect_line "$work/info" "^  clip 'Walk', 0\.708 s, 21 channels \(rotation 20, translation 1; linear 21\), "
  expect_line "$work/info" "^  skin J8W8, 24 joints, skeleton Fox.glb#skin/0$"
  expect_line "$work/info" "^  1 skins, 3 clips: Fox.glb#clip/0, Fox.glb#clip/1, Fox.glb#clip/2$"
  expect_line "$work/info" "^  clip 'CubicSpline Rotation', [0-9.]+ s, 1 channels \(rotation 1; cubicspline 1\)"
  "$baker" info "$work/out" --json >"$work/info.json"
  python3 - "$work/info.json" "$work/out/manifest.json" <<'PY'
import json, sys
files = json.load(open(sys.argv[1]))["files"]
manifest = {a["path"]: a for a in json.load(open(sys.argv[2]))["assets"]}
skels = [f for f in files if f["type"] == "SKEL"]
clips = [f for f in files if f["type"] == "CLIP"]
assert len(skels) == 7, len(skels)  # Fox x2, CesiumMan, BrainStem, SimpleSkin, simple_skin, unassigned
assert len(clips) == 3 + 3 + 1 + 1 + 1 + 1 + 1 + 9, len(clips)
for f in skels:
    k = f["skeleton"]
    assert k["joint_count"] == len(k["joints"]) >= 2, f
    assert all(j["parent"] < i for i, j in enumerate(k["joints"])), f
for f in clips:
    c = f["clip"]
    assert c["duration"] > 0 and c["channel_count"] > 0 and c["keys"] > 0, f
    rel = f["file"].split("/out/", 1)[1]
    assert manifest[rel]["raw_size"] == f["unpacked_bytes"] > 0, (manifest[rel], f["unpacked_bytes"])
meshes = [f for f in files if f["type"] == "MESH" and f["mesh"]["skin"]]
assert len(meshes) == 7, len(meshes)
PY
  "$baker" pack "$work/out" -o "$work/all.pack" -q || fail "pack"
  "$baker" check "$work/all.pack" -q || fail "check of the pack"
  bake -j2
  expect_line "$work/log" "baked 0, up to date"
  ;;
pack)
  # Every asset of a baked folder in one file (docs/format.md, "Pack file").
  fresh_assets
  bake && [ "$rc" = 0 ] || fail "first bake"
  "$baker" pack "$work/out" -o "$work/game.pack" >"$work/log" 2>&1 || { cat "$work/log"; fail "pack must exit 0"; }
  assets_listed=$(grep -c '"name":' "$work/out/manifest.json")
  expect_line "$work/log" "^packed $assets_listed assets \([0-9]+ bytes\) from $work/out into $work/game.pack: [0-9]+ bytes in [0-9.]+ ms$"
  [ "$(head -c 4 "$work/game.pack")" = APAK ] || fail "the pack does not start with APAK"
  # Deterministic: the same folder packs to the same bytes, and so does a bake with --pack.
  "$baker" pack "$work/out" -o "$work/again.pack" -q || fail "second pack"
  cmp "$work/game.pack" "$work/again.pack" || fail "packing twice gave different bytes"
  bake --pack "$work/baked.pack"
  [ "$rc" = 0 ] || { cat "$work/log"; fail "bake --pack must exit 0"; }
  cmp "$work/game.pack" "$work/baked.pack" || fail "bake --pack differs from pack"
  # The bytes are exactly the layout docs/format.md describes, written here independently.
  python3 - "$work/out" "$work/documented.pack" <<'PY'
import json, os, struct, sys
baked, out = sys.argv[1], sys.argv[2]
assets = sorted(json.load(open(os.path.join(baked, "manifest.json")))["assets"],
                key=lambda a: a["name"].encode())
align = lambda n: (n + 63) // 64 * 64
names = b"".join(a["name"].encode() for a in assets)
names_offset = 72 + 48 * len(assets)
data_offset = align(names_offset + len(names))
entries, data, end, name_offset = b"", b"", data_offset, 0
for a in assets:
    body = open(os.path.join(baked, a["path"]), "rb").read()
    offset = align(end)
    data += b"\0" * (offset - end) + body
    name = a["name"].encode()
    entries += struct.pack("<QQQQII4sI", offset, len(body), a["raw_size"], int(a["hash"][8:], 16),
                           name_offset, len(name), a["type"].encode(), 0)
    name_offset += len(name)
    end = offset + len(body)
header = b"APAK" + struct.pack("<III", 1, len(assets), 0)
header += struct.pack("<7Q", 72, 48 * len(assets), names_offset, len(names), data_offset,
                      end - data_offset, end)
index = header + entries + names
open(out, "wb").write(index + b"\0" * (data_offset - len(index)) + data)
PY
  cmp "$work/game.pack" "$work/documented.pack" || fail "the pack is not the documented layout"
  "$baker" check "$work/game.pack" >"$work/check" 2>&1 || { cat "$work/check"; fail "check on the pack"; }
  expect_line "$work/check" "^checked $assets_listed assets in $work/game.pack: 0 problem"
  "$baker" info "$work/game.pack" >"$work/info" 2>&1 || { cat "$work/info"; fail "info on the pack"; }
  expect_line "$work/info" "^$work/game.pack: pack v1, $assets_listed entries, [0-9]+ bytes$"
  expect_line "$work/info" "^$work/game.pack: textures/bricks.png$"
  expect_line "$work/info" "^  entry at offset [0-9]+, [0-9]+ B, raw [0-9]+ B, xxh3-64:[0-9a-f]{16}$"
  expect_line "$work/info" "^total: $assets_listed files"
  # One byte flipped inside an entry: check names the pack and the entry.
  offset=$("$baker" info "$work/game.pack" --json | python3 -c '
import json, sys
entry = next(f for f in json.load(sys.stdin)["files"] if f["entry"] == "textures/bricks.png")
print(entry["offset"] + entry["file_bytes"] - 100)')
  cp "$work/game.pack" "$work/flipped.pack"
  printf '\xff' | dd of="$work/flipped.pack" bs=1 seek="$offset" conv=notrunc status=none
  set +e; "$baker" check "$work/flipped.pack" >"$work/check" 2>&1; crc=$?; set -e
  [ "$crc" = 1 ] || { cat "$work/check"; fail "check must fail on a flipped byte, got $crc"; }
  expect_line "$work/check" "^error: $work/flipped.pack: textures/bricks.png: content hash differs"
  # Cut short: the header's size says so.
  head -c 1000 "$work/game.pack" >"$work/short.pack"
  set +e; "$baker" check "$work/short.pack" >"$work/check" 2>&1; crc=$?; set -e
  [ "$crc" = 1 ] || fail "check must fail on a truncated pack"
  expect_line "$work/check" "short.pack: header promises [0-9]+ bytes but the pack has 1000"
  # Bytes no entry accounts for: a header claiming no entries over the same data, and a non-zero
  # byte in the padding between two assets. open_pack takes both; check compares the layout.
  python3 - "$work/game.pack" "$work/emptied.pack" "$work/padded.pack" <<'PY'
import struct, sys
data = bytearray(open(sys.argv[1], "rb").read())
count = struct.unpack_from("<I", data, 8)[0]
emptied = bytearray(data)
struct.pack_into("<I", emptied, 8, 0)
struct.pack_into("<Q", emptied, 24, 0)  # entry table size
open(sys.argv[2], "wb").write(emptied)
for k in range(count - 1):
    offset, size = struct.unpack_from("<QQ", data, 72 + 48 * k)
    gap_at, next_offset = offset + size, struct.unpack_from("<Q", data, 72 + 48 * (k + 1))[0]
    if next_offset > gap_at:
        data[gap_at] = 1
        open(sys.argv[3], "wb").write(data)
        break
else:
    sys.exit("no padding between two assets in the pack")
PY
  set +e; "$baker" check "$work/emptied.pack" >"$work/check" 2>&1; crc=$?; set -e
  [ "$crc" = 1 ] || { cat "$work/check"; fail "check must fail on a pack whose entries were dropped"; }
  expect_line "$work/check" "emptied.pack: not laid out as a pack is written: the pack is [0-9]+ bytes, its entries laid out [0-9]+"
  set +e; "$baker" check "$work/padded.pack" >"$work/check" 2>&1; crc=$?; set -e
  [ "$crc" = 1 ] || { cat "$work/check"; fail "check must fail on a pack with bytes in its padding"; }
  expect_line "$work/check" "padded.pack: not laid out as a pack is written: bytes before .* belong to no entry"
  # Inside the baked folder it is never packed itself, and the folder's check, info and next bake
  # leave it alone.
  "$baker" pack "$work/out" -o "$work/out/game.pack" -q || fail "pack into the baked folder"
  "$baker" pack "$work/out" -o "$work/out/game.pack" -q || fail "pack again into the baked folder"
  cmp "$work/out/game.pack" "$work/game.pack" || fail "a pack inside the folder packed itself"
  "$baker" check "$work/out" >"$work/check" 2>&1 || { cat "$work/check"; fail "check with a pack inside"; }
  "$baker" info "$work/out" >"$work/info" 2>&1 || { cat "$work/info"; fail "info with a pack inside"; }
  if grep -q "game.pack" "$work/info"; then fail "info of the folder listed the pack"; fi
  bake
  expect_line "$work/log" "baked 0, up to date"
  [ -f "$work/out/game.pack" ] || fail "a bake removed the pack inside its folder"
  # A damaged asset is never packed: exit 1 naming it, the previous pack untouched, no temporary.
  f="$work/out/textures/bricks.tx"
  size=$(stat -c %s "$f")
  printf '\xff\xff\xff\xff' | dd of="$f" bs=1 seek=$((size - 100)) conv=notrunc status=none
  set +e; "$baker" pack "$work/out" -o "$work/game.pack" >"$work/log" 2>&1; prc=$?; set -e
  [ "$prc" = 1 ] || { cat "$work/log"; fail "packing a damaged asset must exit 1, got $prc"; }
  expect_line "$work/log" "bricks.tx: content hash differs from the manifest; not packed"
  cmp "$work/game.pack" "$work/again.pack" || fail "a failed pack changed the previous one"
  set +e; "$baker" pack "$work/out" -o "$work/new.pack" >/dev/null 2>&1; set -e
  [ ! -e "$work/new.pack" ] || fail "a failed pack wrote its file"
  [ -z "$(find "$work" -name '*assetlib-tmp*')" ] || fail "a failed pack left a temporary"
  # The pack must not replace a file of the folder it packs (usage error, nothing touched).
  manifest_before=$(sha256sum "$work/out/manifest.json")
  set +e; "$baker" pack "$work/out" -o "$work/out/manifest.json" >"$work/log" 2>&1; prc=$?; set -e
  [ "$prc" = 2 ] || fail "packing over the manifest must exit 2, got $prc"
  expect_line "$work/log" "would replace the baked folder's manifest.json"
  [ "$(sha256sum "$work/out/manifest.json")" = "$manifest_before" ] || fail "the manifest was touched"
  # A bake with failures does not pack.
  printf 'not an image' >"$work/src/textures/broken.png"
  bake --pack "$work/failed.pack"
  [ "$rc" = 1 ] || { cat "$work/log"; fail "a failed bake with --pack must exit 1, got $rc"; }
  expect_line "$work/log" "pack: $work/failed.pack not written: the bake did not succeed \(exit 1\)"
  [ ! -e "$work/failed.pack" ] || fail "a failed bake was packed"
  ;;
*) fail "unknown case" ;;
esac
echo "PASS [$case]"
