"""dtypes, devices, memory formats, layouts and TensorMeta."""
import sys
from collections import namedtuple

# airc_dtype code: (short name, torch name, numpy name or None)
_DTYPES = {
    1: ("f32", "torch.float32", "float32"),
    2: ("f64", "torch.float64", "float64"),
    3: ("f16", "torch.float16", "float16"),
    4: ("bf16", "torch.bfloat16", None),
    5: ("i64", "torch.int64", "int64"),
    6: ("i32", "torch.int32", "int32"),
    7: ("i16", "torch.int16", "int16"),
    8: ("i8", "torch.int8", "int8"),
    9: ("u8", "torch.uint8", "uint8"),
    10: ("b8", "torch.bool", "bool"),
}
_TORCH_ALIASES = {
    "torch.float": "torch.float32", "torch.double": "torch.float64",
    "torch.half": "torch.float16", "torch.long": "torch.int64", "torch.int": "torch.int32",
    "torch.short": "torch.int16",
}


class dtype:
    """An airc dtype. Equal to the same airc dtype, to its names ("f32",
    "torch.float32"), to the torch dtype and to the numpy dtype."""

    __slots__ = ("code", "name", "torch_name", "numpy_name")

    def __init__(self, code):
        self.code = code
        self.name, self.torch_name, self.numpy_name = _DTYPES[code]

    def __repr__(self):
        return "airc." + self.torch_name[len("torch."):]

    def __str__(self):
        return self.torch_name

    def __hash__(self):
        return hash(self.torch_name)

    def __eq__(self, other):
        if isinstance(other, dtype):
            return other.code == self.code
        try:
            return as_dtype(other).code == self.code
        except (TypeError, ValueError):
            return NotImplemented

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    @property
    def itemsize(self):
        return {1: 4, 2: 8, 3: 2, 4: 2, 5: 8, 6: 4, 7: 2, 8: 1, 9: 1, 10: 1}[self.code]


_BY_CODE = {code: dtype(code) for code in _DTYPES}
_BY_NAME = {}
for _d in _BY_CODE.values():
    _BY_NAME[_d.name] = _d
    _BY_NAME[_d.torch_name] = _d
    if _d.numpy_name:
        _BY_NAME[_d.numpy_name] = _d
for _alias, _name in _TORCH_ALIASES.items():
    _BY_NAME[_alias] = _BY_NAME[_name]

float32, float64, float16, bfloat16 = (_BY_CODE[i] for i in (1, 2, 3, 4))
int64, int32, int16, int8, uint8 = (_BY_CODE[i] for i in (5, 6, 7, 8, 9))
bool_ = _BY_CODE[10]


def from_code(code):
    return _BY_CODE.get(code)


def as_dtype(value):
    """airc dtype from an airc dtype, a name, a torch dtype or a numpy
    dtype (or type). ValueError for an unknown one, TypeError otherwise."""
    if isinstance(value, dtype):
        return value
    if isinstance(value, str):
        try:
            return _BY_NAME[value]
        except KeyError:
            raise ValueError("unknown dtype %r" % value) from None
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(value, torch.dtype):
        return as_dtype(str(value))
    np = sys.modules.get("numpy")
    if np is not None:
        try:
            if isinstance(value, np.dtype) or (isinstance(value, type) and
                                               issubclass(value, np.generic)):
                return as_dtype(np.dtype(value).name)
        except TypeError:
            pass
    if value is bool:
        return bool_
    raise TypeError("not a dtype: %r" % (value,))


class device(namedtuple("device", ["type", "index"])):
    """A device argument (torch.device("cpu"), "npu:0")."""

    def __new__(cls, type, index=None):
        if index is None and isinstance(type, str) and ":" in type:
            type, idx = type.split(":", 1)
            index = int(idx)
        return super().__new__(cls, type, -1 if index is None else index)

    def __str__(self):
        return self.type if self.index < 0 else "%s:%d" % (self.type, self.index)

    def __eq__(self, other):
        if isinstance(other, str):
            return str(self) == other
        torch = sys.modules.get("torch")
        if torch is not None and isinstance(other, torch.device):
            return str(self) == str(other)
        return tuple.__eq__(self, other)

    __hash__ = tuple.__hash__


class _Enum:
    __slots__ = ("code", "name")
    _names = {}

    def __init__(self, code):
        self.code = code
        self.name = self._names[code]

    def __repr__(self):
        return self.name

    def __eq__(self, other):
        if type(other) is type(self):
            return other.code == self.code
        if isinstance(other, str):
            return other == self.name
        torch = sys.modules.get("torch")
        if torch is not None and str(other) == self.name:
            return True
        return NotImplemented

    def __hash__(self):
        return hash(self.name)


class memory_format(_Enum):
    _names = {0: "torch.contiguous_format", 1: "torch.channels_last", 2: "torch.preserve_format",
              3: "torch.channels_last_3d"}


class layout(_Enum):
    _names = {0: "torch.strided", 1: "torch.sparse_coo"}


def _contiguous_strides(shape):
    strides = []
    acc = 1
    for size in reversed(shape):
        strides.append(acc)
        acc *= max(size, 1)
    return tuple(reversed(strides))


class TensorMeta(namedtuple("TensorMeta", ["shape", "dtype", "stride"])):
    """What airc knows of a tensor without data: shape, dtype and strides
    (in elements, as torch), in node.meta["val"] and a pass's
    example_inputs."""

    def __new__(cls, shape, dtype, stride=None):
        shape = tuple(int(s) for s in shape)
        stride = _contiguous_strides(shape) if stride is None else tuple(int(s) for s in stride)
        return super().__new__(cls, shape, as_dtype(dtype), stride)

    @property
    def ndim(self):
        return len(self.shape)

    def dim(self):
        return len(self.shape)

    def size(self, i=None):
        return self.shape if i is None else self.shape[i]

    def is_contiguous(self):
        return self.stride == _contiguous_strides(self.shape)

    @classmethod
    def from_array(cls, array):
        """From a numpy array or a torch tensor (or a TensorMeta)."""
        if isinstance(array, TensorMeta):
            return array
        torch = sys.modules.get("torch")
        if torch is not None and isinstance(array, torch.Tensor):
            return cls(tuple(array.shape), array.dtype, tuple(array.stride()))
        shape = tuple(array.shape)
        itemsize = array.dtype.itemsize
        return cls(shape, array.dtype, tuple(s // itemsize for s in array.strides))
