#!/usr/bin/python3
"""Writes tests/data/value_sweep.txt: a value sweep of every built-in aten op
with PyTorch 1.13 as the oracle. Run with Debian's python3-torch:
    /usr/bin/python3 tests/gen_value_sweep.py

For every op of src/ops/builtin_ops.c (but SKIPPED below) the script draws
DRAWS argument sets from the op's schema (small tensors of every airc dtype,
sometimes non-contiguous or broadcast against each other; dims and ints in
a small range with negatives, now and then huge; floats with 0, -0.0, inf,
nan, 1e30; Scalars of int, float and bool; None for optionals; kwargs),
runs the op with torch and writes one case per draw: the FX graph, the
inputs' values and either torch's results or "error" (torch raised: airc
must fail too, at compile or at run, with a message).
tests/unit/test_value_sweep.c runs every case in airc's eager mode.
The draws are seeded per op: rerunning gives the same bytes.

Format (one item per line; values in C order, separated by spaces; floats
written exactly: f32 as its shortest repr, f64 as repr, f16 and bf16 as
the repr or the hex-float of the exact value; ints exact; bools 0/1):
  case NAME                      NAME: the op's qualname less "aten.", ".DRAW";
                                 "pinned.NAME" for the PINNED cases
  in NAME DTYPE SHAPE VALUES...  a placeholder (contiguous); SHAPE "2,3", "-"
                                 (0-dim) or "0,3" (empty: no values)
  # ...                          a comment (torch's message for an error)
  fx                             FX text lines as torch.fx prints the graph,
                                 up to "endfx": the placeholders, a view of
                                 those that stand for a non-contiguous input
                                 (aten.permute or aten.slice with a step),
                                 the call (node "out"), the output
  endfx
  out DTYPE SHAPE VALUES...      one per result, a tuple or list flattened
  error                          instead of "out": torch raised
  end

Draws that airc answers otherwise on purpose, or where torch's answer is an
accident of its build or implementation, are drawn again: EXCLUSIONS lists
each rule with why, and the script prints how often each one fired.
For long runs by hand: gen_value_sweep.py DRAWS PATH [SEED] (AIRC_SWEEP_ONLY=a,b: only the
ops whose qualname holds a or b), then
AIRC_VALUE_SWEEP=PATH build/bin/test_value_sweep.
"""
import math
import os
import random
import re
import sys
import warnings
import zlib

import numpy as np
import torch
import torch.fx

A = torch.ops.aten
SEED = 20250611
DRAWS = 12
MAX_NUMEL = 24  # per tensor drawn (inputs)
MAX_OUT_NUMEL = 96  # per result; bigger results are drawn again
warnings.filterwarnings("ignore")
torch.set_num_threads(1)

DT = {"f32": torch.float32, "f64": torch.float64, "f16": torch.float16,
      "bf16": torch.bfloat16, "i64": torch.int64, "i32": torch.int32, "i16": torch.int16,
      "i8": torch.int8, "u8": torch.uint8, "b8": torch.bool}
DT_NAME = {v: k for k, v in DT.items()}
FLOATS = ("f32", "f64", "f16", "bf16")
# a tensor's dtype: mostly f32
DTYPE_WEIGHTS = [("f32", 45), ("f64", 9), ("f16", 7), ("bf16", 7), ("i64", 10), ("i32", 6),
                 ("i16", 3), ("i8", 3), ("u8", 4), ("b8", 6)]

# Ops not swept, and why.
SKIPPED = {
    # uninitialized results: values are whatever the memory held
    "aten.empty.memory_format": "uninitialized result",
    "aten.empty_like.default": "uninitialized result",
    "aten.new_empty.default": "uninitialized result",
    "aten.empty_strided.default": "uninitialized result",
    # returns nothing; its messages are checked by tests/unit/test_lapack.c
    "aten._linalg_check_errors.default": "no result (an assertion)",
    # returns nothing; its messages are checked by tests/unit/test_lapack.c
    "aten._assert_async.default": "no result (an assertion)",
    "aten.new_empty_strided.default": "uninitialized result",
    # a ZeroTensor: torch keeps no storage and refuses to read its values
    # (tolist: "unallocated storage"); checked by meta cases
    "aten._efficientzerotensor.default": "torch cannot read its result",
    # torch 1.13's raw op checks no argument (a short weight is read past its
    # end) and crashes on some sets (eval without running_var): checked
    # against torch by the conformance model batchnorm_eval and meta cases
    "aten.native_batch_norm.default": "torch's raw op crashes on unchecked arguments",
    # a case's self is a graph input, whose shape airc does not change in
    # place (airc_meta_inplace_view_ok refuses): checked on fresh tensors by
    # the model vector_products, and by meta cases
    "aten.squeeze_.default": "in-place view of a graph input",
    "aten.squeeze_.dim": "in-place view of a graph input",
    "aten.unsqueeze_.default": "in-place view of a graph input",
    "aten.t_.default": "in-place view of a graph input",
    "aten.transpose_.default": "in-place view of a graph input",
}
# air.* (stream ops: no values) and operator.getitem (not an aten op; a
# multi-result op's case returns its tuple, which airc flattens) are skipped
# as namespaces.


# ---------------------------------------------------------------- schemas
def builtin_schemas():
    """(qualname, schema) of every op in src/ops/builtin_ops.c."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "ops",
                        "builtin_ops.c")
    text = open(path).read()
    ops = []
    for m in re.finditer(r'\{"([\w.]+)",\s*\n\s*"((?:[^"\\]|\\.)*)"', text):
        ops.append((m.group(1), m.group(2).replace('\\"', '"')))
    return ops


class Arg:
    def __init__(self, text, kwarg_only):
        m = re.match(r"^(\w+)(\([^)]*\))?(\?(?=\[))?(\[(\d*)\])?(\?)?\s+(\w+)(?:=(.*))?$", text)
        assert m, text
        self.base = m.group(1)
        self.elem_optional = m.group(3) is not None  # Tensor?[]: items may be None
        self.is_list = m.group(4) is not None
        self.fixed = int(m.group(5)) if m.group(5) else 0
        self.optional = m.group(6) is not None
        self.name = m.group(7)
        self.default = m.group(8)
        self.has_default = self.default is not None
        self.kwarg_only = kwarg_only
        self.write = bool(m.group(2) and "!" in m.group(2))


def parse_schema(schema):
    inner = schema[schema.index("(") + 1:schema.rindex(") ->")]
    parts, depth, cur = [], 0, ""
    for ch in inner:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    args, kw = [], False
    for p in parts:
        if p == "*":
            kw = True
            continue
        args.append(Arg(p, kw))
    return args


# ---------------------------------------------------------------- drawing
class TSpec:
    """A tensor argument: dtype, shape, values (C order of the tensor the op
    sees), layout: "c" contiguous, "t" a permutation, "s" a slice with step 2."""

    def __init__(self, dtype, shape, values, layout="c", perm=None, sdim=None):
        self.dtype, self.shape, self.values = dtype, list(shape), values
        self.layout, self.perm, self.sdim = layout, perm, sdim


def numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n


SPECIAL_F = [0.0, -0.0, 0.5, -0.5, 1e-5, 1e30, -1e30, float("inf"), float("-inf"),
             float("nan"), 1.0, -1.0, 2.5, -2.5, 3.0]
EDGE_I = {"i64": [2**31, -2**40, 2**62, 2**63 - 1, -2**63, -2**31 - 1],
          "i32": [2**31 - 1, -2**31, 2**30, -70000],
          "i16": [32767, -32768, 300], "i8": [127, -128, 100], "u8": [255, 128, 200]}


class Draw:
    """One argument set of one op: a base shape the tensors broadcast
    against, helpers for each kind of argument."""

    def __init__(self, rng):
        self.r = rng
        self.shape = self.rand_shape()
        self.dtype = None  # the first tensor's
        self.ntensors = 0

    def chance(self, p):
        return self.r.random() < p

    def pick(self, xs):
        return xs[self.r.randrange(len(xs))]

    def rand_dtype(self):
        total = sum(w for _, w in DTYPE_WEIGHTS)
        k = self.r.randrange(total)
        for d, w in DTYPE_WEIGHTS:
            if k < w:
                return d
            k -= w
        raise AssertionError

    def rand_shape(self, ndims=(0, 1, 2, 3), weights=(1, 3, 4, 3), lo=1, hi=4):
        nd = self.r.choices(ndims, weights)[0]
        while True:
            shape = [self.r.randint(lo, hi) for _ in range(nd)]
            if shape and self.chance(0.04):
                shape[self.r.randrange(nd)] = 0
            if numel(shape) <= MAX_NUMEL:
                return shape

    def bcast_shape(self):
        """A shape that broadcasts with self.shape (now and then one that
        does not)."""
        k = self.r.random()
        if k < 0.5:
            return list(self.shape)
        if k < 0.8:
            nd = self.r.randint(0, len(self.shape))
            return [1 if self.chance(0.3) else s for s in self.shape[len(self.shape) - nd:]]
        if k < 0.9:
            return []
        return self.rand_shape()

    def values(self, dtype, n, lo=None, hi=None):
        r = self.r
        if lo is not None:
            return [r.randint(lo, hi) for _ in range(n)]
        if dtype == "b8":
            return [r.random() < 0.5 for _ in range(n)]
        mode = r.random()
        if dtype in FLOATS:
            if mode < 0.6:
                return [round(r.gauss(0, 1.5), 2) for _ in range(n)]
            if mode < 0.8:
                return [r.choice(SPECIAL_F) if r.random() < 0.4 else round(r.gauss(0, 2), 2)
                        for _ in range(n)]
            return [r.randint(-6, 6) / 2 for _ in range(n)]
        ulo = 0 if dtype == "u8" else -5
        if mode < 0.85:
            return [r.randint(ulo, 5) for _ in range(n)]
        return [r.choice(EDGE_I[dtype]) if r.random() < 0.4 else r.randint(ulo, 5)
                for _ in range(n)]

    def tensor(self, shape=None, dtype=None, lo=None, hi=None, layout=None):
        """A tensor spec; the first one drawn sets the draw's dtype."""
        if shape is None:
            shape = list(self.shape) if self.ntensors == 0 else self.bcast_shape()
        if dtype is None:
            if self.dtype is not None and self.chance(0.6):
                dtype = self.dtype
            else:
                dtype = self.rand_dtype()
        if self.dtype is None:
            self.dtype = dtype
        self.ntensors += 1
        vals = self.values(dtype, numel(shape), lo, hi)
        if layout is None:
            layout = "c"
            if numel(shape) >= 2 and self.chance(0.2):
                layout = "t" if len(shape) >= 2 and self.chance(0.6) else "s"
        perm = sdim = None
        if layout == "t":
            perm = list(range(len(shape)))
            while perm == sorted(perm):
                self.r.shuffle(perm)
        elif layout == "s":
            sdim = self.pick([d for d in range(len(shape)) if shape[d] > 0])
        return TSpec(dtype, shape, vals, layout, perm, sdim)

    def ftensor(self, shape=None, **kw):
        """A tensor of a floating dtype (mostly f32)."""
        return self.tensor(shape, dtype=self.pick(["f32"] * 6 + ["f64", "f16", "bf16"]), **kw)

    def scalar(self):
        k = self.r.random()
        if k < 0.4:
            return self.pick([0, 1, 2, 3, -1, -2, -3, 5] * 3 + [2**31, -2**40, 2**62, 70000])
        if k < 0.85:
            return self.pick([0.0, -0.0, 0.5, 1e-5, 1e30, float("inf"), float("-inf"),
                              float("nan"), 2.5, -1.5, 3.0, 0.25])
        return self.chance(0.5)

    def dim(self, nd, extra=0):
        """A dim of an nd-dim tensor (negatives too; now and then out of range)."""
        n = max(nd, 1) + extra
        k = self.r.random()
        if k < 0.9:
            return self.r.randint(-n, n - 1)
        if k < 0.97:
            return self.pick([n, -n - 1])
        return self.pick([2**31, -2**40, 2**62])

    def dims(self, nd):
        """A list of distinct dims (sometimes a duplicate)."""
        k = self.r.randint(0, min(nd, 3))
        ds = self.r.sample(range(nd), k) if nd else ([0] if self.chance(0.3) else [])
        ds = [d - nd if self.chance(0.3) else d for d in ds]
        if self.chance(0.05):
            ds.append(ds[0] if ds else 5)
        return ds

    def big_int(self):
        return self.pick([2**31, -2**40, 2**62, 2**63 - 1])

    def small_int(self, lo=-3, hi=3):
        return self.big_int() if self.chance(0.05) else self.r.randint(lo, hi)

    def dtype_arg(self):
        return DT[self.pick(list(DT))]

    def reshape_size(self, shape):
        """A size list with the same numel as shape (sometimes with a -1,
        sometimes wrong)."""
        n = numel(shape)
        if self.chance(0.1):
            return [self.r.randint(1, 5) for _ in range(self.r.randint(0, 3))]
        out = []
        rest = n
        for _ in range(self.r.randint(0, 3)):
            divs = [d for d in range(1, max(rest, 1) + 1) if rest % d == 0] if rest else [0, 1, 2]
            d = self.pick(divs)
            out.append(d)
            rest = rest // d if d else rest
        if rest != 1 or not out or self.chance(0.3):
            out.append(rest)
        if self.chance(0.3) and n:
            out[self.r.randrange(len(out))] = -1
        return out


# ---------------------------------------------------------------- hints
# Per op, the arguments whose structure matters (shapes that fit, dims in
# range, indices in bounds); the rest are drawn from the schema. A draw
# ignores the hints now and then (WILD) to reach the error paths.
WILD = 0.12


def nd_of(t):
    return len(t.shape)


def h_dim(d):
    x = d.tensor()
    return {"self": x, "dim": d.dim(nd_of(x))}


def h_dims(d):
    x = d.tensor()
    return {"self": x, "dim": d.dims(nd_of(x))}


def h_softmax(d):
    x = d.tensor(dtype=d.pick(["f32"] * 5 + ["f64", "f16", "bf16", "i64"]))
    return {"self": x, "dim": d.dim(nd_of(x)), "half_to_float": d.chance(0.1)}


def h_cumsum(d):
    x = d.tensor()
    return {"self": x, "dim": d.dim(nd_of(x))}


def h_reshape(d):
    x = d.tensor()
    return {"self": x, "size": d.reshape_size(x.shape), "shape": d.reshape_size(x.shape)}


def contiguous_strides(shape):
    st, s = [], 1
    for n in reversed(shape):
        st.insert(0, s)
        s *= max(n, 1)
    return st


def h_reshape_alias(d):
    x = d.tensor()
    size = d.reshape_size(x.shape)
    if -1 in size:
        size = [numel(x.shape) // max(1, -numel(size)) if s == -1 else s for s in size]
    return {"self": x, "size": size, "stride": contiguous_strides(size)}


def h_as_strided(d):
    x = d.tensor()
    n = numel(x.shape)
    size = [d.r.randint(0, 3) for _ in range(d.r.randint(0, 3))]
    stride = [d.r.randint(0, 3) for _ in size]
    off = d.pick([None, 0, 0, 1, 2])
    return {"self": x, "size": size, "stride": stride, "storage_offset": off} if n else {}


def h_expand(d):
    x = d.tensor()
    size = [s if d.chance(0.6) else (-1 if d.chance(0.5) else (3 if s == 1 else s))
            for s in x.shape]
    while d.chance(0.3):
        size.insert(0, d.r.randint(1, 3))
    if d.chance(0.05):
        size = [d.r.randint(1, 4) for _ in range(d.r.randint(0, 3))]
    return {"self": x, "size": size, "implicit": d.chance(0.2)}


def h_permute(d):
    x = d.tensor()
    p = list(range(nd_of(x)))
    d.r.shuffle(p)
    p = [i - nd_of(x) if d.chance(0.3) else i for i in p]
    if d.chance(0.08) and p:
        p[0] = p[-1]
    return {"self": x, "dims": p}


def h_transpose(d):
    x = d.tensor()
    return {"self": x, "dim0": d.dim(nd_of(x)), "dim1": d.dim(nd_of(x))}


def h_select(d):
    x = d.tensor()
    dim = d.dim(nd_of(x))
    size = x.shape[dim] if -nd_of(x) <= dim < nd_of(x) else 1
    return {"self": x, "dim": dim, "index": d.r.randint(-size - 1, size)}


def h_slice(d):
    x = d.tensor(shape=d.rand_shape(ndims=(1, 2, 3), weights=(3, 4, 3)))
    se = [None, 0, 1, 2, -1, -2, 3, 5, -5, 2**62, -2**62]
    return {"self": x, "dim": d.dim(nd_of(x)), "start": d.pick(se), "end": d.pick(se),
            "step": d.pick([1, 1, 2, 3]) if d.chance(0.95) else d.pick([0, -1])}


def h_split(d):
    x = d.tensor(shape=d.rand_shape(ndims=(1, 2, 3), weights=(3, 4, 3)))
    return {"self": x, "split_size": d.pick([1, 2, 3, 4, 0]) if d.chance(0.95) else -1,
            "dim": d.dim(nd_of(x))}


def h_split_with_sizes(d):
    x = d.tensor(shape=d.rand_shape(ndims=(1, 2, 3), weights=(3, 4, 3)))
    dim = d.dim(nd_of(x))
    n = x.shape[dim] if -nd_of(x) <= dim < nd_of(x) else 2
    sizes = []
    while n > 0:
        k = d.r.randint(1, n)
        sizes.append(k)
        n -= k
    if d.chance(0.2):
        sizes.append(d.pick([0, 1, -1]))
    return {"self": x, "split_sizes": sizes, "dim": dim}


def h_squeeze_dim(d):
    x = d.tensor(shape=d.rand_shape(lo=1, hi=2))
    return {"self": x, "dim": d.dim(nd_of(x))}


def h_unsqueeze(d):
    x = d.tensor()
    return {"self": x, "dim": d.dim(nd_of(x) + 1)}


def h_t(d):
    return {"self": d.tensor(shape=d.rand_shape(ndims=(0, 1, 2, 3), weights=(1, 2, 6, 1)))}


def h_tri(d):
    x = d.tensor(shape=d.rand_shape(ndims=(1, 2, 3), weights=(1, 6, 3)))
    return {"self": x, "diagonal": d.small_int(-3, 3)}


def cat_list(d, stack):
    dt = d.rand_dtype()
    base = d.rand_shape(ndims=(0, 1, 2, 3), weights=(1, 3, 4, 2), hi=3)
    nd = len(base)
    dim = d.dim(nd + (1 if stack else 0))
    ts = []
    for _ in range(d.r.randint(1, 3)):
        shape = list(base)
        if not stack and nd and -nd <= dim < nd and d.chance(0.7):
            shape[dim] = d.r.randint(0, 3)
        if d.chance(0.05):
            shape = d.rand_shape(hi=3)
        ts.append(d.tensor(shape=shape, dtype=dt if d.chance(0.8) else None))
    return {"tensors": ts, "dim": dim}


def h_cat(d):
    return cat_list(d, False)


def h_stack(d):
    return cat_list(d, True)


def h_pad(d):
    x = d.tensor()
    k = d.r.randint(0, nd_of(x)) if nd_of(x) else 0
    pad = [d.r.randint(-1, 2) for _ in range(2 * k)]
    if d.chance(0.05):
        pad.append(1)
    return {"self": x, "pad": pad}


def h_index_select(d):
    x = d.tensor()
    dim = d.dim(nd_of(x))
    n = x.shape[dim] if -nd_of(x) <= dim < nd_of(x) else 1
    hi = n - 1 if d.chance(0.9) else n
    ishape = d.pick([[], [1], [2], [3], [4]]) if d.chance(0.95) else [2, 2]
    idx = d.tensor(shape=ishape, dtype=d.pick(["i64", "i64", "i32"]), lo=min(0, hi), hi=hi,
                   layout="c")
    return {"self": x, "dim": dim, "index": idx}


def h_index(d):
    # a few index tensors (None between them now and then) of shapes that
    # broadcast (or, rarely, do not), in range (or, rarely, not)
    x = d.tensor(shape=d.rand_shape(ndims=(1, 2, 3), weights=(2, 4, 3)))
    nd = nd_of(x)
    n = d.r.randint(1, nd) if d.chance(0.97) else nd + 1
    shapes = d.pick([[[2]], [[3], [1]], [[2, 1], [3]], [[]], [[2, 2]], [[0]], [[2], [3]]])
    out = []
    for i in range(n):
        if out and d.chance(0.3) or (not out and i < n - 1 and d.chance(0.25)):
            out.append(None)
            continue
        size = x.shape[i] if i < nd else 1
        lo, hi = (-size, size - 1) if d.chance(0.95) else (size, size + 2)
        if size == 0:
            lo, hi = 0, 0
        out.append(d.tensor(shape=d.pick(shapes), dtype="i64" if d.chance(0.95) else "i32",
                            lo=lo, hi=hi, layout="c" if d.chance(0.8) else None))
    if all(v is None for v in out):
        out[-1] = d.tensor(shape=[1], dtype="i64", lo=0, hi=0, layout="c")
    return {"self": x, "indices": out}


def h_index_put(d):
    a = h_index(d)
    x = a["self"]
    if d.chance(0.25):  # a bool mask over the leading dims
        nd = d.r.randint(1, nd_of(x))
        a["indices"] = [d.tensor(shape=x.shape[:nd], dtype=d.pick(["b8", "b8", "u8"]),
                                 layout="c")]
    vshape = d.pick([[], [1], [x.shape[-1]], [1, x.shape[-1]]])
    return {"self": x, "indices": a["indices"], "values": d.tensor(shape=vshape, dtype=x.dtype),
            "accumulate": d.chance(0.4)}


def h_gather(d):
    x = d.tensor()
    nd = nd_of(x)
    dim = d.dim(nd)
    n = x.shape[dim] if -nd <= dim < nd else 1
    ishape = [d.r.randint(0, s) for s in x.shape]
    if -nd <= dim < nd:
        ishape[dim] = d.r.randint(0, 3)
    hi = n - 1 if d.chance(0.9) else n
    idx = d.tensor(shape=ishape, dtype="i64" if d.chance(0.9) else "i32", lo=min(0, hi), hi=hi)
    return {"self": x, "dim": dim, "index": idx, "sparse_grad": False}


def h_scatter(d):
    x = d.tensor()
    nd = nd_of(x)
    dim = d.dim(nd)
    wd = dim % max(nd, 1) if -max(nd, 1) <= dim < max(nd, 1) else 0
    ishape = [d.r.randint(0, s) if s else 0 for s in x.shape]
    if nd and d.chance(0.8):
        ishape[wd] = d.r.randint(1, 3)
    size = x.shape[wd] if nd else 1
    hi = size - 1 if d.chance(0.95) else size
    idx = d.tensor(shape=ishape, dtype="i64", lo=0, hi=max(hi, 0), layout="c")
    a = {"self": x, "dim": dim, "index": idx}
    return a


def h_scatter_src(d):
    a = h_scatter(d)
    a["src"] = d.tensor(shape=[s + d.pick([0, 0, 1]) for s in a["index"].shape],
                        dtype=a["self"].dtype if d.chance(0.95) else None)
    return a


def h_scatter_value(d):
    a = h_scatter(d)
    a["value"] = d.scalar()
    return a


def h_index_copy(d):
    x = d.tensor()
    nd = nd_of(x)
    dim = d.dim(nd)
    wd = dim % max(nd, 1) if -max(nd, 1) <= dim < max(nd, 1) else 0
    size = x.shape[wd] if nd else 1
    n = d.pick([1, 2, size, 0]) if d.chance(0.95) else size + 1
    hi = size - 1 if d.chance(0.95) else size
    idx = d.tensor(shape=d.pick([[n], [n]] + ([[]] if n == 1 else [])), dtype="i64", lo=0,
                   hi=max(hi, 0), layout="c")
    sshape = list(x.shape)
    if nd:
        sshape[wd] = n
    src = d.tensor(shape=sshape if nd or d.chance(0.5) else [n],
                   dtype=x.dtype if d.chance(0.95) else None)
    return {"self": x, "dim": dim, "index": idx, "source": src}


def h_index_fill(d, tensor_value):
    x = d.tensor()
    nd = nd_of(x)
    dim = d.dim(nd)
    wd = dim % max(nd, 1) if -max(nd, 1) <= dim < max(nd, 1) else 0
    size = x.shape[wd] if nd else 1
    n = d.pick([1, 2, 3, 0])
    lo, hi = (-size, size - 1) if d.chance(0.95) else (-size - 1, size)
    idx = d.tensor(shape=d.pick([[n]] * 3 + ([[]] if n == 1 else [])),
                   dtype="i64" if d.chance(0.95) else "i32", lo=lo, hi=max(hi, lo))
    if tensor_value:
        value = d.tensor(shape=[] if d.chance(0.9) else [1])
    else:
        value = d.scalar() if d.chance(0.3) else d.pick([1, -2, 0.5, 2.5, True])
    return {"self": x, "dim": dim, "index": idx, "value": value}


def h_take(d):
    x = d.tensor(shape=d.rand_shape() if d.chance(0.95) else [0])
    n = numel(x.shape)
    lo, hi = (-n, n - 1) if d.chance(0.95) else (-n - 1, n)
    idx = d.tensor(shape=d.rand_shape(ndims=(0, 1, 2), weights=(1, 3, 2)) if n or d.chance(0.5)
                   else [0],
                   dtype="i64" if d.chance(0.95) else "i32", lo=lo, hi=max(hi, lo))
    return {"self": x, "index": idx}


def h_rot90(d):
    x = d.tensor(shape=d.rand_shape(ndims=(2, 3, 4), weights=(4, 3, 1), hi=3)
                 if d.chance(0.95) else d.rand_shape(ndims=(0, 1), weights=(1, 1)))
    nd = nd_of(x)
    a = {"self": x}
    if d.chance(0.8):
        a["k"] = d.r.randint(-5, 5)
    if d.chance(0.7) and nd >= 2:
        d0 = d.r.randint(-nd, nd - 1)
        d1 = d.r.randint(-nd, nd - 1)
        a["dims"] = [d0, d1] if d.chance(0.95) else [d0]
    return a


def sorted_values(d, dtype, n):
    """n ascending values of dtype (now and then a NaN or an unsorted pair)."""
    vals = sorted(d.values(dtype, n, -4, 4)) if dtype != "b8" else sorted(d.values(dtype, n))
    if vals and d.chance(0.1):
        i = d.r.randrange(len(vals))
        vals[i] = float("nan") if dtype in FLOATS else vals[-1] + 1
    return vals


def search_args(d, scalar):
    dt = d.pick(["f32"] * 4 + ["f64", "f16", "bf16", "i64", "i32", "u8"])
    vdt = d.pick([dt] * 4 + ["f32", "i64"])
    n = d.r.randint(0, 5) if d.chance(0.1) else d.r.randint(1, 5)
    lead = d.rand_shape(ndims=(0, 1, 2), weights=(3, 2, 1), hi=3)
    shape = lead + [d.r.randint(1, 3)]
    vals = d.tensor(shape=shape, dtype=vdt, lo=-5, hi=5)
    if scalar:
        vals = d.pick([0, 1, 3, -2, 2.5, -0.5, float("nan")])
    return dt, n, lead, vals


def h_bucketize(d, scalar=False):
    dt, n, _, vals = search_args(d, scalar)
    a = {"self": vals, "boundaries": TSpec(dt, [n], sorted_values(d, dt, n))}
    if d.chance(0.4):
        a["right"] = True
    if d.chance(0.3):
        a["out_int32"] = True
    return a


def h_searchsorted(d, scalar=False):
    dt, n, lead, vals = search_args(d, scalar)
    nd_seq = not scalar and d.chance(0.4)
    rows = numel(lead) if nd_seq else 1
    seq_shape = (lead if nd_seq else []) + [n]
    seq = [v for _ in range(rows) for v in sorted_values(d, dt, n)]
    a = {"sorted_sequence": TSpec(dt, seq_shape, seq), "self": vals, "side": None,
         "sorter": None}
    if d.chance(0.2):  # the sequence shuffled, a sorter to read it in order
        perm = [list(range(n)) for _ in range(rows)]
        for p in perm:
            d.r.shuffle(p)
        shuffled, order = [], []
        for r, p in enumerate(perm):
            row = seq[r * n:(r + 1) * n]
            shuffled += [row[p.index(j)] for j in range(n)]
            order += p
        a["sorted_sequence"] = TSpec(dt, seq_shape, shuffled)
        a["sorter"] = TSpec("i64", seq_shape, order)
    if d.chance(0.3):
        a["right"] = True
    if d.chance(0.3):
        a["side"] = d.pick(["left", "right", "right", "middle"])
    if d.chance(0.2):
        a["out_int32"] = True
    return a


def h_scatter_reduce(d):
    args = h_scatter_src(d)
    args["reduce"] = d.pick(["sum", "sum", "prod", "mean", "amax", "amin"] +
                            (["max"] if d.chance(0.1) else []))
    args["include_self"] = d.pick([True, True, False])
    return args


def h_index_add(d):
    args = h_index_copy(d)
    if d.chance(0.3):  # index_add takes an int32 index too
        i = args["index"]
        args["index"] = TSpec("i32", i.shape, i.values)
    args["alpha"] = d.pick([1, 1, 2, -1, 0.5, 1.5])
    return args


def h_embedding(d):
    v = d.r.randint(1, 5)
    w = d.tensor(shape=[v, d.r.randint(1, 3)] if d.chance(0.95) else [v])
    idx = d.tensor(shape=d.rand_shape(ndims=(0, 1, 2), weights=(1, 3, 2), hi=3),
                   dtype=d.pick(["i64", "i64", "i32"]), lo=0, hi=v - 1 if d.chance(0.9) else v)
    return {"weight": w, "indices": idx, "padding_idx": d.pick([-1, -1, 0, 1]),
            "scale_grad_by_freq": False, "sparse": False}


def h_select_scatter(d):
    x = d.tensor(shape=d.rand_shape(ndims=(1, 2, 3), weights=(3, 4, 3)))
    nd = nd_of(x)
    dim = d.dim(nd)
    shape = list(x.shape)
    if -nd <= dim < nd:
        n = shape.pop(dim)
    else:
        n = 1
    if d.chance(0.05):
        shape = d.bcast_shape()
    return {"self": x, "src": d.tensor(shape=shape), "dim": dim, "index": d.r.randint(-n, n)}


def h_slice_scatter(d):
    x = d.tensor(shape=d.rand_shape(ndims=(1, 2, 3), weights=(3, 4, 3)))
    nd = nd_of(x)
    dim = d.dim(nd)
    start = d.pick([None, 0, 1, -2, 2])
    end = d.pick([None, 2, 3, -1, 2**62])
    step = d.pick([1, 1, 2])
    shape = list(x.shape)
    if -nd <= dim < nd:
        probe = torch.empty(x.shape)
        try:
            shape = list(A.slice.Tensor(probe, dim, start, end, step).shape)
        except (RuntimeError, IndexError):
            pass
    if d.chance(0.05):
        shape = d.bcast_shape()
    return {"self": x, "src": d.tensor(shape=shape), "dim": dim, "start": start, "end": end,
            "step": step}


def h_unbind(d):
    x = d.tensor(shape=d.rand_shape(ndims=(0, 1, 2, 3), weights=(1, 3, 4, 3)))
    return {"self": x, "dim": d.dim(nd_of(x))}


def h_mm(d):
    n, m, p = (d.r.randint(0, 4) if d.chance(0.05) else d.r.randint(1, 4) for _ in range(3))
    dt = d.pick(["f32"] * 6 + ["f64", "f16", "bf16", "i64", "i32"])
    m2 = m if d.chance(0.92) else m + 1
    return {"self": d.tensor([n, m], dt), "mat2": d.tensor([m2, p], dt)}


def h_bmm(d):
    b, n, m, p = (d.r.randint(1, 3) for _ in range(4))
    dt = d.pick(["f32"] * 6 + ["f64", "i64", "bf16"])
    m2 = m if d.chance(0.92) else m + 1
    return {"self": d.tensor([b, n, m], dt), "mat2": d.tensor([b, m2, p], dt)}


def h_addmm(d):
    n, m, p = (d.r.randint(1, 4) for _ in range(3))
    dt = d.pick(["f32"] * 6 + ["f64", "i64"])
    bias = d.pick([[n, p], [p], [1, p], [n, 1], [], [1]])
    return {"self": d.tensor(bias, dt), "mat1": d.tensor([n, m], dt),
            "mat2": d.tensor([m, p], dt)}


def h_addmm_activation(d):
    """_addmm_activation: addmm's operands (bf16 too), relu or gelu, scaled now and then"""
    a = h_addmm(d)
    if d.chance(0.15):
        a = {k: TSpec("bf16", v.shape, v.values, v.layout, v.perm, v.sdim) for k, v in a.items()}
    a["use_gelu"] = d.chance(0.5)
    if d.chance(0.3):
        a["beta"], a["alpha"] = d.pick([0, 0.5, 2, -1]), d.pick([1, 0.5, -2, 3])
    return a


def h_baddbmm(d):
    b, n, m, p = (d.r.randint(1, 3) for _ in range(4))
    dt = d.pick(["f32"] * 6 + ["f64", "i64", "bf16"])
    bias = d.pick([[b, n, p], [n, p], [p], [1, 1, p], [b, 1, 1], []])
    return scales(d, {"self": d.tensor(bias, dt), "batch1": d.tensor([b, n, m], dt),
                      "batch2": d.tensor([b, m if d.chance(0.92) else m + 1, p], dt)}, dt)


def scales(d, a, dt):
    """beta and alpha, drawn sometimes; ints for integer dtypes."""
    if d.chance(0.5):
        a["beta"] = d.pick([0, 0.5, 2, 1])
    if d.chance(0.5):
        a["alpha"] = d.pick([0.5, -1, 3])
    if dt not in FLOATS:
        a = {k: (int(v) if isinstance(v, float) else v) for k, v in a.items()}
    return a


def h_addbmm(d):
    b, n, m, p = (d.r.randint(1, 3) for _ in range(4))
    if d.chance(0.05):
        b = 0
    dt = d.pick(["f32"] * 6 + ["f64", "i64", "bf16"])
    bias = d.pick([[n, p], [p], [1, p], [n, 1], [], [1, 1]])
    return scales(d, {"self": d.tensor(bias, dt), "batch1": d.tensor([b, n, m], dt),
                      "batch2": d.tensor([b, m if d.chance(0.92) else m + 1, p], dt)}, dt)


def h_addmv(d):
    n, m = (d.r.randint(1, 4) for _ in range(2))
    dt = d.pick(["f32"] * 6 + ["f64", "i64", "i32", "bf16"])
    sdt = d.pick([dt] * 4 + ["f64", "i64"])
    return scales(d, {"self": d.tensor(d.pick([[n], [1], []]), sdt),
                      "mat": d.tensor([n, m], dt),
                      "vec": d.tensor([m if d.chance(0.92) else m + 1], dt)}, dt)


def h_addr(d):
    n, m = (d.r.randint(1, 4) for _ in range(2))
    dt = d.pick(["f32"] * 5 + ["f64", "i64", "i16", "u8", "b8", "f16", "bf16"])
    other = d.pick([dt] * 5 + ["f32", "i32", "b8"])
    a = {"self": d.tensor(d.pick([[n, m], [m], [n, 1], []]), other),
         "vec1": d.tensor([n], dt), "vec2": d.tensor([m], d.pick([dt] * 4 + [other]))}
    if dt == "b8" and other == "b8":
        if d.chance(0.5):
            a["beta"] = d.pick([True, False, 2])
        if d.chance(0.5):
            a["alpha"] = d.pick([True, False, 0])
        return a
    return scales(d, a, dt if dt in FLOATS else other)


def h_mv(d):
    n, m = (d.r.randint(0, 4) if d.chance(0.05) else d.r.randint(1, 4) for _ in range(2))
    dt = d.pick(["f32"] * 6 + ["f64", "bf16", "i64", "i32", "u8"])
    lhs = [m] if d.chance(0.1) else [n, m]
    rhs = [m if d.chance(0.92) else m + 1]
    return {"self": d.tensor(lhs, dt), "vec": d.tensor(rhs, dt)}


def h_dot(d):
    m = d.r.randint(0, 5)
    dt = d.pick(["f32"] * 6 + ["f64", "bf16", "i64", "i32", "i8"])
    rhs = [m if d.chance(0.92) else m + 1] if d.chance(0.95) else [1, m]
    return {"self": d.tensor([m], dt), "tensor": d.tensor(rhs, dt)}


SCATTER_REDUCE = ["add", "multiply"] * 4 + ["sum", "mean"]


def h_narrow_copy(d):
    """narrow_copy: a dim of self (now and then out of range), start and length mostly inside
    it, negative starts too"""
    x = d.tensor()
    nd = nd_of(x)
    dim = d.dim(nd)
    size = x.shape[dim] if x.shape and -nd <= dim < nd else 1
    start = d.r.randint(-size - 1, size)
    length = d.r.randint(-1, size + 1) if d.chance(0.2) else d.r.randint(
        0, max(size - (start if start >= 0 else start + size), 0))
    return {"self": x, "dim": dim, "start": start, "length": length}


def h_vdot(d):
    a = h_dot(d)
    return {"self": a["self"], "other": a["tensor"]}


NORM_ORDERS = [2, 2.0, 1, 0, 3, 3.5, 0.5, -1, -2.5, float("inf"), -float("inf"), True]


def h_norm_dtype(d, with_dim):
    """norm's dtype= overloads: the norm of self.to(dtype), any self (integers too), a float
    dtype mostly (an integer one is refused), p None now and then"""
    x = d.tensor(dtype=d.pick(["f32"] * 4 + ["f64", "f64", "bf16", "f16", "i64", "i32"]))
    a = {"self": x, "p": d.pick(NORM_ORDERS + [None]),
         "dtype": d.pick([torch.float32, torch.float64, torch.float64, torch.float16,
                          torch.bfloat16, torch.int64])}
    if with_dim:
        nd = nd_of(x)
        a["dim"] = sorted(d.r.sample(range(-nd, 0), d.r.randint(0, nd))) if nd else []
        a["keepdim"] = d.chance(0.4)
    return a


def h_dist(d):
    """dist: two tensors that broadcast (mostly floats), torch's special orders"""
    return {"self": d.tensor(), "other": d.tensor(), "p": d.pick(NORM_ORDERS + [1.5, -0.5])}


def h_matmul(d):
    n, m, p, b = (d.r.randint(1, 3) for _ in range(4))
    ls = d.pick([[m], [n, m], [b, n, m], [1, n, m]])
    rs = d.pick([[m], [m, p], [b, m, p], [1, m, p]])
    dt = d.pick(["f32"] * 6 + ["f64", "i64"])
    return {"self": d.tensor(ls, dt), "other": d.tensor(rs, dt)}


def h_linear(d):
    # torch 1.13: with a bias, a 2-d or contiguous 3-d input is addmm (bias of
    # the input's dtype, a 1-d weight refused); else matmul + add_ (any bias
    # dtype the result can take); a 1-d weight is matmul(input, weight)
    i, o = d.r.randint(1, 4), d.r.randint(1, 4)
    lead = d.pick([[], [2], [1, 2], [3], [2, 1, 2]])
    dt = d.pick(["f32"] * 6 + ["f64", "bf16"])
    w = [i] if d.chance(0.25) else [o, i]
    out = lead + w[:-1]
    bdt = d.pick([dt] * 4 + ["f64", "f32", "i64"])
    bias = d.pick([None, d.tensor(out[-1:], bdt), d.tensor([], bdt),
                   d.tensor([1] * len(out[:-1]) + out[-1:], bdt)])
    return {"input": d.tensor(lead + [i], dt), "weight": d.tensor(w, dt), "bias": bias}


def h_conv(d):
    g = d.pick([1, 1, 2])
    cin, cout = g * d.r.randint(1, 2), g * d.r.randint(1, 2)
    k = [d.r.randint(1, 2), d.r.randint(1, 3)]
    hw = [d.r.randint(2, 3), d.r.randint(2, 4)]
    transposed = d.chance(0.25)
    # torch's CPU kernels: f32, f64, and i64 for a transposed convolution
    dt = d.pick(["f32"] * 6 + ["f64"] + ["i64"] * transposed)
    w = [cin, cout // g] + k if transposed else [cout, cin // g] + k
    stride = [d.pick([1, 1, 2]), d.pick([1, 2])]
    dil = [1, d.pick([1, 1, 2])]
    pad = [d.pick([0, 1]), d.pick([0, 1])]
    opad = [d.pick([0, 0, 0, 1]), d.pick([0, 0, 1, 2])] if transposed else [0, 0]
    if d.chance(0.25):  # 1-d: [N, C, L], the parameters' width values
        hw, w, stride, pad, dil, opad = hw[1:], w[:2] + w[3:], stride[1:], pad[1:], dil[1:], \
            opad[1:]
    elif d.chance(0.3):  # 3-d: [N, C, D, H, W], a depth in front
        kd = d.r.randint(1, 2)
        sd, pd = d.pick([1, 2]), d.pick([0, 1])
        hw, w, stride, pad = [d.r.randint(kd, 3)] + hw, w[:2] + [kd] + w[2:], [sd] + stride, \
            [pd] + pad
        dil = [d.pick([1, 1, 2]) if kd > 1 else 1] + dil
        opad = [d.pick([0, 0, 1]) if transposed and sd > 1 else 0] + opad
    return {"input": d.tensor([1, cin] + hw, dt), "weight": d.tensor(w, dt),
            "bias": d.pick([None, d.tensor([cout], dt)]), "stride": stride, "padding": pad,
            "dilation": dil, "transposed": transposed, "output_padding": opad, "groups": g}


def h_slow_conv(d, kind, k):
    """The slow_conv* forwards: kind "slow" (_slow_conv2d_forward,
    slow_conv3d_forward), "dilated" or "transposed"; k spatial dims. The
    weight's sizes are kernel_size (torch reads the weight by it, past its
    end otherwise); slow_conv3d's groups are the input's channels over the
    weight's."""
    transposed = kind == "transposed"
    g = d.pick([1, 1, 2]) if kind == "slow" and k == 3 else 1
    cin, cout = g * d.r.randint(1, 2), g * d.r.randint(1, 2)
    ks = [d.r.randint(1, 2) for _ in range(k - 1)] + [d.r.randint(1, 3)]
    sizes = [d.r.randint(2, 3) for _ in range(k - 1)] + [d.r.randint(2, 4)]
    dt = d.pick(["f32"] * 6 + ["f64", "i64", "bf16", "i32", "f16"])
    w = [cin, cout] + ks if transposed else [cout, cin // g] + ks
    batch = kind == "slow" or d.chance(0.8)
    x = ([d.r.randint(1, 2)] if batch else []) + [cin] + sizes
    stride = [d.pick([1, 1, 2]) for _ in range(k)]
    dil = [d.pick([1, 1, 2]) for _ in range(k)]
    args = {"self": d.tensor(x, dt), "weight": d.tensor(w, dt), "kernel_size": ks,
            "bias": d.pick([None, d.tensor([cout], d.pick([dt] * 4 + ["f64"]))]),
            "stride": stride, "padding": [d.pick([0, 0, 1]) for _ in range(k)],
            "dilation": dil}
    if transposed:
        args["output_padding"] = [d.pick([0, 0, 1]) if max(s_, dl) > 1 else 0
                                  for s_, dl in zip(stride, dil)]
    return args


def h_conv_tbc(d):
    t, b, i, o, kw = d.r.randint(1, 5), d.r.randint(1, 2), d.r.randint(1, 3), \
        d.r.randint(1, 3), d.r.randint(1, 3)
    dt = d.pick(["f32"] * 6 + ["f64", "i64", "bf16", "f16"])
    return {"self": d.tensor([t, b, i], dt), "weight": d.tensor([kw, i, o], dt),
            "bias": d.tensor([o], d.pick([dt] * 4 + ["f64"])), "pad": d.pick([0, 0, 1, 2, -1])}


def h_native_dropout(d):
    return {"input": d.tensor(), "p": d.pick([0.0, 1.0, 0.0, 1.0, 0.5, 1.5, -0.5, float("nan")]),
            "train": d.pick([True, True, False, None])}


def h_bn_update_stats(d):
    x = d.tensor(shape=d.rand_shape(ndims=(1, 2, 3, 4), weights=(1, 4, 4, 2)),
                 dtype=d.pick(["f32"] * 5 + ["f64", "bf16", "f16", "i64"]))
    c = x.shape[1] if len(x.shape) > 1 else 1

    def stat():
        return d.pick([None, d.tensor([c], d.pick([x.dtype, x.dtype, "f32", "f64"]))])
    return {"input": x, "running_mean": stat(), "running_var": stat(),
            "momentum": d.pick([0.1, 0.0, 1.0, 0.5])}


def h_upsample(d):
    # output_size or scale factors (non-integer ones too: torch then samples
    # at 1 / factor, not in / out), align_corners for bilinear
    shape = [d.pick([1, 2]), d.pick([1, 3]), d.r.randint(1, 5), d.r.randint(1, 5)]
    dt = d.pick(["f32"] * 6 + ["f64", "bf16", "u8"])
    by_size = d.chance(0.5)
    size = [d.r.randint(1, 9), d.r.randint(1, 9)]
    sf = [d.pick([0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 0.75, 1.3]) for _ in range(2)]
    return {"input": d.tensor(shape, dt), "output_size": size if by_size else None,
            "scale_factors": None if by_size else sf, "align_corners": d.chance(0.4)}


def h_upsample1d(d):
    shape = [d.pick([1, 2]), d.pick([1, 3]), d.r.randint(1, 6)]
    dt = d.pick(["f32"] * 6 + ["f64", "bf16", "u8"])
    by_size = d.chance(0.5)
    sf = d.pick([0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 0.75, 1.3])
    return {"input": d.tensor(shape, dt), "output_size": [d.r.randint(1, 9)] if by_size else None,
            "scale_factors": None if by_size else [sf], "align_corners": d.chance(0.4)}


def h_upsample1d_default(d):
    a = h_upsample1d(d)
    x = a.pop("input")
    size = [d.r.randint(1, 9)]
    # scales None or the size ratio: a small one makes torch's kernel read
    # past the input (it segfaults)
    return {"self": x, "output_size": size, "align_corners": a["align_corners"],
            "scales": size[0] / x.shape[2] if d.chance(0.4) else None}


def h_upsample3d(d):
    # as h_upsample over [N, C, D, H, W], smaller dims (the result is a
    # product of three)
    shape = [d.pick([1, 2]), d.pick([1, 2]), d.r.randint(1, 3), d.r.randint(1, 3),
             d.r.randint(1, 4)]
    dt = d.pick(["f32"] * 6 + ["f64", "bf16", "u8"])
    by_size = d.chance(0.5)
    size = [d.r.randint(1, 5) for _ in range(3)]
    sf = [d.pick([0.5, 1.0, 1.5, 2.0, 2.5, 0.75, 1.3]) for _ in range(3)]
    return {"input": d.tensor(shape, dt), "output_size": size if by_size else None,
            "scale_factors": None if by_size else sf, "align_corners": d.chance(0.4)}


def h_upsample3d_default(d):
    # output_size with scales_d, scales_h, scales_w None or the size ratios
    # (as h_upsample_default: a small one makes torch's kernel read past the
    # input)
    a = h_upsample3d(d)
    x = a.pop("input")
    size = [d.r.randint(1, 5) for _ in range(3)]
    ratios = d.chance(0.4)
    a = {"self": x, "output_size": size, "align_corners": a["align_corners"]}
    for i, k in enumerate(("scales_d", "scales_h", "scales_w")):
        a[k] = size[i] / x.shape[2 + i] if ratios else None
    return a


def h_grid_sampler(d):
    # grid values in [-1.4, 1.4] (some outside the input); non-finite ones
    # only with zeros padding: with border or reflection padding torch's
    # kernel reads at the index a NaN converts to (out of bounds)
    dt = d.pick(["f32"] * 6 + ["f64", "bf16"])
    n, c = d.r.randint(1, 2), d.r.randint(1, 3)
    x = d.tensor([n, c, d.r.randint(1, 4), d.r.randint(1, 4)], dt)
    pad, mode = d.pick([0, 1, 2]), d.pick([0, 1, 2])
    gshape = [n, d.r.randint(1, 3), d.r.randint(1, 4), 2 if d.chance(0.95) else 1]
    vals = [round(d.r.uniform(-1.4, 1.4), 2) for _ in range(numel(gshape))]
    if pad == 0 and d.chance(0.2):
        vals[d.r.randrange(len(vals))] = d.pick([float("nan"), float("inf"), -1e30])
    return {"input": x, "grid": TSpec(dt, gshape, vals), "interpolation_mode": mode,
            "padding_mode": pad, "align_corners": d.chance(0.5)}


def h_grid_sampler_3d(d):
    # torch's scalar 3-d kernel: grid values in [-1.4, 1.4] (some outside the
    # input), now and then NaN, inf or -1e30 in any padding mode (zeros skips
    # the taps such a coordinate converts to; border and reflection clip it
    # to the last index); modes 0..1 mostly, bicubic (an error) rarely
    dt = d.pick(["f32"] * 6 + ["f64", "bf16"])
    n, c = d.r.randint(1, 2), d.r.randint(1, 2)
    x = d.tensor([n, c] + [d.r.randint(1, 3) for _ in range(3)], dt)
    pad, mode = d.pick([0, 1, 2]), d.pick([0, 0, 0, 1, 1, 1, 2])
    gshape = [n, d.r.randint(1, 2), d.r.randint(1, 2), d.r.randint(1, 3),
              3 if d.chance(0.95) else 2]
    vals = [round(d.r.uniform(-1.4, 1.4), 2) for _ in range(numel(gshape))]
    if d.chance(0.2):
        vals[d.r.randrange(len(vals))] = d.pick([float("nan"), float("inf"), -1e30])
    return {"input": x, "grid": TSpec(dt, gshape, vals), "interpolation_mode": mode,
            "padding_mode": pad, "align_corners": d.chance(0.5)}


def h_affine_grid(d):
    dt = d.pick(["f32"] * 6 + ["f64", "bf16", "f16"])
    n = d.r.randint(0 if d.chance(0.1) else 1, 2)
    theta = [n, 2, 3] if d.chance(0.95) else [n, 3, 3]
    size = [n, d.r.randint(1, 3), d.r.randint(0 if d.chance(0.1) else 1, 4), d.r.randint(1, 5)]
    return {"theta": d.tensor(theta, dt), "size": size if d.chance(0.95) else size[:3],
            "align_corners": d.chance(0.5)}


def fold_geometry(d):
    bad = d.chance(0.08)
    return {"kernel_size": [d.r.randint(0 if bad else 1, 3), d.r.randint(1, 3)],
            "dilation": [d.r.randint(1, 2), d.r.randint(1, 2)],
            "padding": [d.r.randint(-1 if bad else 0, 1), d.r.randint(0, 1)],
            "stride": [d.r.randint(1, 2), d.r.randint(1, 3)]}


def h_im2col(d):
    dt = d.pick(["f32"] * 6 + ["f64", "bf16", "f16", "i64"])
    lead = [d.r.randint(1, 2)] if d.chance(0.7) else []
    x = d.tensor(lead + [d.r.randint(1, 2), d.r.randint(1, 4), d.r.randint(1, 5)], dt)
    return dict({"self": x}, **fold_geometry(d))


def h_col2im(d):
    # the input's shape from the geometry (now and then off by one)
    dt = d.pick(["f32"] * 6 + ["f64", "bf16", "f16", "i64"])
    g = fold_geometry(d)
    size = [d.r.randint(1, 4), d.r.randint(1, 5)]
    blocks = [(size[i] + 2 * g["padding"][i] - g["dilation"][i] * (g["kernel_size"][i] - 1) - 1)
              // g["stride"][i] + 1 for i in range(2)]
    c = d.r.randint(1, 2) * g["kernel_size"][0] * g["kernel_size"][1]
    l = max(blocks[0], 0) * max(blocks[1], 0) + (1 if d.chance(0.05) else 0)
    lead = [d.r.randint(1, 2)] if d.chance(0.7) else []
    return dict({"self": d.tensor(lead + [c + (1 if d.chance(0.05) else 0), l], dt),
                 "output_size": size}, **g)


def h_log_sigmoid(d):
    return {"self": d.ftensor()}


def pool_input(d):
    shape = d.pick([[1, 2, 3, 4], [2, 3, 4], [1, 1, 4, 4], [1, 3, 3], [2, 2, 2, 3]])
    return d.tensor(shape, d.pick(["f32"] * 6 + ["f64", "bf16"]))


def h_avg_pool(d):
    return {"self": pool_input(d), "kernel_size": [d.r.randint(1, 3), d.r.randint(1, 3)],
            "stride": d.pick([[], [1, 1], [2, 2], [1, 2]]),
            "padding": d.pick([[0, 0], [1, 1], [0, 1]]), "ceil_mode": d.chance(0.3),
            "count_include_pad": d.chance(0.7), "divisor_override": d.pick([None, None, 1, 3])}


def h_max_pool(d):
    return {"self": pool_input(d), "kernel_size": [d.r.randint(1, 3), d.r.randint(1, 3)],
            "stride": d.pick([[], [1, 1], [2, 2], [1, 2]]),
            "padding": d.pick([[0, 0], [1, 1], [0, 1]]), "dilation": d.pick([[1, 1], [1, 2]]),
            "ceil_mode": d.chance(0.3)}


def h_adaptive(d):
    return {"self": pool_input(d), "output_size": [d.r.randint(1, 3), d.r.randint(1, 4)]}


def pool3d_input(d):
    # [C, D, H, W] or [N, C, D, H, W]; torch's 3-d pools: f32, f64 (and
    # int64 for avg_pool3d, f16 for adaptive_avg_pool3d); the rest errors
    shape = d.pick([[1, 2, 3, 4, 3], [2, 3, 4, 3], [1, 1, 4, 4, 4], [2, 1, 2, 3, 5],
                    [1, 2, 1, 3, 3]])
    return d.tensor(shape, d.pick(["f32"] * 6 + ["f64", "i64", "f16", "bf16"]))


def h_pool3d(d, is_max):
    a = {"self": pool3d_input(d), "kernel_size": [d.r.randint(1, 2) for _ in range(3)],
         "stride": d.pick([[], [1, 1, 1], [2, 2, 2], [1, 2, 1], [2]]),
         "padding": d.pick([[0, 0, 0], [1, 1, 1], [0, 1, 0], [1]]), "ceil_mode": d.chance(0.3)}
    if is_max:
        a["dilation"] = d.pick([[1, 1, 1], [1, 2, 1], [2]])
    else:
        a["count_include_pad"] = d.chance(0.7)
        a["divisor_override"] = d.pick([None, None, 1, 3])
    return a


def h_adaptive3d(d):
    return {"self": pool3d_input(d),
            "output_size": [d.r.randint(1, 3), d.r.randint(1, 4), d.r.randint(1, 3)]}


def h_fractional(d, sp):
    # self [(N,) C, spatial...]; kernel and output sizes that fit (now and
    # then not: torch's check; a 3-d pool needs output + kernel - 1 below
    # the input's size, a 2-d one at most it); samples in [0, 1), N C sp of
    # them, contiguous (torch reads their storage flat, whatever the
    # strides), of self's dtype but now and then not
    lead = d.pick([[2, 2], [1, 3], [2], [1, 1]])
    insp = [d.r.randint(1, 4) for _ in range(sp)]
    strict = 1 if sp == 3 else 0
    k = [d.r.randint(1, max(1, n - strict)) for n in insp]
    if d.chance(0.05):
        k[d.r.randrange(sp)] = d.pick([0, 5])
    o = [d.r.randint(0 if d.chance(0.05) else 1, max(1, n - kk + 1 - strict))
         for n, kk in zip(insp, k)]
    dt = d.pick(["f32"] * 6 + ["f64", "f64", "f16", "i64"])
    x = d.tensor(lead + insp, dt)
    planes = numel(lead)
    sdt = dt if d.chance(0.95) else d.pick(["f32", "f64"])
    vals = [round(d.r.uniform(0, 0.999), 3) for _ in range(planes * sp)]
    return {"self": x, "kernel_size": k, "output_size": o,
            "random_samples": TSpec(sdt, [1 if len(lead) == 1 else lead[0], lead[-1], sp], vals)}


def h_ctc_loss(d, tensors):
    # log_probs [T, B, C] (f32 / f64, now and then f16: torch's error),
    # blank in range, lengths of at least 1 and 0 (input lengths up to T),
    # targets in [0, C) padded [B, S] or (the .default overload) 1-d
    # concatenated, i64 or i32; the .Tensor overload's lengths as tensors
    # and its targets padded to the longest (airc sizes log_alpha by it)
    T, B, C = d.r.randint(1, 5), d.r.randint(1, 3), d.r.randint(2, 5)
    lp = d.tensor([T, B, C], d.pick(["f32"] * 6 + ["f64", "f64", "f16"]))
    il = [d.r.randint(1, T) for _ in range(B)]
    tl = [d.r.randint(0, 3) for _ in range(B)]
    S = max(tl)
    tdt = d.pick(["i64", "i64", "i32"])
    if not tensors and d.chance(0.4):
        tg = d.tensor([sum(tl)], tdt, lo=0, hi=C - 1)
    else:
        tg = d.tensor([B, S + (0 if tensors else d.pick([0, 0, 1]))], tdt, lo=0, hi=C - 1)
    a = {"log_probs": lp, "targets": tg, "blank": d.r.randint(0, C - 1),
         "zero_infinity": d.chance(0.5)}
    if tensors:
        a["input_lengths"] = TSpec(d.pick(["i64", "i32"]), [B], il)
        a["target_lengths"] = TSpec(d.pick(["i64", "i32"]), [B], tl)
    else:
        a["input_lengths"], a["target_lengths"] = il, tl
    return a


def h_embedding_renorm(d):
    # self [N, D] (floating mostly; an integer one errors where indices
    # name a row), indices in [-N, N) (negatives count from the end, as
    # torch's select; now and then one out of range: torch's data check),
    # max_norm and norm_type (2 mostly; 1, 3, inf, -inf, 0, 0.5) drawn
    n, dim = d.r.randint(1, 5), d.r.randint(0 if d.chance(0.05) else 1, 4)
    x = d.tensor([n, dim], d.pick(["f32"] * 6 + ["f64", "f16", "bf16", "i64"]))
    k = d.r.randint(0, 4)
    shape = d.pick([[k], [k], [2, k], []])
    hi = n if d.chance(0.05) else n - 1
    idx = d.tensor(shape, d.pick(["i64", "i64", "i32"] + (["f32"] if d.chance(0.1) else [])),
                   lo=-n, hi=hi)
    return {"self": x, "indices": idx,
            "max_norm": d.pick([0.5, 1.0, 2.0, 1e-3, 0.0, -1.0, 3.0]),
            "norm_type": d.pick([2.0, 2.0, 2.0, 1.0, 3.0, float("inf"), float("-inf"), 0.0,
                                 0.5])}


def h_max_unpool(d, sp):
    # self [(N,) C, spatial...] and int64 indices of its shape into planes
    # of output_size (now and then one past the end: torch's data check)
    lead = d.pick([[2, 3], [1, 2], [3]])
    insp = [d.r.randint(1, 3) for _ in range(sp)]
    size = [d.pick([0, 1, 2, 3, 4]) if d.chance(0.05) else d.r.randint(1, 4) for _ in range(sp)]
    plane = numel(size)
    hi = plane - 1 if d.chance(0.95) else plane
    a = {"self": d.tensor(lead + insp, d.pick(["f32"] * 6 + ["f64", "i64"])),
         "indices": d.tensor(lead + insp, "i64" if d.chance(0.95) else "i32", lo=0,
                             hi=max(hi, 0)),
         "output_size": size}
    if sp == 3:
        a["stride"] = d.pick([[1, 1, 1], [2, 2, 2], [1, 2, 1]])
        a["padding"] = d.pick([[0, 0, 0], [1, 0, 1]])
    return a


def h_weight_norm(d):
    # v of 1 to 4 dims, normed over dim 0 or its last (torch's fused
    # kernel's two), g one value per slice: keepdims-shaped as weight_norm
    # makes it, or flat
    shape = [d.r.randint(1, 4) for _ in range(d.pick([1, 2, 2, 3, 4]))]
    dt = d.pick(["f32"] * 5 + ["f64", "bf16", "f16"])
    dim = d.pick([0, 0, len(shape) - 1] + ([1] if len(shape) > 2 and d.chance(0.1) else []))
    m = shape[dim]
    gshape = d.pick([[m if i == dim else 1 for i in range(len(shape))], [m]])
    gdt = dt if d.chance(0.95) else d.pick(["f32", "f64"])
    return {"v": d.tensor(shape, dt), "g": d.tensor(gshape, gdt), "dim": dim}


def h_soft_margin(d):
    # target of +-1 (or any value) broadcast to self's shape, now and then
    # of another dtype
    x = d.tensor(d.rand_shape(), d.pick(["f32"] * 5 + ["f64", "bf16", "f16"]))
    tshape = x.shape[d.r.randint(0, len(x.shape)):] if d.chance(0.3) else list(x.shape)
    t = d.tensor(tshape, d.pick([x.dtype] * 4 + ["f64", "i64"]), lo=-1, hi=1)
    return {"self": x, "target": t, "reduction": d.pick([0, 1, 2])}


def h_pdist(d):
    # rows of a contiguous 2-d self (now and then another layout: refused),
    # torch's p = 0, 1, 2, inf fast paths, any other p, negative too
    shape = [d.r.randint(0, 6), d.r.randint(0, 5)]
    return {"self": d.tensor(shape, d.pick(["f32"] * 5 + ["f64", "bf16"]),
                             layout="c" if d.chance(0.9) else None),
            "p": d.pick([0.0, 1.0, 2.0, 2.0, float("inf"), 3.5, 0.5, 1.5, -1.0])}


def h_embedding_bag(d):
    # a weight (now and then strided: torch's slow path), indices into it
    # (now and then one past it), offsets from 0 up to the indices' count
    # (include_last_offset: ending there; now and then a first one of 1),
    # the three modes, padding_idx none or a row, per-sample weights for sum
    rows, dim, n = d.r.randint(1, 5), d.r.randint(0, 4), d.r.randint(0, 7)
    w = d.tensor([rows, dim], d.pick(["f32"] * 4 + ["f64", "f16"]))
    idx = d.tensor([n], d.pick(["i64", "i64", "i32"]), lo=0,
                   hi=rows - 1 if d.chance(0.95) else rows)
    nbags = d.r.randint(0, 4)
    offs = sorted([0] + [d.r.randint(0, n) for _ in range(nbags - 1)]) if nbags else []
    last = d.chance(0.3)
    if last:
        offs.append(n)
    if offs and d.chance(0.05):
        offs[0] = 1
    mode = d.pick([0, 0, 1, 2])
    return {"weight": w, "indices": idx,
            "offsets": TSpec(d.pick(["i64", "i64", "i32"]), [len(offs)], offs),
            "scale_grad_by_freq": False, "mode": mode, "sparse": False,
            "per_sample_weights": d.tensor([n], w.dtype) if mode == 0 and d.chance(0.4) else None,
            "include_last_offset": last,
            "padding_idx": d.pick([-1, -1, -3, d.r.randint(0, rows - 1), rows])}


def h_trilinear(d):
    # nn.Bilinear's call (x1 [B, n], weight [o, n, m], x2 [B, m]), a triple
    # dot, an outer product, and a batch whose third operand broadcasts
    # over the summed dim; now and then one size set to 1
    r = lambda: d.r.randint(1, 4)
    B, n, m, o = r(), r(), r(), r()
    form = d.pick(["bilinear", "bilinear", "dot", "outer", "batch"])
    shapes, lists = {
        "bilinear": ([[B, n], [o, n, m], [B, m]], [[1, 3], [0], [1, 2], [2, 3]]),
        "dot": ([[n], [n], [n]], [[], [], [], [0]]),
        "outer": ([[B], [n], [m]], [[1, 2], [0, 2], [0, 1], []]),
        "batch": ([[B, n], [B, n], [B, 1]], [[], [], [], [1]]),
    }[form]
    if d.chance(0.2):
        s = d.pick(shapes)
        s[d.r.randrange(len(s))] = 1
    dt = d.pick(["f32", "f32", "f64", "bf16", "i64", "i32"] + (["f16", "b8"] if not lists[3] else []))
    total = len(shapes[0]) + len(lists[0])
    a = {"i1": d.tensor(shapes[0], dt), "i2": d.tensor(shapes[1], dt),
         "i3": d.tensor(shapes[2], dt), "expand1": lists[0], "expand2": lists[1],
         "expand3": lists[2], "sumdim": lists[3], "unroll_dim": d.r.randrange(total)}
    return a


def h_isin(d):
    # elements and test elements over a few small values (matches likely),
    # now and then of two dtypes (promotion decides the comparison), NaN,
    # -0.0 and 0.0 among floats; a long test list takes torch's sort path
    ed = d.pick(["i64", "i64", "f32", "f64", "i32", "u8", "i8", "f16"])
    td = ed if d.chance(0.7) else d.pick(["i64", "f32", "f64", "i32"])
    vals = lambda dt, n: [d.pick([0, 1, 2, 3, -1]) if dt[0] in "iu" else
                          d.pick([0.0, -0.0, 1.0, 2.5, -1.0, float("nan"), 3.0])
                          for _ in range(n)]
    vals_u = lambda dt, n: [abs(v) for v in vals(dt, n)] if dt == "u8" else vals(dt, n)
    es = d.rand_shape()
    tn = d.pick([0, 1, 2, 3, 5, 12, 40])
    return {"elements": TSpec(ed, es, vals_u(ed, numel(es))),
            "test_elements": TSpec(td, [tn], vals_u(td, tn)),
            "assume_unique": d.chance(0.2), "invert": d.chance(0.3)}


def h_isin_scalar(d):
    a = h_isin(d)
    a["test_element"] = d.pick([0, 1, 2, -1, 2.5, 1.0, 258, True])
    del a["test_elements"]
    return a


def h_isin_scalar_tensor(d):
    a = h_isin(d)
    a["element"] = d.pick([0, 1, 2, -1, 2.5, 1.0, True])
    del a["elements"]
    return a


def h_vector_norm(d):
    # a floating self (now and then an empty dim: inf and negative orders
    # refuse it), torch's special orders and others, dims None, one or a
    # list, dtype None or a type self may widen to (now and then a narrower
    # or integer one: refused)
    shape = d.rand_shape(ndims=(0, 1, 2, 3), weights=(1, 2, 4, 3), lo=0 if d.chance(0.15) else 1)
    x = d.tensor(shape, d.pick(["f32"] * 4 + ["f64", "bf16", "f16"]))
    dims = None
    if shape and d.chance(0.7):
        dims = sorted(d.r.sample(range(-len(shape), 0), d.r.randint(1, len(shape))))
        if d.chance(0.4):
            dims = dims[0]
    args = {"self": x, "ord": d.pick([2, 2.0, 1, 0, 3.5, 0.5, -1, -2.5, float("inf"),
                                      -float("inf"), True]),
            "dim": dims, "keepdim": d.chance(0.3)}
    if d.chance(0.3):
        args["dtype"] = d.pick([torch.float32, torch.float64, torch.float64, torch.float16,
                                torch.bfloat16, torch.int64])
    return args


def h_histc(d):
    # a given range (around the values, or off them) or min == max (the
    # data's range), bins from 1 up
    lo = d.pick([-2.0, -1.0, 0.0, 0.5])
    hi = d.pick([lo, lo + 0.5, lo + 1.0, lo + 3.0, 4.0])
    return {"self": d.tensor(d.rand_shape(), d.pick(["f32"] * 5 + ["f64", "bf16", "f16"])),
            "bins": d.pick([1, 2, 3, 5, 7, 10]), "min": lo, "max": hi}


def few_values(d, t):
    """t's values replaced by a few repeated ones (ties to break); no NaN"""
    if t.dtype in FLOATS:
        t.values = [d.pick([0.0, 1.0, -1.0, 2.5, 0.5, 3.0]) for _ in t.values]
    elif t.dtype != "b8":
        t.values = [d.r.randint(0 if t.dtype == "u8" else -2, 2) for _ in t.values]
    return t


def h_mode(d):
    # lines of a few repeated values (ties: torch's choice among the most
    # frequent and their indices), every dtype
    x = few_values(d, d.tensor(shape=d.rand_shape(hi=5)))
    return {"self": x, "dim": d.dim(nd_of(x)), "keepdim": d.chance(0.3)}


def h_renorm(d):
    # 2 or 3 dims (now and then fewer), norms of special orders and others,
    # maxnorm below and above the slices' norms
    x = d.ftensor(shape=d.rand_shape(ndims=(1, 2, 3), weights=(1, 6, 4)))
    return {"self": x, "p": d.pick([1, 2, 2, 3, 0.5, 2.5, float("inf"), 0, -1, 1e308, 1e-308]),
            "dim": d.dim(nd_of(x)), "maxnorm": d.pick([0.0, 0.5, 1.0, 2.0, 5.0, -1.0])}


def h_index_reduce(d):
    # index_copy's slices (an int32 index too), each reduction with and
    # without self
    a = h_index_copy(d)
    if d.chance(0.3):
        i = a["index"]
        a["index"] = TSpec("i32", i.shape, i.values)
    a["reduce"] = d.pick(["prod", "mean", "amax", "amin"] * 4 + ["sum"])
    a["include_self"] = d.chance(0.5)
    return a


def h_put(d):
    # flat indices of self's elements (negatives from the end, repeats),
    # now and then one out of range; as many source elements
    x = d.tensor()
    n = numel(x.shape)
    lo, hi = (-n, n - 1) if d.chance(0.95) else (-n - 1, n)
    ishape = d.rand_shape(ndims=(0, 1, 2), weights=(1, 4, 2), hi=3) if n or d.chance(0.3) else [0]
    idx = d.tensor(shape=ishape, dtype="i64" if d.chance(0.95) else "i32",
                   lo=min(lo, hi), hi=max(hi, lo), layout="c")
    sshape = [numel(ishape)] if d.chance(0.7) else ishape
    if d.chance(0.05):
        sshape = [numel(ishape) + 1]
    src = d.tensor(shape=sshape, dtype=x.dtype if d.chance(0.95) else None)
    return {"self": x, "index": idx, "source": src, "accumulate": d.chance(0.5)}


def h_block_diag(d):
    # up to four 0-d, 1-d and 2-d blocks (empty ones too) of mixed dtypes,
    # now and then a 3-d one
    ts = []
    for _ in range(d.pick([0, 1, 2, 2, 3, 3, 4])):
        shape = d.rand_shape(ndims=(0, 1, 2, 3), weights=(2, 3, 5, 0 if d.chance(0.95) else 5),
                             lo=0 if d.chance(0.2) else 1, hi=3)
        ts.append(d.tensor(shape=shape, dtype=d.dtype if d.dtype and d.chance(0.6) else None))
    return {"tensors": ts}


def h_mvlgamma(d):
    # p of 1 to 4; self mostly above (p - 1) / 2 (torch 1.13 checks no
    # domain), now and then an integer self
    x = d.tensor(dtype=d.pick(["f32"] * 5 + ["f64", "bf16", "f16", "i64", "i32", "b8"]))
    if x.dtype in FLOATS and d.chance(0.7):
        positive_values(x, 2.0)
    return {"self": x, "p": d.pick([1, 2, 3, 4, 4, 0])}


def h_histogram(d, tensor_bins):
    # f32 / f64 (now and then another dtype), a range around the values or
    # off them (min == max too), weights, density
    x = d.tensor(shape=d.rand_shape(),
                 dtype=d.pick(["f32"] * 5 + ["f64", "f64", "bf16", "bf16", "f16", "i64"]))
    a = {"self": x}
    if tensor_bins:
        n = d.pick([1, 2, 3, 4, 5, 6])
        dt = x.dtype if d.chance(0.95) else d.pick(["f32", "f64"])
        a["bins"] = TSpec(dt, [n], sorted(d.values(dt, n, -4, 4)) if dt not in FLOATS else
                          sorted(v / 2 for v in d.values("i64", n, -6, 6)))
    else:
        a["bins"] = d.pick([1, 2, 3, 5, 7, 10] * 3 + [0])
        if d.chance(0.6):
            lo = d.pick([-2.0, -1.0, 0.0, 0.5])
            a["range"] = [lo, d.pick([lo, lo + 0.5, lo + 1.0, lo + 3.0, 4.0])]
            if d.chance(0.05):
                a["range"] = d.pick([[1.0, 0.0], [0.0, float("inf")], [0.0, 1.0, 2.0]])
    if d.chance(0.4):
        w = d.tensor(shape=x.shape if d.chance(0.7) else [numel(x.shape)],
                     dtype=x.dtype if d.chance(0.95) else None)
        a["weight"] = w
    a["density"] = d.chance(0.4)
    return a


def h_histogramdd(d, kind):
    # what torch.histogramdd records: self [..., N] of N in 1..3 (not 0:
    # histogramdd_zero_dims), f32 mostly (f64, bf16; ints take only bin_edges with a
    # range); bin counts (0, -1, -2 now and then; a list of another
    # length), ranges around the values or off them (min == max too),
    # sorted edge tensors, weights, density
    n = d.pick([1, 2, 2, 3, 3])
    lead = d.pick([[4], [6], [2, 3], [1], [5], [3], [0], []])
    if numel(lead) * n > MAX_NUMEL:
        lead = [3]
    dt = d.pick(["f32"] * 6 + ["f64", "f64", "bf16", "i64"])
    x = d.tensor(shape=lead + [n], dtype=dt)
    a = {"self": x}
    if kind == "tensors":
        bins = []
        for _ in range(n if d.chance(0.95) else n + 1):
            k = d.pick([2, 2, 3, 3, 4, 5, 1])
            edt = dt if d.chance(0.95) else d.pick(["f32", "f64"])
            bins.append(TSpec(edt, [k], sorted(d.values(edt, k, -4, 4)) if edt not in FLOATS
                              else sorted(v / 2 for v in d.values("i64", k, -6, 6))))
        a["bins"] = bins
    else:
        a["bins"] = [d.pick([1, 2, 3, 4] * 4 + [0, -1, -2]) for _ in range(n)]
        if d.chance(0.04):
            a["bins"].append(2)
        if d.chance(0.6):
            rng = []
            for _ in range(n):
                lo = d.pick([-2.0, -1.0, 0.0, 0.5])
                rng += [lo, d.pick([lo, lo + 0.5, lo + 1.0, lo + 3.0, 4.0])]
            if d.chance(0.06):
                rng = d.pick([rng[:-1], rng[::-1], [0.0, float("inf")] * n])
            a["range"] = rng
        else:
            a["range"] = None
    a["weight"] = None
    if d.chance(0.4):
        a["weight"] = d.tensor(shape=lead if d.chance(0.9) else [numel(lead) + 1],
                               dtype=dt if d.chance(0.95) else None)
    a["density"] = d.chance(0.4)
    return a


def fq_values(d, x, scale):
    """x's values around the quantization grid of scale: ties at .5 steps
    (exact for a power-of-two scale), values past the range, NaN, ±inf"""
    if x.dtype not in FLOATS:
        return
    ks = [d.r.randint(-12, 12) for _ in x.values]
    x.values = [d.pick([(k + 0.5) * scale, k * scale, round(d.r.gauss(0, 2), 3), 300.0 * scale,
                        -300.0 * scale, v])
                for k, v in zip(ks, x.values)]


def fq_int(v, dt):
    """v as an int of integer dtype dt (0 for NaN and ±inf; clipped)"""
    if dt == "b8":
        return bool(v)
    if not math.isfinite(v):
        return 0
    lim = 2**31 - 1 if dt == "i32" else 2**62
    return max(-lim, min(lim, int(v)))


def h_fake_quantize(d, kind):
    # f32 mostly (f64, f16; bf16 and ints refused as torch); power-of-two
    # scales so the ties at .5 are exact, some others; quant ranges of the
    # usual dtypes and degenerate ones (quant_min == quant_max, a range
    # without 0); zero points in range, now and then outside; per-channel
    # along axis 0 and the last, int32 or float (f16) zero points
    x = d.tensor(shape=d.rand_shape(ndims=(0, 1, 2, 3), weights=(1, 3, 4, 3)),
                 dtype=d.pick(["f32"] * 8 + ["f64", "f64", "f16", "f16", "bf16", "i64"]))
    scale = d.pick([0.25, 0.5, 1.0, 0.125, 2.0, 0.1, 0.05, 0.3])
    qmin, qmax = d.pick([(-128, 127), (0, 255), (-8, 7), (0, 15), (-2, 2), (3, 3), (0, 0),
                         (2, 9), (-9, -3)] * 4 + [(5, -5), (-2**40, 2**40)])
    fq_values(d, x, scale)
    zp = d.r.randint(qmin, qmax) if qmin <= qmax and qmax - qmin < 10**6 else d.pick([0, 1, -1])
    if d.chance(0.05):
        zp = qmax + 1
    a = {"self": x, "quant_min": qmin, "quant_max": qmax}
    if kind == "per_tensor":
        if d.chance(0.05):
            scale = d.pick([0.0, -0.5, 1e-30, 1e300, float("inf"), float("nan")])
        a.update(scale=scale, zero_point=zp)
        return a
    if kind in ("tensor_qparams", "learnable_per_tensor"):
        sh = [1] if d.chance(0.9) else d.pick([[], [2], [0], [1, 1]])
        sdt = "f32" if d.chance(0.9) else d.pick(["f64", "f16", "i64"])
        if d.chance(0.04):
            scale = d.pick([0.0, 1e300, float("inf")])
        a["scale"] = TSpec(sdt, sh, [scale] * numel(sh) if sdt in FLOATS else
                           [max(1, int(min(scale, 1e6)))] * numel(sh))
        if kind == "learnable_per_tensor":
            zv = zp + d.pick([0.0, 0.0, 0.5, -0.5, 0.3, 0.7])
            if d.chance(0.05):
                zv = d.pick([float("nan"), float("inf"), 1e20, qmax + 3.0])
            zdt = "f32" if d.chance(0.9) else d.pick(["f64", "i64"])
        else:
            zv = zp if d.chance(0.8) else zp + d.pick([0.7, -0.7, 2.5, 1e20, float("nan")])
            zdt = d.pick(["i64", "i32", "f32"]) if isinstance(zv, int) else "f32"
        zsh = [1] if d.chance(0.9) else d.pick([[], [2], [0]])
        if zdt not in FLOATS:
            zv = fq_int(zv, zdt)
        a["zero_point"] = TSpec(zdt, zsh, [zv] * numel(zsh))
        if kind == "tensor_qparams":
            on = d.pick([1, 1, 1, 0, 2])
            edt = d.pick(["i64"] * 4 + ["f32", "i32"])
            esh = [1] if d.chance(0.95) else [2]
            a["fake_quant_enabled"] = TSpec(edt, esh, [on] * numel(esh))
        else:
            a["grad_factor"] = d.pick([1.0, 0.5])
        return a
    # per-channel
    nd = len(x.shape)
    axis = d.pick([0, nd - 1] * 4 + [max(nd - 2, 0), -1, nd]) if nd else 0
    c = x.shape[axis] if 0 <= axis < nd else d.r.randint(1, 3)
    if d.chance(0.05):
        c += 1
    scales = [d.pick([0.25, 0.5, 1.0, 0.125, 0.1, scale]) for _ in range(c)]
    sdt = "f32" if d.chance(0.95) else "f64"
    zs = [d.r.randint(qmin, qmax) if qmin <= qmax and qmax - qmin < 10**6 else 0
          for _ in range(c)]
    if kind == "learnable_per_channel":
        zdt = "f32" if d.chance(0.85) else d.pick(["f64", "i64", "f16", "b8"])
        zvals = [z + d.pick([0.0, 0.5, -0.5, 0.3, 2.5, -7.0]) for z in zs]
        if zvals and d.chance(0.05):
            zvals[0] = d.pick([float("nan"), 1e20])
        a["grad_factor"] = d.pick([1.0, 0.5])
    else:
        zdt = "i32" if d.chance(0.6) else d.pick(["f32", "f32", "f16", "i64", "f64"])
        zvals = [z + (d.pick([0.0, 0.5, 0.3, -1.25]) if zdt in FLOATS else 0) for z in zs]
        if zvals and d.chance(0.05):
            zvals[0] = qmax + 1
    if zdt not in FLOATS:
        zvals = [fq_int(v, zdt) for v in zvals]
    a.update(scale=TSpec(sdt, [c], scales), zero_point=TSpec(zdt, [c], zvals), axis=axis)
    return a


def h_rrelu(d):
    # evaluation mode (training=True draws random slopes: airc refuses it)
    x = d.tensor(dtype=d.pick(["f32"] * 5 + ["f64", "bf16", "f16", "i64"]))
    return {"self": x, "noise": d.tensor(shape=x.shape, dtype=x.dtype),
            "lower": d.pick([0.125, 0.0, 0.1, 0.3, 1.0]),
            "upper": d.pick([1.0 / 3, 0.3, 0.5, 0.1]), "training": False, "generator": None}


def h_segment_reduce(d):
    # lengths (or offsets) along an axis that sum to its size (empty
    # segments too), each reduction, an initial now and then; lengths'
    # leading dims data's (torch reads them unchecked)
    x = d.tensor(shape=d.rand_shape(ndims=(1, 2, 3), weights=(3, 4, 2)),
                 dtype=d.pick(["f32"] * 5 + ["f64", "f16", "bf16", "i64"]))
    nd = nd_of(x)
    ax = d.r.randint(0, nd - 1)
    size = x.shape[ax]
    rows = []
    count = d.pick([1, 2, 3])
    for _ in range(numel(x.shape[:ax])):
        cuts = sorted(d.r.randint(0, size) for _ in range(count - 1))
        bounds = [0] + cuts + [size]
        rows.append([b - a for a, b in zip(bounds, bounds[1:])])
    lead = x.shape[:ax]
    a = {"data": x, "reduce": d.pick(["sum", "mean", "max", "min", "prod"] * 4 + ["any"]),
         "axis": ax if d.chance(0.7) else ax - nd, "unsafe": False,
         "initial": d.pick([None, None, None, 2, -1.5, 0.0]), "indices": None,
         "lengths": None, "offsets": None}
    if d.chance(0.7):
        vals = [v for r in rows for v in r]
        if d.chance(0.05) and vals:
            vals[0] += 1  # not summing to the size: torch's data check
        a["lengths"] = TSpec(d.pick(["i64", "i64", "i32"]), lead + [count], vals)
    else:
        vals = [v for r in rows for v in [0] + [sum(r[:i + 1]) for i in range(count)]]
        a["offsets"] = TSpec(d.pick(["i64", "i64", "i32"]), lead + [count + 1], vals)
    return a


def h_upsample_aa(d):
    # antialias: down- and upsampling (the filter widens by the downsampling
    # factor), output_size or scale factors, align_corners both ways
    shape = [1, d.pick([1, 2]), d.r.randint(1, 7), d.r.randint(1, 7)]
    dt = d.pick(["f32"] * 6 + ["f64", "bf16", "u8"])
    by_size = d.chance(0.5)
    size = [d.r.randint(1, 9), d.r.randint(1, 9)]
    sf = [d.pick([0.3, 0.5, 0.75, 1.0, 1.3, 1.5, 2.0, 0.45]) for _ in range(2)]
    return {"input": d.tensor(shape, dt), "output_size": size if by_size else None,
            "scale_factors": None if by_size else sf, "align_corners": d.chance(0.4)}


def upsample_default(d, a):
    # the 2-d .default overload of drawn .vec arguments a: output_size,
    # scales_h / scales_w None or the size ratios, as torch 2's
    # decompositions pass them (other scales make torch's antialias
    # kernels read outside the input)
    x = a.pop("input")
    size = [d.r.randint(1, 9), d.r.randint(1, 9)]
    a = {"self": x, "output_size": size, "align_corners": a["align_corners"]}
    if d.chance(0.4):
        a["scales_h"] = size[0] / x.shape[2]
        a["scales_w"] = size[1] / x.shape[3]
    return a


def h_upsample_default(d):
    return upsample_default(d, h_upsample(d))


def h_upsample_aa_default(d):
    return upsample_default(d, h_upsample_aa(d))


def h_layer_norm(d):
    x = d.tensor(shape=d.rand_shape(ndims=(1, 2, 3), weights=(2, 4, 3)),
                 dtype=d.pick(["f32"] * 6 + ["f64", "bf16"]))
    k = d.r.randint(1, nd_of(x))
    ns = x.shape[nd_of(x) - k:]
    return {"input": x, "normalized_shape": ns,
            "weight": d.pick([None, d.tensor(ns, x.dtype)]),
            "bias": d.pick([None, d.tensor(ns, x.dtype)]), "eps": d.pick([1e-5, 1e-5, 0.1])}


def h_repeat(d):
    x = d.tensor()
    n = nd_of(x) + d.pick([0, 0, 1, 2])
    return {"self": x, "repeats": [d.pick([1, 1, 2, 3, 0]) for _ in range(n)]}


def h_flip(d):
    x = d.tensor()
    return {"self": x, "dims": d.dims(nd_of(x))}


def h_sort(d):
    x = d.tensor()
    return {"self": x, "dim": d.dim(nd_of(x)), "descending": d.chance(0.5)}


def h_sort_stable(d):
    return dict(h_sort(d), stable=d.pick([None, True, False]))


def h_argsort_stable(d):
    return dict(h_sort(d), stable=d.chance(0.7))


def h_topk(d):
    x = d.tensor()
    dim = d.dim(nd_of(x))
    n = x.shape[dim] if x.shape and -nd_of(x) <= dim < nd_of(x) else 1
    k = d.pick([0, 1, n, n, max(n - 1, 0), d.r.randint(0, n), n + 1, -1])
    return {"self": x, "k": k, "dim": dim, "largest": d.chance(0.6), "sorted": d.chance(0.8)}


def h_pick(d, kth=False):
    x = d.tensor(shape=d.rand_shape(hi=5))
    nd = nd_of(x)
    dim = d.dim(nd)
    a = {"self": x, "dim": dim, "keepdim": d.chance(0.3)}
    if kth:
        n = x.shape[dim] if x.shape and -nd <= dim < nd else 1
        a["k"] = d.pick([1, n, max(n // 2, 1), d.r.randint(1, max(n, 1))] * 4 + [0, n + 1])
    return a


def h_polygamma(d):
    """polygamma's order n in 0..4 (torch's digamma, trigamma, then zeta)"""
    return {"n": d.r.randint(0, 4)}


def positive_values(t, scale=3.0):
    """t's values made non-negative (the domain of igamma and ndtri's
    scaled form); NaN and inf kept"""
    t.values = [abs(v) * scale if isinstance(v, float) else v for v in t.values]
    return t


def h_igamma(d):
    """igamma / igammac: a and x mostly in the functions' domain (>= 0)"""
    return {"self": positive_values(d.ftensor()), "other": positive_values(d.tensor())}


def h_zeta(d):
    """special_zeta(x, q): x mostly above 1 (below, Cephes' domain gives NaN), q of both
    signs (the non-positive integers are its poles)"""
    x = d.tensor()
    if x.dtype in FLOATS:
        x.values = [1 + abs(v) * 2 if isinstance(v, float) and d.chance(0.85) else v
                    for v in x.values]
    return {"self": x}


def h_ndtri(d):
    """ndtri: probabilities in [0, 1] mostly, with the tails 1e-k"""
    t = d.ftensor()
    t.values = [d.pick([d.r.random(), d.r.random(), 10 ** -d.r.uniform(1, 40), 1 - d.r.random() *
                        1e-3, 0.0, 1.0, v]) for v in t.values]
    return {"self": t}



def h_bessel(d):
    """torch.special's Bessel functions: x over each approximation's ranges (the switches
    at 2, 5, 8 and airy_ai's +-2.09 and 8.32), both signs"""
    x = d.tensor()
    if x.dtype in FLOATS:
        scale = d.pick([1.0, 1.0, 3.0, 8.0, 30.0])
        x.values = [v * scale if isinstance(v, float) else v for v in x.values]
    return {"x": x, "self": x}


# the degrees drawn: below 0, each recurrence's first steps, past the closed forms'
# switches (n > 4, 6, 8), up to 100 (torch runs n steps: no longer ones), a fraction
# (truncated), and NaN / inf / 1e30 (torch's int64 cast gives INT64_MIN: 0)
POLY_N = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 20, 50, 100, -1, -3]
POLY_N_ODD = [2.5, 7.9, -0.5, float("nan"), float("inf"), float("-inf"), 1e30]
# x drawn at the edges: +-1 and 0 (the shifted ones' ends), 1/2, and past [-1, 1]
POLY_X = [1.0, -1.0, 0.0, 0.5, -0.5, 0.25, 0.75, 1.5, -2.0, 3.0]


def poly_x_tensor(d):
    x = d.tensor()
    if x.dtype in FLOATS:
        x.values = [d.pick(POLY_X) if d.chance(0.3) else v for v in x.values]
    return x


def poly_n_tensor(d):
    dtype = d.pick(["f32", "f32", "f64", "i64", "i32", "u8", "f16"])
    n = d.tensor(dtype=dtype, shape=d.bcast_shape())
    ints = [v for v in POLY_N if dtype != "u8" or v >= 0]
    n.values = [d.pick(ints) if dtype not in FLOATS or d.chance(0.9) else d.pick(POLY_N_ODD)
                for _ in n.values]
    return n


def h_poly(d):
    """orthogonal polynomials (Tensor x, Tensor n)"""
    return {"x": poly_x_tensor(d), "n": poly_n_tensor(d)}


def h_poly_x_scalar(d):
    """orthogonal polynomials (Scalar x, Tensor n)"""
    return {"x": d.pick(POLY_X + [0.3, -0.9, 2, True]), "n": poly_n_tensor(d)}


def h_poly_n_scalar(d):
    """orthogonal polynomials (Tensor x, Scalar n): the lowering unrolls n steps"""
    return {"x": poly_x_tensor(d), "n": d.pick(POLY_N + [2.5, True, 30])}


def h_int_pair(d):
    """gcd / lcm: integer operands (their only dtypes)"""
    dt = d.pick(["i64", "i64", "i32", "i16", "i8", "u8"])
    return {"self": d.tensor(dtype=dt), "other": d.tensor(dtype=d.pick([dt, dt, "i64", "u8"]))}


SHIFT_COUNTS = [0, 1, 3, 7, 8, 9, 15, 16, 31, 32, 33, 63, 64, 65, -1, -3, -64, 300, 2**40 + 1]


def h_shift(d, kind):
    """__lshift__ / __rshift__ / bitwise_*_shift (kind "tt", "ts", "st": which operand is a
    number): integer operands (now and then bool or float, which torch refuses), counts past
    the width and negative (torch 1.13 shifts by the count mod 32, mod 64 for int64)"""
    dt = d.pick(["i64", "i64", "i32", "i16", "i8", "u8", "u8", "b8", "f32"])
    a = {}
    if kind == "st":
        a["self"] = d.pick([1, -1, 5, -300, 2**40 + 3, 2**62, True])
    else:
        a["self"] = d.tensor(dtype=dt)
    if kind == "ts":
        a["other"] = d.pick(SHIFT_COUNTS + [True])
    else:
        ct = dt if d.chance(0.7) else d.pick(["i64", "u8", "i8"])
        lo, hi = (0, 255) if ct == "u8" else (0, 1) if ct == "b8" else (-70, 70)
        a["other"] = d.tensor(dtype=ct, lo=lo if ct not in FLOATS else None,
                              hi=hi if ct not in FLOATS else None)
    return a


def h_tri_indices(d):
    a = {"row": d.r.randint(0, 6), "col": d.r.randint(0, 6)}
    if d.chance(0.05):
        a[d.pick(["row", "col"])] = -1
    if d.chance(0.7):
        a["offset"] = d.r.randint(-7, 7)
    a["dtype"] = d.pick([None, None, torch.int64, torch.int32, torch.float32])
    return a


def h_pixel_shuffle(d):
    r = d.pick([1, 2, 2, 3, 0, -1])
    c = abs(r) * abs(r) * d.pick([1, 2]) + (1 if d.chance(0.1) else 0)
    lead = [d.r.randint(1, 2) for _ in range(d.pick([0, 1, 1, 2]))]
    x = d.tensor(shape=lead + [c, d.r.randint(1, 3), d.r.randint(1, 3)])
    return {"self": x, "upscale_factor": r}


def h_pixel_unshuffle(d):
    r = d.pick([1, 2, 2, 3, 0, -1])
    hw = [abs(r) * d.r.randint(1, 2) + (1 if d.chance(0.1) else 0) for _ in range(2)]
    lead = [d.r.randint(1, 2) for _ in range(d.pick([0, 1, 1, 2]))]
    x = d.tensor(shape=lead + [d.r.randint(1, 2)] + hw)
    return {"self": x, "downscale_factor": r}


def h_roll(d):
    x = d.tensor()
    nd = nd_of(x)
    if d.chance(0.3):
        return {"self": x, "shifts": [d.pick([1, -1, 2, 5, -7])]}
    dims = d.dims(nd) or [0]
    return {"self": x, "shifts": [d.pick([1, -1, 2, 5, -7, 0]) for _ in dims], "dims": dims}


def h_pad2d(d):
    shape = d.rand_shape(ndims=(3, 4), weights=(1, 1), lo=1, hi=4)
    pads = [d.pick([0, 1, 2, -1, 3]) for _ in range(4)]
    return {"self": d.tensor(shape=shape), "padding": pads}


def h_pad1d(d):
    shape = d.rand_shape(ndims=(2, 3), weights=(1, 1), lo=1, hi=5)
    pads = [d.pick([0, 1, 2, -1, 3]) for _ in range(2)]
    return {"self": d.tensor(shape=shape), "padding": pads}


def h_pad3d(d):
    # small dims (MAX_NUMEL): pads near each dim's size, so that reflection
    # (a pad below its dim) is valid in most draws
    shape = d.rand_shape(ndims=(4, 5), weights=(1, 1), lo=1, hi=3)
    pads, bad = [], d.chance(0.3)
    for s in reversed(shape[-3:]):
        ok = [0, min(1, s - 1), max(s - 1, 0), -1 if s > 1 else 0]
        pads += [d.pick(ok + ([s, 2, -s] if bad else [])) for _ in range(2)]
    return {"self": d.tensor(shape=shape), "padding": pads}


def h_prelu(d):
    x = d.ftensor(shape=d.rand_shape(ndims=(0, 1, 2, 3, 4), weights=(1, 2, 4, 3, 2)))
    c = x.shape[1] if len(x.shape) >= 2 else 1
    wdt = x.dtype if d.chance(0.85) else d.pick(["f32", "i64"])
    w = d.tensor(shape=d.pick([[1], [c], [c], []]), dtype=wdt)
    return {"self": x, "weight": w}


def h_glu(d):
    x = d.ftensor()
    even = [i for i, s in enumerate(x.shape) if s % 2 == 0]
    dim = d.pick(even) if even and d.chance(0.9) else d.dim(nd_of(x))
    return {"self": x, "dim": dim - nd_of(x) if d.chance(0.3) else dim}


def h_group_norm(d):
    # N, C, HxW as the input's (now and then off by one), C a multiple of group
    group = d.pick([1, 2, 3])
    shape = [d.pick([1, 2]), group * d.pick([1, 2])] + d.pick([[], [3], [2, 3]])
    x = d.tensor(shape=shape, dtype=d.pick(["f32"] * 6 + ["f64", "bf16"]))
    hw = numel(shape[2:])
    c = shape[1]
    # parameters contiguous: torch's kernel reads a strided weight as if it
    # were not (its data pointer, unstrided)
    return {"input": x, "weight": d.pick([None, d.tensor([c], x.dtype, layout="c")]),
            "bias": d.pick([None, d.tensor([c], x.dtype, layout="c")]),
            "N": shape[0], "C": c + d.pick([0] * 8 + [1]), "HxW": hw, "group": group,
            "eps": d.pick([1e-5, 1e-5, 0.1])}


def h_where(d):
    c = d.tensor(dtype="b8" if d.chance(0.9) else "u8")
    return {"condition": c}


def h_masked_fill(d):
    x = d.tensor()
    m = d.tensor(dtype="b8" if d.chance(0.95) else "u8")
    return {"self": x, "mask": m, "value": d.tensor(shape=[] if d.chance(0.9) else [1])}


def h_masked_scatter(d):
    x = d.tensor()
    m = d.tensor(shape=d.bcast_shape() if d.chance(0.8) else d.rand_shape(),
                 dtype="b8" if d.chance(0.9) else d.pick(["u8", "f32"]))
    n = numel(x.shape) + numel(m.shape)  # at least the broadcast's count, mostly
    src = d.tensor(shape=d.pick([[n]] * 5 + [[2, (n + 1) // 2]] * 4 + [[max(n // 3, 0)]]),
                   dtype=x.dtype if d.chance(0.95) else None)
    return {"self": x, "mask": m, "source": src}


def h_masked_fill_scalar(d):
    x = d.tensor()
    return {"self": x, "mask": d.tensor(dtype="b8" if d.chance(0.95) else "u8")}


def size_list(d):
    if d.chance(0.05):
        return [d.pick([-1, -2, 2**62])]
    return [d.r.randint(0, 3) for _ in range(d.r.randint(0, 3))]


def h_factory(d):
    return {"size": size_list(d)}


def h_arange(d):
    def num():
        return d.pick([0, 1, 2, 3, 5, 7, -2, -4, 0.5, 2.5, -1.5, 4.25, True])
    return {"start": num(), "end": num(), "step": d.pick([1, 1, 2, -1, 0.5, -0.75, 3, 0])}


def h_gelu(d):
    return {"approximate": d.pick(["none", "tanh", "tanh", "erf"])}


def h_div_mode(d):
    return {"rounding_mode": d.pick(["trunc", "floor", None, "trunc", "floor"])}


def h_var(d):
    x = d.tensor()
    return {"self": x, "dim": d.pick([None, d.dims(nd_of(x))]),
            "correction": d.pick([None, 0, 1, 2])}


def h_memory_format(d):
    """self sometimes 4-dim (channels_last then among the formats)."""
    if d.chance(0.3):
        x = d.tensor(shape=[d.r.randint(1, 2), d.r.randint(1, 3), d.r.randint(1, 2),
                            d.r.randint(1, 2)])
    else:
        x = d.tensor()
    fmts = [None, torch.preserve_format, torch.contiguous_format]
    if len(x.shape) == 4:
        fmts.append(torch.channels_last)
    return {"self": x, "memory_format": d.pick(fmts)}


def h_to_copy(d):
    h = h_memory_format(d)
    h.update({"dtype": d.pick([None, d.dtype_arg()]), "layout": d.pick([None, torch.strided]),
              "device": d.pick([None, torch.device("cpu")]),
              "pin_memory": d.pick([None, False])})
    return h


def h_clamp_tensor(d):
    x = d.tensor()
    return {"self": x, "min": d.pick([None, d.tensor()]), "max": d.pick([None, d.tensor()])}


def h_unfold(d):
    x = d.tensor(shape=d.rand_shape(ndims=(0, 1, 2, 3), weights=(1, 3, 4, 3)))
    dim = d.dim(nd_of(x))
    size = x.shape[dim] if x.shape and -nd_of(x) <= dim < nd_of(x) else 1
    return {"self": x, "dimension": dim, "size": d.r.randint(0, size + (d.chance(0.1))),
            "step": d.pick([1, 1, 2, 3]) if d.chance(0.95) else 0}


def h_diagonal(d):
    x = d.tensor(shape=d.rand_shape(ndims=(2, 3, 4), weights=(4, 3, 2)))
    nd = nd_of(x)
    return {"self": x, "offset": d.pick([0, 0, 1, -1, 2, -3, 5]), "dim1": d.dim(nd),
            "dim2": d.dim(nd)}


def h_diagonal_scatter(d):
    # src mostly of the diagonal's shape (now and then another: refused)
    a = h_diagonal(d)
    try:
        shape = list(torch.empty(a["self"].shape).diagonal(a["offset"], a["dim1"], a["dim2"]).shape)
    except (RuntimeError, IndexError):
        shape = d.rand_shape()
    if d.chance(0.1):
        shape = d.rand_shape()
    a["src"] = d.tensor(shape=shape)
    return a


def h_as_strided_scatter(d):
    # a view of self's clone (now and then past it: refused), src mostly
    # of its size
    a = h_as_strided(d)
    if a:
        a["src"] = d.tensor(shape=list(a["size"]) if d.chance(0.9) else d.rand_shape())
    return a


def h_diag_embed(d):
    x = d.tensor(shape=d.rand_shape(ndims=(1, 2, 3), weights=(4, 3, 2)))
    nd = nd_of(x) + 1
    dims = d.pick([(-2, -1), (0, 1), (d.dim(nd), d.dim(nd))])
    return {"self": x, "offset": d.pick([0, 0, 1, -1, 2, -2]), "dim1": dims[0],
            "dim2": dims[1]}


def h_diag(d):
    x = d.tensor(shape=d.rand_shape(ndims=(1, 2, 3), weights=(4, 5, 1)))
    return {"self": x, "diagonal": d.pick([0, 0, 1, -1, 2, -3])}


def h_trace(d):
    return {"self": d.tensor(shape=d.rand_shape(ndims=(1, 2, 3), weights=(1, 6, 1)))}


def h_eye(d):
    return {"n": d.pick([0, 1, 2, 3, 4, 5, -1]), "m": d.pick([0, 1, 2, 3, 5, 6])}


def h_linspace(d):
    def num():
        return d.pick([0, 1, 2, 3, 5, 10, -2, -7, 0.5, 2.5, -1.5, 4.25, 100, -3.75])
    return {"start": num(), "end": num(), "steps": d.pick([0, 1, 2, 3, 4, 5, 7, 9, 16]),
            "base": d.pick([10.0, 2.0, 0.5, 3.0])}


def factory_dtype(d):
    """A factory's dtype kwarg: mostly floating (the window factories and
    fftfreq refuse the others)."""
    return d.pick([None, None, torch.float32, torch.float64, torch.bfloat16, torch.float16,
                   torch.int64, torch.int32, torch.uint8, torch.bool])


def h_window(d):
    return {"window_length": d.pick([0, 1, 2, 3, 4, 5, 6, 8, 11, -1]),
            "periodic": d.chance(0.5), "alpha": d.pick([0.54, 0.5, 0.3, 1.0, -0.5, 2.0]),
            "beta": d.pick([0.46, 0.5, 12.0, 3.5, 0.0, -2.0, 8.0]), "dtype": factory_dtype(d)}


def h_fftfreq(d):
    return {"n": d.pick([0, 1, 2, 3, 4, 5, 7, 8, -1, -2, -3, -5]),
            "d": d.pick([1.0, 1.0, 0.5, 0.3, 2.5, 0.0, -2.0]), "dtype": factory_dtype(d)}


def h_range(d):
    def num():
        return d.pick([0, 1, 2, 3, 5, 7, -2, -4, 0.5, 2.5, -1.5, 4.25, True])
    return {"start": num(), "end": num(), "step": d.pick([1, 1, 2, -1, 0.5, -0.75, 3, 0, 0.3]),
            "dtype": factory_dtype(d)}


def h_pointwise_loss(d):
    x = d.ftensor()
    return {"self": x, "target": d.tensor(dtype=d.pick([x.dtype] * 4 + ["f64", "f32", "i64"])),
            "reduction": d.pick([0, 1, 2, 1, 2, 3]), "beta": d.pick([1.0, 0.5, 0.0, 2.0, -1.0]),
            "delta": d.pick([1.0, 0.5, 2.0, 0.0])}


def unit_tensor(d, like, shape=None):
    """A tensor of like's dtype with values in [0, 1] (now and then one
    outside, or NaN: binary_cross_entropy refuses them)."""
    shape = list(like.shape) if shape is None else shape
    vals = [round(d.r.random(), 3) for _ in range(numel(shape))]
    if vals and d.chance(0.1):
        vals[d.r.randrange(len(vals))] = d.pick([1.5, -0.25, float("nan")])
    return TSpec(like.dtype, shape, vals)


def h_bce(d):
    x = d.ftensor()
    t = unit_tensor(d, x)
    x = unit_tensor(d, x)
    w = d.pick([None, d.tensor(dtype=x.dtype, shape=x.shape[-1:] if x.shape else [])])
    return {"self": x, "target": t, "weight": w, "reduction": d.pick([0, 1, 2])}


def h_bce_logits(d):
    x = d.ftensor()
    t = unit_tensor(d, x)
    last = x.shape[-1:] if x.shape else []
    return {"self": x, "target": t,
            "weight": d.pick([None, d.tensor(dtype=x.dtype, shape=last)]),
            "pos_weight": d.pick([None, d.tensor(dtype=x.dtype, shape=last)]),
            "reduction": d.pick([0, 1, 2])}


def h_nll(d, two_d):
    n, c = d.r.randint(1, 4), d.r.randint(1, 5)
    hw = [d.r.randint(1, 3), d.r.randint(1, 3)] if two_d else []
    if not two_d and d.chance(0.2):
        x = d.tensor(shape=[c], dtype=d.pick(["f32", "f64", "bf16"]))
        tshape = []
    else:
        x = d.tensor(shape=[n, c] + hw, dtype=d.pick(["f32", "f32", "f64", "bf16"]))
        tshape = [n] + hw
    ignore = d.pick([-100, -100, 0, 1])
    tv = [d.r.randrange(c) if d.chance(0.9) else ignore for _ in range(numel(tshape))]
    if tv and d.chance(0.05):
        tv[0] = c  # out of bounds
    return {"self": x, "target": TSpec("i64", tshape, tv),
            "weight": d.pick([None, d.tensor(shape=[c], dtype=x.dtype)]),
            "reduction": d.pick([0, 1, 2]), "ignore_index": ignore}


def margin_self(d):
    """A margin loss's self: [N, C] mostly, [C] or 0-dim now and then
    (rarely an empty batch, or a dtype torch's kernels lack)."""
    n, c = d.r.randint(0 if d.chance(0.05) else 1, 4), d.r.randint(1, 5)
    shape = d.pick([[n, c]] * 6 + [[c], [c], []])
    return d.tensor(shape=shape, dtype=d.pick(["f32"] * 6 + ["f64", "f64", "bf16"]))


def h_multi_margin(d):
    x = margin_self(d)
    n, c = (x.shape[0] if len(x.shape) == 2 else 1), (x.shape[-1] if x.shape else 1)
    tshape = [n] if len(x.shape) == 2 or d.chance(0.3) else []
    tv = [d.r.randrange(c) for _ in range(numel(tshape))]
    if tv and d.chance(0.05):
        tv[0] = d.pick([c, -1])  # out of range
    w = d.pick([None, None, d.tensor(shape=[c], dtype=x.dtype, layout="c")])
    return {"self": x, "target": TSpec("i64", tshape, tv),
            "p": d.pick([1, 1, 2, 2, 2.0, 1.5, 3, 0]),
            "margin": d.pick([1, 1.0, 0.5, 0, -1.0, 2.5, float("inf")]), "weight": w,
            "reduction": d.pick([0, 1, 2, 0, 1, 2, 3])}


def h_multilabel_margin(d):
    x = margin_self(d)
    c = x.shape[-1] if x.shape else 1
    tshape = list(x.shape) if len(x.shape) == 2 else d.pick([[c], [c], []] if c == 1 else [[c]])
    rows = numel(tshape) // c if c else 0
    tv = []
    for _ in range(rows):
        row = [d.r.randrange(c) for _ in range(c)]
        if d.chance(0.7):
            row[d.r.randrange(c)] = -1  # the labels end there; later values still checked
        tv += row
    if tv and d.chance(0.05):
        tv[d.r.randrange(len(tv))] = d.pick([c, -2])  # out of range
    return {"self": x, "target": TSpec("i64", tshape, tv), "reduction": d.pick([0, 1, 2, 0, 3])}


def h_channel_shuffle(d):
    g = d.pick([1, 2, 3, 2])
    shape = [d.r.randint(1, 2), g * d.r.randint(1, 3)] + \
        [d.r.randint(1, 3) for _ in range(d.pick([1, 2, 2, 3]))]
    return {"self": d.tensor(shape=shape), "groups": g if d.chance(0.9) else d.pick([0, 4])}


def h_cdist(d):
    m = d.r.randint(1, 4)
    batch = d.pick([[], [], [2], [2, 1]])
    big = d.chance(0.2)  # past 25 rows: torch's matrix form of p = 2
    x1 = d.ftensor(shape=batch + [d.r.randint(26, 30) if big else d.r.randint(1, 4), m])
    x2 = d.tensor(dtype=x1.dtype, shape=batch[-1:] + [d.r.randint(1, 5), m])
    return {"x1": x1, "x2": x2, "p": d.pick([2.0, 2.0, 1.0, 0.0, 3.0, 0.5, float("inf")]),
            "compute_mode": d.pick([None, None, 1, 2])}


def h_cross(d):
    shape = d.rand_shape(ndims=(1, 2, 3), weights=(2, 4, 2))
    dim = d.r.randrange(len(shape))
    shape[dim] = 3
    other = list(shape)
    if d.chance(0.3):
        other[d.r.randrange(len(shape))] = 1 if shape[dim] != 1 else 3
        other[dim] = 3
    x = d.tensor(shape=shape)
    return {"self": x, "other": d.tensor(shape=other, dtype=x.dtype), "dim": dim - len(shape)
            if d.chance(0.5) else dim}


def h_lerp(d, tensor_weight):
    # end and a weight tensor of self's dtype (torch refuses any other),
    # weights around [0, 1] and past it on both sides
    x = d.tensor(dtype=d.pick(["f32"] * 4 + ["f64", "bf16", "f16"]))
    w = d.pick([0.25, 0.5, 0.75, -0.5, -2.5, 1.5, d.scalar()])
    if tensor_weight:
        w = d.tensor(dtype=x.dtype)
    return {"self": x, "end": d.tensor(dtype=x.dtype), "weight": w}


# ---- the fused attention of torch's inference fast path: sizes that fit
# (embed_dim = num_heads * head_dim, qkv_weight [3D, D] ...), values in
# [-1, 1] (the f64 check of ACCUMULATING_OPS judges the rest), bf16 now and
# then (its draws mostly fall to half_rounding: torch rounds every step)
def attn_tensor(d, shape, dt, layout="c"):
    t = d.tensor(shape, dt, layout=layout)
    t.values = [round(d.r.uniform(-1, 1), 2) for _ in t.values]
    return t


def attn_sizes(d):
    h = d.pick([1, 1, 2])
    dim = h * d.pick([1, 2])
    b, t = d.r.randint(1, 2), d.r.randint(1, 3)
    if d.chance(0.05):
        b, t = d.pick([(0, t), (b, 0)])
    return b, t, dim, h, d.pick(["f32"] * 7 + ["f64", "f64", "bf16"])


def attn_mask(d, b, h, t):
    """(mask, mask_type): mostly none, else a [B, T] key padding mask or a
    [B, H, T, T] one (bool, now and then float: torch converts it), now and
    then a type torch refuses (None, 0: src_mask is CUDA-only, 3)."""
    if d.chance(0.5):
        return None, d.pick([None, None, 1])
    shape = [b, t] if d.chance(0.6) else [b, h, t, t]
    m = d.tensor(shape, "b8", layout="c")
    if d.chance(0.2):
        m = d.tensor(shape, "f32", layout="c")
        m.values = [d.pick([0.0, 0.0, 1.0, -2.5]) for _ in m.values]
    return m, d.pick([1, 1, 2, 2, 2, None, 0, 3])


def attn_weights(d, dim, dt):
    """qkv_weight, qkv_bias, proj_weight, proj_bias (a wrong shape now and
    then; proj_bias may broadcast)."""
    e = dim if d.chance(0.9) else d.r.randint(1, 3)
    pb = d.pick([[e]] * 6 + [[1], [], [1, e]])
    return (attn_tensor(d, [3 * dim, dim], dt), attn_tensor(d, [3 * dim], dt),
            attn_tensor(d, [e, dim], dt), attn_tensor(d, pb, dt))


def h_multi_head_attention(d):
    b, t, dim, h, dt = attn_sizes(d)
    q = attn_tensor(d, [b, t, dim], dt, layout=None)
    q.share = True  # one placeholder wherever it is passed: self-attention
    k = q if d.chance(0.6) else attn_tensor(d, [b, t, dim], dt)
    v = k if d.chance(0.6) else attn_tensor(d, [b, t, dim], dt)
    k.share = v.share = True
    w, wb, pw, pb = attn_weights(d, dim, dt)
    mask, mask_type = attn_mask(d, b, h, t)
    return {"query": q, "key": k, "value": v, "embed_dim": dim, "num_head": h,
            "qkv_weight": w, "qkv_bias": wb, "proj_weight": pw, "proj_bias": pb, "mask": mask,
            "need_weights": d.chance(0.6), "average_attn_weights": d.chance(0.6),
            "mask_type": mask_type}


def h_transformer_encoder_layer(d):
    b, t, dim, h, dt = attn_sizes(d)
    f = d.r.randint(1, 4)
    w, wb, pw, pb = attn_weights(d, dim, dt)
    mask, mask_type = attn_mask(d, b, h, t)
    return {"src": attn_tensor(d, [b, t, dim], dt, layout=None), "embed_dim": dim,
            "num_heads": h, "qkv_weight": w, "qkv_bias": wb, "proj_weight": pw,
            "proj_bias": pb, "use_gelu": d.chance(0.5), "norm_first": d.chance(0.5),
            "eps": d.pick([1e-5, 1e-5, 0.1]), "norm_weight_1": attn_tensor(d, [dim], dt),
            "norm_bias_1": attn_tensor(d, [dim], dt), "norm_weight_2": attn_tensor(d, [dim], dt),
            "norm_bias_2": attn_tensor(d, [dim], dt), "ffn_weight_1": attn_tensor(d, [f, dim], dt),
            "ffn_bias_1": attn_tensor(d, [f], dt), "ffn_weight_2": attn_tensor(d, [dim, f], dt),
            "ffn_bias_2": attn_tensor(d, [dim], dt), "mask": mask, "mask_type": mask_type}



def la_dtype(d):
    # mostly f32 / f64; now and then a type torch refuses
    return d.pick(["f32"] * 6 + ["f64"] * 3 + ["f16", "i64", "bf16"])


def la_batch(d):
    return d.pick([[], [], [2], [1], [2, 1]])


def la_pd(d, dt, batch, n, upper=None):
    # a well-conditioned positive-definite matrix (M M^T + n I), or with
    # `upper` given its Cholesky factor (upper or lower)
    g = torch.Generator().manual_seed(d.r.randrange(2**31))
    m = torch.randn(batch + [n, n], generator=g, dtype=torch.float64)
    a = m @ m.mT + n * torch.eye(n, dtype=torch.float64)
    if upper is not None:
        a = torch.linalg.cholesky(a, upper=upper)
    a = a.to(DT[dt] if DT[dt].is_floating_point else torch.float64)
    return TSpec(dt, batch + [n, n], [round(float(v), 4) for v in a.flatten()])


def la_square(d, name="A"):
    n = d.r.randint(0, 4) if d.chance(0.1) else d.r.randint(1, 4)
    m = n if d.chance(0.93) else n + 1
    dt = la_dtype(d)
    return {name: d.tensor(la_batch(d) + [m, n], dt)}, dt, n


def h_la_square(d):
    a, _, _ = la_square(d)
    return a


def h_la_check(d):
    a = h_la_square(d)
    a["check_errors"] = d.chance(0.3)
    return a


def h_la_any(d):
    # a matrix of any shape (QR, SVD, LU)
    dt = la_dtype(d)
    m, n = (d.r.randint(0, 4) if d.chance(0.08) else d.r.randint(1, 4) for _ in range(2))
    return {"A": d.tensor(la_batch(d) + [m, n], dt)}


def h_cholesky_ex(d):
    a, dt, n = la_square(d)
    if d.chance(0.7) and dt in ("f32", "f64"):
        a["A"] = la_pd(d, dt, list(a["A"].shape[:-2]), n)
    a["upper"] = d.chance(0.4)
    a["check_errors"] = d.chance(0.2)
    return a


def h_cholesky(d):
    a = h_cholesky_ex(d)
    return {"self": a["A"], "upper": a["upper"]}


def h_cholesky_inverse(d):
    dt, n, up = d.pick(["f32", "f32", "f64", "f16"]), d.r.randint(0, 4), d.chance(0.5)
    fdt = "f32" if dt == "f16" else dt
    t = la_pd(d, fdt, la_batch(d), n, up)
    return {"self": TSpec(dt, t.shape, t.values), "upper": up}


def h_cholesky_solve(d):
    dt, n, up = d.pick(["f32", "f32", "f64"]), d.r.randint(1, 4), d.chance(0.5)
    batch = la_batch(d)
    k = d.r.randint(1, 3)
    return {"self": d.tensor(d.pick([batch, [], [2]]) + [n if d.chance(0.95) else n + 1, k], dt),
            "input2": la_pd(d, dt, batch, n, up), "upper": up}


def h_cholesky_solve_helper(d):
    # cholesky_solve's operands after its checks and broadcast: one batch
    dt, n, up = d.pick(["f32", "f32", "f64"]), d.r.randint(1, 4), d.chance(0.5)
    batch = la_batch(d)
    return {"self": d.tensor(batch + [n, d.r.randint(1, 3)], dt), "A": la_pd(d, dt, batch, n, up),
            "upper": up}


def h_linear_combination(d):
    x = d.tensor()
    n = x.shape[0] if x.shape else 1
    return {"input": x, "coefficients": d.tensor([d.r.randint(0, 3), n], x.dtype)}


def h_masked_softmax(d):
    x = d.tensor(dtype=d.pick(["f32"] * 5 + ["f64", "bf16", "f16", "i64"]))
    return {"self": x, "mask": d.tensor(list(x.shape) if d.chance(0.9) else d.rand_shape(),
                                        d.pick(["b8"] * 9 + ["f32"])),
            "dim": d.pick([None, d.dim(nd_of(x))]), "mask_type": d.pick([1, 2, 2, 1, None, 0, 3])}


def h_linalg_solve(d):
    a, dt, n = la_square(d)
    k = d.r.randint(1, 3)
    batch = list(a["A"].shape[:-2])
    left = d.chance(0.7)
    form = d.pick(["matrix", "matrix", "vector", "batched_vector"])
    bdt = dt if d.chance(0.95) else "f64"
    if form == "vector":
        shape = [n]
    elif form == "batched_vector":
        shape = batch + [n]
    else:
        shape = d.pick([batch, batch, [], [3]]) + ([n, k] if left else [k, n])
    a["B"] = d.tensor(shape, bdt)
    a["left"] = left
    a["check_errors"] = d.chance(0.2)
    return a


def h_la_lu(d):
    # mostly square: LU solves systems
    a = h_la_any(d) if d.chance(0.25) else h_la_square(d)
    return a


def h_lu_factor(d):
    a = h_la_lu(d)
    a["pivot"] = d.chance(0.95)
    if d.chance(0.2):
        a["check_errors"] = True
    return a


def h_lu(d):
    a = h_la_lu(d)
    a["pivot"] = d.chance(0.95)
    return a


def h_eigh(d):
    a = h_la_square(d)
    a["UPLO"] = d.pick(["L", "L", "L", "L", "U", "u", "X"])
    a["compute_v"] = d.chance(0.7)
    return a


def h_svd(d):
    a = h_la_any(d)
    a["full_matrices"] = d.chance(0.4)
    a["compute_uv"] = d.chance(0.75)
    return a


def h_qr(d):
    a = h_la_any(d)
    a["mode"] = d.pick(["reduced", "reduced", "complete", "r", "full"])
    return a


def h_pinv(d):
    # torch.linalg.pinv as make_fx records it: atol and rtol 0-dim f64
    # tensors (or None), now and then per batch element; hermitian on a
    # symmetric matrix
    a = h_la_any(d) if d.chance(0.6) else h_la_square(d)
    x = a["A"]
    herm = d.chance(0.25) and x.shape[-1] == x.shape[-2]
    if herm and x.dtype in ("f32", "f64"):
        x = la_pd(d, x.dtype, list(x.shape[:-2]), x.shape[-1])
    tol = lambda: d.pick([None, None, TSpec("f64", [], [d.pick([0.0, 0.1, 0.5, 1e-15])]),
                          d.tensor(list(x.shape[:-2]), "f64", lo=0, hi=1)])
    return {"self": x, "atol": tol(), "rtol": tol(), "hermitian": herm}


def h_solve_triangular(d):
    a, dt, n = la_square(d)
    k = d.r.randint(1, 3)
    left = d.chance(0.7)
    batch = list(a["A"].shape[:-2])
    b = d.tensor(d.pick([batch, batch, [], [3]]) + ([n, k] if left else [k, n]),
                 dt if d.chance(0.9) else "f64")
    # a triangle with a diagonal well away from 0
    up = d.chance(0.5)
    return {"self": a["A"], "B": b, "upper": up, "left": left, "unitriangular": d.chance(0.3)}


def h_triangular_solve(d):
    a = h_solve_triangular(d)
    if not a["left"]:
        b = a["B"]
        a["B"] = TSpec(b.dtype, b.shape[:-2] + [b.shape[-1], b.shape[-2]], b.values)
    return {"self": a["B"], "A": a["self"], "upper": a["upper"], "transpose": d.chance(0.4),
            "unitriangular": a["unitriangular"]}


def la_from(d, t, fn):
    # fn's results of the (f32 / f64) matrix spec t, as specs; the matrix
    # itself where torch refuses its dtype
    if t.dtype not in ("f32", "f64") or 0 in t.shape[-2:]:
        return None
    x = torch.tensor(t.values, dtype=DT[t.dtype]).reshape(t.shape)
    try:
        rs = fn(x)
    except RuntimeError:  # a matrix torch refuses to factor: the caller's fallback
        return None
    return [TSpec(str_dtype(r), list(r.shape), [v if isinstance(v, int) else round(float(v), 6)
                                                for v in r.flatten().tolist()])
            for r in rs]


def str_dtype(t):
    return {torch.float32: "f32", torch.float64: "f64", torch.int32: "i32",
            torch.int64: "i64"}[t.dtype]


def h_lu_unpack(d):
    a = h_la_any(d)["A"]
    r = la_from(d, a, lambda x: torch.linalg.lu_factor_ex(x)[:2])
    lu, piv = r if r else (a, d.tensor(a.shape[:-1], "i32", lo=1, hi=3))
    if d.chance(0.05):  # pivots out of range: torch's check
        piv = TSpec("i32", piv.shape, [v + 9 for v in piv.values])
    return {"LU_data": lu, "LU_pivots": piv, "unpack_data": d.chance(0.8),
            "unpack_pivots": d.chance(0.8)}


def h_lu_solve(d):
    a, dt, n = la_square(d)
    r = la_from(d, a["A"], lambda x: torch.linalg.lu_factor_ex(x)[:2])
    lu, piv = r if r else (a["A"], d.tensor(a["A"].shape[:-1], "i32", lo=1, hi=2))
    left, k = d.chance(0.7), d.r.randint(1, 3)
    batch = list(a["A"].shape[:-2])
    b = d.tensor(d.pick([batch, batch, [], [3, 1]]) + ([n, k] if left else [k, n]),
                 dt if d.chance(0.95) else "f64")
    return {"LU": lu, "pivots": piv, "B": b, "left": left, "adjoint": d.chance(0.4)}


def la_symmetric(d, a):
    # A + A^T of a square spec (its dtype kept)
    if a.dtype not in ("f32", "f64") or a.shape[-1] != a.shape[-2]:
        return a
    x = torch.tensor(a.values, dtype=torch.float64).reshape(a.shape)
    x = x + x.mT
    return TSpec(a.dtype, a.shape, [round(float(v), 4) for v in x.flatten()])


def h_ldl_factor(d):
    a = h_la_square(d)
    return {"self": la_symmetric(d, a["A"]), "hermitian": d.chance(0.3),
            "check_errors": d.chance(0.2)}


def h_ldl_solve(d):
    a, dt, n = la_square(d)
    x = la_symmetric(d, a["A"])
    r = la_from(d, x, lambda t: torch.linalg.ldl_factor_ex(t)[:2])
    ld, piv = r if r else (x, d.tensor(x.shape[:-1], "i32", lo=1, hi=2))
    batch = list(x.shape[:-2])
    b = d.tensor(d.pick([batch, batch, []]) + [n, d.r.randint(1, 3)],
                 dt if d.chance(0.95) else "f64")
    return {"LD": ld, "pivots": piv, "B": b, "hermitian": d.chance(0.3)}


def h_symeig(d):
    a = h_la_square(d)
    return {"self": la_symmetric(d, a["A"]), "eigenvectors": d.chance(0.6),
            "upper": d.chance(0.3)}


def h_householder(d):
    a = h_la_any(d)["A"]
    if len(a.shape) >= 2 and a.shape[-2] < a.shape[-1]:
        a = TSpec(a.dtype, a.shape[:-2] + [a.shape[-1], a.shape[-2]], a.values)
    r = la_from(d, a, lambda x: torch.geqrf(x))
    q, tau = r if r else (a, d.tensor(a.shape[:-2] + [min(a.shape[-2:])], a.dtype))
    if d.chance(0.25) and tau.shape[-1]:  # fewer reflectors than columns
        k = tau.shape[-1] - 1
        rows = numel(tau.shape[:-1])
        vals = [v for i in range(rows) for v in tau.values[i * (k + 1):i * (k + 1) + k]]
        tau = TSpec(tau.dtype, tau.shape[:-1] + [k], vals)
    return {"input": q, "tau": tau}


def h_ormqr(d):
    a = h_householder(d)
    q, tau = a["input"], a["tau"]
    left, m = d.chance(0.6), q.shape[-2]
    c = d.tensor(q.shape[:-2] + ([m, d.r.randint(1, 3)] if left else [d.r.randint(1, 3), m]),
                 q.dtype if d.chance(0.95) else "f64")
    return {"self": q, "input2": tau, "input3": c, "left": left, "transpose": d.chance(0.5)}


def h_lstsq(d):
    dt = la_dtype(d)
    m, n = d.r.randint(1, 5), d.r.randint(1, 4)
    batch = la_batch(d)
    form = d.pick(["matrix", "matrix", "matrix", "vector"])
    b = d.tensor((d.pick([batch, batch, [1]]) if form == "matrix" else batch) + [m] +
                 ([d.r.randint(1, 3)] if form == "matrix" else []), dt)
    # gelsy's rank-deficient solutions are not torch's (see EXCLUSIONS), so
    # a small rcond: random matrices have full rank
    return {"self": d.tensor(batch + [m, n], dt), "b": b,
            "rcond": d.pick([None, None, None, 1e-3]),
            "driver": d.pick([None, None, "gelsy", "gels", "gelsd", "gelss", "gelsx"])}


def h_matrix_exp(d):
    # square matrices of each kind the algorithm tells apart: norms across
    # every degree's bound and past them (many squarings, overflow), zero,
    # diagonal and nilpotent matrices; batches whose matrices differ in
    # norm; 0x0 and 1x1; now and then a type torch refuses or a non-square
    dt = d.pick(["f32"] * 6 + ["f64"] * 3 + ["bf16", "f16", "i64"])
    n = d.pick([0, 1, 2, 2, 3, 3, 4, 5])
    shape = d.pick([[], [], [2], [3], [1], [2, 1]]) + [n, n if d.chance(0.95) else n + 1]
    x = d.tensor(shape, dt, layout=d.pick(["c", "c", None]))
    if dt == "i64" or not n:
        return {"self": x}
    per = shape[-1] * shape[-2]
    vals = []
    for _ in range(numel(shape[:-2])):
        kind = d.pick(["gauss"] * 4 + ["zero", "diag", "nilpotent", "special"])
        scale = d.pick([1e-9, 1e-6, 1e-4, 1e-3, 0.01, 0.05, 0.2, 0.5, 1, 2, 5, 20, 60, 300])
        if kind == "special":
            vals += d.values(dt, per)
            continue
        m = [d.r.gauss(0, 1) * scale for _ in range(per)]
        for i in range(shape[-2]):
            for j in range(shape[-1]):
                if kind == "zero" or (kind == "diag" and i != j) or \
                        (kind == "nilpotent" and j <= i):
                    m[i * shape[-1] + j] = 0.0
        vals += [float(f"{v:.6g}") for v in m]
    return {"self": TSpec(dt, shape, vals, x.layout, x.perm, x.sdim)}


HINTS = {
    "_softmax": h_softmax, "_log_softmax": h_softmax,
    "softmax": h_dim, "log_softmax": h_dim, "cumsum": h_cumsum, "cumprod": h_cumsum,
    "all.dim": h_dim, "any.dim": h_dim, "argmax": h_dim, "argmin": h_dim, "max.dim": h_dim,
    "min.dim": h_dim, "prod.dim_int": h_dim, "amax": h_dims, "amin": h_dims,
    "mean.dim": h_dims, "sum.dim_IntList": h_dims, "var.dim": h_dims,
    "var.correction": h_var, "var_mean.correction": h_var,
    "std_mean.correction": h_var,
    "view": h_reshape, "reshape": h_reshape, "_unsafe_view": h_reshape,
    "_reshape_alias": h_reshape_alias, "as_strided": h_as_strided, "expand": h_expand,
    "as_strided_scatter": h_as_strided_scatter, "diagonal_scatter": h_diagonal_scatter,
    "permute": h_permute, "transpose.int": h_transpose, "select.int": h_select,
    "slice.Tensor": h_slice, "split.Tensor": h_split, "split_with_sizes": h_split_with_sizes,
    "squeeze.dim": h_squeeze_dim, "squeeze": h_squeeze_dim, "unsqueeze": h_unsqueeze, "t": h_t,
    "tril": h_tri, "triu": h_tri, "tril_": h_tri, "triu_": h_tri, "cat": h_cat,
    "stack": h_stack, "constant_pad_nd": h_pad, "index_select": h_index_select, "index.Tensor": h_index,
    "index_put": h_index_put, "index_put_": h_index_put,
    "scatter.src": h_scatter_src, "scatter_.src": h_scatter_src, "scatter.value": h_scatter_value,
    "scatter_.value": h_scatter_value, "scatter_add": h_scatter_src,
    "scatter_add_": h_scatter_src, "index_copy": h_index_copy, "index_copy_": h_index_copy,
    "scatter_reduce.two": h_scatter_reduce, "scatter_reduce_.two": h_scatter_reduce,
    "index_add": h_index_add, "index_add_": h_index_add,
    "gather": h_gather, "embedding": h_embedding, "select_scatter": h_select_scatter,
    "slice_scatter": h_slice_scatter, "unbind.int": h_unbind, "mm": h_mm, "bmm": h_bmm,
    "addbmm": h_addbmm, "addmv": h_addmv, "addr": h_addr,
    "index_fill.int_Scalar": lambda d: h_index_fill(d, False),
    "index_fill_.int_Scalar": lambda d: h_index_fill(d, False),
    "index_fill.int_Tensor": lambda d: h_index_fill(d, True),
    "index_fill_.int_Tensor": lambda d: h_index_fill(d, True),
    "take": h_take, "rot90": h_rot90, "tril_indices": h_tri_indices,
    "masked_scatter": h_masked_scatter,
    "triu_indices": h_tri_indices,
    "median.dim": h_pick, "nanmedian.dim": h_pick, "kthvalue": lambda d: h_pick(d, True),
    "bucketize.Tensor": h_bucketize, "bucketize.Scalar": lambda d: h_bucketize(d, True),
    "searchsorted.Tensor": h_searchsorted,
    "searchsorted.Scalar": lambda d: h_searchsorted(d, True),
    "round.decimals": lambda d: {"self": d.tensor(), "decimals": d.pick(
        [0, 1, 2, 3, -1, -2, 5, 38, 39, 309, -400, 2**40])},
    "view.dtype": lambda d: {"self": d.tensor(), "dtype": d.dtype_arg()},
    "scatter.reduce": lambda d: dict(h_scatter_src(d), reduce=d.pick(SCATTER_REDUCE)),
    "scatter.value_reduce": lambda d: dict(h_scatter_value(d), reduce=d.pick(SCATTER_REDUCE)),
    "fill.Tensor": lambda d: {"self": d.tensor(), "value": d.tensor(
        shape=[] if d.chance(0.9) else [1])},
    "narrow_copy": h_narrow_copy, "_stack": h_stack,
    "vdot": h_vdot, "_aminmax.dim": h_dim, "dist": h_dist,
    "norm.ScalarOpt_dtype": lambda d: h_norm_dtype(d, False),
    "norm.ScalarOpt_dim_dtype": lambda d: h_norm_dtype(d, True),
    "norm.Scalar": lambda d: {"self": d.tensor(), "p": d.pick(NORM_ORDERS)},
    "addmm": h_addmm, "_addmm_activation": h_addmm_activation, "baddbmm": h_baddbmm, "matmul": h_matmul, "mv": h_mv, "dot": h_dot, "linear": h_linear, "convolution": h_conv,
    "_convolution": lambda d: dict(h_conv(d), benchmark=False, deterministic=False,
                                   cudnn_enabled=True, allow_tf32=True),
    "_slow_conv2d_forward": lambda d: h_slow_conv(d, "slow", 2),
    "slow_conv3d_forward": lambda d: h_slow_conv(d, "slow", 3),
    "slow_conv_dilated2d": lambda d: h_slow_conv(d, "dilated", 2),
    "slow_conv_dilated3d": lambda d: h_slow_conv(d, "dilated", 3),
    "slow_conv_transpose2d": lambda d: h_slow_conv(d, "transposed", 2),
    "slow_conv_transpose3d": lambda d: h_slow_conv(d, "transposed", 3),
    "conv_tbc": h_conv_tbc, "native_dropout": h_native_dropout,
    "_cholesky_solve_helper": h_cholesky_solve_helper,
    "_compute_linear_combination": h_linear_combination, "_masked_softmax": h_masked_softmax,
    "batch_norm_update_stats": h_bn_update_stats,
    "avg_pool2d": h_avg_pool, "max_pool2d_with_indices": h_max_pool,
    "adaptive_avg_pool2d": h_adaptive, "_adaptive_avg_pool2d": h_adaptive,
    "adaptive_max_pool2d": h_adaptive,
    "fractional_max_pool2d": lambda d: h_fractional(d, 2),
    "fractional_max_pool3d": lambda d: h_fractional(d, 3),
    "_ctc_loss.default": lambda d: h_ctc_loss(d, False),
    "embedding_renorm": h_embedding_renorm, "embedding_renorm_": h_embedding_renorm,
    "_ctc_loss.Tensor": lambda d: h_ctc_loss(d, True),
    "avg_pool3d": lambda d: h_pool3d(d, False),
    "max_pool3d_with_indices": lambda d: h_pool3d(d, True),
    "_adaptive_avg_pool3d": h_adaptive3d, "adaptive_max_pool3d": h_adaptive3d,
    "_weight_norm_interface": h_weight_norm, "_pdist_forward": h_pdist, "histc": h_histc,
    "mode": h_mode, "renorm": h_renorm, "index_reduce": h_index_reduce, "put": h_put,
    "block_diag": h_block_diag, "mvlgamma": h_mvlgamma, "frexp.Tensor": lambda d: {"self": d.ftensor()},
    "histogram.bin_ct": lambda d: h_histogram(d, False),
    "histogram.bins_tensor": lambda d: h_histogram(d, True), "rrelu_with_noise": h_rrelu,
    "segment_reduce": h_segment_reduce,
    "_histogramdd_bin_edges": lambda d: h_histogramdd(d, "edges"),
    "_histogramdd_from_bin_cts": lambda d: h_histogramdd(d, "cts"),
    "_histogramdd_from_bin_tensors": lambda d: h_histogramdd(d, "tensors"),
    "fake_quantize_per_tensor_affine_cachemask": lambda d: h_fake_quantize(d, "per_tensor"),
    "_fake_quantize_per_tensor_affine_cachemask_tensor_qparams":
        lambda d: h_fake_quantize(d, "tensor_qparams"),
    "fake_quantize_per_channel_affine_cachemask": lambda d: h_fake_quantize(d, "per_channel"),
    "_fake_quantize_learnable_per_tensor_affine":
        lambda d: h_fake_quantize(d, "learnable_per_tensor"),
    "_fake_quantize_learnable_per_channel_affine":
        lambda d: h_fake_quantize(d, "learnable_per_channel"),
    "linalg_vector_norm": h_vector_norm, "isin.Tensor_Tensor": h_isin,
    "isin.Tensor_Scalar": h_isin_scalar, "isin.Scalar_Tensor": h_isin_scalar_tensor, "_embedding_bag": h_embedding_bag,
    "_embedding_bag_forward_only": h_embedding_bag, "_trilinear": h_trilinear,
    "linalg_inv_ex": h_la_check, "_linalg_det": h_la_square, "_linalg_slogdet": h_la_square,
    "linalg_cholesky_ex": h_cholesky_ex, "cholesky.default": h_cholesky,
    "cholesky_inverse": h_cholesky_inverse, "cholesky_solve": h_cholesky_solve,
    "_linalg_solve_ex": h_linalg_solve, "linalg_lu_factor_ex": h_lu_factor, "linalg_lu.default": h_lu,
    "_linalg_eigh": h_eigh, "_linalg_svd": h_svd, "linalg_qr": h_qr,
    "linalg_solve_triangular": h_solve_triangular, "triangular_solve": h_triangular_solve,
    "lu_unpack": h_lu_unpack, "linalg_lu_solve": h_lu_solve, "linalg_ldl_factor_ex": h_ldl_factor,
    "linalg_ldl_solve": h_ldl_solve, "symeig": h_symeig, "geqrf": h_la_any,
    "linalg_householder_product": h_householder, "ormqr": h_ormqr, "linalg_lstsq": h_lstsq,
    "linalg_pinv.atol_rtol_tensor": h_pinv, "linalg_matrix_exp": h_matrix_exp,
    "max_unpool2d": lambda d: h_max_unpool(d, 2), "max_unpool3d": lambda d: h_max_unpool(d, 3),
    "upsample_nearest2d.vec": h_upsample, "upsample_bilinear2d.vec": h_upsample,
    "upsample_nearest2d.default": h_upsample_default,
    "upsample_bilinear2d.default": h_upsample_default,
    "log_sigmoid_forward": h_log_sigmoid, "im2col": h_im2col, "col2im": h_col2im, "grid_sampler_2d": h_grid_sampler, "grid_sampler_3d": h_grid_sampler_3d, "affine_grid_generator": h_affine_grid, "upsample_bicubic2d.vec": h_upsample, "upsample_bicubic2d.default": h_upsample_default,
    "upsample_nearest1d.vec": h_upsample1d, "upsample_linear1d.vec": h_upsample1d,
    "upsample_nearest1d.default": h_upsample1d_default,
    "upsample_linear1d.default": h_upsample1d_default,
    "upsample_nearest3d.vec": h_upsample3d, "upsample_trilinear3d.vec": h_upsample3d,
    "upsample_nearest3d.default": h_upsample3d_default,
    "upsample_trilinear3d.default": h_upsample3d_default,
    "_upsample_nearest_exact1d.vec": h_upsample1d,
    "_upsample_nearest_exact1d.default": h_upsample1d_default,
    "_upsample_nearest_exact2d.vec": h_upsample,
    "_upsample_nearest_exact2d.default": h_upsample_default,
    "_upsample_nearest_exact3d.vec": h_upsample3d,
    "_upsample_nearest_exact3d.default": h_upsample3d_default,
    "_upsample_bilinear2d_aa.vec": h_upsample_aa,
    "_upsample_bilinear2d_aa.default": h_upsample_aa_default,
    "_upsample_bicubic2d_aa.vec": h_upsample_aa,
    "_upsample_bicubic2d_aa.default": h_upsample_aa_default,
    "native_layer_norm": h_layer_norm, "native_group_norm": h_group_norm,
    "repeat": h_repeat, "flip": h_flip, "sort": h_sort, "sort.stable": h_sort_stable,
    "argsort.stable": h_argsort_stable, "topk": h_topk,
    "prelu": h_prelu, "glu": h_glu, "pixel_shuffle": h_pixel_shuffle, "pixel_unshuffle": h_pixel_unshuffle, "roll": h_roll, "reflection_pad2d": h_pad2d,
    "replication_pad2d": h_pad2d, "reflection_pad1d": h_pad1d, "replication_pad1d": h_pad1d,
    "reflection_pad3d": h_pad3d, "replication_pad3d": h_pad3d, "where.self": h_where, "where.ScalarOther": h_where,
    "where.ScalarSelf": h_where, "where.Scalar": h_where,
    "masked_fill.Tensor": h_masked_fill, "masked_fill_.Tensor": h_masked_fill,
    "masked_fill.Scalar": h_masked_fill_scalar, "masked_fill_.Scalar": h_masked_fill_scalar,
    "full": h_factory, "zeros": h_factory, "ones": h_factory, "new_full": h_factory,
    "new_zeros": h_factory, "new_ones": h_factory,
    "arange": h_arange, "arange.start": h_arange, "arange.start_step": h_arange,
    "gelu": h_gelu, "gelu_": h_gelu, "div.Tensor_mode": h_div_mode,
    "div.Scalar_mode": h_div_mode, "div_.Tensor_mode": h_div_mode,
    "div_.Scalar_mode": h_div_mode, "_to_copy": h_to_copy, "to.dtype_layout": h_to_copy,
    "to.dtype": h_memory_format, "to.device": h_memory_format, "clone": h_memory_format,
    "contiguous": h_memory_format, "zeros_like": h_memory_format, "ones_like": h_memory_format,
    "full_like": h_memory_format,
    "clamp.Tensor": h_clamp_tensor, "clamp_.Tensor": h_clamp_tensor,
    "unfold": h_unfold, "diagonal": h_diagonal, "diag_embed": h_diag_embed, "diag": h_diag,
    "trace": h_trace, "eye": h_eye, "eye.m": h_eye, "linspace": h_linspace,
    "logspace": h_linspace,
    "hann_window": h_window, "hamming_window": h_window, "bartlett_window": h_window,
    "blackman_window": h_window, "kaiser_window": h_window, "fft_fftfreq": h_fftfreq,
    "fft_rfftfreq": h_fftfreq, "range": h_range,
    "mse_loss": h_pointwise_loss, "smooth_l1_loss": h_pointwise_loss,
    "huber_loss": h_pointwise_loss, "binary_cross_entropy": h_bce,
    "soft_margin_loss": h_soft_margin,
    "binary_cross_entropy_with_logits": h_bce_logits,
    "nll_loss_forward": lambda d: h_nll(d, False), "nll_loss2d_forward": lambda d: h_nll(d, True),
    "multi_margin_loss": h_multi_margin, "multilabel_margin_loss_forward": h_multilabel_margin,
    "channel_shuffle": h_channel_shuffle, "_cdist_forward": h_cdist, "linalg_cross": h_cross,
    "_euclidean_dist": h_cdist,
    "lerp.Scalar": lambda d: h_lerp(d, False), "lerp_.Scalar": lambda d: h_lerp(d, False),
    "lerp.Tensor": lambda d: h_lerp(d, True), "lerp_.Tensor": lambda d: h_lerp(d, True),
    "_native_multi_head_attention": h_multi_head_attention,
    "_transformer_encoder_layer_fwd": h_transformer_encoder_layer,
}
for _name in ("airy_ai", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1",
              "modified_bessel_i0", "modified_bessel_i1", "modified_bessel_k0",
              "modified_bessel_k1", "scaled_modified_bessel_k0", "scaled_modified_bessel_k1",
              "spherical_bessel_j0"):
    HINTS["special_" + _name] = h_bessel
for _name in ("chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v",
              "chebyshev_polynomial_w", "shifted_chebyshev_polynomial_t",
              "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v",
              "shifted_chebyshev_polynomial_w", "hermite_polynomial_h", "hermite_polynomial_he",
              "laguerre_polynomial_l", "legendre_polynomial_p"):
    HINTS["special_%s.default" % _name] = h_poly
    HINTS["special_%s.x_scalar" % _name] = h_poly_x_scalar
    HINTS["special_%s.n_scalar" % _name] = h_poly_n_scalar


for _name in ("__lshift__", "__rshift__", "bitwise_left_shift", "bitwise_right_shift"):
    HINTS[_name + ".Tensor"] = lambda d: h_shift(d, "tt")
    HINTS[_name + ".Scalar"] = HINTS[_name + ".Tensor_Scalar"] = lambda d: h_shift(d, "ts")
    HINTS[_name + ".Scalar_Tensor"] = lambda d: h_shift(d, "st")


def hint_for(qualname):
    _, name, ovl = qualname.split(".")
    return HINTS.get("%s.%s" % (name, ovl)) or HINTS.get(name)


def generic(d, arg, first_nd):
    """A value for a schema argument the hints left open."""
    b = arg.base
    if arg.optional and d.chance(0.2):
        return None
    if b == "Tensor":
        if arg.is_list:
            return [d.tensor() for _ in range(d.r.randint(1, 3))]
        return d.tensor()
    if b in ("int", "SymInt"):
        if arg.is_list:
            if arg.name in ("size", "shape"):
                return size_list(d)
            return d.dims(first_nd) if arg.name == "dim" else [
                d.small_int(0, 3) for _ in range(arg.fixed or d.r.randint(0, 3))]
        if arg.name.startswith("dim"):
            return d.dim(first_nd)
        return d.small_int()
    if b == "Scalar":
        return d.scalar()
    if b == "float":
        if arg.is_list and arg.name == "range":  # histogram's
            return [d.pick([-1.0, 0.0, 0.5, 1.0, 2.0]) for _ in range(d.r.randint(0, 3))]
        return d.pick([1e-5, 0.0, 0.5, 1.0, 1e30])
    if b == "Generator":
        return None
    if arg.name == "pin_memory":
        # True is refused by a torch built without CUDA only ("Pinned memory
        # requires CUDA"); airc, like a CUDA build, takes it
        return d.pick([None, False])
    if b == "bool":
        return d.chance(0.5)
    if b == "str":
        return d.pick(["none", "tanh", "trunc", "floor", "mean"])
    if b == "ScalarType":
        return d.dtype_arg()
    if b == "Layout":
        return torch.strided
    if b == "Device":
        return torch.device("cpu")
    if b == "MemoryFormat":
        fmts = [torch.contiguous_format, torch.preserve_format]
        return d.pick(fmts + ([torch.channels_last] if first_nd == 4 else []))
    raise AssertionError("no generator for %s %s" % (b, arg.name))


def draw_args(qualname, args, d):
    """(positional values, kwarg dict) for one draw."""
    hint = hint_for(qualname)
    hinted = hint(d) if hint and not d.chance(WILD) else {}
    vals = {}
    first_nd = len(d.shape)
    for a in args:
        if a.name in hinted:
            vals[a.name] = hinted[a.name]
        else:
            vals[a.name] = generic(d, a, first_nd)
        v = vals[a.name]
        if isinstance(v, TSpec) and a is args[0]:
            first_nd = len(v.shape)
    pos, kw = [], {}
    # trailing defaulted positional arguments are left out now and then
    positional = [a for a in args if not a.kwarg_only]
    keep = len(positional)
    while keep and positional[keep - 1].has_default and \
            positional[keep - 1].name not in hinted and d.chance(0.3):
        keep -= 1
    for a in positional[:keep]:
        pos.append(vals[a.name])
    for a in args:
        if not a.kwarg_only:
            continue
        if (a.has_default or a.optional) and a.name not in hinted and d.chance(0.5):
            continue
        kw[a.name] = vals[a.name]
    return pos, kw


# ---------------------------------------------------------------- exclusions
# Draws where airc answers otherwise on purpose, or where torch's answer is
# an accident of its build or implementation, are drawn again (the op keeps
# its DRAWS cases). Each rule, by key, with why; main() prints how often
# each one fired.
EXCLUSIONS = {
    "kernel_gap":
        "torch's CPU kernels lack some dtypes (\"clamp_cpu\" not implemented for 'Bool', "
        "\"prod_cpu\" for 'BFloat16'): a gap of that build, not a rule of the op; airc may "
        "compute them, or refuse them in meta. On an empty (or, for cumsum, 0-dim) tensor "
        "torch never calls the kernel and so returns a result: airc refuses such a dtype "
        "whatever the shape. Also _softmax's half_to_float, which only torch's CUDA kernel "
        "does (\"not supported on CPU\"); airc computes it",
    "dynamic_cast_assert":
        "addcmul_ / addcdiv_ whose promoted dtype is not self's (f32 self, f64 tensor1): "
        "torch's CPU kernel trips an internal assert (\"needs_dynamic_casting ... please "
        "report a bug to PyTorch\"), a gap of its vectorized loop; airc computes in the "
        "promoted dtype and casts into self, as add_ does",
    "half_rounding":
        "f16/bf16 results where torch rounds an intermediate to the half type and airc, "
        "which computes in f32 and rounds once, differs by a half ulp (more than DESIGN's "
        "1e-4): torch's scalar (tail) path rounds where its vectorized one does not (bf16 "
        "rsqrt, gelu, pow(x, -0.5), a + alpha * b), its bf16 formulas round every step (silu, "
        "gelu tanh, pow(x, 3), logit, sinc: pi * x in bf16, next to a multiple of pi a "
        "large relative difference), its reductions, matrix products and softmax keep half "
        "intermediates. Found by recomputing the draw with f32 inputs: only the ops of "
        "HALF_ROUNDING_OPS, and only draws whose result differs (the torch rules airc does "
        "follow, such as numbers and alpha converted to the common dtype, division modes "
        "in half arithmetic, f16's rounded alpha * b, are checked by every other draw)",
    "welford_inf":
        "native_layer_norm, native_group_norm, var_mean and std_mean of a row holding inf or nan (or a layer norm "
        "weight or bias that does: the sign of a normalized zero depends on whether torch's "
        "build contracts x * scale + bias to an fma): torch's Welford "
        "update gives a mean of nan (inf - inf) or not depending on where the inf sits and "
        "on its vector lanes; airc's two-pass mean is the sum's (inf). Also a row holding a "
        "value of 1e15 or more: torch's statistics are in the input's float type (1e30 "
        "squared overflows f32 to nan, airc's are in double), and its x * rstd - rstd * mean "
        "cancels to the rounding residual of a product, which its build computes with an "
        "fma",
    "reshape_alias_numel":
        "_reshape_alias to a size of another numel: torch never checks (make_fx only emits "
        "it from reshape, where they agree); airc refuses it",
    "conv_int_double":
        "an integer slow_conv* forward or conv_tbc with an element above 2^20: airc computes "
        "the integer convolutions in double (eager slow_conv*, every max-autotune one: exact "
        "while the products and sums stay below 2^53); torch's integer GEMM wraps",
    "torch_int_overflow":
        "torch's own int64 arithmetic overflows: tril/triu's loop bound i + diagonal + 1 "
        "(|diagonal| >= 2^62: tril(x, INT64_MAX) zeroes everything), slice's stride * step "
        "(step >= 2^62: \"cannot be represented as a SymInt\"), pooling parameters cast to "
        "int (a stride of 2^62 becomes 0), pixel_shuffle's upscale_factor squared (2^32 "
        "squared is 0, and torch divides by it: SIGFPE), lcm of an int32 / int64 operand holding "
        "the type's minimum (gcd(INT64_MIN, INT64_MAX) is -1 in torch's wrapping abs, and "
        "INT64_MIN / -1 traps: SIGFPE; airc wraps)",
    "accumulation_error":
        "a sum, product, matrix product, convolution, softmax, norm or pooling whose "
        "rounding can exceed DESIGN's tolerance (1e30 and -1e30 cancelling in a sum: the "
        "result depends on the order of the terms), or whose f32 result is itself further "
        "from the f64 one than the tolerance: torch accumulates in its own order and type, "
        "airc in its own, often double",
    "storage_view":
        "as_strided and _reshape_alias of a non-contiguous input: torch addresses the "
        "storage under the view (elements the view skips included); airc's graph has no "
        "storages, only the input's own layout; as_strided_scatter into a view whose elements "
        "share memory (other than along a stride-0 dim, which torch refuses): which write "
        "lands last is torch's loop order",
    "bool_bytes":
        "view.dtype to bool of bytes other than 0 and 1: both torch and airc keep the bytes "
        "as they are, which torch's tolist reads as True and the case file as 1",
    "add_relu_nan":
        "_add_relu where self + alpha * other is NaN: torch 1.13's add_clamp gives NaN in its "
        "vectorized chunks and 0 in its scalar tail (std::max(NaN, 0)), so the answer depends "
        "on the element's place in the loop; airc keeps NaN",
    "gemm_alpha_zero":
        "addmm with alpha 0 and an inf or nan in mat1 or mat2: torch's naive gemm loops "
        "multiply the product by 0 (nan), the BLAS it calls for other sizes skips it",
    "gemm_nonfinite_scale":
        "addmm / baddbmm with an infinite or NaN alpha or beta: BLAS scales its own partial "
        "results, torch's naive loops each product, so where a product is 0 one gives "
        "0 * inf = nan and the other inf",
    "baddbmm_beta_zero":
        "baddbmm with beta 0: torch 1.13's CPU kernel multiplies its uninitialized result "
        "buffer by 0, so a NaN left in that memory shows up in some runs and not others; "
        "airc ignores self and the buffer, as beta 0 means",
    "padding_nan":
        "convolution with an inf or nan weight: torch's oneDNN kernel leaves out the taps "
        "that fall on the padding, airc multiplies them by its zeros (0 * nan is nan); "
        "its im2col kernels (_convolution's choice at times, the slow_conv* forwards) "
        "multiply padding zeros that airc's leave out",
    "upsample_exact_case":
        "upsample with scale factors where a dim keeps its size (or, nearest, doubles it) "
        "though its factor is not 1 (2): torch's kernels disagree there by layout (some copy "
        "the dim, others sample it at 1 / factor), so its answer depends on which kernel the "
        "input's strides pick; airc copies (output_size, or factors of 1 and 2, are exact "
        "and checked by every other draw)",
    "interp_nonfinite":
        "upsample_bilinear2d (linear1d, bicubic2d) of an input holding inf or nan: torch's "
        "kernels weigh the neighbours in several code paths (by layout and by which dims change), and whether a "
        "zero weight meets an inf (0 * inf is nan) depends on the path; airc has one",
    "group_norm_flat":
        "native_group_norm of a group whose values are all equal (a group of one value "
        "included): the exact result is the bias, torch's fused x * scale + shift with an fma "
        "leaves the rounding residual of a product scaled by rstd = 1 / sqrt(eps)",
    "space_lanes":
        "linspace / logspace whose values differ from torch's own scalar formula (start + "
        "step * i for the first half, end - step * (steps - 1 - i) for the second, the step "
        "and each operation in the dtype, integers truncated from double): torch's vectorized "
        "loop computes a chunk's lanes as its first value + j * step, so its last bits (an "
        "integer's truncation) depend on the SIMD width; airc computes the formula. So are "
        "histogram.bin_ct's edges, torch's linspace (its last edge below the range's end "
        "leaves the largest element out)",
    "selection_ties":
        "median / nanmedian / kthvalue of a line holding equal values (NaNs equal one "
        "another): torch's quickselect leaves which of the equal elements' index it returns "
        "open; airc's is the stable sorted order's. The values agree; the indices may not",
    "topk_order":
        "topk of a line holding equal values (NaNs equal one another, -0.0 equals 0.0), or "
        "with sorted=False and k > 1: torch's nth_element leaves the order of equal values "
        "(and, unsorted, of all k) to the C++ library; airc's topk is a stable sort, always "
        "sorted. The values agree; the indices may not",
    "elu_cancellation":
        "elu with |input_scale| below 1e-3 (celu with |alpha| above 1e3): torch computes exp(x * input_scale) - 1, which "
        "cancels to the last bits of its exp (then scaled by alpha * scale); airc computes "
        "expm1, the exact value, so the two differ by torch's rounding error",
    "norm_small_order":
        "norm or linalg_vector_norm with an order p of magnitude below 0.1: the result is the 1/p-th power of a "
        "sum near the element count, which multiplies torch's float rounding by 1/p; airc "
        "accumulates in double",
    "negative_size":
        "a padding of an empty batch that crops a dim below zero: torch 1.13 returns a "
        "tensor of negative size there (it refuses the same pads on a non-empty batch); "
        "airc refuses both",
    "index_copy_empty":
        "index_copy into an empty self by a non-empty index: torch 1.13 skips the copy for "
        "some shapes and, for a 1-dim self, fails restriding its empty storage; airc writes "
        "nothing and succeeds",
    "mask_index":
        "index.Tensor with a bool or uint8 index: the result's size is the count of true "
        "elements, known only when the graph runs; airc's graphs have static shapes and "
        "refuse it with a message (a unit test checks the refusal). index_put takes one "
        "mask as its only index; a mask beside other index tensors is refused",
    "torch2_rule":
        "airc follows a check torch >= 2.0 makes and 1.13 does not: index_select of a 0-dim "
        "tensor by more than one index (\"Index to scalar can have only 1 value\"), tril/triu "
        "of an empty tensor of fewer than 2 dims, masked_fill with a mask neither bool nor "
        "u8 (1.13's CPU kernel reads its bytes as a u8 mask)",
    "loss_reduction_alias":
        "soft_margin_loss with a reduction outside 0..2: torch's result is its unreduced loss "
        "resized in place to 0-dim (its first element, or uninitialized memory when empty); "
        "airc refuses such a reduction",
    "torch_memory_error":
        "torch 1.13's kernel reads or writes out of bounds, or divides by zero (SIGFPE), "
        "where airc refuses the draw or computes a defined result: _weight_norm_interface "
        "with g of other than v.size(dim) values, an empty normed dim, or a v or g that is "
        "not contiguous (torch's kernel indexes their storage as if it were); "
        "_pdist_forward of a self of more than 2 dims (read as [size(0), size(1)]); _stack "
        "of no tensors (torch reads the first one) or of a non-contiguous one (torch 1.13's "
        "serial stack kernel reads it as contiguous: wrong values, or a heap overflow); histc "
        "of a NaN inside a given range (its bin a cast of NaN to int64); "
        "multi_margin_loss with a weight of fewer elements than self has classes (torch "
        "reads weight[target] unchecked; airc refuses it) or not contiguous (torch reads its "
        "storage flat); _embedding_bag with decreasing offsets, include_last_offset with "
        "offsets[-1] other than the indices' count (torch sizes the last bag up to the end "
        "and writes past its buffers), no offsets but indices (bag -1: a crash), a mode outside 0..2 (a crash), indices or offsets not "
        "1-D or a weight not 2-D (read as if they were; airc refuses them), indices, offsets or "
        "per-sample weights not contiguous (their storage read flat); "
        "_upsample_bilinear2d_aa / _upsample_bicubic2d_aa.default with "
        "scales_h / scales_w whose 1 / scale puts an output's centre past the input (torch "
        "reads its first tap there unchecked; airc gives 0)",
    "mode_nan":
        "mode of a floating self holding NaN: torch's std::sort of (value, index) pairs "
        "meets comparisons NaN makes inconsistent, and its run count takes what that sort "
        "leaves; airc's kernel runs libstdc++'s introsort step for step and gives the same "
        "(checked by hand against torch over 2000 random lines), but the Ascend IR "
        "composite counts equal values, where NaN equals nothing",
    "rrelu_training":
        "rrelu_with_noise with training=True: torch draws a random slope per element; airc "
        "refuses it (it has no generator)",
    "histogram_unsorted":
        "histogram.bins_tensor of edges out of order: torch's std::upper_bound over them "
        "finds a bin it then writes outside its result",
    "histogramdd_zero_dims":
        "histogramdd of a self whose last dim is 0 (a 0-dim histogram): torch 1.13 crashes "
        "on it now and then (its kernels index the empty bins); airc gives torch's usual "
        "answer (no edges, a 0-dim zero count)",
    "histogramdd_short_bins":
        "_histogramdd_bin_edges / _from_bin_cts with fewer bin counts than self's last dim: "
        "torch 1.13 reads past the list (its bin counts are whatever memory holds); airc "
        "refuses",
    "index_reduce_unchecked":
        "index_reduce whose source slices do not broadcast into self's, where torch's CPU "
        "kernel does not check it (a self of one dim, whose loop reads source element by "
        "element, or an empty index); airc refuses, as torch's meta device does",
    "segment_unchecked":
        "segment_reduce whose lengths / offsets torch reads unchecked: leading dims other "
        "than data's, unsafe=True with lengths that do not cover data, offsets out of "
        "order or outside data (torch reads past its tensors, or crashes); airc refuses "
        "them",
    "isin_not_unique":
        "isin with assume_unique=True of elements or test elements that repeat a value: "
        "torch's sorting kernel then gives what it gives (documented as undefined); airc "
        "looks each element up. And a NaN in isin's sorting kernel (test elements at least "
        "10 * elements^0.145), which now and then finds a NaN element: NaN equals nothing, "
        "as torch's brute-force kernel has it",
    "trilinear_int_contraction":
        "_trilinear of an integer type narrower than int64 with a summed dim other than "
        "unroll_dim: torch's contraction sums a broadcast operand to int64 first and then "
        "fails on mixed types, or not, by the operands' sizes; airc sums in int64 and "
        "stores the result's type",
    "torch_sigfpe":
        "_native_multi_head_attention and _transformer_encoder_layer_fwd with num_heads 0: "
        "torch 1.13 computes embed_dim % num_heads unchecked and dies of SIGFPE (the "
        "generator with it); airc refuses the draw",
    "polygamma_order":
        "polygamma with an order n of 2^31 or more: torch computes n + 1 in int64 (INT64_MAX "
        "wraps) and n! and zeta(n + 1, x) in the input's float type, where such an n is "
        "not exact, and gets inf, -inf or NaN by which overflow comes first; airc's order "
        "is exact",
    "matrix_exp_nonfinite":
        "linalg_matrix_exp of a matrix (2x2 or larger) holding inf or NaN: torch 1.13 picks "
        "each matrix's polynomial by comparing its norm with the degrees' bounds, and a NaN "
        "norm matches none, an infinite one scales by an int64 2^inf: the result is "
        "uninitialized memory (newer torch fills it with NaN, as airc does)",
    "lapack_nonfinite":
        "the LAPACK-backed linear algebra of a matrix holding inf, NaN or a magnitude of "
        "1e30 (whose squares overflow f32): where the NaN and inf go is an accident of "
        "the routine's blocking and of which triangle or transpose it was handed; airc's "
        "CPU kernels call torch's routines with torch's layouts and match, but the "
        "max-autotune lowering's device ops order the arithmetic their own way",
    "unchecked_read":
        "fractional_max_pool2d|3d and _ctc_loss arguments torch 1.13 does not check and reads "
        "outside its tensors with: a fractional pool's samples fewer than N C sp, not "
        "contiguous (read flat from storage) or outside [0, 1) (windows past the input); "
        "_ctc_loss's input length below 1 or negative target length (reads before "
        "log_alpha), a target outside [0, C) (outside log_probs): torch returns what memory "
        "holds, airc fails with a message",
    "ctc_strided_targets":
        "_ctc_loss of 1-d (concatenated) targets that are not contiguous: torch 1.13 starts "
        "each batch's targets at their element count, not that many strides (a bug of its "
        "CPU kernel), so it reads other targets; airc reads the targets it is given",
    "ctc_log_alpha_size":
        "_ctc_loss.Tensor whose longest target length differs from targets' padded length "
        "(1-d: their count): torch sizes log_alpha by the lengths' values, which airc's meta "
        "cannot read; airc sizes it by targets and fails at run time",
    "loss_uninitialized":
        "multi_margin_loss and multilabel_margin_loss_forward of an empty self with a "
        "reduction other than 0: torch returns its 0-dim result uninitialized (it never "
        "runs its kernel); airc gives the sum 0 (mean: NaN)",
}

# Ops whose half-precision results may carry torch's intermediate rounding
# ("half_rounding"), by name without the overload or trailing "_", and the
# result dtypes concerned.
HALF = ("f16", "bf16")
HALF_ROUNDING_OPS = {
    "linalg_matrix_exp": ("bf16",),
    "rsqrt": HALF, "gelu": HALF, "silu": HALF, "pow": ("bf16",),
    "add": ("bf16",), "sub": ("bf16",), "rsub": ("bf16",),
    "softmax": HALF, "log_softmax": HALF, "_softmax": HALF, "_log_softmax": HALF,
    "mm": HALF, "bmm": HALF, "addmm": HALF, "_addmm_activation": HALF, "baddbmm": HALF, "matmul": HALF, "linear": HALF,
    "addbmm": HALF, "addmv": HALF, "addr": HALF, "index_add": HALF,
    "mv": HALF, "dot": HALF, "vdot": HALF, "dist": HALF, "norm": HALF, "embedding_renorm": HALF,
    "_masked_softmax": HALF, "_compute_linear_combination": HALF,
    "convolution": HALF, "_convolution": HALF, "_slow_conv2d_forward": HALF,
    "slow_conv3d_forward": HALF, "slow_conv_dilated2d": HALF, "slow_conv_dilated3d": HALF,
    "conv_tbc": HALF, "native_layer_norm": HALF, "var": HALF, "var_mean": HALF,
    "sum": HALF, "nansum": HALF, "mean": HALF, "prod": HALF, "cumsum": HALF, "cumprod": HALF,
    "avg_pool2d": HALF, "adaptive_avg_pool2d": HALF, "_adaptive_avg_pool2d": HALF,
    "_adaptive_avg_pool3d": HALF,
    "upsample_bilinear2d": ("bf16",), "upsample_linear1d": ("bf16",),
    "upsample_bicubic2d": ("bf16",), "upsample_trilinear3d": ("bf16",),
    "affine_grid_generator": HALF, "xlogy": HALF, "special_xlog1py": ("bf16",),
    "polygamma": ("bf16",), "special_i0e": ("bf16",), "special_entr": ("bf16",),
    "logaddexp": HALF, "soft_margin_loss": HALF, "binary_cross_entropy": HALF,
    "histc": ("bf16",), "index_reduce": HALF, "mvlgamma": ("bf16",), "segment_reduce": HALF,
    "native_group_norm": HALF, "norm": HALF, "linalg_vector_norm": HALF, "_embedding_bag": HALF, "_trilinear": HALF,
    "_embedding_bag_forward_only": HALF, "std_mean": HALF,
    "logsumexp": HALF, "glu": HALF, "prelu": HALF, "logit": ("bf16",), "sinc": ("bf16",),
    "mse_loss": HALF, "smooth_l1_loss": HALF, "huber_loss": HALF,
    "binary_cross_entropy_with_logits": HALF, "nll_loss_forward": HALF,
    "nll_loss2d_forward": HALF, "linalg_cross": HALF, "_cdist_forward": HALF,
    "_euclidean_dist": HALF, "_native_multi_head_attention": ("bf16",),
    "_transformer_encoder_layer_fwd": ("bf16",),
}


class Excluded(Exception):
    """A draw an EXCLUSIONS rule takes out (its key in args[0])."""


def base_name(qualname):
    name = qualname.split(".")[1]
    return name[:-1] if name.endswith("_") and name != "_" else name


def arg_value(qualname, args, pos, kw, name):
    """The drawn value of argument `name` (None when left out)."""
    for i, a in enumerate(a for a in args if not a.kwarg_only):
        if a.name == name:
            return pos[i] if i < len(pos) else None
    return kw.get(name)


def fractional_unchecked(val, sp):
    """fractional_max_pool arguments torch 1.13 reads unchecked (EXCLUSIONS
    unchecked_read)."""
    x, rs = val("self"), val("random_samples")
    if not isinstance(x, TSpec) or not isinstance(rs, TSpec):
        return False
    planes = numel(x.shape[:-sp])
    return numel(rs.shape) < planes * sp or rs.layout != "c" or any(
        not (isinstance(v, float) and 0 <= v < 1) for v in rs.values[:planes * sp])


def ctc_lengths(v):
    if isinstance(v, TSpec):
        return [int(x) for x in v.values] if v.dtype in ("i64", "i32", "i16", "i8", "u8") \
            else None
    return v if isinstance(v, list) else None


def ctc_unchecked(val):
    """_ctc_loss arguments that pass torch 1.13's checks but make it read
    outside its tensors (EXCLUSIONS unchecked_read)."""
    lp, tg = val("log_probs"), val("targets")
    il, tl = ctc_lengths(val("input_lengths")), ctc_lengths(val("target_lengths"))
    if not isinstance(lp, TSpec) or not isinstance(tg, TSpec) or il is None or tl is None or \
            len(lp.shape) != 3 or len(tg.shape) not in (1, 2) or \
            len(il) != lp.shape[1] or len(tl) != lp.shape[1]:
        return False
    if any(i < 1 for i in il) or any(t < 0 for t in tl):
        return True
    C = lp.shape[2]
    if len(tg.shape) == 1:
        if tg.shape[0] != sum(tl):
            return False
        used = tg.values
    else:
        if tg.shape[0] != len(tl) or tg.shape[1] < max(tl, default=0):
            return False
        used = [tg.values[b * tg.shape[1] + j] for b in range(len(tl)) for j in range(tl[b])]
    return any(not 0 <= int(v) < C for v in used)


def ctc_defined(res, args):
    """torch's _ctc_loss leaves log_alpha's cells past a batch's input length
    or 2 target lengths + 1 unwritten: airc's -inf there."""
    nll, alpha = res
    il, tl = (a.tolist() if isinstance(a, torch.Tensor) else a for a in args)
    alpha = alpha.clone()
    for b in range(alpha.shape[0]):
        alpha[b, il[b]:] = float("-inf")
        alpha[b, :, 2 * tl[b] + 1:] = float("-inf")
    return nll, alpha


def embedding_bag_unchecked(val):
    """_embedding_bag arguments torch 1.13 passes its checks but reads
    unchecked (EXCLUSIONS torch_memory_error)."""
    w, i, o = val("weight"), val("indices"), val("offsets")
    if not all(isinstance(t, TSpec) for t in (w, i, o)) or \
            w.dtype not in ("f16", "f32", "f64") or i.dtype not in ("i32", "i64") or \
            o.dtype not in ("i32", "i64"):
        return False  # torch refuses it first
    mode = val("mode") if val("mode") is not None else 0
    offs = [int(v) for v in o.values]
    psw = val("per_sample_weights")
    # (and a one-column weight laid out otherwise: torch's choice of
    # path, which sizes offset2bag, reads the stride of that size-1 dim,
    # which the sweep's layouts do not pin)
    return len(w.shape) != 2 or (w.shape[1] == 1 and w.layout != "c") or i.layout != "c" or o.layout != "c" or \
        (isinstance(psw, TSpec) and psw.layout != "c") or len(i.shape) != 1 or \
        len(o.shape) != 1 or \
        not isinstance(mode, int) or mode not in (0, 1, 2) or \
        any(b < a for a, b in zip(offs, offs[1:])) or (not offs and numel(i.shape)) or \
        (val("include_last_offset") is True and offs and offs[-1] != numel(i.shape))


LAPACK_OPS = {"linalg_inv_ex", "_linalg_det", "_linalg_slogdet", "linalg_cholesky_ex",
              "cholesky", "cholesky_inverse", "cholesky_solve", "linalg_lu_factor_ex",
              "linalg_lu", "_linalg_solve_ex", "_linalg_eigh", "_linalg_svd", "linalg_qr",
              "linalg_solve_triangular", "triangular_solve", "linalg_pinv", "lu_unpack",
              "linalg_lu_solve", "linalg_ldl_factor_ex", "linalg_ldl_solve", "symeig", "geqrf",
              "linalg_householder_product", "ormqr", "linalg_lstsq", "_cholesky_solve_helper"}


def exclude_before(qualname, args, pos, kw):
    """Rules decided by the arguments alone."""
    name = base_name(qualname)
    val = lambda n: arg_value(qualname, args, pos, kw, n)
    if name == "segment_reduce" and isinstance(val("data"), TSpec):
        x = val("data")
        seg = val("offsets") if isinstance(val("offsets"), TSpec) else val("lengths")
        ax = val("axis") if isinstance(val("axis"), int) else 0
        nd = len(x.shape)
        if isinstance(seg, TSpec) and nd and -nd <= ax < nd and len(seg.shape) == (ax % nd) + 1:
            ax %= nd
            per = seg.shape[-1] if seg.shape else 1
            rows = [seg.values[i:i + per] for i in range(0, len(seg.values), per)] if per else []
            size = x.shape[ax]
            if seg is val("offsets"):
                bad = any(any(b < a for a, b in zip(r, r[1:])) or
                          (r and (r[0] < 0 or r[-1] > size)) for r in rows)
            else:
                bad = val("unsafe") is True and any(sum(r) != size or min(r + [0]) < 0
                                                     for r in rows)
            if seg.shape[:-1] != x.shape[:ax] or bad:
                raise Excluded("segment_unchecked")
    if name == "mode" and isinstance(val("self"), TSpec) and \
            any(isinstance(x, float) and math.isnan(x) for x in val("self").values):
        raise Excluded("mode_nan")
    if name == "rrelu_with_noise" and val("training") is True:
        raise Excluded("rrelu_training")
    if qualname == "aten.histogram.bins_tensor" and isinstance(val("bins"), TSpec) and \
            any(not (a <= b) for a, b in zip(val("bins").values, val("bins").values[1:])):
        raise Excluded("histogram_unsorted")
    if name == "_histogramdd_from_bin_tensors" and isinstance(val("bins"), list) and any(
            isinstance(b, TSpec) and any(not (p <= q) for p, q in zip(b.values, b.values[1:]))
            for b in val("bins")):
        raise Excluded("histogram_unsorted")
    if name in ("_histogramdd_bin_edges", "_histogramdd_from_bin_cts") and \
            isinstance(val("self"), TSpec) and len(val("self").shape) >= 2 and \
            isinstance(val("bins"), list) and len(val("bins")) < val("self").shape[-1]:
        raise Excluded("histogramdd_short_bins")
    if name.startswith("_histogramdd") and isinstance(val("self"), TSpec) and \
            len(val("self").shape) >= 2 and val("self").shape[-1] == 0:
        raise Excluded("histogramdd_zero_dims")
    if name == "index_reduce" and all(isinstance(val(k), TSpec) for k in ("self", "index",
                                                                          "source")) and \
            isinstance(val("dim"), int):
        x, src = val("self").shape, val("source").shape
        nd = max(len(x), 1)
        wd = val("dim") % nd if -nd <= val("dim") < nd else None
        if wd is not None and (len(x) <= 1 or numel(val("index").shape) == 0):
            xs = [v for i, v in enumerate(x) if i != wd]
            ss = [v for i, v in enumerate(src) if i != wd]
            fits = len(ss) <= len(xs) and all(b in (1, a) for a, b in
                                               zip(xs[len(xs) - len(ss):], ss))
            if not fits:
                raise Excluded("index_reduce_unchecked")
    if name == "isin" and isinstance(val("test_elements"), TSpec) and \
            numel(val("test_elements").shape) >= 10 * numel(
                val("elements").shape if isinstance(val("elements"), TSpec) else []) ** 0.145 and \
            any(isinstance(v, TSpec) and any(isinstance(x, float) and math.isnan(x)
                                             for x in v.values)
                for v in (val("elements"), val("test_elements"))):
        raise Excluded("isin_not_unique")
    if name == "isin" and val("assume_unique") is True and any(
            isinstance(v, TSpec) and len(set(map(str, v.values))) != len(v.values)
            for v in (val("elements"), val("test_elements"))):
        raise Excluded("isin_not_unique")
    if name == "linalg_matrix_exp" and isinstance(val("self"), TSpec) and \
            len(val("self").shape) >= 2 and val("self").shape[-1] >= 2 and \
            any(isinstance(x, float) and not math.isfinite(x) for x in val("self").values):
        raise Excluded("matrix_exp_nonfinite")
    if name in LAPACK_OPS and any(
            isinstance(v, TSpec) and any(isinstance(x, float) and not abs(x) < 1e30
                                         for x in v.values)
            for v in (val(n) for n in ("A", "self", "B", "input2", "input3", "b", "LU", "LD",
                                        "LU_data", "input", "tau"))):
        raise Excluded("lapack_nonfinite")
    if name == "polygamma" and isinstance(val("n"), int) and val("n") >= 2**31:
        raise Excluded("polygamma_order")
    if name == "lcm" and any(isinstance(v, TSpec) and v.dtype in ("i32", "i64") and
                             min(v.values, default=0) == (-2**31 if v.dtype == "i32" else -2**63)
                             for v in (val("self"), val("other"))):
        raise Excluded("torch_int_overflow")
    if name == "_trilinear" and isinstance(val("i1"), TSpec) and \
            val("i1").dtype in ("i32", "i16", "i8", "u8") and isinstance(val("sumdim"), list) and \
            any(s != (val("unroll_dim") if val("unroll_dim") is not None else 1)
                for s in val("sumdim")):
        raise Excluded("trilinear_int_contraction")
    if name in ("fractional_max_pool2d", "fractional_max_pool3d") and \
            fractional_unchecked(val, int(name[-2])):
        raise Excluded("unchecked_read")
    if name == "embedding_renorm" and isinstance(val("self"), TSpec) and \
            val("self").dtype != "f64" and isinstance(val("norm_type"), float) and \
            val("norm_type") > 0 and not math.isinf(val("norm_type")) and any(
                isinstance(v, float) and math.isfinite(v) and v != 0 and
                val("norm_type") * math.log(abs(v)) > math.log(3.4e38)
                for v in val("self").values):
        raise Excluded("accumulation_error")  # torch's float norm overflows, double's not
    if name == "_ctc_loss" and ctc_unchecked(val):
        raise Excluded("unchecked_read")
    if name == "_ctc_loss" and isinstance(val("targets"), TSpec) and \
            len(val("targets").shape) == 1 and val("targets").layout != "c":
        raise Excluded("ctc_strided_targets")
    if qualname == "aten._ctc_loss.Tensor" and isinstance(val("targets"), TSpec) and \
            ctc_lengths(val("target_lengths")) is not None and \
            len(val("targets").shape) in (1, 2) and \
            max(ctc_lengths(val("target_lengths")), default=0) != val("targets").shape[-1]:
        raise Excluded("ctc_log_alpha_size")
    if name in ("_embedding_bag", "_embedding_bag_forward_only") and \
            embedding_bag_unchecked(val):
        raise Excluded("torch_memory_error")
    if name == "_stack" and (not val("tensors") or any(
            isinstance(t, TSpec) and t.layout != "c" for t in val("tensors"))):
        raise Excluded("torch_memory_error")
    if name in ("_native_multi_head_attention", "_transformer_encoder_layer_fwd") and \
            (val("num_head") if name[1] == "n" else val("num_heads")) == 0:
        raise Excluded("torch_sigfpe")
    if name == "_reshape_alias" and isinstance(val("self"), TSpec) and \
            isinstance(val("size"), list) and numel(val("size")) != numel(val("self").shape):
        raise Excluded("reshape_alias_numel")
    if name in ("tril", "triu") and isinstance(val("diagonal"), int) and \
            abs(val("diagonal")) >= 2**62:
        raise Excluded("torch_int_overflow")
    if name == "_pdist_forward" and isinstance(val("self"), TSpec) and len(val("self").shape) > 2:
        raise Excluded("torch_memory_error")
    if name in ("_upsample_bilinear2d_aa", "_upsample_bicubic2d_aa") and \
            qualname.endswith(".default") and val("align_corners") is not True and \
            isinstance(val("self"), TSpec) and len(val("self").shape) == 4 and \
            isinstance(val("output_size"), list) and len(val("output_size")) == 2:
        for i, k in enumerate(("scales_h", "scales_w")):
            f, o = val(k), val("output_size")[i]
            if isinstance(f, (int, float)) and f > 0 and isinstance(o, int) and \
                    o / f > val("self").shape[2 + i] * (1 + 1e-9):
                raise Excluded("torch_memory_error")
    if name == "histc" and isinstance(val("self"), TSpec) and \
            (val("min") or 0) != (val("max") or 0) and \
            any(isinstance(v, float) and math.isnan(v) for v in val("self").values):
        raise Excluded("torch_memory_error")
    if name == "soft_margin_loss" and isinstance(val("reduction"), int) and \
            val("reduction") not in (0, 1, 2):
        raise Excluded("loss_reduction_alias")
    if name in ("multi_margin_loss", "multilabel_margin_loss_forward") and \
            isinstance(val("self"), TSpec) and numel(val("self").shape) == 0 and \
            val("reduction") != 0:
        raise Excluded("loss_uninitialized")
    if name == "multi_margin_loss" and isinstance(val("weight"), TSpec) and \
            isinstance(val("self"), TSpec) and (val("weight").layout != "c" or numel(
                val("weight").shape) < (val("self").shape[-1:] or [1])[0]):
        raise Excluded("torch_memory_error")
    if name == "baddbmm" and val("beta") == 0:
        raise Excluded("baddbmm_beta_zero")
    if name == "_weight_norm_interface" and isinstance(val("v"), TSpec) and \
            isinstance(val("g"), TSpec) and isinstance(val("dim") or 0, int):
        v, dim = val("v").shape, val("dim") or 0
        if dim in (0, len(v) - 1) and (not v or v[dim] == 0 or numel(val("g").shape) != v[dim]
                                       or val("v").layout != "c" or val("g").layout != "c"):
            raise Excluded("torch_memory_error")
    if name in ("linspace", "logspace") and val("dtype") == torch.bool:
        raise Excluded("kernel_gap")  # torch returns an empty one, never calling its kernel
    if name in ("addmm", "_addmm_activation", "baddbmm", "addbmm", "addmv") and any(
            isinstance(val(p), float) and not math.isfinite(val(p)) for p in ("alpha", "beta")):
        raise Excluded("gemm_nonfinite_scale")
    if name == "pixel_shuffle" and isinstance(val("upscale_factor"), int) and \
            abs(val("upscale_factor")) >= 3037000500:
        raise Excluded("torch_int_overflow")
    if name == "slice" and isinstance(val("step"), int) and val("step") >= 2**62:
        raise Excluded("torch_int_overflow")
    if name in ("upsample_nearest2d", "upsample_bilinear2d", "upsample_nearest1d",
                "upsample_linear1d", "upsample_nearest3d", "upsample_trilinear3d") and \
            isinstance(val("scale_factors"), list) and isinstance(val("input"), TSpec):
        x = val("input")
        sp = int(name[-2])
        for d, f in enumerate(val("scale_factors")[:sp]):
            n = x.shape[2 + d] if len(x.shape) == 2 + sp else 0
            if (int(n * f) == n and f != 1) or \
                    (name.startswith("upsample_nearest") and int(n * f) == 2 * n and f != 2):
                raise Excluded("upsample_exact_case")
    if name in ("avg_pool2d", "max_pool2d_with_indices", "avg_pool3d",
                "max_pool3d_with_indices") and any(
            isinstance(v, int) and abs(v) >= 2**31
            for p in ("kernel_size", "stride", "padding", "dilation")
            for v in (val(p) if isinstance(val(p), list) else [val(p)])):
        raise Excluded("torch_int_overflow")
    if name in ("as_strided", "_reshape_alias") and isinstance(val("self"), TSpec) and \
            val("self").layout != "c":
        raise Excluded("storage_view")
    if name == "as_strided_scatter" and isinstance(val("size"), list) and \
            isinstance(val("stride"), list) and len(val("size")) == len(val("stride")) and \
            all(isinstance(v, int) and 0 < v < 64 for v in val("size")) and \
            all(isinstance(v, int) and v > 0 for v in val("stride")):
        # elements of the view that share memory, but for a stride-0 dim
        # (which torch refuses): torch's order of the writes is its own
        spots = [0]
        for n_, s_ in zip(val("size"), val("stride")):
            spots = [p + i * s_ for p in spots for i in range(n_)]
        if len(set(spots)) != len(spots):
            raise Excluded("storage_view")
    order = val("p") if name in ("norm", "dist") else val("ord") if name == "linalg_vector_norm" \
        else None
    if isinstance(order, (int, float)) and 0 < abs(order) < 0.1:
        raise Excluded("norm_small_order")
    if name == "index_copy" and isinstance(val("self"), TSpec) and \
            isinstance(val("index"), TSpec) and numel(val("self").shape) == 0 and \
            numel(val("index").shape) > 0:
        raise Excluded("index_copy_empty")
    if name == "elu" and isinstance(val("input_scale"), (int, float)) and \
            abs(val("input_scale")) < 1e-3:
        raise Excluded("elu_cancellation")
    if name == "celu" and isinstance(val("alpha"), (int, float)) and abs(val("alpha")) > 1e3:
        raise Excluded("elu_cancellation")  # celu is elu(x, alpha, 1, 1 / alpha)
    if name == "index" and isinstance(val("indices"), list) and any(
            isinstance(t, TSpec) and t.dtype in ("b8", "u8") for t in val("indices")):
        raise Excluded("mask_index")
    if name == "index_put" and isinstance(val("indices"), list) and any(
            isinstance(t, TSpec) and t.dtype in ("b8", "u8") for t in val("indices")) and \
            sum(isinstance(t, TSpec) for t in val("indices")) > 1:
        raise Excluded("mask_index")
    if name in ("masked_fill", "masked_scatter") and isinstance(val("mask"), TSpec) and \
            val("mask").dtype not in ("b8", "u8"):
        raise Excluded("torch2_rule")
    if name == "index_select" and isinstance(val("self"), TSpec) and \
            isinstance(val("index"), TSpec) and not val("self").shape and \
            numel(val("index").shape) != 1:
        raise Excluded("torch2_rule")


def upcast(v):
    """v with f16/bf16 tensors as f32 copies (other tensors copied), half
    dtype arguments as f32."""
    if isinstance(v, torch.Tensor):
        return v.float() if v.dtype in (torch.float16, torch.bfloat16) else v.clone()
    if v in (torch.float16, torch.bfloat16):
        return torch.float32
    if isinstance(v, list):
        return [upcast(x) for x in v]
    return v


def same_bits(a, b):
    if a.shape != b.shape:
        return False
    a, b = a.double(), b.double()
    return bool(((a == b) | (a.isnan() & b.isnan())).all())


REDUCTIONS = ("sum", "nansum", "mean", "prod", "cumsum", "norm")


def half_reference(qualname, fn, t_pos, t_kw, res=None):
    """The draw recomputed with f32 in place of the half types, as airc
    computes it (None when the op is not in HALF_ROUNDING_OPS or torch
    refuses). Reductions are recomputed after the call (res: torch's
    result): self converts to the result dtype first (dtype=), and a
    mean is its sum rounded to the result dtype, then divided."""
    name = base_name(qualname)
    if name not in HALF_ROUNDING_OPS or (name in REDUCTIONS) != (res is not None):
        return None
    try:
        if name == "addmv" and t_pos[0].dtype != t_pos[1].dtype:
            t_pos = [t_pos[0].to(t_pos[1].dtype)] + list(t_pos[1:])  # self converts first
        if res is None:
            return undefined_to_empty(
                fn(*[upcast(v) for v in t_pos], **{k: upcast(v) for k, v in t_kw.items()}))
        x = t_pos[0]
        if res.dtype.is_floating_point and x.dtype != res.dtype:
            x = x.to(res.dtype)
        pos = [upcast(x)] + [upcast(v) for v in t_pos[1:]]
        kw = {k: upcast(v) for k, v in t_kw.items()}
        if name != "mean" or res.numel() == 0 or x.numel() == 0:
            return fn(*pos, **kw)
        total = (A.sum.default if qualname.endswith(".default") else A.sum.dim_IntList)(*pos, **kw)
        return total.to(res.dtype).float() / (x.numel() // res.numel())
    except (RuntimeError, IndexError, ValueError, TypeError):
        return None


# Ops that accumulate: an f32 result further from the f64 one than
# DESIGN's tolerance is torch's own rounding ("accumulation_error").
ACCUMULATING_OPS = ("sum", "nansum", "mean", "prod", "cumsum", "cumprod", "var", "var_mean", "std_mean", "mm",
                    "bmm", "addbmm", "addmv",
                    "addmm", "_addmm_activation", "baddbmm", "matmul", "linear", "convolution", "native_layer_norm", "softmax",
                    "log_softmax", "_softmax", "_log_softmax", "avg_pool2d", "adaptive_avg_pool2d",
                    "_adaptive_avg_pool2d", "avg_pool3d", "_adaptive_avg_pool3d",
                    "_native_multi_head_attention", "_transformer_encoder_layer_fwd")


def upcast64(v):
    if isinstance(v, torch.Tensor):
        return v.double() if v.is_floating_point() else v.clone()
    if v in (torch.float16, torch.bfloat16, torch.float32):
        return torch.float64
    if isinstance(v, list):
        return [upcast64(x) for x in v]
    return v


def finite_max(t):
    f = t.double()[torch.isfinite(t.double())].abs()
    return f.max().item() if f.numel() else 0.0


def ill_conditioned(tensors, outs):
    """Whether a sum's rounding can exceed DESIGN's tolerance: its terms'
    bound (the count times the product of the float inputs' largest
    magnitudes, 1e30 and -1e30 cancelling) times the result type's epsilon
    against 1e-4 * (1 + the result's largest magnitude)."""
    floats = [t for t in tensors if t.is_floating_point() and t.numel()]
    bound = float(sum(t.numel() for t in floats))
    for t in floats:
        bound *= max(1.0, finite_max(t))
    for o in outs:
        if o.dtype in (torch.float32, torch.float64) and o.numel():
            eps = 2.0**-24 if o.dtype == torch.float32 else 2.0**-53
            if bound * eps > 1e-4 * (1 + finite_max(o)):
                return True
    return False


def within_tolerance(got, want):
    """DESIGN.md's tolerance (testcase.c's airc_test_same_values)."""
    if got.shape != want.shape:
        return False
    g, w = got.double(), want.double()
    finite = w[torch.isfinite(w)]
    atol = 1e-4 * (1 + (finite.abs().max().item() if finite.numel() else 0))
    ok = (g == w) | (g.isnan() & w.isnan()) | ((g - w).abs() <= atol + 1e-4 * w.abs())
    return bool(ok.all())


def space_formula(name, start, end, steps, base, dtype):
    """linspace / logspace by torch's scalar formula (what airc computes)."""
    integral = not dtype.is_floating_point
    conv = (lambda v: float(v)) if integral and name == "logspace" else \
        (lambda v: int(v)) if integral else \
        (lambda v: torch.tensor(v, dtype=torch.float64).to(dtype).double().item())
    ct = None if integral else torch.float32 if name == "logspace" and dtype in (
        torch.float16, torch.bfloat16) else dtype
    r = (lambda v: v) if ct is None else \
        (lambda v: torch.tensor(v, dtype=torch.float64).to(ct).double().item())
    try:
        s, e = conv(start), conv(end)
    except (OverflowError, ValueError):
        return None
    if name == "logspace" and not integral:
        base = conv(base)
    out = []
    for i in range(steps):
        if steps == 1:
            x = s
        else:
            step = r(r(e - s) / (steps - 1))
            x = r(s + r(step * r(i))) if i < steps // 2 else r(e - r(step * r(steps - i - 1)))
        if name == "logspace":
            try:
                x = float(base) ** x
            except (OverflowError, ZeroDivisionError):
                return None
        out.append(x)
    return torch.tensor(out, dtype=torch.float64).to(dtype)


def exclude_after(qualname, fn, t_pos, t_kw, res, ref):
    """Rules decided by torch's result (res: a tensor, tuple or list)."""
    name = base_name(qualname)
    if name in ("linspace", "logspace") and isinstance(res, torch.Tensor):
        args = list(t_pos) + [None] * 4
        get = lambda i, k, dflt: t_kw.get(k, args[i] if args[i] is not None else dflt)
        want = space_formula(name, get(0, "start", 0), get(1, "end", 0), res.numel(),
                             get(3, "base", 10.0), res.dtype)
        if want is None or not bool(((want == res) | (want.isnan() & res.isnan())).all()):
            raise Excluded("space_lanes")
    if name in ("_histogramdd_bin_edges", "_histogramdd_from_bin_cts") and res is not None:
        # its edges are torch's linspace: the same lanes rule, dim by dim
        x = t_kw.get("self", t_pos[0] if t_pos else None)
        bins = t_kw.get("bins", t_pos[1] if len(t_pos) > 1 else None)
        rng = t_kw.get("range")
        edges = res if name == "_histogramdd_bin_edges" else A._histogramdd_bin_edges(
            x, bins, range=rng)
        for dim, e in enumerate(edges):
            col = x.reshape(-1, x.shape[-1])[:, dim]
            lo, hi = (rng[2 * dim], rng[2 * dim + 1]) if rng else \
                (col.min().item(), col.max().item()) if col.numel() else (0.0, 1.0)
            if lo == hi:
                lo, hi = lo - 0.5, hi + 0.5
            want = space_formula("linspace", lo, hi, e.numel(), 10.0, e.dtype)
            if want is None or not bool(((want == e) | (want.isnan() & e.isnan())).all()):
                raise Excluded("space_lanes")
    if qualname == "aten.histogram.bin_ct" and isinstance(res, (tuple, list)):
        # its edges are torch's linspace: the same lanes rule
        edges, x = res[1], t_pos[0]
        rng = t_kw.get("range")
        lo, hi = (rng[0], rng[1]) if rng else (x.min().item(), x.max().item()) if x.numel() \
            else (0.0, 1.0)
        if lo == hi:
            lo, hi = lo - 0.5, hi + 0.5
        want = space_formula("linspace", lo, hi, edges.numel(), 10.0, edges.dtype)
        if want is None or not bool(((want == edges) | (want.isnan() & edges.isnan())).all()):
            raise Excluded("space_lanes")
    tensors = [v for v in t_pos + list(t_kw.values()) if isinstance(v, torch.Tensor)]
    tensors += [x for v in t_pos if isinstance(v, list) for x in v if isinstance(x, torch.Tensor)]
    if any(t.numel() == 0 or t.dim() == 0 for t in tensors):
        # probe: the same call on non-empty tensors of the same dtypes
        def grow(v):
            if isinstance(v, torch.Tensor):
                return torch.ones([max(n, 1) for n in v.shape] or [1], dtype=v.dtype)
            return [grow(x) for x in v] if isinstance(v, list) else v
        try:
            fn(*[grow(v) for v in t_pos], **{k: grow(v) for k, v in t_kw.items()})
        except (RuntimeError, IndexError, ValueError, TypeError) as e:
            if "not implemented for" in str(e):
                raise Excluded("kernel_gap")
    if name in ("native_layer_norm", "native_group_norm", "var_mean", "std_mean") and \
            tensors[0].is_floating_point():
        x = tensors[0]
        if not bool((torch.isfinite(x) & (x.double().abs() < 1e15)).all()) or \
                not all(bool(torch.isfinite(t).all()) for t in tensors[1:]):
            raise Excluded("welford_inf")
    if name in ("convolution", "_convolution", "_slow_conv2d_forward", "slow_conv3d_forward",
                "slow_conv_dilated2d", "slow_conv_dilated3d", "slow_conv_transpose2d",
                "slow_conv_transpose3d") and not bool(torch.isfinite(tensors[1]).all()):
        raise Excluded("padding_nan")
    if name in ("_slow_conv2d_forward", "slow_conv3d_forward", "slow_conv_dilated2d",
                "slow_conv_dilated3d", "slow_conv_transpose2d", "slow_conv_transpose3d",
                "conv_tbc") and not tensors[0].is_floating_point() and \
            max(t.double().abs().max().item() if t.numel() else 0 for t in tensors[:3]) > 2**20:
        raise Excluded("conv_int_double")
    if name == "native_group_norm" and tensors[0].numel() > 0 and \
            isinstance(t_pos[6] if len(t_pos) > 6 else t_kw.get("group"), int):
        group = t_pos[6] if len(t_pos) > 6 else t_kw.get("group")
        x = tensors[0].double()
        if x.shape[1] % group == 0:
            groups = x.reshape(x.shape[0], group, -1)
            if bool((groups.amax(-1) == groups.amin(-1)).any()):
                raise Excluded("group_norm_flat")
    if name in ("upsample_bilinear2d", "upsample_linear1d", "upsample_bicubic2d",
                "upsample_trilinear3d") and \
            tensors[0].is_floating_point() and \
            not bool(torch.isfinite(tensors[0]).all()):
        raise Excluded("interp_nonfinite")
    if qualname == "aten.view.dtype" and isinstance(res, torch.Tensor) and \
            res.dtype == torch.bool and res.numel() and int(res.view(torch.uint8).max()) > 1:
        raise Excluded("bool_bytes")
    if name == "_add_relu" and isinstance(res, torch.Tensor) and res.is_floating_point():
        a = tensors[0].double()
        b = tensors[1].double() if len(tensors) > 1 else torch.tensor(float(
            t_kw.get("other", t_pos[1] if len(t_pos) > 1 else 0)), dtype=torch.float64)
        alpha = t_kw.get("alpha", t_pos[2] if len(t_pos) > 2 else 1)
        if bool(torch.isnan(a + float(alpha) * b).any()):
            raise Excluded("add_relu_nan")
    if name in ("addmm", "_addmm_activation") and t_kw.get("alpha", 1) == 0 and \
            not all(bool(torch.isfinite(t).all()) for t in tensors[1:3]):
        raise Excluded("gemm_alpha_zero")
    if name in ("tril", "triu") and tensors[0].dim() < 2:
        raise Excluded("torch2_rule")
    if name == "topk" and tensors[0].dim() > 0:
        dim = t_pos[2] if len(t_pos) > 2 else t_kw.get("dim", -1)
        srt = t_pos[4] if len(t_pos) > 4 else t_kw.get("sorted", True)
        k = t_pos[1] if len(t_pos) > 1 else t_kw.get("k")
        x = tensors[0].double().nan_to_num(nan=float("inf"), posinf=1e300).movedim(dim, -1)
        xs = x.sort(-1).values
        if (not srt and k > 1) or bool((xs[..., 1:] == xs[..., :-1]).any()):
            raise Excluded("topk_order")
    if name in ("median", "nanmedian", "kthvalue") and isinstance(res, (tuple, list)) and \
            tensors[0].dim() > 0:
        dim = t_pos[2 if name == "kthvalue" else 1] if len(t_pos) > (2 if name == "kthvalue"
                                                                   else 1) else \
            t_kw.get("dim", -1)
        x = tensors[0].double().nan_to_num(nan=float("inf"), posinf=1e300).movedim(dim, -1)
        xs = x.sort(-1).values
        if bool((xs[..., 1:] == xs[..., :-1]).any()):
            raise Excluded("selection_ties")
    outs = list(res) if isinstance(res, (tuple, list)) else [res]
    if any(s < 0 for o in outs for s in o.shape):
        raise Excluded("negative_size")
    if name in ACCUMULATING_OPS and ill_conditioned(tensors, outs):
        raise Excluded("accumulation_error")
    if name in ACCUMULATING_OPS and any(o.dtype == torch.float32 for o in outs):
        try:
            r64 = undefined_to_empty(
                fn(*[upcast64(v) for v in t_pos], **{k: upcast64(v) for k, v in t_kw.items()}))
        except (RuntimeError, IndexError, ValueError, TypeError):
            r64 = None
        refs = list(r64) if isinstance(r64, (tuple, list)) else [r64]
        if r64 is not None and len(refs) == len(outs) and not all(
                within_tolerance(r.to(o.dtype), o) for o, r in zip(outs, refs)
                if o.dtype == torch.float32):
            raise Excluded("accumulation_error")
    if name in REDUCTIONS:
        ref = half_reference(qualname, fn, t_pos, t_kw, outs[0])
    dts = HALF_ROUNDING_OPS.get(name, ())
    if any(DT_NAME[o.dtype] in dts for o in outs):
        refs = list(ref) if isinstance(ref, (tuple, list)) else [ref]
        if ref is None or len(refs) != len(outs) or \
                not all(same_bits(o, r.to(o.dtype)) for o, r in zip(outs, refs)):
            raise Excluded("half_rounding")


# ---------------------------------------------------------------- running
def make_tensor(spec):
    """(placeholder data, the view the op sees)."""
    dt = DT[spec.dtype]
    t = torch.tensor(spec.values, dtype=dt).reshape(spec.shape) if spec.shape else \
        torch.tensor(spec.values[0], dtype=dt)
    if spec.layout == "t":
        inv = [spec.perm.index(i) for i in range(len(spec.perm))]
        base = t.permute(inv).contiguous()
        return base, base.permute(spec.perm)
    if spec.layout == "s":
        shape = list(spec.shape)
        shape[spec.sdim] *= 2
        base = torch.zeros(shape, dtype=dt)
        idx = [slice(None)] * len(shape)
        idx[spec.sdim] = slice(0, None, 2)
        base[tuple(idx)] = t
        # the skipped elements hold values of their own
        idx[spec.sdim] = slice(1, None, 2)
        base[tuple(idx)] = t.flip(spec.sdim) if t.numel() else t
        return base, A.slice.Tensor(base, spec.sdim, 0, shape[spec.sdim], 2)
    return t, t


def fmt_value(v, dtype):
    if dtype == "b8":
        return "1" if v else "0"
    if dtype not in FLOATS:
        return str(int(v))
    v = float(v)
    if v != v:
        return "nan"
    if v in (float("inf"), float("-inf")):
        return "inf" if v > 0 else "-inf"
    if dtype == "f32":
        s = str(np.float32(v))
        assert float(np.float32(float(s))) == v or v == 0, (s, v)
        return s
    if dtype == "f64":
        return repr(v)
    h = v.hex()  # f16, bf16: the exact value, whichever is shorter
    m = re.match(r"^(-?0x[01])\.?([0-9a-f]*?)0*p([+-]\d+)$", h)
    hx = "%s%sp%s" % (m.group(1), "." + m.group(2) if m.group(2) else "", m.group(3))
    return min(repr(v), hx, key=len)


def fmt_shape(shape):
    return ",".join(str(int(s)) for s in shape) if len(shape) else "-"


def tensor_line(tag, t):
    dt = DT_NAME[t.dtype]
    vals = t.contiguous().reshape(-1)
    if t.dtype in (torch.float16, torch.bfloat16):
        vals = vals.double()
    items = [tag, dt, fmt_shape(t.shape)] + [fmt_value(v, dt) for v in vals.tolist()]
    return " ".join(items)


class Skip(Exception):
    """A draw not worth a case (too large, or not run by torch)."""


def guard(qualname, pos, kw):
    """Refuses draws whose results would be huge before torch allocates."""
    name = qualname.split(".")[1]
    if "_polynomial_" in name and len(pos) > 1:
        # torch's recurrences run n steps (and, past the range of their values, on):
        # degrees from 1000 to 2^63 (which its int64 cast leaves at INT64_MIN) would run
        # for ever
        ns = pos[1].values if isinstance(pos[1], TSpec) else [pos[1]]
        if any(isinstance(v, (int, float)) and 1000 < v < 2**63 - 1 for v in ns):
            raise Skip
    sizes = kw.get("size", None)
    if name in ("full", "zeros", "ones") and pos:
        sizes = pos[0]
    if name.startswith("new_") and len(pos) > 1:
        sizes = pos[1]
    if sizes is not None and all(isinstance(s, int) and s >= 0 for s in sizes) and \
            numel(sizes) > MAX_OUT_NUMEL:
        raise Skip
    if name in ("eye", "linspace", "logspace", "diag_embed", "diag"):
        # their sizes are numbers: n, m, steps; an offset widens a square
        ints = [v for v in list(pos) + list(kw.values()) if isinstance(v, int)]
        if any(abs(v) > 64 for v in ints):
            raise Skip
    if name == "arange":
        nums = [v for v in pos if isinstance(v, (int, float))]
        if any(abs(v) > 100 for v in nums):
            raise Skip
    if (name.startswith("slow_conv") or name == "_slow_conv2d_forward") and len(pos) > 2 and \
            isinstance(pos[0], TSpec) and isinstance(pos[1], TSpec):
        # torch 1.13 reads the weight by kernel_size (past its end, or corrupting its heap,
        # where they differ); airc refuses that, an input without channels, slow_conv3d's
        # groups that do not divide the output, and negative padding, which torch's kernels
        # take as they come
        k = 3 if "3d" in name else 2
        ks = pos[2] if isinstance(pos[2], list) else [pos[2]]
        ks = ks * k if len(ks) == 1 else ks
        w, x = pos[1].shape, pos[0].shape
        if len(w) != k + 2 or list(w[2:]) != list(ks):
            raise Skip
        pads = pos[5] if len(pos) > 5 else kw.get("padding", [0])
        if any(p < 0 for p in (pads if isinstance(pads, list) else [pads])):
            raise Skip
        if name == "slow_conv_dilated3d" and len(x) == 4 and \
                (pos[3] if len(pos) > 3 else kw.get("bias")) is not None:
            raise Skip  # torch adds an unbatched input's bias to the wrong elements
        if "transpose" not in name and len(x) >= k + 1:
            cin = x[-k - 1]
            if cin == 0 or (w[1] and cin // w[1] and w[0] % (cin // w[1])):
                raise Skip
    if name == "_masked_softmax" and len(pos) > 1 and isinstance(pos[0], TSpec):
        # a dense non-contiguous self: torch scrambles its result; a softmax over a dim
        # of size 0: torch divides by it and crashes (both refused by airc)
        x, dim = pos[0], pos[2] if len(pos) > 2 else kw.get("dim")
        nd = len(x.shape)
        dim = nd - 1 if dim is None else dim
        if x.layout == "t" or (nd and isinstance(dim, int) and -nd <= dim < nd and
                               x.shape[dim] == 0):
            raise Skip
    if name == "_cholesky_solve_helper" and len(pos) > 1 and isinstance(pos[0], TSpec) and \
            isinstance(pos[1], TSpec):
        # its operands unchecked: torch reads past them where cholesky_solve would refuse
        b, a = pos[0].shape, pos[1].shape
        if len(b) >= 2 and len(a) >= 2 and pos[0].dtype == pos[1].dtype and \
                pos[0].dtype in ("f32", "f64") and \
                (len(a) != len(b) or a[-1] != b[-2] or a[-2] != b[-2] or a[:-2] != b[:-2]):
            raise Skip
    if name == "_compute_linear_combination" and len(pos) > 1 and isinstance(pos[0], TSpec) \
            and isinstance(pos[1], TSpec):
        # torch reads both as the result's dtype unconverted, and past them where the
        # sizes disagree (refused by airc)
        x, c = pos[0], pos[1]
        if len(c.shape) >= 2 and (not x.shape or x.dtype != c.dtype or len(c.shape) != 2 or
                                  c.shape[1] != x.shape[0]):
            raise Skip
    if name == "native_dropout" and len(pos) > 2 and isinstance(pos[0], TSpec) and \
            pos[2] is not False and isinstance(pos[1], float) and 0 < pos[1] < 1:
        raise Skip  # a random mask (airc refuses it on purpose)
    if name == "batch_norm_update_stats" and pos and isinstance(pos[0], TSpec):
        # an empty input: torch divides by zero (SIGFPE); running statistics of other
        # than [C]: torch writes past them (both refused by airc)
        x = pos[0]
        if numel(x.shape) == 0 and len(x.shape) >= 2:
            raise Skip
        for r in pos[1:3]:
            if isinstance(r, TSpec) and len(x.shape) >= 2 and list(r.shape) != [x.shape[1]]:
                raise Skip
    if name.endswith("_window") or name in ("fft_fftfreq", "fft_rfftfreq"):
        # the length is a number
        if pos and isinstance(pos[0], int) and abs(pos[0]) > 64:
            raise Skip
    if name == "range":
        nums = [v for v in pos if isinstance(v, (int, float))]
        if any(not math.isfinite(v) or abs(v) > 100 for v in nums):
            raise Skip
        if len(nums) == 3 and nums[2] and (nums[1] - nums[0]) / nums[2] > MAX_OUT_NUMEL:
            raise Skip
    if name == "expand" and pos and len(pos) > 1:
        if any(isinstance(s, int) and s > 64 for s in pos[1]):
            raise Skip
    if name == "_reshape_alias" and len(pos) > 2 and isinstance(pos[0], TSpec):
        # torch does not check the view against its storage: reading past
        # it gives whatever memory holds
        size, stride = pos[1], pos[2]
        if len(size) != len(stride) or any(s < 0 for s in size + stride):
            raise Skip
        if numel(size) and sum((n - 1) * st for n, st in zip(size, stride)) >= \
                numel(pos[0].shape):
            raise Skip
    if name == "constant_pad_nd" and len(pos) > 1:
        if any(abs(p) > 64 for p in pos[1]):
            raise Skip


def undefined_to_empty(res):
    """An undefined tensor in a result tuple (None: the attention weights
    of _native_multi_head_attention with need_weights False) as airc's
    stand-in: a [0] tensor of the first result's dtype."""
    if isinstance(res, tuple) and any(t is None for t in res):
        first = next(t for t in res if t is not None)
        return tuple(torch.empty(0, dtype=first.dtype) if t is None else t for t in res)
    return res


def op_of(qualname):
    _, name, ovl = qualname.split(".")
    return getattr(getattr(A, name), ovl)


def run_draw(qualname, args, d, case_name):
    pos, kw = draw_args(qualname, args, d)
    guard(qualname, pos, kw)
    exclude_before(qualname, args, pos, kw)
    return run_case(qualname, pos, kw, case_name, True)


def run_case(qualname, pos, kw, case_name, check):
    """The case's lines and whether torch raised; check: apply the
    EXCLUSIONS rules that need torch's result."""
    g = torch.fx.Graph()
    lines, inputs, names = [], [], iter("xyzwvutsrqponmlkjihgfedcba")
    shared = {}

    def place(v):
        """Placeholders (and views) for the specs in v; returns (fx value,
        torch value). A spec marked `share` is one placeholder wherever it
        is passed (torch then sees one tensor, as a self-attention's)."""
        if isinstance(v, TSpec) and getattr(v, "share", False):
            if id(v) not in shared:
                v.share = False
                shared[id(v)] = place(v)
                v.share = True
            return shared[id(v)]
        if isinstance(v, TSpec):
            nm = next(names)
            base, view = make_tensor(v)
            p = g.placeholder(nm)
            inputs.append(tensor_line("in " + nm, base))
            if v.layout == "t":
                n = g.create_node("call_function", A.permute.default, (p, v.perm), {},
                                  name=nm + "_t")
                return n, view
            if v.layout == "s":
                n = g.create_node("call_function", A.slice.Tensor,
                                  (p, v.sdim, 0, base.shape[v.sdim], 2), {}, name=nm + "_s")
                return n, view
            return p, view
        if isinstance(v, list) and any(isinstance(x, TSpec) for x in v):
            pairs = [place(x) for x in v]
            return [a for a, _ in pairs], [b for _, b in pairs]
        return v, v

    fx_pos, t_pos = [], []
    for v in pos:
        a, b = place(v)
        fx_pos.append(a)
        t_pos.append(b)
    fx_kw, t_kw = {}, {}
    for k, v in kw.items():
        fx_kw[k], t_kw[k] = place(v)
    out = g.create_node("call_function", op_of(qualname), tuple(fx_pos), fx_kw, name="out")
    g.output(out)
    fn = op_of(qualname)
    ref = half_reference(qualname, fn, t_pos, t_kw) if check else None  # before in-place writes
    try:
        res = undefined_to_empty(fn(*t_pos, **t_kw))
        err = None
        if qualname.startswith("aten._ctc_loss."):
            res = ctc_defined(res, t_pos[2:4])  # the lengths, never left out
        if qualname == "aten._neg_view.default":
            res = res.resolve_neg()  # its values: negated when read (bool raises then)
    except (RuntimeError, IndexError, ValueError, TypeError, OverflowError) as e:
        res, err = None, str(e).strip().split("\n")[0]
        if "can't allocate memory" in err:
            raise Skip
        if "not implemented for" in err or "is not supported on CPU" in err:
            raise Excluded("kernel_gap")
        if "needs_dynamic_casting" in err:
            raise Excluded("dynamic_cast_assert")
    if err is None and check:
        exclude_after(qualname, fn, t_pos, t_kw, res, ref)
    lines.append("case " + case_name)
    lines += inputs
    if err is not None:
        lines.append("# torch: " + err[:150])
    lines.append("fx")
    lines += str(g).strip("\n").split("\n")
    lines.append("endfx")
    if err is not None:
        lines.append("error")
    else:
        outs = list(res) if isinstance(res, (tuple, list)) else [res]
        for t in outs:
            if t.numel() > MAX_OUT_NUMEL:
                raise Skip
            lines.append(tensor_line("out", t))
    lines.append("end")
    return lines, err is not None


# ---------------------------------------------------------------- pinned cases
# Cases written by hand for the torch rules the sweep found airc breaking,
# so that each stays checked whatever the draws (some draws of these rules
# fall to "half_rounding"). Inputs of 64 elements take torch's vectorized
# path, which rounds as its scalar one for these.
def V(dtype, shape, values=None):
    """A contiguous tensor spec; values default to a fixed mix of signs."""
    n = numel(shape)
    if values is None:
        values = [((i * 37) % 23 - 11) / 4 + 0.13 for i in range(n)]
    return TSpec(dtype, shape, list(values))


POS64 = [0.5 + (i * 29 % 64) / 16 for i in range(64)]
NAN, INF = float("nan"), float("inf")
TIES40 = [[1.5, -0.0, NAN, 0.0, -2.0, INF][i * 7 % 6] for i in range(40)]
DISTINCT400 = [i * 211 % 400 - 200 for i in range(400)]
def small(dtype, shape, share=False):
    """A contiguous spec of values in [-0.28, 0.3] (share: one placeholder
    wherever it is passed)."""
    t = V(dtype, shape, [((i * 37) % 23 - 11) / 40 + 0.013 for i in range(numel(shape))])
    t.share = share
    return t


ATTN_Q = small("f32", [2, 3, 4], share=True)
BESSEL_EDGES = [0.0, -0.0, 1e-30, 1e-6, 0.5, 1.99, 2.0, 2.01, 2.09, 2.1, -2.09, -2.1, 4.99, 5.0,
                5.01, 7.99, 8.0, 8.01, 8.3203353, 8.33, 50.0, 103.8, 103.9, 700.0, 710.0, 800.0,
                -0.5, -3.0, -8.5, -30.0, 1e30, INF, -INF, NAN]
POLY_OPS = ("chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v",
            "chebyshev_polynomial_w", "shifted_chebyshev_polynomial_t",
            "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v",
            "shifted_chebyshev_polynomial_w", "hermite_polynomial_h", "hermite_polynomial_he",
            "laguerre_polynomial_l", "legendre_polynomial_p")
POLY_EDGE_X = [1.0, -1.0, 0.0, -0.0, 0.5, 0.3, -0.7, 0.999, 1.5, -1.5, 1e30, INF, -INF, NAN]
POLY_EDGE_N = [-1.0, 0.0, 1.0, 2.0, 3.0, 5.0, 7.0, 9.0, 13.0, 30.0, 2.5, -0.5, NAN, INF, -INF,
               1e30]

# (matrix_exp's pinned matrix has a 1-norm of 1.55: norms from 0 to 50)
MEXP_SCALES = [x / 1.55 for x in (0.0, 1e-17, 1e-8, 1e-4, 0.02, 0.2, 0.3, 1.0, 2.5, 50.0)]
FQ_EDGE = [-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.5, 126.5, 127.5, -128.5, -129.0, 1e10, 1e19,
           -1e19, 1e30, INF, -INF, NAN, 0.0, -0.0]
PINNED = [
    # the attention's projection to no feature still gives its weights; an
    # encoder layer's feed-forward of no hidden feature is its biases
    ("mha_proj_no_features", "aten._native_multi_head_attention.default",
     [ATTN_Q, ATTN_Q, ATTN_Q, 4, 2, small("f32", [12, 4]), small("f32", [12]),
      small("f32", [0, 4]), small("f32", [0])], {}),
    ("encoder_ffn_no_features", "aten._transformer_encoder_layer_fwd.default",
     [ATTN_Q, 4, 2, small("f32", [12, 4]), small("f32", [12]), small("f32", [4, 4]),
      small("f32", [4]), False, False, 1e-5, small("f32", [4]), small("f32", [4]),
      small("f32", [4]), small("f32", [4]), small("f32", [0, 4]), small("f32", [0]),
      small("f32", [4, 0]), small("f32", [4])], {}),
    # an empty self: scatter_reduce still checks its indices, index_fill
    # checks none unless the indexed dim itself is empty; index_select of
    # a 0-dim self (lowered as the self itself)
    ("scatter_reduce_empty_self", "aten.scatter_reduce.two",
     [V("f64", [2, 0]), -1, V("i64", [1, 1], [0]), V("f64", [1, 1]), "prod"],
     {"include_self": False}),
    ("index_fill_empty_self", "aten.index_fill.int_Scalar",
     [V("i64", [4, 0, 3]), -1, V("i64", [2], [3, 0]), True], {}),
    ("index_fill_empty_dim", "aten.index_fill.int_Scalar",
     [V("f32", [0, 3]), 0, V("i64", [1], [0]), 1.0], {}),
    ("index_select_0d", "aten.index_select.default", [V("f32", [], [0.65]), 0,
                                                      V("i64", [1], [0])], {}),
    # a NaN in the line: median's is the NaN, nanmedian skips it, kthvalue
    # sorts it last
    ("median_nan", "aten.median.dim", [V("f32", [2, 4], [3, 1, NAN, 2, 0.5, -1, 7, 4]), 1], {}),
    # p = 0 counts min(ceil |d|, 1): a NaN difference makes the count NaN,
    # in the vector part (rows of 9 floats, 8 lanes) and the scalar tail
    # alike; p = inf skips it
    *[("cdist_nan_p%g_%s" % (p, dt), "aten._cdist_forward.default",
       [V(dt, [2, 9], [0.0] * 18),
        V(dt, [3, 9], [1.0, NAN, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0] +
          [0.0] * 8 + [NAN] + [INF] + [0.0] * 8), p, None], {})
      for p in (0.0, INF) for dt in ("f32", "f64")],
    ("nanmedian_nan", "aten.nanmedian.dim",
     [V("f64", [2, 4], [3, 1, NAN, 2, NAN, -1, 7, 4]), -1, True], {}),
    ("kthvalue_nan", "aten.kthvalue.default", [V("f32", [4], [3, NAN, 1, 2]), 4], {}),
    ("median_all_int", "aten.median.default", [V("i32", [2, 3], [5, -2, 9, 0, 3, 1])], {}),
    # cummax / cummin: the last of equal values wins, and every NaN does
    # (-0.0 and 0.0 are equal); logcumsumexp's infinities and NaN
    ("cummax_ties_nan", "aten.cummax.default",
     [V("f32", [2, 7], [1, 3, 3, NAN, 2, NAN, 5, -0.0, 0.0, -0.0, 1, 1, -INF, 1]), 1], {}),
    ("cummin_ties_int", "aten.cummin.default", [V("i64", [6, 1], [1, 3, 1, -2, -2, 4]), 0], {}),
    ("logcumsumexp_inf", "aten.logcumsumexp.default",
     [V("f64", [8], [-INF, -INF, 1.0, INF, 2.0, INF, NAN, 3.0]), 0], {}),
    # a stable sort of a long line: equal values (NaNs, -0.0 and 0.0) keep
    # their order, ascending and descending
    ("sort_stable_ties", "aten.sort.stable", [V("f32", [40], TIES40)],
     {"stable": True, "descending": False}),
    ("sort_stable_ties_desc", "aten.sort.stable", [V("f64", [2, 20], TIES40)],
     {"stable": True, "dim": 1, "descending": True}),
    ("argsort_stable_ties", "aten.argsort.stable", [V("f32", [2, 20], TIES40)],
     {"stable": True, "dim": -1, "descending": True}),
    # topk of a long line (torch's partial_sort path), both ends
    ("topk_long_largest", "aten.topk.default", [V("f32", [400], DISTINCT400), 5], {}),
    ("topk_long_smallest", "aten.topk.default", [V("i64", [4, 100], DISTINCT400), 3, 1, False],
     {}),
    # an in-place op's result must fit self's dtype, also once compile's
    # functionalization has made it out-of-place (torch checks the in-place
    # op on meta tensors first)
    ("add_inplace_cast", "aten.add_.Tensor", [V("i64", [3], [1, 2, 3]), V("f32", [3])], {}),
    ("cos_inplace_bool", "aten.cos_.default", [V("b8", [2], [0, 1])], {}),
    # alpha converts to the common dtype: 70000 is 70144 in bf16, -1 is
    # True in bool (add(a, b, alpha=-1) is a or b); found by fuzz_api
    ("add_bool_alpha", "aten.add.Tensor", [V("b8", [4], [1, 0, 1, 0]), V("b8", [4], [1, 1, 0, 0])],
     {"alpha": -1}),
    ("add_bf16_alpha", "aten.add.Tensor", [V("bf16", [64]), V("bf16", [64])],
     {"alpha": 70000}),
    # f16's a + alpha * b rounds alpha * b to f16 first, on every path
    ("add_f16_alpha", "aten.add.Tensor",
     [V("f16", [4], [-4.578125, -1.8271484375, -2.33203125, -0.75439453125]),
      V("f16", [4], [1.708984375, 2.091796875, 0.59912109375, -3.306640625])], {"alpha": 3}),
    ("rsub_f16_alpha", "aten.rsub.Tensor",
     [V("f16", [4], [1.708984375, 2.091796875, 0.59912109375, -3.306640625]),
      V("f16", [4], [-4.578125, -1.8271484375, -2.33203125, -0.75439453125])], {"alpha": -3}),
    # every operand converts to the common dtype: a 0-dim f32 to bf16, a
    # 0-dim i64 to i16 (where it is 0, false in a logical op)
    ("sub_bf16_f32_0d", "aten.sub.Tensor", [V("bf16", [64]), V("f32", [], [0.29])], {}),
    ("logical_xor_i16_i64_0d", "aten.logical_xor.default",
     [V("i16", [4], [5, 0, -1, 0]), V("i64", [], [-2**40])], {}),
    ("masked_fill_bool_half", "aten.masked_fill.Scalar",
     [V("b8", [4], [0, 1, 0, 1]), V("b8", [4], [1, 1, 0, 0]), 0.5], {}),
    # a number exponent converts to the common dtype (2.1 is 2.09375 in
    # bf16); f16's pow is std::pow for every exponent (pow(-inf, 0.5) = inf)
    ("pow_bf16_exponent", "aten.pow.Tensor_Scalar", [V("bf16", [64], POS64), 2.1], {}),
    ("pow_f16_half", "aten.pow.Tensor_Scalar", [V("f16", [4], [-INF, -0.0, 4.0, 2.0]), 0.5],
     {}),
    # division modes in half arithmetic
    ("div_trunc_bf16", "aten.div.Tensor_mode",
     [V("bf16", [2], [3.0, -3.0]), V("bf16", [2], [0.10009765625, 0.10009765625])],
     {"rounding_mode": "trunc"}),
    ("div_floor_f16_i16", "aten.div.Tensor_mode",
     [V("i16", [4], [32767, -32768, 2049, 2049]), V("f16", [4], [3.01953125, 3.01953125, 1.5,
                                                                  0.7001953125])],
     {"rounding_mode": "floor"}),
    # clamp (and hardtanh) with both bounds and a NaN one: all NaN, unchecked
    ("hardtanh_nan", "aten.hardtanh.default", [V("f32", [3]), -3, NAN], {}),
    ("hardtanh_nan_unchecked", "aten.hardtanh.default", [V("f16", [3]), 2**31, NAN], {}),
    ("clamp_nan", "aten.clamp.default", [V("f32", [3]), NAN, 1.0], {}),
    # sum(x, dtype=D) sums x.to(D); a mean is its sum, rounded, then divided
    ("sum_f32_to_i32", "aten.sum.default", [V("f32", [3], [1.5, INF, 2.5])],
     {"dtype": torch.int32}),
    ("cumsum_f32_to_bf16", "aten.cumsum.default", [V("f32", [3], [-2.18, -0.87, -0.28]), -1],
     {"dtype": torch.bfloat16}),
    ("mean_f16_to_bf16", "aten.mean.dim",
     [V("f16", [3], [-1.1298828125, -1.580078125, -0.08001708984375]), [0]],
     {"dtype": torch.bfloat16}),
    # a 0-dim cumsum is fill_(self.item()): a checked conversion
    ("cumsum_0d_overflow", "aten.cumsum.default", [V("f32", [], [-2.08]), 0],
     {"dtype": torch.uint8}),
    # float to a narrow int as x86 casts it (nan is INT32_MIN)
    ("slice_scatter_nan_to_i32", "aten.slice_scatter.default",
     [V("i32", [4], [1, 2, 3, 4]), V("f32", [2], [NAN, -1e30]), 0, 0, 4, 2], {}),
    # sub adds -alpha: 2^31 fits int32 there, -2^31 does not
    ("sub_alpha_2_31", "aten.sub.Tensor", [V("i32", [2], [1, 2]), V("i8", [2], [3, 4])],
     {"alpha": 2**31}),
    ("sub_alpha_minus_2_31", "aten.sub.Tensor", [V("i32", [2], [1, 2]), V("i8", [2], [3, 4])],
     {"alpha": -2**31}),
    # masked_fill.Tensor converts value.item() with the overflow check;
    # a u8 mask holds 0 and 1 only, where it fills
    ("masked_fill_value_overflow", "aten.masked_fill.Tensor",
     [V("u8", [3], [2, 2, 0]), V("b8", [3], [0, 1, 1]), V("f32", [], [-0.86])], {}),
    ("masked_fill_u8_mask", "aten.masked_fill.Scalar",
     [V("f32", [3]), V("u8", [3], [0, 2, 1]), 1.0], {}),
    ("masked_fill_u8_mask_empty", "aten.masked_fill.Scalar",
     [V("f32", [0, 3]), V("u8", [3], [0, 2, 1]), 1.0], {}),
    # beta, alpha and pad values convert with the overflow check
    ("addmm_beta_overflow", "aten.addmm.default",
     [V("i64", [], [3]), V("i64", [2, 2], [1, 2, 3, 4]), V("i64", [2, 2], [1, 0, 0, 1])],
     {"beta": 1e30}),
    ("pad_value_overflow", "aten.constant_pad_nd.default", [V("f16", [2]), [3, 0], 1e30], {}),
    # constant_pad_nd: a positive pad needs non-empty dims; narrowing fits
    ("pad_empty_dim", "aten.constant_pad_nd.default",
     [V("f32", [2, 2, 3]), [-1, 1, 1, 1, -1, -1]], {}),
    ("pad_narrow_past", "aten.constant_pad_nd.default", [V("f32", [2, 3]), [-4, 2]], {}),
    # 0-dim reductions count [0, -1] as dim 0 twice
    ("amax_0d_repeated_dim", "aten.amax.default", [V("f64", [], [-1.46]), [0, -1], True], {}),
    # contiguous(preserve) of a contiguous tensor is itself
    ("contiguous_preserve", "aten.contiguous.default", [V("f32", [3])],
     {"memory_format": torch.preserve_format}),
    # adaptive_avg_pool2d to [1, 1] is a mean over the last two dims
    ("adaptive_pool_mean_2d", "aten.adaptive_avg_pool2d.default", [V("f32", [1, 3]), [1, 1]],
     {}),
    ("adaptive_pool_int_empty", "aten._adaptive_avg_pool2d.default",
     [V("i16", [1, 1, 3], [-5, 1, 5]), [0, 3]], {}),
    # gather counts a 0-dim index as 1-dim; an empty index is not checked
    ("gather_0d_index", "aten.gather.default", [V("i64", [2], [-2**40, 7]), -1,
                                                V("i64", [], [0])], {}),
    ("gather_empty_i32_index", "aten.gather.default",
     [V("f32", [4]), 0, V("i32", [0], [])], {}),
    # legacy empty [0] inputs of cat are skipped, dim is not wrapped
    ("cat_legacy_empty", "aten.cat.default", [[V("f64", [0], []), V("f64", [0], [])], -2], {}),
    # a layer norm of one element is exactly 0 before its weight
    ("layer_norm_one_element", "aten.native_layer_norm.default",
     [V("f32", [1], [-3.0]), [1], V("f32", [1], [-2.0]), None, 1e-5], {}),
    # the bytes of a result must fit int64 (2^62 f32 elements do not)
    ("adaptive_pool_bytes_overflow", "aten._adaptive_avg_pool2d.default",
     [V("f32", [1, 3, 2]), [2**62, 1]], {}),
] + [
    # matrix_exp: one batch whose norms fall in every degree's interval and
    # past them (up to 2^20 squarings' worth); torch's int64 2^s at s = 62,
    # 63 (negative: exp(-A)) and 64 (0: NaN); a rotation (skew-symmetric
    # generator) by a large angle; an 8 x 8 batch
    ("matrix_exp_degrees_%s" % dt, "aten.linalg_matrix_exp.default",
     [V(dt, [len(MEXP_SCALES), 3, 3],
        [v * c for c in MEXP_SCALES for v in [0.9, -0.35, 0.2, 0.4, 0.1, -0.6, -0.25, 0.7, 0.3]])],
     {})
    for dt in ("f32", "f64")
] + [
    ("matrix_exp_int64_scale_%s" % dt, "aten.linalg_matrix_exp.default",
     [V(dt, [6, 2, 2], [v for c in (1e19, 2e19, 5e19, -1e19, -2e19, -1e30)
                        for v in (c, 0.5, 0.0, c)])], {})
    for dt in ("f32", "f64")
] + [
    ("matrix_exp_rotation_%s" % dt, "aten.linalg_matrix_exp.default",
     [V(dt, [2, 3, 3], [v * c for c in (1.0, 100.0)
                        for v in (0.0, -30.0, 12.0, 30.0, 0.0, -4.0, -12.0, 4.0, 0.0)])], {})
    for dt in ("f32", "f64")
] + [
    ("matrix_exp_8x8", "aten.linalg_matrix_exp.default",
     [V("f64", [1, 8, 8], [((i * 37) % 23 - 11) / 8 for i in range(64)])], {}),
] + [
    # torch.special's functions at their edges: signed zeros, subnormals,
    # the switch points of their series (erfcx's 25 and 5, i0's 15), past
    # exp's range (i0 overflows at 710 in f64, 89 in f32), poles, inf, NaN
    ("%s_edges_%s" % (op.split(".")[1], dt), op, [V(dt, [len(vals)], vals)] + extra, {})
    for op, vals, extra in [
        ("aten.angle.default", [0.0, -0.0, -1e-30, 3.5, -INF, INF, NAN], []),
        ("aten.special_entr.default", [0.0, -0.0, 1e-40, 1e-30, 0.5, 1.0, 3.0, 1e30, INF,
                                       -1e-30, -INF, NAN], []),
        ("aten.special_erfcx.default", [0.0, -0.0, 1e-40, 0.5, 4.9, 5.1, 9.0, 10.0, 24.9,
                                        25.1, 30.0, 1e10, 1e30, INF, -1.0, -9.0, -9.5, -26.0,
                                        -27.0, -INF, NAN], []),
        ("aten.special_log_ndtr.default", [0.0, -0.0, 1.0, 5.0, 9.0, 40.0, INF, -0.99, -1.0,
                                           -1.01, -5.0, -20.0, -38.0, -40.0, -1e10, -1e30,
                                           -INF, NAN], []),
        ("aten.special_ndtri.default", [0.0, -0.0, 5e-324, 1e-300, 1e-40, 1e-30, 1e-10, 0.01,
                                        0.25, 0.5, 0.75, 0.99, 0.999999, 1.0, -0.1, 1.1, INF,
                                        NAN], []),
        ("aten.i0.default", [0.0, -0.0, 1e-40, 1.0, -3.5, 14.9, 15.1, 50.0, -88.0, 90.0,
                             700.0, 709.0, 711.0, INF, -INF, NAN], []),
        ("aten.special_i0e.default", [0.0, -0.0, 1e-40, 1.0, -3.5, 14.9, 15.1, 50.0, -88.0,
                                      700.0, 1e10, 1e30, INF, -INF, NAN], []),
    ]
    for dt in ("f32", "f64")
] + [
    # polygamma's order is its first argument
    ("polygamma_edges_n%d_%s" % (n, dt), "aten.polygamma.default",
     [n, V(dt, [13], [0.0, -0.0, 1e-30, 0.5, 1.0, 7.5, 1e10, INF, -0.5, -1.0, -2.5, -INF, NAN])],
     {})
    for n, dt in ((0, "f32"), (0, "f64"), (1, "f32"), (1, "f64"), (3, "f64"))
] + [
    ("%s_edges_%s" % (op.split(".")[1], dt), op,
     [V(dt, [len(a)], a), V(dt, [len(b)], b)], {})
    for op, a, b in [
        ("aten.igamma.default", [0.0, 0.0, 1e-10, 0.5, 1.0, 3.0, 10.0, 100.0, 1e4, INF, INF,
                                 2.0, -1.0, 1.0, NAN, 50.0, NAN, INF, 1e-10],
         [0.0, 1.0, 1e-10, 0.5, 2.0, 3.0, 9.5, 101.0, 1e4, 1.0, INF, INF, 1.0, -1.0, 1.0,
          NAN, 0.0, NAN, 0.5]),
        ("aten.igammac.default", [0.0, 0.0, 1e-10, 0.5, 1.0, 3.0, 10.0, 100.0, 1e4, INF, INF,
                                  2.0, -1.0, 1.0, NAN, 50.0, NAN, INF, 1e-10],
         [0.0, 1.0, 1e-10, 0.5, 2.0, 3.0, 9.5, 101.0, 1e4, 1.0, INF, INF, 1.0, -1.0, 1.0,
          NAN, 0.0, NAN, 0.5]),
        ("aten.nextafter.default", [0.0, -0.0, 0.0, 1e-45, 1.0, 1.0, -1.0, INF, -INF, 3e38, NAN,
                                    2.0],
         [-0.0, 0.0, -1.0, 0.0, 2.0, 0.0, -INF, 0.0, INF, INF, 1.0, NAN]),
        ("aten.special_zeta.default", [2.0, 3.0, 0.5, 1.0, 2.0, 2.0, INF, 2.0, 4.0, 1.5, NAN],
         [1.0, -2.0, 1.0, 2.0, -1.5, 0.0, 1.0, INF, 1e-30, 1e10, 1.0]),
        ("aten.logaddexp2.default", [INF, -INF, INF, -INF, 0.0, 1e30, -1e30, NAN, 3.0],
         [INF, -INF, -INF, 5.0, 0.0, 1e30, 1.0, 1.0, -200.0]),
        ("aten.special_xlog1py.default", [0.0, 0.0, 0.0, 2.0, -2.0, 2.0, 1e30, INF],
         [NAN, -1.0, INF, -1.0, -2.0, 1e-30, 1e30, 0.0]),
    ]
    for dt in ("f32", "f64", "bf16") if dt != "bf16" or op not in ("aten.igamma.default",
                                                                 "aten.special_zeta.default")
] + [
    ("%s_edges_%s" % (op.split(".")[1], dt), op, [V(dt, [len(a)], a), V(dt, [len(b)], b)], {})
    for op in ("aten.gcd.default", "aten.lcm.default")
    for dt, a, b in [
        ("i64", [0, 0, -2**63, -2**63, -2**63, 2**63 - 1, 12, -12, 7, -2**40],
         [0, 5, 0, -1, 6, -2**63, -18, -18, 2**62, 2**31]),
        ("i8", [-128, -128, -128, 127, 0, -6, 100], [0, 6, -128, -128, -7, 4, 60]),
        ("u8", [0, 255, 128, 200, 12], [0, 5, 64, 150, 18]),
    ]
] + [
    # shifts by counts past the width and negative, of negative values: torch 1.13 shifts the
    # value promoted to int (int64) by the count mod 32 (mod 64), wrapped back to the dtype
    ("%s_edges_%s" % (op.split(".")[1], dt), op, [V(dt, [len(a)], a), V(dt, [len(b)], b)], {})
    for op in ("aten.__lshift__.Tensor", "aten.__rshift__.Tensor")
    for dt, a, b in [
        ("i64", [-5, -1, 1, 3, 100, -2**63, 2**63 - 1, 7, 7, 7],
         [-1, 0, 63, 64, 70, 1, 65, 127, -64, -65]),
        ("i32", [-5, -1, 1, 3, 100, -2**31, 2**31 - 1, 7, 7], [-1, 0, 31, 32, 70, 1, 33, -32, 95]),
        ("i16", [-5, -1, 1, 3, 100, -2**15, 7, 7, 7], [-1, 0, 15, 16, 31, 32, 33, -1, 17]),
        ("i8", [-5, -1, 1, 3, 100, -128, 127, 7, 7], [-1, 0, 7, 8, 9, 31, 33, 65, -128]),
        ("u8", [0, 1, 3, 200, 255, 255, 128, 7], [0, 7, 8, 9, 31, 32, 255, 33]),
    ]
] + [
    # torch.special's Bessel functions at each approximation's switches (2, 5, 8, airy_ai's
    # +-2.09, 8.32 and 103.892), their poles and NaN domains (y0 / y1 / k0 / k1 at 0 and
    # below), past exp's range, inf, NaN
    ("%s_edges_%s" % (op, dt), "aten.special_%s.default" % op,
     [V(dt, [len(BESSEL_EDGES)], BESSEL_EDGES)], {})
    for op in ("airy_ai", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1",
               "modified_bessel_i0", "modified_bessel_i1", "modified_bessel_k0",
               "modified_bessel_k1", "scaled_modified_bessel_k0", "scaled_modified_bessel_k1",
               "spherical_bessel_j0", "i1", "i1e")
    for dt in ("f32", "f64")
] + [
    # the polynomials over x at their ends (+-1, and 0 for the shifted ones), NaN, +-inf, past
    # [-1, 1], by every degree kind: below 0, 0, 1, the recurrence, past the closed forms'
    # switches, NaN / inf / 1e30 (torch's int64 cast: INT64_MIN, so 0), fractions (truncated)
    ("%s_edges%d_%s" % (op, i, dt), "aten.special_%s.default" % op,
     [V(dt, [len(POLY_EDGE_X), 1], POLY_EDGE_X), V(dt, [1, len(ns)], ns)], {})
    for op in POLY_OPS for dt in ("f32", "f64")
    for i, ns in enumerate((POLY_EDGE_N[:6], POLY_EDGE_N[6:11], POLY_EDGE_N[11:]))
] + [
    # Hermite's of a tensor degree past the lowering's unroll (128 f32, 512 f64): NaN there
    ("%s_saturation_%s" % (op, dt), "aten.special_%s.default" % op,
     [V(dt, [6, 1], [0.0, 1e-3, 0.3, -2.0, 9.0, 1e3]),
      V(dt, [1, 8], [40.0, 70.0, 127.0, 128.0, 129.0, 511.0, 512.0, 513.0])], {})
    for op in ("hermite_polynomial_h", "hermite_polynomial_he") for dt in ("f32", "f64")
] + [
    ("%s_n%d_%s" % (op, n, dt), "aten.special_%s.n_scalar" % op,
     [V(dt, [6], [0.0, 1e-3, 0.3, -2.0, 9.0, 1e3]), n], {})
    for op in ("hermite_polynomial_h", "hermite_polynomial_he")
    for dt, n in (("f32", 129), ("f64", 513), ("f64", 2000))
] + [
    ("%s_n%s_%s" % (op, n, dt), "aten.special_%s.n_scalar" % op,
     [V(dt, [len(POLY_EDGE_X)], POLY_EDGE_X), n], {})
    for op in POLY_OPS for dt in ("f32", "f64") for n in (9, 13)
] + [
    # fake quantization at its edges: ties at .5 (half to even), values past
    # the quant range, past int64 (x86's conversion: +inf lands on
    # quant_min for f32 / f16, f64 saturates), NaN, ±0
    ("fq_per_tensor_edges_%s_%d_%d" % (dt, lo, hi),
     "aten.fake_quantize_per_tensor_affine_cachemask.default",
     [V(dt, [len(FQ_EDGE)], FQ_EDGE), 1.0, zp, lo, hi], {})
    for dt in ("f32", "f64", "f16") for lo, hi, zp in [(-128, 127, 0), (0, 255, 3), (3, 3, 3)]
] + [
    ("fq_per_tensor_scale_%s" % name, "aten.fake_quantize_per_tensor_affine_cachemask.default",
     [V("f32", [len(FQ_EDGE)], FQ_EDGE), sc, 0, -8, 7], {})
    for name, sc in [("quarter", 0.25), ("tenth", 0.1), ("zero", 0.0), ("negative", -0.5)]
] + [
    ("fq_tensor_qparams_%s" % name,
     "aten._fake_quantize_per_tensor_affine_cachemask_tensor_qparams.default",
     [V("f32", [len(FQ_EDGE)], FQ_EDGE), V(sdt, [1], [0.5]), V(zdt, [1], [zp]),
      V("i64", [1], [on]), -10, 10], {})
    for name, sdt, zdt, zp, on in [("on", "f32", "i32", 2, 1), ("off", "f32", "i64", 2, 0),
                                   ("zp_float_truncates", "f64", "f32", -2.7, 1),
                                   ("zp_outside_unchecked", "f32", "i64", 30, 1)]
] + [
    ("fq_learnable_per_tensor_zp_%s" % name,
     "aten._fake_quantize_learnable_per_tensor_affine.default",
     [V("f32", [len(FQ_EDGE)], FQ_EDGE), V("f32", [1], [0.5]), V("f32", [1], [zp]), -10, 10,
      1.0], {})
    for name, zp in [("tie_even", 2.5), ("tie_odd", 3.5), ("past_max", 30.0), ("nan", NAN),
                     ("inf", INF)]
] + [
    ("fq_per_channel_axis%d_%s_%s" % (axis, zdt, dt),
     "aten.fake_quantize_per_channel_affine_cachemask.default",
     [V(dt, shape, FQ_EDGE[:numel(shape)]),
      V("f32", [shape[axis]], [0.5, 1.0, 0.25, 2.0][:shape[axis]]),
      V(zdt, [shape[axis]], [0, 3, -2, 1][:shape[axis]] if zdt == "i32" else
        [0.5, 2.5, -1.25, 1.0][:shape[axis]]), axis, -8, 7], {})
    for dt in ("f32", "f64", "f16") for zdt in ("i32", "f32", "f16")
    for axis, shape in [(0, [4, 5]), (1, [5, 4])]
] + [
    ("fq_learnable_per_channel_axis%d" % axis,
     "aten._fake_quantize_learnable_per_channel_affine.default",
     [V("f32", shape, FQ_EDGE[:numel(shape)]), V("f32", [4], [0.5, 1.0, 0.25, 2.0]),
      V("f32", [4], [0.5, 2.5, -1.5, 30.0]), axis, -8, 7, 1.0], {})
    for axis, shape in [(0, [4, 5]), (2, [1, 5, 4])]
] + [
    # histogramdd: NaN and ±inf coordinates, the last bin closed, edges
    # all equal, weights and density
    ("histogramdd_%s" % name, op, args, kw)
    for name, op, args, kw in [
        ("cts_edges", "aten._histogramdd_from_bin_cts.default",
         [V("f32", [7, 2], [0.0, 1.0, 0.5, 2.0, 1.0, 3.0, NAN, 1.5, 0.2, INF, -INF, 0.5, 1.0,
                            0.0]), [2, 3]], {"range": [0.0, 1.0, 0.0, 3.0]}),
        ("cts_one_value", "aten._histogramdd_from_bin_cts.default",
         [V("f64", [3, 2], [2.0, 5.0, 2.0, 5.0, 2.0, 5.0]), [3, 1]], {"density": True}),
        ("tensors_nan", "aten._histogramdd_from_bin_tensors.default",
         [V("f32", [5, 2], [0.0, 1.0, 0.5, 2.0, 1.0, 3.0, NAN, 1.5, 0.2, INF]),
          [V("f32", [3], [0.0, 0.5, 1.0]), V("f32", [3], [0.0, 2.0, 3.0])]],
         {"weight": V("f32", [5], [1.0, 2.0, 0.5, 4.0, 8.0]), "density": True}),
        ("edges_int_range", "aten._histogramdd_bin_edges.default",
         [V("i64", [2, 2], [0, 1, 2, 3]), [2, 3]], {"range": [0.0, 1.0, -1.0, 3.0]}),
        ("edges_data", "aten._histogramdd_bin_edges.default",
         [V("f64", [4, 3], [0.25, -1.0, 7.0, 3.0, 2.0, 7.0, -0.5, 0.0, 7.0, 1.0, 1.0, 7.0]),
          [4, 0, 2]], {}),
    ]
]


def main():
    """Arguments (for long runs by hand): DRAWS [PATH [SEED]]."""
    global DRAWS, SEED
    root = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(root, "data", "value_sweep.txt")
    if len(sys.argv) > 1:
        DRAWS = int(sys.argv[1])
    if len(sys.argv) > 2:
        path = sys.argv[2]
    if len(sys.argv) > 3:
        SEED = int(sys.argv[3])
    cases, nops, nerr, skipped, excluded = [], 0, 0, [], {}
    for qualname, schema in builtin_schemas():
        if not qualname.startswith("aten.") or qualname in SKIPPED:
            skipped.append(qualname)
            continue
        # AIRC_SWEEP_ONLY=a,b (by hand): only the ops whose qualname holds a or b
        only = os.environ.get("AIRC_SWEEP_ONLY")
        if only and not any(w in qualname for w in only.split(",")):
            continue
        nops += 1
        args = parse_schema(schema)
        rng = random.Random(SEED ^ zlib.crc32(qualname.encode()))
        short = qualname[5:]
        made, tries = 0, 0
        while made < DRAWS and tries < 10 * DRAWS:
            tries += 1
            name = "%s.%d" % (short, made)
            torch.manual_seed(0)
            try:
                lines, is_err = run_draw(qualname, args, Draw(rng), name)
            except Skip:
                continue
            except Excluded as e:
                excluded[e.args[0]] = excluded.get(e.args[0], 0) + 1
                continue
            made += 1
            nerr += is_err
            cases.append("\n".join(lines))
    for name, qualname, pos, kw in PINNED:
        lines, is_err = run_case(qualname, pos, kw, "pinned." + name, False)
        nerr += is_err
        cases.append("\n".join(lines))
    text = "# Generated by tests/gen_value_sweep.py (PyTorch %s); do not edit.\n" % (
        torch.__version__) + "\n".join(cases) + "\n"
    with open(path, "w") as f:
        f.write(text)
    print("wrote %s: %d ops, %d cases (%d errors), %d bytes; not swept: %s" % (
        path, nops, len(cases), nerr, len(text), " ".join(skipped)))
    print("draws excluded: " + ", ".join("%s %d" % (k, excluded.get(k, 0)) for k in EXCLUSIONS))


if __name__ == "__main__":
    main()
