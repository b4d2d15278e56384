"""Graph and Node, shaped like torch.fx.Graph and torch.fx.Node."""
import ctypes
import sys
from collections.abc import MutableMapping
from ctypes import POINTER, byref, c_char_p, c_double, c_int32, c_int64, c_size_t, c_void_p

from . import _lib, _ops, _types
from ._lib import Error

# airc_node_kind
PLACEHOLDER, GET_ATTR, CALL_FUNCTION, CALL_MODULE, OUTPUT = range(5)
_KIND_BY_OP = {"placeholder": PLACEHOLDER, "get_attr": GET_ATTR,
               "call_function": CALL_FUNCTION, "call_module": CALL_MODULE, "output": OUTPUT}
_OP_BY_KIND = {v: k for k, v in _KIND_BY_OP.items()}

# airc_value_kind
(V_NONE, V_INT, V_FLOAT, V_BOOL, V_STRING, V_NODE, V_DTYPE, V_DEVICE, V_MEMORY_FORMAT,
 V_LAYOUT, V_LIST, V_TUPLE) = range(12)

# insertion points
INSERT_END, INSERT_BEFORE, INSERT_AFTER, INSERT_FRONT = range(4)

# print flags
PRINT_DEFAULT, PRINT_TYPES, PRINT_NO_TYPES = 0, 1, 2

# node meta kinds
META_NONE, META_TENSOR, META_TUPLE = range(3)


def _int64_array(values):
    values = list(values)
    return (c_int64 * max(len(values), 1))(*values)


class Graph:
    """An airc graph (torch.fx.Graph). Create one empty (`Graph()`) or from
    torch.fx text (`Graph.parse(text)`); `str(graph)` prints the text.

    A graph handed to a Python pass is borrowed: it stops being usable when
    the pass returns (airc may restore or replace it afterwards)."""

    def __init__(self, _ptr=None, _owned=True, _keepalive=None):
        L = _lib.lib()
        if _ptr is None:
            out = c_void_p()
            L.airc_graph_create(_lib.default_context(), byref(out))
            _ptr = out.value
        self._ptr = _ptr
        self._owned = _owned
        self._keepalive = _keepalive  # what owns a borrowed graph
        self._why_invalid = None
        self._node_cache = {}

    @classmethod
    def parse(cls, text, source=None):
        """Parses torch.fx text (what str(gm.graph) prints). Raises
        airc.Error (AIRC_E_PARSE with "source:line:col: ...")."""
        L = _lib.lib()
        data = _lib.encode(text)
        out = c_void_p()
        L.airc_graph_parse(_lib.default_context(), data, len(data), _lib.encode(source),
                           byref(out))
        return cls(out.value)

    @classmethod
    def load(cls, path):
        """Parses a file of torch.fx text."""
        with open(path, "r", encoding="utf-8") as f:
            return cls.parse(f.read(), source=str(path))

    def __del__(self):
        ptr, self._ptr = getattr(self, "_ptr", None), None
        if ptr and getattr(self, "_owned", False) and _lib._dll is not None:
            _lib._lib.airc_graph_destroy(ptr)

    def _handle(self):
        if self._ptr is None or self._why_invalid:
            raise Error("graph is no longer usable: %s" % (self._why_invalid or "destroyed"),
                        _lib.E_MISUSE, "AIRC_E_MISUSE")
        return self._ptr

    def _invalidate(self, why):
        self._why_invalid = why
        self._invalidate_nodes()

    def _invalidate_nodes(self):
        """Forgets the node wrappers (after airc restored the graph)."""
        for node in self._node_cache.values():
            node._ptr = None
        self._node_cache.clear()

    def _node(self, ptr):
        """The one Node wrapper of a C node pointer (None for NULL)."""
        if not ptr:
            return None
        node = self._node_cache.get(ptr)
        if node is None:
            node = self._node_cache[ptr] = Node(self, ptr)
        return node

    # -- reading -----------------------------------------------------------

    @property
    def nodes(self):
        """The live nodes in order. Iteration tolerates erasing the current
        node and visits nodes inserted after it (as torch.fx)."""
        return _NodeList(self)

    def find_node(self, name):
        """The live node with this name, or None."""
        return self._node(_lib.lib().airc_graph_find_node(self._handle(), _lib.encode(name)))

    @property
    def output_node(self):
        return self._node(_lib.lib().airc_graph_output_node(self._handle()))

    def format(self, types=None):
        """torch.fx text. types None: the types the parsed text carried;
        True: every node's meta; False: no type slot."""
        flags = PRINT_DEFAULT if types is None else (PRINT_TYPES if types else PRINT_NO_TYPES)
        out = c_void_p()
        _lib.lib().airc_graph_print(self._handle(), flags, byref(out))
        return _lib.take_string(out.value)

    def __str__(self):
        return self.format()

    def __repr__(self):
        return "<airc.Graph with %d nodes>" % len(self.nodes) if self._ptr else "<airc.Graph>"

    def clone(self):
        out = c_void_p()
        _lib.lib().airc_graph_clone(self._handle(), byref(out))
        return Graph(out.value)

    # -- checks and passes ---------------------------------------------------

    def lint(self):
        """torch.fx's lint plus airc's checks (schemas, scope pairing).
        Raises airc.Error (AIRC_E_INVALID_GRAPH) naming the node."""
        _lib.lib().airc_graph_lint(self._handle())

    def eliminate_dead_code(self):
        """torch.fx's DCE (side-effect ops kept). True when a node went."""
        changed = c_int32(0)
        _lib.lib().airc_graph_eliminate_dead_code(self._handle(), byref(changed))
        return bool(changed.value)

    def propagate_meta(self, *example_inputs):
        """Sets the placeholders' meta from example inputs (arrays, tensors
        or TensorMeta, one per placeholder, in order; none: keep theirs) and
        computes every node's meta."""
        if example_inputs:
            placeholders = [n for n in self.nodes if n.op == "placeholder"]
            if len(placeholders) != len(example_inputs):
                raise ValueError("%d example inputs for %d placeholders" %
                                 (len(example_inputs), len(placeholders)))
            for node, value in zip(placeholders, example_inputs):
                node.meta["val"] = _types.TensorMeta.from_array(value)
        _lib.lib().airc_graph_propagate_meta(self._handle())

    # -- insertion point -----------------------------------------------------

    def inserting_before(self, node=None):
        """Context manager: new nodes go just before `node`, in creation
        order (None: at the start of the graph)."""
        if node is None:
            return _InsertPoint(self, INSERT_FRONT, None)
        return _InsertPoint(self, INSERT_BEFORE, node)

    def inserting_after(self, node=None):
        """Context manager: new nodes go just after `node` (None: at the
        end). airc moves the point past each new node, so a chain created
        in one scope keeps its order (torch.fx would reverse it; a single
        node per scope, the common case, comes out the same)."""
        if node is None:
            return _InsertPoint(self, INSERT_END, None)
        return _InsertPoint(self, INSERT_AFTER, node)

    # -- creating ------------------------------------------------------------

    def create_node(self, op, target, args=None, kwargs=None, name=None, type_expr=None):
        """torch.fx's create_node: op is "placeholder", "get_attr",
        "call_function", "call_module" or "output"."""
        try:
            kind = _KIND_BY_OP[op]
        except KeyError:
            raise ValueError("unknown node op %r" % (op,)) from None
        g = self._handle()
        if kind == CALL_FUNCTION:
            target_text = _ops.target_name(target)
        elif kind == OUTPUT:
            target_text = "output"
        else:
            target_text = str(target)
        args = tuple(args or ())
        kwargs = dict(kwargs or {})
        arg_values = [_to_value(self, a) for a in args]
        kw_names = [_lib.encode(k) for k in kwargs]
        kw_values = [_to_value(self, v) for v in kwargs.values()]
        a = (c_void_p * max(len(arg_values), 1))(*arg_values)
        kn = (c_char_p * max(len(kw_names), 1))(*kw_names)
        kv = (c_void_p * max(len(kw_values), 1))(*kw_values)
        out = c_void_p()
        _lib.lib().airc_graph_create_node(g, kind, _lib.encode(target_text), a, len(arg_values),
                                          kn, kv, len(kw_values), _lib.encode(name), byref(out))
        return self._node(out.value)

    def call_function(self, the_function, args=None, kwargs=None, type_expr=None, name=None):
        """A call_function node at the insertion point. the_function is an
        airc.ops handle, an op name ("aten.mm.default") or a torch.ops
        overload (or operator.getitem)."""
        return self.create_node("call_function", the_function, args, kwargs, name)

    def placeholder(self, name, type_expr=None):
        return self.create_node("placeholder", name, name=name)

    def get_attr(self, qualified_name, type_expr=None):
        return self.create_node("get_attr", qualified_name)

    def output(self, result, type_expr=None):
        return self.create_node("output", "output", (result,))

    def erase_node(self, to_erase):
        """Erases a node without users (AIRC_E_INVALID_GRAPH otherwise)."""
        _lib.lib().airc_graph_erase_node(self._handle(), to_erase._handle())


class _NodeList:
    def __init__(self, graph):
        self._graph = graph

    def __len__(self):
        return _lib.lib().airc_graph_num_nodes(self._graph._handle())

    def __iter__(self):
        L = _lib.lib()
        g = self._graph
        ptr = L.airc_graph_first_node(g._handle())
        while ptr:
            following = L.airc_node_next(ptr)
            yield g._node(ptr)
            g._handle()  # still usable?
            if not L.airc_node_is_erased(ptr):
                following = L.airc_node_next(ptr)  # sees nodes inserted after it
            elif following and L.airc_node_is_erased(following):
                raise RuntimeError("the node after an erased node was erased during iteration")
            ptr = following

    def __reversed__(self):
        L = _lib.lib()
        g = self._graph
        ptr = L.airc_graph_last_node(g._handle())
        while ptr:
            previous = L.airc_node_prev(ptr)
            yield g._node(ptr)
            if not L.airc_node_is_erased(ptr):
                previous = L.airc_node_prev(ptr)
            ptr = previous

    def __repr__(self):
        return "[%s]" % ", ".join(n.name for n in self)


class _InsertPoint:
    """Sets the insertion point at once (as torch.fx) and restores the
    previous one on exit."""

    def __init__(self, graph, where, anchor):
        L = _lib.lib()
        g = graph._handle()
        saved_where = c_int32()
        saved_anchor = c_void_p()
        L.airc_graph_get_insert_point(g, byref(saved_where), byref(saved_anchor))
        self._graph = graph
        self._saved = (saved_where.value, saved_anchor.value)
        L.airc_graph_set_insert_point(g, where, anchor._handle() if anchor is not None else None)

    def __enter__(self):
        return None

    def __exit__(self, *exc):
        L = _lib.lib()
        graph = self._graph
        if graph._ptr is None or graph._why_invalid:
            return False
        where, anchor = self._saved
        if anchor and L.airc_node_is_erased(anchor):
            where, anchor = INSERT_END, None
        L.airc_graph_set_insert_point(graph._ptr, where, anchor)
        return False


class Node:
    """A node of an airc Graph (torch.fx.Node). One wrapper per node, so
    `is` and hashing work; it keeps its graph alive."""

    __slots__ = ("graph", "_ptr", "__weakref__")

    def __init__(self, graph, ptr):
        self.graph = graph
        self._ptr = ptr

    def _handle(self):
        self.graph._handle()
        if self._ptr is None:
            raise Error("node of a graph that is no longer usable", _lib.E_MISUSE,
                        "AIRC_E_MISUSE")
        return self._ptr

    def __repr__(self):
        try:
            return _lib.lib().airc_node_name(self._handle())
        except Error:
            return "<airc.Node (dead)>"

    @property
    def name(self):
        return _lib.lib().airc_node_name(self._handle())

    @name.setter
    def name(self, candidate):
        """Renames the node; the name is made unique as a new node's would
        be (torch.fx's Node._rename), so it may differ from candidate."""
        self._rename(candidate)

    def _rename(self, candidate):
        _lib.lib().airc_node_rename(self._handle(), _lib.encode(candidate), None)

    @property
    def op(self):
        return _OP_BY_KIND[_lib.lib().airc_node_get_kind(self._handle())]

    @property
    def target(self):
        """An airc.ops handle for call_function nodes (equal to the name
        string and to the torch.ops overload); a string otherwise."""
        L = _lib.lib()
        ptr = self._handle()
        text = L.airc_node_target(ptr)
        if L.airc_node_get_kind(ptr) == CALL_FUNCTION:
            return _ops.overload(text)
        return text

    @target.setter
    def target(self, op):
        _lib.lib().airc_node_set_target(self._handle(), _lib.encode(_ops.target_name(op)))

    @property
    def args(self):
        L = _lib.lib()
        ptr = self._handle()
        return tuple(_from_value(self.graph, L.airc_node_arg(ptr, i))
                     for i in range(L.airc_node_num_args(ptr)))

    @args.setter
    def args(self, args):
        values = [_to_value(self.graph, a) for a in args]
        arr = (c_void_p * max(len(values), 1))(*values)
        _lib.lib().airc_node_set_args(self._handle(), arr, len(values))

    @property
    def kwargs(self):
        L = _lib.lib()
        ptr = self._handle()
        return {L.airc_node_kwarg_name(ptr, i): _from_value(self.graph,
                                                            L.airc_node_kwarg_value(ptr, i))
                for i in range(L.airc_node_num_kwargs(ptr))}

    @kwargs.setter
    def kwargs(self, kwargs):
        names = [_lib.encode(k) for k in kwargs]
        values = [_to_value(self.graph, v) for v in kwargs.values()]
        kn = (c_char_p * max(len(names), 1))(*names)
        kv = (c_void_p * max(len(values), 1))(*values)
        _lib.lib().airc_node_set_kwargs(self._handle(), kn, kv, len(values))

    def update_arg(self, idx, arg):
        args = list(self.args)
        args[idx] = arg
        self.args = args

    def update_kwarg(self, key, arg):
        kwargs = self.kwargs
        kwargs[key] = arg
        self.kwargs = kwargs

    @property
    def users(self):
        """{user: None} in torch.fx order (a dict used as an ordered set)."""
        L = _lib.lib()
        ptr = self._handle()
        return {self.graph._node(L.airc_node_user(ptr, i)): None
                for i in range(L.airc_node_num_users(ptr))}

    @property
    def all_input_nodes(self):
        L = _lib.lib()
        ptr = self._handle()
        return [self.graph._node(L.airc_node_input(ptr, i))
                for i in range(L.airc_node_num_inputs(ptr))]

    @property
    def next(self):
        return self.graph._node(_lib.lib().airc_node_next(self._handle()))

    @property
    def prev(self):
        return self.graph._node(_lib.lib().airc_node_prev(self._handle()))

    @property
    def is_erased(self):
        return bool(_lib.lib().airc_node_is_erased(self._handle()))

    @property
    def meta(self):
        """node.meta: "val" is the node's TensorMeta (a tuple of them for a
        multi-output op); other keys are the node's attributes."""
        return NodeMeta(self)

    def prepend(self, x):
        """Moves x just before this node."""
        _lib.lib().airc_node_move_before(x._handle(), self._handle())

    def append(self, x):
        """Moves x just after this node."""
        _lib.lib().airc_node_move_after(x._handle(), self._handle())

    def replace_all_uses_with(self, replace_with, delete_user_cb=None):
        """Rewrites every use of this node (of the users delete_user_cb
        accepts) to replace_with; returns the users rewritten."""
        ptr = self._handle()
        users = list(self.users)
        if delete_user_cb is not None:
            chosen = [u for u in users if delete_user_cb(u)]
            chosen_ptrs = {u._ptr for u in chosen}

            def keep(_, user):
                return 1 if user in chosen_ptrs else 0

            filt = _lib.USER_FILTER_FN(keep)
        else:
            chosen = users
            filt = _lib.USER_FILTER_FN()
        n = c_size_t(0)
        _lib.lib().airc_node_replace_all_uses_with(ptr, replace_with._handle(), filt, None,
                                                   byref(n))
        return chosen

    def replace_input_with(self, old_input, new_input):
        _lib.lib().airc_node_replace_input_with(self._handle(), old_input._handle(),
                                                new_input._handle())


class NodeMeta(MutableMapping):
    """A live view of a node's meta: "val" and the node's attributes."""

    def __init__(self, node):
        self._node = node

    def _val(self):
        L = _lib.lib()
        ptr = self._node._handle()
        kind = L.airc_node_meta_kind(ptr)
        if kind == META_NONE:
            raise KeyError("val")
        metas = tuple(_output_meta(ptr, i) for i in range(L.airc_node_num_outputs(ptr)))
        return metas[0] if kind == META_TENSOR else metas

    def __getitem__(self, key):
        if key == "val":
            return self._val()
        v = _lib.lib().airc_node_get_attr(self._node._handle(), _lib.encode(key))
        if not v:
            raise KeyError(key)
        return _from_value(self._node.graph, v)

    def __setitem__(self, key, value):
        L = _lib.lib()
        ptr = self._node._handle()
        if key == "val":
            if value is None:
                L.airc_node_clear_meta(ptr)
            elif isinstance(value, (tuple, list)) and not isinstance(value, _types.TensorMeta):
                metas = [_types.TensorMeta.from_array(v) for v in value]
                L.airc_node_set_meta_tuple(ptr, len(metas))
                for i, m in enumerate(metas):
                    L.airc_node_set_output_meta(ptr, i, m.dtype.code, len(m.shape),
                                                _int64_array(m.shape), _int64_array(m.stride))
            else:
                m = _types.TensorMeta.from_array(value)
                L.airc_node_set_meta(ptr, m.dtype.code, len(m.shape), _int64_array(m.shape),
                                     _int64_array(m.stride))
            return
        L.airc_node_set_attr(ptr, _lib.encode(key), _to_value(self._node.graph, value))

    def __delitem__(self, key):
        L = _lib.lib()
        ptr = self._node._handle()
        if key not in self:
            raise KeyError(key)
        if key == "val":
            L.airc_node_clear_meta(ptr)
        else:
            L.airc_node_set_attr(ptr, _lib.encode(key), None)

    def __contains__(self, key):
        L = _lib.lib()
        ptr = self._node._handle()
        if key == "val":
            return L.airc_node_meta_kind(ptr) != META_NONE
        return bool(L.airc_node_get_attr(ptr, _lib.encode(key)))

    def __iter__(self):
        L = _lib.lib()
        ptr = self._node._handle()
        keys = ["val"] if L.airc_node_meta_kind(ptr) != META_NONE else []
        keys += [L.airc_node_attr_key(ptr, i) for i in range(L.airc_node_num_attrs(ptr))]
        return iter(keys)

    def __len__(self):
        return len(list(iter(self)))

    def __repr__(self):
        return repr(dict(self.items()))


def _output_meta(node_ptr, i):
    dt = c_int32()
    ndim = c_int32()
    shape = POINTER(c_int64)()
    strides = POINTER(c_int64)()
    _lib.lib().airc_node_output_meta(node_ptr, i, byref(dt), byref(ndim), byref(shape),
                                     byref(strides))
    n = ndim.value
    return _types.TensorMeta(tuple(shape[k] for k in range(n)), _types.from_code(dt.value),
                             tuple(strides[k] for k in range(n)) if strides else None)


def _from_value(graph, v):
    """Python value of an airc_value (v borrowed from graph)."""
    L = _lib.lib()
    kind = L.airc_value_get_kind(v)
    if kind == V_NONE:
        return None
    if kind == V_INT:
        out = c_int64()
        L.airc_value_get_int(v, byref(out))
        return out.value
    if kind == V_FLOAT:
        out = c_double()
        L.airc_value_get_float(v, byref(out))
        return out.value
    if kind == V_BOOL:
        out = c_int32()
        L.airc_value_get_bool(v, byref(out))
        return bool(out.value)
    if kind == V_STRING:
        out = c_char_p()
        L.airc_value_get_string(v, byref(out))
        return out.value.decode("utf-8", "surrogateescape")
    if kind == V_NODE:
        out = c_void_p()
        L.airc_value_get_node(v, byref(out))
        return graph._node(out.value)
    if kind == V_DTYPE:
        out = c_int32()
        L.airc_value_get_dtype(v, byref(out))
        return _types.from_code(out.value)
    if kind == V_DEVICE:
        t = c_char_p()
        idx = c_int32()
        L.airc_value_get_device(v, byref(t), byref(idx))
        return _types.device(t.value.decode(), idx.value)
    if kind in (V_MEMORY_FORMAT, V_LAYOUT):
        out = c_int32()
        L.airc_value_get_enum(v, byref(out))
        return (_types.memory_format if kind == V_MEMORY_FORMAT else _types.layout)(out.value)
    if kind in (V_LIST, V_TUPLE):
        items = [_from_value(graph, L.airc_value_item(v, i)) for i in range(L.airc_value_length(v))]
        return items if kind == V_LIST else tuple(items)
    raise Error("value of unknown kind %d" % kind, _lib.E_UNSUPPORTED, "AIRC_E_UNSUPPORTED")


def _to_value(graph, obj):
    """An airc_value of graph for a Python value (borrowed from graph)."""
    L = _lib.lib()
    g = graph._handle()
    out = c_void_p()
    if obj is None:
        L.airc_value_none(g, byref(out))
    elif isinstance(obj, bool):
        L.airc_value_bool(g, 1 if obj else 0, byref(out))
    elif isinstance(obj, int):
        L.airc_value_int(g, obj, byref(out))
    elif isinstance(obj, float):
        L.airc_value_float(g, obj, byref(out))
    elif isinstance(obj, str):
        L.airc_value_string(g, _lib.encode(obj), byref(out))
    elif isinstance(obj, Node):
        if obj.graph is not graph:
            raise Error("node %s belongs to another graph" % obj.name, _lib.E_INVALID_GRAPH,
                        "AIRC_E_INVALID_GRAPH")
        L.airc_value_node(g, obj._handle(), byref(out))
    elif isinstance(obj, _types.dtype):
        L.airc_value_dtype(g, obj.code, byref(out))
    elif isinstance(obj, _types.device):
        L.airc_value_device(g, _lib.encode(obj.type), obj.index, byref(out))
    elif isinstance(obj, _types.memory_format):
        L.airc_value_memory_format(g, obj.code, byref(out))
    elif isinstance(obj, _types.layout):
        L.airc_value_layout(g, obj.code, byref(out))
    elif isinstance(obj, (list, tuple)):
        items = [_to_value(graph, x) for x in obj]
        arr = (c_void_p * max(len(items), 1))(*items)
        make = L.airc_value_list if isinstance(obj, list) else L.airc_value_tuple
        make(g, arr, len(items), byref(out))
    else:
        return _to_value(graph, _foreign(obj))
    return out.value


def _foreign(obj):
    """torch / numpy values that have an airc counterpart."""
    torch = sys.modules.get("torch")
    if torch is not None:
        if isinstance(obj, torch.dtype):
            return _types.as_dtype(obj)
        if isinstance(obj, torch.device):
            return _types.device(obj.type, -1 if obj.index is None else obj.index)
        if isinstance(obj, torch.memory_format):
            for code, name in _types.memory_format._names.items():
                if str(obj) == name:
                    return _types.memory_format(code)
        if isinstance(obj, torch.layout):
            for code, name in _types.layout._names.items():
                if str(obj) == name:
                    return _types.layout(code)
    np = sys.modules.get("numpy")
    if np is not None and isinstance(obj, np.generic):
        return obj.item()
    if hasattr(obj, "__index__"):
        return int(obj.__index__())
    raise TypeError("cannot pass %r to airc (ints, floats, bools, strings, None, nodes, "
                    "dtypes, devices, lists and tuples)" % (obj,))


class GraphModule:
    """What a pass receives as `gm`: gm.graph is the airc Graph."""

    def __init__(self, graph):
        self.graph = graph

    def recompile(self):
        """Nothing to regenerate: airc runs the graph itself."""
        return None

    @property
    def code(self):
        return str(self.graph)

    def __repr__(self):
        return "<airc.GraphModule>\n" + str(self.graph)


del ctypes
