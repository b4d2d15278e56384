#!/usr/bin/env bash
# Conformance: every graph printed by PyTorch 1.13 with inputs and expected
# outputs — ../shared/conformance (when present) and the project's own suite
# tests/data/graphs (tests/gen_graphs.py) — runs through `airc run` in each
# mode of AIRC_CONFORMANCE_MODES (default: eager, reduce-overhead replayed 3
# times, and max-autotune: lowered to Ascend IR, read back and executed) and matches within DESIGN.md's tolerance: rtol
# 1e-4, atol 1e-4 x (1 + max|expected|); integer and boolean results exactly.
# (Replays on fresh inputs are checked by tests/unit/test_replay.c.)
#
# A case is NAME.fx with NAME.in0.npy... (the inputs, in placeholder order)
# and NAME.out0.npy... (the flattened outputs). Graphs without .out files
# (pass goldens) are skipped. A case that fails for a missing kernel is
# reported as such, with the kernels missing over all cases listed at the
# end; it still fails the test.
#
# Env: AIRC_BIN (the airc tool's folder), AIRC_SRC, AIRC_SHARED (optional).
set -uo pipefail
: "${AIRC_BIN:?}" "${AIRC_SRC:?}"
AIRC=$AIRC_BIN/airc
PY=${AIRC_PYTHON:-/usr/bin/python3}
[[ -x $PY ]] || PY=python3
CONF=${AIRC_SHARED:-$AIRC_SRC/../shared}/conformance

tmp=$(mktemp -d "${TMPDIR:-/tmp}/airc-conf.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

dirs=()
[[ -d $CONF ]] && dirs+=("$CONF")
dirs+=("$AIRC_SRC/tests/data/graphs")

cases=0
run_failures=0
: >"$tmp/compare.txt"
: >"$tmp/missing.txt"
modes=${AIRC_CONFORMANCE_MODES:-eager reduce-overhead max-autotune}
for mode in $modes; do
repeat=1
[[ $mode == eager ]] || repeat=3
for dir in "${dirs[@]}"; do
    suite=$mode/$(basename "$dir")
    for fx in "$dir"/*.fx; do
        name=$(basename "$fx" .fx)
        [[ -f $dir/$name.out0.npy ]] || continue
        cases=$((cases + 1))
        args=()
        i=0
        while [[ -f $dir/$name.in$i.npy ]]; do
            args+=(--input "$dir/$name.in$i.npy")
            i=$((i + 1))
        done
        out=$tmp/$suite/$name
        mkdir -p "$out"
        if ! timeout 120 "$AIRC" run --mode "$mode" --repeat $repeat "$fx" "${args[@]}" \
            --output-dir "$out" \
            >"$out/stdout" 2>"$out/stderr" </dev/null; then
            run_failures=$((run_failures + 1))
            msg=$(head -c 400 "$out/stderr")
            if grep -q "no cpu kernel for" "$out/stderr"; then
                grep -o "no cpu kernel for [^ ]*" "$out/stderr" | sed 's/no cpu kernel for //' \
                    >>"$tmp/missing.txt"
                echo "FAIL $suite/$name (missing kernel): $msg"
            else
                echo "FAIL $suite/$name: $msg"
            fi
            continue
        fi
        j=0
        while [[ -f $dir/$name.out$j.npy ]]; do
            echo "$suite/$name $j $dir/$name.out$j.npy $out/out$j.npy" >>"$tmp/compare.txt"
            j=$((j + 1))
        done
        if [[ -f $out/out$j.npy ]]; then
            echo "$suite/$name $j EXTRA $out/out$j.npy" >>"$tmp/compare.txt"
        fi
    done
done
done

"$PY" - "$tmp/compare.txt" >"$tmp/compare.out" <<'EOF'
import sys
import numpy as np

bad = {}
ok = set()
for line in open(sys.argv[1]):
    case, idx, exp_path, got_path = line.split()
    try:
        if exp_path == "EXTRA":
            raise ValueError("airc gave more outputs than PyTorch")
        exp = np.load(exp_path)
        try:
            got = np.load(got_path)
        except FileNotFoundError:
            raise ValueError("output missing")
        if got.dtype != exp.dtype:
            raise ValueError(f"dtype {got.dtype}, expected {exp.dtype}")
        if got.shape != exp.shape:
            raise ValueError(f"shape {got.shape}, expected {exp.shape}")
        if exp.dtype.kind in "fc":
            e = exp.astype(np.float64)
            g = got.astype(np.float64)
            finite = np.isfinite(e)
            if not np.array_equal(np.isnan(e), np.isnan(g)) or not np.array_equal(
                    e[~finite & ~np.isnan(e)], g[~finite & ~np.isnan(e)]):
                raise ValueError("nan/inf positions differ")
            scale = np.abs(e[finite]).max() if finite.any() else 0.0
            atol = 1e-4 * (1 + scale)
            err = np.abs(g[finite] - e[finite])
            lim = atol + 1e-4 * np.abs(e[finite])
            if (err > lim).any():
                k = int(np.argmax(err - lim))
                raise ValueError(f"max error {err.max():.3g} (at flat {k}: got "
                                 f"{g[finite][k]!r}, expected {e[finite][k]!r}; atol {atol:.3g})")
        elif not np.array_equal(got, exp):
            k = int(np.argmax((got != exp).ravel()))
            raise ValueError(f"values differ (first at flat {k}: got {got.ravel()[k]!r}, "
                             f"expected {exp.ravel()[k]!r})")
        ok.add(case)
    except Exception as ex:  # noqa: BLE001 - every problem is a failure to report
        bad.setdefault(case, []).append(f"out{idx}: {ex}")
for case in sorted(bad):
    print(f"FAIL {case}: " + "; ".join(bad[case]))
for case in sorted(ok - set(bad)):
    print(f"ok   {case}")
print(f"compare_failures {len(bad)}")
EOF
py_rc=$?
cat "$tmp/compare.out"
cmp_failures=$(sed -n 's/^compare_failures //p' "$tmp/compare.out")
[[ $py_rc -eq 0 && -n $cmp_failures ]] || { echo "FAIL: the comparison script failed"; exit 1; }

if [[ -s $tmp/missing.txt ]]; then
    echo "missing cpu kernels: $(sort -u "$tmp/missing.txt" | tr '\n' ' ')"
fi
failures=$((run_failures + cmp_failures))
echo "conformance: $cases cases, $((cases - failures)) pass, $failures fail"
[[ $cases -gt 0 && $failures -eq 0 ]]
