#!/usr/bin/env bash
# Hostile input for every `airc` subcommand (fmt, lint, passes, rewrite, run,
# compile): empty files, fixed-seed garbage, truncated graphs, an absurdly
# long line, deep nesting, unknown ops, wrong arity, bad .npy/.npz files,
# missing files, directories, /dev/null, garbage option values.
#
# For every run: the exit status is 0, 1 or 2 (never a signal, never a
# timeout: each run gets 20 s), a non-zero exit says something on stderr
# (a line starting "airc"), and no sanitizer report appears (for the
# AIRC_SANITIZE tree).
#
# Inputs that once broke airc are kept here (see "Regressions").
# Env (set by ctest): AIRC_BIN, AIRC_SRC; AIRC_BUILD (optional).
set -uo pipefail
# airc reports an allocation it cannot make as AIRC_E_OUT_OF_MEMORY, as
# libc's malloc lets it for a request larger than memory; the sanitizers'
# allocators abort on such a request unless told to return NULL like libc.
export ASAN_OPTIONS="allocator_may_return_null=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export TSAN_OPTIONS="allocator_may_return_null=1${TSAN_OPTIONS:+:$TSAN_OPTIONS}"
: "${AIRC_BIN:?}" "${AIRC_SRC:?}"
AIRC=$AIRC_BIN/airc
PY=${AIRC_PYTHON:-/usr/bin/python3}
[[ -x $PY ]] || PY=python3
SEED=$AIRC_SRC/examples/seed001
GRAPHS=$AIRC_SRC/tests/data/graphs
PASSDATA=$AIRC_SRC/tests/data/passes

tmp=$(mktemp -d "${TMPDIR:-/tmp}/airc-robust.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
h=$tmp/hostile
mkdir -p "$h" "$tmp/outdir"
failures=0
start=$SECONDS

fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

# try CMD...: queues CMD, to be run later (in parallel) under a 20 s limit
# with stdin from /dev/null, in $tmp/outdir (where --dump and stray outputs
# land).
mkdir -p "$tmp/runs"
nruns=0
try() {
    printf 'exec timeout 20' >"$tmp/runs/$nruns.sh"
    printf ' %q' "$@" >>"$tmp/runs/$nruns.sh"
    echo >>"$tmp/runs/$nruns.sh"
    nruns=$((nruns + 1))
}

# try_fails CMD...: try, and CMD must exit 1 (bad input) in any build.
try_fails() {
    try "$@"
    : >"$tmp/runs/$((nruns - 1)).sh.want1"
}

# show N: run N's command line, each argument cut to 120 characters.
show() {
    local a out=
    for a in $(cat "$tmp/runs/$1.sh"); do
        out+=" ${a:0:120}"
    done
    echo "${out# exec timeout 20 }"
}

# check: runs the queued commands, 4 at a time, and checks each one's exit
# status (0, 1 or 2: never a signal or a timeout), that a failure says
# something on stderr (a line starting "airc"), and that no sanitizer
# report appears.
check() {
    (cd "$tmp/runs" && ls | grep '\.sh$' | xargs -P 4 -I{} bash -c \
        'cd ../outdir && bash ../runs/{} >/dev/null 2>../runs/{}.err </dev/null; echo $? >../runs/{}.rc')
    local i rc
    for ((i = 0; i < nruns; i++)); do
        rc=$(cat "$tmp/runs/$i.sh.rc")
        if ((rc == 124)); then
            fail "timeout (20 s): $(show $i)"
        elif ((rc > 2)); then
            fail "exit $rc (a signal?): $(show $i)"
            head -c 1500 "$tmp/runs/$i.sh.err" >&2
        elif ((rc != 0)) && ! grep -q '^airc' "$tmp/runs/$i.sh.err"; then
            fail "exit $rc without an 'airc...' message on stderr: $(show $i)"
        fi
        if [[ -e $tmp/runs/$i.sh.want1 ]] && ((rc != 1)); then
            fail "exit $rc, expected 1: $(show $i)"
        fi
        if grep -qE 'ERROR: [A-Za-z]+Sanitizer|runtime error:' "$tmp/runs/$i.sh.err"; then
            fail "sanitizer report: $(show $i)"
            head -c 3000 "$tmp/runs/$i.sh.err" >&2
        fi
    done
}

# ---- hostile files ------------------------------------------------------------

"$PY" - "$h" "$SEED/model.fx" "$GRAPHS/attention.fx" "$GRAPHS/multistream.fx" \
    "$SEED/x.npy" <<'PY'
import os, random, struct, sys, zipfile
out, graphs, npy = sys.argv[1], sys.argv[2:-1], sys.argv[-1]
def w(name, data):
    with open(os.path.join(out, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())

random.seed(20240610)
def garbage(n):
    return bytes(random.randrange(256) for _ in range(n))

# Graphs (.fx).
w("empty.fx", b"")
w("newline.fx", b"\n")
for i, n in enumerate((1, 64, 4096)):
    w(f"garbage_{i}.fx", garbage(n))
w("garbage_after_header.fx", b"graph():\n    %x_1 : " + garbage(300))
w("nul.fx", b"graph():\n\0\0\0\n")
for gi, path in enumerate(graphs):
    data = open(path, "rb").read()
    for frac in (0.05, 0.5, 0.71):
        w(f"truncated_{gi}_{int(frac * 100)}.fx", data[:int(len(data) * frac)])
    w(f"truncated_{gi}_nolast.fx", data.rstrip(b"\n").rsplit(b"\n", 1)[0] + b"\n")
head = "graph():\n    %x_1 : [#users=1] = placeholder[target=x_1]\n"
def call(args, target="torch.ops.aten.abs.default", name="abs_1", kwargs="{}"):
    return (f"    %{name} : [#users=1] = call_function[target={target}]"
            f"(args = {args}, kwargs = {kwargs})\n")
w("long_line.fx", head + call("(%x_1,)", kwargs="{" + "a: 1, " * 300000 + "}")
  + "    return abs_1\n")
w("long_comment_line.fx", head + "    " + "x" * (4 << 20) + "\n    return x_1\n")
w("long_string.fx", head + call("(%x_1,)", "torch.ops.aten.gelu.default", "abs_1",
                                "{approximate: '" + "t" * (2 << 20) + "'}") + "    return abs_1\n")
for d in (10000, 200000):
    w(f"deep_tuple_args_{d}.fx", head + call("(" * d + "%x_1" + ",)" * d) + "    return abs_1\n")
    w(f"deep_return_{d}.fx", head + "    return " + "(" * d + "x_1" + ",)" * d + "\n")
    w(f"deep_list_{d}.fx", head + call("([" * d + "]," * d + ")") + "    return abs_1\n")
w("unknown_op.fx", head + call("(%x_1,)", "torch.ops.aten.frobnicate.default") + "    return abs_1\n")
w("unknown_ns.fx", head + call("(%x_1,)", "torch.ops.zz.abs.default") + "    return abs_1\n")
w("not_torch_target.fx", head + call("(%x_1,)", "operator.getitem") + "    return abs_1\n")
w("arity_many.fx", head + call("(%x_1, %x_1, 3)") + "    return abs_1\n")
w("arity_none.fx", head + call("()") + "    return abs_1\n")
w("wrong_kind.fx", head + call("(3,)") + "    return abs_1\n")
w("bad_kwarg.fx", head + call("(%x_1,)", kwargs="{alpha: 2}") + "    return abs_1\n")
w("no_return.fx", head)
w("two_returns.fx", head + "    return x_1\n    return x_1\n")
w("return_none.fx", "graph():\n    return None\n")
w("no_placeholders.fx", "graph():\n    %ones : [#users=1] = call_function[target="
  "torch.ops.aten.ones.default](args = ([2, 2],), kwargs = {})\n    return ones\n")
w("get_attr_no_data.fx", "graph():\n    %w : [#users=1] = get_attr[target=w]\n    return w\n")
w("call_module.fx", head + "    %m : [#users=1] = call_module[target=sub](args = (%x_1,), "
  "kwargs = {})\n    return m\n")
w("call_method.fx", head + "    %m : [#users=1] = call_method[target=relu](args = (%x_1,), "
  "kwargs = {})\n    return m\n")
w("typed_huge.fx", "graph():\n    %x_1 : f32[100000, 100000, 100000] [#users=1] = "
  "placeholder[target=x_1]\n" + call("(%x_1,)") + "    return abs_1\n")
w("typed_overflow.fx", "graph():\n    %x_1 : f32[9223372036854775807, 9223372036854775807] "
  "[#users=1] = placeholder[target=x_1]\n" + call("(%x_1,)") + "    return abs_1\n")
w("typed_negative.fx", "graph():\n    %x_1 : f32[-3, 2] [#users=1] = placeholder[target=x_1]\n"
  + call("(%x_1,)") + "    return abs_1\n")
w("typed_bad_dtype.fx", "graph():\n    %x_1 : q7[3] [#users=1] = placeholder[target=x_1]\n"
  + call("(%x_1,)") + "    return abs_1\n")
# Regressions: views past their input's memory (as_strided read out of
# bounds, its size arithmetic overflowed), tril/triu diagonals that
# overflowed the kernel's column arithmetic.
def typed_call(name, target, args):
    w(name, "graph():\n    %x_1 : f32[3, 3] [#users=1] = placeholder[target=x_1]\n"
      + call(f"(%x_1, {args})", "torch.ops.aten." + target) + "    return abs_1\n")
typed_call("typed_as_strided_oob.fx", "as_strided.default", "[3, 3], [3, 1], 1")
typed_call("typed_as_strided_stride.fx", "as_strided.default", "[3, 3], [9223372036854775807, 1]")
typed_call("typed_as_strided_offset.fx", "as_strided.default", "[3, 3], [1, 1], 9223372036854775807")
typed_call("typed_as_strided_negoffset.fx", "as_strided.default", "[2, 2], [3, 1], -1")
typed_call("typed_triu_max.fx", "triu.default", "9223372036854775807")
typed_call("typed_tril_min.fx", "tril.default", "-9223372036854775808")
w("typed_scalar.fx", "graph():\n    %x_1 : f32[] [#users=1] = placeholder[target=x_1]\n"
  + call("(%x_1,)") + "    return abs_1\n")
w("huge_ones.fx", "graph():\n    %ones : [#users=1] = call_function[target="
  "torch.ops.aten.ones.default](args = ([100000, 100000, 100000],), kwargs = {})\n"
  "    return ones\n")
w("huge_ones_overflow.fx", "graph():\n    %ones : [#users=1] = call_function[target="
  "torch.ops.aten.ones.default](args = ([9223372036854775807, 4],), kwargs = {})\n"
  "    return ones\n")
w("negative_ones.fx", "graph():\n    %ones : [#users=1] = call_function[target="
  "torch.ops.aten.ones.default](args = ([-1, 4],), kwargs = {})\n    return ones\n")
w("huge_arange.fx", "graph():\n    %a : [#users=1] = call_function[target="
  "torch.ops.aten.arange.default](args = (9223372036854775807,), kwargs = {})\n"
  "    return a\n")

# .npy / .npz for --input, --const and --weights.
good = open(npy, "rb").read()
w("garbage.npy", garbage(200))
w("empty.npy", b"")
for cut in (5, 10, 40, len(good) - 7):
    w(f"truncated_{cut}.npy", good[:cut])
def npy_with(header, payload=b""):
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + payload
w("huge_shape.npy", npy_with("{'descr': '<f4', 'fortran_order': False, 'shape': (100000, 100000, 100000), }", bytes(64)))
w("overflow_shape.npy", npy_with("{'descr': '<f4', 'fortran_order': False, 'shape': (9223372036854775807, 9223372036854775807), }", bytes(64)))
w("negative_shape.npy", npy_with("{'descr': '<f4', 'fortran_order': False, 'shape': (-1, 3), }", bytes(64)))
w("many_dims.npy", npy_with("{'descr': '<f4', 'fortran_order': False, 'shape': (" + "1, " * 200 + "), }", bytes(4)))
w("bad_descr.npy", npy_with("{'descr': '<q9', 'fortran_order': False, 'shape': (3, 3), }", bytes(36)))
w("fortran.npy", npy_with("{'descr': '<f4', 'fortran_order': True, 'shape': (3, 3), }", bytes(36)))
w("header_garbage.npy", b"\x93NUMPY\x01\x00" + struct.pack("<H", 100) + garbage(100))
w("header_len_huge.npy", b"\x93NUMPY\x02\x00" + struct.pack("<I", 0xFFFFFFF0) + b"{")
w("scalar.npy", npy_with("{'descr': '<f4', 'fortran_order': False, 'shape': (), }", bytes(4)))
w("garbage.npz", garbage(300))
w("truncated.npz", b"PK\x03\x04" + garbage(20))
with zipfile.ZipFile(os.path.join(out, "member_garbage.npz"), "w") as z:
    z.writestr("w.npy", garbage(100))
    z.writestr("x_1.npy", good[:30])
with zipfile.ZipFile(os.path.join(out, "member_huge.npz"), "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("w.npy", npy_with("{'descr': '<f4', 'fortran_order': False, 'shape': (100000, 100000, 100000), }", bytes(64)))
PY
mkdir -p "$h/a_directory"
: >"$h/garbage.so"
head -c 4096 "$h/garbage_2.fx" >"$h/garbage.so"

pattern=$PASSDATA/chain.pattern.fx
replacement=$PASSDATA/chain.replacement.fx
model=$SEED/model.fx
x=$SEED/x.npy
cgraph=$h/get_attr_no_data.fx

# ---- every hostile graph through every subcommand ------------------------------

# Each process start costs ~0.1 s of CPU (the CLI maps large libraries), so
# the files that fail the same way in the shared parser (more garbage, more
# cut points, shallower nesting) go through lint and run only; the others,
# and one of each kind, through every subcommand.
special=("$h/missing.fx" "$h/a_directory" /dev/null)
all=("${special[@]}")
for f in "$h"/*.fx; do
    case $(basename "$f") in
    garbage_[02].fx | garbage_after_header.fx | nul.fx | truncated_*_[0-9]*.fx | \
        deep_*_10000.fx | long_comment_line.fx | unknown_ns.fx | not_torch_target.fx | \
        arity_none.fx | two_returns.fx | long_string.fx | deep_tuple_args_*.fx | \
        deep_list_*.fx | wrong_kind.fx | bad_kwarg.fx)
        try "$AIRC" lint "$f"
        try "$AIRC" run "$f"
        ;;
    typed_* | *ones* | huge_arange.fx) ;; # below
    *) all+=("$f") ;;
    esac
done
for f in "$h"/truncated_*_50.fx "${all[@]}"; do
    try "$AIRC" fmt "$f"
    [[ $f == *truncated_*_50.fx ]] && continue
    try "$AIRC" lint "$f"
    try "$AIRC" passes "$f"
    try "$AIRC" rewrite "$f" --pattern "$pattern" --replacement "$replacement"
    try "$AIRC" run "$f"
    try "$AIRC" compile "$f" -o "$tmp/outdir/m.pb"
done
# As the pattern and the replacement of a rewrite.
for f in "$h"/{empty,garbage_2,truncated_0_50,unknown_op,arity_many,deep_return_200000}.fx \
    "${special[@]}"; do
    try "$AIRC" rewrite "$model" --pattern "$f" --replacement "$replacement"
    try "$AIRC" rewrite "$model" --pattern "$pattern" --replacement "$f"
done
# Well-formed graphs with extreme types: typed, given an input, random inputs.
for f in "$h"/typed_*.fx "$h"/*ones*.fx "$h"/huge_arange.fx; do
    try "$AIRC" fmt --types "$f"
    try "$AIRC" run "$f"
    try "$AIRC" run "$f" --input "$x"
    try "$AIRC" compile "$f" --input "$x" -o "$tmp/outdir/m.pb"
done

# Regressions that a build without sanitizers sees too: views out of their
# input's memory are refused; triu above the last column zeroes everything.
for f in "$h"/typed_as_strided_*.fx "$h"/typed_overflow.fx; do
    try_fails "$AIRC" run "$f" --input "$x"
done
try_fails "$AIRC" fmt "$h"/typed_overflow.fx
triu_out=$tmp/triu
"$AIRC" run "$h/typed_triu_max.fx" --input "$x" -o "$triu_out" >/dev/null 2>&1 &&
    "$PY" -c 'import numpy, sys; sys.exit(int(numpy.load(sys.argv[1]).any()))' "$triu_out/out0.npy" ||
    fail "triu(x, INT64_MAX) is not all zeros"

# ---- hostile .npy / .npz as inputs, constants and weights ------------------------

for n in "$h"/*.npy "$h"/*.npz "$h/missing.npy" "$h/a_directory" /dev/null; do
    try "$AIRC" fmt --types --input "$n" "$model"
    try "$AIRC" run "$model" --input "$n"
done
for n in "$h"/*.npz "$h"/{garbage,huge_shape}.npy "$h/missing.npz" "$h/a_directory" /dev/null; do
    try "$AIRC" passes --input "$n" "$model"
    try "$AIRC" compile "$model" --input "$n" -o "$tmp/outdir/m.pb"
    try "$AIRC" run "$cgraph" --const "w=$n"
    try "$AIRC" run "$cgraph" --weights "$n"
    try "$AIRC" compile "$cgraph" --weights "$n" -o "$tmp/outdir/m.pb"
done

# ---- garbage option values -----------------------------------------------------

for v in '' abc -1 99999999999999999999 ' 3'; do
    try "$AIRC" run "$model" --input "$x" --seed "$v"
    try "$AIRC" run "$model" --input "$x" --repeat "$v"
done
for v in '' bogus reduce-overhead $'\x01'; do
    try "$AIRC" run "$model" --input "$x" --mode "$v"
    try "$AIRC" compile "$model" --input "$x" --mode "$v" -o "$tmp/outdir/m.pb"
done
for v in '' w= =x.npy w "$(head -c 3000 /dev/zero | tr '\0' w)=$x"; do
    try "$AIRC" run "$cgraph" --const "$v"
    try "$AIRC" compile "$cgraph" --const "$v" -o "$tmp/outdir/m.pb"
done
for v in = =1 foo=bar passes.cse= \
    "debug.graph_dump.type=$(head -c 3000 /dev/zero | tr '\0' x)"; do
    try "$AIRC" passes "$model" --set "$v"
    try "$AIRC" compile "$model" --input "$x" --set "$v" -o "$tmp/outdir/m.pb"
done
for v in ,,, cse,bogus "$(head -c 5000 /dev/zero | tr '\0' a)"; do
    try "$AIRC" passes "$model" --only "$v"
    try "$AIRC" passes "$model" --disable "$v"
done
for v in : bogus "$h/missing.so:sym" "$h/garbage.so:sym" "$h/a_directory:sym"; do
    try "$AIRC" passes "$model" --pre-pass "$v"
    try "$AIRC" passes "$model" --post-pass "$v"
done
for v in '' "$h/missing.so" "$h/garbage.so" /dev/null; do
    try "$AIRC" --plugin "$v" fmt "$model"
    try "$AIRC" run "$model" --plugin "$v"
done
for v in '' /dev/full "$h/a_directory" "$h/missing_dir/m.pb"; do
    try "$AIRC" compile "$model" --input "$x" -o "$v"
done
for v in bogus txt; do
    try "$AIRC" compile "$model" --input "$x" -o "$tmp/outdir/m.pb" --dump "$v" \
        --dump-path "$h/missing_dir/sub"
    try "$AIRC" compile "$model" --input "$x" -o "$tmp/outdir/m.pb" --dump "$v" --dump-path /dev/null
done
for v in /dev/null "$h/garbage.npy/sub"; do
    try "$AIRC" run "$model" --input "$x" --output-dir "$v"
done
for cmd in fmt lint passes rewrite run compile; do
    try "$AIRC" "$cmd"
    try "$AIRC" "$cmd" - # standard input: /dev/null
    try "$AIRC" "$cmd" --bogus "$model"
    try "$AIRC" "$cmd" "$(head -c 100000 /dev/zero | tr '\0' x)"
done
try "$AIRC" rewrite "$model" --pattern "$pattern"
try "$AIRC" rewrite "$model" --pattern - --replacement -
try "$AIRC" rewrite "$model" --pattern "$model" --replacement "$pattern"

echo "queued $nruns" >&2; check
echo "test_cli_robust: $nruns runs, $failures failures, $((SECONDS - start)) s"
((failures == 0))
