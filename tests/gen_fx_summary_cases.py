#!/usr/bin/python3
"""Writes tests/data/fx_summary/: debug.fx_summary cases with PyTorch 1.13 as
the oracle. Run with Debian's python3-torch:
    /usr/bin/python3 tests/gen_fx_summary_cases.py

Each case is a small function traced with make_fx. NAME.fx is its graph as
torch prints it, with airc's type slot on each placeholder (the example
input's dtype and sizes), so airc knows the signature. NAME.csv is the csv
that TorchAir's rules give for that graph: the graph is interpreted on fake
tensors; for each call_function node the target's row counts the call and
the text of its arguments (f"{args}", then ", {kwargs}" when there are any)
and of its result, with a fake tensor printed as f"{dtype name}{sizes}";
rows in the order targets first appear, signatures most frequent first;
the file written by csv.writer in utf-8-sig. The status column comes from
airc's converter set, which torch cannot know: every aten op used here has
a converter in airc (backends/ge/convert_*.c), operator.getitem is a
builtin. tests/unit/test_fx_summary.c compiles each graph with the summary
on and compares the bytes.
"""
import csv
import operator
import os

import torch
from torch._subclasses.fake_tensor import FakeTensor, FakeTensorMode
from torch.fx import Interpreter
from torch.fx.experimental.proxy_tensor import make_fx

A = torch.ops.aten
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "fx_summary")
SHORT = {torch.float32: "f32", torch.float16: "f16", torch.int64: "i64", torch.bool: "b8"}


def fake_repr(t):
    return f"{str(t.dtype).split('.')[-1]}{tuple(t.size())}"


class Summary(Interpreter):
    """Counts, per target, the text of each call's arguments and result."""

    def __init__(self, gm):
        super().__init__(gm)
        self.rows = {}  # target -> [count, {inputs: n}, {outputs: n}]

    def call_function(self, target, args, kwargs):
        out = super().call_function(target, args, kwargs)
        row = self.rows.setdefault(target, [0, {}, {}])
        ins = f"{args}, {kwargs}" if kwargs else f"{args}"
        row[0] += 1
        row[1][ins] = row[1].get(ins, 0) + 1
        row[2][f"{out}"] = row[2].get(f"{out}", 0) + 1
        return out


def stats(d):
    return "\n".join(f"{n}次：{s}" for s, n in sorted(d.items(), key=lambda x: x[1], reverse=True))


def write_case(name, fn, inputs):
    gm = make_fx(fn)(*inputs)
    prior = FakeTensor.__repr__
    FakeTensor.__repr__ = fake_repr
    try:
        mode = FakeTensorMode()
        s = Summary(gm)
        with mode:
            s.run(*[mode.from_tensor(t) for t in inputs])
    finally:
        FakeTensor.__repr__ = prior
    with open(os.path.join(OUT, name + ".csv"), "w", newline="", encoding="utf-8-sig") as f:
        w = csv.writer(f)
        w.writerow(["目标函数", "函数类型", "支持状态", "调用次数", "输入统计", "输出统计"])
        for target, (count, ins, outs) in s.rows.items():
            builtin = target is operator.getitem
            kind = "builtin" if builtin else "prims" if "prim" in str(target) else "aten"
            w.writerow([str(target), kind, "已支持", str(count), stats(ins), stats(outs)])
    lines = str(gm.graph).split("\n")
    it = iter(inputs)
    for i, line in enumerate(lines):
        if "= placeholder[" in line:
            t = next(it)
            dims = ", ".join(str(d) for d in t.shape)
            lines[i] = line.replace(" : [", f" : {SHORT[t.dtype]}[{dims}] [", 1)
    with open(os.path.join(OUT, name + ".fx"), "w") as f:
        f.write("\n".join(lines) + "\n")


def mlp(x, w1, b1, w2, w3):
    # mm three times: two calls of one signature, one of another
    h = A.add.Tensor(A.mm.default(x, w1), b1)
    g = A.gelu.default(h, approximate="tanh")
    u = A.mm.default(g, w2)
    v = A.mm.default(h, w2)
    z = A.mul.Tensor(A.add.Tensor(u, v, alpha=2), 0.5)
    return A.mm.default(z, w3), A.add.Tensor(z, 1e-05)


def multi(x, idx):
    # tuple results read with getitem, a list result, a 0-d result, ints,
    # bools and an int64 input
    values, indices = A.max.dim(x, 1, True)
    parts = A.split.Tensor(x, 3, 1)
    y = A.native_layer_norm.default(parts[0], [3], None, None, 1e-05)
    s = A.sum.default(y[0])
    big = A.gt.Scalar(x, 0.5)
    sel = A.index_select.default(x, 0, idx)
    return values, indices, parts[1], y[1], y[2], s, big, sel


def main():
    os.makedirs(OUT, exist_ok=True)
    torch.manual_seed(0)
    write_case("mlp", mlp, [torch.randn(4, 8), torch.randn(8, 16), torch.randn(16),
                            torch.randn(16, 16), torch.randn(16, 2)])
    write_case("multi", multi, [torch.randn(2, 6), torch.tensor([1, 0, 1])])


if __name__ == "__main__":
    main()
