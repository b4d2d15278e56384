#!/usr/bin/env python3
"""Seed 001 end to end from Python: TorchAir's "custom FX pass" guide with
airc in place of torchair.

The model and the custom pass are the guide's (the pass with airc.ops
targets instead of torch.ops: torch has no air ops without torch_npu);
the config is the guide's (post_grad_custom_pre_pass, the pbtxt dump,
AutomaticUbFusion off). The model is compiled in reduce-overhead (a
captured launch table over two streams) and in max-autotune (Ascend IR,
dumped as pbtxt), run, checked against PyTorch, and its graph printed;
the reduce-overhead replay is written as a Chrome trace.

    PYTHONPATH=python python3 examples/python/multistream.py [--out DIR]

writes DIR/trace.json (open it in Perfetto or chrome://tracing) and
DIR/graph_dump/dynamo_original_graph_<N>.pbtxt (Netron reads it).
On torch >= 2 it also runs torch.compile(model, backend=npu_backend).
"""
import argparse
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
try:
    import airc
except ImportError:  # run from the source tree without PYTHONPATH
    sys.path.insert(0, os.path.join(REPO, "python"))
    import airc


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        mm = torch.mm(x, x)
        abs = torch.abs(mm)
        add = torch.add(abs, 1)
        sub = torch.sub(x, mm)
        return add, sub


# The guide's pass; torch.ops.air.* -> airc.ops.air.* (torch.ops.aten.*
# would do as well: targets compare equal to both).
def _custom_pre_pass(gm, example_inputs, config: airc.CompilerConfig):
    fx_graph = gm.graph
    for node in fx_graph.nodes:
        if node.op == "call_function" and node.target == airc.ops.aten.mm.default:
            with fx_graph.inserting_before(node):
                # the nodes between scope_enter and scope_exit run on stream_1
                fx_graph.call_function(airc.ops.air.scope_enter.default, args=(
                    ["_user_stream_label"], ["stream_1"]))

        if node.op == "call_function" and node.target == airc.ops.aten.abs.default:
            with fx_graph.inserting_after(node):
                record_node = fx_graph.call_function(airc.ops.air.record.default, args=())
            with fx_graph.inserting_after(record_node):
                fx_graph.call_function(airc.ops.air.scope_exit.default, args=())

        # sub waits for what ran before record (mm, abs on stream_1)
        if node.op == "call_function" and node.target == airc.ops.aten.sub.Tensor:
            with fx_graph.inserting_before(node):
                fx_graph.call_function(airc.ops.air.wait.default, args=([record_node],))


def make_config(mode, dump_dir):
    config = airc.CompilerConfig()
    config.post_grad_custom_pre_pass = _custom_pre_pass
    # optional: config.post_grad_custom_post_pass = _custom_pre_pass
    config.mode = mode
    if mode == "max-autotune":
        # the dump of the Ascend IR graph (airc refuses pbtxt in
        # reduce-overhead: there is no GE graph there)
        config.debug.graph_dump.type = "pbtxt"
        config.debug.graph_dump.path = dump_dir
    # fusion off, so that a profile shows the streams (airc does not fuse)
    config.ge_config.optimization_switch = "AutomaticUbFusion:off"
    return config


def check(got, want, what):
    for g, w in zip(got, want):
        torch.testing.assert_close(g, w, rtol=1e-4, atol=1e-4 * (1 + float(w.abs().max())))
    print("%s: results equal PyTorch's" % what)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="multistream_out", help="folder for the trace and dump")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    dump_dir = os.path.join(args.out, "graph_dump")

    model = Model()
    x_path = os.path.join(REPO, "examples", "seed001", "x.npy")
    if os.path.exists(x_path):
        import numpy as np

        x = torch.from_numpy(np.load(x_path))
    else:
        x = torch.randn([3, 3])
    want = model(x)

    # torch.compile needs torch >= 2; the same backend traces a module by
    # hand on torch 1.x (make_fx to ATen, then airc).
    from torch.fx.experimental.proxy_tensor import make_fx

    gm = make_fx(model)(x)
    print("--- the ATen graph (make_fx) ---")
    print(gm.graph)

    for mode in ("reduce-overhead", "max-autotune"):
        config = make_config(mode, dump_dir)
        compiled = airc.compile(gm, example_inputs=[x], config=config)
        print("--- %s: the graph after the passes ---" % mode)
        print(compiled.graph.format(types=False))
        if mode == "reduce-overhead":
            compiled.set_trace(True)
        for _ in range(2):  # capture, then a traced replay
            got = compiled(x)
        check(got, want, mode)
        stats = compiled.stats()
        if mode == "reduce-overhead":
            trace = os.path.join(args.out, "trace.json")
            compiled.write_trace(trace)
            print("reduce-overhead: %d streams, %d launches, %d events, %d captures, "
                  "%d replays; Chrome trace: %s" % (stats["streams"], stats["launches"],
                                                   stats["events"], stats["captures"],
                                                   stats["replays"], trace))
            assert stats["streams"] == 2, stats
        else:
            dumps = sorted(f for f in os.listdir(dump_dir) if f.endswith(".pbtxt"))
            print("max-autotune: ModelDef %d bytes; pbtxt dump: %s" %
                  (len(compiled.model()), ", ".join(os.path.join(dump_dir, f) for f in dumps)))
            assert dumps

    if int(torch.__version__.split(".")[0]) >= 2:
        npu_backend = airc.get_npu_backend(compiler_config=make_config("reduce-overhead",
                                                                       dump_dir))
        opt_model = torch.compile(model, backend=npu_backend, dynamic=False)
        check(opt_model(x), want, "torch.compile(backend=airc.get_npu_backend(...))")
    else:
        backend = airc.get_npu_backend(compiler_config=make_config("reduce-overhead", dump_dir))
        opt = backend(torch.fx.symbolic_trace(model), [x])
        check(opt(x), want, "get_npu_backend on torch %s (no torch.compile)" % torch.__version__)
    print("multistream.py: ok")


if __name__ == "__main__":
    main()
