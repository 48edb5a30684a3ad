#!/usr/bin/env bash
# End-to-end tests of the bakes that scale past one machine (docs/baker.md, "Bakes at scale"):
# the shared cache, shards and their merge, bake-one edges gathered by collect.
# Usage: scale_e2e.sh <asset-baker> <assets-dir> <repo> <case>
set -euo pipefail
export LC_ALL=C

baker=$1 assets=$2 repo=$3 case=$4
work=$(mktemp -d "${TMPDIR:-/tmp}/scale-e2e-$case.XXXXXX")
trap 'rm -rf "$work"' EXIT

fail() { echo "FAIL [$case]: $*" >&2; exit 1; }
# Bakes $1 into $2 with the rest of the arguments; the exit code in $rc, the output in $work/log.
bake() { local in=$1 out=$2; shift 2; set +e; "$baker" "$in" -o "$out" "$@" >"$work/log" 2>&1; rc=$?; set -e; }
report() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$1" "$2"; }
# Equal file for file, the index files and caches aside.
same_outputs() {
  diff -r -x .assetlib-cache.json -x .assetlib-cache -x .assetlib-records "$1" "$2" >"$work/diff" ||
    { head -20 "$work/diff"; fail "$2 differs from $1"; }
  "$baker" check "$2" >/dev/null || fail "check $2"
}
sources_in() { find "$1" -type f \( -iname '*.png' -o -iname '*.obj' -o -iname '*.gltf' \) | wc -l; }
# The entry folder in cache $1 of source $2.
# (sed -n 1p, not head -1: head exits early, and under pipefail the writer's SIGPIPE fails the test)
entry_of() { grep -l "\"source\": \"$2\"" "$1"/v1/*/*/entry.json | sed -n 1p | xargs dirname; }
cache_bytes() { find "$1" -type f -printf '%s\n' | awk '{s+=$1} END {print s+0}'; }
# A cache file of its own (a hard link of an output until now), to be damaged without touching
# the output: what a writer of the cache that replaces files, or a bad copy, does.
unlinked() { cp "$1" "$1.copy" && mv "$1.copy" "$1" && echo "$1"; }

cp -r "$assets" "$work/src"
n=$(sources_in "$work/src")

case $case in
cache_two_outputs)
  # Two output folders, one cache: the second bake encodes nothing and copies everything.
  bake "$work/src" "$work/a" --cache-dir "$work/cache" --json "$work/a.json"
  [ "$rc" = 0 ] || { cat "$work/log"; fail "first bake"; }
  [ "$(report "$work/a.json" from_cache)" = 0 ] || fail "the first bake restored from an empty cache"
  bake "$work/src" "$work/b" --cache-dir "$work/cache" --json "$work/b.json"
  [ "$rc" = 0 ] || { cat "$work/log"; fail "second bake"; }
  [ "$(report "$work/b.json" baked)" = "$n" ] && [ "$(report "$work/b.json" from_cache)" = "$n" ] ||
    { cat "$work/log"; fail "the second bake encoded something: $(report "$work/b.json" from_cache) of $n from the cache"; }
  grep -q "cache $work/cache: $n restored, 0 stored" "$work/log" || { cat "$work/log"; fail "summary"; }
  same_outputs "$work/a" "$work/b"
  # Hard links where the file system allows: no second copy of the bytes.
  [ "$(stat -c %h "$work/b/textures/bricks.tx")" -ge 2 ] || fail "outputs are not hard-linked"
  # $ASSETLIB_CACHE_DIR names the cache when --cache-dir does not; without either there is none.
  ASSETLIB_CACHE_DIR="$work/cache" bake "$work/src" "$work/c" --json "$work/c.json"
  [ "$(report "$work/c.json" from_cache)" = "$n" ] || { cat "$work/log"; fail "\$ASSETLIB_CACHE_DIR unused"; }
  bake "$work/src" "$work/d" --json "$work/d.json"
  [ "$(report "$work/d.json" from_cache)" = 0 ] || fail "a cache used though none was named"
  [ "$(ls -A "$work/d" | sort | tr '\n' ' ')" = ".assetlib-cache.json .assetlib-lock manifest.json models textures " ] ||
    fail "a bake without a cache wrote more than its outputs: $(ls -A "$work/d")"
  same_outputs "$work/a" "$work/d"
  same_outputs "$work/a" "$work/c"
  # The output folder's own cache file lost (or a killed run's never written): each output is
  # linked in again over the link of the same cache file already there. rename() of one file
  # over itself does nothing, and left every temporary behind (exit 0, check failed).
  rm "$work/b/.assetlib-cache.json"
  bake "$work/src" "$work/b" --cache-dir "$work/cache"
  [ "$rc" = 0 ] || { cat "$work/log"; fail "the bake after losing the cache file exited $rc"; }
  [ -z "$(find "$work/b" -name '*.assetlib-tmp-*')" ] || fail "temporaries left behind"
  same_outputs "$work/a" "$work/b"
  ;;
cache_damaged_entries)
  # Damaged entries are found by their hash or size, removed and baked again.
  bake "$work/src" "$work/a" --cache-dir "$work/cache"
  flip=$(unlinked "$(entry_of "$work/cache" textures/bricks.png)/0")
  printf 'XXXX' | dd of="$flip" bs=1 seek=100 conv=notrunc status=none           # other bytes
  truncate -s 10 "$(unlinked "$(entry_of "$work/cache" textures/checker.png)/0")" # cut short
  rm "$(entry_of "$work/cache" models/cube.obj)/entry.json"                      # half an entry
  truncate -s 20G "$(unlinked "$(entry_of "$work/cache" textures/roughness.png)/0")" # huge, sparse
  gone=$(entry_of "$work/cache" textures/leaf_alpha.png)
  rm "$gone/0" && mkfifo "$gone/0"                                          # never read
  # A sparse 1 TiB hole that its entry.json records as 1 TiB: refused by its size, unread (read and
  # hashed, it held the bake for minutes; copied to another file system, it filled the disk).
  claim=$(entry_of "$work/cache" textures/bricks_n.png)
  truncate -s 1T "$(unlinked "$claim/0")"
  python3 - "$claim/entry.json" <<'PY'
import json, sys
entry = json.load(open(sys.argv[1]))
entry["entry"]["outputs"][0]["size"] = 1 << 40
json.dump(entry, open(sys.argv[1], "w"))
PY
  set +e
  timeout -k 10 120 "$baker" "$work/src" -o "$work/b" --cache-dir "$work/cache" --json "$work/b.json" >"$work/log" 2>&1
  rc=$?
  set -e
  [ "$rc" = 0 ] || { cat "$work/log"; fail "a bake over a damaged cache exited $rc (124: held by a huge entry)"; }
  [ "$(report "$work/b.json" from_cache)" = $((n - 6)) ] ||
    { cat "$work/log"; fail "expected $((n - 6)) restored, got $(report "$work/b.json" from_cache)"; }
  grep -q "6 stored, 6 damaged entries removed" "$work/log" || { cat "$work/log"; fail "summary"; }
  same_outputs "$work/a" "$work/b"
  # Rebuilt: a third folder is served entirely from the cache.
  bake "$work/src" "$work/c" --cache-dir "$work/cache" --json "$work/c.json"
  [ "$(report "$work/c.json" from_cache)" = "$n" ] || { cat "$work/log"; fail "not rebuilt"; }
  same_outputs "$work/a" "$work/c"
  ;;
cache_stale_entry)
  # An .mtl edited after its model was stored: the entry is stale (made from the old .mtl), the
  # model bakes, and its new entry takes the old one's place, so the next folder restores it.
  bake "$work/src" "$work/a" --cache-dir "$work/cache"
  sed -i 's|^Kd .*|Kd 0.25 0.5 0.75|' "$work/src/models/ground.mtl"
  bake "$work/src" "$work/b" --cache-dir "$work/cache" --json "$work/b.json"
  [ "$rc" = 0 ] && [ "$(report "$work/b.json" from_cache)" = $((n - 1)) ] ||
    { cat "$work/log"; fail "the edited model was restored from a stale entry"; }
  bake "$work/src" "$work/c" --cache-dir "$work/cache" --json "$work/c.json"
  [ "$rc" = 0 ] && [ "$(report "$work/c.json" from_cache)" = "$n" ] ||
    { cat "$work/log"; fail "the stale entry was not replaced: $(report "$work/c.json" from_cache) of $n restored"; }
  same_outputs "$work/b" "$work/c"
  ;;
cache_hostile_entries)
  # An entry that names a path outside, another source's output, or a symlink is never used, and
  # nothing is written or deleted outside the output folder and the cache.
  bake "$work/src" "$work/a" --cache-dir "$work/cache"
  e=$(entry_of "$work/cache" textures/bricks.png)
  sed -i 's|"path": "textures/bricks.tx"|"path": "../../escaped.tx"|' "$e/entry.json"
  e=$(entry_of "$work/cache" textures/checker.png)
  sed -i 's|"path": "textures/checker.tx"|"path": "models/cube.mesh"|' "$e/entry.json"
  e=$(entry_of "$work/cache" textures/roughness.png)
  rm "$e/0" && ln -s /etc/passwd "$e/0"
  e=$(entry_of "$work/cache" textures/leaf_alpha.png)
  mkdir "$work/elsewhere" && cp -r "$e/." "$work/elsewhere/" && rm -r "$e" && ln -s "$work/elsewhere" "$e"
  bake "$work/src" "$work/b" --cache-dir "$work/cache" --json "$work/b.json"
  [ "$rc" = 0 ] || { cat "$work/log"; fail "a bake over a hostile cache"; }
  [ "$(report "$work/b.json" from_cache)" = $((n - 4)) ] || { cat "$work/log"; fail "a hostile entry was used"; }
  [ ! -e "$work/escaped.tx" ] && [ ! -e "$work/b/../escaped.tx" ] || fail "wrote outside the output folder"
  [ "$(ls "$work/elsewhere" | wc -l)" = 2 ] || fail "changed a folder a symlink in the cache points to"
  same_outputs "$work/a" "$work/b"
  # Each hostile entry was replaced by the bake's own (the symlinked one removed, not followed):
  # the next folder restores every source.
  bake "$work/src" "$work/b2" --cache-dir "$work/cache" --json "$work/b2.json"
  [ "$(report "$work/b2.json" from_cache)" = "$n" ] ||
    { cat "$work/log"; fail "hostile entries stayed: $(report "$work/b2.json" from_cache) of $n restored"; }
  [ "$(ls "$work/elsewhere" | wc -l)" = 2 ] || fail "removing a symlinked entry changed what it points to"
  # A cache folder inside the input folder is refused (its files would be taken for sources).
  bake "$work/src" "$work/c" --cache-dir "$work/src/cache"
  [ "$rc" = 0 ] && grep -q "warning: --cache-dir: .*input folder" "$work/log" || { cat "$work/log"; fail "a cache in the input"; }
  [ ! -e "$work/src/cache" ] || fail "wrote a cache into the input folder"
  # The cache's layout folder planted as a symlink: not followed, the bake goes on without the
  # cache, and the warning names that folder.
  mkdir -p "$work/planted" "$work/target" && ln -s "$work/target" "$work/planted/v1"
  bake "$work/src" "$work/d" --cache-dir "$work/planted"
  [ "$rc" = 0 ] && grep -qF "$work/planted/v1: opening the cache's layout folder failed" "$work/log" ||
    { cat "$work/log"; fail "a symlinked layout folder: exit $rc, or the warning names another folder"; }
  [ -z "$(ls "$work/target")" ] || fail "wrote through the symlinked layout folder"
  ;;
cache_concurrent_writers)
  # Two bakes at once on one cold cache (the same keys, written by both): both succeed, and the
  # cache is whole afterwards.
  python3 "$repo/scripts/make_scale_tree.py" "$work/tree" --count 300 >/dev/null
  n=$(sources_in "$work/tree")
  set +e
  "$baker" "$work/tree" -o "$work/a" --cache-dir "$work/cache" -j2 -q >"$work/log.a" 2>&1 &
  "$baker" "$work/tree" -o "$work/b" --cache-dir "$work/cache" -j2 -q >"$work/log.b" 2>&1
  rc_b=$?
  wait $!
  rc_a=$?
  set -e
  [ "$rc_a" = 0 ] && [ "$rc_b" = 0 ] || { cat "$work/log.a" "$work/log.b"; fail "concurrent bakes failed"; }
  same_outputs "$work/a" "$work/b"
  [ -z "$(find "$work/cache" -name '*.tmp-*')" ] || fail "a writer left its temporary folder"
  bake "$work/tree" "$work/c" --cache-dir "$work/cache" --json "$work/c.json"
  [ "$(report "$work/c.json" from_cache)" = "$n" ] || { cat "$work/log"; fail "cache incomplete after concurrent writers"; }
  same_outputs "$work/a" "$work/c"
  ;;
cache_size_limit)
  # --cache-size keeps the cache under its limit, removing the least recently used entries.
  python3 "$repo/scripts/make_scale_tree.py" "$work/tree" --count 300 >/dev/null
  limit_mib=0.25
  limit=262144
  bake "$work/tree" "$work/a" --cache-dir "$work/cache" --cache-size $limit_mib
  [ "$rc" = 0 ] || { cat "$work/log"; fail "first bake"; }
  [ "$(cache_bytes "$work/cache")" -le $limit ] || fail "cache holds $(cache_bytes "$work/cache") bytes, over $limit"
  # Other settings: other keys. The newest entries stay; the oldest went.
  printf '{ "settings": { "mips": false } }' >"$work/tree/baker.json"
  bake "$work/tree" "$work/b" --cache-dir "$work/cache" --cache-size $limit_mib
  [ "$(cache_bytes "$work/cache")" -le $limit ] || fail "over the limit after the second bake"
  bake "$work/tree" "$work/c" --cache-dir "$work/cache" --cache-size 0 --json "$work/new.json"
  rm "$work/tree/baker.json"
  bake "$work/tree" "$work/d" --cache-dir "$work/cache" --cache-size 0 --json "$work/old.json"
  new=$(report "$work/new.json" from_cache) old=$(report "$work/old.json" from_cache)
  [ "$new" -gt 0 ] && [ "$old" -lt "$new" ] || fail "not least recently used first: $new recent, $old older entries restored"
  ;;
shard_merge)
  # Shards baked one after another, merged: equal to one bake of the whole tree, byte for byte.
  python3 "$repo/scripts/make_scale_tree.py" "$work/tree" --count 300 >/dev/null
  cp -r "$work/src" "$work/tree/assets"  # OBJ materials sharing textures across shards, a role per use
  bake "$work/tree" "$work/whole" --no-cache
  [ "$rc" = 0 ] || { cat "$work/log"; fail "whole bake"; }
  for k in 1 2 3; do
    bake "$work/tree" "$work/shard$k" --no-cache --shard $k/3 --json "$work/shard$k.json"
    [ "$rc" = 0 ] || { cat "$work/log"; fail "shard $k"; }
  done
  total=0
  for k in 1 2 3; do total=$((total + $(report "$work/shard$k.json" baked))); done
  [ "$total" = "$(sources_in "$work/tree")" ] || fail "shards baked $total sources together"
  "$baker" merge "$work/shard1" "$work/shard2" "$work/shard3" -o "$work/merged" >"$work/log" 2>&1 ||
    { cat "$work/log"; fail "merge"; }
  same_outputs "$work/whole" "$work/merged"
  cmp "$work/whole/manifest.json" "$work/merged/manifest.json" || fail "manifests differ"
  # A shard's file that is not what its cache says fails the merge, naming it.
  f=$(find "$work/shard2" -name '*.tx' -print -quit)
  printf 'XXXX' | dd of="$f" bs=1 seek=100 conv=notrunc status=none
  set +e; "$baker" merge "$work/shard1" "$work/shard2" "$work/shard3" -o "$work/merged2" >"$work/log" 2>&1; rc=$?; set -e
  [ "$rc" = 1 ] && grep -q "$(basename "$f")" "$work/log" || { cat "$work/log"; fail "a damaged shard file was merged"; }
  set +e; "$baker" "$work/tree" -o "$work/x" --shard 4/3 >"$work/log" 2>&1; rc=$?; set -e
  [ "$rc" = 2 ] || fail "--shard 4/3 must exit 2"
  # Shards merged into the folder of an earlier whole bake, where a deleted source's output file
  # is the folder a new source's output needs (a.tx; a.tx/b.tx), then the other way round: the old
  # output goes first, as in a whole bake (merge failed, every time).
  mkdir -p "$work/m/t"
  cp "$work/src/textures/bricks.png" "$work/m/t/a.png"
  cp "$work/src/textures/checker.png" "$work/m/t/c.png"
  bake "$work/m" "$work/m-out" -q
  mkdir "$work/m/t/a.tx" && mv "$work/m/t/a.png" "$work/m/t/a.tx/b.png"
  for way in folder file; do
    rm -rf "$work/m-s1" "$work/m-s2"
    bake "$work/m" "$work/m-s1" --shard 1/2 -q && bake "$work/m" "$work/m-s2" --shard 2/2 -q
    set +e; "$baker" merge "$work/m-s1" "$work/m-s2" -o "$work/m-out" >"$work/log" 2>&1; rc=$?; set -e
    [ "$rc" = 0 ] || { cat "$work/log"; fail "merge exited $rc where an old output ($way way) stood in the way"; }
    rm -rf "$work/m-clean"
    bake "$work/m" "$work/m-clean" -q
    same_outputs "$work/m-clean" "$work/m-out"
    mv "$work/m/t/a.tx/b.png" "$work/m/t/a.png" && rmdir "$work/m/t/a.tx"
  done
  ;;
merge_problems)
  # A merge that cannot read a shard (missing, or its cache damaged as an interrupted download
  # leaves it) exits 1 and deletes nothing: every previous merged output and entry stays.
  for k in 1 2; do
    bake "$work/src" "$work/shard$k" --no-cache --shard $k/2
    [ "$rc" = 0 ] || { cat "$work/log"; fail "shard $k"; }
  done
  merge() { set +e; "$baker" merge "$@" -o "$work/merged" >"$work/log" 2>&1; rc=$?; set -e; }
  merge "$work/shard1" "$work/shard2"
  [ "$rc" = 0 ] || { cat "$work/log"; fail "merge"; }
  before=$(cd "$work/merged" && sha256sum manifest.json $(find . -name '*.tx' -o -name '*.mesh' | sort))
  cp -r "$work/shard2" "$work/damaged"
  size=$(stat -c %s "$work/damaged/.assetlib-cache.json")
  truncate -s $((size / 2)) "$work/damaged/.assetlib-cache.json"
  for second in "$work/missing" "$work/damaged"; do
    merge "$work/shard1" "$second"
    [ "$rc" = 1 ] || { cat "$work/log"; fail "merging with $(basename "$second") exited $rc"; }
    grep -qE "not a baked folder|not JSON \(damaged\); this shard is not merged" "$work/log" ||
      { cat "$work/log"; fail "no reason given for $(basename "$second")"; }
    [ "$before" = "$(cd "$work/merged" && sha256sum manifest.json $(find . -name '*.tx' -o -name '*.mesh' | sort))" ] ||
      fail "a merge with the $(basename "$second") shard changed or lost merged outputs"
  done
  "$baker" check "$work/merged" >/dev/null || fail "check after the failed merges"
  # Into a fresh folder the damaged shard still fails the merge.
  set +e; "$baker" merge "$work/shard1" "$work/damaged" -o "$work/fresh" >"$work/log" 2>&1; rc=$?; set -e
  [ "$rc" = 1 ] || { cat "$work/log"; fail "a fresh merge with a damaged shard exited $rc"; }
  # A shard left out (a CI artifact a glob missed): exit 1, naming it, and nothing of it removed.
  merge "$work/shard1"
  [ "$rc" = 1 ] || { cat "$work/log"; fail "merging 1 of 2 shards exited $rc"; }
  grep -qF "1 of the 2 shards are not given or could not be read (2 of 2)" "$work/log" || { cat "$work/log"; fail "the missing shard is not named"; }
  [ "$before" = "$(cd "$work/merged" && sha256sum manifest.json $(find . -name '*.tx' -o -name '*.mesh' | sort))" ] ||
    fail "a merge missing a shard changed or lost merged outputs"
  # Shards of two different splits do not make one set.
  bake "$work/src" "$work/third" --no-cache --shard 1/3
  merge "$work/shard1" "$work/shard2" "$work/third"
  [ "$rc" = 1 ] && grep -qF "split 2 different ways" "$work/log" || { cat "$work/log"; fail "mixed splits merged"; }
  "$baker" check "$work/merged" >/dev/null || fail "check after the incomplete merges"
  # The merged folder named as the source folder: refused before anything is written there.
  set +e; "$baker" merge "$work/shard1" "$work/shard2" -o "$work/src" >"$work/log" 2>&1; rc=$?; set -e
  [ "$rc" = 2 ] && grep -qF "holds files, and no bake or merge wrote it: merge into a folder of its own" "$work/log" ||
    { cat "$work/log"; fail "a merge into the source folder exited $rc"; }
  # Nor a folder around the sources (the project folder), nothing written or swept there.
  mkdir -p "$work/project" && cp -r "$work/src" "$work/project/src"
  touch "$work/project/src/notes.txt.assetlib-tmp-999999-0"
  set +e; "$baker" merge "$work/shard1" "$work/shard2" -o "$work/project" >"$work/log" 2>&1; rc=$?; set -e
  [ "$rc" = 2 ] && grep -qF "holds files, and no bake or merge wrote it" "$work/log" ||
    { cat "$work/log"; fail "a merge around the sources exited $rc"; }
  [ -e "$work/project/src/notes.txt.assetlib-tmp-999999-0" ] && [ ! -e "$work/project/manifest.json" ] ||
    fail "a refused merge wrote or swept in the project folder"
  [ -z "$(find "$work/src" -name manifest.json -o -name '*.tx' -o -name '.assetlib-*')" ] ||
    fail "a refused merge wrote into the source folder"
  # Nor inside a shard folder, or around one: refused before anything is written.
  shard1_before=$(cd "$work/shard1" && find . -type f | sort | xargs sha256sum)
  for target in "$work/shard1/merged" "$work"; do
    set +e; "$baker" merge "$work/shard1" "$work/shard2" -o "$target" >"$work/log" 2>&1; rc=$?; set -e
    [ "$rc" = 2 ] && grep -qF "must not be one of the shards, inside one or around one" "$work/log" ||
      { cat "$work/log"; fail "a merge into $target exited $rc"; }
  done
  [ ! -e "$work/shard1/merged" ] || fail "a refused merge made a folder inside a shard"
  [ "$shard1_before" = "$(cd "$work/shard1" && find . -type f | sort | xargs sha256sum)" ] ||
    fail "a refused merge changed a shard"
  # Shards baked from two states of the tree (an .mtl edit between the CI jobs changes a texture
  # role): their materials would name textures no shard made. Exit 1, naming two of them.
  cp -r "$work/src" "$work/edited"
  sed -i 's|^map_Bump .*|map_Bump ../textures/leaf_alpha.png|; /^norm /d' "$work/edited/models/cube.mtl"
  bake "$work/edited" "$work/edited2" --no-cache --shard 2/2
  merge "$work/shard1" "$work/edited2"
  [ "$rc" = 1 ] && grep -qF "the shards were baked from different states of the tree" "$work/log" ||
    { cat "$work/log"; fail "shards of two states of the tree merged"; }
  # The same with another baker.json between the jobs: their assets are not what one bake makes.
  cp -r "$work/src" "$work/configured"
  echo '{"settings": {"lz4_hc_level": 9}}' >"$work/configured/baker.json"
  bake "$work/configured" "$work/configured2" --no-cache --shard 2/2
  merge "$work/shard1" "$work/configured2"
  [ "$rc" = 1 ] && grep -qF "(their texture plans or settings differ" "$work/log" ||
    { cat "$work/log"; fail "shards of two configurations merged"; }
  # A shard baked into a folder of another shard says why it removes that one's outputs.
  bake "$work/src" "$work/shard1" --shard 2/2
  grep -qF "(another shard's: a shard's output folder holds that shard alone)" "$work/log" ||
    { cat "$work/log"; fail "the other shard's outputs were removed without the reason"; }
  ;;
collect_damaged_record)
  # A bake-one record that cannot be read makes collect warn and exit 1, never drop it silently.
  (cd "$work/src" && find . -type f -iname '*.png' | sed 's|^\./||' | sort) >"$work/pngs"
  while read -r f; do
    "$baker" bake-one "$work/src/$f" --root "$work/src" -o "$work/out" -q || fail "bake-one $f"
  done <"$work/pngs"
  first=$(sed -n 1p "$work/pngs")
  record="$work/out/.assetlib-records/$first.json"
  [ -f "$record" ] || fail "no record at $record"
  truncate -s 10 "$record"
  set +e; "$baker" collect "$work/src" -o "$work/out" >"$work/log" 2>&1; rc=$?; set -e
  [ "$rc" = 1 ] || { cat "$work/log"; fail "collect exited $rc with a damaged record"; }
  grep -qF "$first: its bake-one record" "$work/log" || { cat "$work/log"; fail "the damaged record is not named"; }
  ;;
collect_racy_edit)
  # A source rewritten at its size in the timestamp tick bake-one saw (touch -d pins the mtime
  # back): collect's index must judge that stamp against bake-one's start, not its own, or the
  # next whole bake trusts it and keeps the stale asset.
  mkdir -p "$work/in"
  python3 -c "import sys; open(sys.argv[1], 'wb').write(b'P6 4 4 255\n' + bytes(range(48)))" "$work/in/a.ppm"
  mtime=$(stat -c %y "$work/in/a.ppm")
  "$baker" bake-one "$work/in/a.ppm" --root "$work/in" -o "$work/out" -q || fail "bake-one"
  python3 -c "import sys; p = sys.argv[1]; d = bytearray(open(p, 'rb').read()); d[-48:] = bytes(255 - b for b in d[-48:]); open(p, 'wb').write(d)" "$work/in/a.ppm"
  touch -d "$mtime" "$work/in/a.ppm"
  sleep 2.5  # collect starts past the 2 s racy window of that mtime
  "$baker" collect "$work/in" -o "$work/out" -q || fail "collect"
  bake "$work/in" "$work/out"
  bake "$work/in" "$work/fresh" --no-cache
  cmp -s "$work/out/a.tx" "$work/fresh/a.tx" || fail "the rewritten source was taken as up to date: $(cat "$work/log")"
  ;;
collect_after_single_file)
  # A bake-one record folded by collect stays folded once a single-file bake has rewritten the
  # index: the next collect keeps that bake's newer outputs (it took the old record again, found
  # its outputs gone, and removed the new ones).
  mkdir -p "$work/in"
  printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n' >"$work/in/a.obj"
  "$baker" bake-one "$work/in/a.obj" --root "$work/in" -o "$work/out" -q || fail "bake-one"
  "$baker" collect "$work/in" -o "$work/out" -q || fail "collect"
  sleep 2.5  # the record lies past the racy window of what comes next
  printf 'v 0 0 0\nv 2 0 0\nv 0 2 0\nv 2 2 0\nf 1 2 3\nf 2 4 3\n' >"$work/in/a.obj"
  "$baker" "$work/in/a.obj" --root "$work/in" -o "$work/out" -q || fail "single-file bake"
  set +e; "$baker" collect "$work/in" -o "$work/out" >"$work/log" 2>&1; rc=$?; set -e
  [ "$rc" = 0 ] || { cat "$work/log"; fail "collect after a single-file bake exited $rc"; }
  bake "$work/in" "$work/fresh" --no-cache
  cmp -s "$work/out/a.mesh" "$work/fresh/a.mesh" || fail "collect lost the single-file bake's output"
  "$baker" check "$work/out" >/dev/null || fail "check"
  ;;
collect_stale_plan)
  # Images deleted between plan and their edges: the model's edge bakes a material naming their
  # textures (the plan said they are there), the images' edges fail. collect must fail too, naming
  # every such texture: the folder it indexes is one `check` fails.
  mkdir -p "$work/in"
  printf 'mtllib a.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 0 1\nusemtl m\nf 1/1 2/2 3/3\n' >"$work/in/a.obj"
  printf 'newmtl m\nmap_Kd b.ppm\nnorm c.ppm\n' >"$work/in/a.mtl"
  for image in b c; do
    python3 -c "import sys; open(sys.argv[1], 'wb').write(b'P6 4 4 255\n' + bytes(range(48)))" "$work/in/$image.ppm"
  done
  "$baker" plan "$work/in" --plan-dir "$work/plan" -o "$work/out" -q || fail "plan"
  rm "$work/in/b.ppm" "$work/in/c.ppm"
  "$baker" bake-one "$work/in/a.obj" --root "$work/in" -o "$work/out" --plan-dir "$work/plan" -q || fail "bake-one a.obj"
  set +e
  for image in b c; do
    "$baker" bake-one "$work/in/$image.ppm" --root "$work/in" -o "$work/out" --plan-dir "$work/plan" -q 2>/dev/null
  done
  "$baker" collect "$work/in" -o "$work/out" >"$work/log" 2>&1; rc=$?
  "$baker" check "$work/out" >/dev/null 2>&1; check_rc=$?
  set -e
  [ "$check_rc" = 1 ] || fail "check passed a material naming a texture never baked: the case tests nothing"
  [ "$rc" = 1 ] || { cat "$work/log"; fail "collect exited $rc over a material naming a texture never baked"; }
  grep -qF "a.obj: materials name textures 'b.ppm' of b.ppm, 'c.ppm#normal' of c.ppm, which are not baked" "$work/log" ||
    { cat "$work/log"; fail "the textures are not named"; }
  ;;
bake_one_parallel)
  # Many bake-one runs at once in one output folder, then collect: equal to a whole bake.
  python3 "$repo/scripts/make_scale_tree.py" "$work/tree" --count 300 >/dev/null
  cp -r "$work/src" "$work/tree/assets"
  bake "$work/tree" "$work/whole" --no-cache
  "$baker" plan "$work/tree" --plan-dir "$work/plan" -o "$work/out" -q || fail "plan"
  run_edges() {
    (cd "$work/tree" && find . -type f | sed 's|^\./||' | grep -iE '\.(png|obj|gltf)$') |
      xargs -P4 -I{} "$baker" bake-one "$work/tree/{}" --root "$work/tree" -o "$work/out" \
        --plan-dir "$work/plan" --depfile "$work/deps/{}.d" --stamp "$work/stamps/{}" -q
  }
  run_edges || fail "bake-one edges"
  "$baker" collect "$work/tree" -o "$work/out" >"$work/log" 2>&1 || { cat "$work/log"; fail "collect"; }
  same_outputs "$work/whole" "$work/out"
  grep -q "assets/models/cube.mtl" "$work/deps/assets/models/cube.obj.d" || fail "the depfile misses the .mtl"
  # The index collect wrote is a whole bake's: the next whole-folder bake has nothing to do.
  bake "$work/tree" "$work/out" --json "$work/after.json"
  [ "$(report "$work/after.json" baked)" = 0 ] && [ "$(report "$work/after.json" removed)" = 0 ] ||
    { cat "$work/log"; fail "a whole bake after collect rebaked $(report "$work/after.json" baked)"; }
  # Edit one texture and delete a model: rebaking them alone, then collecting, matches a whole bake.
  cp "$work/tree/assets/textures/ui/button.png" "$work/tree/assets/textures/checker.png"
  rm "$work/tree/assets/models/ground.obj"
  "$baker" plan "$work/tree" --plan-dir "$work/plan" -o "$work/out" -q
  "$baker" bake-one "$work/tree/assets/textures/checker.png" --root "$work/tree" -o "$work/out" \
    --plan-dir "$work/plan" -q || fail "bake-one of the edited texture"
  "$baker" collect "$work/tree" -o "$work/out" >"$work/log" 2>&1 || { cat "$work/log"; fail "collect"; }
  bake "$work/tree" "$work/whole" --no-cache  # incremental too: the same folders are left
  same_outputs "$work/whole" "$work/out"
  # A whole-folder bake holds the folder: bake-one waits for nobody and exits 2.
  exec 9>"$work/out/.assetlib-lock"
  flock -x 9
  set +e; "$baker" bake-one "$work/tree/assets/textures/checker.png" --root "$work/tree" -o "$work/out" -q 2>"$work/log"; rc=$?; set -e
  [ "$rc" = 2 ] || fail "bake-one beside a whole bake must exit 2, got $rc"
  exec 9>&-
  # The stamp is dated when the edge began: a source saved while it ran is newer than the stamp,
  # so the build system runs the edge again. A 2048^2 noise texture takes long enough (well over
  # 0.1 s) for the stamp to be that much older than the record the run writes at its end.
  python3 - "$work/tree/noise.png" <<'PY'
import random, struct, sys, zlib
w = h = 2048
random.seed(7)
row = bytes(random.getrandbits(8) for _ in range(w * 3))
raw = b"".join(b"\0" + row[k:] + row[:k] for k in range(0, h * 3, 3))
chunk = lambda t, d: struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
open(sys.argv[1], "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
                              + chunk(b"IDAT", zlib.compress(raw, 1)) + chunk(b"IEND", b""))
PY
  "$baker" plan "$work/tree" --plan-dir "$work/plan" -o "$work/out" -q
  "$baker" bake-one "$work/tree/noise.png" --root "$work/tree" -o "$work/out" \
    --plan-dir "$work/plan" --stamp "$work/stamps/dated" -q || fail "bake-one with a stamp"
  record=$(stat -c %.9Y "$work/out/.assetlib-records/noise.png.json")
  stamp=$(stat -c %.9Y "$work/stamps/dated")
  python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) < float(sys.argv[2]) - 0.05 else 1)" \
    "$stamp" "$record" || fail "the stamp ($stamp) is not dated at the start of the run (record $record)"
  ;;
*)
  fail "unknown case"
  ;;
esac
echo "PASS [$case]"
