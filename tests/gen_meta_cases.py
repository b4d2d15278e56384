#!/usr/bin/python3
"""Writes tests/data/meta_cases.txt: meta-function cases with PyTorch 1.13 as
the oracle. Run with Debian's python3-torch:  /usr/bin/python3 tests/gen_meta_cases.py

Each case is a small FX graph (placeholders with given dtype/shape/strides, a
few call_function nodes). The script runs the graph with torch on real CPU
tensors of those layouts and records every node's result dtype, shape and
strides; tests/unit/test_meta.c propagates meta in airc and compares. Cases
marked as errors must make torch raise; airc must fail with AIRC_E_SHAPE
naming the node.

Format (one item per line):
  case NAME
  in PLACEHOLDER DTYPE SHAPE STRIDES      SHAPE/STRIDES: "2,3" or "-" (0-dim)
  fx                                      FX text lines follow, up to "endfx"
  expect NODE - DTYPE SHAPE STRIDES       a tensor result
  expect NODE tuple N                     a tuple of N results...
  expect NODE I DTYPE SHAPE STRIDES       ...and its item I
  error NODE                              propagation fails at NODE
  end
and, outside cases, "promote A B RESULT" lines (torch.promote_types).
"""
import operator
import os

import torch

A = torch.ops.aten
torch.manual_seed(0)

DT = {"f32": torch.float32, "f64": torch.float64, "f16": torch.float16,
      "bf16": torch.bfloat16, "i64": torch.int64, "i32": torch.int32, "i16": torch.int16,
      "i8": torch.int8, "u8": torch.uint8, "b8": torch.bool}
DT_NAME = {v: k for k, v in DT.items()}


class T:
    """A placeholder: dtype, shape, optional strides, fill kind."""

    def __init__(self, dtype, shape, strides=None, fill=None):
        self.dtype, self.shape = dtype, list(shape)
        if strides is None:
            strides, s = [], 1
            for d in reversed(self.shape):
                strides.insert(0, s)
                s *= max(d, 1)
        self.strides, self.fill = list(strides), fill

    def make(self):
        dt = DT[self.dtype]
        span = 1 + sum((d - 1) * s for d, s in zip(self.shape, self.strides) if d > 0)
        if any(d == 0 for d in self.shape):
            span = 1
        if self.fill == "spd":  # symmetric positive-definite matrices (cholesky's input)
            m = torch.randn(self.shape, dtype=torch.float64)
            a = m @ m.mT + self.shape[-1] * torch.eye(self.shape[-1], dtype=torch.float64)
            return torch.empty_strided(self.shape, self.strides, dtype=dt).copy_(a)
        if self.fill == "zeros":
            base = torch.zeros(span, dtype=dt)
        elif self.fill == "unit":  # in [0, 1] (binary_cross_entropy's input)
            base = torch.rand(span).to(dt)
        elif dt.is_floating_point:
            base = torch.randn(span).to(dt)
        elif dt == torch.bool:
            base = torch.rand(span) > 0.5
        else:
            base = torch.randint(1, 3, (span,)).to(dt)
        return torch.as_strided(base, self.shape, self.strides)


def P(dtype, shape, perm, fill=None):
    """A permutation of a contiguous tensor of `shape`."""
    t = torch.empty(shape).permute(perm)
    return T(dtype, t.shape, t.stride(), fill)


def CL(dtype, shape):
    t = torch.empty(shape).to(memory_format=torch.channels_last)
    return T(dtype, t.shape, t.stride())


def CL3(dtype, shape):
    t = torch.empty(shape).to(memory_format=torch.channels_last_3d)
    return T(dtype, t.shape, t.stride())


class Ref:
    def __init__(self, name):
        self.name = name


R = Ref


def fmt(v):
    if isinstance(v, Ref):
        return "%" + v.name
    if isinstance(v, bool) or v is None:
        return repr(v)
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return v
    if isinstance(v, torch.dtype):
        return str(v)
    if isinstance(v, torch.memory_format):
        return str(v)
    if isinstance(v, list):
        return "[" + ", ".join(fmt(x) for x in v) + "]"
    if isinstance(v, tuple):
        return "(" + ", ".join(fmt(x) for x in v) + ("," if len(v) == 1 else "") + ")"
    raise TypeError(v)


def ev(v, env):
    if isinstance(v, Ref):
        return env[v.name]
    if isinstance(v, list):
        return [ev(x, env) for x in v]
    if isinstance(v, tuple):
        return tuple(ev(x, env) for x in v)
    return v


def shp(xs):
    return ",".join(str(int(x)) for x in xs) if len(xs) else "-"


def meta_line(t):
    return "%s %s %s" % (DT_NAME[t.dtype], shp(t.shape), shp(t.stride()))


CASES = []
NAMES = set()


def case(name, inputs, nodes, error=False):
    """inputs: {placeholder: T}; nodes: [(name, target, args, kwargs)]; the
    target is 'aten.x.y' or 'getitem'."""
    assert name not in NAMES, name
    NAMES.add(name)
    env = {k: v.make() for k, v in inputs.items()}
    lines = ["case " + name]
    for k, v in inputs.items():
        lines.append("in %s %s %s %s" % (k, v.dtype, shp(v.shape), shp(v.strides)))
    fx = ["graph():"]
    for k in inputs:
        fx.append("    %%%s : [#users=1] = placeholder[target=%s]" % (k, k))
    expects, failed = [], None
    for node in nodes:
        nname, target, args = node[0], node[1], node[2]
        kwargs = node[3] if len(node) > 3 else {}
        if target == "getitem":
            fn, tstr = operator.getitem, "operator.getitem"
        else:
            _, op, ovl = target.split(".")
            fn, tstr = getattr(getattr(A, op), ovl), "torch.ops." + target
        kw = ", ".join("%s: %s" % (k, fmt(v)) for k, v in kwargs.items())
        fx.append("    %%%s : [#users=1] = call_function[target=%s](args = %s, kwargs = {%s})"
                  % (nname, tstr, fmt(tuple(args)), kw))
        if failed:
            continue
        try:
            r = fn(*ev(args, env), **{k: ev(v, env) for k, v in kwargs.items()})
        except (RuntimeError, IndexError, ValueError) as e:
            failed = (nname, str(e).split("\n")[0])
            continue
        if isinstance(r, tuple) and any(t is None for t in r):
            # an undefined tensor (torch's attention weights without
            # need_weights): airc's stand-in is a [0] tensor of the first
            # result's dtype
            first = next(t for t in r if t is not None)
            r = tuple(torch.empty(0, dtype=first.dtype) if t is None else t for t in r)
        env[nname] = r
        if isinstance(r, torch.Tensor):
            expects.append("expect %s - %s" % (nname, meta_line(r)))
        else:
            expects.append("expect %s tuple %d" % (nname, len(r)))
            for i, t in enumerate(r):
                expects.append("expect %s %d %s" % (nname, i, meta_line(t)))
    fx.append("    return %s" % nodes[-1][0])
    if error:
        assert failed, "case %s: torch did not fail" % name
        assert failed[0] == nodes[-1][0], "case %s: torch failed early: %s" % (name, failed)
        expects = ["error %s" % failed[0]]  # a failed propagation keeps no meta
        lines.append("# torch: " + failed[1][:160])
    else:
        assert not failed, "case %s: torch failed: %s" % (name, failed)
    lines.append("fx")
    lines += fx
    lines.append("endfx")
    lines += expects
    lines.append("end")
    CASES.append("\n".join(lines))


def op1(name, target, args, kwargs=None, inputs=None, error=False):
    """One-node case; args may hold T placeholders (named x, y, z, w ...)."""
    inputs, names = {}, iter(["x", "y", "z", "w", "v", "u"])

    def sub(v):
        if isinstance(v, T):
            k = next(names)
            inputs[k] = v
            return Ref(k)
        if isinstance(v, list):
            return [sub(x) for x in v]
        return v
    a = [sub(v) for v in args]
    kw = {k: sub(v) for k, v in (kwargs or {}).items()}
    case(name, inputs, [("out", target, a, kw)], error=error)


# ---------------------------------------------------------------- unary
UNARY_SAME = ["abs", "neg", "relu", "gelu", "silu", "floor", "ceil", "round", "trunc", "sign",
              "hardtanh", "leaky_relu"]
UNARY_FLOAT = ["exp", "log", "sqrt", "rsqrt", "reciprocal", "sigmoid", "tanh", "sin", "cos",
               "erf", "log1p", "expm1", "log2"]
for u in UNARY_SAME + UNARY_FLOAT + ["logical_not"]:
    t = "aten.%s.default" % u
    op1(u + "_contig", t, [T("f32", [2, 3])])
    op1(u + "_perm", t, [P("f32", [2, 3, 4], [2, 0, 1])])
    op1(u + "_f64_0d", t, [T("f64", [])])
for u in UNARY_FLOAT + ["abs", "neg", "sign", "relu", "logical_not"]:
    op1(u + "_i64", "aten.%s.default" % u, [T("i64", [3, 2])])
for u in ["exp", "sigmoid", "logical_not"]:
    op1(u + "_bool", "aten.%s.default" % u, [T("b8", [4])])
op1("exp_expanded", "aten.exp.default", [T("f32", [3, 4], [1, 0])])
op1("abs_sliced", "aten.abs.default", [T("f32", [3, 4], [8, 2])])
op1("neg_cl", "aten.neg.default", [CL("f32", [2, 3, 4, 5])])
op1("relu_transposed_sliced", "aten.relu.default", [T("f32", [4, 3], [1, 8])])
op1("bitwise_not_i32", "aten.bitwise_not.default", [T("i32", [2, 2])])
op1("bitwise_not_bool", "aten.bitwise_not.default", [T("b8", [2, 2])])
op1("gelu_tanh", "aten.gelu.default", [T("f32", [2, 3])], {"approximate": "tanh"})
op1("hardtanh_args", "aten.hardtanh.default", [T("f32", [5]), -0.5, 0.5])
op1("leaky_relu_slope", "aten.leaky_relu.default", [T("f32", [5]), 0.2])
for u in ["abs_", "neg_", "relu_", "exp_", "sigmoid_", "tanh_", "sqrt_", "gelu_", "silu_",
          "sin_", "cos_", "log_", "rsqrt_", "reciprocal_", "logical_not_"]:
    op1(u + "inplace_perm", "aten.%s.default" % u, [P("f32", [2, 3], [1, 0])])
for u in ["floor_", "ceil_", "round_", "trunc_", "sign_", "hardtanh_", "leaky_relu_", "erf_",
          "log1p_", "expm1_", "log2_"]:
    op1(u + "inplace", "aten.%s.default" % u, [P("f32", [2, 3], [1, 0])])
op1("bitwise_not_inplace", "aten.bitwise_not_.default", [T("i32", [2, 3])])
op1("erf_inplace_int_err", "aten.erf_.default", [T("i64", [3])], error=True)
for u in ("tan", "atan", "asin", "acos", "sinh", "cosh", "asinh", "acosh", "atanh", "log10",
          "erfc"):
    op1(u + "_int", "aten.%s.default" % u, [T("i32", [2, 3])])
    op1(u + "_inplace_perm", "aten.%s_.default" % u, [P("f64", [2, 3], [1, 0])])
op1("acosh_inplace_int_err", "aten.acosh_.default", [T("i64", [3])], error=True)
op1("log_sigmoid_forward", "aten.log_sigmoid_forward.default", [P("f32", [2, 3], [1, 0])])
op1("log_sigmoid_forward_int_err", "aten.log_sigmoid_forward.default", [T("i64", [3])],
    error=True)
op1("fmax_bool", "aten.fmax.default", [T("b8", [2, 3]), T("b8", [3])])
op1("fmin_promote", "aten.fmin.default", [T("i32", [2, 3]), T("f64", [3])])
op1("logaddexp", "aten.logaddexp.default", [P("f32", [2, 3], [1, 0]), T("f32", [2])])
op1("logaddexp_int_err", "aten.logaddexp.default", [T("i64", [3]), T("i64", [3])], error=True)
op1("copysign_int", "aten.copysign.Tensor", [P("i32", [2, 3], [1, 0]), T("u8", [2])])
op1("copysign_scalar_half", "aten.copysign.Scalar", [T("f16", [2, 3]), -1])
op1("copysign_inplace_int_err", "aten.copysign_.Tensor", [T("i64", [3]), T("f32", [3])],
    error=True)
op1("hypot_bf16", "aten.hypot.default", [T("bf16", [2, 3]), T("f32", [])])
op1("hypot_half_err", "aten.hypot.default", [T("f16", [3]), T("f16", [3])], error=True)
op1("hypot_int_err", "aten.hypot_.default", [T("i64", [3]), T("i64", [3])], error=True)
op1("xlogy_int", "aten.xlogy.Tensor", [T("i64", [3]), T("i32", [3])])
op1("xlogy_scalar", "aten.xlogy.Scalar_Other", [T("f64", [2, 3]), 2])
op1("xlogy_inplace_int_err", "aten.xlogy_.Tensor", [T("i64", [3]), T("f32", [3])], error=True)
op1("addcmul_layout", "aten.addcmul.default",
    [P("f32", [2, 3, 4], [2, 0, 1]), T("f32", [3]), T("i32", [2, 1])], {"value": 0.5})
op1("addcmul_int", "aten.addcmul.default", [T("u8", [2, 3]), T("i8", [3]), T("u8", [1])],
    {"value": -2})
op1("addcmul_bool_err", "aten.addcmul.default", [T("b8", [2]), T("b8", [2]), T("b8", [2])],
    error=True)
op1("addcmul_half_err", "aten.addcmul.default", [T("f16", [2]), T("f16", [2]), T("f16", [2])],
    error=True)
op1("addcmul_value_err", "aten.addcmul.default", [T("u8", [2]), T("u8", [2]), T("u8", [2])],
    {"value": 300}, error=True)
op1("addcmul_inplace_bcast_err", "aten.addcmul_.default",
    [T("f32", [2, 1]), T("f32", [3]), T("f32", [3])], error=True)
op1("addcdiv_bf16", "aten.addcdiv.default", [T("bf16", [2, 3]), T("f32", [3]), T("bf16", [2, 1])])
op1("addcdiv_int_err", "aten.addcdiv.default", [T("f32", [2]), T("i64", [2]), T("i32", [2])],
    error=True)
op1("addcdiv_inplace", "aten.addcdiv_.default", [P("f64", [2, 3], [1, 0]), T("f64", [2]),
                                                 T("f64", [3, 1])])
op1("lerp_scalar", "aten.lerp.Scalar", [P("f32", [3, 4], [1, 0]), T("f32", [3]), 0.3])
op1("lerp_tensor", "aten.lerp.Tensor", [T("bf16", [2, 1, 3]), T("bf16", [4, 1]),
                                        T("bf16", [3])])
op1("lerp_end_dtype_err", "aten.lerp.Scalar", [T("f32", [3]), T("f64", [3]), 0.5], error=True)
op1("lerp_weight_dtype_err", "aten.lerp.Tensor", [T("f32", [3]), T("f32", [3]), T("f64", [])],
    error=True)
op1("lerp_int_err", "aten.lerp.Scalar", [T("i64", [3]), T("i64", [3]), 2], error=True)
op1("lerp_inplace", "aten.lerp_.Tensor", [P("f32", [2, 3], [1, 0]), T("f32", [2]),
                                          T("f32", [3, 1])])
op1("unsafe_split", "aten.unsafe_split.Tensor", [P("f32", [4, 6], [1, 0]), 4, 1])
op1("unsafe_split_sizes", "aten.unsafe_split_with_sizes.default", [T("f32", [5, 2]), [2, 3]])
op1("unsafe_split_sizes_err", "aten.unsafe_split_with_sizes.default",
    [T("f32", [5, 2]), [2, 2]], error=True)
for u in ("logit", "sinc", "deg2rad", "erfinv", "lgamma", "digamma"):
    op1(u + "_int", "aten.%s.default" % u, [T("i32", [2, 3])])
    op1(u + "_inplace_perm", "aten.%s_.default" % u, [P("f64", [2, 3], [1, 0])])
    op1(u + "_inplace_int_err", "aten.%s_.default" % u, [T("i64", [3])], error=True)
# torch.special's functions and friends (torch 1.13's CPU kernels' dtypes)
for u in ("angle", "rad2deg", "special_entr", "special_erfcx", "special_ndtri",
          "special_log_ndtr", "i0", "special_i0e"):
    op1(u + "_int", "aten.%s.default" % u, [T("u8", [2, 3])])
    op1(u + "_perm", "aten.%s.default" % u, [P("f64", [2, 3, 4], [2, 0, 1])])
for u in ("special_entr", "special_erfcx", "special_ndtri", "special_log_ndtr", "i0",
          "special_i0e"):
    op1(u + "_half_err", "aten.%s.default" % u, [T("f16", [3])], error=True)
for u in ("special_erfcx", "special_ndtri", "special_log_ndtr"):
    op1(u + "_bf16_err", "aten.%s.default" % u, [T("bf16", [3])], error=True)
op1("angle_bf16", "aten.angle.default", [T("bf16", [2, 3])])
op1("i0_bf16", "aten.i0.default", [T("bf16", [2, 3])])
op1("rad2deg_inplace_int_err", "aten.rad2deg_.default", [T("i64", [3])], error=True)
op1("rad2deg_inplace_perm", "aten.rad2deg_.default", [P("f32", [2, 3], [1, 0])])
op1("i0_inplace_half_err", "aten.i0_.default", [T("f16", [3])], error=True)
op1("polygamma", "aten.polygamma.default", [2, P("f32", [2, 3], [1, 0])])
op1("polygamma_int", "aten.polygamma.default", [1, T("i16", [3])])
op1("polygamma_bf16", "aten.polygamma.default", [0, T("bf16", [3])])
op1("polygamma_half_err", "aten.polygamma.default", [1, T("f16", [3])], error=True)
op1("polygamma_negative_err", "aten.polygamma.default", [-1, T("f32", [3])], error=True)
op1("polygamma_negative_empty_err", "aten.polygamma.default", [-1, T("f32", [0])], error=True)
op1("polygamma_inplace", "aten.polygamma_.default", [P("f64", [2, 3], [1, 0]), 3])
op1("polygamma_inplace_int_err", "aten.polygamma_.default", [T("i64", [3]), 1], error=True)
op1("polygamma_inplace_negative_err", "aten.polygamma_.default", [T("f32", [3]), -2],
    error=True)
op1("logaddexp2", "aten.logaddexp2.default", [P("f32", [2, 3], [1, 0]), T("f64", [2])])
op1("logaddexp2_bf16", "aten.logaddexp2.default", [T("bf16", [2, 3]), T("bf16", [3])])
op1("logaddexp2_int_err", "aten.logaddexp2.default", [T("i64", [3]), T("i64", [3])],
    error=True)
op1("logaddexp2_half_err", "aten.logaddexp2.default", [T("f16", [3]), T("f16", [3])],
    error=True)
op1("xlogy_scalar_self", "aten.xlogy.Scalar_Self", [2, T("i64", [2, 3])])
op1("xlogy_scalar_self_f64", "aten.xlogy.Scalar_Self", [2.5, P("f64", [2, 3], [1, 0])])
op1("xlog1py", "aten.special_xlog1py.default", [T("i32", [2, 3]), T("u8", [3])])
op1("xlog1py_half", "aten.special_xlog1py.default", [T("f16", [2, 1]), T("f16", [3])])
op1("xlog1py_self_scalar", "aten.special_xlog1py.self_scalar", [3, T("bf16", [2])])
op1("xlog1py_other_scalar", "aten.special_xlog1py.other_scalar", [T("i64", [2]), 0.5])
op1("xlog1py_bcast_err", "aten.special_xlog1py.default", [T("f32", [2]), T("f32", [3])],
    error=True)
for u in ("gcd", "lcm"):
    op1(u, "aten.%s.default" % u, [P("i32", [2, 3], [1, 0]), T("i64", [2])])
    op1(u + "_u8_i8", "aten.%s.default" % u, [T("u8", [3]), T("i8", [3])])
    op1(u + "_bool_err", "aten.%s.default" % u, [T("b8", [3]), T("b8", [3])], error=True)
    op1(u + "_float_err", "aten.%s.default" % u, [T("i64", [3]), T("f32", [3])], error=True)
    op1(u + "_inplace", "aten.%s_.default" % u, [T("i64", [2, 3]), T("i8", [3])])
    op1(u + "_inplace_narrow", "aten.%s_.default" % u, [T("i8", [3]), T("i64", [3])])
for u in ("__lshift__", "__rshift__", "bitwise_left_shift", "bitwise_right_shift"):
    op1(u + "_perm", "aten.%s.Tensor" % u, [P("i32", [2, 3], [1, 0]), T("i8", [2])])
    op1(u + "_u8_i64", "aten.%s.Tensor" % u, [T("u8", [3]), T("i64", [])])
    op1(u + "_bool_err", "aten.%s.Tensor" % u, [T("b8", [3]), T("b8", [3])], error=True)
    op1(u + "_float_err", "aten.%s.Tensor" % u, [T("i64", [3]), T("f32", [3])], error=True)
    op1(u + "_bcast_err", "aten.%s.Tensor" % u, [T("i64", [2]), T("i64", [3])], error=True)
    scalar = "Scalar" if u.startswith("__") else "Tensor_Scalar"
    op1(u + "_scalar", "aten.%s.%s" % (u, scalar), [P("i16", [2, 3], [1, 0]), 65])
    op1(u + "_bool_scalar", "aten.%s.%s" % (u, scalar), [T("b8", [3]), 2])
    op1(u + "_float_scalar_err", "aten.%s.%s" % (u, scalar), [T("i8", [3]), 1.5], error=True)
    op1(u + "_float_self_err", "aten.%s.%s" % (u, scalar), [T("f32", [3]), 1], error=True)
    if not u.startswith("__"):
        op1(u + "_scalar_tensor", "aten.%s.Scalar_Tensor" % u, [-300, P("i8", [2, 3], [1, 0])])
        op1(u + "_scalar_tensor_float_err", "aten.%s.Scalar_Tensor" % u, [2.5, T("i8", [3])],
            error=True)
for u in ("bitwise_and", "bitwise_or", "bitwise_xor"):
    op1(u + "_scalar_tensor", "aten.%s.Scalar_Tensor" % u, [300, P("i8", [2, 3], [1, 0])])
    op1(u + "_scalar_tensor_bool", "aten.%s.Scalar_Tensor" % u, [True, T("b8", [3])])
    op1(u + "_scalar_tensor_float_err", "aten.%s.Scalar_Tensor" % u, [3, T("f16", [3])],
        error=True)
op1("remainder_scalar_tensor", "aten.remainder.Scalar_Tensor", [7, P("i16", [2, 3], [1, 0])])
op1("remainder_scalar_tensor_float", "aten.remainder.Scalar_Tensor", [7.5, T("i64", [3])])
op1("remainder_scalar_tensor_half", "aten.remainder.Scalar_Tensor", [-2, T("bf16", [2, 2])])
op1("round_decimals", "aten.round.decimals", [P("f32", [2, 3], [1, 0])], {"decimals": 2})
op1("round_decimals_neg", "aten.round.decimals", [T("bf16", [3])], {"decimals": -1})
op1("round_decimals_f64", "aten.round.decimals", [T("f64", [3])], {"decimals": 400})
op1("round_decimals_half_err", "aten.round.decimals", [T("f16", [3])], {"decimals": 1},
    error=True)
op1("round_decimals_int_err", "aten.round.decimals", [T("i64", [3])], {"decimals": -1},
    error=True)
op1("round_decimals_zero_int_err", "aten.round.decimals", [T("i32", [3])], {"decimals": 0},
    error=True)
op1("round_decimals_bool_err", "aten.round.decimals", [T("b8", [3])], {"decimals": 1},
    error=True)
for u in ("special_i1", "special_i1e"):
    op1(u, "aten.%s.default" % u, [P("f64", [2, 3], [1, 0])])
    op1(u + "_int", "aten.%s.default" % u, [T("i16", [3])])
    op1(u + "_half_err", "aten.%s.default" % u, [T("f16", [3])], error=True)
    op1(u + "_bf16_err", "aten.%s.default" % u, [T("bf16", [3])], error=True)
for u in ("isposinf", "isneginf"):
    op1(u, "aten.%s.default" % u, [P("f32", [2, 3], [1, 0])])
    op1(u + "_int", "aten.%s.default" % u, [P("i32", [2, 3], [1, 0])])
    op1(u + "_bool", "aten.%s.default" % u, [T("b8", [3])])
    op1(u + "_bf16", "aten.%s.default" % u, [T("bf16", [2, 0])])
# _add_relu's bounds are self's dtype's: an f64 0-dim self next to an f32
# tensor overflows float, a u8 / bool / half self asserts
op1("add_relu", "aten._add_relu.Tensor", [P("f32", [2, 3], [1, 0]), T("f32", [2])],
    {"alpha": 2})
op1("add_relu_int", "aten._add_relu.Tensor", [T("i8", [3]), T("i32", [])], {"alpha": 0.5})
op1("add_relu_mixed", "aten._add_relu.Tensor", [T("i32", [3]), T("f32", [3])])
op1("add_relu_wide", "aten._add_relu.Tensor", [T("i16", []), T("i32", [3])])
op1("add_relu_scalar", "aten._add_relu.Scalar", [T("i64", [2, 2]), 1.5, 2])
op1("add_relu_f64_self_err", "aten._add_relu.Tensor", [T("f64", []), T("f32", [3])], error=True)
op1("add_relu_narrow_self_err", "aten._add_relu.Tensor", [T("i32", []), T("i8", [3])],
    error=True)
op1("add_relu_u8_err", "aten._add_relu.Tensor", [T("u8", [3]), T("f32", [3])], error=True)
op1("add_relu_half_err", "aten._add_relu.Tensor", [T("f16", [3]), T("f16", [3])], error=True)
op1("add_relu_half_result_err", "aten._add_relu.Tensor", [T("i16", []), T("f16", [3])],
    error=True)
op1("add_relu_alpha_err", "aten._add_relu.Tensor", [T("i8", [3]), T("i8", [3])],
    {"alpha": 300}, error=True)
op1("add_relu_bcast_err", "aten._add_relu.Tensor", [T("f32", [2]), T("f32", [3])], error=True)
op1("nextafter", "aten.nextafter.default", [P("f64", [2, 3], [1, 0]), T("f64", [2])])
op1("nextafter_bf16", "aten.nextafter.default", [T("bf16", [3]), T("bf16", [3])])
op1("nextafter_mixed", "aten.nextafter.default", [T("f32", [3]), T("f64", [])])
op1("nextafter_int_err", "aten.nextafter.default", [T("i64", [3]), T("i64", [3])], error=True)
op1("nextafter_half_err", "aten.nextafter.default", [T("f16", [3]), T("f16", [3])],
    error=True)
op1("nextafter_inplace", "aten.nextafter_.default", [T("f32", [3]), T("f64", [3])])
op1("nextafter_inplace_bcast_err", "aten.nextafter_.default", [T("f32", [3]), T("f32", [2, 3])],
    error=True)
for u in ("igamma", "igammac"):
    op1(u, "aten.%s.default" % u, [P("f32", [2, 3], [1, 0]), T("f32", [3, 1])])
    op1(u + "_half", "aten.%s.default" % u, [T("f16", [3]), T("f16", [3])])
    op1(u + "_mixed", "aten.%s.default" % u, [T("bf16", [3]), T("f64", [3])])
    op1(u + "_int_err", "aten.%s.default" % u, [T("i64", [3]), T("i32", [3])], error=True)
    op1(u + "_int_float", "aten.%s.default" % u, [T("i64", [3]), T("f32", [3])])
    op1(u + "_inplace", "aten.%s_.default" % u, [T("f64", [2, 3]), T("f32", [3])])
op1("zeta", "aten.special_zeta.default", [P("f32", [2, 3], [1, 0]), T("f64", [2])])
op1("zeta_int", "aten.special_zeta.default", [T("i64", [3]), T("b8", [3])])
op1("zeta_self_scalar", "aten.special_zeta.self_scalar", [2, T("i32", [2, 3])])
op1("zeta_other_scalar", "aten.special_zeta.other_scalar", [T("f64", [2]), 1.5])
op1("zeta_half_err", "aten.special_zeta.default", [T("f16", [3]), T("f16", [3])], error=True)
op1("zeta_bf16_err", "aten.special_zeta.other_scalar", [T("bf16", [3]), 2.0], error=True)
# torch.special's Bessel functions: f32 / f64 kernels, integers in float, no half
for u in ("airy_ai", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "modified_bessel_i0",
          "modified_bessel_i1", "modified_bessel_k0", "modified_bessel_k1",
          "scaled_modified_bessel_k0", "scaled_modified_bessel_k1", "spherical_bessel_j0"):
    op1(u + "_int", "aten.special_%s.default" % u, [T("i64", [2, 3])])
    op1(u + "_perm", "aten.special_%s.default" % u, [P("f64", [2, 3, 4], [2, 0, 1])])
    op1(u + "_half_err", "aten.special_%s.default" % u, [T("f16", [3])], error=True)
    op1(u + "_bf16_err", "aten.special_%s.default" % u, [T("bf16", [3])], error=True)
# ... and orthogonal polynomials of (x, n): the promoted dtype, integers in float
for u in ("chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v",
          "chebyshev_polynomial_w", "shifted_chebyshev_polynomial_t",
          "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v",
          "shifted_chebyshev_polynomial_w", "hermite_polynomial_h", "hermite_polynomial_he",
          "laguerre_polynomial_l", "legendre_polynomial_p"):
    q = "aten.special_%s." % u
    op1(u + "_bcast", q + "default", [P("f32", [2, 3], [1, 0]), T("f64", [2])])
    op1(u + "_int", q + "default", [T("i64", [3]), T("u8", [2, 1])])
    op1(u + "_half_float", q + "default", [T("f16", [3]), T("f32", [3])])
    op1(u + "_half_err", q + "default", [T("f16", [3]), T("f16", [3])], error=True)
    op1(u + "_x_scalar", q + "x_scalar", [0.5, T("i32", [2, 3])])
    op1(u + "_n_scalar", q + "n_scalar", [T("f64", [2]), 3])
    op1(u + "_n_scalar_int", q + "n_scalar", [T("i64", [2]), 2.5])
    op1(u + "_bf16_err", q + "n_scalar", [T("bf16", [3]), 2], error=True)
for u in ("hardshrink", "softshrink", "celu"):
    op1(u + "_perm", "aten.%s.default" % u, [P("bf16", [2, 3, 4], [2, 0, 1])])
    op1(u + "_int_err", "aten.%s.default" % u, [T("i64", [3])], error=True)
op1("softshrink_negative_err", "aten.softshrink.default", [T("f32", [3]), -0.5], error=True)
op1("celu_zero_err", "aten.celu.default", [T("f32", [3]), 0], error=True)
op1("celu_inplace", "aten.celu_.default", [P("f32", [2, 3], [1, 0]), 2.0])
op1("logit_eps", "aten.logit.default", [T("bf16", [2, 3])], {"eps": 0.1})
op1("signbit_perm", "aten.signbit.default", [P("f32", [2, 3, 4], [1, 2, 0])])
op1("signbit_u8", "aten.signbit.default", [T("u8", [3])])
op1("heaviside", "aten.heaviside.default", [P("f32", [2, 3], [1, 0]), T("f32", [2])])
op1("heaviside_bool", "aten.heaviside.default", [T("b8", [2, 3]), T("b8", [3])])
op1("heaviside_dtype_err", "aten.heaviside.default", [T("f32", [3]), T("f64", [3])],
    error=True)
op1("heaviside_inplace_bcast_err", "aten.heaviside_.default", [T("i64", [3]), T("i64", [2, 3])],
    error=True)
op1("unfold", "aten.unfold.default", [P("f32", [2, 3, 7], [2, 0, 1]), 0, 3, 2])
op1("unfold_last", "aten.unfold.default", [T("i64", [2, 5]), -1, 2, 3])
op1("unfold_0d", "aten.unfold.default", [T("f32", []), 0, 1, 1])
op1("unfold_empty_window", "aten.unfold.default", [T("f32", [4]), 0, 0, 1])
op1("unfold_big_err", "aten.unfold.default", [T("f32", [4]), 0, 5, 1], error=True)
op1("unfold_step_err", "aten.unfold.default", [T("f32", [4]), 0, 2, 0], error=True)
op1("diagonal", "aten.diagonal.default", [T("f32", [2, 3, 4]), 1, 0, 2])
op1("diagonal_neg", "aten.diagonal.default", [P("f32", [3, 4, 5], [1, 2, 0]), -2, -1, 1])
op1("diagonal_past", "aten.diagonal.default", [T("f32", [2, 3]), 5])
op1("diagonal_same_err", "aten.diagonal.default", [T("f32", [2, 3]), 0, 1, -1], error=True)
op1("diag_embed", "aten.diag_embed.default", [P("f32", [2, 3], [1, 0]), 1, 0, 2])
op1("diag_embed_default", "aten.diag_embed.default", [T("i32", [4])])
op1("diag_embed_same_err", "aten.diag_embed.default", [T("f32", [2, 3]), 0, 1, -2],
    error=True)
op1("diag_vector", "aten.diag.default", [T("f64", [3]), -2])
op1("diag_matrix", "aten.diag.default", [P("f32", [3, 4], [1, 0]), 1])
op1("diag_3d_err", "aten.diag.default", [T("f32", [2, 2, 2])], error=True)
op1("trace", "aten.trace.default", [P("f32", [3, 4], [1, 0])])
op1("trace_int", "aten.trace.default", [T("i16", [3, 3])])
op1("trace_bool_err", "aten.trace.default", [T("b8", [3, 3])], error=True)
op1("trace_3d_err", "aten.trace.default", [T("f32", [3, 3, 3])], error=True)
case("eye", {}, [("out", "aten.eye.default", [3], {})])
case("eye_m", {}, [("out", "aten.eye.m", [2, 5], {"dtype": torch.int32})])
case("eye_neg_err", {}, [("out", "aten.eye.default", [-1], {})], error=True)
case("linspace", {}, [("out", "aten.linspace.default", [0, 1, 5], {})])
case("linspace_int", {}, [("out", "aten.linspace.default", [-3, 10.5, 7],
                           {"dtype": torch.int16})])
case("linspace_neg_err", {}, [("out", "aten.linspace.default", [0, 1, -1], {})], error=True)
case("logspace", {}, [("out", "aten.logspace.default", [0, 3, 4, 2.0],
                       {"dtype": torch.float64})])
op1("mse_none_bcast", "aten.mse_loss.default", [P("f32", [2, 3], [1, 0]), T("i64", [2]), 0])
op1("soft_margin_loss", "aten.soft_margin_loss.default", [T("f32", [3, 4]), T("f32", [3, 4]), 1])
op1("soft_margin_loss_none_perm", "aten.soft_margin_loss.default",
    [T("f32", [3, 4], [1, 3]), T("f64", [4]), 0])
op1("soft_margin_loss_bf16_sum", "aten.soft_margin_loss.default",
    [T("bf16", [2, 3]), T("i64", [2, 3]), 2])
op1("soft_margin_loss_bcast_err", "aten.soft_margin_loss.default",
    [T("f32", [4]), T("f32", [3, 4]), 0], error=True)
op1("soft_margin_loss_int_err", "aten.soft_margin_loss.default",
    [T("i64", [4]), T("f32", [4]), 0], error=True)
op1("bce_weight_dtype", "aten.binary_cross_entropy.default",
    [T("f32", [3], fill="unit"), T("f32", [3], fill="unit"), T("bf16", [3]), 0])
op1("bce_logits_bool_self_err", "aten.binary_cross_entropy_with_logits.default",
    [T("b8", [3]), T("f32", [3]), None, None, 0], error=True)
op1("bce_logits_int_self_err", "aten.binary_cross_entropy_with_logits.default",
    [T("i16", [3]), T("f32", [3]), None, None, 1], error=True)
op1("bce_logits_bool_pos_weight_err", "aten.binary_cross_entropy_with_logits.default",
    [T("f32", [3]), T("f32", [3]), None, T("b8", [3]), 1], error=True)
op1("mse_mean", "aten.mse_loss.default", [T("f32", [2, 3]), T("f64", [2, 3])])
op1("mse_int_err", "aten.mse_loss.default", [T("i64", [3]), T("i64", [3]), 2], error=True)
op1("mse_reduction_err", "aten.mse_loss.default", [T("f32", [3]), T("f32", [3]), 3], error=True)
op1("smooth_l1_sum", "aten.smooth_l1_loss.default", [T("bf16", [2, 3]), T("bf16", [3]), 2, 0.5])
op1("smooth_l1_beta_err", "aten.smooth_l1_loss.default", [T("f32", [3]), T("f32", [3]), 1,
                                                         -1.0], error=True)
op1("huber_self_dtype", "aten.huber_loss.default", [T("bf16", [2, 3]), T("f64", [2, 3]), 0])
op1("huber_red3_none", "aten.huber_loss.default", [P("f32", [2, 3], [1, 0]), T("f32", [2]), 3])
op1("huber_cast_err", "aten.huber_loss.default", [T("i64", [3]), T("f32", [3])], error=True)
op1("huber_delta_err", "aten.huber_loss.default", [T("f32", [3]), T("f32", [3]), 1, 0.0],
    error=True)
op1("bce_none_w", "aten.binary_cross_entropy.default",
    [T("f32", [2, 3], fill="unit"), T("f32", [2, 3], fill="unit"), T("f32", [3]), 0])
op1("bce_dtype_err", "aten.binary_cross_entropy.default",
    [T("f32", [3], fill="unit"), T("f64", [3], fill="unit")], error=True)
op1("bce_logits_pw", "aten.binary_cross_entropy_with_logits.default",
    [T("f32", [2, 3]), P("f64", [3, 2], [1, 0]), None, T("f32", [3]), 0])
op1("bce_logits_int_target_err", "aten.binary_cross_entropy_with_logits.default",
    [T("f32", [3]), T("i64", [3])], error=True)
op1("bce_logits_shape_err", "aten.binary_cross_entropy_with_logits.default",
    [T("f32", [2, 3]), T("f32", [3])], error=True)
op1("nll_mean", "aten.nll_loss_forward.default",
    [T("f32", [4, 3]), T("i64", [4], fill="zeros"), None, 1, -100])
op1("nll_none", "aten.nll_loss_forward.default",
    [P("f32", [3, 4], [1, 0]), T("i64", [4], fill="zeros"), T("f32", [3]), 0, -100])
op1("nll_1d_none", "aten.nll_loss_forward.default",
    [T("f64", [3]), T("i64", [], fill="zeros"), None, 0, -100])
op1("nll_target_dtype_err", "aten.nll_loss_forward.default",
    [T("f32", [4, 3]), T("i32", [4], fill="zeros"), None, 1, -100], error=True)
op1("nll_weight_err", "aten.nll_loss_forward.default",
    [T("f32", [4, 3]), T("i64", [4], fill="zeros"), T("f32", [2]), 1, -100], error=True)
op1("nll_3d_err", "aten.nll_loss_forward.default",
    [T("f32", [2, 3, 4]), T("i64", [2, 4], fill="zeros"), None, 1, -100], error=True)
MM = "aten.multi_margin_loss.default"
op1("mm_mean", MM, [T("f32", [4, 3]), T("i64", [4], fill="zeros")])
op1("mm_none", MM, [P("f32", [3, 4], [1, 0]), T("i64", [4], fill="zeros"), 2, 0.5, None, 0])
op1("mm_none_0d_target", MM, [T("f64", [1, 3]), T("i64", [], fill="zeros"), 1, 1, None, 0])
op1("mm_1d_none", MM, [T("f32", [3]), T("i64", [1], fill="zeros"), 1, 1, T("f32", [3]), 0])
op1("mm_0d_sum", MM, [T("f32", []), T("i64", [], fill="zeros"), 1, 1, None, 5])
op1("mm_p_float", MM, [T("f32", [2, 3]), T("i64", [2], fill="zeros"), 2.5, 1, None, 1])
op1("mm_empty_none", MM, [T("f32", [0, 3]), T("i64", [0]), 1, 1, None, 0])
op1("mm_p_err", MM, [T("f32", [2, 3]), T("i64", [2], fill="zeros"), 3], error=True)
op1("mm_3d_err", MM, [T("f32", [2, 3, 1]), T("i64", [2], fill="zeros")], error=True)
op1("mm_empty_class_err", MM, [T("f32", [2, 0]), T("i64", [2], fill="zeros")], error=True)
op1("mm_target_size_err", MM, [T("f32", [2, 3]), T("i64", [2, 1], fill="zeros")], error=True)
op1("mm_target_dtype_err", MM, [T("f32", [2, 3]), T("i32", [2], fill="zeros")], error=True)
op1("mm_weight_dtype_err", MM,
    [T("f32", [2, 3]), T("i64", [2], fill="zeros"), 1, 1, T("f64", [3])], error=True)
op1("mm_half_err", MM, [T("f16", [2, 3]), T("i64", [2], fill="zeros")], error=True)
op1("mm_margin_err", MM, [T("f32", [2, 3]), T("i64", [2], fill="zeros"), 1, 1e300], error=True)
ML = "aten.multilabel_margin_loss_forward.default"
op1("ml_none", ML, [P("f32", [3, 4], [1, 0]), T("i64", [4, 3], fill="zeros"), 0])
op1("ml_mean", ML, [T("f64", [2, 3]), T("i64", [2, 3], fill="zeros"), 1])
op1("ml_1d_none", ML, [T("f32", [3]), T("i64", [3], fill="zeros"), 0])
op1("ml_0d", ML, [T("f32", []), T("i64", [1], fill="zeros"), 7])
op1("ml_empty_none", ML, [T("f32", [0, 3]), T("i32", [0, 3]), 0])
op1("ml_target_shape_err", ML, [T("f32", [2, 3]), T("i64", [3, 2], fill="zeros"), 0],
    error=True)
op1("ml_3d_err", ML, [T("f32", [2, 3, 1]), T("i64", [2, 3, 1], fill="zeros"), 0], error=True)
op1("ml_target_dtype_err", ML, [T("f32", [2, 3]), T("f32", [2, 3], fill="zeros"), 0],
    error=True)
op1("ml_bf16_err", ML, [T("bf16", [2, 3]), T("i64", [2, 3], fill="zeros"), 0], error=True)
op1("nll2d_none", "aten.nll_loss2d_forward.default",
    [CL("f32", [2, 3, 4, 5]), T("i64", [2, 4, 5], fill="zeros"), None, 0, -100])
op1("nll2d_sum", "aten.nll_loss2d_forward.default",
    [T("bf16", [2, 3, 4, 5]), T("i64", [2, 4, 5], fill="zeros"), None, 2, 1])
op1("channel_shuffle", "aten.channel_shuffle.default", [P("f32", [2, 6, 3, 4], [0, 1, 3, 2]), 3])
op1("channel_shuffle_cl", "aten.channel_shuffle.default", [CL("f32", [2, 6, 3, 4]), 2])
op1("channel_shuffle_3d", "aten.channel_shuffle.default", [T("i64", [2, 4, 5]), 2])
op1("channel_shuffle_2d_err", "aten.channel_shuffle.default", [T("f32", [2, 4]), 2], error=True)
op1("channel_shuffle_groups_err", "aten.channel_shuffle.default", [T("f32", [2, 6, 3]), 4],
    error=True)
op1("histc", "aten.histc.default", [T("f32", [4, 5]), 7, -1.0, 2.0])
op1("histc_default", "aten.histc.default", [T("f64", [6])])
op1("histc_bf16", "aten.histc.default", [T("bf16", [3, 2]), 3, 0, 0])
op1("histc_bins_err", "aten.histc.default", [T("f32", [4]), 0], error=True)
op1("histc_range_err", "aten.histc.default", [T("f32", [4]), 3, 2.0, 1.0], error=True)
op1("histc_inf_err", "aten.histc.default", [T("f32", [4]), 3, 0.0, float("inf")], error=True)
op1("histc_i64_err", "aten.histc.default", [T("i64", [4]), 3, 0, 1], error=True)
op1("histc_f16_err", "aten.histc.default", [T("f16", [4]), 3, 0, 1], error=True)
op1("pdist", "aten._pdist_forward.default", [T("f32", [5, 3]), 2.0])
op1("pdist_p0_f64", "aten._pdist_forward.default", [T("f64", [4, 2]), 0.0])
op1("pdist_one_row_bf16", "aten._pdist_forward.default", [T("bf16", [1, 3])])
op1("pdist_1d_empty", "aten._pdist_forward.default", [T("f32", [1])])
op1("pdist_1d_err", "aten._pdist_forward.default", [T("f32", [3])], error=True)
op1("pdist_perm_err", "aten._pdist_forward.default", [T("f32", [3, 2], [1, 3])], error=True)
op1("pdist_i64_err", "aten._pdist_forward.default", [T("i64", [3, 2])], error=True)
op1("cdist", "aten._cdist_forward.default", [T("f32", [2, 1, 4, 3]), T("f32", [3, 5, 3]), 2.0,
                                             None])
op1("cdist_p1", "aten._cdist_forward.default", [P("f64", [3, 4], [1, 0]), T("f64", [5, 3]), 1.0,
                                                2])
op1("cdist_int_err", "aten._cdist_forward.default", [T("i64", [4, 3]), T("i64", [5, 3]), 2.0,
                                                     None], error=True)
op1("cdist_cols_err", "aten._cdist_forward.default", [T("f32", [4, 3]), T("f32", [5, 2]), 2.0,
                                                      None], error=True)
op1("cdist_p_err", "aten._cdist_forward.default", [T("f32", [4, 3]), T("f32", [5, 3]), -1.0,
                                                   None], error=True)
op1("cdist_mode_err", "aten._cdist_forward.default", [T("f32", [4, 3]), T("f32", [5, 3]), 2.0,
                                                      3], error=True)
op1("euclidean_dist", "aten._euclidean_dist.default", [T("f32", [30, 3]), T("f32", [5, 3])])
op1("cross", "aten.linalg_cross.default", [P("f32", [3, 4], [1, 0]), T("f32", [1, 3])])
op1("cross_dim", "aten.linalg_cross.default", [T("i64", [3, 2]), T("i64", [3, 2])], {"dim": 0})
op1("cross_rank_err", "aten.linalg_cross.default", [T("f32", [4, 3]), T("f32", [3])],
    error=True)
op1("cross_len_err", "aten.linalg_cross.default", [T("f32", [4, 2]), T("f32", [4, 2])],
    error=True)
op1("cross_dtype_err", "aten.linalg_cross.default", [T("f32", [4, 3]), T("f64", [4, 3])],
    error=True)
op1("index_add", "aten.index_add.default", [P("f32", [3, 4], [1, 0]), 0, T("i32", [2],
                                                                            fill="zeros"),
                                             T("f32", [2, 3])], {"alpha": 2})
op1("index_add_inplace", "aten.index_add_.default", [T("i64", [5, 2]), 0,
                                                     T("i64", [3], fill="zeros"),
                                                     T("i64", [3, 2])])
op1("index_add_dtype_err", "aten.index_add.default", [T("f32", [5, 2]), 0,
                                                      T("i64", [3], fill="zeros"),
                                                      T("f64", [3, 2])], error=True)
op1("index_add_index_dtype_err", "aten.index_add.default", [T("f32", [5, 2]), 0,
                                                            T("i16", [3], fill="zeros"),
                                                            T("f32", [3, 2])], error=True)
op1("scatter_reduce_mean", "aten.scatter_reduce.two",
    [P("f32", [3, 4], [1, 0]), 1, T("i64", [4, 2], fill="zeros"), T("f32", [4, 3]), "mean"],
    {"include_self": False})
op1("scatter_reduce_inplace", "aten.scatter_reduce_.two",
    [T("i64", [3, 4]), 0, T("i64", [2, 4], fill="zeros"), T("i64", [2, 4]), "amax"])
op1("scatter_reduce_bad_err", "aten.scatter_reduce.two",
    [T("f32", [3, 4]), 0, T("i64", [2, 4], fill="zeros"), T("f32", [2, 4]), "max"], error=True)
op1("scatter_reduce_bool_mean_err", "aten.scatter_reduce.two",
    [T("b8", [3, 4]), 0, T("i64", [2, 4], fill="zeros"), T("b8", [2, 4]), "mean"], error=True)
op1("scatter_reduce_add", "aten.scatter.reduce",
    [P("f32", [3, 4], [1, 0]), 1, T("i64", [4, 2], fill="zeros"), T("f32", [4, 3])],
    {"reduce": "add"})
op1("scatter_reduce_multiply", "aten.scatter.reduce",
    [T("b8", [3, 4]), 0, T("i64", [2, 4], fill="zeros"), T("b8", [2, 4])],
    {"reduce": "multiply"})
op1("scatter_reduce_bad_reduce_err", "aten.scatter.reduce",
    [T("f32", [3, 4]), 0, T("i64", [2, 4], fill="zeros"), T("f32", [2, 4])], {"reduce": "sum"},
    error=True)
op1("scatter_reduce_dtype_err", "aten.scatter.reduce",
    [T("f32", [3, 4]), 0, T("i64", [2, 4], fill="zeros"), T("f64", [2, 4])], {"reduce": "add"},
    error=True)
op1("scatter_value_reduce", "aten.scatter.value_reduce",
    [P("i16", [3, 4], [1, 0]), -1, T("i64", [4, 2], fill="zeros"), 2.5], {"reduce": "multiply"})
op1("scatter_value_reduce_bad_err", "aten.scatter.value_reduce",
    [T("f32", [3, 4]), 0, T("i64", [2, 4], fill="zeros"), 2], {"reduce": "mean"}, error=True)
op1("scatter_value_reduce_overflow_err", "aten.scatter.value_reduce",
    [T("i8", [3, 4]), 0, T("i64", [2, 4], fill="zeros"), 300], {"reduce": "add"}, error=True)
op1("scatter_value_reduce_index_err", "aten.scatter.value_reduce",
    [T("f32", [3, 4]), 0, T("i32", [2, 4], fill="zeros"), 2], {"reduce": "add"}, error=True)
op1("std_mean", "aten.std_mean.correction", [P("f32", [3, 4, 5], [2, 0, 1]), [0, 2]],
    {"correction": 0, "keepdim": True})
op1("std_mean_all", "aten.std_mean.correction", [T("f64", [3, 4]), None], {"correction": None})
op1("std_mean_int_err", "aten.std_mean.correction", [T("i64", [3, 4]), None], {"correction": 1},
    error=True)
op1("aminmax_dim", "aten.aminmax.default", [P("f32", [3, 4, 5], [2, 0, 1])],
    {"dim": -2, "keepdim": True})
op1("aminmax_all_keepdim", "aten.aminmax.default", [T("i16", [3, 4])], {"keepdim": True})
op1("aminmax_bf16_all", "aten.aminmax.default", [T("bf16", [3, 4])])
op1("aminmax_bf16_dim_err", "aten.aminmax.default", [T("bf16", [3, 4])], {"dim": 0}, error=True)
op1("aminmax_half_err", "aten.aminmax.default", [T("f16", [3])], error=True)
op1("aminmax_empty_err", "aten.aminmax.default", [T("f32", [0, 3])], error=True)
op1("aminmax_empty_dim_err", "aten.aminmax.default", [T("f32", [0, 3])], {"dim": 0}, error=True)
op1("aminmax_empty_other_dim", "aten.aminmax.default", [T("f32", [0, 3])], {"dim": 1})
op1("aminmax_0d_keepdim", "aten.aminmax.default", [T("f32", [])], {"dim": 0, "keepdim": True})
op1("_aminmax", "aten._aminmax.default", [P("f32", [3, 4, 5], [2, 0, 1])])
op1("_aminmax_dim", "aten._aminmax.dim", [P("f32", [3, 4, 5], [2, 0, 1]), 1])
op1("_aminmax_dim_keepdim", "aten._aminmax.dim", [T("i32", [3, 4]), -1, True])
op1("_aminmax_0d_keepdim", "aten._aminmax.dim", [T("f64", []), 0, True])
op1("_aminmax_0d", "aten._aminmax.dim", [T("f64", []), -1])
op1("_aminmax_bool", "aten._aminmax.default", [T("b8", [3])])
op1("_aminmax_bf16", "aten._aminmax.default", [T("bf16", [3, 2])])
op1("_aminmax_bf16_dim_err", "aten._aminmax.dim", [T("bf16", [3, 4]), 0], error=True)
op1("_aminmax_half_err", "aten._aminmax.default", [T("f16", [3])], error=True)
op1("_aminmax_empty_err", "aten._aminmax.default", [T("f32", [0, 3])], error=True)
op1("_aminmax_empty_dim_err", "aten._aminmax.dim", [T("f32", [2, 0]), 1], error=True)
op1("_aminmax_dim_range_err", "aten._aminmax.dim", [T("f32", [2, 3]), 2], error=True)
# norm's dtype= overloads are norm(self.to(dtype)): integer selves too
op1("norm_scalar", "aten.norm.Scalar", [P("f32", [3, 4], [1, 0]), 3])
op1("norm_scalar_default", "aten.norm.Scalar", [T("bf16", [3, 4])])
op1("norm_scalar_int_err", "aten.norm.Scalar", [T("i64", [3])], error=True)
op1("norm_scalar_empty", "aten.norm.Scalar", [T("f32", [0]), float("-inf")])
op1("norm_dtype", "aten.norm.ScalarOpt_dtype", [T("f32", [3, 4]), 2], {"dtype": torch.float64})
op1("norm_dtype_none_p", "aten.norm.ScalarOpt_dtype", [T("i64", [3, 4]), None],
    {"dtype": torch.float32})
op1("norm_dtype_narrow", "aten.norm.ScalarOpt_dtype", [T("f64", [3]), 1], {"dtype": torch.float16})
op1("norm_dtype_int_err", "aten.norm.ScalarOpt_dtype", [T("f32", [3]), 2], {"dtype": torch.int64},
    error=True)
op1("norm_dim_dtype", "aten.norm.ScalarOpt_dim_dtype",
    [P("f32", [3, 4, 5], [2, 0, 1]), 2, [1, 2], True], {"dtype": torch.float64})
op1("norm_dim_dtype_no_dims", "aten.norm.ScalarOpt_dim_dtype", [T("i32", [3, 4]), 1, [], False],
    {"dtype": torch.bfloat16})
op1("norm_dim_dtype_err", "aten.norm.ScalarOpt_dim_dtype", [T("f32", [3, 4]), 1, [0], False],
    {"dtype": torch.bool}, error=True)
op1("norm_dim_dtype_range_err", "aten.norm.ScalarOpt_dim_dtype", [T("f32", [3, 4]), 1, [2], False],
    {"dtype": torch.float32}, error=True)
# dist is norm(self - other, p): sub's checks, then norm's dtype
op1("dist", "aten.dist.default", [P("f32", [3, 4], [1, 0]), T("f32", [4, 1])])
op1("dist_p", "aten.dist.default", [T("f16", [3]), T("f16", [3]), float("inf")])
op1("dist_promote", "aten.dist.default", [T("i64", [3]), T("f64", []), 0.5])
op1("dist_bf16_f32", "aten.dist.default", [T("bf16", [3]), T("f32", [3]), 0])
op1("dist_int_err", "aten.dist.default", [T("i64", [3]), T("i32", [3])], error=True)
op1("dist_bool_err", "aten.dist.default", [T("b8", [3]), T("b8", [3])], error=True)
op1("dist_bcast_err", "aten.dist.default", [T("f32", [3]), T("f32", [2])], error=True)
op1("count_nonzero_all", "aten.count_nonzero.default", [P("f16", [3, 4], [1, 0])])
op1("count_nonzero_dim", "aten.count_nonzero.default", [T("b8", [3, 4]), -1])
op1("count_nonzero_list", "aten.count_nonzero.dim_IntList", [T("i32", [2, 3, 4]), [0, 2]])
op1("count_nonzero_list_empty", "aten.count_nonzero.dim_IntList", [T("f32", [2, 3]), []])
op1("count_nonzero_repeat_err", "aten.count_nonzero.dim_IntList", [T("f32", [2, 3]), [0, -2]],
    error=True)
op1("nansum_int", "aten.nansum.default", [T("i32", [2, 3]), [1], True])
op1("nansum_dtype", "aten.nansum.default", [T("f16", [2, 3])], {"dtype": torch.float64})
op1("nansum_all", "aten.nansum.default", [P("bf16", [2, 3], [1, 0])])
op1("cummax", "aten.cummax.default", [P("f32", [3, 4], [1, 0]), -1])
op1("cummin_bool", "aten.cummin.default", [T("b8", [2, 3]), 0])
op1("cummax_0d_any_dim", "aten.cummax.default", [T("f16", []), 3])
op1("cummax_half_err", "aten.cummax.default", [T("f16", [3]), 0], error=True)
op1("cummin_dim_err", "aten.cummin.default", [T("f32", [3]), 1], error=True)
op1("cummin_empty_any_dim", "aten.cummin.default", [T("f32", [0, 2]), -1099511627776])
op1("logcumsumexp", "aten.logcumsumexp.default", [P("bf16", [2, 3, 4], [2, 0, 1]), 1])
op1("logcumsumexp_int_err", "aten.logcumsumexp.default", [T("i64", [3]), 0], error=True)
op1("logcumsumexp_0d_dim_err", "aten.logcumsumexp.default", [T("f32", []), 1], error=True)
op1("addmv", "aten.addmv.default", [T("f64", [3]), P("f32", [4, 3], [1, 0]), T("f32", [4])],
    {"beta": 0.5, "alpha": 2})
op1("addmv_0d_self", "aten.addmv.default", [T("i64", []), T("i32", [2, 3]), T("i32", [3])])
op1("addmv_2d_self_err", "aten.addmv.default", [T("f32", [1, 2]), T("f32", [2, 3]), T("f32", [3])],
    error=True)
op1("addmv_half_err", "aten.addmv.default", [T("f16", [2]), T("f16", [2, 3]), T("f16", [3])],
    error=True)
op1("addmv_vec_dtype_err", "aten.addmv.default", [T("f32", [2]), T("f32", [2, 3]),
                                                   T("f64", [3])], error=True)
op1("addbmm", "aten.addbmm.default", [T("f32", [4]), T("f32", [2, 3, 5]), T("f32", [2, 5, 4])])
op1("addbmm_empty_batch", "aten.addbmm.default", [T("i64", [3, 4]), T("i64", [0, 3, 5]),
                                                  T("i64", [0, 5, 4])], {"beta": 2})
op1("addbmm_self_dtype_err", "aten.addbmm.default", [T("f64", [3, 4]), T("f32", [2, 3, 5]),
                                                     T("f32", [2, 5, 4])], error=True)
op1("addbmm_half_err", "aten.addbmm.default", [T("f16", [3, 4]), T("f16", [2, 3, 5]),
                                               T("f16", [2, 5, 4])], error=True)
op1("addr_promote", "aten.addr.default", [T("f64", []), T("f32", [3]), T("f32", [4])])
op1("addr_u8_i8", "aten.addr.default", [T("u8", [3, 1]), T("i8", [3]), T("u8", [4])])
op1("addr_bool", "aten.addr.default", [T("b8", [3, 4]), T("b8", [3]), T("b8", [4])],
    {"beta": False})
op1("addr_int_float_alpha_err", "aten.addr.default", [T("i64", [3, 4]), T("i64", [3]),
                                                      T("i64", [4])], {"alpha": 0.5}, error=True)
op1("addr_2d_vec_err", "aten.addr.default", [T("f32", [3, 4]), T("f32", [3, 1]), T("f32", [4])],
    error=True)
op1("addr_half_overflow_err", "aten.addr.default", [T("f16", [3, 4]), T("f16", [3]),
                                                    T("f16", [4])], {"beta": 1e30}, error=True)
op1("index_fill_layout", "aten.index_fill.int_Scalar",
    [P("f32", [4, 3], [1, 0]), 0, T("i64", [2], fill="zeros"), 1.5])
op1("index_fill_tensor", "aten.index_fill.int_Tensor",
    [T("i32", [3, 4]), -1, T("i64", [], fill="zeros"), T("f64", [])])
op1("index_fill_inplace", "aten.index_fill_.int_Scalar",
    [P("f16", [2, 3, 4], [2, 0, 1]), 1, T("i64", [1], fill="zeros"), -2])
op1("index_fill_index_dtype_err", "aten.index_fill.int_Scalar",
    [T("f32", [3]), 0, T("i32", [1], fill="zeros"), 1], error=True)
op1("index_fill_value_dim_err", "aten.index_fill.int_Tensor",
    [T("f32", [3]), 0, T("i64", [1], fill="zeros"), T("f32", [1])], error=True)
op1("index_fill_overflow_err", "aten.index_fill.int_Scalar",
    [T("u8", [3]), 0, T("i64", [1], fill="zeros"), 300], error=True)
op1("take", "aten.take.default", [P("f32", [3, 4], [1, 0]), T("i64", [2, 2], fill="zeros")])
op1("take_index_dtype_err", "aten.take.default", [T("f32", [3]), T("i32", [2], fill="zeros")],
    error=True)
op1("take_empty_err", "aten.take.default", [T("f32", [0]), T("i64", [1], fill="zeros")],
    error=True)
op1("rot90_k1", "aten.rot90.default", [T("f32", [2, 3, 4]), 1, [2, 0]])
op1("rot90_k2_layout", "aten.rot90.default", [P("f32", [3, 4], [1, 0]), 2])
op1("rot90_k3", "aten.rot90.default", [P("i64", [2, 3, 4], [2, 0, 1]), -1, [1, 2]])
op1("rot90_k0", "aten.rot90.default", [P("f32", [3, 4], [1, 0]), 4])
op1("rot90_same_dims_err", "aten.rot90.default", [T("f32", [3, 4]), 1, [0, -2]], error=True)
op1("rot90_1d_err", "aten.rot90.default", [T("f32", [3]), 1, [0, 1]], error=True)
op1("rot90_three_dims_err", "aten.rot90.default", [T("f32", [3, 4, 2]), 1, [0, 1, 2]],
    error=True)
op1("bucketize", "aten.bucketize.Tensor", [P("f32", [3, 4], [1, 0]), T("f64", [5])],
    {"right": True})
op1("bucketize_int32", "aten.bucketize.Tensor", [T("i64", [3]), T("f32", [5])],
    {"out_int32": True})
op1("bucketize_scalar", "aten.bucketize.Scalar", [2.5, T("i32", [4])])
op1("bucketize_2d_err", "aten.bucketize.Tensor", [T("f32", [3]), T("f32", [2, 2])], error=True)
op1("searchsorted_nd", "aten.searchsorted.Tensor", [T("f32", [2, 5]), T("f32", [2, 3])],
    {"side": "right"})
op1("searchsorted_scalar", "aten.searchsorted.Scalar", [T("f16", [5]), 1])
op1("searchsorted_sorter", "aten.searchsorted.Tensor", [T("f32", [4]), T("f32", [2, 3])],
    {"sorter": T("i64", [4], fill="zeros")})
op1("searchsorted_lead_err", "aten.searchsorted.Tensor", [T("f32", [3, 5]), T("f32", [2, 3])],
    error=True)
op1("searchsorted_side_err", "aten.searchsorted.Tensor", [T("f32", [5]), T("f32", [3])],
    {"side": "left", "right": True}, error=True)
op1("searchsorted_sorter_dtype_err", "aten.searchsorted.Tensor", [T("f32", [4]), T("f32", [3])],
    {"sorter": T("i32", [4], fill="zeros")}, error=True)
op1("searchsorted_bool_err", "aten.searchsorted.Tensor", [T("b8", [4]), T("b8", [3])],
    error=True)
op1("searchsorted_0d_err", "aten.searchsorted.Tensor", [T("f32", []), T("f32", [3])],
    error=True)
op1("cdist_empty_mixed_dtype", "aten._cdist_forward.default",
    [T("f32", [0, 3]), T("f64", [2, 3]), 2.0, None])
op1("cdist_no_columns_mixed_dtype", "aten._cdist_forward.default",
    [T("f32", [2, 0]), T("f64", [3, 0]), 1.0, None])
op1("cdist_mixed_dtype_err", "aten._cdist_forward.default",
    [T("f32", [2, 3]), T("f64", [2, 3]), 1.0, None], error=True)
op1("median_all", "aten.median.default", [P("f32", [3, 4], [1, 0])])
op1("median_empty_int", "aten.median.default", [T("i64", [0])])
op1("median_dim", "aten.median.dim", [P("f32", [3, 4, 2], [2, 0, 1]), 1, True])
op1("median_dim_empty_err", "aten.median.dim", [T("f32", [2, 0]), 1], error=True)
op1("median_half_err", "aten.median.dim", [T("f16", [3]), 0], error=True)
op1("nanmedian_int", "aten.nanmedian.dim", [T("i8", [3, 4]), -1])
op1("nanmedian_bool_err", "aten.nanmedian.default", [T("b8", [3])], error=True)
op1("kthvalue", "aten.kthvalue.default", [P("bf16", [3, 4], [1, 0]), 2, 0, True])
op1("kthvalue_0d", "aten.kthvalue.default", [T("f32", []), 1])
op1("kthvalue_k_err", "aten.kthvalue.default", [T("f32", [3, 4]), 5], error=True)
op1("kthvalue_bool_err", "aten.kthvalue.default", [T("b8", [3]), 1], error=True)
op1("tril_indices", "aten.tril_indices.default", [3, 4, 1])
op1("triu_indices_int32", "aten.triu_indices.default", [4, 3, -1], {"dtype": torch.int32})
op1("tril_indices_empty", "aten.tril_indices.default", [0, 3])
op1("tril_indices_float_err", "aten.tril_indices.default", [2, 2], {"dtype": torch.float32},
    error=True)
op1("triu_indices_negative_err", "aten.triu_indices.default", [-1, 3], error=True)
op1("masked_scatter", "aten.masked_scatter.default",
    [P("f32", [3, 4], [1, 0]), T("b8", [4, 1, 3]), T("f32", [50])])
op1("masked_scatter_u8", "aten.masked_scatter.default",
    [T("i64", [3]), T("u8", [3], fill="zeros"), T("i64", [2, 2])])
op1("masked_scatter_dtype_err", "aten.masked_scatter.default",
    [T("f32", [3]), T("b8", [3]), T("f64", [3])], error=True)
op1("masked_scatter_broadcast_err", "aten.masked_scatter.default",
    [T("f32", [3]), T("b8", [2]), T("f32", [3])], error=True)
op1("frac_half", "aten.frac.default", [P("f16", [2, 3], [1, 0])])
op1("frac_int_err", "aten.frac.default", [T("i32", [3])], error=True)
op1("sgn_int", "aten.sgn.default", [T("i16", [3])])
op1("threshold", "aten.threshold.default", [T("f32", [2, 3]), 0.5, -1])
op1("threshold_int", "aten.threshold_.default", [T("u8", [4]), 3, 200])
op1("threshold_overflow_err", "aten.threshold.default", [T("i8", [4]), 0, 300], error=True)
op1("threshold_bool_err", "aten.threshold.default", [T("b8", [4]), 0, 1], error=True)
op1("threshold_float_err", "aten.threshold.default", [T("i64", [4]), 0, 1e30], error=True)
op1("logical_not_inplace_i64", "aten.logical_not_.default", [T("i64", [3])])
op1("neg_bool_err", "aten.neg.default", [T("b8", [3])], error=True)
op1("abs_bool_err", "aten.abs.default", [T("b8", [3])], error=True)
op1("gelu_int_err", "aten.gelu.default", [T("i64", [3])], error=True)
op1("exp_inplace_int_err", "aten.exp_.default", [T("i64", [3])], error=True)
op1("bitwise_not_float_err", "aten.bitwise_not.default", [T("f32", [3])], error=True)

# ---------------------------------------------------------------- binary
BIN_PAIRS = [
    ("same", T("f32", [2, 3]), T("f32", [2, 3])),
    ("bcast_row", T("f32", [2, 3]), T("f32", [3])),
    ("bcast_both", T("f32", [2, 1, 4]), T("f32", [3, 1])),
    ("f32_f64", T("f32", [2, 3]), T("f64", [2, 3])),
    ("i64_f32_0d", T("i64", [2, 3]), T("f32", [])),
    ("i32_i64_0d", T("i32", [2, 3]), T("i64", [])),
    ("f16_f32_0d", T("f16", [4]), T("f32", [])),
    ("u8_i8", T("u8", [4]), T("i8", [4])),
    ("bf16_f16", T("bf16", [4]), T("f16", [4])),
    ("0d_0d", T("i32", []), T("f64", [])),
    ("perm_perm", P("f32", [2, 3, 4], [2, 0, 1]), P("f32", [2, 3, 4], [2, 0, 1])),
    ("perm_contig", P("f32", [2, 3, 4], [2, 0, 1]), T("f32", [4, 2, 3])),
    ("contig_perm", T("f32", [4, 2, 3]), P("f32", [2, 3, 4], [2, 0, 1])),
    ("perm_bcast", P("f32", [2, 3, 4], [2, 0, 1]), T("f32", [3])),
    ("transposed_col", T("f32", [3, 4], [1, 3]), T("f32", [3, 1])),
    ("expanded_sliced", T("f32", [3, 4], [0, 1]), T("f32", [3, 4], [8, 2])),
    ("cl_cl", CL("f32", [2, 3, 4, 5]), CL("f32", [2, 3, 4, 5])),
    ("cl_bcast", CL("f32", [2, 3, 4, 5]), T("f32", [3, 1, 1])),
    ("size1_dims", T("f32", [3, 1, 4], [4, 99, 1]), T("f32", [1, 1, 4])),
    ("empty_bcast", T("f32", [0, 3]), T("f32", [3])),
]
for nm, a, b in BIN_PAIRS:
    op1("add_" + nm, "aten.add.Tensor", [a, b])
for nm, a, b in BIN_PAIRS[:10]:
    op1("mul_" + nm, "aten.mul.Tensor", [a, b])
    op1("div_" + nm, "aten.div.Tensor", [a, b])
    op1("maximum_" + nm, "aten.maximum.default", [a, b])
    op1("lt_" + nm, "aten.lt.Tensor", [a, b])
for lit in [2, 2.5, True]:
    for dt in ["f32", "i64", "i32", "b8", "f16", "u8"]:
        if dt == "b8" and lit is True:
            continue
        tag = {2: "int", 2.5: "float", True: "bool"}[lit]
        op1("mul_lit_%s_%s" % (tag, dt), "aten.mul.Tensor", [T(dt, [2, 2]), lit])
        op1("add_scalar_%s_%s" % (tag, dt), "aten.add.Scalar", [T(dt, [2, 2]), lit])
op1("mul_bool_bool_lit", "aten.mul.Tensor", [T("b8", [3]), True])
op1("mul_perm_lit", "aten.mul.Tensor", [P("f32", [2, 3, 4], [1, 2, 0]), 0.5])
op1("add_alpha", "aten.add.Tensor", [T("f32", [2, 3]), T("f32", [3])], {"alpha": 2})
op1("add_alpha_float_int_err", "aten.add.Tensor", [T("i64", [3]), T("i64", [3])],
    {"alpha": 1.5}, error=True)
op1("sub_tensor", "aten.sub.Tensor", [T("i32", [2, 3]), T("i64", [2, 1])])
op1("sub_scalar", "aten.sub.Scalar", [T("i32", [2, 3]), 1.5])
op1("sub_bool_err", "aten.sub.Tensor", [T("b8", [2]), T("b8", [2])], error=True)
op1("sub_bool_int_err", "aten.sub.Tensor", [T("b8", [2]), T("i64", [2])], error=True)
op1("sub_scalar_bool_err", "aten.sub.Scalar", [T("b8", [2]), 1], error=True)
op1("rsub_scalar", "aten.rsub.Scalar", [T("i64", [2]), 1.0])
op1("rsub_tensor", "aten.rsub.Tensor", [T("f32", [2, 1]), T("f32", [3])], {"alpha": 2})
op1("div_int_trunc", "aten.div.Tensor_mode", [T("i64", [2, 3]), T("i64", [3])],
    {"rounding_mode": "trunc"})
op1("div_int_floor", "aten.div.Tensor_mode", [T("i32", [2, 3]), T("i64", [])],
    {"rounding_mode": "floor"})
op1("div_int_none", "aten.div.Tensor_mode", [T("i64", [2]), T("i64", [2])],
    {"rounding_mode": None})
op1("div_scalar_int", "aten.div.Scalar", [T("i64", [2]), 2])
op1("div_scalar_mode", "aten.div.Scalar_mode", [T("i64", [2]), 2], {"rounding_mode": "floor"})
op1("div_bad_mode_err", "aten.div.Tensor_mode", [T("f32", [2]), T("f32", [2])],
    {"rounding_mode": "round"}, error=True)
op1("div_bool", "aten.div.Tensor", [T("b8", [2]), T("b8", [2])])
op1("pow_tt", "aten.pow.Tensor_Tensor", [T("i32", [2, 3]), T("f32", [3])])
op1("pow_ts", "aten.pow.Tensor_Scalar", [T("i64", [2, 3]), 2])
op1("pow_ts_float", "aten.pow.Tensor_Scalar", [T("i64", [2, 3]), 0.5])
op1("pow_ts_perm", "aten.pow.Tensor_Scalar", [P("f32", [2, 3], [1, 0]), 2.0])
op1("pow_scalar", "aten.pow.Scalar", [2, T("i32", [3])])
op1("pow_scalar_float", "aten.pow.Scalar", [2.5, T("i32", [3])])
op1("pow_scalar_perm", "aten.pow.Scalar", [2.0, P("f32", [2, 3], [1, 0])])
op1("pow_scalar_bool", "aten.pow.Scalar", [True, T("b8", [3])])
op1("minimum_bool_int", "aten.minimum.default", [T("b8", [3]), T("i64", [3])])
op1("maximum_bcast_err", "aten.maximum.default", [T("f32", [2, 3]), T("f32", [4])], error=True)
op1("add_bcast_err", "aten.add.Tensor", [T("f32", [2, 3]), T("f32", [2])], error=True)
op1("add_bcast_err2", "aten.add.Tensor", [T("f32", [5, 2, 3]), T("f32", [4, 1, 1])], error=True)
for ip in ["add_", "sub_", "mul_", "div_"]:
    op1(ip + "inplace_tensor_perm", "aten.%s.Tensor" % ip, [P("f32", [2, 3], [1, 0]), T("f32", [2])])
    op1(ip + "inplace_scalar", "aten.%s.Scalar" % ip, [T("f64", [2, 3]), 2])
op1("div_inplace_mode", "aten.div_.Tensor_mode", [T("i64", [2]), T("i64", [2])],
    {"rounding_mode": "trunc"})
op1("add_inplace_int_lit", "aten.add_.Tensor", [T("i32", [2]), 3])
op1("pow_inplace", "aten.pow_.Scalar", [T("f32", [2]), 2])
op1("pow_inplace_tensor", "aten.pow_.Tensor", [T("f32", [2, 3]), T("f32", [3])])
op1("add_inplace_shape_err", "aten.add_.Tensor", [T("f32", [3]), T("f32", [2, 3])], error=True)
op1("add_inplace_cast_err", "aten.add_.Scalar", [T("i64", [3]), 1.5], error=True)
op1("div_inplace_int_err", "aten.div_.Tensor", [T("i64", [3]), T("i64", [3])], error=True)
op1("mul_inplace_bool_err", "aten.mul_.Tensor", [T("b8", [3]), T("f32", [3])], error=True)

# ---------------------------------------------------------------- compare, where, clamp
for c in ["eq", "ne", "lt", "le", "gt", "ge"]:
    op1(c + "_tensor_bcast", "aten.%s.Tensor" % c, [T("f32", [2, 3]), T("i64", [3])])
    op1(c + "_scalar", "aten.%s.Scalar" % c, [P("i32", [2, 3], [1, 0]), 1.5])
for c in ["logical_and", "logical_or", "logical_xor"]:
    op1(c, "aten.%s.default" % c, [T("f32", [2, 3]), T("i64", [2, 1])])
for c in ["eq_", "lt_", "ge_"]:
    op1(c + "inplace_tensor", "aten.%s.Tensor" % c, [P("f32", [2, 3], [1, 0]), T("i64", [2])])
    op1(c + "inplace_scalar", "aten.%s.Scalar" % c, [T("i32", [2, 3]), 1.5])
op1("logical_and_inplace", "aten.logical_and_.default", [T("f32", [2, 3]), T("i64", [2, 1])])
op1("gt_inplace_shape_err", "aten.gt_.Tensor", [T("f32", [3]), T("f32", [2, 3])], error=True)
op1("gt_bcast_err", "aten.gt.Tensor", [T("f32", [2, 3]), T("f32", [2])], error=True)
op1("where_self", "aten.where.self", [T("b8", [2, 3]), T("f32", [2, 3]), T("f32", [3])])
op1("where_bcast3", "aten.where.self", [T("b8", [2, 1, 1]), T("f32", [3, 1]), T("f32", [4])])
op1("where_mixed", "aten.where.self", [T("b8", [2, 3]), T("i64", [2, 3]), T("f32", [])])
op1("where_u8", "aten.where.self", [T("u8", [3]), T("f32", [3]), T("f32", [3])])
op1("where_perm", "aten.where.self", [P("b8", [2, 3], [1, 0]), P("f32", [2, 3], [1, 0]),
                                      P("f32", [2, 3], [1, 0])])
op1("where_perm_mixed", "aten.where.self", [P("b8", [2, 3, 4], [2, 0, 1]),
                                            P("f16", [2, 3, 4], [2, 0, 1]),
                                            T("f32", [4, 2, 3])])
op1("where_scalar_other", "aten.where.ScalarOther", [T("b8", [2, 3]), T("i64", [2, 3]), 1.5])
op1("where_scalar_self", "aten.where.ScalarSelf", [T("b8", [2, 3]), 2, T("i32", [3])])
op1("where_scalar", "aten.where.Scalar", [T("b8", [2, 3]), 2, 3])
op1("where_scalar_float", "aten.where.Scalar", [T("b8", [2, 3]), 2.0, True])
op1("where_cond_float_err", "aten.where.self", [T("f32", [3]), T("f32", [3]), T("f32", [3])],
    error=True)
op1("where_bcast_err", "aten.where.self", [T("b8", [2]), T("f32", [3]), T("f32", [3])],
    error=True)
op1("clamp_both", "aten.clamp.default", [T("f32", [2, 3]), -1.0, 1.0])
op1("clamp_min_only", "aten.clamp.default", [T("i64", [2, 3]), 0])
op1("clamp_int_float", "aten.clamp.default", [T("i64", [2, 3]), 0.5])
op1("clamp_bool", "aten.clamp.default", [T("b8", [3]), 0, 1])
op1("clamp_perm", "aten.clamp.default", [P("f32", [2, 3, 4], [2, 1, 0]), None, 0.5])
op1("clamp_perm_int_float", "aten.clamp.default", [P("i64", [2, 3, 4], [2, 1, 0]), None, 0.5])
op1("clamp_max_kw", "aten.clamp.default", [T("f32", [3])], {"max": 2})
op1("clamp_none_err", "aten.clamp.default", [T("f32", [3])], error=True)
op1("clamp_tensor", "aten.clamp.Tensor", [T("i64", [2, 3]), T("f32", [3]), T("f32", [2, 1])])
op1("clamp_tensor_min", "aten.clamp.Tensor", [P("f32", [2, 3], [1, 0]), T("f32", [2])])
op1("clamp_min", "aten.clamp_min.default", [T("i64", [2, 3]), 0.5])
op1("clamp_max", "aten.clamp_max.default", [T("f32", [2, 3]), 0])
op1("clamp_min_tensor", "aten.clamp_min.Tensor", [T("f32", [3]), T("f32", [2, 3])])
op1("clamp_max_tensor", "aten.clamp_max.Tensor", [T("i32", [3]), T("i64", [])])
op1("clamp_inplace", "aten.clamp_.default", [P("f32", [2, 3], [1, 0]), 0, 1])
op1("clamp_min_inplace", "aten.clamp_min_.default", [T("f32", [2, 3]), 0])
op1("clamp_inplace_cast_err", "aten.clamp_.default", [T("i64", [3]), 0.5], error=True)
op1("clamp_min_inplace_cast_err", "aten.clamp_min_.default", [T("i64", [3]), 0.5], error=True)
op1("masked_fill_scalar", "aten.masked_fill.Scalar", [T("f32", [2, 3]), T("b8", [2, 3]), 1.5])
op1("masked_fill_bcast", "aten.masked_fill.Scalar", [T("f32", [3]), T("b8", [2, 3]), 0])
op1("masked_fill_perm", "aten.masked_fill.Scalar", [P("f32", [2, 3], [1, 0]), T("b8", [3, 1]),
                                                    0])
op1("masked_fill_int_float", "aten.masked_fill.Scalar", [T("i64", [3]), T("b8", [3]), 1.5])
op1("masked_fill_tensor", "aten.masked_fill.Tensor", [T("f32", [2, 3]), T("b8", [3]),
                                                      T("f32", [])])
op1("masked_fill_tensor_err", "aten.masked_fill.Tensor", [T("f32", [2, 3]), T("b8", [3]),
                                                          T("f32", [1])], error=True)
op1("masked_fill_inplace", "aten.masked_fill_.Scalar", [P("f32", [2, 3], [1, 0]), T("b8", [2]),
                                                        0])
op1("masked_fill_inplace_err", "aten.masked_fill_.Scalar", [T("f32", [3]), T("b8", [2, 3]), 0],
    error=True)

# ---------------------------------------------------------------- reductions
X = T("f32", [2, 3, 4])
XP = P("f32", [2, 3, 4], [2, 0, 1])
op1("sum_all", "aten.sum.default", [X])
op1("sum_int", "aten.sum.default", [T("i32", [2, 3])])
op1("sum_bool", "aten.sum.default", [T("b8", [2, 3])])
op1("sum_dtype", "aten.sum.default", [T("i32", [2, 3])], {"dtype": torch.float64})
op1("sum_dim", "aten.sum.dim_IntList", [X, [1]])
op1("sum_dims_keep", "aten.sum.dim_IntList", [X, [0, -1], True])
op1("sum_dim_int", "aten.sum.dim_IntList", [X, -2])
op1("sum_dim_empty", "aten.sum.dim_IntList", [X, []])
op1("sum_dim_none_keep", "aten.sum.dim_IntList", [X, None, True])
op1("sum_perm_keep", "aten.sum.dim_IntList", [XP, [1], True])
op1("sum_0d", "aten.sum.dim_IntList", [T("f32", []), [0], True])
op1("sum_empty_dim", "aten.sum.dim_IntList", [T("f32", [0, 3]), [0]])
op1("sum_dup_err", "aten.sum.dim_IntList", [X, [0, -3]], error=True)
op1("sum_oob_err", "aten.sum.dim_IntList", [X, [3]], error=True)
op1("sum_0d_oob_err", "aten.sum.dim_IntList", [T("f32", []), [1]], error=True)
op1("mean_all", "aten.mean.default", [X])
op1("mean_dim", "aten.mean.dim", [XP, [-1], True])
op1("mean_dim_dtype", "aten.mean.dim", [T("i64", [2, 3]), [0]], {"dtype": torch.float64})
op1("mean_f16", "aten.mean.dim", [T("f16", [2, 3]), [1]])
op1("mean_int_err", "aten.mean.dim", [T("i64", [2, 3]), [0]], error=True)
op1("mean_int_dtype_err", "aten.mean.dim", [T("i64", [2, 3]), [0]], {"dtype": torch.int32},
    error=True)
op1("prod_all", "aten.prod.default", [T("b8", [2, 3])])
op1("prod_dim", "aten.prod.dim_int", [X, -1, True], {"dtype": torch.float64})
op1("prod_dim_int", "aten.prod.dim_int", [T("i32", [2, 3]), 0])
op1("amax_dims", "aten.amax.default", [X, [0, 2]])
op1("amax_default", "aten.amax.default", [X])
op1("amin_keep", "aten.amin.default", [T("i32", [2, 3]), [1], True])
op1("amax_empty_dim_ok", "aten.amax.default", [T("f32", [0, 3]), [1]])
op1("amax_empty_err", "aten.amax.default", [T("f32", [0, 3]), [0]], error=True)
op1("amax_empty_all_err", "aten.amax.default", [T("f32", [0, 3])], error=True)
op1("argmax_all", "aten.argmax.default", [X])
op1("argmax_all_keep", "aten.argmax.default", [X, None, True])
op1("argmax_dim", "aten.argmax.default", [X, 1])
op1("argmin_dim_keep", "aten.argmin.default", [T("i32", [2, 3]), -1, True])
op1("argmax_empty_err", "aten.argmax.default", [T("f32", [0, 3])], error=True)
op1("max_all", "aten.max.default", [T("i64", [2, 3])])
op1("min_all", "aten.min.default", [X])
op1("max_all_empty_err", "aten.max.default", [T("f32", [0])], error=True)
op1("max_dim", "aten.max.dim", [X, 1])
op1("max_dim_keep", "aten.max.dim", [XP, -1, True])
op1("min_dim", "aten.min.dim", [T("i32", [2, 3]), 0])
op1("max_dim_0d", "aten.max.dim", [T("f32", []), 0, True])
op1("max_dim_empty_err", "aten.max.dim", [T("f32", [0, 3]), 0], error=True)
op1("any_dim", "aten.any.dim", [T("f32", [2, 3]), 1])
op1("any_u8", "aten.any.dim", [T("u8", [2, 3]), 0, True])
op1("all_default", "aten.all.default", [T("i64", [2, 3])])
op1("var_dim", "aten.var.dim", [X, [1]])
op1("var_default", "aten.var.default", [X, False])
op1("var_corr", "aten.var.correction", [X, None], {"correction": 0, "keepdim": True})
op1("var_corr_dims", "aten.var.correction", [XP, [0, 1]], {"correction": 1})
op1("var_int_err", "aten.var.dim", [T("i64", [2, 3]), [0]], error=True)
op1("var_mean", "aten.var_mean.correction", [X, [1]], {"correction": 1})
op1("cumsum", "aten.cumsum.default", [X, 1])
op1("cumsum_perm", "aten.cumsum.default", [XP, -1])
op1("cumsum_bool", "aten.cumsum.default", [T("b8", [2, 3]), 1])
op1("cumsum_dtype", "aten.cumsum.default", [T("i32", [2, 3]), 0], {"dtype": torch.float32})
op1("cumsum_0d", "aten.cumsum.default", [T("f32", []), 0])
op1("cumsum_err", "aten.cumsum.default", [X, 3], error=True)

# ---------------------------------------------------------------- views
op1("view_basic", "aten.view.default", [T("f32", [2, 3, 4]), [6, 4]])
op1("view_infer", "aten.view.default", [T("f32", [2, 3, 4]), [-1, 2, 2]])
op1("view_perm_ok", "aten.view.default", [P("f32", [2, 3, 4], [1, 0, 2]), [3, 2, 2, 2]])
op1("view_split_dim_perm", "aten.view.default", [P("f32", [4, 6], [1, 0]), [2, 3, 4]])
op1("view_size1", "aten.view.default", [T("f32", [3, 1, 4], [4, 99, 1]), [3, 4, 1]])
op1("view_0d", "aten.view.default", [T("f32", []), [1, 1]])
op1("view_to_0d", "aten.view.default", [T("f32", [1, 1]), []])
op1("view_empty", "aten.view.default", [T("f32", [0, 3]), [3, 0]])
op1("view_empty_same", "aten.view.default", [T("f32", [2, 0], [7, 3]), [2, 0]])
op1("view_expanded", "aten.view.default", [T("f32", [3, 4], [0, 1]), [3, 2, 2]])
op1("view_sliced", "aten.view.default", [T("f32", [3, 4], [16, 1]), [3, 2, 2]])
op1("view_perm_err", "aten.view.default", [P("f32", [2, 3], [1, 0]), [6]], error=True)
op1("view_size_err", "aten.view.default", [T("f32", [2, 3]), [4, 2]], error=True)
op1("view_two_infer_err", "aten.view.default", [T("f32", [2, 3]), [-1, -1]], error=True)
op1("view_infer_zero_err", "aten.view.default", [T("f32", [0, 3]), [-1, 0]], error=True)
op1("reshape_viewable", "aten.reshape.default", [P("f32", [2, 3, 4], [1, 0, 2]), [6, 4]])
op1("reshape_copy", "aten.reshape.default", [P("f32", [2, 3], [1, 0]), [-1]])
op1("unsafe_view", "aten._unsafe_view.default", [T("f32", [2, 3, 4]), [4, 6]])
op1("reshape_alias", "aten._reshape_alias.default", [T("f32", [2, 3, 4]), [6, 4], [4, 1]])
op1("reshape_alias_odd", "aten._reshape_alias.default", [T("f32", [2, 3]), [3, 2], [1, 3]])
op1("as_strided", "aten.as_strided.default", [T("f32", [4, 4]), [2, 2], [1, 2], 1])
op1("permute", "aten.permute.default", [T("f32", [2, 3, 4]), [2, 0, 1]])
op1("permute_neg", "aten.permute.default", [P("f32", [2, 3, 4], [1, 2, 0]), [-1, 0, -2]])
op1("permute_0d", "aten.permute.default", [T("f32", []), []])
op1("permute_rep_err", "aten.permute.default", [T("f32", [2, 3]), [0, 0]], error=True)
op1("permute_len_err", "aten.permute.default", [T("f32", [2, 3]), [0, 1, 2]], error=True)
op1("transpose", "aten.transpose.int", [T("f32", [2, 3, 4]), 0, 2])
op1("transpose_neg", "aten.transpose.int", [P("f32", [2, 3, 4], [1, 2, 0]), -2, -1])
op1("transpose_0d", "aten.transpose.int", [T("f32", []), 0, -1])
op1("transpose_err", "aten.transpose.int", [T("f32", [2, 3]), 0, 2], error=True)
op1("t_2d", "aten.t.default", [T("f32", [2, 3])])
op1("t_1d", "aten.t.default", [T("f32", [3])])
op1("t_sliced", "aten.t.default", [T("f32", [3, 4], [8, 2])])
op1("t_3d_err", "aten.t.default", [T("f32", [2, 3, 4])], error=True)
op1("expand", "aten.expand.default", [T("f32", [3, 1]), [2, 3, 4]])
op1("expand_keep", "aten.expand.default", [T("f32", [3, 1]), [-1, 5]])
op1("expand_new1", "aten.expand.default", [T("f32", [3]), [1, 3]])
op1("expand_perm", "aten.expand.default", [P("f32", [1, 3, 2], [1, 0, 2]), [2, 3, 4, 2]])
op1("expand_same", "aten.expand.default", [T("f32", [2, 3], [1, 2]), [2, 3]])
op1("expand_0d", "aten.expand.default", [T("f32", []), [2, 2]])
op1("expand_err", "aten.expand.default", [T("f32", [3]), [4]], error=True)
op1("expand_few_err", "aten.expand.default", [T("f32", [2, 3]), [3]], error=True)
op1("expand_lead_err", "aten.expand.default", [T("f32", [3]), [-1, 3]], error=True)
op1("squeeze_all", "aten.squeeze.default", [T("f32", [1, 3, 1, 2], [9, 3, 5, 1])])
op1("squeeze_dim", "aten.squeeze.dim", [T("f32", [1, 3, 1, 2]), -2])
op1("squeeze_dim_noop", "aten.squeeze.dim", [T("f32", [1, 3, 1, 2]), 1])
op1("squeeze_0d", "aten.squeeze.dim", [T("f32", []), 0])
op1("squeeze_err", "aten.squeeze.dim", [T("f32", [1, 3]), 2], error=True)
op1("unsqueeze", "aten.unsqueeze.default", [T("f32", [2, 3]), 1])
op1("unsqueeze_end", "aten.unsqueeze.default", [T("f32", [2, 3]), -1])
op1("unsqueeze_front_perm", "aten.unsqueeze.default", [P("f32", [2, 3], [1, 0]), 0])
op1("unsqueeze_mid_perm", "aten.unsqueeze.default", [P("f32", [2, 3], [1, 0]), 1])
op1("unsqueeze_0d", "aten.unsqueeze.default", [T("f32", []), 0])
op1("unsqueeze_err", "aten.unsqueeze.default", [T("f32", [2, 3]), 3], error=True)
op1("slice_basic", "aten.slice.Tensor", [T("f32", [5, 6]), 1, 1, 4])
op1("slice_step", "aten.slice.Tensor", [T("f32", [5, 6]), 1, 0, 9223372036854775807, 2])
op1("slice_neg", "aten.slice.Tensor", [T("f32", [5, 6]), 0, -3, -1])
op1("slice_clamp", "aten.slice.Tensor", [T("f32", [5, 6]), -1, -100, 100, 4])
op1("slice_empty", "aten.slice.Tensor", [T("f32", [5, 6]), 0, 4, 2])
op1("slice_default", "aten.slice.Tensor", [P("f32", [5, 6], [1, 0])])
op1("slice_0d_err", "aten.slice.Tensor", [T("f32", []), 0], error=True)
op1("slice_step_err", "aten.slice.Tensor", [T("f32", [4]), 0, 0, 4, 0], error=True)
op1("select", "aten.select.int", [T("f32", [3, 4, 5]), 1, 2])
op1("select_neg", "aten.select.int", [P("f32", [3, 4, 5], [2, 0, 1]), -1, -1])
op1("select_1d", "aten.select.int", [T("f32", [3]), 0, 1])
op1("select_oob_err", "aten.select.int", [T("f32", [3, 4]), 0, 3], error=True)
op1("select_0d_err", "aten.select.int", [T("f32", []), 0, 0], error=True)
op1("split", "aten.split.Tensor", [T("f32", [5, 4]), 2])
op1("split_dim", "aten.split.Tensor", [P("f32", [5, 4], [1, 0]), 3, -1])
op1("split_big", "aten.split.Tensor", [T("f32", [5, 4]), 10])
op1("split_zero", "aten.split.Tensor", [T("f32", [0, 4]), 0])
op1("split_sizes", "aten.split_with_sizes.default", [T("f32", [2, 6]), [1, 2, 3], 1])
op1("split_sizes_err", "aten.split_with_sizes.default", [T("f32", [2, 6]), [1, 2], 1],
    error=True)
op1("split_0d_err", "aten.split.Tensor", [T("f32", []), 1], error=True)
op1("unbind", "aten.unbind.int", [T("f32", [3, 2, 4]), 1])
op1("detach", "aten.detach.default", [P("f32", [2, 3], [1, 0])])
op1("alias", "aten.alias.default", [T("f32", [3, 4], [0, 1])])
op1("lift_fresh", "aten.lift_fresh.default", [T("i64", [3])])

# ---------------------------------------------------------------- matmul, conv, pooling
op1("mm", "aten.mm.default", [T("f32", [2, 3]), T("f32", [3, 4])])
op1("mm_t", "aten.mm.default", [T("f32", [2, 3], [1, 2]), T("f32", [3, 4], [1, 3])])
op1("mm_int", "aten.mm.default", [T("i64", [2, 3]), T("i64", [3, 5])])
op1("mm_shape_err", "aten.mm.default", [T("f32", [2, 3]), T("f32", [4, 5])], error=True)
op1("mm_rank_err", "aten.mm.default", [T("f32", [2, 3, 3]), T("f32", [3, 5])], error=True)
op1("mm_dtype_err", "aten.mm.default", [T("f32", [2, 3]), T("f64", [3, 5])], error=True)
op1("mv", "aten.mv.default", [T("f32", [2, 3]), T("f32", [3])])
op1("mv_t", "aten.mv.default", [T("f32", [2, 3], [1, 2]), T("f32", [3])])
op1("mv_dtype_err", "aten.mv.default", [T("f32", [2, 3]), T("i64", [3])], error=True)
op1("mv_int", "aten.mv.default", [T("i32", [4, 3]), T("i32", [3])])
op1("mv_size_err", "aten.mv.default", [T("f32", [2, 3]), T("f32", [4])], error=True)
op1("mv_rank_err", "aten.mv.default", [T("f32", [3]), T("f32", [3])], error=True)
op1("dot", "aten.dot.default", [T("f32", [5]), T("f32", [5])])
op1("vdot", "aten.vdot.default", [T("f32", [5]), P("f32", [5], [0])])
op1("vdot_int", "aten.vdot.default", [T("i8", [3]), T("i8", [3])])
op1("vdot_dtype_err", "aten.vdot.default", [T("f32", [3]), T("f64", [3])], error=True)
op1("vdot_size_err", "aten.vdot.default", [T("f32", [3]), T("f32", [2])], error=True)
op1("vdot_2d_err", "aten.vdot.default", [T("f32", [1, 3]), T("f32", [1, 3])], error=True)
op1("dot_empty", "aten.dot.default", [T("f64", [0]), T("f64", [0])])
op1("dot_size_err", "aten.dot.default", [T("f32", [3]), T("f32", [4])], error=True)
op1("dot_rank_err", "aten.dot.default", [T("f32", [3, 1]), T("f32", [3])], error=True)
op1("dot_dtype_err", "aten.dot.default", [T("f32", [3]), T("f64", [3])], error=True)
op1("bmm", "aten.bmm.default", [T("f32", [2, 3, 4]), T("f32", [2, 4, 5])])
op1("bmm_perm", "aten.bmm.default", [P("f32", [3, 2, 4], [1, 0, 2]), P("f32", [2, 5, 4],
                                                                       [0, 2, 1])])
op1("bmm_batch_err", "aten.bmm.default", [T("f32", [2, 3, 4]), T("f32", [3, 4, 5])],
    error=True)
op1("bmm_inner_err", "aten.bmm.default", [T("f32", [2, 3, 4]), T("f32", [2, 5, 5])],
    error=True)
op1("addmm", "aten.addmm.default", [T("f32", [4]), T("f32", [2, 3]), T("f32", [3, 4])])
op1("addmm_bcast", "aten.addmm.default", [T("f32", [2, 1]), T("f32", [2, 3]), T("f32", [3, 4])],
    {"beta": 0.5, "alpha": 2})
op1("addmm_full", "aten.addmm.default", [T("f32", [2, 4]), P("f32", [3, 2], [1, 0]),
                                         T("f32", [3, 4])])
op1("addmm_bias_err", "aten.addmm.default", [T("f32", [3]), T("f32", [2, 3]), T("f32", [3, 4])],
    error=True)
op1("addmm_act", "aten._addmm_activation.default", [T("f32", [4]), T("f32", [2, 3]),
                                                    T("f32", [3, 4])])
op1("addmm_act_gelu", "aten._addmm_activation.default",
    [T("bf16", [2, 1]), P("bf16", [3, 2], [1, 0]), T("bf16", [3, 4])],
    {"beta": 0.5, "alpha": 2, "use_gelu": True})
op1("addmm_act_int", "aten._addmm_activation.default", [T("i64", [4]), T("i64", [2, 3]),
                                                        T("i64", [3, 4])])
op1("addmm_act_int_gelu_err", "aten._addmm_activation.default",
    [T("i32", [4]), T("i32", [2, 3]), T("i32", [3, 4])], {"use_gelu": True}, error=True)
op1("addmm_act_bias_err", "aten._addmm_activation.default",
    [T("f32", [3]), T("f32", [2, 3]), T("f32", [3, 4])], {"use_gelu": True}, error=True)
op1("linear", "aten.linear.default", [T("f32", [2, 5, 3]), T("f32", [4, 3]), T("f32", [4])])
op1("linear_nobias", "aten.linear.default", [T("f32", [2, 5, 3]), T("f32", [4, 3])])
op1("linear_1d", "aten.linear.default", [T("f32", [3]), T("f32", [4, 3])])
op1("linear_perm", "aten.linear.default", [P("f32", [5, 2, 3], [1, 0, 2]), T("f32", [4, 3]),
                                           T("f32", [4])])
op1("linear_err", "aten.linear.default", [T("f32", [2, 3]), T("f32", [4, 2])], error=True)
# torch 1.13: a 1-d weight is matmul(input, weight); with a bias, a 2-d or
# contiguous 3-d input is addmm (same-dtype bias of the 2-d product), any
# other input matmul + add_ (a bias of any dtype the result can take)
# a memory_format needs its rank, even where to() or contiguous() would
# return self
for nm, tgt, kw in [("to", "aten.to.dtype", {"dtype": torch.float32}),
                    ("contiguous", "aten.contiguous.default", {})]:
    for mf in ("channels_last", "channels_last_3d"):
        op1("%s_%s_rank_err" % (nm, mf), tgt, [T("f32", [2, 3])],
            dict(kw, memory_format=getattr(torch, mf)), error=True)
op1("linear_w1d", "aten.linear.default", [T("f32", [2, 5, 3]), T("f32", [3])])
op1("linear_w1d_x1d_bias", "aten.linear.default", [T("f32", [3]), T("f32", [3]), T("f32", [])])
op1("linear_w1d_bias_err", "aten.linear.default", [T("f32", [2, 3]), T("f32", [3]),
                                                   T("f32", [2])], error=True)
op1("linear_w3d_err", "aten.linear.default", [T("f32", [2, 3]), T("f32", [1, 4, 3])], error=True)
op1("linear_3d_bias_3d_err", "aten.linear.default",
    [T("f32", [2, 2, 3]), T("f32", [4, 3]), T("f32", [2, 1, 4])], error=True)
op1("linear_perm_bias_3d", "aten.linear.default",
    [P("f32", [2, 3, 2], [0, 2, 1]), T("f32", [4, 3]), T("f32", [2, 1, 4])])
op1("linear_4d_bias_f64", "aten.linear.default",
    [T("f32", [2, 2, 2, 3]), T("f32", [4, 3]), T("f64", [4])])
op1("linear_2d_bias_f64_err", "aten.linear.default",
    [T("f32", [2, 3]), T("f32", [4, 3]), T("f64", [4])], error=True)
op1("linear_int_bias_float_err", "aten.linear.default",
    [T("i64", [3]), T("i64", [4, 3]), T("f32", [4])], error=True)
for nm, a, b in [("1_1", [3], [3]), ("2_1", [2, 3], [3]), ("1_2", [3], [3, 4]),
                 ("2_2", [2, 3], [3, 4]), ("3_2", [5, 2, 3], [3, 4]), ("3_1", [5, 2, 3], [3]),
                 ("1_3", [3], [5, 3, 4]), ("2_3", [2, 3], [5, 3, 4]),
                 ("4_3", [2, 1, 2, 3], [5, 3, 4])]:
    op1("matmul_" + nm, "aten.matmul.default", [T("f32", a), T("f32", b)])
op1("matmul_err", "aten.matmul.default", [T("f32", [2, 3]), T("f32", [4])], error=True)
op1("matmul_0d_err", "aten.matmul.default", [T("f32", []), T("f32", [4])], error=True)
op1("matmul_batch_err", "aten.matmul.default", [T("f32", [2, 2, 3]), T("f32", [3, 3, 4])],
    error=True)
CONV = [1, 1], [1, 1], [1, 1], False, [0, 0], 1
op1("conv2d", "aten.convolution.default", [T("f32", [2, 3, 8, 8]), T("f32", [4, 3, 3, 3]),
                                           T("f32", [4])] + list(CONV))
op1("conv2d_stride_groups", "aten.convolution.default",
    [T("f32", [2, 4, 9, 9]), T("f32", [6, 2, 3, 3]), None, [2, 2], [0, 0], [2, 2], False,
     [0, 0], 2])
op1("conv2d_single_params", "aten.convolution.default",
    [T("f32", [1, 3, 7, 9]), T("f32", [2, 3, 3, 2]), None, [2], [1], [1], False, [0], 1])
op1("conv2d_cl", "aten.convolution.default", [CL("f32", [2, 3, 8, 8]), T("f32", [4, 3, 3, 3]),
                                              T("f32", [4])] + list(CONV))
op1("conv2d_weight_cl", "aten.convolution.default",
    [T("f32", [2, 3, 8, 8]), CL("f32", [4, 3, 3, 3]), None] + list(CONV))
op1("conv2d_perm_input", "aten.convolution.default",
    [T("f32", [2, 3, 4, 8], [192, 1, 48, 3]), T("f32", [4, 3, 3, 3]), None, [1, 1], [0, 0],
     [1, 1], False, [0, 0], 1])
op1("conv_transposed", "aten.convolution.default",
    [T("f32", [2, 4, 5, 5]), T("f32", [4, 3, 3, 3]), None, [2, 2], [1, 1], [1, 1], True, [1, 1],
     1])
op1("conv_transposed_groups", "aten.convolution.default",
    [T("f32", [2, 4, 5, 5]), T("f32", [4, 3, 3, 3]), T("f32", [6]), [2, 2], [1, 1], [1, 1],
     True, [1, 1], 2])
# transposed: output_padding below stride or dilation, an output of at least
# one element for a non-empty input, the weight's dim 0 against groups
TCONV = [1, 1], [0, 0], [1, 1], True
op1("conv_t_opad_err", "aten.convolution.default",
    [T("f32", [1, 2, 4, 4]), T("f32", [2, 3, 3, 3]), None] + list(TCONV) + [[1, 1], 1],
    error=True)
op1("conv_t_opad_dilation", "aten.convolution.default",
    [T("f32", [1, 2, 4, 4]), T("f32", [2, 3, 3, 3]), None, [1, 1], [0, 0], [2, 1], True,
     [1, 0], 1])
op1("conv_t_small_err", "aten.convolution.default",
    [T("f32", [1, 2, 2, 2]), T("f32", [2, 2, 1, 1]), None, [1, 1], [1, 0], [1, 1], True,
     [0, 0], 1], error=True)
op1("conv_t_empty_batch", "aten.convolution.default",
    [T("f32", [0, 2, 2, 2]), T("f32", [2, 2, 1, 1]), None, [1, 1], [1, 0], [1, 1], True,
     [0, 0], 1])
op1("conv_t_groups_err", "aten.convolution.default",
    [T("f32", [1, 3, 4, 4]), T("f32", [3, 2, 3, 3]), None] + list(TCONV) + [[0, 0], 2],
    error=True)
op1("conv_t_weight_empty_err", "aten.convolution.default",
    [T("f32", [1, 2, 2, 2]), T("f32", [2, 0, 1, 1]), None] + list(TCONV) + [[0, 0], 1],
    error=True)
op1("conv_t_1d", "aten.convolution.default",
    [T("f32", [2, 3, 5]), T("f32", [3, 2, 3]), T("f32", [2]), [2], [1], [1], True, [1], 1])
op1("conv_t_i64", "aten.convolution.default",
    [T("i64", [1, 2, 3, 3]), T("i64", [2, 2, 2, 2]), None] + list(TCONV) + [[0, 0], 1])
op1("conv_kernel0_err", "aten.convolution.default",
    [T("f32", [1, 2, 3, 3]), T("f32", [2, 2, 0, 1]), None] + list(CONV), error=True)
op1("conv_weight0_err", "aten.convolution.default",
    [T("f32", [1, 2, 3, 3]), T("f32", [0, 2, 1, 1]), None] + list(CONV), error=True)
op1("conv_spatial_empty_err", "aten.convolution.default",
    [T("f32", [1, 2, 0, 2]), T("f32", [2, 2, 1, 1]), None, [1, 1], [1, 1], [1, 1], False,
     [0, 0], 1], error=True)
op1("conv1d", "aten.convolution.default", [T("f32", [2, 3, 8]), T("f32", [4, 3, 3]), None, [1],
                                           [0], [1], False, [0], 1])
op1("conv_rank_err", "aten.convolution.default", [T("f32", [3, 8, 8]), T("f32", [4, 3, 3, 3]),
                                                  None] + list(CONV), error=True)
op1("conv_channels_err", "aten.convolution.default",
    [T("f32", [2, 5, 8, 8]), T("f32", [4, 3, 3, 3]), None] + list(CONV), error=True)
op1("conv_small_err", "aten.convolution.default",
    [T("f32", [2, 3, 2, 2]), T("f32", [4, 3, 3, 3]), None, [1, 1], [0, 0], [1, 1], False,
     [0, 0], 1], error=True)
op1("conv_bias_err", "aten.convolution.default",
    [T("f32", [2, 3, 8, 8]), T("f32", [4, 3, 3, 3]), T("f32", [5])] + list(CONV), error=True)
CONV3 = [1, 2, 1], [1, 0, 1], [2, 1, 1], False, [0, 0, 0], 1
op1("conv3d", "aten.convolution.default", [T("f32", [2, 3, 6, 5, 7]), T("f32", [4, 3, 2, 3, 3]),
                                           T("f32", [4])] + list(CONV3))
op1("conv3d_groups", "aten.convolution.default",
    [T("f64", [1, 4, 5, 5, 5]), T("f64", [6, 2, 3, 1, 2]), None, [2], [1], [1], False, [0], 2])
op1("conv3d_cl", "aten.convolution.default",
    [P("f32", [2, 4, 5, 6, 3], [0, 4, 1, 2, 3]), T("f32", [4, 3, 2, 2, 2]), None] + list(CONV3))
op1("conv3d_transposed", "aten.convolution.default",
    [T("f32", [2, 4, 3, 4, 5]), T("f32", [4, 3, 2, 3, 2]), T("f32", [3]), [2, 1, 2], [0, 1, 1],
     [1, 1, 1], True, [1, 0, 1], 1])
op1("conv3d_stride_err", "aten.convolution.default",
    [T("f32", [2, 3, 4, 5, 6]), T("f32", [4, 3, 2, 2, 2]), None, [1, 1], [0], [1], False, [0],
     1], error=True)
op1("conv3d_small_err", "aten.convolution.default",
    [T("f32", [2, 3, 1, 5, 6]), T("f32", [4, 3, 2, 2, 2]), None, [1], [0], [1], False, [0], 1],
    error=True)
op1("conv3d_t_opad_err", "aten.convolution.default",
    [T("f32", [1, 2, 3, 3, 3]), T("f32", [2, 3, 2, 2, 2]), None, [1], [0], [1], True, [0, 1, 0],
     1], error=True)
X5 = [2, 3, 5, 6, 7]
op1("maxpool3d", "aten.max_pool3d_with_indices.default", [T("f32", X5), [2, 2, 2]])
op1("maxpool3d_params", "aten.max_pool3d_with_indices.default",
    [T("f64", X5), [2, 3, 2], [1, 2, 2], [1, 1, 0], [2, 1, 1], True])
op1("maxpool3d_4d", "aten.max_pool3d_with_indices.default", [T("f32", [3, 5, 6, 7]), [3], [], [1]])
op1("maxpool3d_cl", "aten.max_pool3d_with_indices.default",
    [P("f32", [2, 5, 6, 7, 3], [0, 4, 1, 2, 3]), [2, 2, 2]])
op1("maxpool3d_empty_batch", "aten.max_pool3d_with_indices.default",
    [T("f32", [0, 3, 5, 6, 7]), [2, 2, 2]])
op1("maxpool3d_channels_err", "aten.max_pool3d_with_indices.default",
    [T("f32", [2, 0, 5, 6, 7]), [2, 2, 2]], error=True)
op1("maxpool3d_kernel_err", "aten.max_pool3d_with_indices.default",
    [T("f32", X5), [2, 2]], error=True)
op1("maxpool3d_small_err", "aten.max_pool3d_with_indices.default",
    [T("f32", X5), [6, 2, 2]], error=True)
op1("maxpool3d_pad_err", "aten.max_pool3d_with_indices.default",
    [T("f32", X5), [2, 2, 2], [], [2, 0, 0]], error=True)
op1("maxpool3d_i64_err", "aten.max_pool3d_with_indices.default",
    [T("i64", X5), [2, 2, 2]], error=True)
op1("avgpool3d", "aten.avg_pool3d.default", [T("f32", X5), [2, 2, 2]])
op1("avgpool3d_params", "aten.avg_pool3d.default",
    [T("f32", X5), [2, 3, 2], [1, 2, 1], [1, 1, 0], True, False, 3])
op1("avgpool3d_i64", "aten.avg_pool3d.default", [T("i64", [3, 5, 6, 7]), [2]])
op1("avgpool3d_small_input_err", "aten.avg_pool3d.default",
    [T("f32", [1, 2, 1, 3, 3]), [2, 2, 2], [2], [1]], error=True)
op1("avgpool3d_divisor_err", "aten.avg_pool3d.default",
    [T("f32", X5), [2, 2, 2], [], [0], False, True, 0], error=True)
op1("avgpool3d_f16_err", "aten.avg_pool3d.default", [T("f16", X5), [2, 2, 2]], error=True)
op1("adaptive_avgpool3d", "aten._adaptive_avg_pool3d.default", [T("f32", X5), [2, 3, 4]])
op1("adaptive_avgpool3d_f16", "aten._adaptive_avg_pool3d.default",
    [T("f16", [3, 5, 6, 7]), [4, 1, 7]])
op1("adaptive_avgpool3d_cl", "aten._adaptive_avg_pool3d.default",
    [P("f32", [2, 5, 6, 7, 3], [0, 4, 1, 2, 3]), [2, 3, 4]])
op1("adaptive_avgpool3d_zero_out", "aten._adaptive_avg_pool3d.default", [T("f32", X5), [0, 3, 4]])
op1("adaptive_avgpool3d_empty_err", "aten._adaptive_avg_pool3d.default",
    [T("f32", [2, 3, 0, 6, 7]), [2, 3, 4]], error=True)
op1("adaptive_avgpool3d_size_err", "aten._adaptive_avg_pool3d.default",
    [T("f32", X5), [2, 3]], error=True)
op1("adaptive_avgpool3d_i64_err", "aten._adaptive_avg_pool3d.default",
    [T("i64", X5), [2, 3, 4]], error=True)
op1("adaptive_maxpool3d", "aten.adaptive_max_pool3d.default", [T("f64", X5), [2, 3, 4]])
op1("adaptive_maxpool3d_empty_batch", "aten.adaptive_max_pool3d.default",
    [T("f32", [0, 5, 6, 7]), [2, 2, 2]])
op1("adaptive_maxpool3d_bf16_err", "aten.adaptive_max_pool3d.default",
    [T("bf16", X5), [2, 3, 4]], error=True)
UI = T("i64", [2, 3, 2, 2], fill="zeros")
op1("max_unpool2d", "aten.max_unpool2d.default", [T("f32", [2, 3, 2, 2]), UI, [4, 5]])
op1("max_unpool2d_3d", "aten.max_unpool2d.default",
    [T("f64", [3, 2, 2]), T("i64", [3, 2, 2], fill="zeros"), [3, 3]])
op1("max_unpool2d_cl", "aten.max_unpool2d.default", [CL("f32", [2, 3, 2, 2]), UI, [4, 4]])
op1("max_unpool2d_empty_out_i64", "aten.max_unpool2d.default",
    [T("i64", [2, 3, 2, 2]), UI, [0, 4]])
op1("max_unpool2d_i64_err", "aten.max_unpool2d.default", [T("i64", [2, 3, 2, 2]), UI, [4, 4]],
    error=True)
op1("max_unpool2d_i32_idx_err", "aten.max_unpool2d.default",
    [T("f32", [2, 3, 2, 2]), T("i32", [2, 3, 2, 2], fill="zeros"), [4, 4]], error=True)
op1("max_unpool2d_size_err", "aten.max_unpool2d.default", [T("f32", [2, 3, 2, 2]), UI, [4]],
    error=True)
op1("max_unpool2d_shape_err", "aten.max_unpool2d.default",
    [T("f32", [2, 3, 2, 2]), T("i64", [2, 3, 2, 1], fill="zeros"), [4, 4]], error=True)
op1("max_unpool2d_empty_err", "aten.max_unpool2d.default",
    [T("f32", [2, 0, 2, 2]), T("i64", [2, 0, 2, 2]), [4, 4]], error=True)
UI3 = T("i64", [1, 2, 2, 2, 2], fill="zeros")
op1("max_unpool3d", "aten.max_unpool3d.default",
    [T("f32", [1, 2, 2, 2, 2]), UI3, [3, 4, 5], [2, 2, 2], [0, 0, 0]])
op1("max_unpool3d_4d", "aten.max_unpool3d.default",
    [T("f64", [2, 2, 2, 2]), T("i64", [2, 2, 2, 2], fill="zeros"), [2, 4, 4], [1, 2, 2], [-1, 0, 0]])
op1("max_unpool3d_cl", "aten.max_unpool3d.default",
    [P("f32", [1, 2, 2, 2, 2], [0, 4, 1, 2, 3]), UI3, [3, 4, 5], [2, 2, 2], [0, 0, 0]])
op1("max_unpool3d_stride_err", "aten.max_unpool3d.default",
    [T("f32", [1, 2, 2, 2, 2]), UI3, [3, 4, 5], [0, 2, 2], [0, 0, 0]], error=True)
op1("max_unpool3d_stride_len_err", "aten.max_unpool3d.default",
    [T("f32", [1, 2, 2, 2, 2]), UI3, [3, 4, 5], [2, 2], [0, 0, 0]], error=True)
op1("max_unpool3d_rank_err", "aten.max_unpool3d.default",
    [T("f32", [2, 2, 2]), T("i64", [2, 2, 2], fill="zeros"), [3, 4, 5], [2, 2, 2], [0, 0, 0]],
    error=True)
op1("weight_norm", "aten._weight_norm_interface.default",
    [T("f32", [6, 4, 3]), T("f32", [6, 1, 1]), 0])
op1("weight_norm_last", "aten._weight_norm_interface.default",
    [T("f64", [5, 3]), T("f64", [1, 3]), 1])
op1("weight_norm_bf16", "aten._weight_norm_interface.default",
    [T("bf16", [4, 3]), T("bf16", [4]), 0])
op1("weight_norm_dim_err", "aten._weight_norm_interface.default",
    [T("f32", [6, 4, 3]), T("f32", [1, 4, 1]), 1], error=True)
op1("weight_norm_dtype_err", "aten._weight_norm_interface.default",
    [T("f32", [6, 4]), T("f64", [6, 1]), 0], error=True)
op1("weight_norm_f16_err", "aten._weight_norm_interface.default",
    [T("f16", [6, 4]), T("f16", [6, 1]), 0], error=True)
op1("argsort_stable_perm", "aten.argsort.stable", [P("f32", [3, 4, 5], [2, 0, 1])],
    {"stable": True, "dim": 1})
op1("argsort_stable_dim_err", "aten.argsort.stable", [T("f32", [3, 4])],
    {"stable": False, "dim": 2}, error=True)
EB, EBF = "aten._embedding_bag.default", "aten._embedding_bag_forward_only.default"
EBI = T("i64", [5], fill="zeros")
op1("embedding_bag_sum", EB, [T("f32", [4, 3]), EBI, T("i64", [2], fill="zeros")])
op1("embedding_bag_sum_pad", EB, [T("f32", [4, 3]), EBI, T("i32", [2], fill="zeros"), False, 0,
                                  False, None, True, 1])
op1("embedding_bag_fwd_last", EBF, [T("f16", [4, 3]), T("i32", [5], fill="zeros"),
                                    T("i32", [3], fill="zeros"), False, 0, False, None, True])
op1("embedding_bag_mean", EB, [T("f64", [4, 3]), EBI, T("i64", [3], fill="zeros"), False, 1])
op1("embedding_bag_max", EBF, [P("f32", [3, 4], [1, 0]), EBI, T("i64", [2], fill="zeros"),
                               False, 2])
op1("embedding_bag_strided_sum", EB, [P("f32", [3, 4], [1, 0]), EBI, T("i64", [2], fill="zeros")])
op1("embedding_bag_psw", EB, [T("f32", [4, 3]), EBI, T("i64", [2], fill="zeros"), False, 0, False,
                              T("f32", [5])])
op1("embedding_bag_idx_dtype_err", EB, [T("f32", [4, 3]), T("f32", [5]),
                                        T("i64", [2], fill="zeros")], error=True)
op1("embedding_bag_w_dtype_err", EB, [T("bf16", [4, 3]), EBI, T("i64", [2], fill="zeros")],
    error=True)
op1("embedding_bag_psw_mode_err", EB, [T("f32", [4, 3]), EBI, T("i64", [2], fill="zeros"), False,
                                       1, False, T("f32", [5])], error=True)
op1("embedding_bag_psw_dtype_err", EB, [T("f32", [4, 3]), EBI, T("i64", [2], fill="zeros"),
                                        False, 0, False, T("f64", [5])], error=True)
op1("embedding_bag_psw_numel_err", EB, [T("f32", [4, 3]), EBI, T("i64", [2], fill="zeros"),
                                        False, 0, False, T("f32", [4])], error=True)
op1("embedding_bag_w_dim_err", EB, [T("f32", [4]), EBI, T("i64", [2], fill="zeros")], error=True)
op1("embedding_bag_last_err", EB, [T("f32", [4, 3]), EBI, T("i64", [0]), False, 0, False, None,
                                   True], error=True)
TRI = "aten._trilinear.default"
op1("trilinear_bilinear", TRI, [T("f32", [2, 3]), T("f32", [5, 3, 4]), T("f32", [2, 4]), [1, 3],
                                [0], [1, 2], [2, 3]])
op1("trilinear_outer", TRI, [T("f16", [2]), T("f16", [3]), T("f16", [4]), [1, 2], [0, 2], [0, 1],
                             []])
op1("trilinear_unrolled_sum", TRI, [T("i64", [2, 4]), T("i64", [2, 4]), T("i64", [2, 1]), [], [],
                                    [], [1], 1])
op1("trilinear_empty", TRI, [T("f32", [0, 3]), T("f32", [5, 3, 4]), T("f32", [2, 4]), [1, 3],
                             [0], [1, 2], [2, 3]])
op1("trilinear_unroll_err", TRI, [T("f32", [3]), T("f32", [3]), T("f32", [3]), [], [], [], [0],
                                  1], error=True)
op1("trilinear_dup_err", TRI, [T("f32", [2, 3]), T("f32", [5, 3, 4]), T("f32", [2, 4]), [1, 1],
                               [0], [1, 2], [2, 3]], error=True)
op1("trilinear_dtype_err", TRI, [T("f32", [2, 3]), T("f64", [5, 3, 4]), T("f32", [2, 4]), [1, 3],
                                 [0], [1, 2], [2, 3]], error=True)
op1("trilinear_half_err", TRI, [T("f16", [2, 3]), T("f16", [5, 3, 4]), T("f16", [2, 4]), [1, 3],
                                [0], [1, 2], [2, 3]], error=True)
op1("trilinear_size_err", TRI, [T("f32", [2, 3]), T("f32", [5, 2, 4]), T("f32", [2, 4]), [1, 3],
                                [0], [1, 2], [2, 3]], error=True)
op1("trilinear_narrow_err", TRI, [T("f32", [1]), T("f32", [2]), T("f32", [2]), [], [], [], [0],
                                  0], error=True)
DS, ASS = "aten.diagonal_scatter.default", "aten.as_strided_scatter.default"
op1("diagonal_scatter", DS, [T("f32", [3, 4]), T("f32", [3])])
op1("diagonal_scatter_perm", DS, [P("f32", [2, 3, 4], [2, 0, 1]), T("f64", [4, 2]), 0, 1, 2])
op1("diagonal_scatter_offset", DS, [T("i64", [3, 4]), T("f32", [2]), -1])
op1("diagonal_scatter_size_err", DS, [T("f32", [3, 4]), T("f32", [2])], error=True)
op1("diagonal_scatter_dims_err", DS, [T("f32", [3, 4]), T("f32", [3]), 0, 1, -1], error=True)
op1("as_strided_scatter", ASS, [T("f32", [3, 4]), T("f32", [2, 2]), [2, 2], [4, 1], 5])
op1("as_strided_scatter_perm", ASS, [P("f32", [3, 4], [1, 0]), T("f32", [2, 2]), [2, 2], [4, 1]])
op1("as_strided_scatter_empty", ASS, [T("f32", [3, 4]), T("f32", [0, 2]), [0, 2], [0, 0], 100])
op1("as_strided_scatter_bounds_err", ASS, [T("f32", [3, 4]), T("f32", [2, 2]), [2, 2], [4, 1], 11],
    error=True)
op1("as_strided_scatter_overlap_err", ASS, [T("f32", [3, 4]), T("f32", [2, 2]), [2, 2], [0, 1]],
    error=True)
op1("as_strided_scatter_size_err", ASS, [T("f32", [3, 4]), T("f32", [2, 3]), [2, 2], [4, 1]],
    error=True)
op1("isin", "aten.isin.Tensor_Tensor", [P("i64", [3, 4], [1, 0]), T("f32", [5])])
op1("isin_scalar", "aten.isin.Tensor_Scalar", [T("f16", [3]), 2], {"invert": True})
op1("isin_scalar_tensor", "aten.isin.Scalar_Tensor", [2.5, T("f64", [4])])
op1("isin_bool_err", "aten.isin.Tensor_Tensor", [T("b8", [3]), T("i64", [2])], error=True)
op1("isin_bf16_err", "aten.isin.Tensor_Tensor", [T("i64", [3]), T("bf16", [2])], error=True)

# ---------------------------------------------------------------- LAPACK
# torch returns batches of column-major matrices; int32 pivots and infos
LA = "aten.%s.default"
for nm in ("linalg_inv_ex", "_linalg_det", "_linalg_slogdet", "linalg_cholesky_ex",
           "cholesky", "cholesky_inverse", "linalg_lu_factor_ex", "linalg_lu", "_linalg_eigh",
           "_linalg_svd", "linalg_qr"):
    spd = "spd" if nm == "cholesky" else None
    op1(nm + "_batch", LA % nm, [T("f32", [2, 3, 3], fill=spd)])
    op1(nm + "_f64_perm", LA % nm, [P("f64", [3, 2, 2], [0, 2, 1], fill=spd)])
    op1(nm + "_empty", LA % nm, [T("f32", [0, 2, 2])])
    op1(nm + "_1d_err", LA % nm, [T("f32", [3])], error=True)
    op1(nm + "_int_err", LA % nm, [T("i64", [2, 2])], error=True)
    op1(nm + "_half_err", LA % nm, [T("f16", [2, 2])], error=True)
for nm in ("linalg_inv_ex", "_linalg_det", "_linalg_slogdet", "linalg_cholesky_ex", "cholesky",
           "cholesky_inverse", "_linalg_eigh"):
    op1(nm + "_nonsquare_err", LA % nm, [T("f32", [2, 3])], error=True)
for nm in ("linalg_lu_factor_ex", "linalg_lu", "_linalg_svd", "linalg_qr"):
    op1(nm + "_wide", LA % nm, [T("f32", [2, 3, 5])])
    op1(nm + "_tall", LA % nm, [T("f64", [5, 2])])
op1("cholesky_0d", "aten.cholesky.default", [T("f32", [0])])
op1("cholesky_upper", "aten.cholesky.default", [T("f32", [3, 3], fill="spd")], {"upper": True})
op1("chol_ex_upper", "aten.linalg_cholesky_ex.default", [T("f32", [2, 3, 3])], {"upper": True})
op1("lu_nopivot_err", "aten.linalg_lu_factor_ex.default", [T("f32", [3, 3])], {"pivot": False},
    error=True)
op1("lu_nopivot_empty", "aten.linalg_lu.default", [T("f32", [2, 0, 0])], {"pivot": False})
op1("eigh_novec", "aten._linalg_eigh.default", [T("f32", [2, 3, 3]), "U", False])
op1("eigh_uplo_err", "aten._linalg_eigh.default", [T("f32", [3, 3]), "X"], error=True)
op1("svd_full", "aten._linalg_svd.default", [T("f32", [2, 4, 3]), True])
op1("svd_nouv", "aten._linalg_svd.default", [T("f32", [4, 3]), False, False])
op1("svd_driver_err", "aten._linalg_svd.default", [T("f32", [4, 3])], {"driver": "gesvd"},
    error=True)
op1("svd_empty_full", "aten._linalg_svd.default", [T("f32", [3, 0]), True])
op1("qr_complete", "aten.linalg_qr.default", [T("f32", [5, 3]), "complete"])
op1("qr_r", "aten.linalg_qr.default", [T("f32", [2, 5, 3]), "r"])
op1("qr_mode_err", "aten.linalg_qr.default", [T("f32", [3, 3]), "full"], error=True)
SOLVE = "aten._linalg_solve_ex.default"
op1("solve", SOLVE, [T("f32", [2, 3, 3]), T("f32", [2, 3, 4])])
op1("solve_bcast", SOLVE, [T("f64", [2, 1, 3, 3]), T("f64", [4, 3, 2])])
op1("solve_vec", SOLVE, [T("f32", [2, 3, 3]), T("f32", [3])])
op1("solve_batched_vec", SOLVE, [T("f32", [2, 3, 3]), T("f32", [2, 3])])
op1("solve_right", SOLVE, [T("f32", [2, 3, 3]), T("f32", [2, 4, 3])], {"left": False})
op1("solve_right_vec_err", SOLVE, [T("f32", [3, 3]), T("f32", [3])], {"left": False}, error=True)
op1("solve_dtype_err", SOLVE, [T("f32", [3, 3]), T("f64", [3, 2])], error=True)
op1("solve_shape_err", SOLVE, [T("f32", [3, 3]), T("f32", [4, 2])], error=True)
op1("solve_batch_err", SOLVE, [T("f32", [2, 3, 3]), T("f32", [3, 3, 2])], error=True)
op1("solve_int_err", SOLVE, [T("i64", [3, 3]), T("i64", [3, 2])], error=True)
TRI = "aten.linalg_solve_triangular.default"
op1("solve_tri", TRI, [T("f32", [2, 1, 3, 3]), T("f32", [4, 3, 2])], {"upper": True})
op1("solve_tri_right", TRI, [T("f32", [3, 3]), T("f32", [2, 3])], {"upper": False, "left": False})
op1("solve_tri_mixed", TRI, [T("f32", [3, 3]), T("f64", [3, 2])], {"upper": True})
op1("solve_tri_vec_err", TRI, [T("f32", [3, 3]), T("f32", [3])], {"upper": True}, error=True)
op1("solve_tri_int_err", TRI, [T("i64", [3, 3]), T("i64", [3, 2])], {"upper": True}, error=True)
op1("tri_solve", "aten.triangular_solve.default", [T("f32", [2, 3, 2]), T("f32", [3, 3])])
op1("tri_solve_dtype_err", "aten.triangular_solve.default", [T("f64", [3, 2]), T("f32", [3, 3])],
    error=True)
op1("tri_solve_shape_err", "aten.triangular_solve.default", [T("f32", [4, 2]), T("f32", [3, 3])],
    error=True)
op1("chol_solve", "aten.cholesky_solve.default", [T("f32", [2, 3, 2]), T("f32", [3, 3])])
op1("chol_solve_1d_err", "aten.cholesky_solve.default", [T("f32", [3]), T("f32", [3, 3])],
    error=True)
op1("chol_solve_half_err", "aten.cholesky_solve.default", [T("f16", [3, 2]), T("f16", [3, 3])],
    error=True)
PINV = "aten.linalg_pinv.atol_rtol_tensor"
op1("pinv", PINV, [T("f32", [2, 3, 5])])
op1("pinv_f64_perm", PINV, [P("f64", [2, 4, 3], [0, 2, 1])])
op1("pinv_tols", PINV, [T("f32", [3, 4])], {"atol": T("f64", []), "rtol": T("f64", [])})
op1("pinv_tol_batch", PINV, [T("f32", [2, 3, 4])], {"atol": T("f64", [2])})
op1("pinv_tol_widens", PINV, [T("f32", [1, 3, 4])], {"rtol": T("f64", [5, 1])})
op1("pinv_herm", PINV, [T("f32", [3, 3])], {"hermitian": True})
op1("pinv_empty", PINV, [T("f32", [2, 0, 3])])
op1("pinv_1d_err", PINV, [T("f32", [3])], error=True)
op1("pinv_half_err", PINV, [T("f16", [3, 3])], error=True)
op1("pinv_herm_nonsquare_err", PINV, [T("f32", [3, 4])], {"hermitian": True}, error=True)
op1("pinv_tol_err", PINV, [T("f32", [2, 3, 4])], {"atol": T("f64", [3])}, error=True)
UNPACK, LUS = "aten.lu_unpack.default", "aten.linalg_lu_solve.default"
op1("lu_unpack", UNPACK, [T("f32", [2, 4, 3]), T("i32", [2, 3])])
op1("lu_unpack_wide_i64", UNPACK, [T("i64", [3, 4]), T("i32", [3])])
op1("lu_unpack_nodata", UNPACK, [T("f32", [2, 3, 3]), T("i32", [1, 3]), False])
op1("lu_unpack_nopiv", UNPACK, [T("f32", [3, 3]), T("i64", [3]), True, False])
op1("lu_unpack_1d_err", UNPACK, [T("f32", [3]), T("i32", [3])], error=True)
op1("lu_unpack_piv_dtype_err", UNPACK, [T("f32", [3, 3]), T("i64", [3])], error=True)
op1("lu_solve", LUS, [T("f32", [2, 3, 3]), T("i32", [2, 3]), T("f32", [2, 3, 2])])
op1("lu_solve_right", LUS, [T("f64", [3, 3]), T("i32", [3]), T("f64", [4, 1, 2, 3])],
    {"left": False, "adjoint": True})
op1("lu_solve_dtype_err", LUS, [T("f32", [3, 3]), T("i32", [3]), T("f64", [3, 2])], error=True)
op1("lu_solve_piv_err", LUS, [T("f32", [3, 3]), T("i64", [3]), T("f32", [3, 2])], error=True)
op1("lu_solve_pivshape_err", LUS, [T("f32", [2, 3, 3]), T("i32", [1, 3]), T("f32", [2, 3, 2])],
    error=True)
op1("lu_solve_nonsquare_err", LUS, [T("f32", [4, 3]), T("i32", [3]), T("f32", [4, 2])],
    error=True)
LDL, LDLS = "aten.linalg_ldl_factor_ex.default", "aten.linalg_ldl_solve.default"
op1("ldl_factor", LDL, [T("f32", [2, 3, 3])])
op1("ldl_factor_f64_perm", LDL, [P("f64", [2, 3, 3], [0, 2, 1])], {"hermitian": True})
op1("ldl_factor_empty", LDL, [T("f32", [2, 0, 0])])
op1("ldl_factor_int_err", LDL, [T("i64", [3, 3])], error=True)
op1("ldl_factor_half_err", LDL, [T("f16", [3, 3])], error=True)
op1("ldl_factor_nonsquare_err", LDL, [T("f32", [3, 4])], error=True)
op1("ldl_solve", LDLS, [T("f32", [2, 3, 3]), T("i32", [2, 3]), T("f32", [2, 3, 2])])
op1("ldl_solve_i64_piv", LDLS, [T("f64", [3, 3]), T("i64", [3]), T("f64", [3, 1])])
op1("ldl_solve_1d_err", LDLS, [T("f32", [3, 3]), T("i32", [3]), T("f32", [3])], error=True)
op1("ldl_solve_dtype_err", LDLS, [T("f32", [3, 3]), T("i32", [3]), T("f64", [3, 2])], error=True)
op1("ldl_solve_pivshape_err", LDLS, [T("f32", [2, 3, 3]), T("i32", [1, 3]), T("f32", [2, 3, 2])],
    error=True)
SYM = "aten.symeig.default"
op1("symeig", SYM, [T("f32", [2, 3, 3])])
op1("symeig_vectors", SYM, [P("f64", [2, 3, 3], [0, 2, 1]), True, False])
op1("symeig_empty", SYM, [T("f32", [0, 3, 3])])
op1("symeig_int_err", SYM, [T("i64", [3, 3])], error=True)
op1("symeig_nonsquare_err", SYM, [T("f32", [3, 4])], error=True)
GEQ, HH, ORM = "aten.geqrf.default", "aten.linalg_householder_product.default", "aten.ormqr.default"
op1("geqrf", GEQ, [T("f32", [2, 4, 3])])
op1("geqrf_wide_perm", GEQ, [P("f64", [3, 2, 4], [0, 2, 1])])
op1("geqrf_empty", GEQ, [T("f32", [2, 0, 3])])
op1("geqrf_1d_err", GEQ, [T("f32", [3])], error=True)
op1("geqrf_int_err", GEQ, [T("i64", [3, 3])], error=True)
op1("householder", HH, [T("f32", [2, 4, 3]), T("f32", [2, 2])])
op1("householder_wide_err", HH, [T("f32", [3, 4]), T("f32", [3])], error=True)
op1("householder_tau_err", HH, [T("f32", [4, 3]), T("f32", [4])], error=True)
op1("householder_batch_err", HH, [T("f32", [2, 4, 3]), T("f32", [1, 3])], error=True)
op1("householder_dtype_err", HH, [T("f32", [4, 3]), T("f64", [3])], error=True)
op1("ormqr", ORM, [T("f32", [2, 4, 3]), T("f32", [2, 3]), T("f32", [2, 4, 5])])
op1("ormqr_right", ORM, [T("f64", [4, 3]), T("f64", [2]), T("f64", [5, 4]), False, True])
op1("ormqr_side_err", ORM, [T("f32", [4, 3]), T("f32", [3]), T("f32", [4, 5]), False],
    error=True)
op1("ormqr_tau_err", ORM, [T("f32", [4, 3]), T("f32", [4]), T("f32", [4, 5])], error=True)
op1("ormqr_batch_err", ORM, [T("f32", [2, 4, 3]), T("f32", [2, 3]), T("f32", [1, 4, 5])],
    error=True)
op1("ormqr_dtype_err", ORM, [T("f32", [4, 3]), T("f32", [3]), T("f64", [4, 5])], error=True)
LSQ = "aten.linalg_lstsq.default"
op1("lstsq", LSQ, [T("f32", [2, 5, 3]), T("f32", [2, 5, 2])])
op1("lstsq_under", LSQ, [T("f64", [3, 5]), T("f64", [3, 2])])
op1("lstsq_vec", LSQ, [T("f32", [2, 5, 3]), T("f32", [2, 5])])
op1("lstsq_bcast", LSQ, [T("f32", [1, 5, 3]), T("f32", [3, 5, 2])], {"driver": "gelsd"})
op1("lstsq_gels", LSQ, [T("f32", [5, 3]), T("f32", [5, 2])], {"driver": "gels"})
op1("lstsq_gelss_vec", LSQ, [T("f64", [2, 5, 3]), T("f64", [2, 5])], {"driver": "gelss"})
op1("lstsq_empty", LSQ, [T("f32", [2, 0, 3]), T("f32", [2, 0, 2])])
op1("lstsq_driver_err", LSQ, [T("f32", [5, 3]), T("f32", [5, 2])], {"driver": "gelsx"},
    error=True)
op1("lstsq_dims_err", LSQ, [T("f32", [5, 3]), T("f32", [2, 5, 2])], error=True)
op1("lstsq_rows_err", LSQ, [T("f32", [5, 3]), T("f32", [4, 2])], error=True)
op1("lstsq_dtype_err", LSQ, [T("f32", [5, 3]), T("f64", [5, 2])], error=True)
op1("lstsq_int_err", LSQ, [T("i64", [5, 3]), T("i64", [5, 2])], error=True)
MEXP = "aten.linalg_matrix_exp.default"
op1("matrix_exp", MEXP, [T("f32", [3, 3])])
op1("matrix_exp_batch", MEXP, [T("f64", [2, 3, 4, 4])])
op1("matrix_exp_transposed", MEXP, [P("f32", [3, 4, 4], [0, 2, 1])])
op1("matrix_exp_batch_inner", MEXP, [P("f32", [4, 4, 3], [2, 0, 1])])
op1("matrix_exp_batch_mid", MEXP, [P("f32", [4, 3, 4], [1, 0, 2])])
op1("matrix_exp_2d_transposed", MEXP, [P("f64", [4, 4], [1, 0])])
op1("matrix_exp_one_batch_t", MEXP, [T("f32", [1, 4, 4], [16, 1, 4])])
op1("matrix_exp_expanded", MEXP, [T("f32", [3, 2, 2], [0, 2, 1])])
op1("matrix_exp_sliced", MEXP, [T("f32", [3, 2, 2], [8, 2, 1])])
op1("matrix_exp_view_err", MEXP, [T("f32", [3, 3, 2, 2], [20, 8, 2, 1])], error=True)
op1("matrix_exp_view_perm_err", MEXP, [P("f32", [3, 5, 2, 2], [1, 0, 2, 3])], error=True)
op1("matrix_exp_1x1", MEXP, [T("f32", [3, 3, 1, 1], [5, 2, 1, 1])])
op1("matrix_exp_1x1_expanded", MEXP, [T("bf16", [3, 1, 1], [0, 1, 1])])
op1("matrix_exp_0x0", MEXP, [P("f32", [3, 5, 0, 0], [1, 0, 2, 3])])
op1("matrix_exp_empty_batch", MEXP, [P("f32", [0, 3, 3], [0, 2, 1])])
op1("matrix_exp_empty_batch_4d", MEXP, [T("f32", [2, 0, 3, 3], [9, 9, 1, 3])])
op1("matrix_exp_bf16", MEXP, [P("bf16", [2, 3, 3], [0, 2, 1])])
op1("matrix_exp_half_zeros", MEXP, [T("f16", [2, 3, 3], fill="zeros")])
op1("matrix_exp_half_0x0", MEXP, [T("f16", [2, 0, 0])])
op1("matrix_exp_half_1x1_err", MEXP, [T("f16", [0, 1, 1])], error=True)
op1("matrix_exp_1d_err", MEXP, [T("f32", [3])], error=True)
op1("matrix_exp_0d_err", MEXP, [T("f32", [])], error=True)
op1("matrix_exp_square_err", MEXP, [T("i64", [2, 3])], error=True)
op1("matrix_exp_square_0_err", MEXP, [T("f32", [0, 3])], error=True)
op1("matrix_exp_int_err", MEXP, [T("i32", [3, 3])], error=True)
op1("matrix_exp_bool_err", MEXP, [T("b8", [0, 0])], error=True)
# (_linalg_check_errors returns nothing, which these cases cannot record:
# tests/unit/test_lapack.c runs it)
op1("check_errors_dtype_err", "aten._linalg_check_errors.default",
    [T("i64", [2], fill="zeros"), "linalg.inv"], {"is_matrix": False}, error=True)
op1("isin_half_err", "aten.isin.Tensor_Tensor", [T("f16", [3]), T("f16", [2])], error=True)
op1("isin_view_err", "aten.isin.Scalar_Tensor", [1, P("i64", [2, 2], [1, 0])], error=True)
MODE = "aten.mode.default"
op1("mode", MODE, [P("f32", [3, 4, 5], [2, 0, 1]), 1, True])
op1("mode_bool", MODE, [T("b8", [4, 3])])
op1("mode_f16_0d", MODE, [T("f16", []), 0])
op1("mode_empty_err", MODE, [T("i64", [2, 0]), 1], error=True)
op1("mode_dim_err", MODE, [T("f32", [2, 3]), 2], error=True)
RN = "aten.renorm.default"
op1("renorm", RN, [P("f32", [3, 4, 2], [2, 0, 1]), 2, 0, 1.0])
op1("renorm_bf16", RN, [T("bf16", [2, 3]), 1, -1, 0.5])
op1("renorm_p_err", RN, [T("i64", [2, 3]), 0, 5, -1.0], error=True)
op1("renorm_maxnorm_err", RN, [T("f32", [2, 3]), 2, 5, -1.0], error=True)
op1("renorm_rank_err", RN, [T("f32", [3]), 2, 5, 1.0], error=True)
op1("renorm_dim_err", RN, [T("i64", [2, 3]), 2, 5, 1.0], error=True)
op1("renorm_int_err", RN, [T("i64", [2, 3]), 2, 0, 1.0], error=True)
op1("renorm_empty", RN, [T("f32", [0, 3]), float("inf"), 0, 1.0])
op1("renorm_inf_empty_err", RN, [T("f32", [2, 0, 0]), float("inf"), 2, 1.0], error=True)
op1("mvlgamma_p_overflow_err", "aten.mvlgamma.default", [T("f32", [2]), 2**62], error=True)
IR = "aten.index_reduce.default"
op1("index_reduce", IR, [P("f32", [3, 4], [1, 0]), 0, T("i64", [2], fill="zeros"),
                         T("f32", [2, 3]), "amax"], {"include_self": False})
op1("index_reduce_bcast", IR, [T("i32", [3, 4]), 1, T("i32", [2], fill="zeros"),
                               T("i32", [1, 2]), "prod"])
op1("index_reduce_0d", IR, [T("f64", []), 0, T("i64", [1], fill="zeros"), T("f64", []),
                            "mean"])
op1("index_reduce_reduce_err", IR, [T("f32", [3]), 5, T("f32", [2, 2]), T("f64", [2]), "sum"],
    error=True)
op1("index_reduce_dim_err", IR, [T("f32", [3]), 5, T("f32", [2, 2]), T("f64", [2]), "prod"],
    error=True)
op1("index_reduce_index_rank_err", IR, [T("f32", [3]), 0, T("f32", [2, 2]), T("f64", [2]),
                                        "prod"], error=True)
op1("index_reduce_index_dtype_err", IR, [T("f32", [3]), 0, T("f32", [2]), T("f64", [2]),
                                         "prod"], error=True)
op1("index_reduce_source_dtype_err", IR, [T("f32", [3, 2]), 1, T("i64", [2], fill="zeros"),
                                          T("f64", [2]), "prod"], error=True)
op1("index_reduce_source_dim_err", IR, [T("f32", [3, 2]), 1, T("i64", [2], fill="zeros"),
                                        T("f32", [2]), "prod"], error=True)
op1("index_reduce_count_err", IR, [T("f32", [3, 2]), 0, T("i64", [3], fill="zeros"),
                                   T("f32", [2, 2]), "prod"], error=True)
op1("index_reduce_slice_err", IR, [T("f32", [3, 2]), 0, T("i64", [2], fill="zeros"),
                                   T("f32", [2, 3]), "mean"], error=True)
PUT = "aten.put.default"
op1("put", PUT, [P("f32", [3, 4], [1, 0]), T("i64", [2, 2], fill="zeros"), T("f32", [4])])
op1("put_acc", PUT, [T("i32", [5]), T("i64", [], fill="zeros"), T("i32", [1]), True])
op1("put_empty", PUT, [T("f32", [0]), T("i64", [0]), T("f32", [0])])
op1("put_index_err", PUT, [T("f32", [3]), T("i32", [2], fill="zeros"), T("f64", [3])],
    error=True)
op1("put_dtype_err", PUT, [T("f32", [3]), T("i64", [2], fill="zeros"), T("f64", [3])],
    error=True)
op1("put_count_err", PUT, [T("f32", [3]), T("i64", [2], fill="zeros"), T("f32", [3])],
    error=True)
op1("put_empty_err", PUT, [T("f32", [0, 2]), T("i64", [1], fill="zeros"), T("f32", [1])],
    error=True)
BD = "aten.block_diag.default"
op1("block_diag", BD, [[T("f32", []), T("i64", [3]), P("i32", [2, 3], [1, 0])]])
op1("block_diag_empty_blocks", BD, [[T("b8", [0, 2]), T("u8", [2, 0]), T("b8", [0])]])
op1("block_diag_halves", BD, [[T("f16", [1, 1]), T("bf16", [2])]])
op1("block_diag_none", BD, [[]])
op1("block_diag_rank_err", BD, [[T("f32", [1, 1]), T("f32", [1, 1, 1])]], error=True)
MV = "aten.mvlgamma.default"
op1("mvlgamma", MV, [P("f32", [3, 4], [1, 0]), 3])
op1("mvlgamma_int", MV, [T("i64", [2]), 1])
op1("mvlgamma_bf16_0d", MV, [T("bf16", []), 2])
op1("mvlgamma_bool_err", MV, [T("b8", [2]), 0], error=True)
op1("mvlgamma_p_err", MV, [T("f16", [2]), 0], error=True)
op1("mvlgamma_half_err", MV, [T("f16", [2]), 1], error=True)
op1("frexp", "aten.frexp.Tensor", [P("f32", [3, 4, 2], [2, 0, 1])])
op1("frexp_f16_0d", "aten.frexp.Tensor", [T("f16", [])])
op1("frexp_int_err", "aten.frexp.Tensor", [T("i32", [2])], error=True)
HB = "aten.histogram.bin_ct"
HT = "aten.histogram.bins_tensor"
op1("histogram", HB, [T("f32", [3, 4]), 7], {"range": [-1.0, 2.0], "density": True})
op1("histogram_weight", HB, [T("f64", [6])], {"weight": P("f64", [2, 3], [1, 0])})
op1("histogram_tensor", HT, [P("f32", [3, 2], [1, 0]), T("f32", [5])],
    {"weight": T("f32", [6])})
op1("histogram_bins_err", HB, [T("f32", [4]), 0], {"range": [1.0, 0.0]}, error=True)
op1("histogram_range_len_err", HB, [T("f32", [4]), 2], {"range": [1.0, 2.0, 3.0]}, error=True)
op1("histogram_range_inf_err", HB, [T("f32", [4]), 2], {"range": [0.0, float("inf")]},
    error=True)
op1("histogram_range_overflow_err", HB, [T("f32", [4]), 2], {"range": [0.0, 1e308]},
    error=True)
op1("histogram_range_overflow_i64_err", HB, [T("i64", [4]), 2], {"range": [0.0, 1e308]},
    error=True)
op1("histogram_range_order_err", HB, [T("i64", [4]), 2], {"range": [2.0, 1.0]}, error=True)
# fake quantization: output and mask laid out as self (preserve); torch's
# argument checks in order (int zero points filled in range: 1 or 2)
FQT = "aten.fake_quantize_per_tensor_affine_cachemask.default"
FQQ = "aten._fake_quantize_per_tensor_affine_cachemask_tensor_qparams.default"
FQC = "aten.fake_quantize_per_channel_affine_cachemask.default"
FQLT = "aten._fake_quantize_learnable_per_tensor_affine.default"
FQLC = "aten._fake_quantize_learnable_per_channel_affine.default"
op1("fq_per_tensor_perm", FQT, [P("f32", [2, 3, 4], [2, 0, 1]), 0.1, 3, -128, 127])
op1("fq_per_tensor_sliced_f16", FQT, [T("f16", [3, 4], [8, 2]), 0.5, 0, 0, 255])
op1("fq_per_tensor_f64_0d", FQT, [T("f64", []), 0.25, 0, -8, 7])
op1("fq_per_tensor_cl", FQT, [CL("f32", [2, 3, 4, 5]), 0.25, 0, -8, 7])
op1("fq_per_tensor_order_err", FQT, [T("f32", [3]), 0.1, 3, 10, -10], error=True)
op1("fq_per_tensor_zp_err", FQT, [T("f32", [3]), 0.1, 30, -10, 10], error=True)
op1("fq_per_tensor_bf16_err", FQT, [T("bf16", [3]), 0.1, 0, -10, 10], error=True)
op1("fq_per_tensor_i64_err", FQT, [T("i64", [3]), 0.1, 0, -10, 10], error=True)
op1("fq_qparams", FQQ, [P("f32", [3, 4], [1, 0]), T("f32", [1], fill="unit"), T("i32", [1]),
                        T("i64", [1]), -128, 127])
op1("fq_qparams_0d", FQQ, [T("f16", [5]), T("f64", [], fill="unit"), T("i64", []),
                           T("i64", [1, 1]), 0, 255])
op1("fq_qparams_scale_numel_err", FQQ, [T("f32", [3]), T("f32", [2], fill="unit"), T("i32", [1]),
                                        T("i64", [1]), -128, 127], error=True)
op1("fq_qparams_zp_numel_err", FQQ, [T("f32", [3]), T("f32", [1], fill="unit"), T("i32", [0]),
                                     T("i64", [1]), -128, 127], error=True)
op1("fq_qparams_order_err", FQQ, [T("f32", [3]), T("f32", [1], fill="unit"), T("i32", [1]),
                                  T("i64", [1]), 5, -5], error=True)
op1("fq_per_channel_axis0", FQC, [P("f32", [4, 3], [1, 0]), T("f32", [3], fill="unit"),
                                  T("i32", [3]), 0, -128, 127])
op1("fq_per_channel_last_f16_zp", FQC, [T("f64", [2, 3, 4]), T("f32", [4], fill="unit"),
                                        T("f16", [4]), 2, -128, 127])
op1("fq_per_channel_float_zp", FQC, [CL("f32", [2, 3, 4, 5]), T("f32", [3], fill="unit"),
                                     T("f32", [3]), 1, 0, 255])
for name, args in [
        ("zp_dtype", [T("f32", [3, 4]), T("f32", [3]), T("i64", [3]), 0, -8, 7]),
        ("scale_dim", [T("f32", [3, 4]), T("f32", [1, 3]), T("i32", [3]), 0, -8, 7]),
        ("zp_dim", [T("f32", [3, 4]), T("f32", [3]), T("i32", [3, 1]), 0, -8, 7]),
        ("numel", [T("f32", [3, 4]), T("f32", [3]), T("i32", [2]), 0, -8, 7]),
        ("axis_range", [T("f32", [3, 4]), T("f32", [3]), T("i32", [3]), 2, -8, 7]),
        ("axis_negative", [T("f32", [3, 4]), T("f32", [4]), T("i32", [4]), -1, -8, 7]),
        ("axis_0d", [T("f32", []), T("f32", [1]), T("i32", [1]), 0, -8, 7]),
        ("size", [T("f32", [3, 4]), T("f32", [4]), T("i32", [4]), 0, -8, 7]),
        ("order", [T("f32", [3, 4]), T("f32", [3]), T("i32", [3]), 0, 8, -7]),
        ("bf16", [T("bf16", [3, 4]), T("f32", [3]), T("i32", [3]), 0, -8, 7]),
        ("scale_f64", [T("f32", [3, 4]), T("f64", [3]), T("i32", [3]), 0, -8, 7]),
        ("empty_int_zp", [T("f32", [0, 4]), T("f32", [0]), T("i32", [0]), 0, -8, 7])]:
    op1("fq_per_channel_%s_err" % name, FQC, args, error=True)
op1("fq_learnable_per_tensor", FQLT, [P("f32", [2, 3], [1, 0]), T("f32", [1], fill="unit"),
                                      T("f32", [1], fill="zeros"), -8, 7, 1.0])
op1("fq_learnable_per_tensor_first_item", FQLT, [T("f16", [4]), T("f32", [2, 1], fill="unit"),
                                                 T("f32", [3], fill="zeros"), -8, 7])
op1("fq_learnable_per_tensor_0d_err", FQLT, [T("f32", [4]), T("f32", [], fill="unit"),
                                             T("f32", [1], fill="zeros"), -8, 7], error=True)
op1("fq_learnable_per_tensor_empty_err", FQLT, [T("f32", [4]), T("f32", [1], fill="unit"),
                                                T("f32", [0]), -8, 7], error=True)
op1("fq_learnable_per_tensor_item_err", FQLT, [T("f32", [4]), T("f32", [1, 2], fill="unit"),
                                               T("f32", [1]), -8, 7], error=True)
op1("fq_learnable_per_channel", FQLC, [P("f32", [4, 3], [1, 0]), T("f32", [4], fill="unit"),
                                       T("f32", [4], fill="zeros"), 1, -8, 7, 1.0])
op1("fq_learnable_per_channel_int_zp", FQLC, [T("f64", [3, 4]), T("f32", [3], fill="unit"),
                                              T("i64", [3]), 0, -8, 7])
op1("fq_learnable_per_channel_bool_err", FQLC, [T("f32", [3, 4]), T("f32", [3], fill="unit"),
                                                T("b8", [3]), 0, -8, 7], error=True)
op1("fq_learnable_per_channel_axis_err", FQLC, [T("f32", [3, 4]), T("f32", [3], fill="unit"),
                                                T("f32", [3], fill="zeros"), -2, -8, 7],
    error=True)
# histogramdd: the N-d histogram (contiguous, self's dtype) and its edges
HDE = "aten._histogramdd_bin_edges.default"
HDC = "aten._histogramdd_from_bin_cts.default"
HDT = "aten._histogramdd_from_bin_tensors.default"
op1("histogramdd_edges", HDE, [T("f32", [5, 2]), [3, 4]], {"range": [-1.0, 1.0, 0.0, 2.0]})
op1("histogramdd_edges_int", HDE, [T("i32", [5, 3]), [1, 0, 2]],
    {"range": [-1.0, 1.0, 0.0, 2.0, 3.0, 3.0]})
op1("histogramdd_edges_long_bins", HDE, [T("f64", [2, 3, 2]), [3, 4, 5]],
    {"range": [-1.0, 1.0, 0.0, 2.0]})
op1("histogramdd_cts", HDC, [P("f32", [2, 4], [1, 0]), [3, 2]],
    {"range": [-3.0, 3.0, -3.0, 3.0], "weight": T("f32", [4]), "density": True})
op1("histogramdd_cts_3d", HDC, [T("bf16", [2, 3, 3]), [2, 2, 5]],
    {"range": [-3.0, 3.0, -3.0, 3.0, 0.0, 1.0], "weight": T("bf16", [2, 3])})
op1("histogramdd_tensors", HDT, [T("f64", [6, 2]), [T("f64", [4]), T("f64", [2])]],
    {"weight": T("f64", [6])})
for name, target, args, kw in [
        ("rank", HDC, [T("f32", [4]), [3]], {"range": [0.0, 1.0]}),
        ("range_len", HDE, [T("f32", [4, 2]), [3, 3]], {"range": [0.0, 1.0]}),
        ("range_inf", HDE, [T("f32", [4, 2]), [3, 3]], {"range": [0.0, 1.0, 0.0, float("inf")]}),
        ("range_order", HDE, [T("f32", [4, 2]), [3, 3]], {"range": [0.0, 1.0, 1.0, 0.0]}),
        ("data_dtype", HDE, [T("i64", [4, 2]), [3, 3]], {}),
        ("steps", HDE, [T("f32", [4, 2]), [3, -2]], {"range": [0.0, 1.0, 0.0, 1.0]}),
        ("overflow", HDE, [T("f32", [4, 2]), [3, 2]], {"range": [0.0, 1e300, 0.0, 1.0]}),
        ("bool", HDE, [T("b8", [4, 2]), [3, 2]], {"range": [0.0, 1.0, 0.0, 1.0]}),
        ("cts_zero_bins", HDC, [T("f32", [4, 2]), [3, 0]], {"range": [0.0, 1.0, 0.0, 1.0]}),
        ("cts_no_edges", HDC, [T("f32", [4, 2]), [-1, 2]], {"range": [0.0, 1.0, 0.0, 1.0]}),
        ("cts_weight_dtype", HDC, [T("f32", [4, 2]), [3, 2]], {"weight": T("f64", [4])}),
        ("cts_weight_shape", HDC, [T("f32", [4, 2]), [3, 2]], {"weight": T("f32", [4, 1])}),
        ("cts_int", HDC, [T("i64", [4, 2]), [3, 2]], {"range": [0.0, 1.0, 0.0, 1.0]}),
        ("cts_f16", HDC, [T("f16", [4, 2]), [3, 2]], {"range": [0.0, 1.0, 0.0, 1.0]}),
        ("tensors_count", HDT, [T("f32", [4, 2]), [T("f32", [3])]], {}),
        ("tensors_dtype", HDT, [T("f32", [4, 2]), [T("f64", [3]), T("f32", [3])]], {}),
        ("tensors_rank", HDT, [T("f32", [4, 2]), [T("f32", [1, 3]), T("f32", [3])]], {}),
        ("tensors_empty", HDT, [T("f32", [4, 2]), [T("f32", [0]), T("f32", [3])]], {}),
        ("tensors_one_edge", HDT, [T("f32", [4, 2]), [T("f32", [1]), T("f32", [3])]], {})]:
    op1("histogramdd_%s_err" % name, target, args, kw, error=True)
op1("histogram_weight_dtype_err", HB, [T("f32", [4]), 2], {"weight": T("f64", [3])},
    error=True)
op1("histogram_weight_shape_err", HB, [T("f32", [4]), 2], {"weight": T("f32", [3])},
    error=True)
op1("histogram_dtype_err", HB, [T("i64", [4]), 2], error=True)
op1("histogram_half_err", HB, [T("f16", [4]), 2], {"range": [0.0, 1.0]}, error=True)
op1("histogram_edges_dtype_err", HT, [T("f32", [4]), T("f64", [0, 2])], error=True)
op1("histogram_edges_rank_err", HT, [T("f32", [4]), T("f32", [])], error=True)
op1("histogram_edges_empty_err", HT, [T("f32", [4]), T("f32", [0])], error=True)
op1("histogram_edges_one_err", HT, [T("f32", [4]), T("f32", [1])], {"weight": T("f32", [3])},
    error=True)
op1("histogram_edges_count_err", HT, [T("f32", [4]), T("f32", [1])], error=True)
op1("histogram_edges_int_err", HT, [T("i64", [4]), T("i64", [3])], error=True)
SR = "aten.segment_reduce.default"
op1("segment_reduce", SR, [P("f32", [4, 3], [1, 0]), "max"],
    {"lengths": T("i64", [3, 2], fill="zeros"), "axis": 1, "unsafe": True})
op1("segment_reduce_offsets", SR, [T("bf16", [5, 2]), "mean"],
    {"offsets": T("i32", [4], fill="zeros"), "initial": 2})
op1("segment_reduce_axis_err", SR, [T("f32", [4]), "sum"], {"lengths": T("i64", [2]), "axis": 1},
    error=True)
op1("segment_reduce_empty_err", SR, [T("f32", [0, 2]), "sum"], {"indices": T("i64", [2])},
    error=True)
op1("segment_reduce_indices_err", SR, [T("f32", [4]), "sum"], {"indices": T("i64", [2])},
    error=True)
op1("segment_reduce_none_err", SR, [T("f32", [4]), "any"], {}, error=True)
op1("segment_reduce_reduce_err", SR, [T("i64", [4]), "any"], {"lengths": T("f32", [2, 2])},
    error=True)
op1("segment_reduce_rank_err", SR, [T("i64", [4]), "sum"], {"lengths": T("f32", [2, 2])},
    error=True)
op1("segment_reduce_last_err", SR, [T("i64", [4, 2]), "sum"], {"offsets": T("f32", [2, 2])},
    error=True)
op1("segment_reduce_no_lengths_err", SR, [T("i64", [4, 2]), "sum"],
    {"lengths": T("i64", [0]), "unsafe": False}, error=True)
op1("segment_reduce_lengths_dtype_err", SR, [T("i64", [4, 2]), "sum"],
    {"lengths": T("f32", [1], fill="zeros"), "unsafe": True}, error=True)
op1("segment_reduce_data_dtype_err", SR, [T("i64", [4, 2]), "sum"],
    {"lengths": T("i32", [1], fill="zeros"), "unsafe": True}, error=True)
op1("segment_reduce_initial_err", SR, [T("f16", [4, 2]), "sum"],
    {"lengths": T("i32", [1], fill="zeros"), "unsafe": True, "initial": 1e30}, error=True)
RR = "aten.rrelu_with_noise.default"
op1("rrelu_with_noise", RR, [P("f32", [3, 4], [1, 0]), T("f32", [2]), 0.1, 0.3, False])
op1("rrelu_with_noise_bf16", RR, [T("bf16", [3]), T("f32", [3])])
op1("rrelu_with_noise_int_err", RR, [T("i64", [3]), T("i64", [3])], error=True)
op1("rrelu_with_noise_half_err", RR, [T("f16", [3]), T("f16", [3])], error=True)
VN = "aten.linalg_vector_norm.default"
op1("vector_norm", VN, [T("f32", [3, 4, 5])])
op1("vector_norm_dims", VN, [P("f32", [3, 4, 5], [2, 0, 1]), 3.5, [-1, 0], True])
op1("vector_norm_dtype", VN, [T("f16", [3, 4]), 1, 1], {"dtype": torch.float64})
op1("vector_norm_scalar", VN, [T("f64", []), float("inf"), [0]])
op1("vector_norm_empty_dim", VN, [T("f32", [0, 3]), float("inf"), [1]])
op1("vector_norm_int_err", VN, [T("i64", [3])], error=True)
op1("vector_norm_narrow_err", VN, [T("f32", [3])], {"dtype": torch.float16}, error=True)
op1("vector_norm_int_dtype_err", VN, [T("f32", [3])], {"dtype": torch.int32}, error=True)
op1("vector_norm_empty_err", VN, [T("f32", [0, 3]), -1], error=True)
op1("vector_norm_empty_dim_err", VN, [T("f32", [0, 3]), float("-inf"), [1, -2]], error=True)
op1("vector_norm_dup_err", VN, [T("f32", [2, 3]), 2, [1, -1]], error=True)
op1("maxpool", "aten.max_pool2d_with_indices.default",
    [T("f32", [2, 3, 9, 9]), [3, 3], [2, 2], [1, 1], [1, 1], True])
op1("maxpool_default", "aten.max_pool2d_with_indices.default", [T("f32", [2, 3, 9, 9]), [3, 3]])
op1("maxpool_3d", "aten.max_pool2d_with_indices.default", [T("f32", [3, 9, 7]), [2, 3]])
op1("maxpool_cl", "aten.max_pool2d_with_indices.default", [CL("f32", [2, 3, 9, 9]), [2, 2]])
op1("maxpool_dil", "aten.max_pool2d_with_indices.default",
    [T("f32", [1, 2, 10, 10]), [3, 2], [1, 2], [1, 0], [2, 1]])
op1("maxpool_ceil", "aten.max_pool2d_with_indices.default",
    [T("f32", [1, 1, 5, 5]), [2, 2], [2, 2], [0, 0], [1, 1], True])
op1("maxpool_pad_err", "aten.max_pool2d_with_indices.default",
    [T("f32", [2, 3, 9, 9]), [2, 2], [2, 2], [2, 2]], error=True)
op1("maxpool_small_err", "aten.max_pool2d_with_indices.default",
    [T("f32", [2, 3, 2, 2]), [3, 3]], error=True)
op1("avgpool", "aten.avg_pool2d.default", [T("f32", [2, 3, 9, 9]), [3, 3], [2, 2], [1, 1],
                                           True, False, None])
op1("avgpool_default", "aten.avg_pool2d.default", [T("f32", [2, 3, 8, 8]), [2, 2]])
op1("avgpool_cl", "aten.avg_pool2d.default", [CL("f32", [2, 3, 9, 9]), [3, 3]])
op1("avgpool_perm", "aten.avg_pool2d.default", [P("f32", [2, 3, 9, 9], [0, 1, 3, 2]), [3, 3]])
op1("avgpool_3d", "aten.avg_pool2d.default", [T("f32", [3, 9, 9]), [3, 3], [1, 1], [1, 1]])
op1("adaptive_avgpool", "aten.adaptive_avg_pool2d.default", [T("f32", [2, 3, 9, 9]), [4, 3]])
op1("adaptive_avgpool_int", "aten._adaptive_avg_pool2d.default", [T("f32", [2, 3, 9, 9]),
                                                                   [4, 3]])
op1("adaptive_avgpool_cl", "aten._adaptive_avg_pool2d.default", [CL("f32", [2, 3, 9, 9]),
                                                                  [4, 3]])
op1("adaptive_avgpool_cl1", "aten.adaptive_avg_pool2d.default", [CL("f32", [2, 3, 9, 9]),
                                                                 [1, 1]])
op1("adaptive_avgpool_3d", "aten.adaptive_avg_pool2d.default", [T("f32", [3, 9, 9]), [1, 1]])

# ---------------------------------------------------------------- softmax, layer norm
op1("softmax", "aten._softmax.default", [T("f32", [2, 3]), -1, False])
op1("softmax_perm", "aten._softmax.default", [P("f32", [2, 3], [1, 0]), 0, False])
op1("log_softmax", "aten._log_softmax.default", [T("f64", [2, 3, 4]), 1, False])
op1("softmax_0d", "aten._softmax.default", [T("f32", []), 0, False])
op1("softmax_int", "aten.softmax.int", [P("f32", [2, 3], [1, 0]), 0, torch.float64])
op1("log_softmax_int", "aten.log_softmax.int", [T("f32", [2, 3]), 1])
op1("softmax_dim_err", "aten._softmax.default", [T("f32", [2, 3]), 2, False], error=True)
op1("layer_norm", "aten.native_layer_norm.default", [T("f32", [2, 3, 4]), [4], T("f32", [4]),
                                                     T("f32", [4]), 1e-05])
op1("layer_norm_2d", "aten.native_layer_norm.default", [T("f32", [2, 3, 4]), [3, 4], None, None,
                                                        1e-05])
op1("layer_norm_perm", "aten.native_layer_norm.default", [P("f32", [2, 4, 3], [0, 2, 1]), [4],
                                                          None, None, 1e-05])
op1("layer_norm_bf16", "aten.native_layer_norm.default", [T("bf16", [2, 4]), [4], None, None,
                                                          1e-05])
op1("layer_norm_shape_err", "aten.native_layer_norm.default", [T("f32", [2, 3, 4]), [3], None,
                                                               None, 1e-05], error=True)
op1("layer_norm_weight_err", "aten.native_layer_norm.default",
    [T("f32", [2, 3, 4]), [4], T("f32", [3]), None, 1e-05], error=True)
# native_batch_norm: only argument sets torch 1.13's raw op handles (it
# checks no shapes and crashes on some); airc's own refusals are unit tests
BN = T("f32", [3])
op1("batch_norm_eval", "aten.native_batch_norm.default",
    [T("f32", [2, 3, 4, 5]), BN, BN, BN, T("f32", [3]), False, 0.1, 1e-05])
op1("batch_norm_cl", "aten.native_batch_norm.default",
    [CL("f32", [2, 3, 4, 5]), None, None, BN, T("f32", [3]), False, 0.1, 1e-05])
op1("batch_norm_2d", "aten.native_batch_norm.default",
    [T("f64", [4, 3]), T("f64", [3]), None, T("f64", [3]), T("f64", [3]), False, 0.1,
     1e-05])
op1("batch_norm_bf16_f32", "aten.native_batch_norm.default",
    [T("bf16", [2, 3, 4]), BN, BN, BN, T("f32", [3]), False, 0.1, 1e-05])
op1("batch_norm_train", "aten.native_batch_norm.default",
    [T("f32", [2, 3, 4]), BN, BN, None, None, True, 0.1, 1e-05])
op1("batch_norm_train_bf16", "aten.native_batch_norm.default",
    [T("bf16", [2, 3, 4]), None, None, None, None, True, 0.1, 1e-05])
op1("batch_norm_half_err", "aten.native_batch_norm.default",
    [T("f16", [2, 3, 4]), T("f16", [3]), None, T("f16", [3]), T("f16", [3]), False,
     0.1, 1e-05], error=True)
op1("batch_norm_long_err", "aten.native_batch_norm.default",
    [T("i64", [2, 3, 4]), None, None, T("i64", [3]), T("i64", [3]), False, 0.1, 1e-05],
    error=True)
op1("repeat", "aten.repeat.default", [T("f32", [2, 3]), [2, 1]])
op1("repeat_more_dims", "aten.repeat.default", [P("f32", [2, 3], [1, 0]), [1, 2, 3]])
op1("repeat_zero", "aten.repeat.default", [T("i64", [2, 3]), [0, 2]])
op1("repeat_0d", "aten.repeat.default", [T("f32", []), [2, 3]])
op1("repeat_few_err", "aten.repeat.default", [T("f32", [2, 3]), [2]], error=True)
op1("repeat_neg_err", "aten.repeat.default", [T("f32", [2, 3]), [-1, 2]], error=True)
op1("flip", "aten.flip.default", [T("f32", [2, 3, 4]), [0, -1]])
op1("flip_cl", "aten.flip.default", [CL("f32", [2, 3, 4, 5]), [1]])
op1("flip_strided", "aten.flip.default", [P("i64", [3, 4], [1, 0]), [0]])
op1("flip_0d", "aten.flip.default", [T("b8", []), [0]])
op1("flip_dup_err", "aten.flip.default", [T("f32", [2, 3]), [0, -2]], error=True)
op1("flip_range_err", "aten.flip.default", [T("f32", [2, 3]), [2]], error=True)
op1("sort", "aten.sort.default", [T("f32", [2, 3, 4]), 1])
op1("sort_strided", "aten.sort.default", [P("i64", [3, 4], [1, 0]), 0, True])
op1("sort_cl", "aten.sort.default", [CL("bf16", [2, 3, 4, 5])])
op1("sort_0d", "aten.sort.default", [T("b8", []), -1])
op1("sort_stable", "aten.sort.stable", [T("f16", [4, 2])], {"stable": True, "dim": 0})
op1("sort_stable_none_err", "aten.sort.stable", [T("f32", [4])], {"stable": None}, error=True)
op1("sort_dim_err", "aten.sort.default", [T("f32", [4]), 1], error=True)
op1("topk", "aten.topk.default", [T("f32", [2, 5]), 3])
op1("topk_strided", "aten.topk.default", [P("i32", [3, 4, 5], [2, 0, 1]), 2, 1, False])
op1("topk_0d", "aten.topk.default", [T("f64", []), 0])
op1("topk_all", "aten.topk.default", [T("u8", [0, 3]), 0, 0])
op1("topk_big_err", "aten.topk.default", [T("f32", [2, 5]), 6], error=True)
op1("topk_neg_err", "aten.topk.default", [T("f32", [2, 5]), -1], error=True)
op1("topk_half_err", "aten.topk.default", [T("f16", [5]), 2], error=True)
op1("topk_bool_err", "aten.topk.default", [T("b8", [5]), 2], error=True)
IX = "aten.index.Tensor"
def I(shape, strides=None):
    return T("i64", shape, strides, fill="zeros")
op1("index", IX, [T("f32", [3, 4, 5]), [I([2])]])
op1("index_permuted", IX, [P("f32", [3, 4, 5], [2, 0, 1]), [I([2])]])
op1("index_permuted_mid", IX, [P("f32", [3, 4, 5], [2, 0, 1]), [None, I([2])]])
op1("index_mid", IX, [T("f16", [3, 4, 5]), [None, I([2])]])
op1("index_apart", IX, [T("f32", [3, 4, 5]), [I([2]), None, I([2])]])
op1("index_apart_0d", IX, [T("i32", [3, 4, 5]), [I([]), None, I([])]])
op1("index_broadcast", IX, [T("f32", [3, 4, 5]), [I([2]), I([2, 1])]])
op1("index_all", IX, [T("b8", [3, 4, 5]), [I([2]), I([2]), I([3, 1])]])
op1("index_cl", IX, [CL("f32", [2, 3, 4, 5]), [None, I([2])]])
op1("index_cl_last", IX, [CL("bf16", [2, 3, 4, 5]), [None, None, None, I([3])]])
op1("index_t_index", IX, [T("f32", [3, 4, 5]), [None, I([3, 2], [1, 3])]])
op1("index_expanded_index", IX, [T("f32", [3, 4, 5]), [I([2, 3], [0, 1]), I([3])]])
op1("index_0d", IX, [T("f32", [3, 4, 5]), [None, I([])]])
op1("index_trailing_none", IX, [T("f32", [3, 4, 5]), [I([1]), None, None]])
op1("index_empty_index", IX, [T("f32", [3, 4]), [I([0])]])
op1("index_empty_self", IX, [T("f32", [3, 0]), [I([2])]])
op1("index_expanded_self", IX, [T("f32", [3, 4], [1, 0]), [None, I([2])]])
op1("index_too_many_err", IX, [T("f32", [3, 4]), [I([1]), I([1]), I([1])]], error=True)
op1("index_0d_self_err", IX, [T("f32", []), [I([1])]], error=True)
op1("index_shape_err", IX, [T("f32", [3, 4]), [I([2]), I([3])]], error=True)
op1("index_int_err", IX, [T("f32", [3, 4]), [T("i32", [2], fill="zeros")]], error=True)
op1("index_size0_err", IX, [T("f32", [0, 4]), [I([1])]], error=True)
op1("index_none_err", IX, [T("f32", [3, 4]), [None]], error=True)
op1("pixel_shuffle", "aten.pixel_shuffle.default", [T("f32", [2, 8, 3, 4]), 2])
op1("adaptive_max_pool2d", "aten.adaptive_max_pool2d.default", [T("f32", [2, 3, 7, 5]), [3, 2]])
op1("adaptive_max_pool2d_cl", "aten.adaptive_max_pool2d.default", [CL("f64", [1, 4, 6, 6]), [4, 4]])
op1("adaptive_max_pool2d_3d", "aten.adaptive_max_pool2d.default", [T("bf16", [0, 3, 4]), [2, 5]])
op1("adaptive_max_pool2d_rank_err", "aten.adaptive_max_pool2d.default", [T("f32", [3, 4]), [2, 2]],
    error=True)
op1("adaptive_max_pool2d_empty_err", "aten.adaptive_max_pool2d.default",
    [T("f32", [1, 2, 0, 4]), [2, 2]], error=True)
op1("adaptive_max_pool2d_int_err", "aten.adaptive_max_pool2d.default",
    [T("i64", [1, 2, 3, 4]), [2, 2]], error=True)
ER, ER_ = "aten.embedding_renorm.default", "aten.embedding_renorm_.default"
op1("embedding_renorm", ER, [T("f32", [5, 3]), T("i64", [4], fill="zeros"), 1.0, 2.0])
op1("embedding_renorm_t", ER, [P("f64", [3, 5], [1, 0]), T("i32", [2, 2], fill="zeros"), 0.5, 1.0])
op1("embedding_renorm_inplace", ER_, [T("bf16", [5, 3]), T("i64", [3], fill="zeros"), 1.0, 2.0])
op1("embedding_renorm_int_empty", ER_, [T("i64", [5, 3]), T("i64", [0]), 1.0, 2.0])
op1("embedding_renorm_int_err", ER_, [T("i64", [5, 3]), T("i64", [2], fill="zeros"), 1.0, 2.0],
    error=True)
op1("embedding_renorm_dim_err", ER_, [T("f32", [2, 5, 3]), T("f32", [2]), 1.0, 2.0], error=True)
op1("embedding_renorm_idx_err", ER, [T("f32", [5, 3]), T("f32", [2]), 1.0, 2.0], error=True)
CTC, CTCT = "aten._ctc_loss.default", "aten._ctc_loss.Tensor"
op1("ctc_loss", CTC, [T("f32", [5, 2, 4]), T("i64", [2, 3], fill="zeros"), [5, 4], [3, 2]])
op1("ctc_loss_1d", CTC, [T("f64", [5, 2, 4]), T("i32", [5], fill="zeros"), [5, 4], [3, 2], 3, True])
op1("ctc_loss_b0", CTC, [T("f32", [5, 0, 4]), T("i64", [0, 3], fill="zeros"), [], []])
op1("ctc_loss_tensor", CTCT, [T("f32", [5, 2, 4]), T("i64", [2, 0]), T("i64", [2], fill="unit"),
                              T("i32", [2], fill="zeros")])
op1("ctc_loss_half_err", CTC, [T("f16", [5, 2, 4]), T("i64", [2, 3]), [5, 4], [3, 2]], error=True)
op1("ctc_loss_tdtype_err", CTC, [T("f32", [5, 2, 4]), T("f32", [2, 3]), [5, 4], [3, 2]], error=True)
op1("ctc_loss_dim_err", CTC, [T("f32", [5, 2]), T("i64", [2, 3]), [5, 4], [3, 2]], error=True)
op1("ctc_loss_tdim_err", CTC, [T("f32", [5, 2, 4]), T("i64", [1, 2, 3]), [5, 4], [3, 2]],
    error=True)
op1("ctc_loss_blank_err", CTC, [T("f32", [5, 2, 4]), T("i64", [2, 3]), [5, 4], [3, 2], 4],
    error=True)
op1("ctc_loss_il_err", CTC, [T("f32", [5, 2, 4]), T("i64", [2, 3]), [5], [3, 2]], error=True)
op1("ctc_loss_tl_err", CTC, [T("f32", [5, 2, 4]), T("i64", [2, 3]), [5, 4], [3, 2, 1]],
    error=True)
op1("ctc_loss_rows_err", CTC, [T("f32", [5, 2, 4]), T("i64", [1, 3]), [5, 4], [3, 2]], error=True)
op1("ctc_loss_cols_err", CTC, [T("f32", [5, 2, 4]), T("i64", [2, 3]), [5, 4], [4, 2]], error=True)
op1("ctc_loss_1d_err", CTC, [T("f32", [5, 2, 4]), T("i64", [6]), [5, 4], [3, 2]], error=True)
op1("ctc_loss_long_err", CTC, [T("f32", [5, 2, 4]), T("i64", [2, 3]), [6, 4], [3, 2]], error=True)
op1("ctc_loss_tensor_float_err", CTCT, [T("f32", [5, 2, 4]), T("i64", [2, 3]), T("f32", [2]),
                                        T("i64", [2])], error=True)
op1("ctc_loss_tensor_bool_err", CTCT, [T("f32", [5, 2, 4]), T("i64", [2, 3]), T("i64", [2]),
                                       T("b8", [2])], error=True)
FMP2, FMP3 = "aten.fractional_max_pool2d.default", "aten.fractional_max_pool3d.default"
op1("fractional_max_pool2d", FMP2, [T("f32", [2, 3, 7, 8]), [2, 3], [4, 5], T("f32", [2, 3, 2])])
op1("fractional_max_pool2d_3d_t", FMP2, [P("f64", [7, 8, 3], [2, 0, 1]), [3, 4], [5, 5],
                                          T("f64", [1, 3, 2])])
op1("fractional_max_pool2d_out0", FMP2, [T("f32", [0, 3, 7, 8]), [2, 2], [0, 5], T("f32", [0, 3, 2])])
op1("fractional_max_pool2d_k_err", FMP2, [T("f32", [2, 3, 7, 8]), [2], [4, 5], T("f32", [2, 3, 2])],
    error=True)
op1("fractional_max_pool2d_o_err", FMP2, [T("f32", [2, 3, 7, 8]), [2, 2], [4], T("f32", [2, 3, 2])],
    error=True)
op1("fractional_max_pool2d_dim_err", FMP2, [T("f32", [7, 8]), [2, 2], [4, 5], T("f32", [1, 1, 2])],
    error=True)
op1("fractional_max_pool2d_empty_err", FMP2, [T("f32", [2, 0, 7, 8]), [2, 2], [4, 5],
                                              T("f32", [2, 3, 2])], error=True)
op1("fractional_max_pool2d_pool_err", FMP2, [T("i64", [2, 3, 7, 8]), [4, 3], [5, 5],
                                             T("i64", [2, 3, 2])], error=True)
op1("fractional_max_pool2d_neg_err", FMP2, [T("f32", [2, 3, 7, 8]), [2, 2], [-1, 5],
                                            T("f32", [2, 3, 2])], error=True)
op1("fractional_max_pool2d_dtype_err", FMP2, [T("f16", [2, 3, 7, 8]), [2, 2], [4, 5],
                                              T("f16", [2, 3, 2])], error=True)
op1("fractional_max_pool2d_samples_err", FMP2, [T("f32", [2, 3, 7, 8]), [2, 2], [4, 5],
                                                T("f64", [2, 3, 2])], error=True)
op1("fractional_max_pool3d", FMP3, [T("f32", [2, 3, 6, 7, 8]), [2, 2, 3], [4, 5, 5],
                                    T("f32", [2, 3, 3])])
op1("fractional_max_pool3d_4d", FMP3, [CL("f64", [3, 6, 7, 8]), [1, 2, 3], [3, 5, 5],
                                       T("f64", [1, 3, 3])])
op1("fractional_max_pool3d_edge_err", FMP3, [T("f32", [2, 3, 6, 7, 8]), [2, 2, 3], [5, 5, 5],
                                             T("f32", [2, 3, 3])], error=True)
op1("fractional_max_pool3d_w_err", FMP3, [T("f32", [2, 3, 6, 7, 8]), [2, 2, 4], [4, 5, 5],
                                          T("f32", [2, 3, 3])], error=True)
op1("fractional_max_pool3d_k_err", FMP3, [T("f32", [2, 3, 6, 7, 8]), [2, 2], [4, 5, 5],
                                          T("f32", [2, 3, 3])], error=True)
op1("fractional_max_pool3d_dim_err", FMP3, [T("f32", [6, 7, 8]), [2, 2, 2], [4, 5, 5],
                                            T("f32", [1, 1, 3])], error=True)
op1("fractional_max_pool3d_dtype_err", FMP3, [T("i64", [2, 3, 6, 7, 8]), [2, 2, 2], [4, 5, 5],
                                              T("i64", [2, 3, 3])], error=True)
op1("grid_sampler_2d", "aten.grid_sampler_2d.default",
    [T("f32", [2, 3, 4, 5]), T("f32", [2, 6, 7, 2]), 0, 0, False])
op1("grid_sampler_2d_cl", "aten.grid_sampler_2d.default",
    [CL("f64", [1, 3, 4, 5]), T("f64", [1, 2, 2, 2]), 2, 2, True])
op1("grid_sampler_2d_last_err", "aten.grid_sampler_2d.default",
    [T("f32", [2, 3, 4, 5]), T("f32", [2, 6, 7, 3]), 1, 1, False], error=True)
op1("grid_sampler_2d_batch_err", "aten.grid_sampler_2d.default",
    [T("f32", [2, 3, 4, 5]), T("f32", [1, 6, 7, 2]), 0, 0, False], error=True)
op1("grid_sampler_2d_dtype_err", "aten.grid_sampler_2d.default",
    [T("f32", [2, 3, 4, 5]), T("f64", [2, 6, 7, 2]), 0, 0, False], error=True)
op1("grid_sampler_2d_empty_err", "aten.grid_sampler_2d.default",
    [T("f32", [2, 3, 0, 5]), T("f32", [2, 6, 7, 2]), 0, 0, False], error=True)
op1("grid_sampler_3d", "aten.grid_sampler_3d.default",
    [T("f32", [2, 3, 4, 5, 2]), T("f32", [2, 6, 7, 1, 3]), 0, 0, False])
op1("grid_sampler_3d_cl", "aten.grid_sampler_3d.default",
    [P("f64", [1, 3, 4, 5, 2], [0, 2, 3, 4, 1]), T("f64", [1, 2, 2, 2, 3]), 1, 2, True])
op1("grid_sampler_3d_empty_out", "aten.grid_sampler_3d.default",
    [T("f32", [0, 3, 4, 5, 2]), T("f32", [0, 2, 0, 2, 3]), 1, 1, False])
op1("grid_sampler_3d_last_err", "aten.grid_sampler_3d.default",
    [T("f32", [2, 3, 4, 5, 2]), T("f32", [2, 6, 7, 1, 2]), 1, 1, False], error=True)
op1("grid_sampler_3d_batch_err", "aten.grid_sampler_3d.default",
    [T("i64", [2, 3, 4, 5, 2]), T("f32", [1, 6, 7, 1, 3]), 0, 0, False], error=True)
op1("grid_sampler_3d_4d_err", "aten.grid_sampler_3d.default",
    [T("f32", [2, 3, 4, 5]), T("f32", [2, 6, 7, 2]), 0, 0, False], error=True)
op1("grid_sampler_3d_bicubic_err", "aten.grid_sampler_3d.default",
    [T("f32", [2, 3, 4, 5, 2]), T("f32", [2, 6, 7, 1, 3]), 2, 0, False], error=True)
op1("grid_sampler_3d_dtype_err", "aten.grid_sampler_3d.default",
    [T("f32", [2, 3, 4, 5, 2]), T("f64", [2, 6, 7, 1, 3]), 0, 0, False], error=True)
op1("grid_sampler_3d_int_err", "aten.grid_sampler_3d.default",
    [T("f16", [2, 3, 4, 5, 2]), T("f16", [2, 6, 7, 1, 3]), 0, 0, False], error=True)
op1("grid_sampler_3d_empty_err", "aten.grid_sampler_3d.default",
    [T("f32", [2, 3, 4, 0, 2]), T("f32", [2, 6, 7, 1, 3]), 0, 0, False], error=True)
op1("im2col", "aten.im2col.default", [T("f32", [2, 3, 5, 6]), [2, 3], [1, 1], [1, 0], [2, 1]])
op1("im2col_3d_cl", "aten.im2col.default", [CL("f64", [2, 3, 4, 4]), [2, 2], [2, 1], [0, 1], [1, 1]])
op1("im2col_small_err", "aten.im2col.default", [T("f32", [1, 2, 3, 3]), [5, 2], [1, 1], [0, 0],
                                                [1, 1]], error=True)
op1("im2col_pad_err", "aten.im2col.default", [T("f32", [1, 2, 3, 3]), [2, 2], [1, 1], [-1, 0],
                                              [1, 1]], error=True)
op1("im2col_int_err", "aten.im2col.default", [T("i64", [1, 2, 3, 3]), [2, 2], [1, 1], [0, 0],
                                              [1, 1]], error=True)
op1("col2im", "aten.col2im.default", [T("f32", [2, 12, 20]), [5, 6], [2, 2], [1, 1], [0, 0],
                                      [1, 1]])
op1("col2im_2d", "aten.col2im.default", [T("bf16", [12, 6]), [5, 6], [2, 3], [1, 1], [1, 0],
                                         [2, 2]])
op1("col2im_div_err", "aten.col2im.default", [T("f32", [2, 11, 20]), [5, 6], [2, 2], [1, 1],
                                              [0, 0], [1, 1]], error=True)
op1("col2im_blocks_err", "aten.col2im.default", [T("f32", [2, 12, 21]), [5, 6], [2, 2], [1, 1],
                                                 [0, 0], [1, 1]], error=True)
op1("pixel_unshuffle", "aten.pixel_unshuffle.default", [T("f32", [2, 2, 4, 6]), 2])
op1("pixel_unshuffle_cl", "aten.pixel_unshuffle.default", [CL("f32", [2, 3, 4, 6]), 2])
op1("pixel_unshuffle_3d", "aten.pixel_unshuffle.default", [T("i64", [3, 9, 6]), 3])
op1("pixel_unshuffle_div_err", "aten.pixel_unshuffle.default", [T("f32", [1, 2, 4, 5]), 2],
    error=True)
op1("pixel_unshuffle_rank_err", "aten.pixel_unshuffle.default", [T("f32", [4, 4]), 2], error=True)
op1("reflection_pad1d", "aten.reflection_pad1d.default", [T("f32", [2, 5]), [2, 1]])
op1("reflection_pad1d_3d", "aten.reflection_pad1d.default", [T("f32", [1, 2, 5]), [-1, 3]])
op1("reflection_pad1d_big_err", "aten.reflection_pad1d.default", [T("f32", [2, 3]), [3, 0]],
    error=True)
op1("replication_pad1d", "aten.replication_pad1d.default", [T("f64", [1, 2, 4]), [4, -2]])
op1("replication_pad1d_rank_err", "aten.replication_pad1d.default",
    [T("f32", [1, 2, 3, 4]), [1, 1]], error=True)
op1("replication_pad1d_crop_err", "aten.replication_pad1d.default", [T("f32", [2, 3]), [-2, -1]],
    error=True)
op1("upsample_bicubic2d", "aten.upsample_bicubic2d.vec", [T("f32", [1, 2, 4, 5]), None, False,
                                                         [1.5, 2.0]])
op1("upsample_bicubic2d_cl", "aten.upsample_bicubic2d.vec", [CL("f32", [1, 2, 4, 5]), [7, 3], True,
                                                            None])
op1("upsample_bicubic2d_u8_err", "aten.upsample_bicubic2d.vec", [T("u8", [1, 2, 4, 5]), [7, 3],
                                                                True, None], error=True)
op1("upsample_nearest1d", "aten.upsample_nearest1d.vec", [T("f32", [1, 2, 5]), None, [2.0]])
op1("upsample_linear1d", "aten.upsample_linear1d.vec", [T("f32", [2, 2, 5]), [7], True, None])
op1("upsample_linear1d_default", "aten.upsample_linear1d.default",
    [T("f64", [1, 3, 4]), [9], False])
op1("upsample_linear1d_rank_err", "aten.upsample_linear1d.vec",
    [T("f32", [1, 2, 5, 5]), [7], True, None], error=True)
op1("upsample_nearest1d_two_err", "aten.upsample_nearest1d.vec",
    [T("f32", [1, 2, 5]), None, [2.0, 2.0]], error=True)
op1("upsample_nearest3d", "aten.upsample_nearest3d.vec", [T("f32", [1, 2, 3, 4, 5]), None,
                                                         [2.0, 1.5, 0.7]])
op1("upsample_nearest3d_cl", "aten.upsample_nearest3d.vec", [CL3("u8", [2, 3, 2, 3, 4]), [3, 5, 2],
                                                            None])
op1("upsample_nearest3d_cl_unit_c", "aten.upsample_nearest3d.vec",
    [CL3("f32", [2, 1, 2, 3, 4]), [3, 5, 2], None])
op1("upsample_nearest3d_empty_batch", "aten.upsample_nearest3d.vec",
    [CL3("f32", [0, 2, 2, 3, 4]), None, [2.0, 2.0, 2.0]])
op1("upsample_nearest3d_default", "aten.upsample_nearest3d.default",
    [T("bf16", [1, 2, 3, 4, 5]), [2, 2, 2], None, 0.5, None])
op1("upsample_trilinear3d", "aten.upsample_trilinear3d.vec",
    [P("f64", [1, 2, 3, 4, 5], [0, 1, 3, 2, 4]), [4, 5, 6], True, None])
op1("upsample_trilinear3d_cl", "aten.upsample_trilinear3d.vec",
    [CL3("f32", [2, 3, 2, 3, 4]), None, False, [1.5, 2.0, 0.5]])
op1("upsample_trilinear3d_default", "aten.upsample_trilinear3d.default",
    [T("f32", [1, 2, 3, 4, 5]), [6, 8, 10], False, 2.0, 2.0, 2.0])
op1("upsample_nearest3d_two_err", "aten.upsample_nearest3d.vec",
    [T("f32", [1, 2, 3, 4, 5]), None, [2.0, 2.0]], error=True)
op1("upsample_nearest3d_both_err", "aten.upsample_nearest3d.vec",
    [T("f32", [1, 2, 3, 4, 5]), [2, 2, 2], [2.0, 2.0, 2.0]], error=True)
op1("upsample_nearest3d_rank_err", "aten.upsample_nearest3d.vec",
    [T("f32", [2, 3, 4, 5]), None, [2.0, 2.0, 2.0]], error=True)
op1("upsample_nearest3d_zero_out_err", "aten.upsample_nearest3d.vec",
    [T("f32", [1, 2, 3, 4, 5]), None, [0.1, 2.0, 2.0]], error=True)
op1("upsample_nearest3d_empty_c_err", "aten.upsample_nearest3d.vec",
    [T("f32", [1, 0, 3, 4, 5]), None, [2.0, 2.0, 2.0]], error=True)
op1("upsample_nearest3d_f16_err", "aten.upsample_nearest3d.vec",
    [T("f16", [1, 2, 3, 4, 5]), [2, 2, 2], None], error=True)
op1("upsample_trilinear3d_u8_err", "aten.upsample_trilinear3d.vec",
    [T("u8", [1, 2, 3, 4, 5]), [2, 2, 2], False, None], error=True)
op1("upsample_trilinear3d_default_size_err", "aten.upsample_trilinear3d.default",
    [T("f32", [1, 2, 3, 4, 5]), [2, 2], False], error=True)
op1("upsample_trilinear3d_empty_d_err", "aten.upsample_trilinear3d.vec",
    [T("f32", [1, 2, 0, 4, 5]), [1, 2, 2], True, None], error=True)
op1("upsample_nearest2d_empty_c_err", "aten.upsample_nearest2d.vec",
    [T("f32", [1, 0, 3, 4]), None, [2.0, 2.0]], error=True)
op1("upsample_nearest_exact1d", "aten._upsample_nearest_exact1d.vec",
    [T("u8", [2, 3, 5]), None, [1.5]])
op1("upsample_nearest_exact1d_default", "aten._upsample_nearest_exact1d.default",
    [T("f64", [1, 2, 4]), [7], 1.75])
op1("upsample_nearest_exact2d_cl", "aten._upsample_nearest_exact2d.vec",
    [CL("f32", [2, 3, 4, 5]), [7, 3], None])
op1("upsample_nearest_exact2d_default", "aten._upsample_nearest_exact2d.default",
    [T("f32", [1, 2, 4, 5]), [3, 9], None, 1.8])
op1("upsample_nearest_exact3d_cl", "aten._upsample_nearest_exact3d.vec",
    [CL3("f32", [2, 3, 2, 3, 4]), None, [1.5, 2.0, 0.5]])
op1("upsample_nearest_exact3d_default", "aten._upsample_nearest_exact3d.default",
    [T("u8", [1, 2, 3, 4, 5]), [2, 5, 4], None, None, None])
op1("upsample_nearest_exact2d_bf16_err", "aten._upsample_nearest_exact2d.vec",
    [T("bf16", [1, 2, 3, 4]), [2, 2], None], error=True)
op1("upsample_nearest_exact2d_bf16_empty_batch_err", "aten._upsample_nearest_exact2d.vec",
    [T("bf16", [0, 2, 3, 4]), [2, 2], None], error=True)
op1("upsample_nearest_exact1d_rank_err", "aten._upsample_nearest_exact1d.vec",
    [T("f32", [1, 2, 3, 4]), [2], None], error=True)
op1("upsample_nearest_exact3d_empty_c_err", "aten._upsample_nearest_exact3d.vec",
    [T("bf16", [1, 0, 3, 4, 5]), None, [2.0, 2.0, 2.0]], error=True)
op1("upsample_bilinear2d_aa", "aten._upsample_bilinear2d_aa.vec",
    [T("f32", [1, 3, 8, 9]), None, False, [0.5, 0.3]])
op1("upsample_bilinear2d_aa_cl", "aten._upsample_bilinear2d_aa.vec",
    [CL("f64", [2, 3, 6, 7]), [3, 10], True, None])
op1("upsample_bilinear2d_aa_default", "aten._upsample_bilinear2d_aa.default",
    [T("f32", [1, 2, 6, 8]), [3, 4], False, 0.5, 0.5])
op1("upsample_bicubic2d_aa", "aten._upsample_bicubic2d_aa.vec",
    [P("f32", [1, 2, 6, 5], [0, 1, 3, 2]), [4, 2], False, None])
op1("upsample_bicubic2d_aa_cl", "aten._upsample_bicubic2d_aa.vec",
    [CL("f32", [1, 3, 6, 5]), None, True, [1.5, 0.5]])
op1("upsample_bicubic2d_aa_default", "aten._upsample_bicubic2d_aa.default",
    [T("f64", [2, 1, 5, 5]), [2, 8], True, None, None])
op1("upsample_bilinear2d_aa_u8_err", "aten._upsample_bilinear2d_aa.vec",
    [T("u8", [1, 2, 4, 5]), [2, 3], False, None], error=True)
op1("upsample_bicubic2d_aa_bf16_err", "aten._upsample_bicubic2d_aa.vec",
    [T("bf16", [1, 2, 4, 5]), [2, 3], False, None], error=True)
op1("upsample_bicubic2d_aa_f16_zero_out_err", "aten._upsample_bicubic2d_aa.vec",
    [T("f16", [1, 2, 4, 5]), [0, 3], False, None], error=True)
op1("upsample_bilinear2d_aa_both_err", "aten._upsample_bilinear2d_aa.vec",
    [T("f32", [1, 2, 4, 5]), [2, 3], False, [0.5, 0.5]], error=True)
op1("upsample_bilinear2d_aa_empty_h_err", "aten._upsample_bilinear2d_aa.vec",
    [T("f32", [1, 2, 0, 5]), [2, 3], False, None], error=True)
op1("upsample_bilinear2d_aa_i64_empty_c_err", "aten._upsample_bilinear2d_aa.vec",
    [T("i64", [1, 0, 4, 5]), [2, 3], False, None], error=True)
op1("pixel_shuffle_cl", "aten.pixel_shuffle.default", [CL("f32", [2, 8, 3, 4]), 2])
op1("pixel_shuffle_5d", "aten.pixel_shuffle.default", [T("i64", [2, 2, 9, 1, 2]), 3])
op1("pixel_shuffle_div_err", "aten.pixel_shuffle.default", [T("f32", [2, 7, 3, 4]), 2],
    error=True)
op1("pixel_shuffle_rank_err", "aten.pixel_shuffle.default", [T("f32", [4, 3]), 2], error=True)
op1("roll", "aten.roll.default", [P("f32", [3, 4, 5], [2, 0, 1]), [1, -1], [0, 2]])
op1("roll_flat", "aten.roll.default", [T("f32", [3, 1], [1, 0]), [2]])
op1("roll_align_err", "aten.roll.default", [T("f32", [3, 4]), [1, 2], [0]], error=True)
op1("roll_0d_err", "aten.roll.default", [T("f32", []), [1], [0]], error=True)
op1("reflection_pad2d", "aten.reflection_pad2d.default", [CL("f32", [1, 2, 3, 4]), [1, 2, 2, 0]])
op1("reflection_pad2d_crop", "aten.reflection_pad2d.default", [T("f32", [2, 3, 4]), [-1, 1, 0, -2]])
op1("reflection_pad2d_big_err", "aten.reflection_pad2d.default",
    [T("f32", [2, 3, 4]), [4, 0, 0, 0]], error=True)
op1("replication_pad2d", "aten.replication_pad2d.default", [T("f64", [1, 2, 3, 4]), [5, 0, 0, 6]])
op1("replication_pad2d_rank_err", "aten.replication_pad2d.default",
    [T("f32", [3, 4]), [1, 1, 1, 1]], error=True)
op1("reflection_pad3d", "aten.reflection_pad3d.default",
    [CL3("f32", [1, 2, 3, 4, 2]), [1, 0, 2, 3, 2, 1]])
op1("reflection_pad3d_4d", "aten.reflection_pad3d.default", [T("f16", [2, 3, 4, 5]), [-1, 1, 0, -2, 2, 0]])
op1("reflection_pad3d_empty_batch", "aten.reflection_pad3d.default",
    [T("f64", [0, 2, 2, 2, 2]), [1, 1, 1, 1, 1, 1]])
op1("reflection_pad3d_crop_dw", "aten.reflection_pad3d.default",
    [T("f32", [1, 2, 3, 3, 3]), [-3, 0, 1, 1, -3, 0]])
op1("reflection_pad3d_big_err", "aten.reflection_pad3d.default",
    [T("f32", [1, 2, 3, 4, 5]), [0, 0, 0, 0, 3, 0]], error=True)
op1("reflection_pad3d_small_err", "aten.reflection_pad3d.default",
    [T("f32", [1, 2, 3, 3, 3]), [-3, 0, -3, 0, -3, 0]], error=True)
op1("reflection_pad3d_neg_err", "aten.reflection_pad3d.default",
    [T("f32", [1, 2, 3, 3, 3]), [1, 1, -3, -1, 1, 1]], error=True)
op1("reflection_pad3d_empty_err", "aten.reflection_pad3d.default",
    [T("f32", [1, 0, 3, 3, 3]), [1, 1, 1, 1, 1, 1]], error=True)
op1("reflection_pad3d_len_err", "aten.reflection_pad3d.default",
    [T("f32", [1, 2, 3, 3, 3]), [1, 1, 1, 1]], error=True)
op1("replication_pad3d", "aten.replication_pad3d.default",
    [P("f64", [2, 3, 4, 2, 3], [4, 0, 1, 2, 3]), [5, 0, 0, 6, 1, -2]])
op1("replication_pad3d_4d", "aten.replication_pad3d.default", [T("f32", [2, 1, 2, 3]), [0, 0, 0, 0, -2, 1]])
op1("replication_pad3d_rank_err", "aten.replication_pad3d.default",
    [T("f32", [1, 2, 3, 4, 5, 6]), [1, 1, 1, 1, 1, 1]], error=True)
op1("replication_pad3d_3d_err", "aten.replication_pad3d.default",
    [T("f32", [3, 4, 5]), [1, 1, 1, 1, 1, 1]], error=True)
op1("replication_pad3d_empty_batch_neg_err", "aten.replication_pad3d.default",
    [T("f32", [0, 2, 3, 3, 3]), [1, 1, 1, 1, -4, 0]], error=True)
op1("baddbmm", "aten.baddbmm.default",
    [T("f32", [4, 1]), T("f32", [2, 4, 5]), P("f32", [2, 3, 5], [0, 2, 1])], {"beta": 0.5})
op1("baddbmm_self_dtype", "aten.baddbmm.default",
    [T("i32", [1]), T("f64", [2, 1, 2]), T("f64", [2, 2, 3])])
op1("baddbmm_batch_err", "aten.baddbmm.default",
    [T("f32", [1]), T("f32", [2, 1, 2]), T("f32", [3, 2, 3])], error=True)
op1("baddbmm_bias_err", "aten.baddbmm.default",
    [T("f32", [4]), T("f32", [2, 1, 2]), T("f32", [2, 2, 3])], error=True)
IP = "aten.index_put.default"
op1("index_put", IP, [P("f32", [3, 4], [1, 0]), [None, I([2])], T("f32", [2])])
op1("index_put_acc", IP, [T("i64", [3, 4]), [I([2])], T("i64", [1, 4]), True])
op1("index_put_mask", IP, [CL("f32", [2, 3, 4, 5]), [None, T("b8", [3, 4], fill="zeros")],
                          T("f32", [])])
op1("index_put_mask_fill_dtype", IP, [T("f32", [3]), [T("b8", [3], fill="zeros")],
                                      T("f64", [1, 1])])
op1("index_put_inplace", "aten.index_put_.default", [P("f32", [3, 4], [1, 0]), [I([2])],
                                                      T("f32", [])])
op1("index_put_dtype_err", IP, [T("f32", [3, 4]), [I([2])], T("f64", [4])], error=True)
op1("index_put_shape_err", IP, [T("f32", [3, 4]), [I([2])], T("f32", [3])], error=True)
op1("index_put_mask_shape_err", IP, [T("f32", [3, 4]), [T("b8", [4], fill="zeros")],
                                     T("f32", [])], error=True)
op1("prelu", "aten.prelu.default", [P("f32", [2, 3, 4], [0, 2, 1]), T("f32", [4])])
op1("prelu_cl", "aten.prelu.default", [CL("f32", [2, 3, 4, 5]), T("f32", [1])])
op1("prelu_count_err", "aten.prelu.default", [T("f32", [2, 3, 4]), T("f32", [4])], error=True)
op1("prelu_rank_err", "aten.prelu.default", [T("f32", [2, 3]), T("f32", [3, 1])], error=True)
op1("glu", "aten.glu.default", [P("f32", [2, 3, 4], [0, 2, 1]), 1])
op1("glu_odd_err", "aten.glu.default", [T("f32", [2, 3]), -1], error=True)
op1("scatter", "aten.scatter.src", [P("f32", [3, 4], [1, 0]), 0, I([2, 3]), T("f32", [2, 3])])
op1("scatter_value", "aten.scatter.value", [T("i64", [3, 4]), 1, I([3, 2]), 2.7])
op1("scatter_add", "aten.scatter_add.default", [T("f32", [2, 3]), 1, I([2, 2]), T("f32", [2, 3])])
op1("scatter_inplace", "aten.scatter_.src", [P("f32", [3, 4], [1, 0]), 0, I([1, 1]),
                                              T("f32", [1, 1])])
op1("scatter_dtype_err", "aten.scatter.src", [T("f32", [3, 4]), 0, I([2, 3]), T("f64", [2, 3])],
    error=True)
op1("scatter_size_err", "aten.scatter.src", [T("f32", [3, 4]), 1, I([4, 2]), T("f32", [4, 2])],
    error=True)
IC = "aten.index_copy.default"
op1("index_copy", IC, [P("f32", [3, 4], [1, 0]), 1, I([2]), T("f32", [4, 2])])
op1("index_copy_0d", IC, [T("i64", [3, 4]), 0, I([]), T("i64", [1, 4])])
op1("index_copy_inplace", "aten.index_copy_.default", [P("f32", [3, 4], [1, 0]), 0, I([1]),
                                                        T("f32", [1, 3])])
op1("index_copy_count_err", IC, [T("f32", [3, 4]), 0, I([2]), T("f32", [3, 4])], error=True)
op1("index_copy_rank_err", IC, [T("f32", [3, 4]), 0, I([1, 1]), T("f32", [1, 4])], error=True)
op1("index_copy_dtype_err", IC, [T("f32", [3, 4]), 0, I([1]), T("f64", [1, 4])], error=True)
GN = "aten.native_group_norm.default"
op1("group_norm", GN, [T("f32", [2, 6, 3, 4]), T("f32", [6]), T("f32", [6]), 2, 6, 12, 3, 1e-05])
op1("group_norm_cl", GN, [CL("f32", [2, 6, 3, 4]), None, None, 2, 6, 12, 2, 1e-05])
op1("group_norm_3d_bf16", GN, [T("bf16", [2, 4, 5]), None, None, 2, 4, 5, 4, 1e-05])
op1("group_norm_divisible_err", GN, [T("f32", [2, 6, 3]), None, None, 2, 6, 3, 4, 1e-05],
    error=True)
op1("group_norm_numel_err", GN, [T("f32", [2, 6, 3]), None, None, 2, 6, 4, 3, 1e-05],
    error=True)
op1("group_norm_weight_err", GN, [T("f32", [2, 6, 3]), T("f32", [5]), None, 2, 6, 3, 3, 1e-05],
    error=True)
op1("group_norm_strided_err", GN, [P("f32", [2, 3, 6], [0, 2, 1]), None, None, 2, 6, 3, 3,
                                   1e-05], error=True)
op1("group_norm_groups_err", GN, [T("f32", [2, 6, 3]), None, None, 2, 6, 3, 0, 1e-05],
    error=True)

# ---------------------------------------------------------------- copies, creation
ODD = T("f32", [2, 1, 3], [3, 7, 1])
NONDENSE = T("f32", [3, 2], [1, 6])
for nm, x in [("perm", XP), ("odd", ODD), ("nondense", NONDENSE),
              ("expanded", T("f32", [3, 4], [1, 0])), ("cl", CL("f32", [2, 3, 4, 5])),
              ("empty_narrow", T("f32", [2, 0], [3, 1]))]:
    op1("clone_" + nm, "aten.clone.default", [x])
    op1("to_copy_" + nm, "aten._to_copy.default", [x], {"dtype": torch.float64})
    op1("ones_like_" + nm, "aten.ones_like.default", [x])
    op1("contiguous_" + nm, "aten.contiguous.default", [x])
    op1("copy_" + nm, "aten.copy.default", [x, T("f64", [1])])
# view.dtype: the same element size keeps the layout; otherwise the last
# dim scales (torch 1.13's view_dtype checks; its storage-offset check
# needs an offset a meta does not have)
op1("view_dtype_same", "aten.view.dtype", [P("f32", [2, 3], [1, 0]), torch.int32])
op1("view_dtype_same_0d", "aten.view.dtype", [T("i16", []), torch.float16])
op1("view_dtype_down", "aten.view.dtype", [T("f64", [2, 3]), torch.int16])
op1("view_dtype_down_expanded", "aten.view.dtype", [T("f32", [3, 4], [0, 1]), torch.uint8])
op1("view_dtype_up", "aten.view.dtype", [T("u8", [2, 8]), torch.float64])
op1("view_dtype_up_expanded", "aten.view.dtype", [T("f16", [3, 4], [0, 1]), torch.float32])
op1("view_dtype_bool", "aten.view.dtype", [T("i8", [2, 3]), torch.bool])
op1("view_dtype_0d_err", "aten.view.dtype", [T("f32", []), torch.float64], error=True)
op1("view_dtype_0d_down_err", "aten.view.dtype", [T("f32", []), torch.int16], error=True)
op1("view_dtype_size_err", "aten.view.dtype", [T("f32", [2, 3]), torch.float64], error=True)
op1("view_dtype_stride_err", "aten.view.dtype", [P("f32", [2, 4], [1, 0]), torch.int16],
    error=True)
op1("view_dtype_up_stride_err", "aten.view.dtype", [P("f32", [4, 2], [1, 0]), torch.float64],
    error=True)
op1("view_dtype_up_lead_stride_err", "aten.view.dtype", [T("f32", [3, 0]), torch.float64],
    error=True)
op1("view_dtype_up_last_stride_err", "aten.view.dtype", [T("f32", [3, 4], [1, 0]), torch.float64],
    error=True)
op1("fill_tensor", "aten.fill.Tensor", [P("f32", [2, 3], [1, 0]), T("f64", [])])
op1("fill_tensor_expanded", "aten.fill.Tensor", [T("i8", [2, 3], [0, 1]), T("b8", [])])
op1("fill_tensor_dim_err", "aten.fill.Tensor", [T("f32", [2, 3]), T("f32", [1])], error=True)
op1("zero", "aten.zero.default", [P("i32", [2, 3], [1, 0])])
op1("zero_expanded", "aten.zero.default", [T("f32", [2, 3], [0, 1])])
op1("conj_physical", "aten._conj_physical.default", [P("bf16", [2, 3], [1, 0])])
op1("conj_physical_expanded", "aten._conj_physical.default", [T("b8", [2, 3], [0, 1])])
op1("neg_view", "aten._neg_view.default", [P("f32", [2, 3], [1, 0])])
op1("neg_view_u8", "aten._neg_view.default", [T("u8", [2, 3])])
op1("lift", "aten.lift.default", [P("f32", [2, 3], [1, 0])])
op1("lift_expanded", "aten.lift.default", [T("i64", [2, 3], [0, 1])])
op1("efficientzerotensor", "aten._efficientzerotensor.default", [[2, 3]])
op1("efficientzerotensor_dtype", "aten._efficientzerotensor.default", [[2, 0]],
    {"dtype": torch.int16})
op1("efficientzerotensor_neg_err", "aten._efficientzerotensor.default", [[2, -3]], error=True)
op1("_stack", "aten._stack.default", [[T("f32", [2, 3]), T("f64", [2, 3])], 1])
op1("_stack_last", "aten._stack.default", [[T("i32", [2, 3]), T("i32", [2, 3])], -1])
op1("_stack_size_err", "aten._stack.default", [[T("f32", [2, 3]), T("f32", [3, 2])]], error=True)
op1("_stack_dim_err", "aten._stack.default", [[T("f32", [2, 3])], 4], error=True)
op1("narrow_copy", "aten.narrow_copy.default", [P("f32", [2, 3, 4], [2, 0, 1]), 2, 1, 2])
op1("narrow_copy_neg", "aten.narrow_copy.default", [T("f16", [3, 4]), -1, -3, 3])
op1("narrow_copy_empty", "aten.narrow_copy.default", [T("f32", [2, 0]), 1, -1, 0])
op1("narrow_copy_end", "aten.narrow_copy.default", [T("b8", [2, 3]), 1, 3, 0])
op1("narrow_copy_0d_err", "aten.narrow_copy.default", [T("f32", []), 0, 0, 1], error=True)
op1("narrow_copy_dim_err", "aten.narrow_copy.default", [T("f32", [2, 3]), 2, 0, 1], error=True)
op1("narrow_copy_neg_dim_err", "aten.narrow_copy.default", [T("f32", [2, 3]), -3, 0, 1],
    error=True)
op1("narrow_copy_start_err", "aten.narrow_copy.default", [T("f32", [2, 3]), 1, -4, 1],
    error=True)
op1("narrow_copy_length_err", "aten.narrow_copy.default", [T("f32", [2, 3]), 1, 0, -1],
    error=True)
op1("narrow_copy_range_err", "aten.narrow_copy.default", [T("f32", [2, 3]), 1, 2, 2],
    error=True)
op1("clone_cf", "aten.clone.default", [XP], {"memory_format": torch.contiguous_format})
op1("clone_to_cl", "aten.clone.default", [T("f32", [2, 3, 4, 5])],
    {"memory_format": torch.channels_last})
op1("clone_cl_rank_err", "aten.clone.default", [T("f32", [2, 3, 4])],
    {"memory_format": torch.channels_last}, error=True)
op1("contiguous_to_cl", "aten.contiguous.default", [T("f32", [2, 3, 4, 5])],
    {"memory_format": torch.channels_last})
op1("to_dtype_same", "aten.to.dtype", [XP, torch.float32])
op1("to_dtype_int", "aten.to.dtype", [XP, torch.int32])
op1("to_dtype_copy", "aten.to.dtype", [NONDENSE, torch.float32, False, True])
op1("to_dtype_layout", "aten.to.dtype_layout", [NONDENSE], {"dtype": torch.float16})
op1("to_dtype_layout_noop", "aten.to.dtype_layout", [XP], {"memory_format": torch.preserve_format})
op1("to_device", "aten.to.device", [XP, "cpu", torch.int64])
op1("to_copy_cf", "aten._to_copy.default", [XP], {"memory_format": torch.contiguous_format})
op1("lift_fresh_copy", "aten.lift_fresh_copy.default", [XP])
op1("copy_same_shape_perm", "aten.copy.default", [T("f32", [4, 2, 3]), XP])
op1("copy_same_shape_expanded", "aten.copy.default", [T("f32", [3, 4]),
                                                      T("f32", [3, 4], [1, 0])])
op1("copy_nondense_src", "aten.copy.default", [T("f32", [3, 2]), NONDENSE])
op1("copy_nondense_src_f64", "aten.copy.default", [T("f64", [3, 2]), NONDENSE])
op1("copy_bcast_src_perm", "aten.copy.default", [T("f32", [3, 4, 2]), T("f32", [4, 2], [1, 4])])
op1("copy_bcast_err", "aten.copy.default", [T("f32", [3, 4]), T("f32", [2, 4])], error=True)
op1("copy_inplace", "aten.copy_.default", [XP, T("i64", [3])])
op1("copy_inplace_err", "aten.copy_.default", [T("f32", [3, 4]), T("f32", [4, 1])], error=True)
op1("fill", "aten.fill.Scalar", [XP, 2])
op1("fill_inplace", "aten.fill_.Scalar", [XP, 2])
op1("zero_inplace", "aten.zero_.default", [XP])
op1("zeros_like_dtype", "aten.zeros_like.default", [XP], {"dtype": torch.int32})
op1("empty_like_cf", "aten.empty_like.default", [XP], {"memory_format": torch.contiguous_format})
op1("full_like", "aten.full_like.default", [XP, 2], {"dtype": torch.int32})
op1("tril", "aten.tril.default", [XP, 1])
op1("triu", "aten.triu.default", [T("i64", [3, 3]), -1])
op1("tril_inplace", "aten.tril_.default", [XP])
op1("tril_1d_err", "aten.tril.default", [T("f32", [3])], error=True)
op1("full_float", "aten.full.default", [[2, 3], 1.5])
op1("full_int", "aten.full.default", [[2, 3], 2])
op1("full_bool", "aten.full.default", [[2], True])
op1("full_dtype", "aten.full.default", [[2, 3], 2], {"dtype": torch.float16})
op1("full_0d", "aten.full.default", [[], 2.0])
op1("zeros", "aten.zeros.default", [[2, 0, 3]])
op1("ones_int", "aten.ones.default", [[2]], {"dtype": torch.int64})
op1("empty_cl", "aten.empty.memory_format", [[2, 3, 4, 5]],
    {"memory_format": torch.channels_last})
op1("empty_plain", "aten.empty.memory_format", [[4]], {"dtype": torch.bool})
op1("empty_neg_err", "aten.empty.memory_format", [[2, -3]], error=True)
op1("empty_strided", "aten.empty_strided.default", [[2, 3], [1, 2]])
op1("empty_strided_overlap", "aten.empty_strided.default", [[2, 3], [0, 1]],
    {"dtype": torch.int32})
op1("empty_strided_len_err", "aten.empty_strided.default", [[2, 3], [1]], error=True)
op1("empty_strided_neg_err", "aten.empty_strided.default", [[2, 3], [-1, 1]], error=True)
op1("new_empty_strided", "aten.new_empty_strided.default", [T("i64", [2]), [3, 2], [1, 3]])
op1("zeros_neg_err", "aten.zeros.default", [[-1]], error=True)
op1("scalar_tensor", "aten.scalar_tensor.default", [3])
op1("scalar_tensor_dtype", "aten.scalar_tensor.default", [3], {"dtype": torch.int64})
op1("arange_int", "aten.arange.default", [5])
op1("arange_float", "aten.arange.default", [2.5])
op1("arange_bool", "aten.arange.default", [True])
op1("arange_start", "aten.arange.start", [1, 10])
op1("arange_step", "aten.arange.start_step", [1, 10, 3])
op1("arange_neg_step", "aten.arange.start_step", [10, 1, -3])
op1("arange_float_step", "aten.arange.start_step", [0, 1, 0.1])
op1("arange_dtype", "aten.arange.start_step", [0, 10, 3], {"dtype": torch.float32})
op1("arange_int_dtype_float", "aten.arange.start_step", [0.5, 7.7, 2.5], {"dtype": torch.int64})
op1("arange_empty", "aten.arange.start", [3, 3])
op1("arange_sign_err", "aten.arange.start_step", [0, 10, -1], error=True)
op1("arange_zero_err", "aten.arange.start_step", [0, 10, 0], error=True)
op1("arange_trunc_zero_err", "aten.arange.start_step", [0, 1.5, 0.25], {"dtype": torch.int64},
    error=True)
op1("new_zeros", "aten.new_zeros.default", [XP, [2, 3]])
op1("new_full", "aten.new_full.default", [T("i64", [2]), [2, 3], 1.5])
op1("new_empty", "aten.new_empty.default", [XP, [2]], {"dtype": torch.float64})
op1("new_ones", "aten.new_ones.default", [T("b8", [2]), [4]])

# ---------------------------------------------------------------- cat, index
op1("cat", "aten.cat.default", [[T("f32", [2, 3]), T("f32", [4, 3])]])
op1("cat_neg_mixed", "aten.cat.default", [[T("f32", [2, 3]), T("i64", [2, 1])], -1])
op1("cat_legacy_empty", "aten.cat.default", [[T("f32", [2, 3]), T("f64", [0])], 1])
op1("cat_empty_rows", "aten.cat.default", [[T("f32", [2, 3]), T("f32", [0, 3])]])
op1("cat_only_empty", "aten.cat.default", [[T("f32", [0]), T("i64", [0])]])
op1("cat_perm", "aten.cat.default", [[XP, XP]])
op1("cat_cl", "aten.cat.default", [[CL("f32", [2, 3, 4, 5]), CL("f32", [2, 3, 4, 5])], 1])
op1("cat_cl_mixed", "aten.cat.default", [[CL("f32", [2, 3, 4, 5]), T("f32", [2, 3, 4, 5])], 1])
op1("cat_bool_int", "aten.cat.default", [[T("b8", [2]), T("i32", [2])]])
op1("cat_single", "aten.cat.default", [[XP]])
op1("cat_size_err", "aten.cat.default", [[T("f32", [2, 3]), T("f32", [3, 3])], 1], error=True)
op1("cat_rank_err", "aten.cat.default", [[T("f32", [2, 3]), T("f32", [3])]], error=True)
op1("cat_0d_err", "aten.cat.default", [[T("f32", []), T("f32", [])]], error=True)
op1("cat_dim_err", "aten.cat.default", [[T("f32", [2, 3]), T("f32", [2, 3])], 2], error=True)
op1("stack", "aten.stack.default", [[T("f32", [2, 3]), T("f32", [2, 3])], 1])
op1("stack_neg", "aten.stack.default", [[T("f32", [2, 3]), T("f64", [2, 3])], -1])
op1("stack_perm", "aten.stack.default", [[XP, XP]])
op1("stack_0d", "aten.stack.default", [[T("i64", []), T("i64", []), T("i64", [])]])
op1("stack_err", "aten.stack.default", [[T("f32", [2, 3]), T("f32", [3, 3])]], error=True)
op1("index_select", "aten.index_select.default", [T("f32", [3, 4]), 1, T("i64", [5], fill="zeros")])
op1("index_select_perm", "aten.index_select.default", [XP, 0, T("i32", [2], fill="zeros")])
op1("index_select_0d_index", "aten.index_select.default", [T("f32", [3, 4]), 0,
                                                           T("i64", [], fill="zeros")])
op1("index_select_0d_self", "aten.index_select.default", [T("f32", []), 0,
                                                          T("i64", [1], fill="zeros")])
op1("index_select_dtype_err", "aten.index_select.default", [T("f32", [3, 4]), 0,
                                                            T("f32", [1], fill="zeros")],
    error=True)
op1("index_select_rank_err", "aten.index_select.default", [T("f32", [3, 4]), 0,
                                                           T("i64", [1, 1], fill="zeros")],
    error=True)
op1("gather", "aten.gather.default", [T("f32", [3, 4]), 1, T("i64", [3, 2], fill="zeros")])
op1("gather_perm", "aten.gather.default", [XP, 1, P("i64", [2, 3, 2], [2, 0, 1], "zeros")])
op1("gather_size_err", "aten.gather.default", [T("f32", [3, 4]), 1,
                                               T("i64", [4, 2], fill="zeros")], error=True)
op1("gather_rank_err", "aten.gather.default", [T("f32", [3, 4]), 1,
                                               T("i64", [3], fill="zeros")], error=True)
op1("gather_dtype_err", "aten.gather.default", [T("f32", [3, 4]), 1,
                                                T("i32", [3, 2], fill="zeros")], error=True)
op1("embedding", "aten.embedding.default", [T("f32", [10, 3]), T("i64", [2, 5], fill="zeros")])
op1("embedding_i32", "aten.embedding.default", [T("f16", [10, 3]),
                                                T("i32", [4], fill="zeros")])
op1("embedding_perm_weight", "aten.embedding.default", [P("f32", [3, 10], [1, 0]),
                                                        T("i64", [2], fill="zeros"), 0])
op1("embedding_dtype_err", "aten.embedding.default", [T("f32", [10, 3]),
                                                      T("f32", [2], fill="zeros")], error=True)
op1("embedding_rank_err", "aten.embedding.default", [T("f32", [10]),
                                                     T("i64", [2], fill="zeros")], error=True)
op1("pad", "aten.constant_pad_nd.default", [T("f32", [2, 3, 4]), [1, 2], 0])
op1("pad_two", "aten.constant_pad_nd.default", [T("f32", [2, 3, 4]), [1, 2, -1, 0]])
op1("pad_perm", "aten.constant_pad_nd.default", [XP, [1, 1]])
op1("pad_cl", "aten.constant_pad_nd.default", [CL("f32", [2, 3, 4, 5]), [1, 1]])
op1("pad_neg", "aten.constant_pad_nd.default", [T("f32", [2, 3]), [-3, 0]])
op1("pad_zeros", "aten.constant_pad_nd.default", [XP, [0, 0]])
op1("pad_neg_perm", "aten.constant_pad_nd.default", [XP, [-1, 0, 0, -1]])
op1("pad_odd_err", "aten.constant_pad_nd.default", [T("f32", [2, 3, 4]), [1]], error=True)
op1("pad_long_err", "aten.constant_pad_nd.default", [T("f32", [2]), [1, 1, 1, 1]], error=True)
op1("pad_negative_size_err", "aten.constant_pad_nd.default", [T("f32", [2, 3]), [-2, -2]],
    error=True)
op1("slice_scatter", "aten.slice_scatter.default", [T("f32", [4, 6]), T("f32", [4, 2]), 1, 0, 4,
                                                    2])
op1("slice_scatter_perm", "aten.slice_scatter.default", [XP, P("f32", [2, 3, 2], [2, 0, 1]), 0,
                                                         0, 2])
op1("slice_scatter_err", "aten.slice_scatter.default", [T("f32", [4, 6]), T("f32", [4, 3]), 1,
                                                        0, 4, 2], error=True)
op1("select_scatter", "aten.select_scatter.default", [T("f32", [4, 6]), T("f32", [6]), 0, 1])
op1("select_scatter_perm", "aten.select_scatter.default", [XP, T("f32", [2, 3]), 0, -1])
op1("select_scatter_err", "aten.select_scatter.default", [T("f32", [4, 6]), T("f32", [4]), 0,
                                                          1], error=True)

# ---------------------------------------------------------------- random layouts
# TensorIterator's output layout over random permutations, slices, size-1
# dims with odd strides and broadcasts (seeded: the file is reproducible).
RNG = __import__("random").Random(1234)


def random_layout(shape):
    """A random view of a tensor of `shape`: permuted storage order, some
    dims sliced with a step, size-1 dims with arbitrary strides."""
    order = list(range(len(shape)))
    RNG.shuffle(order)
    steps = [RNG.choice([1, 1, 1, 2]) for _ in shape]
    strides, s = [0] * len(shape), 1
    for d in reversed(order):
        strides[d] = s * steps[d]
        s *= max(shape[d], 1) * steps[d]
    for d, n in enumerate(shape):
        if n == 1 and RNG.random() < 0.5:
            strides[d] = RNG.choice([1, 5, 99])
    return strides


def random_operand(out_shape):
    nd = RNG.randint(0, len(out_shape))
    shape = out_shape[len(out_shape) - nd:]
    shape = [1 if RNG.random() < 0.25 else n for n in shape]
    if RNG.random() < 0.2:  # an expanded (stride 0) input
        strides = random_layout(shape)
        d = RNG.randrange(len(shape)) if shape else None
        if d is not None:
            strides[d] = 0
        return T(RNG.choice(["f32", "f32", "f64", "i64"]), shape, strides)
    return T(RNG.choice(["f32", "f32", "f64", "i64"]), shape, random_layout(shape))


for i in range(120):
    out_shape = [RNG.choice([1, 2, 3, 4]) for _ in range(RNG.randint(1, 4))]
    a = T("f32", out_shape, random_layout(out_shape))
    b = random_operand(out_shape)
    if i % 4 == 0:
        op1("rand_unary_%d" % i, "aten.exp.default", [a])
    elif i % 4 == 1:
        op1("rand_add_%d" % i, "aten.add.Tensor", [b, a])
    elif i % 4 == 2:
        op1("rand_mul_%d" % i, "aten.mul.Tensor", [a, b])
    else:
        c = T("b8", out_shape[1:], random_layout(out_shape[1:]))
        op1("rand_where_%d" % i, "aten.where.self", [c, a, b])

# ---------------------------------------------------------------- chains and getitem
case("getitem_max_dim", {"x": T("f32", [2, 3, 4])},
     [("max", "aten.max.dim", [R("x"), 1]),
      ("getitem", "getitem", [R("max"), 0]),
      ("getitem_1", "getitem", [R("max"), 1]),
      ("add", "aten.add.Tensor", [R("getitem"), R("getitem_1")])])
case("getitem_split_chain", {"x": P("f32", [4, 6], [1, 0])},
     [("split", "aten.split.Tensor", [R("x"), 2, 1]),
      ("getitem", "getitem", [R("split"), 1]),
      ("t", "aten.t.default", [R("getitem")]),
      ("mul", "aten.mul.Tensor", [R("t"), 2.0]),
      ("view", "aten.view.default", [R("mul"), [-1]])])
case("getitem_layer_norm", {"x": T("f32", [2, 5, 8]), "w": T("f32", [8])},
     [("native_layer_norm", "aten.native_layer_norm.default", [R("x"), [8], R("w"), None, 1e-05]),
      ("getitem", "getitem", [R("native_layer_norm"), 0]),
      ("getitem_1", "getitem", [R("native_layer_norm"), 1]),
      ("getitem_2", "getitem", [R("native_layer_norm"), 2]),
      ("sub", "aten.sub.Tensor", [R("getitem"), R("getitem_1")]),
      ("mul", "aten.mul.Tensor", [R("sub"), R("getitem_2")])])
case("chain_error_late", {"x": T("f32", [2, 3])},
     [("relu", "aten.relu.default", [R("x")]),
      ("view", "aten.view.default", [R("relu"), [3, 2]]),
      ("mm", "aten.mm.default", [R("relu"), R("view")]),
      ("mm_1", "aten.mm.default", [R("mm"), R("view")])], error=True)


# ---------------------------------------------------------------- Scalar conversion
# torch converts alpha, clamp bounds, comparison and fill values to the
# computation's dtype with an overflow check: out of range is an error
# (u8 takes ints down to -255, which wrap; floats into ints must be finite
# and in range; inf and nan fit floating types)
op1("alpha_f16_overflow_err", "aten.add.Tensor", [T("f16", [2]), T("f16", [2])],
    {"alpha": 1e10}, error=True)
op1("alpha_f16_inf", "aten.add.Tensor", [T("f16", [2]), T("f16", [2])], {"alpha": float("inf")})
op1("alpha_i32_overflow_err", "aten.add.Tensor", [T("i32", [2]), T("i32", [2])],
    {"alpha": 2**40}, error=True)
op1("alpha_u8_wrap", "aten.sub.Tensor", [T("u8", [2]), T("u8", [2])], {"alpha": -255})
op1("alpha_u8_overflow_err", "aten.add.Tensor", [T("u8", [2]), T("u8", [2])], {"alpha": -256},
    error=True)
op1("alpha_f32_overflow_err", "aten.add.Scalar", [T("f32", [2]), 1, 1e300], error=True)
op1("alpha_int_float_result", "aten.add.Tensor", [T("i32", [2]), 3.5], {"alpha": 2**40})
op1("clamp_u8_wrap", "aten.clamp_max.default", [T("u8", [3]), -2])
op1("clamp_u8_overflow_err", "aten.clamp.default", [T("u8", [3]), 300], error=True)
op1("clamp_i32_overflow_err", "aten.clamp.default", [T("i32", [3]), None, 2**40], error=True)
op1("clamp_i32_float_bound", "aten.clamp.default", [T("i32", [3]), None, 2.5])
op1("clamp_f32_overflow_err", "aten.clamp_min.default", [T("f32", [3]), -1e300], error=True)
op1("hardtanh_f32_overflow_err", "aten.hardtanh.default", [T("f32", [3]), -1e300, 1.0],
    error=True)
op1("masked_fill_i32_overflow_err", "aten.masked_fill.Scalar",
    [T("i32", [3]), T("b8", [3]), 2**40], error=True)
op1("masked_fill_i32_inf_err", "aten.masked_fill.Scalar",
    [T("i32", [3]), T("b8", [3]), float("inf")], error=True)
op1("masked_fill_f16_overflow_err", "aten.masked_fill.Scalar",
    [T("f16", [3]), T("b8", [3]), 1e10], error=True)
op1("masked_fill_u8_wrap", "aten.masked_fill.Scalar", [T("u8", [3]), T("b8", [3]), -1])
op1("fill_i64_inf_err", "aten.fill.Scalar", [T("i64", [3]), float("inf")], error=True)
op1("fill_i64_nan_err", "aten.fill.Scalar", [T("i64", [3]), float("nan")], error=True)
op1("fill_u8_negative_float_err", "aten.fill.Scalar", [T("u8", [3]), -0.5], error=True)
op1("fill_u8_float", "aten.fill.Scalar", [T("u8", [3]), 255.0])
op1("fill_f16_overflow_err", "aten.fill.Scalar", [T("f16", [3]), 65504.5], error=True)
op1("fill_f16_max", "aten.fill.Scalar", [T("f16", [3]), 65504.0])
op1("fill_inplace_i32_overflow_err", "aten.fill_.Scalar", [T("i32", [3]), 2**40], error=True)
op1("full_i32_overflow_err", "aten.full.default", [[2], 2**40], {"dtype": torch.int32},
    error=True)
op1("full_like_i8_overflow_err", "aten.full_like.default", [T("i8", [2]), 128], error=True)
op1("scalar_tensor_i32_overflow_err", "aten.scalar_tensor.default", [2**40],
    {"dtype": torch.int32}, error=True)
op1("where_scalar_i32_overflow_err", "aten.where.ScalarOther",
    [T("b8", [3]), T("i32", [3]), 2**40], error=True)

op1("hardtanh_u8_negative_err", "aten.hardtanh.default", [T("u8", [3])], error=True)
op1("hardtanh_u8", "aten.hardtanh.default", [T("u8", [3]), 0, 2])
op1("pow_i32_exponent_overflow_err", "aten.pow.Tensor_Scalar", [T("i32", []), 2**62],
    error=True)
op1("pow_f16_exponent_overflow_err", "aten.pow.Tensor_Scalar", [T("f16", [2]), 70000],
    error=True)
op1("pow_scalar_base_wraps", "aten.pow.Scalar", [2**40, T("i32", [2])])
op1("pow_int_negative_err", "aten.pow.Tensor_Scalar", [T("i64", [0]), -2], error=True)
op1("pow_bool_negative_err", "aten.pow.Tensor_Scalar", [T("b8", [2]), -1], error=True)
op1("pow_inplace_u8_negative_err", "aten.pow_.Scalar", [T("u8", [2]), -2], error=True)
op1("pow_int_tensor_exponent", "aten.pow.Tensor_Tensor", [T("i64", [2]), T("i64", [])])
# in-place TensorIterator ops and copy_ refuse an expanded (stride 0) self;
# fill_, zero_ and masked_fill_ write it
op1("le_inplace_expanded_err", "aten.le_.Tensor", [T("f32", [4, 2], [0, 1]), T("f32", [4, 2])],
    error=True)
op1("add_inplace_expanded_err", "aten.add_.Scalar", [T("f32", [4, 2], [1, 0]), 1], error=True)
op1("abs_inplace_expanded_err", "aten.abs_.default", [T("f32", [3], [0])], error=True)
op1("copy_inplace_expanded_err", "aten.copy_.default", [T("f32", [4, 2], [0, 1]),
                                                        T("f32", [4, 2])], error=True)
op1("fill_inplace_expanded", "aten.fill_.Scalar", [T("f32", [4, 2], [0, 1]), 3])
op1("masked_fill_inplace_expanded", "aten.masked_fill_.Scalar",
    [T("f32", [4, 2], [0, 1]), T("b8", [4, 2]), 1.0])
op1("add_inplace_size1_stride0", "aten.add_.Scalar", [T("f32", [1, 2], [0, 1]), 1])
op1("cumsum_to_bool_err", "aten.cumsum.default", [T("f32", [3]), 0], {"dtype": torch.bool},
    error=True)


# ---------------------------------------------------------------- fused attention
MHA = "aten._native_multi_head_attention.default"
ENC = "aten._transformer_encoder_layer_fwd.default"


def mha(name, dt="f32", q=None, k=None, v=None, dim=16, heads=2, w=None, wb=None, pw=None,
        pb=None, mask=None, rest=(), error=False):
    """An attention case; q, k, v: T (k, v None: the query's placeholder,
    a self-attention; v None alone: the key's)."""
    q = q or T(dt, [2, 5, dim])
    ins = {"x": q}
    refs = [R("x")]
    for nm, t in (("y", k), ("z", v)):
        if t is None:
            refs.append(refs[-1])
        else:
            ins[nm] = t
            refs.append(R(nm))
    params = [w or T(dt, [3 * dim, dim]), wb or T(dt, [3 * dim]), pw or T(dt, [dim, dim]),
              pb or T(dt, [dim])]
    for nm, t in zip("wvut", params):
        ins[nm] = t
    args = refs + [dim, heads] + [R(nm) for nm in "wvut"]
    if mask is not None:
        ins["s"] = mask
        args.append(R("s"))
    elif rest:
        args.append(None)
    case(name, ins, [("out", MHA, args + list(rest))], error=error)


mha("mha_self")
mha("mha_cross", k=T("f32", [2, 5, 16]), v=T("f32", [2, 5, 16]))
mha("mha_kv_shared", k=T("f32", [2, 5, 16]))
mha("mha_no_weights", rest=[False])
mha("mha_per_head", rest=[True, False])
mha("mha_pad_mask", mask=T("b8", [2, 5]), rest=[True, True, 1])
mha("mha_mask_4d", mask=T("b8", [2, 2, 5, 5]), rest=[False, True, 2])
mha("mha_float_mask", mask=T("f32", [2, 5], fill="zeros"), rest=[True, False, 1])
mha("mha_f64", "f64")
mha("mha_bf16", "bf16")
mha("mha_perm_query", q=P("f32", [5, 2, 16], [1, 0, 2]))
mha("mha_proj_out", pw=T("f32", [8, 16]), pb=T("f32", [8]))
mha("mha_pb_broadcast", pb=T("f32", [1, 16]))
mha("mha_empty_batch", q=T("f32", [0, 5, 16]))
mha("mha_empty_f16", "f16", q=T("f16", [2, 0, 16]))
mha("mha_empty_i64_neg_heads", "i64", q=T("i64", [0, 5, 16]), heads=-2)
mha("mha_empty_perm", q=P("f32", [0, 2, 16], [1, 0, 2]))
mha("mha_2d_err", q=T("f32", [5, 16]), error=True)
mha("mha_embed_dim_err", q=T("f32", [2, 5, 8]), error=True)
mha("mha_key_shape_err", k=T("f32", [2, 7, 16]), v=T("f32", [2, 7, 16]), error=True)
mha("mha_weight_shape_err", w=T("f32", [40, 16]), error=True)
mha("mha_bias_2d_err", wb=T("f32", [1, 48]), error=True)
mha("mha_heads_err", heads=3, error=True)
mha("mha_heads_negative_err", heads=-2, error=True)
mha("mha_weight_dtype_err", w=T("f64", [48, 16]), error=True)
mha("mha_key_dtype_err", k=T("f64", [2, 5, 16]), error=True)
mha("mha_bias_dtype_err", wb=T("f64", [48]), error=True)
mha("mha_f16_err", "f16", error=True)
mha("mha_i64_err", "i64", error=True)
mha("mha_mask_square_err", mask=T("b8", [5, 5]), rest=[True, True, 1], error=True)
mha("mha_mask_3d_err", mask=T("b8", [2, 5, 5]), rest=[True, True, 2], error=True)
mha("mha_mask_type_none_err", mask=T("b8", [2, 5]), error=True)
mha("mha_mask_type0_err", mask=T("b8", [2, 5]), rest=[True, True, 0], error=True)
mha("mha_mask_type3_err", mask=T("b8", [2, 5]), rest=[True, True, 3], error=True)
mha("mha_proj_3d_err", pw=T("f32", [1, 16, 16]), error=True)
mha("mha_proj_1d_err", pw=T("f32", [16]), error=True)
mha("mha_proj_bias_err", pb=T("f32", [8]), error=True)
mha("mha_proj_dtype_err", pw=T("f64", [16, 16]), pb=T("f64", [16]), error=True)


def enc(name, dt="f32", src=None, dim=16, heads=2, ffn=32, gelu=False, norm_first=False,
        pw=None, norms=None, f1w=None, f1b=None, f2w=None, f2b=None, mask=None, mask_type=None,
        error=False):
    """An encoder layer case."""
    src = src or T(dt, [2, 5, dim])
    pw = pw or T(dt, [dim, dim])
    e = pw.shape[0]
    ts = [src, T(dt, [3 * dim, dim]), T(dt, [3 * dim]), pw, T(dt, [e])]
    ts += norms or [T(dt, [dim]) for _ in range(4)]
    ts += [f1w or T(dt, [ffn, dim]), f1b or T(dt, [ffn]), f2w or T(dt, [dim, ffn]),
           f2b or T(dt, [dim])]
    names = ["x%d" % i for i in range(len(ts))]
    ins = dict(zip(names, ts))
    r = [R(nm) for nm in names]
    args = [r[0], dim, heads] + r[1:5] + [gelu, norm_first, 1e-5] + r[5:13]
    if mask is not None:
        ins["m"] = mask
        args += [R("m"), mask_type]
    case(name, ins, [("out", ENC, args)], error=error)


enc("enc_relu")
enc("enc_gelu_norm_first", gelu=True, norm_first=True)
enc("enc_pad_mask", mask=T("b8", [2, 5]), mask_type=1)
enc("enc_f64", "f64", norm_first=True)
enc("enc_bf16", "bf16", gelu=True)
enc("enc_perm_src", src=P("f32", [5, 2, 16], [1, 0, 2]))
enc("enc_empty_i64", "i64", src=P("i64", [5, 0, 16], [1, 0, 2]))
enc("enc_dim1_norm_first_wide", dim=1, heads=1, ffn=3, norm_first=True,
    f2w=T("f32", [4, 3]), f2b=T("f32", [4]))
enc("enc_2d_err", src=T("f32", [5, 16]), error=True)
enc("enc_ffn_1d_err", f1w=T("f32", [16]), error=True)
enc("enc_ffn_bias_err", f2b=T("f32", [3]), error=True)
enc("enc_ffn_out1_err", norm_first=True, f2w=T("f32", [1, 32]), f2b=T("f32", [1]), error=True)
enc("enc_ffn_inner_err", f2w=T("f32", [16, 8]), error=True)
enc("enc_norm_shape_err", norm_first=True,
    norms=[T("f32", [3]), T("f32", [16]), T("f32", [16]), T("f32", [16])], error=True)
enc("enc_norm_dtype_err", norm_first=True,
    norms=[T("f64", [16]), T("f32", [16]), T("f32", [16]), T("f32", [16])], error=True)
enc("enc_ffn_dtype_err", f1b=T("f64", [32]), error=True)
enc("enc_proj_out_err", pw=T("f32", [8, 16]), error=True)
enc("enc_dim1_wide_err", dim=1, heads=1, ffn=3, f2w=T("f32", [4, 3]), f2b=T("f32", [4]),
    error=True)
enc("enc_mask_type0_err", mask=T("b8", [2, 5]), mask_type=0, error=True)
enc("enc_f16_err", "f16", error=True)


# ---------------------------------------------------------------- window factories, range,
# the convolution entry points, dropout, batch_norm_update_stats and the internals (last: the
# cases above keep their random inputs)
op1("range", "aten.range.step", [0, 1, 0.3])
op1("range_default", "aten.range.default", [1, 4])
op1("range_int_trunc", "aten.range.step", [0.5, 5.5, 1.5], {"dtype": torch.int64})
op1("range_bf16", "aten.range.step", [0, 3, 0.7], {"dtype": torch.bfloat16})
op1("range_one", "aten.range.step", [3, 3, -1])
op1("range_sign_err", "aten.range.step", [0, -1, 1], error=True)
op1("range_f16_err", "aten.range.step", [0, 2, 1], {"dtype": torch.float16}, error=True)
op1("range_bool_err", "aten.range.step", [0, 1, 1], {"dtype": torch.bool}, error=True)
op1("range_trunc_zero_err", "aten.range.step", [0, 5, 0.5], {"dtype": torch.int64}, error=True)
op1("range_inf_err", "aten.range.step", [0, float("inf"), 1], error=True)
for _w in ("hann", "hamming", "bartlett", "blackman", "kaiser"):
    _t = "aten.%s_window." % _w
    op1(_w + "_window", _t + "default", [5])
    op1(_w + "_window_periodic", _t + "periodic", [4, False], {"dtype": torch.float64})
    op1(_w + "_window_empty", _t + "default", [0])
    op1(_w + "_window_one_f16", _t + "periodic", [1, True], {"dtype": torch.float16})
    op1(_w + "_window_bf16", _t + "default", [3], {"dtype": torch.bfloat16})
    op1(_w + "_window_int_err", _t + "default", [3], {"dtype": torch.int64}, error=True)
    op1(_w + "_window_int_empty_err", _t + "default", [0], {"dtype": torch.int32}, error=True)
    op1(_w + "_window_neg_err", _t + "default", [-1], error=True)
    op1(_w + "_window_f16_err" if _w != "bartlett" else "bartlett_window_f16", _t + "default",
        [3], {"dtype": torch.float16}, error=_w != "bartlett")
op1("hamming_window_alpha_beta", "aten.hamming_window.periodic_alpha_beta", [5, True, 0.3, 0.2])
op1("hamming_window_alpha", "aten.hamming_window.periodic_alpha", [5, False, 0.3])
op1("kaiser_window_beta", "aten.kaiser_window.beta", [6, False, 3.5])
op1("fftfreq", "aten.fft_fftfreq.default", [5, 0.3])
op1("fftfreq_empty", "aten.fft_fftfreq.default", [0])
op1("fftfreq_f16", "aten.fft_fftfreq.default", [4], {"dtype": torch.float16})
op1("fftfreq_neg_err", "aten.fft_fftfreq.default", [-1], error=True)
op1("fftfreq_int_err", "aten.fft_fftfreq.default", [3], {"dtype": torch.int64}, error=True)
op1("rfftfreq", "aten.fft_rfftfreq.default", [5, 0.3], {"dtype": torch.float64})
op1("rfftfreq_zero", "aten.fft_rfftfreq.default", [0])
op1("rfftfreq_neg_one", "aten.fft_rfftfreq.default", [-1])
op1("rfftfreq_neg_three", "aten.fft_rfftfreq.default", [-3])
op1("rfftfreq_neg_err", "aten.fft_rfftfreq.default", [-4], error=True)
op1("rfftfreq_bool_err", "aten.fft_rfftfreq.default", [3], {"dtype": torch.bool}, error=True)
_ND = "aten.native_dropout.default"
op1("native_dropout_eval", _ND, [T("f32", [2, 3]), 0.5, False])
op1("native_dropout_eval_int_perm", _ND, [P("i64", [2, 3], [1, 0]), 0.5, False])
op1("native_dropout_p0", _ND, [P("f32", [2, 3, 4], [2, 0, 1]), 0.0, True])
op1("native_dropout_p1_none", _ND, [T("bf16", [4]), 1.0, None])
op1("native_dropout_empty", _ND, [T("f32", [0, 3]), 0.5, True])
op1("native_dropout_p_err", _ND, [T("f32", [2]), 1.5, True], error=True)
op1("native_dropout_int_err", _ND, [T("i64", [2]), 0.0, True], error=True)
_BNU = "aten.batch_norm_update_stats.default"
op1("bn_update_stats", _BNU, [T("f32", [4, 3, 5]), T("f32", [3]), T("f32", [3]), 0.1])
op1("bn_update_stats_none", _BNU, [P("f64", [4, 3, 5], [2, 1, 0]), None, None, 0.1])
op1("bn_update_stats_mixed", _BNU, [T("bf16", [2, 3]), T("f32", [3]), None, 0.1])
op1("bn_update_stats_mixed_err", _BNU, [T("f64", [2, 3]), T("f32", [3]), None, 0.1], error=True)
op1("bn_update_stats_param_err", _BNU, [T("bf16", [2, 3]), T("bf16", [3]), T("f32", [3]), 0.1],
    error=True)
op1("bn_update_stats_int_err", _BNU, [T("i64", [2, 3]), None, None, 0.1], error=True)
op1("bn_update_stats_1d_err", _BNU, [T("f32", [3]), None, None, 0.1], error=True)
op1("assert_async_empty_err", "aten._assert_async.default", [T("f32", [0])], error=True)
op1("assert_async_two_err", "aten._assert_async.default", [T("b8", [2])], error=True)
_MS = "aten._masked_softmax.default"
op1("masked_softmax", _MS, [T("f32", [2, 3]), T("b8", [2, 3]), 1, 1])
op1("masked_softmax_dim_none", _MS, [T("bf16", [2, 2, 3]), T("b8", [2, 2, 3]), None, 2])
op1("masked_softmax_sliced", _MS, [T("f64", [2, 3], [6, 2]), T("b8", [2, 3], [1, 2]), 0, 2])
op1("masked_softmax_0d", _MS, [T("f32", []), T("b8", []), 0, 2])
op1("masked_softmax_empty_rows", _MS, [T("f32", [0, 3]), T("b8", [0, 3]), 1, 2])
op1("masked_softmax_shape_err", _MS, [T("f32", [2, 3]), T("b8", [3]), 1, 2], error=True)
op1("masked_softmax_mask_err", _MS, [T("f32", [2, 3]), T("f32", [2, 3]), 1, 2], error=True)
op1("masked_softmax_dtype_err", _MS, [T("i64", [2, 3]), T("b8", [2, 3]), 1, 2], error=True)
op1("masked_softmax_dim_err", _MS, [T("f32", [2, 3]), T("b8", [2, 3]), 2, 2], error=True)
op1("masked_softmax_type_none_err", _MS, [T("f32", [2, 3]), T("b8", [2, 3]), 1, None],
    error=True)
op1("masked_softmax_src_mask_err", _MS, [T("f32", [2, 3]), T("b8", [2, 3]), 1, 0], error=True)
op1("masked_softmax_type_err", _MS, [T("f32", [2, 3]), T("b8", [2, 3]), 1, 3], error=True)
_CSH = "aten._cholesky_solve_helper.default"
op1("cholesky_solve_helper", _CSH, [T("f32", [3, 2]), T("f32", [3, 3], fill="spd"), False])
op1("cholesky_solve_helper_batch", _CSH, [T("f64", [2, 3, 1]), T("f64", [2, 3, 3], fill="spd"),
                                          True])
op1("cholesky_solve_helper_vec_err", _CSH, [T("f32", [3]), T("f32", [3, 3], fill="spd"), False],
    error=True)
op1("cholesky_solve_helper_int_err", _CSH, [T("i64", [3, 1]), T("i64", [3, 3]), False],
    error=True)
op1("cholesky_solve_helper_dtype_err", _CSH, [T("f64", [3, 1]), T("f32", [3, 3], fill="spd"),
                                              False], error=True)
_CLC = "aten._compute_linear_combination.default"
op1("linear_combination", _CLC, [T("f32", [3, 2]), T("f32", [4, 3])])
op1("linear_combination_perm", _CLC, [P("i64", [2, 3], [1, 0]), T("i64", [2, 3])])
op1("linear_combination_1d", _CLC, [T("b8", [3]), T("b8", [2, 3])])
op1("linear_combination_no_rows", _CLC, [T("f32", [2, 2]), T("f32", [0, 2])])
op1("linear_combination_1d_err", _CLC, [T("f32", [3]), T("f32", [3])], error=True)
op1("linear_combination_empty_err", _CLC, [T("f32", [0, 2]), T("f32", [2, 0])], error=True)
op1("_convolution", "aten._convolution.default",
    [T("f32", [2, 3, 8, 8]), T("f32", [4, 3, 3, 3]), None, [1, 1], [1, 1], [1, 1], False, [0, 0],
     1, False, False, True, True])
op1("_convolution_groups_err", "aten._convolution.default",
    [T("f32", [2, 3, 8, 8]), T("f32", [4, 3, 3, 3]), None, [1, 1], [1, 1], [1, 1], False, [0, 0],
     2, False, False, True, True], error=True)
_S2 = "aten._slow_conv2d_forward.default"
op1("slow_conv2d", _S2, [T("f32", [2, 3, 6, 6]), T("f32", [4, 3, 3, 3]), [3, 3], T("f32", [4]),
                         [2, 1], [1, 0]])
op1("slow_conv2d_cl", _S2, [CL("f32", [2, 3, 6, 6]), T("f32", [4, 3, 3, 3]), [3, 3], None,
                            [1, 1], [0, 0]])
op1("slow_conv2d_i64_bias_f64", _S2, [T("i64", [1, 2, 4, 4]), T("i64", [3, 2, 2, 2]), [2, 2],
                                      T("f64", [3]), [1, 1], [0, 0]])
op1("slow_conv2d_empty_batch", _S2, [T("f32", [0, 3, 6, 6]), T("f32", [4, 3, 3, 3]), [3, 3], None,
                                     [1, 1], [0, 0]])
op1("slow_conv2d_3d_err", _S2, [T("f32", [3, 6, 6]), T("f32", [4, 3, 3, 3]), [3, 3], None, [1, 1],
                                [0, 0]], error=True)
op1("slow_conv2d_channels_err", _S2, [T("f32", [1, 2, 6, 6]), T("f32", [4, 3, 3, 3]), [3, 3], None,
                                      [1, 1], [0, 0]], error=True)
op1("slow_conv2d_big_kernel_err", _S2, [T("f32", [1, 3, 2, 2]), T("f32", [4, 3, 3, 3]), [3, 3],
                                        None, [1, 1], [0, 0]], error=True)
op1("slow_conv2d_f16_err", _S2, [T("f16", [1, 3, 4, 4]), T("f16", [4, 3, 3, 3]), [3, 3], None,
                                 [1, 1], [0, 0]], error=True)
op1("slow_conv2d_mixed_err", _S2, [T("f32", [1, 3, 4, 4]), T("f64", [4, 3, 3, 3]), [3, 3], None,
                                   [1, 1], [0, 0]], error=True)
op1("slow_conv2d_stride_err", _S2, [T("f32", [1, 3, 4, 4]), T("f32", [4, 3, 3, 3]), [3, 3], None,
                                    [0, 1], [0, 0]], error=True)
op1("slow_conv2d_bias_err", _S2, [T("f32", [1, 3, 4, 4]), T("f32", [4, 3, 3, 3]), [3, 3],
                                  T("f32", [3]), [1, 1], [0, 0]], error=True)
_S3 = "aten.slow_conv3d_forward.default"
op1("slow_conv3d", _S3, [T("f32", [1, 2, 3, 4, 4]), T("f32", [4, 2, 2, 3, 3]), [2, 3, 3], None,
                         [1, 1, 1], [0, 1, 1]])
op1("slow_conv3d_groups", _S3, [T("f64", [1, 4, 3, 4, 4]), T("f64", [4, 2, 1, 3, 3]), [1, 3, 3],
                                T("f64", [4]), [1, 1, 1], [0, 0, 0]])
op1("slow_conv3d_4d_err", _S3, [T("f32", [2, 3, 4, 4]), T("f32", [4, 2, 2, 3, 3]), [2, 3, 3],
                                None, [1, 1, 1], [0, 0, 0]], error=True)
op1("slow_conv3d_empty_err", _S3, [T("f32", [1, 0, 3, 4, 4]), T("f32", [4, 2, 2, 3, 3]),
                                   [2, 3, 3], None, [1, 1, 1], [0, 0, 0]], error=True)
_D2 = "aten.slow_conv_dilated2d.default"
op1("slow_conv_dilated2d", _D2, [T("f32", [2, 3, 6, 6]), T("f32", [4, 3, 3, 3]), [3, 3],
                                 T("f64", [4]), [1, 1], [1, 1], [2, 2]])
op1("slow_conv_dilated2d_unbatched", _D2, [T("f32", [3, 6, 6]), T("f32", [4, 3, 3, 3]), [3, 3]])
op1("slow_conv_dilated2d_cl", _D2, [CL("f32", [2, 3, 6, 6]), T("f32", [4, 3, 3, 3]), [3, 3]])
op1("slow_conv_dilated2d_empty_out", _D2, [T("f32", [1, 2, 3, 4]), T("f32", [2, 2, 1, 3]),
                                           [1, 3], None, [1, 1], [0, 0], [1, 2]])
op1("slow_conv_dilated2d_negative_out_err", _D2, [T("f32", [1, 2, 3, 3]),
                                                  T("f32", [2, 2, 1, 3]), [1, 3], None, [1, 1],
                                                  [0, 0], [1, 3]], error=True)
op1("slow_conv_dilated2d_ks_err", _D2, [T("f32", [1, 3, 6, 6]), T("f32", [4, 3, 3, 3]), [2, 2]],
    error=True)
op1("slow_conv_dilated2d_i32_err", _D2, [T("i32", [1, 3, 6, 6]), T("i32", [4, 3, 3, 3]), [3, 3]],
    error=True)
op1("slow_conv_dilated3d", "aten.slow_conv_dilated3d.default",
    [T("f32", [1, 2, 3, 4, 4]), T("f32", [4, 2, 2, 3, 3]), [2, 3, 3], None, [1, 1, 1], [0, 1, 1],
     [1, 1, 1]])
_T2 = "aten.slow_conv_transpose2d.default"
op1("slow_conv_transpose2d", _T2, [T("f32", [2, 4, 5, 5]), T("f32", [4, 6, 3, 3]), [3, 3],
                                   T("f32", [6]), [2, 2], [1, 1], [1, 1], [1, 1]])
op1("slow_conv_transpose2d_unbatched", _T2, [T("f32", [4, 5, 5]), T("f32", [4, 6, 3, 3]),
                                             [3, 3]])
op1("slow_conv_transpose2d_unbatched_perm_err", _T2, [P("f32", [4, 5, 5], [0, 2, 1]),
                                                      T("f32", [4, 6, 3, 3]), [3, 3]],
    error=True)
op1("slow_conv_transpose2d_opad_err", _T2, [T("f32", [1, 4, 5, 5]), T("f32", [4, 6, 3, 3]),
                                            [3, 3], None, [1, 1], [0, 0], [1, 1], [1, 1]],
    error=True)
op1("slow_conv_transpose2d_empty_err", _T2, [T("f32", [0, 4, 5, 5]), T("f32", [4, 6, 3, 3]),
                                             [3, 3]], error=True)
op1("slow_conv_transpose2d_bias_dtype_err", _T2, [T("f32", [1, 4, 5, 5]),
                                                  T("f32", [4, 6, 3, 3]), [3, 3], T("f64", [6])],
    error=True)
op1("slow_conv_transpose2d_bf16_err", _T2, [T("bf16", [1, 4, 5, 5]), T("bf16", [4, 6, 3, 3]),
                                            [3, 3]], error=True)
op1("slow_conv_transpose3d_unbatched", "aten.slow_conv_transpose3d.default",
    [T("f32", [4, 2, 3, 3]), T("f32", [4, 6, 1, 3, 3]), [1, 3, 3], T("f32", [6])])
_TBC = "aten.conv_tbc.default"
op1("conv_tbc", _TBC, [T("f32", [5, 2, 3]), T("f32", [3, 3, 4]), T("f64", [4]), 1])
op1("conv_tbc_negative_pad", _TBC, [T("f32", [5, 2, 3]), T("f32", [2, 3, 4]), T("f32", [4]), -1])
op1("conv_tbc_empty", _TBC, [T("f32", [2, 2, 3]), T("f32", [3, 3, 4]), T("f32", [4])])
op1("conv_tbc_no_taps_f16", _TBC, [T("f16", [5, 2, 3]), T("f32", [0, 3, 4]), T("f32", [4])])
op1("conv_tbc_negative_err", _TBC, [T("f32", [2, 2, 3]), T("f32", [4, 3, 4]), T("f32", [4])],
    error=True)
op1("conv_tbc_channels_err", _TBC, [T("f32", [5, 2, 3]), T("f32", [2, 4, 4]), T("f32", [4])],
    error=True)
op1("conv_tbc_bias_err", _TBC, [T("f32", [5, 2, 3]), T("f32", [2, 3, 4]), T("f32", [1])],
    error=True)
op1("conv_tbc_dtype_err", _TBC, [T("f32", [5, 2, 3]), T("f64", [2, 3, 4]), T("f32", [4])],
    error=True)
op1("conv_tbc_view_err", _TBC, [P("f32", [2, 5, 3], [1, 0, 2]), T("f32", [2, 3, 4]),
                                T("f32", [4])], error=True)
op1("conv_tbc_f16_err", _TBC, [T("f16", [5, 2, 3]), T("f16", [2, 3, 4]), T("f16", [4])],
    error=True)


def promotions():
    """torch.promote_types for every pair of airc's dtypes."""
    return ["promote %s %s %s" % (a, b, DT_NAME[torch.promote_types(DT[a], DT[b])])
            for a in DT for b in DT]


def main():
    root = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(root, "data", "meta_cases.txt")
    text = "# Generated by tests/gen_meta_cases.py (PyTorch %s); do not edit.\n" % (
        torch.__version__) + "\n".join(promotions() + CASES) + "\n"
    with open(path, "w") as f:
        f.write(text)
    print("wrote %s: %d cases, %d bytes" % (path, len(CASES), len(text)))


if __name__ == "__main__":
    main()
