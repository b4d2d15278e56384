#!/usr/bin/env bash
# Seed 002's custom ops end to end (examples/custom_op):
# - the example program registers demo::my_op (functional) and
#   demo::my_inplace (in-place) through the API and checks eager,
#   reduce-overhead and max-autotune against its C reference: exit 0;
# - the same ops as a plugin: `airc run model.fx --plugin LIB --mode M
#   --seed 1` gives the same outputs in the three modes (DESIGN.md's
#   tolerance), and the max-autotune pbtxt dump shows the custom IR ops
#   (MyOp, and MyInplace whose output is named like its input);
# - loading the plugin twice is a clear error; without the plugin the model
#   names the unknown op.
# Env (set by ctest): AIRC_BIN, AIRC_BUILD, AIRC_SRC.
set -uo pipefail
: "${AIRC_BIN:?}" "${AIRC_BUILD:?}" "${AIRC_SRC:?}"
AIRC=$AIRC_BIN/airc
PLUGIN=$AIRC_BUILD/lib/libairc_custom_op_plugin.so
MODEL=$AIRC_SRC/examples/custom_op/model.fx
tmp=$(mktemp -d "${TMPDIR:-/tmp}/airc-custom-op.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
PY=${AIRC_PYTHON:-/usr/bin/python3}
[[ -x $PY ]] || PY=python3

"$AIRC_BIN/custom_op" >"$tmp/prog.out" 2>&1 || { fail "custom_op exited $?"; cat "$tmp/prog.out" >&2; }
grep -q "^custom_op: ok" "$tmp/prog.out" || fail "custom_op: no ok line"
grep -q "MyOp present, MyInplace present" "$tmp/prog.out" || fail "custom_op: the model lacks the custom IR ops"

for mode in eager reduce-overhead max-autotune; do
    extra=()
    [[ $mode == max-autotune ]] && extra=(--set debug.graph_dump.type=pbtxt --set "debug.graph_dump.path=$tmp/dump")
    if ! "$AIRC" --plugin "$PLUGIN" run "$MODEL" --mode "$mode" --seed 1 -o "$tmp/$mode" "${extra[@]}" \
        >"$tmp/out" 2>"$tmp/err"; then
        fail "airc run --mode $mode: $(cat "$tmp/err")"
    fi
done
"$PY" - "$tmp" <<'EOF' || fail "the three modes disagree"
import sys
import numpy as np
d = sys.argv[1]
for i in range(2):
    e = np.load(f"{d}/eager/out{i}.npy")
    for m in ("reduce-overhead", "max-autotune"):
        g = np.load(f"{d}/{m}/out{i}.npy")
        assert np.allclose(g, e, rtol=1e-4, atol=1e-4 * (1 + np.abs(e).max())), (m, i)
EOF
pb=$tmp/dump/dynamo_original_graph_0.pbtxt
grep -q 'op: "MyOp"' "$pb" 2>/dev/null || fail "the max-autotune dump has no MyOp"
grep -q 'op: "MyInplace"' "$pb" 2>/dev/null || fail "the max-autotune dump has no MyInplace"
grep -A40 'op: "MyInplace"' "$pb" 2>/dev/null | grep -q '\[o\]x' || fail "MyInplace's output is not named x"

if "$AIRC" --plugin "$PLUGIN" --plugin "$PLUGIN" lint "$MODEL" >/dev/null 2>"$tmp/err"; then
    fail "loading the plugin twice was accepted"
else
    grep -q "already loaded" "$tmp/err" || fail "plugin twice: $(cat "$tmp/err")"
fi
if "$AIRC" lint "$MODEL" >/dev/null 2>"$tmp/err"; then
    fail "the model linted without the plugin"
else
    grep -q "demo" "$tmp/err" || fail "without the plugin: $(cat "$tmp/err")"
fi

((failures == 0)) && echo "test_custom_op: ok"
exit $((failures > 0))
