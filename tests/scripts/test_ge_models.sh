#!/usr/bin/env bash
# max-autotune's Ascend IR, checked from the outside:
# - every conformance case (../shared/conformance when present, and the
#   project's tests/data/graphs) compiles with `airc compile` to a ModelDef
#   that protoc decodes with Ascend's own ge_ir.proto
#   (../shared/reference/ge_ir.proto; without ../shared, airc's own subset,
#   backends/ge/ge_model.proto);
# - the seed graph after the seed-001 pass: MatMul and Abs carry
#   _user_stream_label = "stream_1", the Add does not, the Sub has a control
#   input from Abs; the pbtxt dump equals tests/data/ge/seed001.pbtxt (the
#   golden file, regenerate with AIRC_UPDATE_GOLDEN=1) and shows the same.
# Env (set by ctest): AIRC_BIN, AIRC_SRC, AIRC_SHARED (optional).
set -uo pipefail
: "${AIRC_BIN:?}" "${AIRC_SRC:?}"
AIRC=$AIRC_BIN/airc
SHARED=${AIRC_SHARED:-$AIRC_SRC/../shared}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/airc-ge.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
PY=${AIRC_PYTHON:-/usr/bin/python3}
[[ -x $PY ]] || PY=python3

if ! command -v protoc >/dev/null; then
    echo "FAIL: protoc (Debian's protobuf-compiler) is missing: scripts/setup.sh installs it" >&2
    exit 1
fi
if [[ -f $SHARED/reference/ge_ir.proto ]]; then
    PROTO_DIR=$SHARED/reference PROTO=ge_ir.proto
else
    PROTO_DIR=$AIRC_SRC/backends/ge PROTO=ge_model.proto
    echo "note: ../shared is absent; decoding with airc's own ge_model.proto"
fi
decode() { protoc --decode=ge.proto.ModelDef -I "$PROTO_DIR" "$PROTO_DIR/$PROTO" <"$1"; }

# ---- every conformance case decodes ------------------------------------------
dirs=()
[[ -d $SHARED/conformance ]] && dirs+=("$SHARED/conformance")
dirs+=("$AIRC_SRC/tests/data/graphs")
cases=0 decoded=0
for dir in "${dirs[@]}"; do
    for fx in "$dir"/*.fx; do
        name=$(basename "$fx" .fx)
        [[ -f $dir/$name.out0.npy ]] || continue
        args=()
        i=0
        while [[ -f $dir/$name.in$i.npy ]]; do
            args+=(-i "$dir/$name.in$i.npy")
            i=$((i + 1))
        done
        cases=$((cases + 1))
        if ! "$AIRC" compile "$fx" "${args[@]}" -o "$tmp/$name.pb" >"$tmp/out" 2>"$tmp/err"; then
            fail "$name: airc compile: $(head -c 300 "$tmp/err")"
            continue
        fi
        if ! decode "$tmp/$name.pb" >"$tmp/$name.txt" 2>"$tmp/err"; then
            fail "$name: protoc cannot decode the model: $(head -c 300 "$tmp/err")"
            continue
        fi
        grep -q 'type: "NetOutput"' "$tmp/$name.txt" || fail "$name: no NetOutput in the decoded model"
        decoded=$((decoded + 1))
    done
done
echo "decoded $decoded of $cases models with $PROTO"

# ---- the seed graph after the seed-001 pass ------------------------------------
SEED=$AIRC_SRC/examples/seed001
mkdir -p "$tmp/dump"
if ! "$AIRC" compile "$SEED/multistream.after.fx" -i "$SEED/x.npy" -o "$tmp/seed.pb" \
    --dump pbtxt --dump-path "$tmp/dump" >/dev/null 2>"$tmp/err"; then
    fail "seed: $(cat "$tmp/err")"
else
    decode "$tmp/seed.pb" >"$tmp/seed.txt" || fail "seed: protoc cannot decode the model"
    "$PY" - "$tmp/seed.txt" "$tmp/dump/dynamo_original_graph_0.pbtxt" <<'EOF' || fail "seed: streams or control edges are wrong"
import re, sys
text = open(sys.argv[1]).read()
ops = {}
for block in re.findall(r"\n  op \{\n(.*?)\n  \}", text, re.S):
    name = re.search(r'^    name: "(.*)"', block, re.M).group(1)
    typ = re.search(r'^    type: "(.*)"', block, re.M).group(1)
    inputs = re.findall(r'^    input: "(.*)"', block, re.M)
    label = re.search(r'key: "_user_stream_label"\n\s+value \{\n\s+s: "(.*)"', block)
    ops[name] = (typ, inputs, label.group(1) if label else None)
by_type = {t: n for n, (t, _, _) in ops.items()}
for t in ("MatMul", "Abs"):
    assert ops[by_type[t]][2] == "stream_1", (t, ops[by_type[t]])
for t in ("Add", "Sub"):
    assert ops[by_type[t]][2] is None, (t, ops[by_type[t]])
abs_name = by_type["Abs"]
sub_inputs = ops[by_type["Sub"]][1]
assert f"{abs_name}:-1" in sub_inputs and sub_inputs[-1] == f"{abs_name}:-1", sub_inputs
# the pbtxt shows the same: the control input as ^Abs, the label on MatMul
pb = open(sys.argv[2]).read()
nodes = dict(re.findall(r'node \{\n\s+name: "(.*?)"\n\s+op: "(.*?)"', pb))
sub = re.search(r'node \{\n\s+name: "%s"\n.*?\n\}' % re.escape(by_type["Sub"]), pb, re.S).group(0)
assert f'input: "^{abs_name}"' in sub, sub
mm = re.search(r'node \{\n\s+name: "%s"\n.*?\n\}' % re.escape(by_type["MatMul"]), pb, re.S).group(0)
assert "_user_stream_label" in mm and "stream_1" in mm, mm
EOF
    golden=$AIRC_SRC/tests/data/ge/seed001.pbtxt
    if [[ ${AIRC_UPDATE_GOLDEN:-0} == 1 ]]; then
        mkdir -p "$(dirname "$golden")" && cp "$tmp/dump/dynamo_original_graph_0.pbtxt" "$golden"
    fi
    cmp -s "$golden" "$tmp/dump/dynamo_original_graph_0.pbtxt" ||
        { fail "seed: the pbtxt differs from $golden"; diff "$golden" "$tmp/dump/dynamo_original_graph_0.pbtxt" | head -20 >&2; }
fi

# ---- ge_config graph options become model attributes; py dumps are refused ----
if "$AIRC" compile "$SEED/multistream.after.fx" -i "$SEED/x.npy" -o "$tmp/opt.pb" \
    --set ge_config.optimization_switch=AutomaticUbFusion:off --set ge_config.oo_level=O1 \
    >/dev/null 2>"$tmp/err"; then
    decode "$tmp/opt.pb" >"$tmp/opt.txt"
    grep -A3 'key: "ge.optimizationSwitch"' "$tmp/opt.txt" | grep -q 's: "AutomaticUbFusion:off"' ||
        fail "ge_config.optimization_switch is not the model attribute ge.optimizationSwitch"
    grep -A3 'key: "ge.oo.level"' "$tmp/opt.txt" | grep -q 's: "O1"' ||
        fail "ge_config.oo_level is not the model attribute ge.oo.level"
else
    fail "compile with ge_config options: $(cat "$tmp/err")"
fi
if "$AIRC" compile "$SEED/multistream.after.fx" -i "$SEED/x.npy" -o "$tmp/py.pb" --dump py \
    >/dev/null 2>"$tmp/err"; then
    fail "--dump py was accepted"
else
    grep -q "py" "$tmp/err" || fail "--dump py: the message does not say why: $(cat "$tmp/err")"
fi

((failures == 0)) && echo "test_ge_models: ok"
exit $((failures > 0))
