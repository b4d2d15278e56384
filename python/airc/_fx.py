"""airc.from_fx: a torch.fx GraphModule at ATen level (make_fx or AOT
output) as an airc Graph.

Placeholders keep their names and targets; call_function nodes keep their
names, their targets map to airc ops by qualified name (OpOverload
torch.ops.aten.mm.default -> "aten.mm.default", operator.getitem ->
"operator.getitem"), and their arguments are converted (nodes, ints,
floats, bools, strings, None, dtypes, devices, memory formats, layouts,
nested lists and tuples). get_attr tensors are bound as constants, sharing
the tensor's memory (the tensor is kept alive until the last graph using
it dies), or lifted to placeholders with lift_constants=True.

Works with torch 1.13 (make_fx keeps node.meta["tensor_meta"]) and torch 2
(node.meta["val"] holds a FakeTensor); nothing here needs torch 2.
"""
import itertools
import operator
import threading
from ctypes import c_int64

from . import _graph, _lib, _ops, _types
from ._lib import Error

# ---------------------------------------------------------------------------
# Constants that share a torch tensor's memory
#
# airc borrows the data and calls _free_constant(key) when the last graph
# using it dies (a graph and its clones and compiled objects share it):
# the tensor lives in _constants until then, whatever happens to the
# GraphModule meanwhile.
# ---------------------------------------------------------------------------

_constants = {}
_constants_lock = threading.Lock()
_constant_ids = itertools.count(1)


def _free_constant(key):
    with _constants_lock:
        _constants.pop(key, None)


_FREE_CONSTANT = _lib.FREE_FN(_free_constant)


def _host_tensor(t, what):
    """(tensor, airc dtype): a CPU, contiguous, detached tensor sharing t's
    memory where t already is one (a copy otherwise)."""
    t = t.detach()
    if t.device.type == "meta":
        raise Error("%s is a meta tensor (no data to bind)" % what, _lib.E_INVALID_ARGUMENT,
                    "AIRC_E_INVALID_ARGUMENT")
    if t.device.type != "cpu":
        t = t.cpu()  # a copy: airc runs on the host
    if t.is_sparse or getattr(t, "is_quantized", False):
        raise TypeError("%s: sparse and quantized tensors are not supported" % what)
    if not t.is_contiguous():
        t = t.contiguous()  # a copy: airc's constants here are contiguous
    try:
        dt = _types.as_dtype(t.dtype)
    except (TypeError, ValueError):
        raise TypeError("%s has dtype %s, which airc does not support" % (what, t.dtype)) from None
    return t, dt


def bind_constant(graph, name, tensor, copy=False):
    """Binds a torch tensor (or numpy array) to get_attr target `name` of an
    airc Graph. Zero copy for a contiguous CPU tensor or array unless copy:
    airc reads (and, for a mutated buffer, writes) the tensor's own memory,
    and the tensor is kept alive for as long as airc uses it."""
    import sys

    g = graph._handle()
    L = _lib.lib()
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(tensor, torch.Tensor):
        t, dt = _host_tensor(tensor, "constant %r" % name)
        ptr = t.data_ptr()
        shape = tuple(t.shape)
        keep = t
    else:
        import numpy as np

        arr = np.ascontiguousarray(tensor)
        dt = _types.as_dtype(arr.dtype)
        ptr = arr.ctypes.data
        shape = arr.shape
        keep = arr
    c_shape = (c_int64 * max(len(shape), 1))(*shape)
    if copy or ptr == 0:
        L.airc_graph_set_constant(g, _lib.encode(name), dt.code, len(shape), c_shape, None,
                                  ptr or None, _lib.FREE_FN(), None)
        return
    key = next(_constant_ids)
    with _constants_lock:
        _constants[key] = keep
    try:
        L.airc_graph_set_constant(g, _lib.encode(name), dt.code, len(shape), c_shape, None, ptr,
                                  _FREE_CONSTANT, key)
    except BaseException:
        _free_constant(key)  # airc does not call free_data on failure
        raise


# ---------------------------------------------------------------------------
# Conversion
# ---------------------------------------------------------------------------


def _fetch_attr(module, target):
    obj = module
    for i, atom in enumerate(target.split(".")):
        if not hasattr(obj, atom):
            raise AttributeError("get_attr %r: the module has no attribute %r" %
                                 (target, ".".join(target.split(".")[:i + 1])))
        obj = getattr(obj, atom)
    return obj


def _meta_of(fx_node):
    """TensorMeta of an fx node's value, from meta["val"] (torch 2's fake
    tensor) or meta["tensor_meta"] (torch 1.13's make_fx); None when
    unknown, not a tensor, symbolic or of a dtype airc lacks."""
    import torch

    val = fx_node.meta.get("val")
    try:
        if isinstance(val, torch.Tensor):
            return _types.TensorMeta(tuple(int(s) for s in val.shape), val.dtype,
                                     tuple(int(s) for s in val.stride()))
        tm = fx_node.meta.get("tensor_meta")
        if tm is not None and hasattr(tm, "shape") and hasattr(tm, "dtype"):
            stride = getattr(tm, "stride", None)
            return _types.TensorMeta(tuple(int(s) for s in tm.shape), tm.dtype,
                                     None if stride is None else tuple(int(s) for s in stride))
    except (TypeError, ValueError):  # symbolic sizes, unsupported dtype
        return None
    return None


class _Converter:
    def __init__(self, graph, fx_node):
        self.graph = graph
        self.fx_node = fx_node

    def where(self):
        n = self.fx_node
        return "from_fx: node %r (%s %s)" % (n.name, n.op, _target_text(n.target))

    def arg(self, a, env):
        import torch

        if isinstance(a, torch.fx.Node):
            try:
                return env[a]
            except KeyError:
                raise Error("%s: uses %r, which is not defined before it" % (self.where(), a.name),
                            _lib.E_INVALID_GRAPH, "AIRC_E_INVALID_GRAPH") from None
        if a is None or isinstance(a, (bool, int, float, str)):
            if type(a) not in (bool, int, float, str, type(None)):
                # SymInt / SymFloat (torch 2 dynamic shapes) are int/float
                # look-alikes on some versions; a concrete value only.
                return _concrete(a, self)
            return a
        if isinstance(a, (list, tuple)):
            # immutable_list is a list; namedtuples become tuples
            items = [self.arg(x, env) for x in a]
            return items if isinstance(a, list) else tuple(items)
        if isinstance(a, (torch.dtype, torch.device, torch.memory_format, torch.layout)):
            return _graph._foreign(a)
        sym = tuple(getattr(torch, n) for n in ("SymInt", "SymFloat", "SymBool")
                    if hasattr(torch, n))
        if sym and isinstance(a, sym):
            return _concrete(a, self)
        if isinstance(a, torch.Tensor):
            raise TypeError("%s: a tensor literal in the arguments (lift it to a get_attr "
                            "or a placeholder)" % self.where())
        if isinstance(a, dict):
            raise TypeError("%s: a dict argument is not supported" % self.where())
        try:
            return _graph._foreign(a)
        except TypeError:
            raise TypeError("%s: cannot convert argument %r of type %s" %
                            (self.where(), a, type(a).__name__)) from None


def _concrete(a, conv):
    for kind in (bool, int, float):
        try:
            if isinstance(a, kind) or type(a).__name__ == "Sym" + kind.__name__.capitalize():
                return kind(a)
        except Exception:
            break
    raise TypeError("%s: symbolic value %r (compile with static shapes)" % (conv.where(), a))


def _target_text(target):
    name = _ops.target_name(target, strict=False)
    if name is not None:
        return name
    return getattr(target, "__name__", None) or repr(target)


def from_fx(gm, lift_constants=False, copy_constants=False):
    """An airc Graph of a torch.fx GraphModule at ATen level.

    gm: a torch.fx.GraphModule from make_fx, AOT autograd or
    torch._dynamo (a torch.fx.Graph is accepted when it has an
    owning_module for its get_attr nodes). Node names are kept, so
    str(from_fx(gm)) equals str(gm.graph) for the ops airc knows.

    lift_constants: False binds each get_attr tensor as a constant of the
    graph; True turns each into a placeholder placed after gm's own
    placeholders (in first-use order); `graph.lifted_constants` then lists
    (placeholder name, tensor) and airc.compile(gm, ...) passes those
    tensors after the caller's inputs.

    copy_constants: True copies the constants' data into airc instead of
    sharing it (then later in-place changes to the module's parameters are
    not seen).

    Raises airc.Error (AIRC_E_NOT_FOUND naming the node for an op airc
    does not know) or TypeError (a call_module / call_method node, or an
    argument with no airc counterpart)."""
    import torch
    import torch.fx

    if isinstance(gm, torch.fx.Graph):
        fx_graph, module = gm, gm.owning_module
    elif isinstance(gm, torch.fx.GraphModule):
        fx_graph, module = gm.graph, gm
    else:
        raise TypeError("airc.from_fx takes a torch.fx.GraphModule, not %s" % type(gm).__name__)

    g = _graph.Graph()
    g.lifted_constants = []
    env = {}
    bound = {}  # get_attr target -> constant name or lifted placeholder
    fx_nodes = list(fx_graph.nodes)
    get_attrs = [n for n in fx_nodes if n.op == "get_attr"]
    lifted_done = not (lift_constants and get_attrs)

    def lift_all():
        for n in get_attrs:
            if n.target in bound:
                continue
            value = _attr_tensor(module, n)
            t, dt = _host_tensor(value, "get_attr %r" % n.target)
            node = g.create_node("placeholder", n.name, name=n.name)
            node.meta["val"] = _types.TensorMeta(tuple(t.shape), dt, tuple(t.stride()))
            bound[n.target] = node
            g.lifted_constants.append((node.name, t))

    for n in fx_nodes:
        if not lifted_done and n.op != "placeholder":
            lift_all()
            lifted_done = True
        conv = _Converter(g, n)
        try:
            if n.op == "placeholder":
                node = g.create_node("placeholder", n.target, name=n.name)
                meta = _meta_of(n)
                if meta is not None:
                    node.meta["val"] = meta
            elif n.op == "get_attr":
                if lift_constants:
                    node = bound[n.target]
                else:
                    if n.target not in bound:
                        bind_constant(g, n.target, _attr_tensor(module, n), copy=copy_constants)
                        bound[n.target] = n.target
                    node = g.create_node("get_attr", n.target, name=n.name)
            elif n.op == "call_function":
                target = n.target
                if target is not operator.getitem and _ops.target_name(target, strict=False) \
                        is None:
                    raise TypeError("%s: not an ATen op (trace the module with make_fx or "
                                    "AOT autograd first)" % conv.where())
                args = tuple(conv.arg(a, env) for a in n.args)
                kwargs = {k: conv.arg(v, env) for k, v in n.kwargs.items()}
                node = g.create_node("call_function", target, args, kwargs, name=n.name)
            elif n.op == "output":
                args = tuple(conv.arg(a, env) for a in n.args)
                node = g.create_node("output", "output", args, name=n.name)
            else:
                raise TypeError("%s: %s nodes are not ATen level; trace the module with "
                                "make_fx or AOT autograd first" % (conv.where(), n.op))
        except Error as e:
            if e.message.startswith("from_fx:"):
                raise
            raise Error("%s: %s" % (conv.where(), e.message), e.status, e.status_name) from None
        env[n] = node
    return g


def _attr_tensor(module, fx_node):
    import torch

    if module is None:
        raise Error("from_fx: get_attr %r in a graph without an owning module" % fx_node.target,
                    _lib.E_INVALID_ARGUMENT, "AIRC_E_INVALID_ARGUMENT")
    value = _fetch_attr(module, fx_node.target)
    if not isinstance(value, torch.Tensor):
        raise TypeError("from_fx: get_attr %r is a %s, not a tensor" %
                        (fx_node.target, type(value).__name__))
    return value


def is_fx_module(obj):
    """Whether obj is a torch.fx GraphModule (without importing torch)."""
    import sys

    torch = sys.modules.get("torch")
    if torch is None:
        return False
    fx = getattr(torch, "fx", None)
    return fx is not None and isinstance(obj, (fx.GraphModule, fx.Graph))

