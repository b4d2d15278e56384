#!/usr/bin/env bash
# The airc command-line tool: help, exit codes, malformed input, round trips,
# --types. Env (set by ctest): AIRC_BIN, AIRC_SRC, AIRC_SHARED (optional: the
# conformance graphs printed by PyTorch).
#
# Exit codes under test: 0 success, 1 bad input (message on stderr), 2 usage
# error; never >= 128 (a signal), whatever the input.
set -uo pipefail
: "${AIRC_BIN:?}" "${AIRC_SRC:?}"
AIRC=$AIRC_BIN/airc
PY=${AIRC_PYTHON:-/usr/bin/python3}
[[ -x $PY ]] || PY=python3
CONF=${AIRC_SHARED:-$AIRC_SRC/../shared}/conformance
SEED=$AIRC_SRC/examples/seed001

tmp=$(mktemp -d "${TMPDIR:-/tmp}/airc-cli.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failures=0
checks=0

fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

# run CMD...: runs airc's command line under a time limit; sets rc, and
# leaves stdout/stderr in $tmp/out, $tmp/err.
run() {
    timeout 20 "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    rc=$?
    checks=$((checks + 1))
}

# expect RC DESCRIPTION CMD...: exit status must be RC; a failure (rc 1 or 2)
# must say something on stderr starting with "airc".
expect() {
    local want=$1 what=$2
    shift 2
    run "$@"
    if ((rc >= 124)); then
        fail "$what: exit $rc (signal or timeout): $*"
        head -c 2000 "$tmp/err" >&2
        return 1
    fi
    if ((rc != want)); then
        fail "$what: exit $rc, expected $want"
        head -c 2000 "$tmp/err" >&2
        return 1
    fi
    if ((want != 0)) && ! head -c 4096 "$tmp/err" | grep -q '^airc'; then
        fail "$what: no 'airc...' message on stderr"
        return 1
    fi
    return 0
}

# expect_located DESCRIPTION FILE: `airc lint FILE` and `airc fmt FILE` exit
# 1 with a "FILE:LINE:COL:" message.
expect_located() {
    local what=$1 file=$2 sub
    for sub in lint fmt; do
        expect 1 "$sub $what" "$AIRC" "$sub" "$file" || continue
        if ! head -c 4096 "$tmp/err" | grep -q "^airc: .*$(basename "$file"):[0-9][0-9]*:[0-9][0-9]*: "; then
            fail "$sub $what: message not located as FILE:LINE:COL:"
            head -c 500 "$tmp/err" >&2
            echo >&2
        fi
    done
}

# ---- help, version, usage errors ----------------------------------------

expect 0 "--help" "$AIRC" --help
grep -q 'fmt' "$tmp/out" && grep -q 'lint' "$tmp/out" || fail "--help does not list fmt and lint"
expect 0 "-h" "$AIRC" -h
expect 0 "help" "$AIRC" help
expect 0 "--version" "$AIRC" --version
grep -q "^airc [0-9][0-9]*\.[0-9][0-9]*\.[0-9]" "$tmp/out" || fail "--version: no version number"
for cmd in fmt lint help; do
    expect 0 "help $cmd" "$AIRC" help "$cmd"
    [[ -s $tmp/out ]] || fail "help $cmd printed nothing"
    expect 0 "$cmd --help" "$AIRC" "$cmd" --help
    expect 0 "$cmd -h" "$AIRC" "$cmd" -h
done
grep -q 'Usage: airc fmt' <("$AIRC" fmt --help) || fail "fmt --help is not fmt's help"

expect 2 "no command" "$AIRC"
expect 2 "unknown command" "$AIRC" frobnicate
expect 2 "unknown global option" "$AIRC" --frobnicate
expect 2 "help for an unknown command" "$AIRC" help frobnicate
expect 2 "help with two commands" "$AIRC" help fmt lint
expect 2 "fmt without FILE" "$AIRC" fmt
expect 2 "lint without FILE" "$AIRC" lint
expect 2 "fmt unknown option" "$AIRC" fmt --frobnicate "$SEED/model.fx"
expect 2 "fmt unknown short option" "$AIRC" fmt -z "$SEED/model.fx"
expect 2 "lint unknown option" "$AIRC" lint --types "$SEED/model.fx"
expect 2 "fmt two files" "$AIRC" fmt "$SEED/model.fx" "$SEED/model.fx"
expect 2 "fmt --input without a value" "$AIRC" fmt --types "$SEED/model.fx" --input
expect 2 "fmt --input without --types" "$AIRC" fmt --input "$SEED/x.npy" "$SEED/model.fx"
expect 2 "fmt --types=value" "$AIRC" fmt --types=yes "$SEED/model.fx"
# (One argument can be at most 128 KiB on Linux.)
expect 2 "100 KB option name" "$AIRC" fmt "--$(head -c 100000 /dev/zero | tr '\0' a)" "$SEED/model.fx"
[[ $(wc -c <"$tmp/err") -lt 4096 ]] || fail "100 KB option name echoed in full"

# ---- missing and unreadable files ---------------------------------------

expect 1 "lint missing file" "$AIRC" lint "$tmp/does-not-exist.fx"
grep -q 'does-not-exist.fx' "$tmp/err" || fail "missing file: message does not name it"
expect 1 "fmt missing file" "$AIRC" fmt "$tmp/does-not-exist.fx"
expect 1 "lint a directory" "$AIRC" lint "$tmp"
expect 1 "file named like an option after --" "$AIRC" lint -- --not-a-file
grep -q -- '--not-a-file' "$tmp/err" || fail "-- FILE: message does not name the file"

# ---- the project's own graph and the conformance graphs -----------------

# The project's own graphs (printed by PyTorch 1.13: tests/gen_graphs.py) and,
# when ../shared is there, the conformance graphs.
OWN=$AIRC_SRC/tests/data/graphs
graphs=("$SEED/model.fx" "$OWN"/*.fx)
if [[ -d $CONF ]]; then
    graphs+=("$CONF"/*.fx)
else
    echo "note: $CONF not found; conformance graphs skipped"
fi

for f in "${graphs[@]}"; do
    name=$(basename "$f")
    expect 0 "lint $name" "$AIRC" lint "$f" || continue
    [[ $(cat "$tmp/out") == "$f: ok" ]] || fail "lint $name: stdout is not '$f: ok'"
    [[ ! -s $tmp/err ]] || fail "lint $name: wrote to stderr"
    # Byte for byte: every file here ends with exactly one newline, and fmt
    # writes exactly one.
    [[ $(tail -c 1 "$f" | od -An -c | tr -d ' ') == '\n' ]] || fail "$name: no final newline?"
    expect 0 "fmt $name" "$AIRC" fmt "$f" || continue
    cmp -s "$f" "$tmp/out" || { fail "fmt $name does not round-trip"; diff "$f" "$tmp/out" | head -20 >&2; }
    # torch's own str(graph) has no final newline: same output.
    head -c -1 "$f" >"$tmp/nonl.fx"
    expect 0 "fmt $name without final newline" "$AIRC" fmt "$tmp/nonl.fx" &&
        { cmp -s "$f" "$tmp/out" || fail "fmt $name without final newline differs"; }
    # Standard input.
    timeout 20 "$AIRC" fmt - <"$f" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    ((rc == 0)) && cmp -s "$f" "$tmp/out" || fail "fmt - <$name: exit $rc or different output"
done

expect 0 "lint -q" "$AIRC" lint -q "$SEED/model.fx"
[[ ! -s $tmp/out ]] || fail "lint -q printed something"
timeout 20 "$AIRC" lint - <"$SEED/model.fx" >"$tmp/out" 2>&1 || fail "lint - (stdin) failed"
[[ $(cat "$tmp/out") == "<stdin>: ok" ]] || fail "lint -: stdout is not '<stdin>: ok'"

# ---- malformed input: exit 1 with FILE:LINE:COL ---------------------------

m=$tmp/malformed
mkdir -p "$m"
"$PY" - "$m" "${graphs[@]}" <<'PY'
import os, random, sys
out = sys.argv[1]
def w(name, data):
    with open(os.path.join(out, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())

head = "graph():\n    %x_1 : [#users=1] = placeholder[target=x_1]\n"
def call(args, target="torch.ops.aten.abs.default", name="abs_1"):
    return f"    %{name} : [#users=1] = call_function[target={target}](args = {args}, kwargs = {{}})\n"

# Truncated graphs: cut every input file inside a line (never right after a
# newline, where the rest could still be a shorter well-formed graph).
for i, path in enumerate(sys.argv[2:]):
    data = open(path, "rb").read()
    for frac in (0.3, 0.5, 0.8):
        cut = int(len(data) * frac)
        while cut < len(data) - 1 and (data[cut - 1:cut] in (b"\n", b" ")
                                       or data[cut:cut + 1] == b"\n"):
            cut += 1
        w(f"truncated_{i}_{int(frac * 100)}.fx", data[:cut])
    w(f"truncated_{i}_end.fx", data.rstrip(b"\n")[:-1])

# Garbage bytes, from a fixed seed.
random.seed(1234)
for i in range(8):
    w(f"garbage_{i}.fx", bytes(random.randrange(256) for _ in range(random.randrange(1, 4096))))
    w(f"garbage_after_header_{i}.fx",
      b"graph():\n    %x_1 : " + bytes(random.randrange(256) for _ in range(200)))
w("nul_byte.fx", head.encode() + b"    %a\0b : [#users=0] = placeholder[target=y]\n    return x_1\n")

w("empty.fx", "")
w("only_newlines.fx", "\n\n\n")
w("no_header.fx", head.split("\n", 1)[1] + "    return x_1\n")
w("bad_header.fx", "graf():\n    return None\n")

# Deep nesting: unbalanced (never closed) and balanced.
for depth in (1000, 100000):
    w(f"deep_open_paren_{depth}.fx", head + call("(" * depth + "%x_1"))
    w(f"deep_open_list_{depth}.fx", head + call("([" * depth))

# Integers beyond int64.
for v in ("9223372036854775808", "-9223372036854775809", "99999999999999999999999999",
          "1" * 5000):
    w(f"huge_int_{len(v)}_{v[0]}.fx",
      head + call(f"(%x_1, {v})", "torch.ops.aten.add.Tensor", "add") + "    return add\n")

# 1 MB names, used without a definition.
big = "n" * (1 << 20)
w("huge_undefined_name.fx", head + call(f"(%{big},)") + "    return abs_1\n")
w("huge_target_name.fx", head + call("(%x_1,)", "torch.ops.aten." + big + ".default")
  + "    return abs_1\n")

# Unknown op, undefined node, duplicate name, bad literals.
w("unknown_op.fx", head + call("(%x_1,)", "torch.ops.aten.frobnicate.default") + "    return abs_1\n")
w("unknown_namespace.fx", head + call("(%x_1,)", "torch.ops.nope.abs.default") + "    return abs_1\n")
w("undefined_node.fx", head + call("(%y_1,)") + "    return abs_1\n")
w("undefined_in_return.fx", head + "    return y_1\n")
w("use_before_def.fx", "graph():\n" + call("(%x_1,)") + head.split("\n", 1)[1] + "    return abs_1\n")
w("duplicate_name.fx", head + head.split("\n", 1)[1] + "    return x_1\n")
w("unterminated_string.fx", head + "    %gelu : [#users=1] = call_function[target="
  "torch.ops.aten.gelu.default](args = (%x_1,), kwargs = {approximate: 'tanh})\n    return gelu\n")
w("bad_kwargs.fx", head + call("(%x_1,)").replace("kwargs = {}", "kwargs = {: }") + "    return abs_1\n")
w("bad_users.fx", head.replace("#users=1", "#users=one") + "    return x_1\n")
w("bad_type_slot.fx", head.replace(": [#users", ": q32[3, 3] [#users") + "    return x_1\n")
w("missing_return_paren.fx", head + call("(%x_1,)") + "    return (abs_1, x_1\n")
w("trailing_junk.fx", head + call("(%x_1,)") + "    return abs_1\n    %%%\n")
PY

for f in "$m"/*.fx; do
    expect_located "$(basename "$f")" "$f"
done

# ---- well-formed but extreme: clean success or clean failure --------------

"$PY" - "$tmp" <<'PY'
import sys
out = sys.argv[1]
head = "graph():\n    %x_1 : [#users=1] = placeholder[target=x_1]\n"
big = "n" * (1 << 20)
with open(f"{out}/huge_name.fx", "w") as f:
    f.write(f"graph():\n    %{big} : [#users=1] = placeholder[target={big}]\n    return {big}\n")
# Deeply nested but balanced: a depth limit (located error) or a clean
# round trip are both fine; abs takes no list, so lint fails either way.
with open(f"{out}/deep_balanced.fx", "w") as f:
    f.write(head + "    %abs_1 : [#users=1] = call_function[target=torch.ops.aten.abs.default](args = ("
            + "[" * 100000 + "%x_1" + "]" * 100000 + ",), kwargs = {})\n    return abs_1\n")
with open(f"{out}/int_limits.fx", "w") as f:
    f.write(head.replace("#users=1", "#users=2")
            + "    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%x_1, 9223372036854775807), kwargs = {})\n"
            + "    %sub : [#users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%x_1, -9223372036854775808), kwargs = {})\n"
            + "    return (add, sub)\n")
# Many nodes: enough output to overflow a pipe.
with open(f"{out}/long.fx", "w") as f:
    f.write(head.replace("#users=1", "#users=1"))
    prev = "x_1"
    for i in range(20000):
        name = f"abs_{i + 1}"
        f.write(f"    %{name} : [#users=1] = call_function[target=torch.ops.aten.abs.default](args = (%{prev},), kwargs = {{}})\n")
        prev = name
    f.write(f"    return {prev}\n")
PY

run "$AIRC" fmt "$tmp/huge_name.fx"
if ((rc == 0)); then
    cmp -s "$tmp/huge_name.fx" "$tmp/out" || fail "1 MB name accepted but not round-tripped"
elif ((rc != 1)); then
    fail "1 MB name: exit $rc"
fi
run "$AIRC" fmt "$tmp/deep_balanced.fx"
if ((rc == 0)); then
    cmp -s "$tmp/deep_balanced.fx" "$tmp/out" || fail "deep nesting accepted but not round-tripped"
elif ((rc != 1)) || ! grep -q ':[0-9][0-9]*:[0-9][0-9]*: ' "$tmp/err"; then
    fail "deep nesting: exit $rc, or an unlocated message"
fi
expect 1 "lint deep nesting" "$AIRC" lint "$tmp/deep_balanced.fx"
expect 0 "INT64_MAX and INT64_MIN literals" "$AIRC" fmt "$tmp/int_limits.fx" &&
    { cmp -s "$tmp/int_limits.fx" "$tmp/out" || fail "int64 limits do not round-trip"; }
expect 0 "lint 20000 nodes" "$AIRC" lint "$tmp/long.fx"

# ---- output errors: closed pipe, full disk --------------------------------

timeout 20 "$AIRC" fmt "$tmp/long.fx" 2>"$tmp/err" | head -c 10 >/dev/null
rc=${PIPESTATUS[0]}
((rc == 1)) || fail "fmt into a closed pipe: exit $rc, expected 1 (no SIGPIPE)"
grep -q '^airc: .*standard output' "$tmp/err" || fail "closed pipe: no message"
if [[ -w /dev/full ]]; then
    timeout 20 "$AIRC" fmt "$SEED/model.fx" >/dev/full 2>"$tmp/err"
    rc=$?
    ((rc == 1)) || fail "fmt >/dev/full: exit $rc, expected 1"
    timeout 20 "$AIRC" --help >/dev/full 2>/dev/null
    rc=$?
    ((rc == 1)) || fail "--help >/dev/full: exit $rc, expected 1"
fi

# ---- lint checks beyond parsing ---------------------------------------------

printf '%s\n' "graph():" \
    "    %x_1 : [#users=1] = placeholder[target=x_1]" \
    "    %abs_1 : [#users=1] = call_function[target=torch.ops.aten.abs.default](args = (%x_1, %x_1), kwargs = {})" \
    "    return abs_1" >"$tmp/arity.fx"
expect 0 "fmt accepts a wrong arity (a lint check)" "$AIRC" fmt "$tmp/arity.fx"
expect 1 "lint: too many arguments" "$AIRC" lint "$tmp/arity.fx" &&
    { grep -q 'abs_1' "$tmp/err" || fail "arity message does not name the node"; }
printf '%s\n' "graph():" \
    "    %x_1 : [#users=1] = placeholder[target=x_1]" \
    "    %scope_enter : [#users=0] = call_function[target=torch.ops.air.scope_enter.default](args = ([_user_stream_label], [stream_1]), kwargs = {})" \
    "    %abs_1 : [#users=1] = call_function[target=torch.ops.aten.abs.default](args = (%x_1,), kwargs = {})" \
    "    return abs_1" >"$tmp/unpaired.fx"
expect 1 "lint: unpaired scope_enter" "$AIRC" lint "$tmp/unpaired.fx" &&
    { grep -q 'scope' "$tmp/err" || fail "unpaired scope message does not mention the scope"; }
expect 1 "lint: one bad file among good ones" "$AIRC" lint "$SEED/model.fx" "$tmp/arity.fx" "$SEED/model.fx"
[[ $(grep -c ': ok$' "$tmp/out") == 2 ]] || fail "lint of several files: good ones not reported ok"

# ---- fmt --types ------------------------------------------------------------

# Expected from torch semantics: mm of two f32[3, 3] is f32[3, 3]; abs keeps
# it; add(Tensor, 1) keeps f32 (an int scalar does not promote a float
# tensor); sub of two f32[3, 3] is f32[3, 3]. The type goes before [#users
# as torch's format_node puts a node's type.
types_expected() { # DTYPE SHAPE
    local t="$1[$2]"
    printf '%s\n' "graph():" \
        "    %x_1 : $t [#users=2] = placeholder[target=x_1]" \
        "    %mm : $t [#users=2] = call_function[target=torch.ops.aten.mm.default](args = (%x_1, %x_1), kwargs = {})" \
        "    %abs_1 : $t [#users=1] = call_function[target=torch.ops.aten.abs.default](args = (%mm,), kwargs = {})" \
        "    %add : $t [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%abs_1, 1), kwargs = {})" \
        "    %sub : $t [#users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%x_1, %mm), kwargs = {})" \
        "    return (add, sub)"
}

expect 0 "fmt --types --input x.npy" "$AIRC" fmt --types --input "$SEED/x.npy" "$SEED/model.fx" &&
    { cmp -s <(types_expected f32 "3, 3") "$tmp/out" ||
        { fail "fmt --types: wrong types"; diff <(types_expected f32 "3, 3") "$tmp/out" >&2; }; }
types_expected f32 "3, 3" >"$tmp/typed.fx"
expect 0 "--types output reads back" "$AIRC" fmt "$tmp/typed.fx" &&
    { cmp -s "$tmp/typed.fx" "$tmp/out" || fail "typed graph does not round-trip"; }
expect 0 "--input=FILE form" "$AIRC" fmt -t "--input=$SEED/x.npy" "$SEED/model.fx"

# .npy files written here by hand (format 1.0), so no numpy is needed.
write_npy() { # PATH DESCR SHAPE-TUPLE ITEMSIZE NUMEL
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
write_npy "$tmp/i64.npy" '<i8' '(3, 3)' 8 9
write_npy "$tmp/f64.npy" '<f8' '(3, 3)' 8 9
write_npy "$tmp/f32_2x3.npy" '<f4' '(2, 3)' 4 6
write_npy "$tmp/c64.npy" '<c8' '(3, 3)' 8 9
expect 0 "--types with an int64 input" "$AIRC" fmt --types --input "$tmp/i64.npy" "$SEED/model.fx" &&
    { cmp -s <(types_expected i64 "3, 3") "$tmp/out" || fail "--types i64: wrong types"; }
expect 0 "--types with a float64 input" "$AIRC" fmt --types --input "$tmp/f64.npy" "$SEED/model.fx" &&
    { cmp -s <(types_expected f64 "3, 3") "$tmp/out" || fail "--types f64: wrong types"; }
# torch: "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)"
expect 1 "--types with shapes mm refuses" "$AIRC" fmt --types --input "$tmp/f32_2x3.npy" "$SEED/model.fx" &&
    { grep -q 'mm' "$tmp/err" || fail "shape error does not name the node"; }
expect 1 "--types with an unsupported dtype" "$AIRC" fmt --types --input "$tmp/c64.npy" "$SEED/model.fx"
expect 1 "--types with a missing .npy" "$AIRC" fmt --types --input "$tmp/nope.npy" "$SEED/model.fx"
expect 1 "--types with a garbage .npy" "$AIRC" fmt --types --input "$m/garbage_0.fx" "$SEED/model.fx"
expect 1 "--types without an input" "$AIRC" fmt --types "$SEED/model.fx" &&
    { grep -q 'x_1' "$tmp/err" || fail "untyped placeholder message does not name it"; }
expect 1 "--types with too many inputs" "$AIRC" fmt --types --input "$SEED/x.npy" --input "$SEED/x.npy" "$SEED/model.fx"

# Types written in the file are used when no --input is given.
types_expected f32 "4, 4" >"$tmp/typed44.fx"
sed 's/ : f32\[4, 4\] \[/ : [/' "$tmp/typed44.fx" | sed '2s/ : \[/ : f32[4, 4] [/' >"$tmp/typed_ph.fx"
expect 0 "--types from the file's placeholder type" "$AIRC" fmt --types "$tmp/typed_ph.fx" &&
    { cmp -s "$tmp/typed44.fx" "$tmp/out" || { fail "--types from file types: wrong output"; diff "$tmp/typed44.fx" "$tmp/out" >&2; }; }
# ... and --input overrides them.
expect 0 "--input overrides a file's type" "$AIRC" fmt --types --input "$SEED/x.npy" "$tmp/typed_ph.fx" &&
    { cmp -s <(types_expected f32 "3, 3") "$tmp/out" || fail "--input did not override the file's type"; }

# Every graph with inputs: the types of its outputs, computed from the .npy
# inputs, are the dtypes and shapes PyTorch recorded in its .json.
for js in "$OWN"/*.json "$CONF"/*.json; do
    base=${js%.json}
    [[ -e $base.fx && -e $base.in0.npy ]] || continue
    inputs=()
    for ((i = 0; ; i++)); do
        [[ -e $base.in$i.npy ]] || break
        inputs+=(--input "$base.in$i.npy")
    done
    name=$(basename "$base")
    expect 0 "fmt --types $name.fx" "$AIRC" fmt --types "${inputs[@]}" "$base.fx" || continue
    "$PY" - "$js" "$tmp/out" <<'PY' || fail "fmt --types $name.fx: output types differ from PyTorch's"
import json, re, sys
want = json.load(open(sys.argv[1]))["outputs"]
short = {"float32": "f32", "float64": "f64", "float16": "f16", "bfloat16": "bf16", "int64": "i64",
         "int32": "i32", "int16": "i16", "int8": "i8", "uint8": "u8", "bool": "b8"}
types, ret = {}, None
for line in open(sys.argv[2]).read().splitlines():
    m = re.match(r"    %(\w+) : (.*?) ?\[#users=", line)
    if m:
        types[m.group(1)] = re.sub(r"\{[^}]*\}$", "", m.group(2))  # strides: not in the .json
    elif line.startswith("    return "):
        ret = re.findall(r"\w+", line[len("    return "):])
got = [types.get(n) for n in ret]
exp = ["%s[%s]" % (short[d], ", ".join(map(str, s))) for d, s in want]
if got != exp:
    print("outputs", ret, "got", got, "expected", exp)
    sys.exit(1)
PY
done

echo "$checks checks, $failures failures"
((failures == 0))
