#!/usr/bin/python3
"""Generates airc's own graph suite in tests/data/graphs/ with PyTorch as the oracle.

Run with Debian's interpreter (PyTorch 1.13):  /usr/bin/python3 tests/gen_graphs.py

For each model NAME, traced with make_fx (the ATen graphs TorchAir's AOT
tracing hands to custom passes), it writes the layout of ../shared/conformance:
  NAME.fx         str(gm.graph) + "\\n"
  NAME.in{i}.npy  the i-th input (fixed seed)
  NAME.out{i}.npy the i-th output computed by PyTorch (eager)
  NAME.json       {"inputs": [[dtype, shape]...], "outputs": [...], "ops": [...], "nodes": N}
The files are committed; rerunning with the same PyTorch gives the same bytes.
"""
import json
import os
import sys

import numpy as np
import torch
import torch.nn.functional as F
from torch.fx.experimental.proxy_tensor import make_fx

OUT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "graphs")
SEED = 20240501


def randn(*shape):
    return torch.randn(*shape)


def seed001(x):
    # seed 001's model: mm, abs, add, sub
    mm = torch.mm(x, x)
    a = torch.abs(mm)
    add = torch.add(a, 1)
    sub = torch.sub(x, mm)
    return add, sub


def mlp(x, w1, b1, w2, b2, w3, b3):
    h = F.relu(F.linear(x, w1, b1))
    h = F.silu(F.linear(h, w2, b2))
    return F.linear(h, w3, b3)


def attention(x, wq, wk, wv, wo, g, b):
    h = F.layer_norm(x, (16,), g, b, 1e-5)
    B, T, C = h.shape
    q = (h @ wq).view(B, T, 4, 4).transpose(1, 2)
    k = (h @ wk).view(B, T, 4, 4).transpose(1, 2)
    v = (h @ wv).view(B, T, 4, 4).transpose(1, 2)
    att = (q @ k.transpose(-2, -1)) * 0.5
    att = torch.softmax(att, dim=-1)
    y = (att @ v).transpose(1, 2).reshape(B, T, C)
    return x + y @ wo


def layer_norm(x, g, b):
    y = F.layer_norm(x, (8,), g, b, eps=1e-6)
    z = F.layer_norm(x, (6, 8))  # no affine parameters: None arguments
    return y, z


def conv_pool(x, w, bias):
    y = F.conv2d(x, w, bias, stride=1, padding=1)
    y = F.relu(y)
    y = F.max_pool2d(y, 2)
    z = F.avg_pool2d(y, 2)
    a = F.adaptive_avg_pool2d(y, (1, 1))
    return z, a


def softmax(x):
    return torch.softmax(x, dim=1), torch.log_softmax(x, dim=-1), torch.softmax(x, dim=0)


def reductions(x):
    s = x.sum(dim=(0, 2), keepdim=True)
    m = x.mean(dim=-1)
    mx = x.amax(dim=[-2, -1])
    mn = x.amin(dim=0, keepdim=True)
    v = x.var(dim=1, unbiased=True)
    t = x.sum()
    return s, m, mx, mn, v, t


def broadcast(x, y, z):
    a = x * 2.5 + y
    b = a - 1e-05
    c = torch.pow(b, 2) / (z + 3)
    d = 1 - c
    e = torch.clamp(d, min=-0.5, max=0.5)
    f = torch.sqrt(torch.abs(e) + 1e-12) * torch.exp(-x)
    g = torch.maximum(f, y)
    return g, torch.rsqrt(torch.abs(c) + 1.0), torch.tanh(a) * 1e+16


def views(x, y):
    p = x.permute(2, 0, 1)
    t = p.transpose(0, 1)
    s = t[:, 1:3]
    sel = s.select(2, 0)
    u = sel.unsqueeze(0)
    e = u.expand(2, -1, -1)
    c = torch.cat([e, e * 2], dim=1)
    parts = torch.split(c, 2, dim=1)
    q = parts[0].squeeze(0) if parts[0].shape[0] == 1 else parts[0]
    r = y.reshape(4, 6).t().contiguous()
    sq = y.unsqueeze(1).squeeze(1)
    return q + 1, parts[1], r, sq


def compare_where(x, y):
    m = x > 0
    n = torch.lt(y, 0.25)
    both = torch.logical_and(m, n)
    w = torch.where(both, x, y)
    f = w.masked_fill(~m, -1.0)
    eq = (x == y)
    ne = x != 0.5
    return f, eq, ne, torch.logical_or(m, n)


def inplace(x, y):
    a = x.clone()
    a.add_(y)
    a.mul_(2.0)
    a.relu_()
    b = y.clone()
    b.sub_(1, alpha=2)
    b.clamp_(min=-1.0)
    return a, b, a.sum()


def gelu_tanh(x, w):
    a = F.gelu(x @ w, approximate="tanh")
    b = F.gelu(x)
    c = F.silu(a) + torch.sigmoid(b)
    return a, c


def int_ops(x, idx):
    am = torch.argmax(x, dim=1)
    cs = torch.cumsum(idx, dim=0)
    ci = idx * 3 + 2
    mx = torch.max(x, dim=1)
    ar = torch.arange(6, dtype=torch.int64)
    return am, cs, ci, mx.values, mx.indices, ar + idx


def embedding(ids, table, w):
    e = F.embedding(ids, table)
    h = e.sum(dim=1)
    return h @ w, torch.index_select(table, 0, ids[0])


def creation(x):
    o = torch.ones_like(x)
    z = torch.zeros(2, 3, dtype=torch.float32)
    f = torch.full((2, 3), 0.1)
    d = x.to(torch.float64) * 3
    i = x.to(torch.int32)
    e = torch.empty(2, 3).fill_(7.0)
    return o + z + f + e, d, i


def bmm_chain(a, b, c):
    ab = torch.bmm(a, b)
    abc = torch.bmm(ab, c)
    y = torch.matmul(a, b.mean(dim=0))
    return abc / 4, y


def padding_tril(x):
    p = F.pad(x, (1, 2, 0, 1), value=0.5)
    lo = torch.tril(p)
    up = torch.triu(p, diagonal=1)
    return lo - up, torch.stack([x, -x], dim=0)


def literals(x, y):
    # literals at the edges of the text format: int64 bounds, -inf, nan-free
    # softmax over an -inf mask, tiny and huge floats
    big = (x - 2) + 9223372036854775807
    small = x - 9223372036854775807
    lo = torch.full((2,), -9223372036854775808, dtype=torch.int64)
    mask = y > 0.5
    att = torch.softmax(y.masked_fill(mask, float("-inf")), dim=-1)
    tiny = y * 1e-300 + 2.5e-08
    return big, small, lo, att, torch.clamp(tiny, max=float("inf"))


def I64(*shape, hi=10):
    return torch.randint(0, hi, shape, dtype=torch.int64)


# name -> (function, example-input factory)
MODELS = {
    "seed001": (seed001, lambda: [randn(3, 3)]),
    "mlp": (mlp, lambda: [randn(4, 16), randn(32, 16), randn(32), randn(32, 32), randn(32),
                          randn(8, 32), randn(8)]),
    "attention": (attention, lambda: [randn(2, 5, 16), randn(16, 16), randn(16, 16),
                                      randn(16, 16), randn(16, 16), randn(16), randn(16)]),
    "layer_norm": (layer_norm, lambda: [randn(3, 6, 8), randn(8), randn(8)]),
    "conv_pool": (conv_pool, lambda: [randn(2, 3, 8, 8), randn(4, 3, 3, 3), randn(4)]),
    "softmax": (softmax, lambda: [randn(4, 7)]),
    "reductions": (reductions, lambda: [randn(3, 4, 5)]),
    "broadcast": (broadcast, lambda: [randn(4, 5), randn(5), randn(4, 1)]),
    "views": (views, lambda: [randn(3, 4, 5), randn(2, 12)]),
    "compare_where": (compare_where, lambda: [randn(4, 6), randn(4, 6)]),
    "inplace": (inplace, lambda: [randn(4, 6), randn(4, 6)]),
    "gelu_tanh": (gelu_tanh, lambda: [randn(4, 8), randn(8, 8)]),
    "int_ops": (int_ops, lambda: [randn(6, 5), I64(6)]),
    "embedding": (embedding, lambda: [I64(2, 3, hi=10), randn(10, 8), randn(8, 4)]),
    "creation": (creation, lambda: [randn(2, 3) * 4]),
    "bmm_chain": (bmm_chain, lambda: [randn(3, 4, 5), randn(3, 5, 6), randn(3, 6, 2)]),
    "padding_tril": (padding_tril, lambda: [randn(4, 5)]),
    "literals": (literals, lambda: [I64(4, hi=3), torch.rand(3, 4) + 0.1 * torch.eye(3, 4)]),
}


def flat_outputs(out):
    if isinstance(out, (tuple, list)):
        res = []
        for o in out:
            res.extend(flat_outputs(o))
        return res
    return [out]


def dtype_name(t):
    return str(t.dtype).replace("torch.", "")


def generate(name, fn, make_inputs, registered):
    torch.manual_seed(SEED + sum(map(ord, name)))
    inputs = make_inputs()
    gm = make_fx(fn)(*[t.clone() for t in inputs])
    outs = flat_outputs(fn(*[t.clone() for t in inputs]))
    text = str(gm.graph)
    ops = sorted({str(n.target) for n in gm.graph.nodes if n.op == "call_function"})
    missing = [o for o in ops if registered is not None and o not in registered
               and o != "<built-in function getitem>"]
    if missing:
        print(f"warning: {name}: ops unknown to airc: {missing}", file=sys.stderr)
    with open(os.path.join(OUT_DIR, name + ".fx"), "w") as f:
        f.write(text + "\n")
    for i, t in enumerate(inputs):
        np.save(os.path.join(OUT_DIR, f"{name}.in{i}.npy"), t.numpy())
    for i, t in enumerate(outs):
        np.save(os.path.join(OUT_DIR, f"{name}.out{i}.npy"), t.detach().numpy())
    meta = {
        "inputs": [[dtype_name(t), list(t.shape)] for t in inputs],
        "outputs": [[dtype_name(t), list(t.shape)] for t in outs],
        "ops": ops,
        "nodes": len(gm.graph.nodes),
    }
    with open(os.path.join(OUT_DIR, name + ".json"), "w") as f:
        json.dump(meta, f, indent=1)
        f.write("\n")


def registered_ops():
    """Op names airc registers (from src/ops/builtin_ops.c), to warn early."""
    path = os.path.join(os.path.dirname(OUT_DIR), "..", "..", "src", "ops", "builtin_ops.c")
    try:
        with open(path) as f:
            src = f.read()
    except OSError:
        return None
    import re
    return set(re.findall(r'^\s*\{"([a-z_]+\.[A-Za-z0-9_]+\.[A-Za-z0-9_]+)"', src, re.M))


def main():
    os.makedirs(OUT_DIR, exist_ok=True)
    names = sys.argv[1:] or list(MODELS)
    registered = registered_ops()
    for name in names:
        fn, make_inputs = MODELS[name]
        generate(name, fn, make_inputs, registered)
    print(f"wrote {len(names)} models to {OUT_DIR}")


if __name__ == "__main__":
    main()
