#!/usr/bin/env bash
# `airc passes`, `airc rewrite` and `--plugin`: conformance outputs (printed
# by PyTorch 1.13, copies in tests/data/passes), the test plugins built by
# CMake (tests/plugins/ -> $AIRC_BUILD/lib), and every error path.
# Env (set by ctest): AIRC_BIN, AIRC_BUILD, AIRC_SRC.
#
# Exit codes: 0 success, 1 bad input (message on stderr), 2 usage error.
set -uo pipefail
: "${AIRC_BIN:?}" "${AIRC_BUILD:?}" "${AIRC_SRC:?}"
AIRC=$AIRC_BIN/airc
PY=${AIRC_PYTHON:-/usr/bin/python3}
[[ -x $PY ]] || PY=python3
DATA=$AIRC_SRC/tests/data/passes
PLUGIN=$AIRC_BUILD/lib/libairc_test_plugin.so
BADABI=$AIRC_BUILD/lib/libairc_test_plugin_badabi.so

tmp=$(mktemp -d "${TMPDIR:-/tmp}/airc-cli-passes.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failures=0
checks=0

fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

# expect RC DESCRIPTION CMD...: runs CMD (stdout in $tmp/out, stderr in
# $tmp/err); its exit status must be RC, and a failure must say something on
# stderr starting with "airc".
expect() {
    local want=$1 what=$2
    shift 2
    timeout 20 "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    rc=$?
    checks=$((checks + 1))
    if ((rc != want)); then
        fail "$what: exit $rc, expected $want: $*"
        head -c 2000 "$tmp/err" >&2
        return 1
    fi
    if ((want != 0)) && ! head -c 4096 "$tmp/err" | grep -q '^airc'; then
        fail "$what: no 'airc...' message on stderr"
        return 1
    fi
    return 0
}

# same_as FILE DESCRIPTION: stdout of the last command equals FILE byte for byte.
same_as() {
    cmp -s "$1" "$tmp/out" || {
        fail "$2: output differs from $(basename "$1")"
        diff "$1" "$tmp/out" | head -20 >&2
    }
}

# says TEXT DESCRIPTION: stderr of the last command contains TEXT.
says() {
    grep -qF -- "$1" "$tmp/err" || {
        fail "$2: stderr does not say '$1'"
        head -c 1000 "$tmp/err" >&2
    }
}

for f in "$PLUGIN" "$BADABI"; do
    [[ -f $f ]] || { echo "FAIL: $f not built"; exit 1; }
done

# ---- help -----------------------------------------------------------------

expect 0 "--help" "$AIRC" --help
for w in passes rewrite --plugin; do
    grep -q -- "$w" "$tmp/out" || fail "airc --help does not mention $w"
done
for cmd in passes rewrite; do
    expect 0 "$cmd --help" "$AIRC" "$cmd" --help
    grep -q "^Usage: airc $cmd" "$tmp/out" || fail "$cmd --help is not $cmd's help"
    expect 0 "help $cmd" "$AIRC" help "$cmd"
done
expect 0 "passes --help" "$AIRC" passes --help
for w in --only --disable --pre-pass --post-pass --input --set LIB.so:SYMBOL constant_folding; do
    grep -q -- "$w" "$tmp/out" || fail "passes --help does not mention $w"
done
expect 0 "rewrite --help" "$AIRC" rewrite --help
grep -q -- "matches: N" "$tmp/out" || fail "rewrite --help does not explain 'matches: N'"

# ---- usage errors (2) -----------------------------------------------------

expect 2 "passes without FILE" "$AIRC" passes
expect 2 "passes unknown option" "$AIRC" passes --frobnicate "$DATA/dce.before.fx"
expect 2 "passes two files" "$AIRC" passes "$DATA/dce.before.fx" "$DATA/cse.before.fx"
expect 2 "passes --only without a value" "$AIRC" passes "$DATA/dce.before.fx" --only
expect 2 "passes --set without '='" "$AIRC" passes --set passes.dce "$DATA/dce.before.fx"
expect 2 "rewrite without FILE" "$AIRC" rewrite --pattern "$DATA/rewrite.pattern.fx" \
    --replacement "$DATA/rewrite.replacement.fx"
expect 2 "rewrite without --pattern" "$AIRC" rewrite "$DATA/rewrite.before.fx" \
    --replacement "$DATA/rewrite.replacement.fx"
expect 2 "rewrite without --replacement" "$AIRC" rewrite "$DATA/rewrite.before.fx" \
    --pattern "$DATA/rewrite.pattern.fx"
expect 2 "rewrite with two stdins" "$AIRC" rewrite - --pattern - \
    --replacement "$DATA/rewrite.replacement.fx"
expect 2 "--plugin without a value (global)" "$AIRC" --plugin
expect 2 "--plugin without a value (in a command)" "$AIRC" lint "$DATA/dce.before.fx" --plugin

# ---- built-in passes: conformance with torch.fx ---------------------------

expect 0 "passes --only dce" "$AIRC" passes "$DATA/dce.before.fx" --only dce &&
    same_as "$DATA/dce.after.fx" "passes --only dce"
[[ ! -s $tmp/err ]] || fail "passes --only dce wrote to stderr"
expect 0 "passes --only cse" "$AIRC" passes --only cse "$DATA/cse.before.fx" &&
    same_as "$DATA/cse.after.fx" "passes --only cse"
expect 0 "passes --only=cse" "$AIRC" passes --only=cse "$DATA/cse.before.fx" &&
    same_as "$DATA/cse.after.fx" "passes --only=cse"
# (expect reads stdin from /dev/null: this one runs by hand)
checks=$((checks + 1))
if timeout 20 "$AIRC" passes --only dce - <"$DATA/dce.before.fx" >"$tmp/out" 2>"$tmp/err"; then
    same_as "$DATA/dce.after.fx" "passes on standard input"
else
    fail "passes on standard input: exit $?"
fi
# The whole default pipeline: the dce case has nothing for the other passes
# to do (no in-place op, no view, no duplicate, no types to propagate from).
expect 0 "passes, all built-ins" "$AIRC" passes "$DATA/dce.before.fx" &&
    same_as "$DATA/dce.after.fx" "passes, all built-ins"
expect 0 "passes --only dce,cse" "$AIRC" passes --only dce,cse "$DATA/cse.before.fx" &&
    same_as "$DATA/cse.after.fx" "passes --only dce,cse"
# Switching dce off leaves the dead nodes: the graph prints as it was read.
expect 0 "passes --disable dce" "$AIRC" passes --disable dce "$DATA/dce.before.fx" &&
    same_as "$DATA/dce.before.fx" "passes --disable dce"
expect 0 "passes --only cse on the dce case" "$AIRC" passes --only cse "$DATA/dce.before.fx" &&
    same_as "$DATA/dce.before.fx" "passes --only cse on the dce case"
expect 0 "passes --only dce --disable dce" "$AIRC" passes --only dce --disable dce \
    "$DATA/dce.before.fx" && same_as "$DATA/dce.before.fx" "passes --only dce --disable dce"
# --set flips TorchAir's config switches; --only/--disable apply after it.
expect 0 "passes --set passes.dce=false" "$AIRC" passes --set passes.dce=false \
    "$DATA/dce.before.fx" && same_as "$DATA/dce.before.fx" "passes --set passes.dce=false"
expect 0 "passes --set passes.dce=false --only dce" "$AIRC" passes --set passes.dce=false \
    --only dce "$DATA/dce.before.fx" && same_as "$DATA/dce.after.fx" "--set then --only"
expect 1 "passes --set unknown key" "$AIRC" passes --set no.such.key=1 "$DATA/dce.before.fx" &&
    says "no.such.key" "passes --set unknown key"
expect 1 "passes --set bad value" "$AIRC" passes --set passes.dce=maybe "$DATA/dce.before.fx"

# constant_folding: ones * 2 reads no input, so it becomes a constant (a new
# get_attr where mul was); the other passes are off, so dead code stays.
cat >"$tmp/fold.fx" <<'EOF'
graph():
    %x_1 : [#users=1] = placeholder[target=x_1]
    %ones : [#users=1] = call_function[target=torch.ops.aten.ones.default](args = ([2, 3],), kwargs = {device: cpu, pin_memory: False})
    %mul : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%ones, 2), kwargs = {})
    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%x_1, %mul), kwargs = {})
    return add
EOF
cat >"$tmp/fold.want" <<'EOF'
graph():
    %x_1 : [#users=1] = placeholder[target=x_1]
    %_folded_constant_0 : [#users=1] = get_attr[target=_folded_constant_0]
    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%x_1, %_folded_constant_0), kwargs = {})
    return add
EOF
expect 0 "passes --only constant_folding" "$AIRC" passes --only constant_folding "$tmp/fold.fx" &&
    same_as "$tmp/fold.want" "passes --only constant_folding"
expect 0 "passes --disable constant_folding" "$AIRC" passes --disable constant_folding \
    "$tmp/fold.fx" && same_as "$tmp/fold.fx" "passes --disable constant_folding"
expect 1 "passes --only unknown" "$AIRC" passes --only dce,frobnicate "$DATA/dce.before.fx" &&
    says "unknown built-in pass 'frobnicate'" "--only unknown"
says "meta_propagation" "--only unknown lists the built-in passes"
expect 1 "passes --disable unknown" "$AIRC" passes --disable frobnicate "$DATA/dce.before.fx" &&
    says "frobnicate" "--disable unknown"
expect 1 "passes --only empty name" "$AIRC" passes --only dce, "$DATA/dce.before.fx"
expect 1 "passes missing file" "$AIRC" passes "$tmp/does-not-exist.fx" &&
    says "does-not-exist.fx" "passes missing file"

# --input gives the placeholders' types (as fmt --types): mm of f32[2, 3] and
# f32[3, 4] is f32[2, 4]; abs and add (with a scalar) keep it.
write_npy() { # PATH DESCR SHAPE-TUPLE ITEMSIZE NUMEL (format 1.0, zero data)
    "$PY" - "$@" <<'PY'
import sys
path, descr, shape, itemsize, numel = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape)
header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
with open(path, "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode())
    f.write(bytes(itemsize * numel))
PY
}
if write_npy "$tmp/x23.npy" '<f4' '(2, 3)' 4 6 && write_npy "$tmp/y34.npy" '<f4' '(3, 4)' 4 12; then
    expect 0 "passes --input --types" "$AIRC" passes --types --input "$tmp/x23.npy" \
        -i "$tmp/y34.npy" "$DATA/dce.before.fx" &&
        for want in '%x_1 : f32[2, 3]' '%y_1 : f32[3, 4]' '%mm : f32[2, 4]' '%add : f32[2, 4]'; do
            grep -qF -- "$want" "$tmp/out" || fail "passes --input --types: no '$want'"
        done
    grep -q '%exp' "$tmp/out" && fail "passes --input --types: dce did not run"
    # Without --types the same graph prints as torch would (types not shown).
    expect 0 "passes --input" "$AIRC" passes --input "$tmp/x23.npy" --input "$tmp/y34.npy" \
        "$DATA/dce.before.fx" && same_as "$DATA/dce.after.fx" "passes --input"
    expect 1 "passes --input too many" "$AIRC" passes --input "$tmp/x23.npy" \
        --input "$tmp/y34.npy" --input "$tmp/y34.npy" "$DATA/dce.before.fx" &&
        says "3 --input files given, but the graph has 2 placeholders" "passes --input too many"
    expect 1 "passes --input too few" "$AIRC" passes --input "$tmp/x23.npy" "$DATA/dce.before.fx" &&
        says "placeholder 'y_1'" "passes --input too few"
    # Wrong shapes are a meta propagation error naming the node.
    expect 1 "passes --input bad shapes" "$AIRC" passes --input "$tmp/x23.npy" \
        --input "$tmp/x23.npy" "$DATA/dce.before.fx" && says "mm" "passes --input bad shapes"
else
    fail "cannot write .npy files with $PY"
fi
expect 1 "passes --input missing file" "$AIRC" passes --input "$tmp/nope.npy" "$DATA/dce.before.fx"

# ---- rewrite: conformance with torch.fx's replace_pattern ----------------

expect 0 "rewrite" "$AIRC" rewrite "$DATA/rewrite.before.fx" --pattern "$DATA/rewrite.pattern.fx" \
    --replacement "$DATA/rewrite.replacement.fx" && same_as "$DATA/rewrite.after.fx" "rewrite"
[[ $(cat "$tmp/err") == "matches: 1" ]] || fail "rewrite: stderr is not 'matches: 1': $(head -c 300 "$tmp/err")"
expect 0 "rewrite -p -r" "$AIRC" rewrite -p "$DATA/rewrite.pattern.fx" \
    -r "$DATA/rewrite.replacement.fx" "$DATA/rewrite.before.fx" &&
    same_as "$DATA/rewrite.after.fx" "rewrite -p -r"
# No occurrence: the graph is unchanged and the count is 0.
expect 0 "rewrite, no match" "$AIRC" rewrite "$DATA/dce.before.fx" --pattern "$DATA/rewrite.pattern.fx" \
    --replacement "$DATA/rewrite.replacement.fx" && same_as "$DATA/dce.before.fx" "rewrite, no match"
[[ $(cat "$tmp/err") == "matches: 0" ]] || fail "rewrite, no match: stderr is not 'matches: 0'"
expect 1 "rewrite missing pattern file" "$AIRC" rewrite "$DATA/rewrite.before.fx" \
    --pattern "$tmp/nope.fx" --replacement "$DATA/rewrite.replacement.fx" &&
    says "nope.fx" "rewrite missing pattern file"
# A replacement whose placeholder count differs from the pattern's.
cat >"$tmp/one_input.fx" <<'EOF'
graph():
    %x : [#users=1] = placeholder[target=x]
    %neg : [#users=1] = call_function[target=torch.ops.aten.neg.default](args = (%x,), kwargs = {})
    return neg
EOF
expect 1 "rewrite placeholder count mismatch" "$AIRC" rewrite "$DATA/rewrite.before.fx" \
    --pattern "$DATA/rewrite.pattern.fx" --replacement "$tmp/one_input.fx"

# ---- plugins ----------------------------------------------------------------

# A graph with the plugin's op, and a dead node for dce.
cat >"$tmp/twice.fx" <<'EOF'
graph():
    %x : [#users=2] = placeholder[target=x]
    %twice : [#users=1] = call_function[target=torch.ops.test_plugin.twice.default](args = (%x,), kwargs = {})
    %neg : [#users=0] = call_function[target=torch.ops.aten.neg.default](args = (%x,), kwargs = {})
    %relu : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%twice,), kwargs = {})
    return relu
EOF
# Expected after lowering twice(x) to x + x (the new node is named after its
# op, takes twice's place; add(x, x) is one user of x, as torch.fx counts)
# and dce (neg is dead).
cat >"$tmp/twice.lowered.fx" <<'EOF'
graph():
    %x : [#users=1] = placeholder[target=x]
    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%x, %x), kwargs = {})
    %relu : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%add,), kwargs = {})
    return relu
EOF
# Only dce: the op is kept, the dead node goes.
grep -v '%neg' "$tmp/twice.fx" | sed 's/%x : \[#users=2\]/%x : [#users=1]/' >"$tmp/twice.dce.fx"

expect 1 "lint without the plugin" "$AIRC" lint "$tmp/twice.fx" &&
    says "test_plugin" "lint without the plugin"
expect 0 "--plugin before the command" "$AIRC" --plugin "$PLUGIN" lint "$tmp/twice.fx"
expect 0 "--plugin=LIB before the command" "$AIRC" "--plugin=$PLUGIN" fmt "$tmp/twice.fx" &&
    same_as "$tmp/twice.fx" "--plugin fmt"
expect 0 "--plugin among the command's arguments" "$AIRC" lint "$tmp/twice.fx" --plugin "$PLUGIN"
expect 0 "--plugin, no pass" "$AIRC" passes --only dce "$tmp/twice.fx" --plugin "$PLUGIN" &&
    same_as "$tmp/twice.dce.fx" "--plugin, only dce"
expect 0 "--pre-pass NAME from the plugin" "$AIRC" passes --plugin "$PLUGIN" \
    --pre-pass test_plugin.lower_twice --only dce "$tmp/twice.fx" &&
    same_as "$tmp/twice.lowered.fx" "--pre-pass NAME"
# As a post-pass: dce removes neg first, then twice is lowered: same result.
expect 0 "--post-pass NAME from the plugin" "$AIRC" --plugin "$PLUGIN" passes \
    --post-pass test_plugin.lower_twice --only dce "$tmp/twice.fx" &&
    same_as "$tmp/twice.lowered.fx" "--post-pass NAME"
expect 0 "--pre-pass LIB.so:SYMBOL" "$AIRC" --plugin "$PLUGIN" passes --only dce \
    --pre-pass "$PLUGIN:test_plugin_lower_twice" "$tmp/twice.fx" &&
    same_as "$tmp/twice.lowered.fx" "--pre-pass LIB.so:SYMBOL"
# A LIB.so without '/' is a file in the current directory.
cd "$AIRC_BUILD/lib" || exit 1
expect 0 "--pre-pass LIB.so:SYMBOL, relative" "$AIRC" --plugin libairc_test_plugin.so passes \
    --only dce --pre-pass libairc_test_plugin.so:test_plugin_lower_twice "$tmp/twice.fx" &&
    same_as "$tmp/twice.lowered.fx" "--pre-pass LIB.so:SYMBOL, relative"
cd - >/dev/null || exit 1
# A user pass that fails: exit 1, the pass named, its message shown.
expect 1 "failing --post-pass" "$AIRC" passes --post-pass "$PLUGIN:test_plugin_failing_pass" \
    "$DATA/dce.before.fx" && { says "fails on purpose" "failing --post-pass"; says \
    "test_plugin_failing_pass" "failing --post-pass names the pass"; }
[[ ! -s $tmp/out ]] || fail "failing --post-pass printed a graph"

# Errors: unknown pass, missing library, missing symbol, not a plugin, ABI
# mismatch, double load.
expect 1 "--pre-pass unknown NAME" "$AIRC" passes --pre-pass no_such_pass "$DATA/dce.before.fx" &&
    says "unknown pass 'no_such_pass'" "--pre-pass unknown NAME"
expect 1 "--pre-pass plugin NAME without --plugin" "$AIRC" passes \
    --pre-pass test_plugin.lower_twice "$DATA/dce.before.fx" &&
    says "test_plugin.lower_twice" "--pre-pass plugin NAME without --plugin"
expect 1 "--pre-pass missing library" "$AIRC" passes --pre-pass "$tmp/nope.so:some_pass" \
    "$DATA/dce.before.fx" && says "nope.so" "--pre-pass missing library"
expect 1 "--post-pass missing symbol" "$AIRC" passes --post-pass "$PLUGIN:no_such_symbol" \
    "$DATA/dce.before.fx" && says "no symbol 'no_such_symbol'" "--post-pass missing symbol"
expect 1 "--pre-pass LIB.so: without SYMBOL" "$AIRC" passes --pre-pass "$PLUGIN:" \
    "$DATA/dce.before.fx" && says "missing SYMBOL" "--pre-pass LIB.so:"
expect 1 "--pre-pass from a library of the wrong ABI" "$AIRC" passes \
    --pre-pass "$BADABI:test_plugin_badabi_pass" "$DATA/dce.before.fx" &&
    says "ABI version 42" "--pre-pass wrong ABI"
expect 1 "--plugin missing file" "$AIRC" --plugin "$tmp/nope.so" lint "$DATA/dce.before.fx" &&
    says "nope.so" "--plugin missing file"
says "cannot load plugin" "--plugin missing file"
expect 1 "--plugin that is not a plugin" "$AIRC" --plugin "$AIRC_BUILD/lib/libairc.so" lint \
    "$DATA/dce.before.fx" && says "not an airc plugin" "--plugin not a plugin"
expect 1 "--plugin ABI mismatch" "$AIRC" --plugin "$BADABI" lint "$DATA/dce.before.fx" &&
    { says "ABI version 42" "--plugin ABI mismatch: the plugin's version";
      says "plugin ABI version 1" "--plugin ABI mismatch: airc's version"; }
[[ ! -s $tmp/out ]] || fail "--plugin ABI mismatch: the command still ran"
expect 1 "--plugin twice" "$AIRC" --plugin "$PLUGIN" lint "$tmp/twice.fx" --plugin "$PLUGIN" &&
    says "already loaded" "--plugin twice"
expect 1 "same --pre-pass twice" "$AIRC" passes --pre-pass "$PLUGIN:test_plugin_lower_twice" \
    --pre-pass "$PLUGIN:test_plugin_lower_twice" "$DATA/dce.before.fx"

echo "$checks checks, $failures failures"
((failures == 0))
