#!/usr/bin/env bash
# `airc run`: inputs from files and random ones (--seed), constants from
# --const and --weights (.npz, written by numpy here), --output-dir, --stats,
# --repeat, modes, --device, and the errors (missing type, missing constant,
# missing kernel, bad options). Expected values come from numpy.
# Env (set by ctest): AIRC_BIN, AIRC_BUILD, AIRC_SRC.
set -uo pipefail
: "${AIRC_BIN:?}" "${AIRC_SRC:?}"
AIRC=$AIRC_BIN/airc
PY=${AIRC_PYTHON:-/usr/bin/python3}
[[ -x $PY ]] || PY=python3
GRAPHS=$AIRC_SRC/tests/data/graphs
PLUGIN=${AIRC_BUILD:-$AIRC_BIN/..}/lib/libairc_test_plugin.so

tmp=$(mktemp -d "${TMPDIR:-/tmp}/airc-run.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failures=0
checks=0

fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

run() {
    timeout 60 "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    rc=$?
    checks=$((checks + 1))
}

expect_rc() { # want description
    if [[ $rc -ne $1 ]]; then
        fail "$2: exit $rc, want $1; stderr: $(head -c 300 "$tmp/err")"
    fi
}

expect_err() { # needle description
    grep -qF -- "$1" "$tmp/err" || fail "$2: stderr lacks '$1': $(head -c 300 "$tmp/err")"
}

# ---- inputs from files, outputs compared with PyTorch's -------------------
run "$AIRC" run "$GRAPHS/seed001.fx" --input "$GRAPHS/seed001.in0.npy" -o "$tmp/s1"
expect_rc 0 "seed001"
grep -q "^out0: f32\[.*\] -> $tmp/s1/out0.npy$" "$tmp/out" || fail "seed001: stdout: $(cat "$tmp/out")"
"$PY" - "$GRAPHS" "$tmp/s1" <<'EOF' || fail "seed001 values"
import sys, numpy as np
g, o = sys.argv[1], sys.argv[2]
for i in range(2):
    e, r = np.load(f"{g}/seed001.out{i}.npy"), np.load(f"{o}/out{i}.npy")
    assert r.shape == e.shape and np.allclose(r, e, rtol=1e-4, atol=1e-4 * (1 + abs(e).max())), i
EOF

# ---- typed placeholders: random inputs, --seed ------------------------------
cat >"$tmp/typed.fx" <<'EOF'
graph():
    %x : f32[4, 5] [#users=1] = placeholder[target=x]
    %i : i64[3] [#users=1] = placeholder[target=i]
    %relu : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%x,), kwargs = {})
    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%i, 1), kwargs = {})
    return (relu, add)
EOF
run "$AIRC" run "$tmp/typed.fx" --seed 7 -o "$tmp/r1"
expect_rc 0 "random inputs"
run "$AIRC" run "$tmp/typed.fx" --seed 7 -o "$tmp/r2"
run "$AIRC" run "$tmp/typed.fx" --seed 8 -o "$tmp/r3"
cmp -s "$tmp/r1/out0.npy" "$tmp/r2/out0.npy" || fail "--seed 7 twice gives different inputs"
cmp -s "$tmp/r1/out0.npy" "$tmp/r3/out0.npy" && fail "--seed 7 and 8 give the same inputs"
"$PY" - "$tmp/r1" <<'EOF' || fail "random input ranges"
import sys, numpy as np
relu, add = np.load(sys.argv[1] + "/out0.npy"), np.load(sys.argv[1] + "/out1.npy")
assert relu.dtype == np.float32 and relu.shape == (4, 5) and (relu >= 0).all() and (relu > 0).any()
assert add.dtype == np.int64 and add.shape == (3,) and ((add >= 1) & (add <= 10)).all()
EOF
# a file for the first placeholder, random for the second
"$PY" -c "import numpy as np; np.save('$tmp/x.npy', -np.ones((2, 2), np.float32))"
run "$AIRC" run "$tmp/typed.fx" --input "$tmp/x.npy" -o "$tmp/r4"
expect_rc 0 "one input file"
grep -q "^out0: f32\[2, 2\]" "$tmp/out" || fail "--input sets the shape: $(cat "$tmp/out")"

# untyped placeholder without input
run "$AIRC" run "$GRAPHS/seed001.fx"
expect_rc 1 "untyped placeholder"
expect_err "placeholder 'x_1' (input 0) has no type" "untyped placeholder"
run "$AIRC" run "$GRAPHS/seed001.fx" --input "$tmp/x.npy" --input "$tmp/x.npy"
expect_rc 1 "too many inputs"
expect_err "2 --input files given, but the graph has 1 placeholder" "too many inputs"

# ---- constants: --const and --weights ---------------------------------------
cat >"$tmp/const.fx" <<'EOF'
graph():
    %x : [#users=1] = placeholder[target=x]
    %w : [#users=1] = get_attr[target=w]
    %b : [#users=1] = get_attr[target=layer.b]
    %mm : [#users=1] = call_function[target=torch.ops.aten.mm.default](args = (%x, %w), kwargs = {})
    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mm, %b), kwargs = {})
    return add
EOF
"$PY" - "$tmp" <<'EOF'
import sys, numpy as np
t = sys.argv[1]
rng = np.random.default_rng(1)
x, w, b = (rng.standard_normal(s).astype(np.float32) for s in [(3, 4), (4, 2), (2,)])
np.save(f"{t}/cx.npy", x); np.save(f"{t}/w.npy", w); np.save(f"{t}/b.npy", b)
np.save(f"{t}/w2.npy", 2 * w)
np.savez_compressed(f"{t}/weights.npz", w=w, **{"layer.b": b})
np.savez(f"{t}/stored.npz", w=w, **{"layer.b": b})
np.save(f"{t}/expect.npy", x @ w + b); np.save(f"{t}/expect2.npy", x @ (2 * w) + b)
EOF
check_close() { # got expected description
    "$PY" -c "
import numpy as np, sys
g, e = np.load('$1'), np.load('$2')
sys.exit(0 if g.shape == e.shape and np.allclose(g, e, rtol=1e-4, atol=1e-4) else 1)" ||
        fail "$3: values differ"
}
run "$AIRC" run "$tmp/const.fx" -i "$tmp/cx.npy" --const "w=$tmp/w.npy" --const "layer.b=$tmp/b.npy" -o "$tmp/c1"
expect_rc 0 "--const"
check_close "$tmp/c1/out0.npy" "$tmp/expect.npy" "--const"
for npz in weights stored; do
    run "$AIRC" run "$tmp/const.fx" -i "$tmp/cx.npy" --weights "$tmp/$npz.npz" -o "$tmp/c2"
    expect_rc 0 "--weights $npz"
    check_close "$tmp/c2/out0.npy" "$tmp/expect.npy" "--weights $npz"
done
# --const wins over the archive
run "$AIRC" run "$tmp/const.fx" -i "$tmp/cx.npy" --weights "$tmp/weights.npz" --const "w=$tmp/w2.npy" -o "$tmp/c3"
expect_rc 0 "--const over --weights"
check_close "$tmp/c3/out0.npy" "$tmp/expect2.npy" "--const over --weights"
run "$AIRC" run "$tmp/const.fx" -i "$tmp/cx.npy" --const "w=$tmp/w.npy"
expect_rc 1 "missing constant"
expect_err "get_attr 'layer.b' (node 'b') has no data" "missing constant"
run "$AIRC" run "$tmp/const.fx" -i "$tmp/cx.npy" --const "w"
expect_rc 1 "--const without '='"
expect_err "expected NAME=FILE.npy" "--const without '='"
head -c 100 "$tmp/weights.npz" >"$tmp/bad.npz"
run "$AIRC" run "$tmp/const.fx" -i "$tmp/cx.npy" --weights "$tmp/bad.npz"
expect_rc 1 "truncated .npz"
expect_err "bad.npz" "truncated .npz"

# ---- --stats, --repeat ------------------------------------------------------
run "$AIRC" run "$GRAPHS/seed001.fx" -i "$GRAPHS/seed001.in0.npy" --stats --repeat 5 --mode eager
expect_rc 0 "--stats"
tail -n 1 "$tmp/out" | "$PY" -c "
import json, sys
s = json.loads(sys.stdin.read())
assert s['mode'] == 'eager' and s['iterations'] == 5 and s['median_us'] > 0, s
assert s['launches'] == 4, s
" || fail "--stats line: $(tail -n 1 "$tmp/out")"

# ---- reduce-overhead (the default mode) ------------------------------------------
MS=$AIRC_SRC/examples/seed001/multistream.after.fx
X=$AIRC_SRC/examples/seed001/x.npy
run "$AIRC" run "$MS" -i "$X" --mode eager -o "$tmp/eager"
expect_rc 0 "multistream eager"
run "$AIRC" run "$MS" -i "$X" -o "$tmp/ro" --stats --repeat 3 --trace "$tmp/trace.json"
expect_rc 0 "multistream reduce-overhead"
tail -n 1 "$tmp/out" | "$PY" -c "
import json, sys
s = json.loads(sys.stdin.read())
assert s['mode'] == 'reduce-overhead' and s['iterations'] == 3, s
assert s['captures'] == 1 and s['replays'] == 3 and s['fallbacks'] == 0, s
assert s['streams'] == 2 and s['launches'] == 4 and s['events'] == 4, s
assert 0 < s['lower_bound_bytes'] <= s['arena_bytes'] <= s['naive_bytes'], s
" || fail "reduce-overhead --stats line: $(tail -n 1 "$tmp/out")"
"$PY" - "$tmp/eager" "$tmp/ro" "$tmp/trace.json" <<'EOF' || fail "reduce-overhead results or trace"
import json, sys
import numpy as np
for i in range(2):
    a = np.load(f"{sys.argv[1]}/out{i}.npy")
    b = np.load(f"{sys.argv[2]}/out{i}.npy")
    assert np.array_equal(a, b), (i, a, b)
t = json.load(open(sys.argv[3]))
x = {e["name"]: e for e in t["traceEvents"] if e["ph"] == "X"}
assert set(x) == {"mm", "abs_1", "add", "sub"}, sorted(x)
names = {e["tid"]: e["args"]["name"] for e in t["traceEvents"]
         if e["ph"] == "M" and e["name"] == "thread_name"}
for n, stream in (("mm", "stream_1"), ("abs_1", "stream_1"), ("add", "main"), ("sub", "main")):
    assert x[n]["args"]["stream"] == stream and names[x[n]["tid"]] == stream, x[n]
assert x["mm"]["args"]["target"] == "aten.mm.default", x["mm"]
# sub waits for abs (the user's record/wait); add reads abs (airc's data event)
for n in ("sub", "add"):
    assert x[n]["ts"] >= x["abs_1"]["ts"] + x["abs_1"]["dur"], (x[n], x["abs_1"])
kinds = sorted(e["args"]["kind"] for e in t["traceEvents"]
               if e["ph"] == "i" and e["name"].startswith("record"))
assert kinds == ["data", "fork", "join", "user"], kinds
EOF
run "$AIRC" run "$MS" -i "$X" --mode eager --trace "$tmp/t2.json"
expect_rc 1 "--trace in eager"
expect_err "eager mode has no replay to trace" "--trace in eager"
# eager runs without a config: an option would be ignored, so it is refused
run "$AIRC" run "$MS" -i "$X" --mode eager --set debug.run_eagerly=1
expect_rc 2 "--set with --mode eager"
expect_err "--mode eager runs the graph as parsed" "--set with --mode eager"
run "$AIRC" run "$MS" -i "$X" --mode eager --set device=cpu
expect_rc 0 "--set device with --mode eager"
run "$AIRC" run "$MS" -i "$X" --set debug.aclgraph.static_capture_size_limit=0
expect_rc 1 "--set limit 0"
expect_err "static_capture_size_limit" "--set limit 0"
run "$AIRC" run "$MS" -i "$X" --set debug.run_eagerly=1 --stats
expect_rc 0 "--set run_eagerly"
tail -n 1 "$tmp/out" | grep -q '"fallbacks": 1' || fail "run_eagerly: $(tail -n 1 "$tmp/out")"
run "$AIRC" run "$MS" -i "$X" --set no.such.key=1
expect_rc 1 "--set unknown key"
run "$AIRC" run "$MS" -i "$X" --static-input 5
expect_rc 1 "--static-input out of range"
expect_err "static input 5 is out of range" "--static-input 5"
run "$AIRC" run "$MS" -i "$X" --set debug.graph_dump.type=pbtxt
expect_rc 1 "pbtxt dump in reduce-overhead"
expect_err "not available in reduce-overhead" "pbtxt dump"
mkdir -p "$tmp/dump"
run "$AIRC" run "$MS" -i "$X" --set debug.graph_dump.type=txt --set "debug.graph_dump.path=$tmp/dump"
expect_rc 0 "txt dump"
ls "$tmp"/dump/*.txt >/dev/null 2>&1 || fail "txt dump: no file in $tmp/dump"
grep -q "launch table" "$tmp"/dump/*.txt || fail "txt dump: no launch table"

# ---- modes and usage ----------------------------------------------------------
run "$AIRC" run "$MS" -i "$X" --mode max-autotune -o "$tmp/ma"
expect_rc 0 "--mode max-autotune"
"$PY" - "$tmp/eager" "$tmp/ma" <<'EOF' || fail "max-autotune results differ from eager"
import sys
import numpy as np
for i in range(2):
    a, b = np.load(f"{sys.argv[1]}/out{i}.npy"), np.load(f"{sys.argv[2]}/out{i}.npy")
    assert np.allclose(a, b, rtol=1e-4, atol=1e-4 * (1 + np.abs(a).max())), (i, a, b)
EOF
run "$AIRC" run "$MS" -i "$X" --mode max-autotune --set debug.graph_dump.type=py
expect_rc 1 "graph_dump.type=py"
run "$AIRC" run "$GRAPHS/seed001.fx" --mode fast
expect_rc 2 "--mode fast"
run "$AIRC" run
expect_rc 2 "no FILE"
run "$AIRC" run "$GRAPHS/seed001.fx" --repeat 0
expect_rc 2 "--repeat 0"
run "$AIRC" run "$tmp/nonexistent.fx"
expect_rc 1 "missing file"
run "$AIRC" run --help
expect_rc 0 "--help"
grep -q "Usage: airc run FILE" "$tmp/out" || fail "--help text"

# ---- --device (the config option `device`) -----------------------------------
for mode in eager reduce-overhead max-autotune; do
    run "$AIRC" run "$MS" -i "$X" --mode $mode --device cpu -o "$tmp/dev-$mode"
    expect_rc 0 "--device cpu --mode $mode"
    cmp -s "$tmp/dev-$mode/out1.npy" "$tmp/eager/out1.npy" || fail "--device cpu --mode $mode: results"
done
# cuda: runs on GPU 0, or says why not (no GPU here, or a build without CUDA)
for dev in "--device cuda" "--set device=cuda"; do
    # shellcheck disable=SC2086
    run "$AIRC" run "$MS" -i "$X" $dev -o "$tmp/cuda"
    if [[ $rc -eq 0 ]]; then
        "$PY" - "$tmp/eager" "$tmp/cuda" <<'EOF' || fail "$dev: results differ from the CPU's"
import sys
import numpy as np
for i in range(2):
    a, b = np.load(f"{sys.argv[1]}/out{i}.npy"), np.load(f"{sys.argv[2]}/out{i}.npy")
    assert np.allclose(a, b, rtol=1e-4, atol=1e-4 * (1 + np.abs(a).max())), (i, a, b)
EOF
    else
        expect_rc 1 "$dev"
        expect_err "airc: device cuda: airc_cuda_runtime_create: " "$dev"
    fi
done
run "$AIRC" run "$MS" -i "$X" --device npu
expect_rc 1 "--device npu"
expect_err "airc has no runtime of its own for 'npu'" "--device npu"
run "$AIRC" run "$MS" -i "$X" --device tpu
expect_rc 2 "--device tpu"
expect_err "--device 'tpu': expected cpu or cuda" "--device tpu"

# ---- a custom op without a cpu kernel (from a plugin) -------------------------
if [[ -f $PLUGIN ]]; then
    cat >"$tmp/plugin.fx" <<'EOF'
graph():
    %x : f32[2] [#users=1] = placeholder[target=x]
    %twice : [#users=1] = call_function[target=torch.ops.test_plugin.twice.default](args = (%x,), kwargs = {})
    return twice
EOF
    run "$AIRC" run --plugin "$PLUGIN" "$tmp/plugin.fx"
    expect_rc 1 "missing kernel"
    expect_err "no cpu kernel for test_plugin.twice.default (node 'twice')" "missing kernel"
fi

echo "test_cli_run: $checks runs, $failures failures"
[[ $failures -eq 0 ]]
