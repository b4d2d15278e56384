"""airc.compile: Python passes as C pass callbacks, and running the result
on numpy arrays or torch tensors."""
import ctypes
import itertools
import sys
import threading
from ctypes import POINTER, Structure, byref, c_int32, c_int64, c_size_t, c_uint8, c_uint32, \
    c_uint64, c_void_p

from . import _config, _fx, _graph, _lib, _types
from ._lib import Error

# ---------------------------------------------------------------------------
# Python passes as airc_pass_fn
#
# One trampoline and one free function live for the whole process; each
# registered pass is an entry of _passes keyed by the integer airc carries
# as user_data. airc calls the free function once when it drops the pass
# (pass manager destroyed), which removes the entry: the Python callable
# lives exactly as long as C can call it, whatever gc does meanwhile.
# ---------------------------------------------------------------------------

_passes = {}
_passes_lock = threading.Lock()
_pass_ids = itertools.count(1)


class _PassEntry:
    __slots__ = ("fn", "config", "name", "error")

    def __init__(self, fn, config, name):
        self.fn = fn
        self.config = config
        self.name = name
        self.error = None  # the exception the last call raised


def _example_inputs_list(inputs_ptr):
    if not inputs_ptr:
        return None
    L = _lib.lib()
    out = []
    for i in range(L.airc_example_inputs_count(inputs_ptr)):
        dt = c_int32()
        ndim = c_int32()
        shape = POINTER(c_int64)()
        strides = POINTER(c_int64)()
        L.airc_example_inputs_get(inputs_ptr, i, byref(dt), byref(ndim), byref(shape),
                                  byref(strides))
        n = ndim.value
        out.append(_types.TensorMeta(tuple(shape[k] for k in range(n)),
                                     _types.from_code(dt.value),
                                     tuple(strides[k] for k in range(n)) if strides else None))
    return out


def _trampoline(graph_ptr, inputs_ptr, config_ptr, user_data):
    # Nothing may escape a ctypes callback (ctypes would print it and return
    # 0, which is AIRC_OK): every exception becomes a failing status.
    try:
        entry = _passes.get(user_data)
        if entry is None:
            return _lib.pass_fail(_lib.E_INTERNAL, "python pass %d is gone" % user_data)
        graph = _graph.Graph(graph_ptr, _owned=False)
        try:
            entry.error = None
            entry.fn(_graph.GraphModule(graph), _example_inputs_list(inputs_ptr), entry.config)
        except BaseException as e:  # noqa: B036 - KeyboardInterrupt too
            entry.error = e
            msg = "%s: %s" % (type(e).__name__, e) if str(e) else type(e).__name__
            return _lib.pass_fail(_lib.E_PASS, msg)
        finally:
            # airc may restore or replace the graph after the pass: handles
            # kept past the call would dangle.
            graph._invalidate("it was borrowed by a pass that has returned")
        return _lib.OK
    except BaseException as e:  # noqa: B036
        try:
            return _lib.pass_fail(_lib.E_INTERNAL, "python pass trampoline: %r" % (e,))
        except BaseException:
            return _lib.E_INTERNAL


def _free(user_data):
    with _passes_lock:
        _passes.pop(user_data, None)


_TRAMPOLINE = _lib.PASS_FN(_trampoline)
_FREE = _lib.FREE_FN(_free)


def _pass_name(fn, i):
    return "%s#%d" % (getattr(fn, "__qualname__", None) or getattr(fn, "__name__", "pass"), i)


class _PassManager:
    """An airc_pass_manager holding Python passes."""

    def __init__(self, fns, config):
        L = _lib.lib()
        out = c_void_p()
        L.airc_pass_manager_create(_lib.default_context(), byref(out))
        self._ptr = out.value
        self.entries = []
        try:
            for i, fn in enumerate(fns):
                key = next(_pass_ids)
                entry = _PassEntry(fn, config, _pass_name(fn, i))
                with _passes_lock:
                    _passes[key] = entry
                try:
                    L.airc_pass_manager_add_pass(self._ptr, _lib.encode(entry.name), _TRAMPOLINE,
                                                 key, _FREE)
                except Error:
                    _free(key)  # not called by airc on failure
                    raise
                self.entries.append(entry)
        except BaseException:
            self.destroy()
            raise

    def raised(self):
        """The exception the failing pass raised, if one did."""
        for entry in self.entries:
            if entry.error is not None:
                return entry.error
        return None

    def destroy(self):
        ptr, self._ptr = self._ptr, None
        if ptr and _lib._dll is not None:
            _lib._lib.airc_pass_manager_destroy(ptr)

    def __del__(self):
        self.destroy()


# ---------------------------------------------------------------------------
# Arrays
# ---------------------------------------------------------------------------


def _is_torch(x):
    torch = sys.modules.get("torch")
    return torch is not None and isinstance(x, torch.Tensor)


class _Input:
    """A host buffer for airc_tensor_wrap: its address, shape and airc
    dtype, and the object that owns the memory (kept until the run ends)."""

    __slots__ = ("ptr", "shape", "dtype", "owner")

    def __init__(self, ptr, shape, dtype, owner):
        self.ptr = ptr
        self.shape = tuple(int(s) for s in shape)
        self.dtype = dtype
        self.owner = owner


def _torch_input(t):
    """Zero copy for a contiguous CPU tensor (its data_ptr); a copy for a
    non-contiguous tensor (.contiguous()) or one on another device (.cpu())."""
    t = t.detach()
    if t.device.type != "cpu":
        t = t.cpu()
    if not t.is_contiguous():
        t = t.contiguous()
    return _Input(t.data_ptr() if t.numel() else None, t.shape, _types.as_dtype(t.dtype), t)


def _host_input(x):
    """An _Input for a torch tensor, a numpy array, an object with
    __dlpack__ (numpy.from_dlpack: zero copy for CPU memory) or with the
    buffer protocol / __array_interface__ (numpy.asarray: zero copy). Only
    non-C-contiguous memory is copied (and lists, which have no buffer)."""
    if _is_torch(x):
        return _torch_input(x)
    import numpy as np

    if isinstance(x, np.ndarray):
        arr = x
    elif hasattr(x, "__dlpack__") and hasattr(np, "from_dlpack"):
        arr = np.from_dlpack(x)
    else:
        arr = np.asarray(x)
    if not arr.flags["C_CONTIGUOUS"]:
        arr = np.ascontiguousarray(arr)
    return _Input(arr.ctypes.data if arr.size else None, arr.shape, _types.as_dtype(arr.dtype),
                  arr)


class _OwnedTensor:
    """Holds an airc_tensor handle whose data a numpy array or torch tensor
    uses without a copy; the handle dies with the last view of its data."""

    __slots__ = ("ptr",)

    def __init__(self, ptr):
        self.ptr = ptr

    def __del__(self):
        if self.ptr:
            try:
                _lib.lib().airc_tensor_destroy(self.ptr)
            except Exception:  # interpreter shutdown: the process frees it
                pass
            self.ptr = None


def _adopt(tensor_ptr, dt, shape, nbytes, as_torch):
    """The data of an airc_tensor that owns it, handed out without a copy:
    the returned array (or tensor) keeps the handle alive."""
    import numpy as np

    L = _lib.lib()
    buf = (ctypes.c_uint8 * nbytes).from_address(L.airc_tensor_data(tensor_ptr))
    buf._airc_owner = _OwnedTensor(tensor_ptr)
    np_dtype = np.int16 if dt == _types.bfloat16 else np.dtype(dt.numpy_name)
    arr = np.frombuffer(buf, dtype=np_dtype).reshape(shape)
    if not as_torch:
        return arr
    import torch

    t = torch.from_numpy(arr)
    return t.view(torch.bfloat16) if dt == _types.bfloat16 else t


def _result(tensor_ptr, as_torch):
    """A torch tensor or numpy array with an airc_tensor's data: adopted
    without a copy when the tensor owns it (eager and max-autotune results,
    cloned outputs) -- then the handle is taken over and *consumed is set --,
    copied when it borrows the compiled object's arena, which the next run
    reuses (see docs/python.md, "Zero copy")."""
    L = _lib.lib()
    dt = _types.from_code(L.airc_tensor_dtype(tensor_ptr))
    ndim = L.airc_tensor_ndim(tensor_ptr)
    shape_p = L.airc_tensor_shape(tensor_ptr)
    shape = tuple(shape_p[i] for i in range(ndim))
    nbytes = L.airc_tensor_nbytes(tensor_ptr)
    if nbytes and L.airc_tensor_owns_data(tensor_ptr) and (as_torch or dt != _types.bfloat16):
        return _adopt(tensor_ptr, dt, shape, nbytes, as_torch), True
    if as_torch:
        import torch

        out = torch.empty(shape, dtype=getattr(torch, dt.torch_name[len("torch."):]))
        dst = out.data_ptr()
    else:
        import numpy as np

        if dt == _types.bfloat16:
            raise Error("a bfloat16 result has no numpy dtype; pass torch tensors to get it",
                        _lib.E_UNSUPPORTED, "AIRC_E_UNSUPPORTED")
        out = np.empty(shape, dtype=np.dtype(dt.numpy_name))
        dst = out.ctypes.data
    if nbytes:
        ctypes.memmove(dst, L.airc_tensor_data(tensor_ptr), nbytes)
    return out, False


def _add_example_inputs(ptr, example_inputs):
    L = _lib.lib()
    for x in example_inputs:
        m = _types.TensorMeta.from_array(x)
        shape = (c_int64 * max(len(m.shape), 1))(*m.shape)
        strides = (c_int64 * max(len(m.stride), 1))(*m.stride)
        L.airc_example_inputs_add(ptr, m.dtype.code, len(m.shape), shape, strides)


# ---------------------------------------------------------------------------
# Compile
# ---------------------------------------------------------------------------


class _CompileOptions(Structure):
    _fields_ = [
        ("struct_size", c_size_t),
        ("config", c_void_p),
        ("example_inputs", c_void_p),
        ("pre_passes", c_void_p),
        ("post_passes", c_void_p),
        ("runtime", c_void_p),
        ("static_inputs", POINTER(c_size_t)),
        ("nstatic_inputs", c_size_t),
    ]


class _CompiledStats(Structure):
    _fields_ = [
        ("struct_size", c_size_t),
        ("runs", c_uint64),
        ("captures", c_uint64),
        ("replays", c_uint64),
        ("fallbacks", c_uint64),
        ("input_copies", c_uint64),
        ("launches", c_uint64),
        ("events", c_uint64),
        ("streams", c_uint32),
        ("arena_bytes", c_uint64),
        ("plan_arena_bytes", c_uint64),
        ("lower_bound_bytes", c_uint64),
        ("naive_bytes", c_uint64),
    ]


def _graph_of(obj, lift_constants=False):
    if isinstance(obj, _graph.Graph):
        return obj
    if _fx.is_fx_module(obj):
        return _fx.from_fx(obj, lift_constants=lift_constants)
    g = getattr(obj, "graph", None)
    if isinstance(g, _graph.Graph):
        return g
    if isinstance(obj, str):
        return _graph.Graph.parse(obj)
    raise TypeError("airc.compile takes an airc.Graph, a torch.fx GraphModule at ATen level, "
                    "fx text, or an object whose .graph is an airc.Graph; not %s" %
                    type(obj).__name__)


def compile(graph, example_inputs=None, config=None, static_inputs=(), lift_constants=False):
    """Compiles a graph with config (an airc.CompilerConfig; None:
    defaults, mode reduce-overhead) and returns a callable that takes numpy
    arrays or torch tensors, one per placeholder, and returns the graph's
    results as the same kind (torch if any input is a torch tensor).

    graph: an airc.Graph, a torch.fx GraphModule at ATen level (through
    airc.from_fx; lift_constants is passed on, and lifted constants are
    appended to every call's inputs as static inputs), fx text, or an
    object whose .graph is an airc.Graph.
    example_inputs: arrays, tensors (fake ones too) or TensorMeta, one per
    placeholder the caller passes; None: the placeholders' own meta.
    static_inputs: indices of inputs whose memory stays the same between
    calls (weights): never copied before a replay.

    config's post_grad_custom_pre_pass / post_grad_custom_post_pass run as
    airc user passes: an exception there fails the compile (airc.Error,
    AIRC_E_PASS, with its message; the exception is chained as __cause__)
    and `graph` is left as it was (airc compiles a clone)."""
    if config is None:
        config = _config.CompilerConfig()
    elif not isinstance(config, _config.CompilerConfig):
        raise TypeError("config must be an airc.CompilerConfig, not %s" % type(config).__name__)
    from_torch = _fx.is_fx_module(graph)
    g = _graph_of(graph, lift_constants=lift_constants)
    return Compiled(g, example_inputs, config, static_inputs, from_torch=from_torch)


_NOTHING = object()


class _Slot:
    __slots__ = ("count",)

    def __init__(self, count):
        self.count = count


class Compiled:
    """A compiled graph: call it with arrays. Holds the pass callbacks (and
    the lifted constants) for its lifetime."""

    def __init__(self, graph, example_inputs, config, static_inputs=(), from_torch=False):
        L = _lib.lib()
        self._ptr = None
        self._config = config
        self._from_torch = from_torch
        # Lifted constants (airc.from_fx(lift_constants=True)): passed after
        # the caller's inputs, as static inputs (never copied).
        lifted = getattr(graph, "lifted_constants", None) or []
        self._extra = [_torch_input(t) for _, t in lifted]
        nplaceholders = sum(1 for n in graph.nodes if n.op == "placeholder")
        self._nuser = nplaceholders - len(self._extra)
        static_inputs = list(static_inputs) + [self._nuser + i for i in range(len(self._extra))]
        if example_inputs is not None and self._extra:
            example_inputs = list(example_inputs) + [t for _, t in lifted]
        self._pre = _PassManager(_config.user_passes(config.post_grad_custom_pre_pass), config)
        self._post = _PassManager(_config.user_passes(config.post_grad_custom_post_pass), config)
        inputs_ptr = None
        if example_inputs is not None:
            out = c_void_p()
            L.airc_example_inputs_create(_lib.default_context(), byref(out))
            inputs_ptr = out.value
        try:
            if inputs_ptr:
                _add_example_inputs(inputs_ptr, example_inputs)
            # Room past the struct in case the library's is larger than the
            # one this binding knows (init writes sizeof of its own).
            buf = ctypes.create_string_buffer(ctypes.sizeof(_CompileOptions) + 256)
            opts = _CompileOptions.from_buffer(buf)
            L.airc_compile_options_init(ctypes.addressof(opts))
            opts.config = config._ptr
            opts.example_inputs = inputs_ptr
            opts.pre_passes = self._pre._ptr if self._pre.entries else None
            opts.post_passes = self._post._ptr if self._post.entries else None
            statics = (c_size_t * max(len(static_inputs), 1))(*static_inputs)
            opts.static_inputs = statics
            opts.nstatic_inputs = len(static_inputs)
            out = c_void_p()
            try:
                L.airc_compile(graph._handle(), ctypes.addressof(opts), byref(out))
            except Error as e:
                cause = self._pre.raised() or self._post.raised()
                if cause is not None:
                    raise Error(e.message, e.status, e.status_name) from cause
                raise
            self._ptr = out.value
        finally:
            L.airc_example_inputs_destroy(inputs_ptr)
        self._nresults = c_size_t()
        L.airc_graph_num_results(L.airc_compiled_graph(self._ptr), byref(self._nresults))
        self._lock = threading.Lock()

    def __del__(self):
        ptr, self._ptr = getattr(self, "_ptr", None), None
        if ptr and _lib._dll is not None:
            _lib._lib.airc_compiled_destroy(ptr)
        # The pass managers go after the compiled object (their __del__).

    @property
    def graph(self):
        """The graph after the pass pipeline (owned by this object, which it
        keeps alive). Read it only: airc runs it."""
        return _graph.Graph(_lib.lib().airc_compiled_graph(self._ptr), _owned=False,
                            _keepalive=self)

    @property
    def config(self):
        return self._config

    def __call__(self, *inputs):
        L = _lib.lib()
        as_torch = any(_is_torch(x) for x in inputs) or (not inputs and self._from_torch)
        if len(inputs) != self._nuser and self._extra:
            raise Error("%d inputs for a graph that takes %d (and %d lifted constants)" %
                        (len(inputs), self._nuser, len(self._extra)),
                        _lib.E_INVALID_ARGUMENT, "AIRC_E_INVALID_ARGUMENT")
        host = [_host_input(x) for x in inputs] + self._extra
        # airc serializes runs itself, but a result may live in the arena
        # until the next run: the copy out must finish before another
        # thread's run starts.
        with self._lock:
            return self._run_locked(L, host, as_torch)

    def _run_locked(self, L, host, as_torch):
        ctx = _lib.default_context()
        handles = []
        outs = (c_void_p * max(self._nresults.value, 1))()
        nout = c_size_t(0)
        try:
            for x in host:
                shape = (c_int64 * max(len(x.shape), 1))(*x.shape)
                out = c_void_p()
                # Zero copy in: the tensor borrows the buffer x.owner keeps.
                L.airc_tensor_wrap(ctx, x.dtype.code, len(x.shape), shape, x.ptr, byref(out))
                handles.append(out.value)
            h = (c_void_p * max(len(handles), 1))(*handles)
            L.airc_compiled_run(self._ptr, h, len(handles), outs, self._nresults.value,
                                byref(nout))
            flat = []
            for i in range(nout.value):
                value, adopted = _result(outs[i], as_torch)
                if adopted:
                    outs[i] = None  # the array owns the handle now
                flat.append(value)
        finally:
            for i in range(nout.value):
                if outs[i]:
                    L.airc_tensor_destroy(outs[i])
            for hd in handles:
                L.airc_tensor_destroy(hd)
        return self._structure(flat)

    def _template(self):
        """The output's nesting (a node, tuples, lists, other values) with
        each node as _Slot(count): count results, or one (count None). Read
        once from the compiled graph."""
        t = self.__dict__.get("_tmpl", _NOTHING)
        if t is not _NOTHING:
            return t
        out_node = self.graph.output_node

        def walk(v):
            if isinstance(v, _graph.Node):
                meta = v.meta.get("val")
                if isinstance(meta, tuple) and not isinstance(meta, _types.TensorMeta):
                    return _Slot(len(meta))
                return _Slot(None)
            if isinstance(v, list):
                return [walk(x) for x in v]
            if isinstance(v, tuple):
                return tuple(walk(x) for x in v)
            return v

        t = None if out_node is None or not out_node.args else walk(out_node.args[0])
        self._tmpl = t
        return t

    def _structure(self, flat):
        """Rebuilds the output's nesting over the flat results."""
        tmpl = self._template()
        if tmpl is None:
            return tuple(flat)
        it = iter(flat)

        def build(v):
            if isinstance(v, _Slot):
                return next(it) if v.count is None else tuple(next(it) for _ in range(v.count))
            if isinstance(v, list):
                return [build(x) for x in v]
            if isinstance(v, tuple):
                return tuple(build(x) for x in v)
            return v

        return build(tmpl)

    def stats(self):
        """airc_compiled_stats as a dict."""
        s = _CompiledStats()
        s.struct_size = ctypes.sizeof(s)
        _lib.lib().airc_compiled_get_stats(self._ptr, byref(s))
        return {name: getattr(s, name) for name, _ in _CompiledStats._fields_[1:]}

    def set_trace(self, on=True):
        _lib.lib().airc_compiled_set_trace(self._ptr, 1 if on else 0)

    def write_trace(self, path):
        _lib.lib().airc_compiled_write_trace(self._ptr, _lib.encode(str(path)))

    def model(self):
        """max-autotune: the serialized GE ModelDef (bytes)."""
        data = POINTER(c_uint8)()
        n = c_size_t()
        _lib.lib().airc_compiled_model(self._ptr, byref(data), byref(n))
        return ctypes.string_at(data, n.value)


def run_pipeline(graph, example_inputs=None, config=None):
    """Runs the compile pipeline's pass stages on `graph` in place (user
    pre-passes, built-in passes, user post-passes, lint), as airc_compile
    does on its clone. On failure graph is as it was before the failing
    pass (its Node objects must be looked up again)."""
    g = _graph_of(graph)
    config = config if config is not None else _config.CompilerConfig()
    L = _lib.lib()
    pre = _PassManager(_config.user_passes(config.post_grad_custom_pre_pass), config)
    post = _PassManager(_config.user_passes(config.post_grad_custom_post_pass), config)
    inputs_ptr = None
    try:
        if example_inputs is not None:
            out = c_void_p()
            L.airc_example_inputs_create(_lib.default_context(), byref(out))
            inputs_ptr = out.value
            _add_example_inputs(inputs_ptr, example_inputs)
        try:
            L.airc_run_pipeline(g._handle(), inputs_ptr, config._ptr,
                                pre._ptr if pre.entries else None,
                                post._ptr if post.entries else None)
        except Error as e:
            # The graph was restored from a clone: node handles are stale.
            g._invalidate_nodes()
            cause = pre.raised() or post.raised()
            if cause is not None:
                raise Error(e.message, e.status, e.status_name) from cause
            raise
    finally:
        L.airc_example_inputs_destroy(inputs_ptr)
        pre.destroy()
        post.destroy()
