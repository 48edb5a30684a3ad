#!/usr/bin/env bash
# Runs each fuzz target for a bounded time and fails on any finding (crash, sanitizer report, leak,
# timeout, out-of-memory, broken invariant).
#
# Usage: fuzz/run_fuzzers.sh <build-dir> <seconds-per-target> [target...]
#   <build-dir>  a build configured with clang, -DASSETLIB_FUZZ=ON
#                -DASSETLIB_SANITIZE=fuzzer-no-link,address,undefined, with target `fuzzers` built
#   targets      default: fuzz_asset fuzz_manifest fuzz_image_import fuzz_obj_import fuzz_gltf_import
#                fuzz_pack
#
# Seeds come from fuzz/make_seeds.sh (made into <build-dir>/fuzz-seeds when missing) and from
# fuzz/regressions/<target>/ (every past finding runs first: a regression fails at once). Each target's
# working corpus is <build-dir>/fuzz-corpus/<target>/ and grows from run to run; findings are written
# to <build-dir>/fuzz-artifacts/<target>/ and full logs to <build-dir>/fuzz-logs/<target>.log.
# Prints executions, exec/s, coverage (cov = covered edges, ft = features, from libFuzzer's last
# status line), corpus size and peak RSS per target, and writes them to <build-dir>/fuzz-summary.tsv.
# FUZZ_SEED=<n> fixes libFuzzer's random seed (scripts/test.sh does, so that CI runs are reproducible);
# unset, each run explores differently. The seed is printed.
# Exit status: 0 when no target found anything, 1 otherwise, 2 on usage errors.
set -uo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
[ $# -ge 2 ] || { echo "usage: $0 <build-dir> <seconds-per-target> [target...]" >&2; exit 2; }
build=$(cd "$1" && pwd) || exit 2
seconds=$2
shift 2
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fuzz_asset fuzz_manifest fuzz_image_import fuzz_obj_import fuzz_gltf_import fuzz_pack)

for t in "${targets[@]}"; do
  [ -x "$build/fuzz/$t" ] || { echo "run_fuzzers: $build/fuzz/$t not built (cmake --build $build --target fuzzers)" >&2; exit 2; }
done
if [ ! -d "$build/fuzz-seeds" ]; then
  bash "$root/fuzz/make_seeds.sh" "$build" || exit 2
fi

# Sanitizers stop at the first report; leaks count as findings.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

summary=$build/fuzz-summary.tsv
printf 'target\tseed\tseconds\texecs\texecs_per_s\tcov\tft\tcorpus\tpeak_rss_mb\tresult\n' >"$summary"
failed=()
for t in "${targets[@]}"; do
  corpus=$build/fuzz-corpus/$t
  artifacts=$build/fuzz-artifacts/$t
  log=$build/fuzz-logs/$t.log
  mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
  options=()
  [ -f "$root/fuzz/$t.dict" ] && options+=(-dict="$root/fuzz/$t.dict")
  [ -n "${FUZZ_SEED:-}" ] && options+=(-seed="$FUZZ_SEED")
  before=$(find "$artifacts" -type f | wc -l)
  "$build/fuzz/$t" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
    -artifact_prefix="$artifacts/" "${options[@]}" "$corpus" "$build/fuzz-seeds/$t" "$root/fuzz/regressions/$t" \
    >"$log" 2>&1
  rc=$?
  after=$(find "$artifacts" -type f | wc -l)

  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  seed=$(sed -n 's/^INFO: Seed: *//p' "$log" | head -n 1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
  rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -n 1)
  status_line=$(grep -E '^#[0-9]+.*cov: [0-9]+ ft: [0-9]+' "$log" | tail -n 1)
  cov=$(sed -n 's/.*cov: \([0-9]*\).*/\1/p' <<<"$status_line")
  ft=$(sed -n 's/.*ft: \([0-9]*\).*/\1/p' <<<"$status_line")
  corp=$(sed -n 's/.*corp: \([0-9]*\).*/\1/p' <<<"$status_line")
  result=ok
  if [ "$rc" != 0 ] || [ "$after" -gt "$before" ]; then
    result=FINDING
    failed+=("$t")
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$t" "${seed:-?}" "$seconds" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" \
    "${corp:-?}" "${rss:-?}" "$result" >>"$summary"
  printf '%-18s seed %-10s %4ss  execs %-10s (%s/s)  cov %-6s ft %-7s corpus %-6s peak RSS %s MB  %s\n' "$t" "${seed:-?}" "$seconds" \
    "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" "${rss:-?}" "$result"
  if [ "$result" != ok ]; then
    echo "---- $t: exit $rc; last lines of $log:"
    grep -E 'ERROR|WARNING|FUZZ_CHECK|SUMMARY|runtime error|Test unit written|#[0-9]+ 0x' "$log" | head -n 40
    echo "---- artifacts in $artifacts:"
    find "$artifacts" -type f -newer "$summary" -printf '  %p\n' 2>/dev/null || ls "$artifacts"
    echo "---- reproduce: $build/fuzz/$t <artifact>; keep it: cp <artifact> $root/fuzz/regressions/$t/"
  fi
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "run_fuzzers: FINDINGS in ${failed[*]}" >&2
  exit 1
fi
echo "run_fuzzers: no findings (${#targets[@]} targets x ${seconds}s)"
