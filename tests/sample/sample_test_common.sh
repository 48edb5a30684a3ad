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
