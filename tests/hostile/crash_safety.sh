#!/usr/bin/env bash
# Crash safety of the baker (docs/robustness.md): SIGKILL at random moments of a bake of corpus
# files, several times in a row (each rerun starts from what the previous kill left, and is itself
# killed), then one rerun to completion. After every kill, every asset file present must be whole
# (atomic writes: `info` reads each one). At the end `check` passes, no temporary file remains and
# the outputs equal a clean bake byte for byte.
#
# Usage: crash_safety.sh <asset-baker> <assets-dir> <corpus-dir> [kills]
# The kill moments are drawn uniformly over the measured duration of a clean bake, from a seed that
# is printed (rerun with CRASH_SAFETY_SEED=<seed> to replay the same moments).
set -euo pipefail
export LC_ALL=C

baker=$1 assets=$2 corpus=$3 kills=${4:-8}
work=$(mktemp -d "${TMPDIR:-/tmp}/crash-safety.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL [crash_safety]: $*" >&2; exit 1; }

seed=${CRASH_SAFETY_SEED:-$(( $(date +%s) % 100000 ))}
RANDOM=$seed
echo "crash_safety: seed $seed, $kills kills"

# Sources: real textures up to 2048x2048 (block compression, several chunks each), meshes with
# materials, and the small assets; a bake long enough to be killed in many different places.
mkdir -p "$work/src"
cp -r "$assets/textures" "$assets/models" "$work/src/"
cp -r "$corpus/intellij-gltf-viewer-plugin/models/Avocado" "$corpus/intellij-gltf-viewer-plugin/models/WaterBottle" \
      "$work/src/"
mkdir -p "$work/src/obj"
cp "$corpus"/tinyobjloader/models/{cornell_box,cube,issue-92,map-bump}.{obj,mtl} "$work/src/obj/" 2>/dev/null || true
cp "$corpus/meshoptimizer/pirate.obj" "$work/src/obj/" 2>/dev/null || true

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
start=$(now_ms)
"$baker" "$work/src" -o "$work/clean" -q -j2 || fail "clean bake failed"
duration=$(( $(now_ms) - start ))
[ "$duration" -ge 50 ] || duration=50
echo "crash_safety: a clean bake takes ${duration} ms"

assets_are_whole() {
  # Every .tx/.mesh present (temporaries aside) loads and unpacks: an interrupted write never
  # leaves a partial file under a final name.
  local f
  while IFS= read -r -d '' f; do
    "$baker" info "$f" >/dev/null 2>&1 || fail "after a kill, $f is not a whole asset"
  done < <(find "$work/out" -type f \( -name '*.tx' -o -name '*.mesh' \) -print0 2>/dev/null)
  if [ -f "$work/out/manifest.json" ]; then
    python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$work/out/manifest.json" ||
      fail "after a kill, manifest.json is not whole"
  fi
}

for ((i = 1; i <= kills; ++i)); do
  delay_ms=$(( (RANDOM * 32768 + RANDOM) % duration ))
  jobs=$(( i % 2 + 1 ))
  extra=()
  (( i % 3 == 0 )) && extra=(--force)
  "$baker" "$work/src" -o "$work/out" -q -j"$jobs" "${extra[@]}" >/dev/null 2>&1 &
  pid=$!
  sleep "$(printf '%d.%03d' $((delay_ms / 1000)) $((delay_ms % 1000)))"
  if kill -9 "$pid" 2>/dev/null; then state=killed; else state="had finished"; fi
  wait "$pid" 2>/dev/null || true
  echo "crash_safety: run $i (-j$jobs ${extra[*]:-}) $state at ${delay_ms} ms"
  assets_are_whole
done

"$baker" "$work/src" -o "$work/out" -q -j2 || fail "the rerun after the kills failed"
"$baker" check "$work/out" || fail "check after kill and rerun"
[ -z "$(find "$work/out" -name '*assetlib-tmp*')" ] || fail "temporary files remain"
diff -r -x .assetlib-cache.json "$work/clean" "$work/out" || fail "outputs differ from a clean bake (seed $seed)"
# And the rerun's cache is good: one more bake has nothing to do.
"$baker" "$work/src" -o "$work/out" -j2 >"$work/log" 2>&1 || fail "no-op bake failed"
grep -q "baked 0, " "$work/log" || { cat "$work/log"; fail "the bake after the rerun was not a no-op"; }
echo "PASS [crash_safety]"
