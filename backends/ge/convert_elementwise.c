/* Elementwise ops to and from Ascend IR: unary math (Abs, Exp, Relu, ...),
 * binary arithmetic and comparisons (Add, Sub, Mul, RealDiv, FloorDiv,
 * FloorMod for remainder, Mod for fmod, Atan2, Bitwise*, Equal, ...),
 * Cast, Identity; logical_and / or / xor -> LogicalAnd / LogicalOr /
 * NotEqual of bools (their operands read in their result type first);
 * fmax / fmin, logaddexp and xlogy as NaN-aware
 * composites (IsNan / IsInf and SelectV2); sinc, deg2rad, signbit,
 * copysign, hypot and heaviside as composites (sinc and deg2rad of f16 / bf16 in f32, cast
 * back); Addcmul, Addcdiv, Lerp. Operands are cast to a common
 * dtype first, as TorchAir's dtype_promote does: arithmetic to the
 * result's dtype, comparisons to the inputs' promoted dtype. A number
 * operand becomes a 0-d Const. */
#include "backends/ge/ge_internal.h"
#include "ir/ir.h"
#include "ops/meta_util.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* ---- unary ------------------------------------------------------------------ */

/* aten op <-> GE type; the GE op has input "x" and output "y". An X-macro,
 * so that the tables below name the strings themselves: clang (and C11)
 * does not take unary[i][0] as a constant initializer. */
#define UNARY_OPS(X)                                                                               \
    X(0, "aten.abs.default", "Abs")                                                                \
    X(1, "aten.bitwise_not.default", "Invert")                                                     \
    X(2, "aten.ceil.default", "Ceil")                                                              \
    X(3, "aten.cos.default", "Cos")                                                                \
    X(4, "aten.erf.default", "Erf")                                                                \
    X(5, "aten.exp.default", "Exp")                                                                \
    X(6, "aten.expm1.default", "Expm1")                                                            \
    X(7, "aten.floor.default", "Floor")                                                            \
    X(8, "aten.log.default", "Log")                                                                \
    X(9, "aten.log1p.default", "Log1p")                                                            \
    X(10, "aten.logical_not.default", "LogicalNot")                                                \
    X(11, "aten.neg.default", "Neg")                                                               \
    X(12, "aten.reciprocal.default", "Reciprocal")                                                 \
    X(13, "aten.relu.default", "Relu")                                                             \
    X(14, "aten.round.default", "Round")                                                           \
    X(15, "aten.rsqrt.default", "Rsqrt")                                                           \
    X(16, "aten.sigmoid.default", "Sigmoid")                                                       \
    X(17, "aten.sign.default", "Sign")                                                             \
    X(18, "aten.sin.default", "Sin")                                                               \
    X(19, "aten.sqrt.default", "Sqrt")                                                             \
    X(20, "aten.tanh.default", "Tanh")                                                             \
    X(21, "aten.trunc.default", "Trunc")                                                           \
    X(22, "aten.isnan.default", "IsNan")                                                           \
    X(23, "aten.isinf.default", "IsInf")                                                           \
    X(24, "aten.mish.default", "Mish")                                                             \
    X(25, "aten.tan.default", "Tan")                                                               \
    X(26, "aten.atan.default", "Atan")                                                             \
    X(27, "aten.asin.default", "Asin")                                                             \
    X(28, "aten.acos.default", "Acos")                                                             \
    X(29, "aten.sinh.default", "Sinh")                                                             \
    X(30, "aten.cosh.default", "Cosh")                                                             \
    X(31, "aten.asinh.default", "Asinh")                                                           \
    X(32, "aten.acosh.default", "Acosh")                                                           \
    X(33, "aten.atanh.default", "Atanh")                                                           \
    X(34, "aten.erfc.default", "Erfc")                                                             \
    X(35, "aten.erfinv.default", "Erfinv")                                                         \
    X(36, "aten.lgamma.default", "Lgamma")                                                         \
    X(37, "aten.digamma.default", "Digamma")
static const char *const unary[][2] = {
#define X(i, aten, ge) {aten, ge},
    UNARY_OPS(X)
#undef X
};
#define NUNARY (sizeof unary / sizeof *unary)

static airc_status conv_unary(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)n;
    const char *const *e = ud;
    airc_ge_tensor x;
    /* integer input of a float op (exp of i64): compute in the result dtype */
    airc_dtype want = airc_ge_node_dtype(b, 0);
    if (!strcmp(e[1], "LogicalNot"))
        want = AIRC_DTYPE_BOOL;
    static const char *const names[] = {"x"};
    if (!strcmp(e[1], "IsNan") || !strcmp(e[1], "IsInf")) { /* bool from any input dtype */
        AIRC_TRY(airc_ge_input(b, 0, &x));
        return airc_ge_simple(b, e[1], names, &x, 1, NULL);
    }
    AIRC_TRY(airc_ge_operand(b, 0, want, &x));
    return airc_ge_simple(b, e[1], names, &x, 1, NULL);
}

static airc_status raise_unary(ge_raise *r)
{
    const char *const *e = r->data;
    AIRC_TRY(airc_ge_raise_arity(r, 1));
    const airc_value *args[1] = {airc_ge_vnode(r, r->in[0])};
    return airc_ge_raise_call(r, e[0], args, 1, NULL, NULL, 0, &r->out[0]);
}

/* ---- binary --------------------------------------------------------------------- */

typedef struct binary_op {
    const char *ge;
    const char *aten; /* what the raiser emits */
    bool compare;     /* bool result; operands in their promoted dtype */
} binary_op;

static const binary_op b_add = {"Add", "aten.add.Tensor", false};
static const binary_op b_sub = {"Sub", "aten.sub.Tensor", false};
static const binary_op b_mul = {"Mul", "aten.mul.Tensor", false};
static const binary_op b_div = {"RealDiv", "aten.div.Tensor", false};
static const binary_op b_max = {"Maximum", "aten.maximum.default", false};
static const binary_op b_min = {"Minimum", "aten.minimum.default", false};
static const binary_op b_pow = {"Pow", "aten.pow.Tensor_Tensor", false};
static const binary_op b_eq = {"Equal", "aten.eq.Tensor", true};
static const binary_op b_ne = {"NotEqual", "aten.ne.Tensor", true};
static const binary_op b_lt = {"Less", "aten.lt.Tensor", true};
static const binary_op b_le = {"LessEqual", "aten.le.Tensor", true};
static const binary_op b_gt = {"Greater", "aten.gt.Tensor", true};
static const binary_op b_ge = {"GreaterEqual", "aten.ge.Tensor", true};
static const binary_op b_and = {"LogicalAnd", "aten.logical_and.default", false};
static const binary_op b_or = {"LogicalOr", "aten.logical_or.default", false};
/* raised by convert_nn.c's FloorDiv, as div(rounding_mode='floor'): the
 * same op in torch 1.13 */
static const binary_op b_floordiv = {"FloorDiv", "aten.floor_divide.default", false};
static const binary_op b_floormod = {"FloorMod", "aten.remainder.Tensor", false};
static const binary_op b_mod = {"Mod", "aten.fmod.Tensor", false};
static const binary_op b_atan2 = {"Atan2", "aten.atan2.default", false};
static const binary_op b_band = {"BitwiseAnd", "aten.bitwise_and.Tensor", false};
static const binary_op b_bor = {"BitwiseOr", "aten.bitwise_or.Tensor", false};
static const binary_op b_bxor = {"BitwiseXor", "aten.bitwise_xor.Tensor", false};
static const binary_op b_lshift = {"LeftShift", "aten.bitwise_left_shift.Tensor", false};
static const binary_op b_rshift = {"RightShift", "aten.bitwise_right_shift.Tensor", false};

/* The dtype both operands are computed in: the result's, or for
 * comparisons the operands' result type. */
static airc_dtype compute_dtype(airc_ge_builder *b, const airc_node *n, const binary_op *op)
{
    return op->compare ? airc_ge_promoted_dtype(n) : airc_ge_node_dtype(b, 0);
}

/* Operand i in dt, then as bool: the logical ops read their operands
 * after torch's common dtype (an int64 -2^40 next to an int16 tensor is
 * 0, false). */
static airc_status as_bool(airc_ge_builder *b, size_t i, airc_dtype dt, airc_ge_tensor *out)
{
    AIRC_TRY(airc_ge_operand(b, i, dt == AIRC_DTYPE_UNDEFINED ? AIRC_DTYPE_BOOL : dt, out));
    return airc_ge_cast(b, *out, AIRC_DTYPE_BOOL, out);
}

/* logical_and / logical_or / logical_xor (ud "LogicalAnd" / "LogicalOr" /
 * "NotEqual") of the operands as bools */
static airc_status conv_logical(airc_ge_builder *b, const airc_node *n, void *ud)
{
    airc_dtype dt = airc_ge_promoted_dtype(n);
    airc_ge_tensor in[2];
    AIRC_TRY(as_bool(b, 0, dt, &in[0]));
    AIRC_TRY(as_bool(b, 1, dt, &in[1]));
    static const char *const names[] = {"x1", "x2"};
    return airc_ge_simple(b, ud, names, in, 2, NULL);
}

static airc_status conv_binary(airc_ge_builder *b, const airc_node *n, void *ud)
{
    const binary_op *op = ud;
    airc_dtype dt = compute_dtype(b, n, op);
    if (dt == AIRC_DTYPE_UNDEFINED)
        return airc_fail(AIRC_E_INVALID_GRAPH, "%s: operands without meta", n->target);
    airc_ge_tensor in[2];
    AIRC_TRY(airc_ge_operand(b, 0, dt, &in[0]));
    AIRC_TRY(airc_ge_operand(b, 1, dt, &in[1]));
    /* add/sub alpha: other * alpha first (TorchAir: AxpyV2 / a Mul by Const) */
    if (n->op &&
        (!strncmp(n->op->qualname, "aten.add", 8) || !strncmp(n->op->qualname, "aten.sub", 8)))
        AIRC_TRY(airc_ge_scale(b, in[1], 2, &in[1]));
    static const char *const names[] = {"x1", "x2"};
    return airc_ge_simple(b, op->ge, names, in, 2, NULL);
}

/* __lshift__ / bitwise_left_shift (LeftShift) and the right shifts
 * (RightShift) of x by y in the result's dtype: torch 1.13 shifts the
 * promoted value by the count mod 32 (mod 64 in int64), as x86 does, so
 * the count goes through a BitwiseAnd first. */
static airc_status conv_shift(airc_ge_builder *b, const airc_node *n, void *ud)
{
    const binary_op *op = ud;
    airc_dtype dt = airc_ge_node_dtype(b, 0);
    airc_ge_tensor in[2], mask;
    AIRC_TRY(airc_ge_operand(b, 0, dt, &in[0]));
    AIRC_TRY(airc_ge_operand(b, 1, dt, &in[1]));
    AIRC_TRY(airc_ge_const_scalar(b, dt, dt == AIRC_DTYPE_I64 ? 63 : 31, &mask));
    int32_t nd = 0;
    const int64_t *shape = NULL;
    AIRC_TRY(airc_ge_tensor_meta(b, in[1], NULL, &nd, &shape));
    airc_ge_tensor count[2] = {in[1], mask};
    AIRC_TRY(airc_ge_ew_op(b, "BitwiseAnd", count, 2, dt, nd, shape, &in[1]));
    airc_ge_op *g;
    AIRC_TRY(airc_ge_op_create(b, op->ge, &g));
    AIRC_TRY(airc_ge_op_input(g, "x", in[0]));
    AIRC_TRY(airc_ge_op_input(g, "y", in[1]));
    airc_ge_tensor z;
    AIRC_TRY(airc_ge_op_output_like_node(g, "z", 0, &z));
    (void)n;
    return airc_ge_set_result(b, 0, z);
}

/* _add_relu(self, other, alpha): Add of other * alpha, Relu, and a Minimum
 * with the largest value of self's dtype where it bounds the result
 * (torch 1.13's add_clamp to [0, that max]: +inf is FLT_MAX, an int16 self
 * next to an int32 tensor caps at 32767) */
static airc_status conv_add_relu(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_tmeta *om = &n->out[0];
    airc_ge_tensor in[2], y;
    AIRC_TRY(airc_ge_input(b, 0, &in[0]));
    airc_dtype self = AIRC_DTYPE_UNDEFINED;
    AIRC_TRY(airc_ge_tensor_meta(b, in[0], &self, NULL, NULL));
    AIRC_TRY(airc_ge_operand(b, 0, om->dtype, &in[0]));
    AIRC_TRY(airc_ge_operand(b, 1, om->dtype, &in[1]));
    AIRC_TRY(airc_ge_scale(b, in[1], 2, &in[1]));
    AIRC_TRY(airc_ge_ew_op(b, "Add", in, 2, om->dtype, om->ndim, om->shape, &y));
    AIRC_TRY(airc_ge_ew_op(b, "Relu", &y, 1, om->dtype, om->ndim, om->shape, &y));
    double cap = self == AIRC_DTYPE_I8    ? INT8_MAX
                 : self == AIRC_DTYPE_I16 ? INT16_MAX
                 : self == AIRC_DTYPE_I32 ? INT32_MAX
                 : self == AIRC_DTYPE_F32 ? FLT_MAX
                 : self == AIRC_DTYPE_F64 ? DBL_MAX
                                          : (double)INT64_MAX;
    /* an integer result is at most self's dtype (a wider one only next to a
     * 0-dim self): int64 has nothing above it */
    if (airc_dtype_is_floating(om->dtype) || (om->dtype != self && self != AIRC_DTYPE_I64)) {
        in[0] = y;
        AIRC_TRY(airc_ge_const_scalar(b, om->dtype, cap, &in[1]));
        AIRC_TRY(airc_ge_ew_op(b, "Minimum", in, 2, om->dtype, om->ndim, om->shape, &y));
    }
    return airc_ge_set_result(b, 0, y);
}

/* rsub(self, other, alpha) = other - alpha * self. */
static airc_status conv_rsub(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)n;
    (void)ud;
    airc_dtype dt = airc_ge_node_dtype(b, 0);
    airc_ge_tensor self, other;
    AIRC_TRY(airc_ge_operand(b, 0, dt, &self));
    AIRC_TRY(airc_ge_operand(b, 1, dt, &other));
    AIRC_TRY(airc_ge_scale(b, self, 2, &self));
    airc_ge_tensor in[2] = {other, self};
    static const char *const names[] = {"x1", "x2"};
    return airc_ge_simple(b, "Sub", names, in, 2, NULL);
}

static airc_status raise_binary(ge_raise *r)
{
    const binary_op *op = r->data;
    AIRC_TRY(airc_ge_raise_arity(r, 2));
    const airc_value *args[2] = {airc_ge_vnode(r, r->in[0]), airc_ge_vnode(r, r->in[1])};
    return airc_ge_raise_call(r, op->aten, args, 2, NULL, NULL, 0, &r->out[0]);
}

/* ---- casts and copies ------------------------------------------------------------ */

static airc_status conv_cast(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)n;
    (void)ud;
    airc_ge_tensor x, y;
    AIRC_TRY(airc_ge_input(b, 0, &x));
    airc_dtype want = airc_ge_node_dtype(b, 0), have = AIRC_DTYPE_UNDEFINED;
    AIRC_TRY(airc_ge_tensor_meta(b, x, &have, NULL, NULL));
    if (have == want) { /* .to() to the same dtype: a copy */
        static const char *const names[] = {"x"};
        return airc_ge_simple(b, "Identity", names, &x, 1, NULL);
    }
    AIRC_TRY(airc_ge_cast(b, x, want, &y));
    return airc_ge_set_result(b, 0, y);
}

static airc_status raise_cast(ge_raise *r)
{
    AIRC_TRY(airc_ge_raise_arity(r, 1));
    int64_t dt = 0;
    AIRC_TRY(airc_ge_attr_i(r, "dst_type", true, 0, &dt));
    airc_dtype d = airc_ge_from_attr_dtype(dt);
    if (d == AIRC_DTYPE_UNDEFINED)
        return airc_fail(AIRC_E_UNSUPPORTED, "op '%s' (Cast): dst_type %lld is not supported",
                         r->op->name, (long long)dt);
    const airc_value *args[1] = {airc_ge_vnode(r, r->in[0])};
    const airc_value *kw[1] = {NULL};
    airc_value_dtype(r->g, d, &kw[0]);
    static const char *const names[] = {"dtype"};
    return airc_ge_raise_call(r, "aten._to_copy.default", args, 1, names, kw, 1, &r->out[0]);
}

static airc_status conv_identity(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)n;
    (void)ud;
    airc_ge_tensor x;
    AIRC_TRY(airc_ge_input(b, 0, &x));
    static const char *const names[] = {"x"};
    return airc_ge_simple(b, "Identity", names, &x, 1, NULL);
}

static airc_status raise_identity(ge_raise *r)
{
    AIRC_TRY(airc_ge_raise_arity(r, 1));
    const airc_value *args[1] = {airc_ge_vnode(r, r->in[0])};
    return airc_ge_raise_call(r, "aten.clone.default", args, 1, NULL, NULL, 0, &r->out[0]);
}

/* ---- writing a graph input back (functionalize's final copy_) --------------- */

/* copy_(input, new) -> Assign(ref=input, value=new): GE's in-place update
 * of a variable, whose output is the ref it overwrote. */
static airc_status conv_assign(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)n;
    (void)ud;
    airc_ge_tensor ref, value;
    AIRC_TRY(airc_ge_input(b, 0, &ref));
    airc_dtype dt = AIRC_DTYPE_UNDEFINED;
    int32_t nd = 0, vnd = 0;
    const int64_t *shape = NULL, *vshape = NULL;
    AIRC_TRY(airc_ge_tensor_meta(b, ref, &dt, &nd, &shape));
    AIRC_TRY(airc_ge_operand(b, 1, dt, &value));
    AIRC_TRY(airc_ge_tensor_meta(b, value, NULL, &vnd, &vshape));
    if (vnd != nd || memcmp(shape, vshape, sizeof *shape * (size_t)nd))
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "copy_ into a graph input from a value of another shape (broadcast it "
                         "first)");
    static const char *const names[] = {"ref", "value"};
    airc_ge_tensor in[2] = {ref, value};
    return airc_ge_simple(b, "Assign", names, in, 2, NULL);
}

static airc_status raise_assign(ge_raise *r)
{
    AIRC_TRY(airc_ge_raise_arity(r, 2));
    const airc_value *args[2] = {airc_ge_vnode(r, r->in[0]), airc_ge_vnode(r, r->in[1])};
    return airc_ge_raise_call(r, "aten.copy_.default", args, 2, NULL, NULL, 0, &r->out[0]);
}

/* ---- the family ------------------------------------------------------------------------ */

/* ---- NaN-aware composites ------------------------------------------------------ */

airc_dtype airc_ge_compute_dtype(airc_dtype dt)
{
    return dt == AIRC_DTYPE_F16 || dt == AIRC_DTYPE_BF16 ? AIRC_DTYPE_F32 : dt;
}

airc_status airc_ge_select(airc_ge_builder *b, airc_ge_tensor cond, airc_ge_tensor then,
                           airc_ge_tensor other, airc_dtype dt, int32_t nd, const int64_t *shape,
                           airc_ge_tensor *out)
{
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "SelectV2", &op));
    AIRC_TRY(airc_ge_op_input(op, "condition", cond));
    AIRC_TRY(airc_ge_op_input(op, "then", then));
    AIRC_TRY(airc_ge_op_input(op, "else", other));
    return airc_ge_op_output(op, "result", dt, nd, shape, out);
}

/* SelectV2(cond, then, else) with a result of the node's shape */
static airc_status select_v2(airc_ge_builder *b, const airc_tmeta *om, airc_ge_tensor cond,
                             airc_ge_tensor then, airc_ge_tensor other, airc_ge_tensor *out)
{
    return airc_ge_select(b, cond, then, other, om->dtype, om->ndim, om->shape, out);
}

/* A unary op on t of t's own shape */
static airc_status on_self(airc_ge_builder *b, const char *type, airc_ge_tensor t, airc_dtype rt,
                           airc_ge_tensor *out)
{
    int32_t nd = 0;
    const int64_t *s;
    AIRC_TRY(airc_ge_tensor_meta(b, t, NULL, &nd, &s));
    return airc_ge_ew_op(b, type, &t, 1, rt, nd, s, out);
}

/* fmax / fmin (ud "Maximum" / "Minimum") ignore a NaN operand:
 * SelectV2(IsNan(b), a, SelectV2(IsNan(a), b, Maximum(a, b))); integers
 * are the plain op. */
static airc_status conv_fmax(airc_ge_builder *b, const airc_node *n, void *ud)
{
    const airc_tmeta *om = &n->out[0];
    airc_ge_tensor x[2], m, nan;
    AIRC_TRY(airc_ge_operand(b, 0, om->dtype, &x[0]));
    AIRC_TRY(airc_ge_operand(b, 1, om->dtype, &x[1]));
    AIRC_TRY(airc_ge_ew_op(b, ud, x, 2, om->dtype, om->ndim, om->shape, &m));
    if (!airc_dtype_is_floating(om->dtype))
        return airc_ge_set_result(b, 0, m);
    AIRC_TRY(on_self(b, "IsNan", x[0], AIRC_DTYPE_BOOL, &nan));
    AIRC_TRY(select_v2(b, om, nan, x[1], m, &m));
    AIRC_TRY(on_self(b, "IsNan", x[1], AIRC_DTYPE_BOOL, &nan));
    AIRC_TRY(select_v2(b, om, nan, x[0], m, &m));
    return airc_ge_set_result(b, 0, m);
}

/* logaddexp(a, b) = SelectV2(IsInf(a) and a == b, a, Maximum(a, b) +
 * Log1p(Exp(-|a - b|))), torch's formula; logaddexp2 (ud non-NULL) with
 * Exp(-|a - b| ln 2) and the Log1p divided by ln 2 */
static airc_status conv_logaddexp(airc_ge_builder *b, const airc_node *n, void *ud)
{
    const airc_tmeta *om = &n->out[0];
    airc_dtype dt = om->dtype;
    int32_t nd = om->ndim;
    const int64_t *s = om->shape;
    airc_ge_tensor x[2], t[2], d, same;
    AIRC_TRY(airc_ge_operand(b, 0, dt, &x[0]));
    AIRC_TRY(airc_ge_operand(b, 1, dt, &x[1]));
    AIRC_TRY(airc_ge_ew_op(b, "Sub", x, 2, dt, nd, s, &d));
    AIRC_TRY(airc_ge_ew_op(b, "Abs", &d, 1, dt, nd, s, &d));
    AIRC_TRY(airc_ge_ew_op(b, "Neg", &d, 1, dt, nd, s, &d));
    if (ud) {
        t[0] = d;
        AIRC_TRY(airc_ge_const_scalar(b, dt, 0.69314718055994530942, &t[1]));
        AIRC_TRY(airc_ge_ew_op(b, "Mul", t, 2, dt, nd, s, &d));
    }
    AIRC_TRY(airc_ge_ew_op(b, "Exp", &d, 1, dt, nd, s, &d));
    AIRC_TRY(airc_ge_ew_op(b, "Log1p", &d, 1, dt, nd, s, &t[1]));
    if (ud) {
        t[0] = t[1];
        AIRC_TRY(airc_ge_const_scalar(b, dt, 1.44269504088896340736, &t[1]));
        AIRC_TRY(airc_ge_ew_op(b, "Mul", t, 2, dt, nd, s, &t[1]));
    }
    AIRC_TRY(airc_ge_ew_op(b, "Maximum", x, 2, dt, nd, s, &t[0]));
    AIRC_TRY(airc_ge_ew_op(b, "Add", t, 2, dt, nd, s, &d));
    AIRC_TRY(on_self(b, "IsInf", x[0], AIRC_DTYPE_BOOL, &t[0]));
    AIRC_TRY(airc_ge_ew_op(b, "Equal", x, 2, AIRC_DTYPE_BOOL, nd, s, &t[1]));
    AIRC_TRY(airc_ge_ew_op(b, "LogicalAnd", t, 2, AIRC_DTYPE_BOOL, nd, s, &same));
    AIRC_TRY(select_v2(b, om, same, x[0], d, &d));
    return airc_ge_set_result(b, 0, d);
}

/* xlogy(x, y) = SelectV2(IsNan(y), y, SelectV2(x == 0, 0, x * Log(y)));
 * xlog1py (ud "Log1p") the same with Log1p(y) */
static airc_status conv_xlogy(airc_ge_builder *b, const airc_node *n, void *ud)
{
    const airc_tmeta *om = &n->out[0];
    airc_dtype dt = om->dtype;
    airc_ge_tensor x[2], t[2], c;
    AIRC_TRY(airc_ge_operand(b, 0, dt, &x[0]));
    AIRC_TRY(airc_ge_operand(b, 1, dt, &x[1]));
    AIRC_TRY(on_self(b, ud ? ud : "Log", x[1], dt, &t[1]));
    t[0] = x[0];
    AIRC_TRY(airc_ge_ew_op(b, "Mul", t, 2, dt, om->ndim, om->shape, &t[1]));
    AIRC_TRY(airc_ge_const_scalar(b, dt, 0, &t[0]));
    int32_t nd = 0;
    const int64_t *s;
    AIRC_TRY(airc_ge_tensor_meta(b, x[0], NULL, &nd, &s));
    airc_ge_tensor eq[2] = {x[0], t[0]};
    AIRC_TRY(airc_ge_ew_op(b, "Equal", eq, 2, AIRC_DTYPE_BOOL, nd, s, &c));
    AIRC_TRY(select_v2(b, om, c, t[0], t[1], &t[1]));
    AIRC_TRY(on_self(b, "IsNan", x[1], AIRC_DTYPE_BOOL, &c));
    AIRC_TRY(select_v2(b, om, c, x[1], t[1], &t[1]));
    return airc_ge_set_result(b, 0, t[1]);
}

/* ---- three operands: addcmul, addcdiv, lerp ---------------------------------- */

/* Argument arg as a tensor of dt, the number dflt when absent. */
static airc_status operand_or(airc_ge_builder *b, size_t arg, airc_dtype dt, double dflt,
                              airc_ge_tensor *out)
{
    const airc_value *v = airc_ge_arg(b, arg);
    if (!v || v->kind == AIRC_VALUE_NONE)
        return airc_ge_const_scalar(b, dt, dflt, out);
    return airc_ge_operand(b, arg, dt, out);
}

/* addcmul / addcdiv (ud "Addcmul" / "Addcdiv"): GE's op of the same name
 * on (self, tensor1, tensor2, value), value a 0-d Const of the result's
 * dtype, as TorchAir lowers them. */
static airc_status conv_addc(airc_ge_builder *b, const airc_node *n, void *ud)
{
    airc_dtype dt = n->out[0].dtype;
    airc_ge_tensor in[4];
    for (size_t i = 0; i < 3; i++)
        AIRC_TRY(airc_ge_operand(b, i, dt, &in[i]));
    AIRC_TRY(operand_or(b, 3, dt, 1, &in[3]));
    static const char *const names[] = {"input_data", "x1", "x2", "value"};
    return airc_ge_simple(b, ud, names, in, 4, NULL);
}

/* Addcmul / Addcdiv back: addcmul / addcdiv with the Const value as their
 * number; a computed value as self + value * x1 * x2 (or / x2) */
static airc_status raise_addc(ge_raise *r)
{
    AIRC_TRY(airc_ge_raise_arity(r, 4));
    const airc_value *value = NULL;
    if (r->cin[3])
        AIRC_TRY(airc_ge_tensordef_number(r, r->cin[3], &value, NULL));
    const bool mul = !strcmp(r->data, "aten.mul.Tensor");
    if (value) {
        const airc_value *args[3] = {airc_ge_vnode(r, r->in[0]), airc_ge_vnode(r, r->in[1]),
                                     airc_ge_vnode(r, r->in[2])};
        static const char *const kw[] = {"value"};
        return airc_ge_raise_call(r, mul ? "aten.addcmul.default" : "aten.addcdiv.default", args,
                                  3, kw, &value, 1, &r->out[0]);
    }
    airc_node *t;
    const airc_value *args[2] = {airc_ge_vnode(r, r->in[3]), airc_ge_vnode(r, r->in[1])};
    AIRC_TRY(airc_ge_raise_call(r, "aten.mul.Tensor", args, 2, NULL, NULL, 0, &t));
    args[0] = airc_ge_vnode(r, t);
    args[1] = airc_ge_vnode(r, r->in[2]);
    AIRC_TRY(airc_ge_raise_call(r, r->data, args, 2, NULL, NULL, 0, &t));
    args[0] = airc_ge_vnode(r, r->in[0]);
    args[1] = airc_ge_vnode(r, t);
    return airc_ge_raise_call(r, "aten.add.Tensor", args, 2, NULL, NULL, 0, &r->out[0]);
}

/* lerp.Scalar / lerp.Tensor: GE Lerp (start, end, weight), a Scalar
 * weight as a 0-d Const of self's dtype */
static airc_status conv_lerp(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    airc_dtype dt = n->out[0].dtype;
    airc_ge_tensor in[3];
    for (size_t i = 0; i < 3; i++)
        AIRC_TRY(airc_ge_operand(b, i, dt, &in[i]));
    static const char *const names[] = {"start", "end", "weight"};
    return airc_ge_simple(b, "Lerp", names, in, 3, NULL);
}

static airc_status raise_lerp(ge_raise *r)
{
    AIRC_TRY(airc_ge_raise_arity(r, 3));
    const airc_value *args[3] = {airc_ge_vnode(r, r->in[0]), airc_ge_vnode(r, r->in[1]),
                                 airc_ge_vnode(r, r->in[2])};
    return airc_ge_raise_call(r, "aten.lerp.Tensor", args, 3, NULL, NULL, 0, &r->out[0]);
}

/* ---- composites: sinc, deg2rad, signbit, copysign, hypot, heaviside --------- */

/* sinc(x) = SelectV2(x == 0, 1, Sin(pi x) / (pi x)), in the result's dtype */
static airc_status conv_sinc(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_tmeta *om = &n->out[0];
    airc_dtype dt = airc_ge_compute_dtype(om->dtype);
    int32_t nd = om->ndim;
    const int64_t *s = om->shape;
    airc_ge_tensor x, t[2], p, c;
    AIRC_TRY(airc_ge_operand(b, 0, dt, &x));
    t[0] = x;
    AIRC_TRY(airc_ge_const_scalar(b, dt, 3.14159265358979323846, &t[1]));
    AIRC_TRY(airc_ge_ew_op(b, "Mul", t, 2, dt, nd, s, &p));
    AIRC_TRY(airc_ge_ew_op(b, "Sin", &p, 1, dt, nd, s, &t[0]));
    t[1] = p;
    AIRC_TRY(airc_ge_ew_op(b, "RealDiv", t, 2, dt, nd, s, &p));
    t[0] = x;
    AIRC_TRY(airc_ge_const_scalar(b, dt, 0, &t[1]));
    AIRC_TRY(airc_ge_ew_op(b, "Equal", t, 2, AIRC_DTYPE_BOOL, nd, s, &c));
    AIRC_TRY(airc_ge_const_scalar(b, dt, 1, &t[0]));
    AIRC_TRY(airc_ge_select(b, c, t[0], p, dt, om->ndim, om->shape, &p));
    AIRC_TRY(airc_ge_cast(b, p, om->dtype, &p));
    return airc_ge_set_result(b, 0, p);
}

/* deg2rad(x) = x * (pi / 180) in the result's dtype; rad2deg (ud: its
 * factor) x * (180 / pi) */
static const double k_rad2deg = 180.0 / 3.14159265358979323846;
static airc_status conv_deg2rad(airc_ge_builder *b, const airc_node *n, void *ud)
{
    const airc_tmeta *om = &n->out[0];
    airc_dtype dt = airc_ge_compute_dtype(om->dtype);
    airc_ge_tensor in[2], y;
    AIRC_TRY(airc_ge_operand(b, 0, dt, &in[0]));
    double k = ud ? *(const double *)ud : 3.14159265358979323846 / 180.0;
    /* the constant rounded to the result's dtype first (torch's wrapped number) */
    AIRC_TRY(airc_ge_const_scalar(b, om->dtype, k, &in[1]));
    AIRC_TRY(airc_ge_cast(b, in[1], dt, &in[1]));
    AIRC_TRY(airc_ge_ew_op(b, "Mul", in, 2, dt, om->ndim, om->shape, &y));
    AIRC_TRY(airc_ge_cast(b, y, om->dtype, &y));
    return airc_ge_set_result(b, 0, y);
}

airc_status airc_ge_sign_bit(airc_ge_builder *b, airc_ge_tensor x, airc_dtype dt, int32_t nd,
                             const int64_t *s, airc_ge_tensor *out)
{
    airc_ge_tensor t[2] = {x}, neg, zero;
    AIRC_TRY(airc_ge_const_scalar(b, dt, 0, &t[1]));
    AIRC_TRY(airc_ge_ew_op(b, "Less", t, 2, AIRC_DTYPE_BOOL, nd, s, &neg));
    if (!airc_dtype_is_floating(dt)) {
        *out = neg;
        return AIRC_OK;
    }
    AIRC_TRY(airc_ge_ew_op(b, "Equal", t, 2, AIRC_DTYPE_BOOL, nd, s, &zero));
    AIRC_TRY(airc_ge_const_scalar(b, dt, 1, &t[0]));
    t[1] = x;
    AIRC_TRY(airc_ge_ew_op(b, "RealDiv", t, 2, dt, nd, s, &t[0]));
    AIRC_TRY(airc_ge_const_scalar(b, dt, 0, &t[1]));
    AIRC_TRY(airc_ge_ew_op(b, "Less", t, 2, AIRC_DTYPE_BOOL, nd, s, &t[0]));
    t[1] = zero;
    AIRC_TRY(airc_ge_ew_op(b, "LogicalAnd", t, 2, AIRC_DTYPE_BOOL, nd, s, &t[0]));
    t[1] = neg;
    return airc_ge_ew_op(b, "LogicalOr", t, 2, AIRC_DTYPE_BOOL, nd, s, out);
}

/* signbit(x): airc_ge_sign_bit, integers and bools in int64 */
static airc_status conv_signbit(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_tmeta *om = &n->out[0];
    airc_ge_tensor x;
    AIRC_TRY(airc_ge_input(b, 0, &x));
    airc_dtype dt = AIRC_DTYPE_UNDEFINED;
    AIRC_TRY(airc_ge_tensor_meta(b, x, &dt, NULL, NULL));
    if (!airc_dtype_is_floating(dt))
        AIRC_TRY(airc_ge_operand(b, 0, dt = AIRC_DTYPE_I64, &x));
    AIRC_TRY(airc_ge_sign_bit(b, x, dt, om->ndim, om->shape, &x));
    return airc_ge_set_result(b, 0, x);
}

/* round.decimals(x, decimals) as torch 1.13's kernel, in the dtype itself
 * (bf16 rounds every step): Mul by 10^d, Round, RealDiv by it; a negative
 * d RealDiv by 10^-d, Round, Mul back */
static airc_status conv_round_decimals(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_tmeta *om = &n->out[0];
    airc_dtype ct = om->dtype;
    int64_t d = airc_ge_int_arg(b, 1, 0);
    airc_ge_tensor x[2], y;
    AIRC_TRY(airc_ge_operand(b, 0, ct, &x[0]));
    AIRC_TRY(airc_ge_const_scalar(b, ct, pow(10.0, d < 0 ? -(double)d : (double)d), &x[1]));
    AIRC_TRY(airc_ge_ew_op(b, d < 0 ? "RealDiv" : "Mul", x, 2, ct, om->ndim, om->shape, &y));
    AIRC_TRY(airc_ge_ew_op(b, "Round", &y, 1, ct, om->ndim, om->shape, &x[0]));
    AIRC_TRY(airc_ge_ew_op(b, d < 0 ? "Mul" : "RealDiv", x, 2, ct, om->ndim, om->shape, &y));
    return airc_ge_set_result(b, 0, y);
}

/* isposinf / isneginf (ud +inf / -inf): Equal to a Const of the infinity in
 * x's own dtype; integers and bools are never infinite, a Fill of false */
static const double k_pos_inf = INFINITY, k_neg_inf = -INFINITY;
static airc_status conv_isinf_signed(airc_ge_builder *b, const airc_node *n, void *ud)
{
    const airc_tmeta *om = &n->out[0];
    airc_ge_tensor x[2], y;
    AIRC_TRY(airc_ge_input(b, 0, &x[0]));
    airc_dtype dt = AIRC_DTYPE_UNDEFINED;
    AIRC_TRY(airc_ge_tensor_meta(b, x[0], &dt, NULL, NULL));
    if (!airc_dtype_is_floating(dt)) {
        AIRC_TRY(airc_ge_fill(b, AIRC_DTYPE_BOOL, om->ndim, om->shape, 0, &y));
        return airc_ge_set_result(b, 0, y);
    }
    AIRC_TRY(airc_ge_const_scalar(b, dt, *(const double *)ud, &x[1]));
    AIRC_TRY(airc_ge_ew_op(b, "Equal", x, 2, AIRC_DTYPE_BOOL, om->ndim, om->shape, &y));
    return airc_ge_set_result(b, 0, y);
}

/* copysign(self, other) = SelectV2(airc_ge_sign_bit(other), -|self|, |self|), both
 * in the result's dtype */
static airc_status conv_copysign(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_tmeta *om = &n->out[0];
    int32_t nd = om->ndim;
    const int64_t *s = om->shape;
    airc_ge_tensor x, y, neg, mag, minus;
    AIRC_TRY(airc_ge_operand(b, 0, om->dtype, &x));
    AIRC_TRY(airc_ge_operand(b, 1, om->dtype, &y));
    AIRC_TRY(airc_ge_sign_bit(b, y, om->dtype, nd, s, &neg));
    AIRC_TRY(airc_ge_ew_op(b, "Abs", &x, 1, om->dtype, nd, s, &mag));
    AIRC_TRY(airc_ge_ew_op(b, "Neg", &mag, 1, om->dtype, nd, s, &minus));
    AIRC_TRY(airc_ge_select(b, neg, minus, mag, om->dtype, nd, s, &x));
    return airc_ge_set_result(b, 0, x);
}

/* hypot(x, y) = m Sqrt(1 + (l / m)^2) of m = max(|x|, |y|), l the other:
 * 0 where m is 0, inf where either is inf (a NaN beside it too); bf16 in
 * f32, cast back. */
static airc_status conv_hypot(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_tmeta *om = &n->out[0];
    airc_dtype dt = airc_ge_compute_dtype(om->dtype);
    int32_t nd = om->ndim;
    const int64_t *s = om->shape;
    airc_ge_tensor a[2], t[2], m, l, r, inf[2];
    for (int i = 0; i < 2; i++) {
        AIRC_TRY(airc_ge_operand(b, (size_t)i, dt, &a[i]));
        AIRC_TRY(airc_ge_ew_op(b, "Abs", &a[i], 1, dt, nd, s, &a[i]));
        AIRC_TRY(airc_ge_ew_op(b, "IsInf", &a[i], 1, AIRC_DTYPE_BOOL, nd, s, &inf[i]));
    }
    AIRC_TRY(airc_ge_ew_op(b, "Maximum", a, 2, dt, nd, s, &m));
    AIRC_TRY(airc_ge_ew_op(b, "Minimum", a, 2, dt, nd, s, &l));
    t[0] = l;
    t[1] = m;
    AIRC_TRY(airc_ge_ew_op(b, "RealDiv", t, 2, dt, nd, s, &r));
    t[0] = t[1] = r;
    AIRC_TRY(airc_ge_ew_op(b, "Mul", t, 2, dt, nd, s, &r));
    t[0] = r;
    AIRC_TRY(airc_ge_const_scalar(b, dt, 1, &t[1]));
    AIRC_TRY(airc_ge_ew_op(b, "Add", t, 2, dt, nd, s, &r));
    AIRC_TRY(airc_ge_ew_op(b, "Sqrt", &r, 1, dt, nd, s, &r));
    t[0] = m;
    t[1] = r;
    AIRC_TRY(airc_ge_ew_op(b, "Mul", t, 2, dt, nd, s, &r));
    AIRC_TRY(airc_ge_const_scalar(b, dt, 0, &t[1]));
    AIRC_TRY(airc_ge_ew_op(b, "Equal", t, 2, AIRC_DTYPE_BOOL, nd, s, &l));
    AIRC_TRY(airc_ge_select(b, l, t[1], r, dt, nd, s, &r));
    AIRC_TRY(airc_ge_ew_op(b, "LogicalOr", inf, 2, AIRC_DTYPE_BOOL, nd, s, &l));
    AIRC_TRY(airc_ge_const_scalar(b, dt, INFINITY, &t[0]));
    AIRC_TRY(airc_ge_select(b, l, t[0], r, dt, nd, s, &r));
    AIRC_TRY(airc_ge_cast(b, r, om->dtype, &r));
    return airc_ge_set_result(b, 0, r);
}

/* heaviside(x, values) = SelectV2(x == 0, values, Cast(x > 0)) */
static airc_status conv_heaviside(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_tmeta *om = &n->out[0];
    airc_dtype dt = om->dtype;
    airc_ge_tensor x, v, t[2], zero, pos;
    AIRC_TRY(airc_ge_operand(b, 0, dt, &x));
    AIRC_TRY(airc_ge_operand(b, 1, dt, &v));
    int32_t nd = 0;
    const int64_t *s;
    AIRC_TRY(airc_ge_tensor_meta(b, x, NULL, &nd, &s));
    t[0] = x;
    AIRC_TRY(airc_ge_const_scalar(b, dt, 0, &t[1]));
    AIRC_TRY(airc_ge_ew_op(b, "Equal", t, 2, AIRC_DTYPE_BOOL, nd, s, &zero));
    AIRC_TRY(airc_ge_ew_op(b, "Greater", t, 2, AIRC_DTYPE_BOOL, nd, s, &pos));
    AIRC_TRY(airc_ge_cast(b, pos, dt, &pos));
    AIRC_TRY(select_v2(b, om, zero, v, pos, &pos));
    return airc_ge_set_result(b, 0, pos);
}

static const ge_conv_entry conv[] = {
#define X(i, aten, ge) {aten, conv_unary, unary[i]},
    UNARY_OPS(X)
#undef X
        {"aten.add.Tensor", conv_binary, &b_add},
    {"aten.add.Scalar", conv_binary, &b_add},
    {"aten.sub.Tensor", conv_binary, &b_sub},
    {"aten.sub.Scalar", conv_binary, &b_sub},
    {"aten._add_relu.Tensor", conv_add_relu, NULL},
    {"aten._add_relu.Scalar", conv_add_relu, NULL},
    {"aten.rsub.Tensor", conv_rsub, NULL},
    {"aten.rsub.Scalar", conv_rsub, NULL},
    {"aten.mul.Tensor", conv_binary, &b_mul},
    {"aten.mul.Scalar", conv_binary, &b_mul},
    {"aten.div.Tensor", conv_binary, &b_div},
    {"aten.div.Scalar", conv_binary, &b_div},
    {"aten.maximum.default", conv_binary, &b_max},
    {"aten.minimum.default", conv_binary, &b_min},
    {"aten.pow.Tensor_Tensor", conv_binary, &b_pow},
    {"aten.pow.Tensor_Scalar", conv_binary, &b_pow},
    {"aten.pow.Scalar", conv_binary, &b_pow},
    {"aten.eq.Tensor", conv_binary, &b_eq},
    {"aten.eq.Scalar", conv_binary, &b_eq},
    {"aten.ne.Tensor", conv_binary, &b_ne},
    {"aten.ne.Scalar", conv_binary, &b_ne},
    {"aten.lt.Tensor", conv_binary, &b_lt},
    {"aten.lt.Scalar", conv_binary, &b_lt},
    {"aten.le.Tensor", conv_binary, &b_le},
    {"aten.le.Scalar", conv_binary, &b_le},
    {"aten.gt.Tensor", conv_binary, &b_gt},
    {"aten.gt.Scalar", conv_binary, &b_gt},
    {"aten.ge.Tensor", conv_binary, &b_ge},
    {"aten.ge.Scalar", conv_binary, &b_ge},
    {"aten.logical_and.default", conv_logical, "LogicalAnd"},
    {"aten.logical_or.default", conv_logical, "LogicalOr"},
    {"aten.logical_xor.default", conv_logical, "NotEqual"},
    {"aten.floor_divide.default", conv_binary, &b_floordiv},
    {"aten.floor_divide.Scalar", conv_binary, &b_floordiv},
    {"aten.remainder.Tensor", conv_binary, &b_floormod},
    {"aten.remainder.Scalar", conv_binary, &b_floormod},
    {"aten.fmod.Tensor", conv_binary, &b_mod},
    {"aten.fmod.Scalar", conv_binary, &b_mod},
    {"aten.atan2.default", conv_binary, &b_atan2},
    {"aten.bitwise_and.Tensor", conv_binary, &b_band},
    {"aten.bitwise_and.Scalar", conv_binary, &b_band},
    {"aten.bitwise_or.Tensor", conv_binary, &b_bor},
    {"aten.bitwise_or.Scalar", conv_binary, &b_bor},
    {"aten.bitwise_xor.Tensor", conv_binary, &b_bxor},
    {"aten.bitwise_xor.Scalar", conv_binary, &b_bxor},
    {"aten.bitwise_and.Scalar_Tensor", conv_binary, &b_band},
    {"aten.bitwise_or.Scalar_Tensor", conv_binary, &b_bor},
    {"aten.bitwise_xor.Scalar_Tensor", conv_binary, &b_bxor},
    {"aten.remainder.Scalar_Tensor", conv_binary, &b_floormod},
    {"aten.__lshift__.Scalar", conv_shift, &b_lshift},
    {"aten.__lshift__.Tensor", conv_shift, &b_lshift},
    {"aten.bitwise_left_shift.Tensor", conv_shift, &b_lshift},
    {"aten.bitwise_left_shift.Tensor_Scalar", conv_shift, &b_lshift},
    {"aten.bitwise_left_shift.Scalar_Tensor", conv_shift, &b_lshift},
    {"aten.__rshift__.Scalar", conv_shift, &b_rshift},
    {"aten.__rshift__.Tensor", conv_shift, &b_rshift},
    {"aten.bitwise_right_shift.Tensor", conv_shift, &b_rshift},
    {"aten.bitwise_right_shift.Tensor_Scalar", conv_shift, &b_rshift},
    {"aten.bitwise_right_shift.Scalar_Tensor", conv_shift, &b_rshift},
    {"aten.sgn.default", conv_unary, unary[17]},          /* Sign: sgn is sign on real dtypes */
    {"aten._neg_view.default", conv_unary, unary[11]},    /* Neg: the view's values */
    {"aten._conj_physical.default", conv_identity, NULL}, /* real dtypes: a copy */
    {"aten.fmax.default", conv_fmax, "Maximum"},
    {"aten.fmin.default", conv_fmax, "Minimum"},
    {"aten.logaddexp.default", conv_logaddexp, NULL},
    {"aten.xlogy.Tensor", conv_xlogy, NULL},
    {"aten.xlogy.Scalar_Other", conv_xlogy, NULL},
    {"aten.xlogy.Scalar_Self", conv_xlogy, NULL},
    {"aten.special_xlog1py.default", conv_xlogy, "Log1p"},
    {"aten.special_xlog1py.self_scalar", conv_xlogy, "Log1p"},
    {"aten.special_xlog1py.other_scalar", conv_xlogy, "Log1p"},
    {"aten.logaddexp2.default", conv_logaddexp, "2"},
    {"aten.addcmul.default", conv_addc, "Addcmul"},
    {"aten.addcdiv.default", conv_addc, "Addcdiv"},
    {"aten.lerp.Scalar", conv_lerp, NULL},
    {"aten.lerp.Tensor", conv_lerp, NULL},
    {"aten.sinc.default", conv_sinc, NULL},
    {"aten.deg2rad.default", conv_deg2rad, NULL},
    {"aten.rad2deg.default", conv_deg2rad, &k_rad2deg},
    {"aten.signbit.default", conv_signbit, NULL},
    {"aten.round.decimals", conv_round_decimals, NULL},
    {"aten.isposinf.default", conv_isinf_signed, &k_pos_inf},
    {"aten.isneginf.default", conv_isinf_signed, &k_neg_inf},
    {"aten.copysign.Tensor", conv_copysign, NULL},
    {"aten.copysign.Scalar", conv_copysign, NULL},
    {"aten.hypot.default", conv_hypot, NULL},
    {"aten.heaviside.default", conv_heaviside, NULL},
    {"aten._to_copy.default", conv_cast, NULL},
    {"aten.to.dtype", conv_cast, NULL},
    {"aten.clone.default", conv_identity, NULL},
    {"aten.copy_.default", conv_assign, NULL},
};

static const ge_raise_entry raise[] = {
#define X(i, aten, ge) {ge, raise_unary, unary[i]},
    UNARY_OPS(X)
#undef X
        {"Add", raise_binary, &b_add},
    {"Sub", raise_binary, &b_sub},
    {"Mul", raise_binary, &b_mul},
    {"RealDiv", raise_binary, &b_div},
    {"Maximum", raise_binary, &b_max},
    {"Minimum", raise_binary, &b_min},
    {"Pow", raise_binary, &b_pow},
    {"Equal", raise_binary, &b_eq},
    {"NotEqual", raise_binary, &b_ne},
    {"Less", raise_binary, &b_lt},
    {"LessEqual", raise_binary, &b_le},
    {"Greater", raise_binary, &b_gt},
    {"GreaterEqual", raise_binary, &b_ge},
    {"LogicalAnd", raise_binary, &b_and},
    {"LogicalOr", raise_binary, &b_or},
    {"FloorMod", raise_binary, &b_floormod},
    {"Mod", raise_binary, &b_mod},
    {"Atan2", raise_binary, &b_atan2},
    {"BitwiseAnd", raise_binary, &b_band},
    {"BitwiseOr", raise_binary, &b_bor},
    {"BitwiseXor", raise_binary, &b_bxor},
    {"LeftShift", raise_binary, &b_lshift},
    {"RightShift", raise_binary, &b_rshift},
    {"Addcmul", raise_addc, "aten.mul.Tensor"},
    {"Addcdiv", raise_addc, "aten.div.Tensor"},
    {"Lerp", raise_lerp, NULL},
    {"Cast", raise_cast, NULL},
    {"Identity", raise_identity, NULL},
    {"Assign", raise_assign, NULL},
};

_Static_assert(NUNARY == 38, "conv[] and raise[] list every unary op");

const ge_family airc_ge_family_elementwise = {conv, sizeof conv / sizeof *conv, raise,
                                              sizeof raise / sizeof *raise};
