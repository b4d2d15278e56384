"""airc.get_npu_backend: a torch.compile backend (TorchAir's
torchair.get_npu_backend) that compiles with airc.

On torch >= 2 the backend hands the Dynamo graph to AOT autograd
(torch._dynamo.backends.common.aot_autograd), which traces it to ATen and
calls airc.compile on the forward (and backward) graph. On torch < 2 there
is no torch.compile; the backend can still be called by hand,
backend(gm, example_inputs), on a torch-level GraphModule (e.g.
torch.fx.symbolic_trace(model)): it traces gm to ATen with make_fx, then
compiles with airc.
"""
from . import _compile, _config


def torch_major():
    """torch's major version (0 when torch is not importable)."""
    try:
        import torch
    except ImportError:
        return 0
    try:
        return int(torch.__version__.split(".")[0])
    except ValueError:
        return 0


def _boxed(fn):
    """A compiled function AOT autograd calls with one list of arguments."""
    try:
        from torch._functorch.aot_autograd import make_boxed_func
    except ImportError:
        def make_boxed_func(f):
            def g(args):
                return f(*args)

            g._boxed_call = True
            return g
    return make_boxed_func(fn)


def _airc_compiler(config):
    """AOT autograd's fw_compiler / bw_compiler: an ATen GraphModule and
    its (fake) example inputs -> a boxed callable."""

    def compiler(gm, example_inputs):
        compiled = _compile.compile(gm, example_inputs, config)

        def run(*args):
            out = compiled(*args)
            return out if isinstance(out, (tuple, list)) else (out,)

        run.airc_compiled = compiled
        return _boxed(run)

    return compiler


def get_npu_backend(compiler_config=None, decompositions=None, aot=True):
    """A backend for torch.compile(model, backend=...), as TorchAir's.

    compiler_config: an airc.CompilerConfig (None: the defaults); its mode,
    passes and options apply to every graph the backend compiles.
    decompositions: a decomposition table for AOT autograd (None: AOT's
    default, the ATen ops as traced).
    aot: False hands Dynamo's graph to from_fx as is (only for graphs
    already at ATen level)."""
    config = compiler_config if compiler_config is not None else _config.CompilerConfig()
    if not isinstance(config, _config.CompilerConfig):
        raise TypeError("compiler_config must be an airc.CompilerConfig, not %s" %
                        type(config).__name__)
    compiler = _airc_compiler(config)

    def backend(gm, example_inputs, **kwargs):
        if torch_major() >= 2 and aot:
            from torch._dynamo.backends.common import aot_autograd

            kw = {"fw_compiler": compiler, "bw_compiler": compiler}
            if decompositions is not None:
                kw["decompositions"] = decompositions
            return aot_autograd(**kw)(gm, example_inputs)
        if torch_major() == 0:
            raise RuntimeError("airc.get_npu_backend needs torch")
        if aot:
            # torch 1.x: no Dynamo and no AOT entry point with fake
            # tensors; make_fx traces gm to ATen on the real inputs.
            from torch.fx.experimental.proxy_tensor import make_fx

            gm = make_fx(gm)(*example_inputs)
        compiled = _compile.compile(gm, example_inputs, config)
        return compiled

    backend.compiler_config = config
    return backend

