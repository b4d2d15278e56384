"""What torch.fx (PyTorch 1.13) prints for the examples of transforms.c that
it can run as they are: the graphs before, and after the in-place edits
(retarget, insert_relu, rewriter), the matcher's matches and the
partitioner's partitions. tests/scripts/test_examples_passes.sh compares
these sections with the C program's output.

    /usr/bin/python3 examples/transforms_reference.py > examples/transforms.torch.txt

Not here: the Transformer examples (torch.fx's Transformer renames every node
from its target, airc keeps names; their checks are in transforms.c), and the
fused graph's text (torch prints nested modules differently).
New nodes are named as make_fx names them (the op's overload packet name),
which is airc's rule for new nodes, instead of Graph.call_function's
`relu_default`.
"""
import torch
from torch.fx import subgraph_rewriter
from torch.fx.experimental.proxy_tensor import make_fx
from torch.fx.passes.infra.partitioner import CapabilityBasedPartitioner
from torch.fx.passes.operator_support import OperatorSupportBase
from torch.fx.passes.utils.matcher_utils import SubgraphMatcher

aten = torch.ops.aten


def inputs(n):
    # Distinct tensors: make_fx would merge inputs given the same tensor twice.
    return [torch.randn(3, 3) for _ in range(n)]


def show(example, stage, graph):
    print(f"--- {example}: {stage} ---")
    print(str(graph).strip())


def add_mul(x, y):
    return (x + y) * y


# retarget: node.target = mul
gm = make_fx(add_mul)(*inputs(2))
show("retarget", "before", gm.graph)
for node in gm.graph.nodes:
    if node.op == "call_function" and node.target == aten.add.Tensor:
        node.target = aten.mul.Tensor
show("retarget", "after", gm.graph)

# insert_relu: inserting_after + replace_all_uses_with (minus the relu itself)
gm = make_fx(add_mul)(*inputs(2))
show("insert_relu", "before", gm.graph)
for node in gm.graph.nodes:
    if node.op == "call_function" and node.target == aten.add.Tensor:
        with gm.graph.inserting_after(node):
            relu = gm.graph.create_node("call_function", aten.relu.default, (node,), {}, name="relu")
        node.replace_all_uses_with(relu)
        relu.args = (node,)  # replace_all_uses_with also rewrote relu's own argument
gm.graph.lint()
show("insert_relu", "after", gm.graph)


# rewriter: replace_pattern (1.13's; replace_pattern_with_filters is 2.0's)
def rewrite_graph(x, y):
    mul = (x + y) * y
    mul_1 = (mul + x) * x
    add_2 = mul_1 + y
    return add_2 * y, torch.relu(add_2)


def pattern(x, y):
    return aten.mul.Tensor(aten.add.Tensor(x, y), y)


def replacement(x, y):
    return aten.sub.Tensor(x, y)


gm = make_fx(rewrite_graph)(*inputs(2))
show("rewriter", "before", gm.graph)
matches = subgraph_rewriter.replace_pattern(gm, pattern, replacement)
gm.graph.lint()
show("rewriter", "after", gm.graph)
print(f"rewriter: {len(matches)} matches replaced")


# matcher
def matcher_graph(x, b, w):
    return aten.addmm.default(b, torch.relu(aten.addmm.default(b, x, w)), w)


def matcher_pattern(bias, x, weight):
    return aten.addmm.default(bias, x, weight)


gm = make_fx(matcher_graph)(*inputs(3))
show("matcher", "graph", gm.graph)
pat = torch.fx.symbolic_trace(matcher_pattern).graph
for flag in (False, True):
    found = SubgraphMatcher(pat, match_placeholder=flag).match(gm.graph)
    print(f"matcher{' (match_placeholder)' if flag else ''}: {len(found)} matches")
    if flag:
        continue
    for m in found:
        print("  anchors:", " ".join(n.name for n in m.anchors))
        print("  nodes_map:", " ".join(f"{p.name}->{n.name}" for p, n in m.nodes_map.items()
                                      if p.op != "output"))
        print("  placeholder_nodes:", " ".join(n.name for n in m.placeholder_nodes))
        print("  returning_nodes:", " ".join(n.name for n in m.returning_nodes))


# partitioner
def partition_graph(x, y):
    relu = torch.relu((x + y) * y)
    return torch.relu(torch.mm(relu, y) + x)


class AddMulRelu(OperatorSupportBase):
    def is_node_supported(self, submodules, node):
        return node.op == "call_function" and node.target in (
            aten.add.Tensor, aten.mul.Tensor, aten.relu.default)


gm = make_fx(partition_graph)(*inputs(2))
show("partitioner", "before", gm.graph)
parts = CapabilityBasedPartitioner(gm, AddMulRelu()).propose_partitions()
order = {n: i for i, n in enumerate(gm.graph.nodes)}
print(f"partitioner: {len(parts)} partitions")
for i, p in enumerate(parts):
    print(f"  partition {i}:", " ".join(n.name for n in sorted(p.nodes, key=order.get)))
