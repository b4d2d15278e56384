"""Writes multistream.after.fx: what torch.fx prints for the seed model after
the seed-001 multi-stream pass, as the guide writes it.

Run with a Python that has torch 1.13 (/usr/bin/python3 here):

    python3 examples/seed001/make_multistream_golden.py > examples/seed001/multistream.after.fx

torch 1.13 has no torch.ops.air, so the four ops are declared here with
TorchAir's schemas (torch.library, no kernels: the graph is only edited,
never run). The pass is the guide's, with one deliberate difference: the new
nodes are named as make_fx names the nodes it traces (the op's overload
packet name: `record`), which is the naming airc uses for every new node,
instead of Graph.call_function's `record_default`. Order, targets, args and
users are torch.fx's own.
"""
import torch
from torch.fx.experimental.proxy_tensor import make_fx

lib = torch.library.Library("air", "DEF")
lib.define("scope_enter(str[] keys, str[] values, bool need_execute=False) -> ()")
lib.define("scope_exit(bool need_execute=False) -> ()")
lib.define("record(*, Device? device=None) -> Tensor")
lib.define("wait(Tensor[] x) -> ()")


def model(x):
    mm = torch.mm(x, x)
    abs = torch.abs(mm)
    add = torch.add(abs, 1)
    sub = torch.sub(x, mm)
    return add, sub


def call(graph, target, args):
    # make_fx's naming (proxy_tensor.py): the overload packet's name.
    name = graph._target_to_str(target.overloadpacket.__name__)
    return graph.create_node("call_function", target, args, {}, name=name)


def custom_pre_pass(gm, example_inputs, config):
    fx_graph = gm.graph
    for node in fx_graph.nodes:
        if node.op == "call_function" and node.target == torch.ops.aten.mm.default:
            with fx_graph.inserting_before(node):
                call(fx_graph, torch.ops.air.scope_enter.default,
                     (["_user_stream_label"], ["stream_1"]))
        if node.op == "call_function" and node.target == torch.ops.aten.abs.default:
            with fx_graph.inserting_after(node):
                record_node = call(fx_graph, torch.ops.air.record.default, ())
            with fx_graph.inserting_after(record_node):
                call(fx_graph, torch.ops.air.scope_exit.default, ())
        if node.op == "call_function" and node.target == torch.ops.aten.sub.Tensor:
            with fx_graph.inserting_before(node):
                call(fx_graph, torch.ops.air.wait.default, ([record_node],))


gm = make_fx(model)(torch.randn(3, 3))
# The project's copy of the model graph is this text (placeholder x_1).
assert str(gm.graph).strip() == open(__file__.rsplit("/", 1)[0] + "/model.fx").read().strip()
custom_pre_pass(gm, None, None)
gm.graph.lint()
print(str(gm.graph).strip())
