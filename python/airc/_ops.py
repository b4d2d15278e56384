"""airc.ops.<ns>.<name>.<overload>: op handles shaped like torch.ops."""
import sys

from . import _lib


def _known_ops():
    """Names of the ops the default context knows ("aten.mm.default"),
    cached until the registry grows."""
    L = _lib.lib()
    ctx = _lib.default_context()
    n = L.airc_context_num_ops(ctx)
    if _known_ops.cache is None or _known_ops.count != n:
        _known_ops.cache = frozenset(L.airc_context_op_name(ctx, i) for i in range(n))
        _known_ops.count = n
    return _known_ops.cache


_known_ops.cache = None
_known_ops.count = -1


class OpOverload:
    """One op overload: airc.ops.aten.mm.default. Equal to another handle of
    the same op, to its name "aten.mm.default" (or "torch.ops.aten.mm.default",
    "aten::mm.default"), and to torch.ops.aten.mm.default."""

    __slots__ = ("name", "namespace", "op_name", "overload")

    def __init__(self, name):
        self.name = name
        parts = name.split(".")
        self.namespace = parts[0]
        self.op_name = parts[1] if len(parts) > 1 else ""
        self.overload = parts[2] if len(parts) > 2 else None

    def __repr__(self):
        return "airc.ops.%s" % self.name

    def __str__(self):
        return self.name

    def __hash__(self):
        return hash(self.name)

    def __eq__(self, other):
        if isinstance(other, OpOverload):
            return other.name == self.name
        name = target_name(other, strict=False)
        if name is None:
            return NotImplemented
        return name == self.name

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __call__(self, *args, **kwargs):
        raise TypeError("%s cannot be called eagerly from Python; build a graph with "
                        "graph.call_function(%s, args)" % (self.name, repr(self)))


def _normalize(text):
    if text.startswith("torch.ops."):
        text = text[len("torch.ops."):]
    if "::" in text:
        text = text.replace("::", ".", 1)
    if text.count(".") == 1 and not text.startswith("operator."):
        text += ".default"  # "aten::mm" names the default overload
    return text


def target_name(target, strict=True):
    """The op name airc takes ("aten.mm.default") for an airc.ops handle, a
    string, a torch.ops overload or operator.getitem. With strict, anything
    else is a TypeError; otherwise None."""
    if isinstance(target, OpOverload):
        return target.name
    if isinstance(target, str):
        return _normalize(target)
    torch = sys.modules.get("torch")
    if torch is not None:
        ops_mod = getattr(torch, "_ops", None)
        if ops_mod is not None and isinstance(target, getattr(ops_mod, "OpOverload", ())):
            schema = target._schema
            return "%s.%s" % (schema.name.replace("::", ".", 1), target._overloadname or "default")
        if ops_mod is not None and isinstance(target, getattr(ops_mod, "OpOverloadPacket", ())):
            if strict:
                raise TypeError("%r is an overload packet; name an overload (%r.default)" %
                                (target, target))
            return None
    import operator
    if target is operator.getitem:
        return "operator.getitem"
    if strict:
        raise TypeError("not an op: %r (use airc.ops.<ns>.<name>.<overload>, a string such "
                        "as 'aten.mm.default', or a torch.ops overload)" % (target,))
    return None


def overload(name):
    """The OpOverload for a name airc prints as a node target."""
    return OpOverload(_normalize(name))


class _Packet:
    def __init__(self, ns, name):
        self._ns = ns
        self._name = name

    def __getattr__(self, overload_name):
        if overload_name.startswith("__"):
            raise AttributeError(overload_name)
        full = "%s.%s.%s" % (self._ns, self._name, overload_name)
        if full not in _known_ops():
            raise AttributeError("airc has no op %s" % full)
        op = OpOverload(full)
        setattr(self, overload_name, op)
        return op

    def overloads(self):
        prefix = "%s.%s." % (self._ns, self._name)
        return sorted(n[len(prefix):] for n in _known_ops() if n.startswith(prefix))

    def __repr__(self):
        return "airc.ops.%s.%s" % (self._ns, self._name)


class _Namespace:
    def __init__(self, ns):
        self._ns = ns
        self._packets = {}

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        packet = self._packets.get(name)
        if packet is None:
            prefix = "%s.%s." % (self._ns, name)
            if not any(n.startswith(prefix) for n in _known_ops()):
                raise AttributeError("airc has no op %s.%s" % (self._ns, name))
            packet = self._packets[name] = _Packet(self._ns, name)
        return packet

    def __repr__(self):
        return "airc.ops.%s" % self._ns


class _Ops:
    def __init__(self):
        self._namespaces = {}

    def __getattr__(self, ns):
        if ns.startswith("__"):
            raise AttributeError(ns)
        space = self._namespaces.get(ns)
        if space is None:
            if not any(n.startswith(ns + ".") for n in _known_ops()):
                raise AttributeError("airc has no op namespace %r" % ns)
            space = self._namespaces[ns] = _Namespace(ns)
        return space

    def __iter__(self):
        return iter(sorted(_known_ops()))


ops = _Ops()
