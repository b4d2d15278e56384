"""airc from Python: graphs shaped like torch.fx, TorchAir's CompilerConfig
and custom passes, and compiled graphs run on numpy arrays or torch tensors.

    import airc
    g = airc.Graph.parse(open("model.fx").read())
    config = airc.CompilerConfig()
    config.mode = "reduce-overhead"
    config.post_grad_custom_pre_pass = my_pass      # fn(gm, example_inputs, config)
    f = airc.compile(g, example_inputs=[x], config=config)
    add, sub = f(x)

    gm = make_fx(model)(x)                          # torch.fx at ATen level
    f = airc.compile(gm, [x], config)               # through airc.from_fx
    opt = torch.compile(model, backend=airc.get_npu_backend(compiler_config=config))

Pure Python over libairc.so through ctypes: the library is found through
AIRC_LIBRARY, next to this package, in the source tree's build*/lib, or on
the dynamic loader's path (LD_LIBRARY_PATH, ldconfig).
Importing airc imports nothing else; numpy and torch are imported when
arrays or tensors are used. The library is loaded on first use.
"""
from ._lib import Error, library_path
from ._types import (
    TensorMeta,
    bfloat16,
    bool_,
    device,
    dtype,
    float16,
    float32,
    float64,
    int8,
    int16,
    int32,
    int64,
    layout,
    memory_format,
    uint8,
)
from ._ops import OpOverload, ops
from ._graph import Graph, GraphModule, Node
from ._config import CompilerConfig
from ._compile import Compiled, compile, run_pipeline
from ._fx import bind_constant, from_fx
from ._backend import get_npu_backend

__all__ = [
    "Compiled", "CompilerConfig", "Error", "Graph", "GraphModule", "Node", "OpOverload",
    "TensorMeta", "abi_version", "bind_constant", "compile", "device", "dtype", "from_fx",
    "get_npu_backend", "layout", "library_path", "memory_format", "ops", "run_pipeline",
    "version",
    "bfloat16", "bool_", "float16", "float32", "float64", "int8", "int16", "int32", "int64",
    "uint8",
]


def version():
    """libairc's version string ("0.1.0")."""
    from ._lib import lib

    return lib().airc_version()


def abi_version():
    from ._lib import lib

    return lib().airc_abi_version()
