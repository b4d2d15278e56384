"""Loading libairc.so and declaring the C functions the binding uses.

Every function gets argtypes, restype and errcheck. Functions that return
an airc_status raise airc.Error (with airc_last_error() and the status
name) when the status is not AIRC_OK; functions that return borrowed C
strings give Python str (None for NULL); the others pass their result
through unchanged.
"""
import ctypes
import os
import threading
from ctypes import (
    CFUNCTYPE,
    POINTER,
    c_char_p,
    c_double,
    c_int32,
    c_int64,
    c_size_t,
    c_uint8,
    c_uint32,
    c_void_p,
)

# The ABI this binding was written against (include/airc/airc.h).
ABI_VERSION = 1

# Statuses (include/airc/airc.h).
OK = 0
E_INVALID_ARGUMENT = 1
E_OUT_OF_MEMORY = 2
E_MISUSE = 3
E_PARSE = 4
E_NOT_FOUND = 5
E_EXISTS = 6
E_INVALID_GRAPH = 7
E_SHAPE = 8
E_UNSUPPORTED = 9
E_IO = 10
E_PASS = 11
E_RUNTIME = 12
E_INTERNAL = 13


class Error(Exception):
    """A failed airc call: `message` is airc_last_error(), `status` the
    airc_status code and `status_name` its name ("AIRC_E_PARSE")."""

    def __init__(self, message, status=E_INTERNAL, status_name=None):
        self.message = message
        self.status = status
        self.status_name = status_name or _status_name(status)
        super().__init__("%s (%s)" % (message, self.status_name))


Error.__module__ = "airc"


def _status_name(status):
    try:
        return _lib.airc_status_name(status)
    except Exception:  # the library is not loaded yet
        return "AIRC_E_%d" % status


# Signatures of the callbacks airc calls.
PASS_FN = CFUNCTYPE(c_int32, c_void_p, c_void_p, c_void_p, c_void_p)
FREE_FN = CFUNCTYPE(None, c_void_p)
USER_FILTER_FN = CFUNCTYPE(c_int32, c_void_p, c_void_p)


def _candidates():
    env = os.environ.get("AIRC_LIBRARY")
    if env:
        # An explicit choice is the only one tried: a wrong path is an error,
        # not a reason to pick up some other build silently.
        return [env], True
    here = os.path.dirname(os.path.abspath(__file__))
    found = [os.path.join(here, "libairc.so")]
    repo = os.path.dirname(os.path.dirname(here))
    builds = []
    try:
        for entry in sorted(os.listdir(repo)):
            lib = os.path.join(repo, entry, "lib", "libairc.so")
            if entry.startswith("build") and os.path.isfile(lib):
                builds.append(lib)
    except OSError:
        pass
    # The default build tree first, then the newest of the others.
    builds.sort(key=lambda p: (os.path.basename(os.path.dirname(os.path.dirname(p))) != "build",
                               -os.path.getmtime(p)))
    # Last: the dynamic loader's search (LD_LIBRARY_PATH, ldconfig's cache:
    # an installed libairc), for a package installed with pip.
    return found + builds + ["libairc.so"], False


def _load():
    """Loads the first candidate that is libairc with this ABI and every
    function the binding declares; returns (dll, path, bound functions)."""
    paths, explicit = _candidates()
    tried = []
    for path in paths:
        if not explicit and os.sep in path and not os.path.isfile(path):
            continue
        try:
            dll = ctypes.CDLL(path)
            return dll, path, _check_and_bind(dll, path)
        except Error as e:
            if explicit:
                raise
            tried.append(str(e))
        except OSError as e:
            if os.sep in path or explicit:  # a missing system-wide one is no news
                tried.append("%s: %s" % (path, e))
            if explicit:
                break
    if not tried:
        tried.append("no libairc.so next to the package, in %s/build*/lib or on the "
                     "loader's path" %
                     os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    raise Error("cannot load libairc: " + "; ".join(tried) +
                " (set AIRC_LIBRARY to the library's path)", E_NOT_FOUND, "AIRC_E_NOT_FOUND")


def _check_and_bind(dll, path):
    try:
        dll.airc_abi_version.restype = c_int32
        dll.airc_abi_version.argtypes = []
        abi = dll.airc_abi_version()
    except AttributeError:
        raise Error("%s is not libairc (no airc_abi_version)" % path,
                    E_INVALID_ARGUMENT, "AIRC_E_INVALID_ARGUMENT") from None
    if abi != ABI_VERSION:
        raise Error("%s has ABI version %d; this binding needs %d" % (path, abi, ABI_VERSION),
                    E_UNSUPPORTED, "AIRC_E_UNSUPPORTED")
    bound = _Lib()
    try:
        _bind(dll, bound)
    except AttributeError as e:
        raise Error("%s lacks a function the binding needs (an older build?): %s" % (path, e),
                    E_UNSUPPORTED, "AIRC_E_UNSUPPORTED") from None
    return bound


def _check_status(result, func, args):
    if result != OK:
        raise Error(_lib.airc_last_error(), result, _lib.airc_status_name(result))
    return result


def _decode(result, func, args):
    return None if result is None else result.decode("utf-8", "surrogateescape")


def _passthrough(result, func, args):
    return result


class _Lib:
    """Attribute access to the declared functions only."""


_lib = _Lib()
_dll = None
_path = None
_load_lock = threading.Lock()

vp = c_void_p
P = POINTER
st = "status"
s = "str"

# name: (restype, argtypes); restype "status" (c_int32 + raise) or "str"
# (c_char_p decoded) or a ctypes type (returned as is).
_SIGNATURES = {
    # versions, errors
    "airc_version": (s, []),
    "airc_abi_version": (c_int32, []),
    "airc_last_error": (s, []),
    "airc_last_error_code": (c_int32, []),
    "airc_status_name": (s, [c_int32]),
    "airc_string_free": (None, [vp]),
    "airc_set_error": (c_int32, [c_int32, c_char_p]),
    # context
    "airc_context_create": (st, [vp, P(vp)]),
    "airc_context_destroy": (None, [vp]),
    "airc_context_find_op": (st, [vp, c_char_p, P(vp)]),
    "airc_context_num_ops": (c_size_t, [vp]),
    "airc_context_op_name": (s, [vp, c_size_t]),
    "airc_op_name": (s, [vp]),
    # dtypes
    "airc_dtype_name": (s, [c_int32]),
    "airc_dtype_torch_name": (s, [c_int32]),
    "airc_dtype_size": (c_size_t, [c_int32]),
    "airc_dtype_from_name": (st, [c_char_p, P(c_int32)]),
    # values
    "airc_value_none": (st, [vp, P(vp)]),
    "airc_value_int": (st, [vp, c_int64, P(vp)]),
    "airc_value_float": (st, [vp, c_double, P(vp)]),
    "airc_value_bool": (st, [vp, c_int32, P(vp)]),
    "airc_value_string": (st, [vp, c_char_p, P(vp)]),
    "airc_value_node": (st, [vp, vp, P(vp)]),
    "airc_value_dtype": (st, [vp, c_int32, P(vp)]),
    "airc_value_device": (st, [vp, c_char_p, c_int32, P(vp)]),
    "airc_value_memory_format": (st, [vp, c_int32, P(vp)]),
    "airc_value_layout": (st, [vp, c_int32, P(vp)]),
    "airc_value_list": (st, [vp, P(vp), c_size_t, P(vp)]),
    "airc_value_tuple": (st, [vp, P(vp), c_size_t, P(vp)]),
    "airc_value_get_kind": (c_int32, [vp]),
    "airc_value_get_int": (st, [vp, P(c_int64)]),
    "airc_value_get_float": (st, [vp, P(c_double)]),
    "airc_value_get_bool": (st, [vp, P(c_int32)]),
    "airc_value_get_string": (st, [vp, P(c_char_p)]),
    "airc_value_get_node": (st, [vp, P(vp)]),
    "airc_value_get_dtype": (st, [vp, P(c_int32)]),
    "airc_value_get_device": (st, [vp, P(c_char_p), P(c_int32)]),
    "airc_value_get_enum": (st, [vp, P(c_int32)]),
    "airc_value_length": (c_size_t, [vp]),
    "airc_value_item": (vp, [vp, c_size_t]),
    # graphs
    "airc_graph_create": (st, [vp, P(vp)]),
    "airc_graph_destroy": (None, [vp]),
    "airc_graph_clone": (st, [vp, P(vp)]),
    "airc_graph_context": (vp, [vp]),
    "airc_graph_num_nodes": (c_size_t, [vp]),
    "airc_graph_first_node": (vp, [vp]),
    "airc_graph_last_node": (vp, [vp]),
    "airc_node_next": (vp, [vp]),
    "airc_node_prev": (vp, [vp]),
    "airc_graph_find_node": (vp, [vp, c_char_p]),
    "airc_graph_output_node": (vp, [vp]),
    "airc_graph_set_insert_point": (st, [vp, c_int32, vp]),
    "airc_graph_get_insert_point": (st, [vp, P(c_int32), P(vp)]),
    "airc_graph_create_node": (st, [vp, c_int32, c_char_p, P(vp), c_size_t, P(c_char_p), P(vp),
                                    c_size_t, c_char_p, P(vp)]),
    "airc_graph_erase_node": (st, [vp, vp]),
    "airc_node_move_before": (st, [vp, vp]),
    "airc_node_move_after": (st, [vp, vp]),
    "airc_graph_lint": (st, [vp]),
    "airc_graph_eliminate_dead_code": (st, [vp, P(c_int32)]),
    "airc_graph_parse": (st, [vp, c_char_p, c_size_t, c_char_p, P(vp)]),
    "airc_graph_print": (st, [vp, c_uint32, P(vp)]),
    "airc_graph_propagate_meta": (st, [vp]),
    "airc_graph_num_results": (st, [vp, P(c_size_t)]),
    # nodes
    "airc_node_kind_name": (s, [c_int32]),
    "airc_node_get_kind": (c_int32, [vp]),
    "airc_node_name": (s, [vp]),
    "airc_node_target": (s, [vp]),
    "airc_node_graph": (vp, [vp]),
    "airc_node_is_erased": (c_int32, [vp]),
    "airc_node_num_args": (c_size_t, [vp]),
    "airc_node_arg": (vp, [vp, c_size_t]),
    "airc_node_num_kwargs": (c_size_t, [vp]),
    "airc_node_kwarg_name": (s, [vp, c_size_t]),
    "airc_node_kwarg_value": (vp, [vp, c_size_t]),
    "airc_node_num_users": (c_size_t, [vp]),
    "airc_node_user": (vp, [vp, c_size_t]),
    "airc_node_num_inputs": (c_size_t, [vp]),
    "airc_node_input": (vp, [vp, c_size_t]),
    "airc_node_set_args": (st, [vp, P(vp), c_size_t]),
    "airc_node_set_kwargs": (st, [vp, P(c_char_p), P(vp), c_size_t]),
    "airc_node_set_target": (st, [vp, c_char_p]),
    "airc_node_rename": (st, [vp, c_char_p, P(c_char_p)]),
    "airc_node_replace_all_uses_with": (st, [vp, vp, USER_FILTER_FN, vp, P(c_size_t)]),
    "airc_node_replace_input_with": (st, [vp, vp, vp]),
    "airc_node_meta_kind": (c_int32, [vp]),
    "airc_node_num_outputs": (c_size_t, [vp]),
    "airc_node_output_meta": (st, [vp, c_size_t, P(c_int32), P(c_int32), P(P(c_int64)),
                                   P(P(c_int64))]),
    "airc_node_set_meta": (st, [vp, c_int32, c_int32, P(c_int64), P(c_int64)]),
    "airc_node_set_meta_tuple": (st, [vp, c_size_t]),
    "airc_node_set_output_meta": (st, [vp, c_size_t, c_int32, c_int32, P(c_int64),
                                       P(c_int64)]),
    "airc_node_clear_meta": (st, [vp]),
    "airc_node_set_attr": (st, [vp, c_char_p, vp]),
    "airc_node_get_attr": (vp, [vp, c_char_p]),
    "airc_node_num_attrs": (c_size_t, [vp]),
    # constants (get_attr targets)
    "airc_graph_set_constant": (st, [vp, c_char_p, c_int32, c_int32, P(c_int64), P(c_int64), vp,
                                     FREE_FN, vp]),
    "airc_graph_get_constant": (st, [vp, c_char_p, P(c_int32), P(c_int32), P(P(c_int64)),
                                     P(P(c_int64)), P(vp)]),
    "airc_graph_num_constants": (c_size_t, [vp]),
    "airc_graph_constant_name": (s, [vp, c_size_t]),
    "airc_node_attr_key": (s, [vp, c_size_t]),
    # tensors
    "airc_tensor_create": (st, [vp, c_int32, c_int32, P(c_int64), P(vp)]),
    "airc_tensor_wrap": (st, [vp, c_int32, c_int32, P(c_int64), vp, P(vp)]),
    "airc_tensor_destroy": (None, [vp]),
    "airc_tensor_owns_data": (c_int32, [vp]),
    "airc_tensor_dtype": (c_int32, [vp]),
    "airc_tensor_ndim": (c_int32, [vp]),
    "airc_tensor_shape": (P(c_int64), [vp]),
    "airc_tensor_nbytes": (c_size_t, [vp]),
    "airc_tensor_data": (vp, [vp]),
    # config
    "airc_config_create": (st, [vp, P(vp)]),
    "airc_config_destroy": (None, [vp]),
    "airc_config_clone": (st, [vp, P(vp)]),
    "airc_config_set": (st, [vp, c_char_p, c_char_p]),
    "airc_config_get": (st, [vp, c_char_p, P(c_char_p)]),
    "airc_config_set_bool": (st, [vp, c_char_p, c_int32]),
    "airc_config_set_int": (st, [vp, c_char_p, c_int64]),
    "airc_config_is_set": (c_int32, [vp, c_char_p]),
    "airc_config_num_keys": (c_size_t, [vp]),
    "airc_config_key": (s, [vp, c_size_t]),
    # passes
    "airc_example_inputs_create": (st, [vp, P(vp)]),
    "airc_example_inputs_destroy": (None, [vp]),
    "airc_example_inputs_add": (st, [vp, c_int32, c_int32, P(c_int64), P(c_int64)]),
    "airc_example_inputs_count": (c_size_t, [vp]),
    "airc_example_inputs_get": (st, [vp, c_size_t, P(c_int32), P(c_int32), P(P(c_int64)),
                                     P(P(c_int64))]),
    "airc_pass_manager_create": (st, [vp, P(vp)]),
    "airc_pass_manager_destroy": (None, [vp]),
    "airc_pass_manager_add_pass": (st, [vp, c_char_p, PASS_FN, vp, FREE_FN]),
    "airc_run_pipeline": (st, [vp, vp, vp, vp, vp]),
    # compile
    "airc_compile_options_init": (None, [vp]),
    "airc_compile": (st, [vp, vp, P(vp)]),
    "airc_compiled_destroy": (None, [vp]),
    "airc_compiled_run": (st, [vp, P(vp), c_size_t, P(vp), c_size_t, P(c_size_t)]),
    "airc_compiled_graph": (vp, [vp]),
    "airc_compiled_model": (st, [vp, P(P(c_uint8)), P(c_size_t)]),
    "airc_compiled_get_stats": (st, [vp, vp]),
    "airc_compiled_set_trace": (st, [vp, c_int32]),
    "airc_compiled_write_trace": (st, [vp, c_char_p]),
}


def _bind(dll, target):
    for name, (restype, argtypes) in _SIGNATURES.items():
        fn = getattr(dll, name)  # AttributeError: the library is too old
        fn.argtypes = argtypes
        if restype == "status":
            fn.restype = c_int32
            fn.errcheck = _check_status
        elif restype == "str":
            fn.restype = c_char_p
            fn.errcheck = _decode
        else:
            fn.restype = restype
            fn.errcheck = _passthrough
        setattr(target, name, fn)


def lib():
    """The bound library (loaded and checked on first use)."""
    global _dll, _path
    if _dll is None:
        with _load_lock:
            if _dll is None:
                dll, path, bound = _load()
                _lib.__dict__.update(bound.__dict__)
                _path = path
                _dll = dll
    return _lib


def library_path():
    lib()
    return _path


def encode(text):
    return None if text is None else str(text).encode("utf-8", "surrogateescape")


def take_string(ptr):
    """Copies and frees a `char *` airc returned through an out-parameter."""
    try:
        return ctypes.string_at(ptr).decode("utf-8", "surrogateescape")
    finally:
        _lib.airc_string_free(ptr)


def pass_fail(status, message):
    """Records message as this thread's last error and returns status (what
    airc_pass_fail does; airc_set_error is its non-variadic form, which
    ctypes calls portably)."""
    return _lib.airc_set_error(status, encode(message))


_ctx = None


def default_context():
    """The process-wide context the binding uses (built-in ops)."""
    global _ctx
    if _ctx is None:
        L = lib()
        with _load_lock:
            if _ctx is None:
                out = c_void_p()
                L.airc_context_create(None, ctypes.byref(out))
                _ctx = out.value
    return _ctx
