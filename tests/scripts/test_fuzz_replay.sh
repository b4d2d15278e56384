#!/usr/bin/env bash
# Replays each fuzz target's corpus (fuzz/corpus/<target>/: seeds and the
# inputs of every bug the fuzzers found) plus a fixed number of mutants with
# a fixed seed, through the fuzz_<target>_replay binaries (fuzz/: the
# libFuzzer targets under a plain main). Deterministic. Fails on a crash, a
# sanitizer report (in a sanitized tree), a hang (time limit) or a non-zero
# exit. AIRC_FUZZ_MUTANTS scales the mutant counts (percent, default 100).
# Env (set by ctest): AIRC_BIN, AIRC_SRC.
set -uo pipefail
: "${AIRC_BIN:?}" "${AIRC_SRC:?}"
scale=${AIRC_FUZZ_MUTANTS:-100}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

failures=0
# target:mutants (tuned so the whole script stays well under a minute on two
# cores in the sanitized Debug tree)
for spec in fx:20000 schema:20000 model:10000 npy:20000 npz:10000 api:3000; do
    t=${spec%%:*}
    n=$((${spec#*:} * scale / 100))
    bin=$AIRC_BIN/fuzz_${t}_replay
    if [[ ! -x $bin ]]; then
        echo "FAIL: $bin is missing" >&2
        failures=$((failures + 1))
        continue
    fi
    start=$(date +%s.%N)
    timeout 120 "$bin" -n "$n" -s 1 "$AIRC_SRC/fuzz/corpus/$t" >/dev/null 2>"${TMPDIR:-/tmp}/fuzz_$t.$$.err"
    rc=$?
    secs=$(echo "$(date +%s.%N) - $start" | bc)
    if [[ $rc -ne 0 ]] || grep -q "Sanitizer\|runtime error" "${TMPDIR:-/tmp}/fuzz_$t.$$.err"; then
        echo "FAIL: fuzz_$t replay (exit $rc); rerun: AIRC_FUZZ_SAVE=/tmp/mutant $bin -n $n -s 1 $AIRC_SRC/fuzz/corpus/$t" >&2
        tail -40 "${TMPDIR:-/tmp}/fuzz_$t.$$.err" >&2
        failures=$((failures + 1))
    else
        printf 'fuzz_%s: corpus + %d mutants in %.1f s\n' "$t" "$n" "$secs"
    fi
    rm -f "${TMPDIR:-/tmp}/fuzz_$t.$$.err"
done
if [[ $failures -ne 0 ]]; then
    echo "$failures fuzz replay(s) failed" >&2
    exit 1
fi
echo "fuzz replay: all targets ok"
