"""airc.compile: Python passes as C pass callbacks, and running the result
on numpy arrays or torch tensors."""
import ctypes
import itertools
import sys
import threading
from ctypes import POINTER, Structure, byref, c_int32, c_int64, c_size_t, c_uint8, c_uint32, \
    c_uint64, c_void_p

from . import _config, _graph, _lib, _types
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


def _host_array(x):
    """(numpy C-contiguous array, airc dtype) for a numpy array or a torch
    tensor. Copies only when x is not C-contiguous (or not on the CPU)."""
    import numpy as np

    if _is_torch(x):
        import torch

        t = x.detach()
        if t.device.type != "cpu":
            t = t.cpu()
        if not t.is_contiguous():
            t = t.contiguous()
        if t.dtype == torch.bfloat16:
            return t.view(torch.int16).numpy(), _types.bfloat16
        return t.numpy(), _types.as_dtype(t.dtype)
    arr = np.asarray(x)
    if not arr.flags["C_CONTIGUOUS"]:
        arr = np.ascontiguousarray(arr)
    return arr, _types.as_dtype(arr.dtype)


def _to_numpy(tensor_ptr):
    """A numpy copy of an airc_tensor's data. Phase 1 copies; zero copy
    would wrap airc_tensor_data in an array whose base owns the handle
    (valid until the next run in reduce-overhead, or for good with
    debug.aclgraph.enable_output_clone)."""
    import numpy as np

    L = _lib.lib()
    dt = _types.from_code(L.airc_tensor_dtype(tensor_ptr))
    ndim = L.airc_tensor_ndim(tensor_ptr)
    shape_p = L.airc_tensor_shape(tensor_ptr)
    shape = tuple(shape_p[i] for i in range(ndim))
    np_dtype = np.int16 if dt == _types.bfloat16 else np.dtype(dt.numpy_name)
    arr = np.empty(shape, dtype=np_dtype)
    nbytes = L.airc_tensor_nbytes(tensor_ptr)
    if nbytes:
        ctypes.memmove(arr.ctypes.data, L.airc_tensor_data(tensor_ptr), nbytes)
    return arr, dt


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


def _graph_of(obj):
    if isinstance(obj, _graph.Graph):
        return obj
    g = getattr(obj, "graph", None)
    if isinstance(g, _graph.Graph):
        return g
    if isinstance(obj, str):
        return _graph.Graph.parse(obj)
    raise TypeError("airc.compile takes an airc.Graph (or an object whose .graph is one), "
                    "not %s; torch.fx GraphModules need airc.from_fx (not yet)" %
                    type(obj).__name__)


def compile(graph, example_inputs=None, config=None, static_inputs=()):
    """Compiles an airc Graph with config (an airc.CompilerConfig; None:
    defaults, mode reduce-overhead) and returns a callable that takes numpy
    arrays or torch tensors, one per placeholder, and returns the graph's
    results as the same kind. config's post_grad_custom_pre_pass /
    post_grad_custom_post_pass run as airc user passes: an exception there
    fails the compile (airc.Error, AIRC_E_PASS, with its message; the
    exception is chained as __cause__) and `graph` is left as it was (airc
    compiles a clone)."""
    g = _graph_of(graph)
    if config is None:
        config = _config.CompilerConfig()
    elif not isinstance(config, _config.CompilerConfig):
        raise TypeError("config must be an airc.CompilerConfig, not %s" % type(config).__name__)
    return Compiled(g, example_inputs, config, static_inputs)


class Compiled:
    """A compiled graph: call it with arrays. Holds the pass callbacks for
    its lifetime."""

    def __init__(self, graph, example_inputs, config, static_inputs=()):
        L = _lib.lib()
        self._ptr = None
        self._config = config
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
        as_torch = any(_is_torch(x) for x in inputs)
        arrays = [_host_array(x) for x in inputs]
        # airc serializes runs itself, but a result may live in the arena
        # until the next run: the copy out must finish before another
        # thread's run starts.
        with self._lock:
            return self._run_locked(L, arrays, as_torch)

    def _run_locked(self, L, arrays, as_torch):
        ctx = _lib.default_context()
        handles = []
        outs = (c_void_p * max(self._nresults.value, 1))()
        nout = c_size_t(0)
        try:
            for arr, dt in arrays:
                shape = (c_int64 * max(arr.ndim, 1))(*arr.shape)
                out = c_void_p()
                # Zero copy in: the tensor borrows the array's buffer.
                L.airc_tensor_wrap(ctx, dt.code, arr.ndim, shape,
                                   arr.ctypes.data if arr.size else None, byref(out))
                handles.append(out.value)
            h = (c_void_p * max(len(handles), 1))(*handles)
            L.airc_compiled_run(self._ptr, h, len(handles), outs, self._nresults.value,
                                byref(nout))
            results = []
            for i in range(nout.value):
                results.append(_to_numpy(outs[i]))
        finally:
            for i in range(nout.value):
                L.airc_tensor_destroy(outs[i])
            for hd in handles:
                L.airc_tensor_destroy(hd)
        if as_torch:
            import torch

            def convert(arr, dt):
                t = torch.from_numpy(arr)
                return t.view(torch.bfloat16) if dt == _types.bfloat16 else t
        else:
            def convert(arr, dt):
                return arr
        flat = [convert(a, dt) for a, dt in results]
        return self._structure(flat)

    def _structure(self, flat):
        """Rebuilds the output's nesting (a node, tuples, lists) over the
        flat results."""
        out_node = self.graph.output_node
        if out_node is None or not out_node.args:
            return tuple(flat)
        it = iter(flat)

        def build(v):
            if isinstance(v, _graph.Node):
                meta = v.meta.get("val")
                if isinstance(meta, tuple) and not isinstance(meta, _types.TensorMeta):
                    return tuple(next(it) for _ in meta)
                return next(it)
            if isinstance(v, list):
                return [build(x) for x in v]
            if isinstance(v, tuple):
                return tuple(build(x) for x in v)
            return v

        return build(out_node.args[0])

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
