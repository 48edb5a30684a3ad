# Sourced by the engine-sample test scripts. They set `work` (a folder this recreates) and `logs`
# (the files `fail` prints) before sourcing.

# Prints the reason and every non-empty log, then fails the test.
fail() {
  echo "FAIL: $*" >&2
  for log in "${logs[@]}"; do
    [[ -s $log ]] && { echo "--- $log" >&2; cat "$log" >&2; }
  done
  exit 1
}

rm -rf "$work"
mkdir -p "$work"

# For tests comparing two bakes of $work/src (they set `baker` too): bakes it into a fresh
# $work/baked with the bake settings $2 (a JSON object) for variant $1, and writes `asset-baker
# info` of the bake to $work/$1.info.
bake_variant() {
  echo "{ \"settings\": $2 }" >"$work/$1.json"
  rm -rf "$work/baked"
  "$baker" "$work/src" -o "$work/baked" --config "$work/$1.json" >"$work/bake.log" 2>&1 ||
    fail "asset-baker exited with $? ($1)"
  "$baker" info "$work/baked" >"$work/$1.info" 2>&1 || fail "asset-baker info failed ($1)"
}

# For the level-of-detail tests (they set `baker`, `sample` and `corpus` too): bakes the corpus
# sphere into $work/baked with the bake settings $1 (a JSON object), and fails unless `asset-baker
# info` then matches the pattern $2 (what the settings must have produced).
bake_corpus_sphere() {
  mkdir -p "$work/src"
  cp "$corpus/bevy/assets/models/sphere/sphere.gltf" "$corpus/bevy/assets/models/sphere/sphere.bin" \
    "$work/src/" || fail "corpus mesh missing"
  bake_variant settings "$1"
  grep -qE "$2" "$work/settings.info" || fail "the bake does not match '$2'"
}

# Renders $work/baked with the engine-sample options after $1 into $work/$1.out, .tx and .png;
# the validation layer must stay silent.
render_baked() {
  local name=$1
  shift
  "$sample" "$work/baked" --validate --screenshot "$work/$name.tx" "$@" >"$work/$name.out" \
    2>"$work/sample.err" || fail "engine-sample $* exited with $?"
  grep -qx 'validation messages: 0' "$work/$name.out" || fail "validation messages with $*"
  "$baker" export "$work/$name.tx" -o "$work/$name.png" >/dev/null || fail "export failed"
}

# For the hot reload tests: waits up to 30 s until file $1 has a line matching $2 (described by $3
# in the failure), failing early if process $4 (one the test started) has exited.
wait_for_line() {
  local tries
  for ((tries = 0; tries < 300; ++tries)); do
    grep -q -- "$2" "$1" 2>/dev/null && return 0
    kill -0 "$4" 2>/dev/null || fail "engine-sample exited before $3"
    sleep 0.1
  done
  fail "no $3 within 30 s"
}
