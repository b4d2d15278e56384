#!/usr/bin/python3
"""Generates the subgraph-rewriter cases in tests/data/passes/ with PyTorch as the oracle.

Run with Debian's interpreter (PyTorch 1.13):  /usr/bin/python3 tests/gen_pass_cases.py

For each case NAME the graph is traced with make_fx (ATen ops), the pattern and
the replacement with symbolic_trace (written with torch.ops.aten.X.overload so
that they match ATen graphs), and torch.fx.subgraph_rewriter.replace_pattern
rewrites the graph. It writes, in the layout of ../shared/conformance/rewrite.*:
  NAME.before.fx       str(graph) before
  NAME.pattern.fx      str(pattern graph)
  NAME.replacement.fx  str(replacement graph)
  NAME.after.fx        str(graph) after replace_pattern
  NAME.json            {"matches": number of Match objects replace_pattern returned}
The files are committed; rerunning with the same PyTorch gives the same bytes.
(rewrite.* itself is a copy of ../shared/conformance/rewrite.*.)
"""
import json
import os

import torch
from torch.fx import symbolic_trace
from torch.fx.experimental.proxy_tensor import make_fx
from torch.fx.subgraph_rewriter import replace_pattern

OUT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "passes")
aten = torch.ops.aten


# ---- graphs (traced with make_fx) ------------------------------------------

def g_leaky(x, y, z):
    # add -> mul, but the intermediate add is also returned: not contained
    a = x + y
    m = a * y
    return torch.relu(m + z), a


def g_neg4(x):
    return -(-(-(-x)))


def g_neg5(x):
    return -(-(-(-(-x))))


def g_repeat(a, b):
    # add(a, a) binds one placeholder twice; add(a, b) two distinct ones
    return torch.relu(a + a), torch.relu(a + b)


def g_literals(x):
    # only the mul by the int 2 matches a pattern written with 2
    return x * 2, x * 3, x * 2.0, (x + 1) * 2


def g_multi_out(x, y):
    n = -x
    return torch.relu(n) + y, torch.abs(n) * y


def g_detach(x):
    d = x.detach()
    return torch.sin(d) + d.detach()


def g_cycle(x, w):
    # mul(add(x, w), relu(add)): fusing {add, mul} would create a cycle
    a = x + w
    u = torch.relu(a)
    return a * u


def g_chain(x, y):
    # add -> mul -> relu chain: every step is a match, and each match's input
    # is the previous match's returning node (match_changed_node)
    h = x
    for _ in range(4):
        h = torch.relu((h + y) * y)
    return h


def g_two_anchor(x, y):
    return torch.sigmoid(x), torch.tanh(y), torch.sigmoid(y)


# ---- patterns and replacements (symbolic_trace) ----------------------------

def p_add_mul(x, y):
    return aten.mul.Tensor(aten.add.Tensor(x, y), y)


def r_sub(x, y):
    return aten.sub.Tensor(x, y)


def p_neg_neg(x):
    return aten.neg.default(aten.neg.default(x))


def r_relu(x):
    return aten.relu.default(x)


def p_add_xy(x, y):
    return aten.add.Tensor(x, y)


def r_mul_xy(x, y):
    return aten.mul.Tensor(x, y)


def p_add_xx(x):
    return aten.add.Tensor(x, x)


def r_mul_2(x):
    return aten.mul.Tensor(x, 3)


def p_mul_2(x):
    return aten.mul.Tensor(x, 2)


def r_add_xx(x):
    return aten.add.Tensor(x, x)


def p_two_out(x):
    n = aten.neg.default(x)
    return aten.relu.default(n), aten.abs.default(n)


def r_two_out(x):
    return aten.sigmoid.default(x), aten.tanh.default(x)


def p_detach(x):
    return aten.detach.default(x)


def r_identity(x):
    return x


def p_add_mul_relu(x, y):
    return aten.relu.default(aten.mul.Tensor(aten.add.Tensor(x, y), y))


def r_clamp(x, y):
    # relu as clamp_min, over the same add and mul: several replacement nodes
    return aten.clamp_min.default(aten.mul.Tensor(aten.add.Tensor(x, y), y), 0)


def p_sig_tanh(x, y):
    return aten.sigmoid.default(x), aten.tanh.default(y)


def r_sig_tanh(x, y):
    return aten.tanh.default(x), aten.sigmoid.default(y)


CASES = [
    # name, graph fn, inputs (shapes), pattern, replacement
    ("leaky", g_leaky, [(3,), (3,), (3,)], p_add_mul, r_sub),
    ("overlap_neg4", g_neg4, [(3,)], p_neg_neg, r_relu),
    ("overlap_neg5", g_neg5, [(3,)], p_neg_neg, r_relu),
    ("repeat_distinct", g_repeat, [(3,), (3,)], p_add_xy, r_mul_xy),
    ("repeat_same", g_repeat, [(3,), (3,)], p_add_xx, r_mul_2),
    ("literals", g_literals, [(3,)], p_mul_2, r_add_xx),
    ("multi_output", g_multi_out, [(3,), (3,)], p_two_out, r_two_out),
    ("detach", g_detach, [(3,)], p_detach, r_identity),
    ("cycle", g_cycle, [(3,), (3,)], p_add_mul, r_sub),
    ("chain", g_chain, [(3,), (3,)], p_add_mul_relu, r_clamp),
    ("two_anchors", g_two_anchor, [(3,), (3,)], p_sig_tanh, r_sig_tanh),
]


def write(name, suffix, text):
    with open(os.path.join(OUT_DIR, f"{name}.{suffix}"), "w") as f:
        f.write(text)


def main():
    os.makedirs(OUT_DIR, exist_ok=True)
    torch.manual_seed(0)
    for name, fn, shapes, pattern, replacement in CASES:
        gm = make_fx(fn)(*[torch.randn(*s) for s in shapes])
        write(name, "before.fx", str(gm.graph) + "\n")
        write(name, "pattern.fx", str(symbolic_trace(pattern).graph) + "\n")
        write(name, "replacement.fx", str(symbolic_trace(replacement).graph) + "\n")
        matches = replace_pattern(gm, pattern, replacement)
        gm.graph.lint()
        write(name, "after.fx", str(gm.graph) + "\n")
        write(name, "json", json.dumps({"matches": len(matches)}))
        print(f"{name}: {len(matches)} match(es)")


if __name__ == "__main__":
    main()
