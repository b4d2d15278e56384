#!/usr/bin/python3
"""Records partitioner expectations for test_partition.c.

For each case, writes tests/data/partition/NAME.fx (str(graph)) and NAME.txt:
    support OP...                     the supported ops (call_function targets)
    torch single 0|1                  torch 1.13 CapabilityBasedPartitioner
    model horizontal 0|1 single 0|1   naive_propose below (torch 2.0 semantics)
    partition NAME...                 one line per partition (sorted names)
    same 0|1                          1 when torch 1.13 equals the model with
                                      horizontal fusion off, for both modes
torch 1.13 keeps only the most upstream user partitions and merges them all;
torch 2.0 (what airc follows) tries the merges one by one in user order and
refuses each one that would make a cycle, and adds horizontal fusion. The
two agree on most graphs; `same` says where, and the C test compares airc
with torch 1.13 there, and with the model (an independent, deliberately
naive implementation: a plain DFS over the contracted graph per merge) on
every case and in both modes.
Run: /usr/bin/python3 tests/gen_partition_cases.py
"""
import operator
import os
import random

import torch
import torch.fx as fx
from torch.fx.passes.infra.partitioner import CapabilityBasedPartitioner
from torch.fx.passes.operator_support import create_op_support

aten = torch.ops.aten
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "partition")
BASIC = [aten.add.Tensor, aten.mul.Tensor, aten.relu.default, aten.neg.default]


def op_name(t):
    if t is operator.getitem:
        return "operator.getitem"
    return "aten." + str(t).split("aten.", 1)[1] if "aten." in str(t) else str(t)


def chain(x):
    return aten.mul.Tensor(aten.add.Tensor(aten.neg.default(aten.relu.default(x)), x), x)


def notes_example(x, y):
    # like the notes' part2b example: two partitions split by mm, trailing single neg
    a = aten.relu.default(x)
    b = aten.neg.default(a)
    m = aten.mm.default(b, y)
    c = aten.relu.default(m)
    d = aten.neg.default(c)
    e = aten.add.Tensor(d, c)
    f = aten.mul.Tensor(e, e)
    g = aten.mm.default(f, y)
    return aten.neg.default(g)


def cycle(x):
    r = aten.relu.default(x)
    m = aten.mm.default(r, r)
    a = aten.add.Tensor(r, m)
    return aten.neg.default(a)


def diamond(x, y):
    a = aten.relu.default(x)
    b = aten.neg.default(a)
    c = aten.mul.Tensor(a, a)
    d = aten.add.Tensor(b, c)
    m = aten.mm.default(d, y)
    e = aten.relu.default(m)
    f = aten.add.Tensor(e, d)
    return aten.neg.default(f)


def two_outputs(x, y):
    a = aten.relu.default(x)
    b = aten.neg.default(a)
    c = aten.mm.default(a, y)
    d = aten.mm.default(b, y)
    return aten.add.Tensor(c, d)


def multi_out(x):
    s = aten.split.Tensor(x, 2)
    a = operator.getitem(s, 0)
    b = operator.getitem(s, 1)
    c = aten.relu.default(a)
    d = aten.neg.default(b)
    return aten.add.Tensor(c, d)


def make_random(seed, n):
    rng = random.Random(seed)
    g = fx.Graph()
    vals = [g.placeholder("x"), g.placeholder("y")]
    unary = [aten.relu.default, aten.neg.default]
    binary = [aten.add.Tensor, aten.mul.Tensor, aten.mm.default, aten.mm.default]
    for _ in range(n):
        if rng.random() < 0.4:
            node = g.call_function(rng.choice(unary), (rng.choice(vals[-6:]),))
        else:
            node = g.call_function(rng.choice(binary), (rng.choice(vals[-6:]), rng.choice(vals)))
        vals.append(node)
    outs = [v for v in vals[2:] if not v.users]
    g.output(tuple(outs) if len(outs) > 1 else outs[0])
    return fx.GraphModule(torch.nn.Module(), g)


CASES = [
    ("chain", lambda: fx.symbolic_trace(chain), BASIC),
    ("notes", lambda: fx.symbolic_trace(notes_example), BASIC),
    ("cycle", lambda: fx.symbolic_trace(cycle), BASIC),
    ("diamond", lambda: fx.symbolic_trace(diamond), BASIC),
    ("two_outputs", lambda: fx.symbolic_trace(two_outputs), BASIC),
    ("multi_out", lambda: fx.symbolic_trace(multi_out), BASIC + [aten.split.Tensor, operator.getitem]),
    ("multi_out_unsup", lambda: fx.symbolic_trace(multi_out), BASIC + [operator.getitem]),
    ("random1", lambda: make_random(1, 40), BASIC),
    ("random2", lambda: make_random(2, 60), BASIC),
    ("random3", lambda: make_random(3, 80), BASIC),
    ("random4", lambda: make_random(4, 150), BASIC),
    ("random5", lambda: make_random(5, 200), BASIC),
    ("random6", lambda: make_random(6, 120), BASIC + [aten.mm.default]),
    ("random7", lambda: make_random(7, 200), [aten.relu.default, aten.mm.default, aten.add.Tensor]),
    ("random8", lambda: make_random(8, 250), BASIC),
]


def naive_propose(gm, sup, horizontal, single):
    """torch 2.0's propose_partitions semantics, written for clarity."""
    assign, parts, counter = {}, {}, [0]

    def cycle(a, b):
        merged = parts[a] | parts[b]
        seen, stack = set(), [u for n in merged for u in n.users if u not in merged]
        while stack:
            x = stack.pop()
            if x in merged:
                return True
            members = parts[assign[x]] if x in assign else {x}
            key = assign.get(x, x)
            if key in seen:
                continue
            seen.add(key)
            stack.extend(u for m in members for u in m.users if u not in members)
        return False

    for v in reversed(list(gm.graph.nodes)):
        cands, created = [], False
        if v.op == "call_function" and v.target in sup:
            pid = counter[0]
            counter[0] += 1
            parts[pid], assign[v] = {v}, pid
            cands.append(pid)
            created = True
        if created or horizontal:
            for u in v.users:
                if u in assign and assign[u] not in cands:
                    cands.append(assign[u])
        for other in cands[1:]:
            if not cycle(cands[0], other):
                for n in parts[other]:
                    assign[n] = cands[0]
                parts[cands[0]] |= parts.pop(other)
    # getitem users follow their producer
    moves = {}
    for n in gm.graph.nodes:
        if all(u.op == "call_function" and u.target is operator.getitem for u in n.users):
            for u in n.users:
                if assign.get(u) != assign.get(n):
                    moves[u] = assign.get(n)
    for u, pid in moves.items():
        if u in assign:
            parts[assign.pop(u)].discard(u)
        if pid is not None:
            assign[u] = pid
            parts[pid].add(u)
    noncompute = (operator.getitem,)
    res = []
    for p in parts.values():
        compute = sum(1 for n in p if n.target not in noncompute and "aten.view" not in str(n.target))
        if p and (single or compute > 1):
            res.append(sorted(n.name for n in p))
    return sorted(res)


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, build, support in CASES:
        gm = build()
        sup = set(support)
        op_support = create_op_support(
            lambda submods, node, sup=sup: node.op == "call_function" and node.target in sup)
        lines = ["# generated by tests/gen_partition_cases.py with torch " + torch.__version__,
                 "support " + " ".join(op_name(t) for t in support)]
        same = True
        for single in (0, 1):
            parts = CapabilityBasedPartitioner(gm, op_support, bool(single)).propose_partitions()
            parts = sorted(sorted(n.name for n in p.nodes) for p in parts)
            lines.append("torch single %d" % single)
            lines += ["partition " + " ".join(p) for p in parts]
            same = same and parts == naive_propose(gm, sup, False, single)
        for horizontal in (0, 1):
            for single in (0, 1):
                lines.append("model horizontal %d single %d" % (horizontal, single))
                lines += ["partition " + " ".join(p)
                          for p in naive_propose(gm, sup, horizontal, single)]
        lines.append("same %d" % same)
        print(name, "torch 1.13 == model" if same else "torch 1.13 differs from the model")
        with open(os.path.join(OUT, name + ".fx"), "w") as f:
            f.write(str(gm.graph))
        with open(os.path.join(OUT, name + ".txt"), "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
