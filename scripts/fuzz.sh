#!/usr/bin/env bash
# Runs airc's libFuzzer targets long, by hand:
#   scripts/fuzz.sh [SECONDS_EACH] [TARGET...]
# Builds build-fuzz/ with clang and AIRC_FUZZ=ON (ASan+UBSan+libFuzzer; no
# tests, examples or benchmarks), then runs each target (default: all of
# fx schema model npy npz api) for SECONDS_EACH (default 60) on one core,
# starting from fuzz/corpus/<target>/. New corpus entries go to
# $AIRC_FUZZ_SCRATCH/<target>/corpus (default build-fuzz/scratch; the
# committed corpus is never written), crashes, leaks and hangs to
# $AIRC_FUZZ_SCRATCH/<target>/ as crash-*, leak-*, timeout-*, oom-*.
# Reproduce one: build-fuzz/bin/fuzz_<target> FILE. Keep a fixed bug's
# input as a regression: copy it into fuzz/corpus/<target>/.
# Env: AIRC_FUZZ_BUILD (build dir), AIRC_FUZZ_SCRATCH, AIRC_FUZZ_ARGS
# (extra libFuzzer flags), AIRC_JOBS (build jobs).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${AIRC_FUZZ_BUILD:-$root/build-fuzz}
scratch=${AIRC_FUZZ_SCRATCH:-$build/scratch}
secs=${1:-60}
shift || true
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(fx schema model npy npz api)
jobs=${AIRC_JOBS:-$(nproc 2>/dev/null || echo 2)}

CC=${CC:-clang} cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER="${CC:-clang}" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DAIRC_FUZZ=ON -DAIRC_CUDA=OFF -DAIRC_BUILD_TESTS=OFF \
    -DAIRC_BUILD_EXAMPLES=OFF -DAIRC_BUILD_BENCH=OFF >/dev/null || exit 2
cmake --build "$build" -j"$jobs" || exit 2

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
status=0
for t in "${targets[@]}"; do
    bin=$build/bin/fuzz_$t
    [[ -x $bin ]] || { echo "fuzz.sh: no target '$t' ($bin)" >&2; exit 2; }
    out=$scratch/$t
    mkdir -p "$out/corpus"
    case $t in
    model) maxlen=65536 ;;
    fx) maxlen=16384 ;;
    api) maxlen=512 ;;
    *) maxlen=8192 ;;
    esac
    echo "== fuzz_$t: ${secs}s, new inputs in $out/corpus" >&2
    # shellcheck disable=SC2086
    "$bin" "$out/corpus" "$root/fuzz/corpus/$t" -max_total_time="$secs" -max_len=$maxlen \
        -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=1024 -artifact_prefix="$out/" \
        -print_final_stats=1 ${AIRC_FUZZ_ARGS:-} 2>"$out/log.txt"
    rc=$?
    grep -E "^(stat::number_of_executed_units|stat::average_exec_per_sec|stat::new_units_added)" \
        "$out/log.txt" | sed "s/^/  /" >&2
    if [[ $rc -ne 0 ]]; then
        echo "fuzz_$t: FAILED (exit $rc): see $out/log.txt and $out/crash-* / leak-* / timeout-*" >&2
        status=1
    fi
done
exit $status
