#!/usr/bin/env bash
# The example programs run, and docs/api.md shows examples/parse_print.c as
# it is. Env (set by ctest): AIRC_BIN, AIRC_SRC.
set -uo pipefail
: "${AIRC_BIN:?}" "${AIRC_SRC:?}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/airc-examples.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
SEED=$AIRC_SRC/examples/seed001

# docs/api.md's complete example is examples/parse_print.c, verbatim: the
# ```c block that follows the "## A complete example" heading.
awk '/^## A complete example/ { s = 1 } s && /^```c$/ { c = 1; next } c && /^```$/ { exit } c' \
    "$AIRC_SRC/docs/api.md" >"$tmp/doc.c"
cmp -s "$tmp/doc.c" "$AIRC_SRC/examples/parse_print.c" ||
    { fail "docs/api.md's example differs from examples/parse_print.c"; diff "$tmp/doc.c" "$AIRC_SRC/examples/parse_print.c" | head >&2; }

# Types by hand from torch semantics (see test_cli.sh): every node of the
# seed graph is f32[3, 3] for a 3x3 float32 input.
cat >"$tmp/expected" <<TXT
6 nodes; output node: output
graph():
    %x_1 : f32[3, 3] [#users=2] = placeholder[target=x_1]
    %mm : f32[3, 3] [#users=2] = call_function[target=torch.ops.aten.mm.default](args = (%x_1, %x_1), kwargs = {})
    %abs_1 : f32[3, 3] [#users=1] = call_function[target=torch.ops.aten.abs.default](args = (%mm,), kwargs = {})
    %add : f32[3, 3] [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%abs_1, 1), kwargs = {})
    %sub : f32[3, 3] [#users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%x_1, %mm), kwargs = {})
    return (add, sub)
TXT
timeout 20 "$AIRC_BIN/parse_print" "$SEED/model.fx" "$SEED/x.npy" >"$tmp/out" 2>"$tmp/err"
rc=$?
if ((rc != 0)); then
    fail "parse_print exited $rc"; cat "$tmp/err" >&2
else
    head -1 "$tmp/out" | grep -q '^airc [0-9]' || fail "parse_print: no version line"
    tail -n +2 "$tmp/out" | cmp -s "$tmp/expected" - ||
        { fail "parse_print: wrong output"; tail -n +2 "$tmp/out" | diff "$tmp/expected" - >&2; }
fi

# Without inputs: printed as read (the file itself, after the two info lines).
timeout 20 "$AIRC_BIN/parse_print" "$SEED/model.fx" >"$tmp/out" 2>"$tmp/err" ||
    fail "parse_print without inputs failed"
tail -n +3 "$tmp/out" | cmp -s "$SEED/model.fx" - || fail "parse_print without inputs: wrong output"

# Errors are reported, not crashed on.
printf 'graph():\n    %%x : [#users=0] = placeholder[target=x\n' >"$tmp/bad.fx"
timeout 20 "$AIRC_BIN/parse_print" "$tmp/bad.fx" >/dev/null 2>"$tmp/err"
rc=$?
((rc == 1)) || fail "parse_print on a malformed file: exit $rc, expected 1"
grep -q 'bad.fx:2:[0-9]*:' "$tmp/err" || fail "parse_print: error not located"

echo "$failures failures"
((failures == 0))
