"""CompilerConfig: TorchAir's attribute paths over airc's dotted config keys."""
from ctypes import byref, c_char_p, c_void_p

from . import _lib
from ._lib import Error

_USER_PASS_ATTRS = ("post_grad_custom_pre_pass", "post_grad_custom_post_pass")

# Key -> "bool" | "int" | "str", probed once (see _key_type).
_key_types = {}
_probe_cfg = None


def _probe_config():
    global _probe_cfg
    if _probe_cfg is None:
        out = c_void_p()
        _lib.lib().airc_config_create(_lib.default_context(), byref(out))
        _probe_cfg = out.value
    return _probe_cfg


def _key_type(key):
    """The type of an option. The C API has no call for it, so it is probed
    on a scratch config: the typed setters refuse options of another type
    (set_int also refuses values out of range, hence three tries)."""
    t = _key_types.get(key)
    if t is not None:
        return t
    L = _lib.lib()
    cfg = _probe_config()
    k = _lib.encode(key)
    t = "str"
    try:
        L.airc_config_set_bool(cfg, k, 0)
        t = "bool"
    except Error:
        for probe in (0, 1, -1):
            try:
                L.airc_config_set_int(cfg, k, probe)
                t = "int"
                break
            except Error:
                pass
    try:
        L.airc_config_set(cfg, k, None)
    except Error:
        pass
    _key_types[key] = t
    return t


class _Tree:
    """The option tree of airc's keys: group path -> child names."""

    def __init__(self, keys):
        self.leaves = set(keys)
        self.children = {}
        for key in keys:
            parts = key.split(".")
            for i in range(len(parts)):
                self.children.setdefault(".".join(parts[:i]), set()).add(parts[i])


_tree = None


def _options(cfg_ptr):
    global _tree
    if _tree is None:
        L = _lib.lib()
        _tree = _Tree([L.airc_config_key(cfg_ptr, i) for i in range(L.airc_config_num_keys(cfg_ptr))])
    return _tree


class _Group:
    """A group of options (config.debug, config.debug.aclgraph)."""

    def __init__(self, root, prefix):
        object.__setattr__(self, "_root", root)
        object.__setattr__(self, "_prefix", prefix)

    def _key(self, name):
        return name if not self._prefix else self._prefix + "." + name

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        key = self._key(name)
        tree = _options(self._root._ptr)
        if key in tree.leaves:
            return self._root.get(key)
        if key in tree.children:
            return _Group(self._root, key)
        raise AttributeError(self._root._unknown_message(key))

    def __setattr__(self, name, value):
        key = self._key(name)
        tree = _options(self._root._ptr)
        if key in tree.leaves:
            self._root.set(key, value)
        elif key in tree.children:
            raise AttributeError("%s is a group of options, not an option (its options: %s)" %
                                 (key, ", ".join(sorted(tree.children[key]))))
        else:
            raise AttributeError(self._root._unknown_message(key))

    def __dir__(self):
        return sorted(_options(self._root._ptr).children.get(self._prefix, ()))

    def __repr__(self):
        return "<airc config group %s>" % self._prefix


class CompilerConfig(_Group):
    """TorchAir's CompilerConfig over airc's config: `config.mode`,
    `config.debug.graph_dump.type`, `config.ge_config.optimization_switch`,
    `config.debug.aclgraph.clone_input`, ... Values are converted (bools,
    ints, strings; None resets an option to its default); airc checks them
    (airc.Error with the allowed values). An unknown attribute raises
    AttributeError, as in TorchAir. `post_grad_custom_pre_pass` and
    `post_grad_custom_post_pass` take a pass `fn(gm, example_inputs,
    config)` or a list of them, run by airc.compile."""

    def __init__(self):
        out = c_void_p()
        _lib.lib().airc_config_create(_lib.default_context(), byref(out))
        object.__setattr__(self, "_ptr", out.value)
        object.__setattr__(self, "post_grad_custom_pre_pass", None)
        object.__setattr__(self, "post_grad_custom_post_pass", None)
        _Group.__init__(self, self, "")

    def __del__(self):
        ptr = self.__dict__.get("_ptr")
        if ptr and _lib._dll is not None:
            self.__dict__["_ptr"] = None
            _lib._lib.airc_config_destroy(ptr)

    def __setattr__(self, name, value):
        if name in _USER_PASS_ATTRS:
            object.__setattr__(self, name, _check_passes(name, value))
        else:
            _Group.__setattr__(self, name, value)

    def _unknown_message(self, key):
        # airc's own message suggests the closest key or says why a TorchAir
        # option is not carried.
        out = c_char_p()
        try:
            _lib.lib().airc_config_get(self._ptr, _lib.encode(key), byref(out))
        except Error as e:
            return "%s has no option %r: %s" % (type(self).__name__, key, e.message)
        return "%s has no option %r" % (type(self).__name__, key)

    def keys(self):
        """All option keys, dotted, in airc's order."""
        L = _lib.lib()
        return [L.airc_config_key(self._ptr, i) for i in range(L.airc_config_num_keys(self._ptr))]

    def get(self, key):
        """An option by dotted key: bool, int, str, or None when unset."""
        L = _lib.lib()
        k = _lib.encode(key)
        out = c_char_p()
        L.airc_config_get(self._ptr, k, byref(out))
        text = out.value.decode("utf-8", "surrogateescape")
        if text == "" and not L.airc_config_is_set(self._ptr, k):
            return None
        t = _key_type(key)
        if t == "bool":
            return text == "1"
        if t == "int":
            return int(text)
        return text

    def set(self, key, value):
        """Sets an option by dotted key (None: back to the default)."""
        L = _lib.lib()
        k = _lib.encode(key)
        if value is None:
            L.airc_config_set(self._ptr, k, None)
        elif isinstance(value, bool):
            L.airc_config_set(self._ptr, k, b"true" if value else b"false")
        elif isinstance(value, int):
            L.airc_config_set(self._ptr, k, str(value).encode())
        elif isinstance(value, str):
            L.airc_config_set(self._ptr, k, _lib.encode(value))
        else:
            raise TypeError("config option %s takes a bool, an int or a string, not %s" %
                            (key, type(value).__name__))

    def is_set(self, key):
        return bool(_lib.lib().airc_config_is_set(self._ptr, _lib.encode(key)))

    def as_dict(self):
        return {k: self.get(k) for k in self.keys()}

    def __repr__(self):
        return "<airc.CompilerConfig mode=%s>" % self.get("mode")


def _check_passes(name, value):
    if value is None or callable(value):
        return value
    if isinstance(value, (list, tuple)):
        for i, fn in enumerate(value):
            if not callable(fn):
                raise TypeError("%s[%d] is not callable: %r" % (name, i, fn))
        return list(value)
    raise TypeError("%s takes a callable fn(gm, example_inputs, config) or a list of them, "
                    "not %r" % (name, value))


def user_passes(value):
    """The list of callables a post_grad_custom_*_pass attribute holds."""
    if value is None:
        return []
    return list(value) if isinstance(value, list) else [value]
