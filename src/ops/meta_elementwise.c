/* Meta functions of elementwise ops: unary, binary, comparisons, where,
 * clamp, addcmul / addcdiv / lerp, masked_fill, and their in-place twins. Dtypes follow torch's
 * type promotion; layouts follow TensorIterator (a permuted input gives a permuted output, as in
 * torch). */
#include "ops/meta_util.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

/* Schema name without a trailing '_' (the in-place spelling). */
static void base_name(const airc_meta_args *a, char *buf, size_t cap)
{
    const char *s = airc_meta_name(a);
    size_t len = strlen(s);
    if (len > 1 && s[len - 1] == '_')
        len--;
    if (len >= cap)
        len = cap - 1;
    memcpy(buf, s, len);
    buf[len] = '\0';
}

static airc_status elementwise_out(const airc_meta_args *a, const airc_operand *ops, size_t n,
                                   airc_dtype dtype, airc_tmeta *out)
{
    memset(out, 0, sizeof *out);
    AIRC_TRY(airc_meta_broadcast(a, ops, n, out->shape, &out->ndim));
    airc_meta_iter_strides(ops, n, out->shape, out->ndim, out->strides);
    out->dtype = dtype;
    return AIRC_OK;
}

/* An in-place op's result is its first operand: the other operands must
 * broadcast to its shape and the computed dtype must cast into it. */
static airc_status inplace_out(const airc_meta_args *a, const airc_operand *ops, size_t n,
                               airc_dtype result, bool check_cast, airc_tmeta *out)
{
    int64_t shape[AIRC_MAX_DIMS];
    int32_t nd;
    AIRC_TRY(airc_meta_broadcast(a, ops, n, shape, &nd));
    const airc_tmeta *self = &ops[0].t;
    bool same = nd == self->ndim;
    for (int32_t i = 0; same && i < nd; i++)
        same = shape[i] == self->shape[i];
    if (!same) {
        char s1[AIRC_META_SHAPE_STR], s2[AIRC_META_SHAPE_STR];
        return airc_fail(AIRC_E_SHAPE,
                         "%s: output with shape %s doesn't match the broadcast shape %s", a->op,
                         airc_meta_shape_str(self->shape, self->ndim, s1),
                         airc_meta_shape_str(shape, nd, s2));
    }
    /* masked_fill_ only warns (deprecated) */
    if (strcmp(airc_meta_name(a), "masked_fill_"))
        AIRC_TRY(airc_meta_no_internal_overlap(a, self));
    if (check_cast && !airc_can_cast(result, self->dtype))
        return airc_fail(AIRC_E_SHAPE,
                         "%s: result type %s can't be cast to the desired output type %s", a->op,
                         airc_dtype_torch_type_name(result),
                         airc_dtype_torch_type_name(self->dtype));
    *out = *self;
    return AIRC_OK;
}

static airc_status finish(airc_node *n, const airc_meta_args *a, const airc_operand *ops,
                          size_t nops, airc_dtype dtype)
{
    airc_tmeta out;
    if (airc_meta_is_inplace(a))
        AIRC_TRY(inplace_out(a, ops, nops, dtype, true, &out));
    else
        AIRC_TRY(elementwise_out(a, ops, nops, dtype, &out));
    return airc_meta_set(n, &out);
}

static bool name_in(const char *name, const char *const *list)
{
    for (; *list; list++)
        if (!strcmp(name, *list))
            return true;
    return false;
}

/* torch.special's Bessel functions and orthogonal polynomials (k_bessel.c):
 * torch 1.13's CPU kernels have f32 / f64 only, integers computing in
 * float */
static bool is_bessel(const char *name)
{
    return !strncmp(name, "special_", 8) &&
           (strstr(name, "bessel") || strstr(name, "airy") || strstr(name, "_polynomial_"));
}

static airc_status unsupported_dtype(const airc_meta_args *a, airc_dtype d)
{
    return airc_fail(AIRC_E_SHAPE, "%s: not supported for dtype %s (%s)", a->op,
                     airc_dtype_name(d), airc_dtype_torch_type_name(d));
}

airc_status airc_meta_unary(airc_node *n, void *user_data)
{
    static const char *const no_bool[] = {"abs",        "relu",     "floor",     "ceil",
                                          "round",      "trunc",    "gelu",      "silu",
                                          "leaky_relu", "hardtanh", "threshold", NULL};
    static const char *const float_only[] = {
        "gelu", "silu", "leaky_relu", "softplus", "elu", "mish", "frac", "hardshrink",
        "softshrink", "celu", NULL};
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_operand self;
    AIRC_TRY(airc_meta_operand(&a, "self", &self));
    if (!self.present || self.wrapped)
        return airc_meta_tensor(&a, "self", &self.t);
    char name[64];
    base_name(&a, name, sizeof name);
    airc_dtype d = self.t.dtype;
    /* _neg_view: torch's view with the negative bit set, negated when it is
     * read (clone, make_fx's next node); airc has no such bit and computes
     * neg into a tensor of self's layout */
    bool neg_view = !strcmp(name, "_neg_view");
    if (neg_view && d == AIRC_DTYPE_BOOL) /* "neg_cpu" when torch reads it */
        return unsupported_dtype(&a, d);
    if (!strcmp(name, "neg") && d == AIRC_DTYPE_BOOL)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: Negation, the `-` operator, on a bool tensor is not supported. If "
                         "you are trying to invert a mask, use the `~` or `logical_not()` "
                         "operator instead.",
                         a.op);
    /* round.decimals: torch 1.13's kernel has f32, f64 and bf16 only (with
     * decimals 0 it is round's vectorized one, which has no integer either) */
    if (!strcmp(name, "round") && !strcmp(airc_meta_overload(&a), "decimals") &&
        (!airc_dtype_is_floating(d) || d == AIRC_DTYPE_F16))
        return unsupported_dtype(&a, d);
    if ((d == AIRC_DTYPE_BOOL && name_in(name, no_bool)) ||
        (!airc_dtype_is_floating(d) && name_in(name, float_only)) ||
        (!strcmp(name, "bitwise_not") && !airc_dtype_is_integral(d, true)))
        return unsupported_dtype(&a, d);
    /* their Scalar parameters convert to self's dtype, checked; but a
     * floating hardtanh with a NaN bound is torch's clamp with both bounds,
     * which fills NaN before it converts either */
    double lo_v = 0, hi_v = 0;
    if (!strcmp(name, "hardtanh") && airc_dtype_is_floating(d)) {
        AIRC_TRY(airc_meta_double(&a, "min_val", -1, &lo_v));
        AIRC_TRY(airc_meta_double(&a, "max_val", 1, &hi_v));
    }
    if (!isnan(lo_v) && !isnan(hi_v)) {
        AIRC_TRY(airc_meta_check_scalar(&a, "min_val", d));
        AIRC_TRY(airc_meta_check_scalar(&a, "max_val", d));
    }
    if (!strcmp(name, "hardtanh") && d == AIRC_DTYPE_U8) {
        double lo, hi;
        AIRC_TRY(airc_meta_double(&a, "min_val", -1, &lo));
        AIRC_TRY(airc_meta_double(&a, "max_val", 1, &hi));
        if (lo < 0 || hi < 0)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: cannot do hardtanh on an unsigned type with negative limits",
                             a.op);
    }
    AIRC_TRY(airc_meta_check_scalar(&a, "negative_slope", d));
    AIRC_TRY(airc_meta_check_scalar(&a, "lambd", d));
    AIRC_TRY(airc_meta_check_scalar(&a, "alpha", d));
    if (!strcmp(name, "celu")) {
        double alpha;
        AIRC_TRY(airc_meta_double(&a, "alpha", 1.0, &alpha));
        if (alpha == 0)
            return airc_fail(AIRC_E_SHAPE, "%s: ZeroDivisionError: alpha cannot be 0 for CELU",
                             a.op);
    }
    if (!strcmp(name, "softshrink")) {
        double lambd;
        AIRC_TRY(airc_meta_double(&a, "lambd", 0.5, &lambd));
        if (!(lambd >= 0))
            return airc_fail(AIRC_E_SHAPE,
                             "%s: lambda must be greater or equal to 0, but found to be %g", a.op,
                             lambd);
    }
    AIRC_TRY(airc_meta_check_scalar(&a, "threshold", d));
    AIRC_TRY(airc_meta_check_scalar(&a, "value", d));
    if (!strcmp(name, "gelu")) {
        const char *approx;
        AIRC_TRY(airc_meta_opt_string(&a, "approximate", &approx));
        if (approx && strcmp(approx, "none") && strcmp(approx, "tanh"))
            return airc_fail(AIRC_E_SHAPE,
                             "%s: approximate argument must be either none or tanh, got '%s'",
                             a.op, approx);
    }
    if (neg_view)
        return airc_meta_set(n, &self.t);
    return finish(n, &a, &self, 1, d);
}

airc_status airc_meta_unary_float(airc_node *n, void *user_data)
{
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    /* torch.special's newer ops name their tensor x */
    const char *arg = a.schema->nargs && !strcmp(a.schema->args[0].name, "x") ? "x" : "self";
    airc_operand self;
    AIRC_TRY(airc_meta_operand(&a, arg, &self));
    if (!self.present || self.wrapped)
        return airc_meta_tensor(&a, arg, &self.t);
    /* integer inputs compute in the default float dtype */
    airc_dtype d = airc_dtype_is_floating(self.t.dtype) ? self.t.dtype : AIRC_DTYPE_F32;
    char name[64];
    base_name(&a, name, sizeof name);
    if (!strcmp(name, "polygamma")) {
        int64_t order;
        AIRC_TRY(airc_meta_int(&a, "n", 0, &order));
        if (order < 0)
            return airc_fail(AIRC_E_SHAPE, "%s: polygamma(n, x) does not support negative n.",
                             a.op);
    }
    /* torch 1.13's CPU kernels of these have no f16 (the last four no bf16
     * either) */
    static const char *const no_f16[] = {"special_entr", "special_i0e", "i0", "polygamma", NULL};
    static const char *const no_half[] = {"special_erfcx", "special_ndtri", "special_log_ndtr",
                                          "special_i1",    "special_i1e",   NULL};
    if ((d == AIRC_DTYPE_F16 && (name_in(name, no_f16) || name_in(name, no_half))) ||
        (d == AIRC_DTYPE_BF16 && name_in(name, no_half)) ||
        ((d == AIRC_DTYPE_F16 || d == AIRC_DTYPE_BF16) && is_bessel(name)))
        return unsupported_dtype(&a, d);
    return finish(n, &a, &self, 1, d);
}

airc_status airc_meta_logical_not(airc_node *n, void *user_data)
{
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_operand self;
    AIRC_TRY(airc_meta_operand(&a, "self", &self));
    if (!self.present || self.wrapped)
        return airc_meta_tensor(&a, "self", &self.t);
    airc_tmeta out;
    if (airc_meta_is_inplace(&a))
        AIRC_TRY(inplace_out(&a, &self, 1, AIRC_DTYPE_BOOL, false, &out));
    else
        AIRC_TRY(elementwise_out(&a, &self, 1, AIRC_DTYPE_BOOL, &out));
    return airc_meta_set(n, &out);
}

/* torch's sub_check: no bool operand (ops[0], ops[1]) */
static airc_status check_sub_bools(const airc_meta_args *a, const airc_operand *ops)
{
    bool b0 = ops[0].t.dtype == AIRC_DTYPE_BOOL, b1 = ops[1].t.dtype == AIRC_DTYPE_BOOL;
    if (b0 && b1)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: Subtraction, the `-` operator, with two bool tensors is not "
                         "supported. Use the `^` or `logical_xor()` operator instead.",
                         a->op);
    if (b0 || b1)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: Subtraction, the `-` operator, with a bool tensor is not "
                         "supported. If you are trying to invert a mask, use the `~` or "
                         "`logical_not()` operator instead.",
                         a->op);
    return AIRC_OK;
}

/* The operands of a binary op: its Tensor and Scalar arguments but alpha. */
static airc_status binary_operands(const airc_meta_args *a, airc_operand *ops, size_t *nops)
{
    size_t k = 0;
    for (uint32_t i = 0; i < a->schema->nargs && k < 4; i++) {
        const airc_arg *arg = &a->schema->args[i];
        if (arg->type.is_list || !strcmp(arg->name, "alpha") ||
            (arg->type.kind != AIRC_TYPE_TENSOR && arg->type.kind != AIRC_TYPE_SCALAR))
            continue;
        AIRC_TRY(airc_meta_operand(a, arg->name, &ops[k]));
        if (!ops[k].present)
            return airc_fail(AIRC_E_SHAPE, "%s: argument '%s' is missing", a->op, arg->name);
        k++;
    }
    *nops = k;
    if (k < 2 || (ops[0].wrapped && ops[1].wrapped))
        return airc_fail(AIRC_E_SHAPE, "%s: expected a tensor operand", a->op);
    if (airc_meta_is_inplace(a) && ops[0].wrapped)
        return airc_fail(AIRC_E_SHAPE, "%s: self must be a tensor", a->op);
    return AIRC_OK;
}

airc_status airc_meta_binary(airc_node *n, void *user_data)
{
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_operand ops[4];
    size_t nops;
    AIRC_TRY(binary_operands(&a, ops, &nops));
    char name[64];
    base_name(&a, name, sizeof name);
    airc_dtype dtype = airc_result_type(ops, nops);

    if (!strcmp(name, "sub") || !strcmp(name, "rsub"))
        AIRC_TRY(check_sub_bools(&a, ops));
    const airc_value *alpha = airc_meta_get(&a, "alpha");
    if (alpha && alpha->kind == AIRC_VALUE_FLOAT && !airc_dtype_is_floating(dtype))
        return airc_fail(AIRC_E_SHAPE,
                         "%s: For integral input tensors, argument alpha must not be a floating "
                         "point number.",
                         a.op);
    /* torch converts alpha to the computation's dtype, checked; sub and
     * rsub add -alpha, which is what converts (2^31 fits int32 there,
     * -2^31 does not) */
    if ((!strcmp(name, "sub") || !strcmp(name, "rsub")) && alpha &&
        (alpha->kind == AIRC_VALUE_INT || alpha->kind == AIRC_VALUE_FLOAT)) {
        bool f = alpha->kind == AIRC_VALUE_FLOAT;
        const char *type = airc_meta_number_overflows(
            f, f ? -alpha->u.f : 0, f ? 0 : (int64_t)(0 - (uint64_t)alpha->u.i), dtype);
        if (type)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: value cannot be converted to type %s without overflow", a.op,
                             type);
    } else {
        AIRC_TRY(airc_meta_check_scalar(&a, "alpha", dtype));
    }
    if (!strcmp(name, "div")) {
        const char *mode;
        AIRC_TRY(airc_meta_opt_string(&a, "rounding_mode", &mode));
        if (mode && strcmp(mode, "trunc") && strcmp(mode, "floor"))
            return airc_fail(AIRC_E_SHAPE,
                             "%s: div expected rounding_mode to be one of None, 'trunc', or "
                             "'floor' but found '%s'",
                             a.op, mode);
        if (!mode && !airc_dtype_is_floating(dtype))
            dtype = AIRC_DTYPE_F32; /* true division of integers */
    }
    if (!strncmp(name, "bitwise_", 8) && !airc_dtype_is_integral(dtype, true))
        return unsupported_dtype(&a, dtype);
    /* __lshift__ / bitwise_left_shift and the right shifts: integers but bool
     * (base_name takes one '_' off __lshift__) */
    static const char *const shifts[] = {"__lshift_", "__rshift_", "bitwise_left_shift",
                                         "bitwise_right_shift", NULL};
    if (name_in(name, shifts) && !airc_dtype_is_integral(dtype, false))
        return unsupported_dtype(&a, dtype);
    if ((!strcmp(name, "atan2") || !strcmp(name, "xlogy") || !strcmp(name, "copysign") ||
         !strcmp(name, "special_xlog1py") || !strcmp(name, "special_zeta") || is_bessel(name)) &&
        !airc_dtype_is_floating(dtype))
        dtype = AIRC_DTYPE_F32; /* integers in the default float dtype */
    /* torch 1.13's hypot_cpu has no integer and no half kernel */
    if (!strcmp(name, "hypot") && (!airc_dtype_is_floating(dtype) || dtype == AIRC_DTYPE_F16))
        return unsupported_dtype(&a, dtype);
    if (!strcmp(name, "heaviside")) {
        if (ops[1].wrapped)
            return airc_fail(AIRC_E_SHAPE, "%s: argument 'values' must be a tensor", a.op);
        if (ops[0].t.dtype != ops[1].t.dtype)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: heaviside is not yet implemented for tensors with different "
                             "dtypes",
                             a.op);
    }
    if (!strcmp(name, "logaddexp") && !airc_dtype_is_floating(dtype))
        return unsupported_dtype(&a, dtype);
    /* torch 1.13's CPU kernels: logaddexp2 and nextafter float but f16,
     * igamma / igammac every float, special_zeta f32 / f64 (integers in
     * float), gcd / lcm integers but bool */
    if ((!strcmp(name, "logaddexp2") || !strcmp(name, "nextafter")) &&
        (!airc_dtype_is_floating(dtype) || dtype == AIRC_DTYPE_F16))
        return unsupported_dtype(&a, dtype);
    if ((!strcmp(name, "igamma") || !strcmp(name, "igammac")) && !airc_dtype_is_floating(dtype))
        return unsupported_dtype(&a, dtype);
    if ((!strcmp(name, "special_zeta") || is_bessel(name)) &&
        (dtype == AIRC_DTYPE_F16 || dtype == AIRC_DTYPE_BF16))
        return unsupported_dtype(&a, dtype);
    if ((!strcmp(name, "gcd") || !strcmp(name, "lcm")) && !airc_dtype_is_integral(dtype, false))
        return unsupported_dtype(&a, dtype);
    if (!strcmp(name, "pow")) {
        if (dtype == AIRC_DTYPE_BOOL)
            return unsupported_dtype(&a, dtype);
        if (ops[0].wrapped) {
            /* pow.Scalar: exponent's shape, always contiguous */
            airc_tmeta out = ops[1].t;
            out.dtype = dtype;
            airc_tmeta_contiguous(&out);
            return airc_meta_set(n, &out);
        }
        /* pow.Tensor_Scalar converts its exponent to the result's dtype, checked */
        if (ops[1].wrapped)
            AIRC_TRY(airc_meta_check_scalar(&a, "exponent", dtype));
        const airc_value *e = ops[1].wrapped ? airc_meta_get(&a, "exponent") : NULL;
        if (e && e->kind == AIRC_VALUE_INT && e->u.i < 0 && airc_dtype_is_integral(dtype, true))
            return airc_fail(AIRC_E_SHAPE,
                             "%s: Integers to negative integer powers are not allowed.", a.op);
    }
    return finish(n, &a, ops, nops, dtype);
}

/* _add_relu.Tensor / .Scalar(self, other, alpha): torch 1.13 picks the
 * clamp's bounds by self's dtype (asserting on any other than int8 ..
 * int64, f32, f64), then its add_clamp kernel (no half, no bool) converts
 * alpha and the bounds [0, max of self's dtype] to the result's dtype,
 * checked: an f64 0-dim self next to an f32 tensor overflows. A float
 * alpha converts to an integer result (truncated) without add's check. */
airc_status airc_meta_add_relu(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_operand ops[4];
    size_t nops;
    AIRC_TRY(binary_operands(&a, ops, &nops));
    airc_dtype self = ops[0].t.dtype, dtype = airc_result_type(ops, nops);
    int64_t imax = 0;
    double fmax = 0;
    switch (self) {
    case AIRC_DTYPE_I8: imax = INT8_MAX; break;
    case AIRC_DTYPE_I16: imax = INT16_MAX; break;
    case AIRC_DTYPE_I32: imax = INT32_MAX; break;
    case AIRC_DTYPE_I64: imax = INT64_MAX; break;
    case AIRC_DTYPE_F32: fmax = FLT_MAX; break;
    case AIRC_DTYPE_F64: fmax = DBL_MAX; break;
    default:
        return airc_fail(AIRC_E_SHAPE, "%s: Unsupported datatype for add_relu:%s", a.op,
                         airc_dtype_torch_type_name(self));
    }
    if (dtype == AIRC_DTYPE_F16 || dtype == AIRC_DTYPE_BF16 || dtype == AIRC_DTYPE_BOOL)
        return unsupported_dtype(&a, dtype);
    AIRC_TRY(airc_meta_check_scalar(&a, "alpha", dtype));
    const char *type = airc_meta_number_overflows(fmax != 0, fmax, imax, dtype);
    if (type)
        return airc_fail(AIRC_E_SHAPE, "%s: value cannot be converted to type %s without overflow",
                         a.op, type);
    return finish(n, &a, ops, nops, dtype);
}

/* log_sigmoid_forward(self) -> (output, buffer): a floating self only
 * (torch's CPU kernel), both contiguous. */
airc_status airc_meta_log_sigmoid(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta x;
    AIRC_TRY(airc_meta_tensor(&a, "self", &x));
    if (!airc_dtype_is_floating(x.dtype))
        return unsupported_dtype(&a, x.dtype);
    airc_tmeta_contiguous(&x);
    airc_tmeta outs[2] = {x, x};
    return airc_meta_set_tuple(n, outs, 2);
}

airc_status airc_meta_compare(airc_node *n, void *user_data)
{
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_operand ops[4];
    size_t nops;
    AIRC_TRY(binary_operands(&a, ops, &nops));
    return finish(n, &a, ops, nops, AIRC_DTYPE_BOOL);
}

/* Operand strides after x.to(dtype) (a no-op when the dtype matches). */
static void convert_operand(airc_operand *o, airc_dtype dtype)
{
    if (o->wrapped || o->t.dtype == dtype)
        return;
    airc_meta_like_strides(&o->t, AIRC_MEMORY_FORMAT_PRESERVE, true, o->t.strides);
    o->t.dtype = dtype;
}

airc_status airc_meta_where(airc_node *n, void *user_data)
{
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_operand ops[3];
    AIRC_TRY(airc_meta_operand(&a, "condition", &ops[0]));
    AIRC_TRY(airc_meta_operand(&a, "self", &ops[1]));
    AIRC_TRY(airc_meta_operand(&a, "other", &ops[2]));
    for (int i = 0; i < 3; i++)
        if (!ops[i].present)
            return airc_fail(AIRC_E_SHAPE, "%s: argument '%s' is missing", a.op, ops[i].name);
    airc_dtype c = ops[0].t.dtype;
    if (ops[0].wrapped || (c != AIRC_DTYPE_BOOL && c != AIRC_DTYPE_U8))
        return airc_fail(AIRC_E_SHAPE,
                         "%s: where expected condition to be a boolean tensor, but got a tensor "
                         "with dtype %s",
                         a.op, airc_dtype_torch_type_name(c));
    airc_dtype dtype = airc_result_type(&ops[1], 2);
    for (int i = 1; i < 3; i++)
        if (ops[i].wrapped) /* a Scalar self/other: a checked conversion */
            AIRC_TRY(airc_meta_check_scalar(&a, ops[i].name, dtype));
    /* torch converts self/other (and a u8 condition) before iterating */
    convert_operand(&ops[0], AIRC_DTYPE_BOOL);
    convert_operand(&ops[1], dtype);
    convert_operand(&ops[2], dtype);
    /* Scalar self/other become plain 0-dim tensors */
    for (int i = 1; i < 3; i++)
        ops[i].wrapped = false;
    airc_tmeta out;
    AIRC_TRY(elementwise_out(&a, ops, 3, dtype, &out));
    return airc_meta_set(n, &out);
}

airc_status airc_meta_clamp(airc_node *n, void *user_data)
{
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_operand ops[3];
    size_t nops = 0;
    AIRC_TRY(airc_meta_operand(&a, "self", &ops[nops++]));
    if (!ops[0].present || ops[0].wrapped)
        return airc_meta_tensor(&a, "self", &ops[0].t);
    bool tensor_overload = !strcmp(airc_meta_overload(&a), "Tensor");
    static const char *const bounds[] = {"min", "max"};
    for (int i = 0; i < 2; i++) {
        if (airc_meta_find(&a, bounds[i]) < 0)
            continue;
        AIRC_TRY(airc_meta_operand(&a, bounds[i], &ops[nops]));
        if (ops[nops].present) {
            if (tensor_overload && ops[nops].wrapped)
                return airc_fail(AIRC_E_SHAPE, "%s: argument '%s' must be a tensor", a.op,
                                 bounds[i]);
            nops++;
        } else if (strcmp(airc_meta_name(&a), "clamp") && strcmp(airc_meta_name(&a), "clamp_")) {
            return airc_fail(AIRC_E_SHAPE, "%s: argument '%s' is missing", a.op, bounds[i]);
        }
    }
    if (nops == 1)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: torch.clamp: At least one of 'min' or 'max' must not be None", a.op);
    airc_dtype dtype = airc_result_type(ops, nops);
    /* with both bounds and one of them NaN torch fills NaN before it
     * converts the bounds: nothing to check then */
    bool nan_fill = false;
    for (int i = 0; !tensor_overload && nops == 3 && i < 2; i++) {
        const airc_value *v = airc_meta_get(&a, bounds[i]);
        nan_fill = nan_fill || (v && v->kind == AIRC_VALUE_FLOAT && isnan(v->u.f));
    }
    for (int i = 0; !tensor_overload && !nan_fill && i < 2; i++)
        AIRC_TRY(airc_meta_check_scalar(&a, bounds[i], dtype));
    if (!tensor_overload && !airc_meta_is_inplace(&a)) {
        /* the Scalar overloads iterate over self.to(result_type) alone */
        convert_operand(&ops[0], dtype);
        nops = 1;
    }
    return finish(n, &a, ops, nops, dtype);
}

/* The tensors named in names[0..n), none of them a number. */
static airc_status tensor_operands(const airc_meta_args *a, const char *const *names, size_t n,
                                   airc_operand *ops)
{
    for (size_t i = 0; i < n; i++) {
        AIRC_TRY(airc_meta_operand(a, names[i], &ops[i]));
        if (!ops[i].present || ops[i].wrapped)
            return airc_fail(AIRC_E_SHAPE, "%s: argument '%s' must be a tensor", a->op, names[i]);
    }
    return AIRC_OK;
}

/* addcmul / addcdiv (and in place): self + value * tensor1 * tensor2 (or
 * / tensor2) over the three broadcast, in their promoted dtype, value
 * converted to it (checked). torch's CPU kernels take neither bool nor
 * f16, and addcdiv no integer tensor1 with an integer tensor2. */
airc_status airc_meta_addcmul(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    static const char *const names[] = {"self", "tensor1", "tensor2"};
    airc_operand ops[3];
    AIRC_TRY(tensor_operands(&a, names, 3, ops));
    char name[64];
    base_name(&a, name, sizeof name);
    if (!strcmp(name, "addcdiv") && airc_dtype_is_integral(ops[1].t.dtype, true) &&
        airc_dtype_is_integral(ops[2].t.dtype, true))
        return airc_fail(AIRC_E_SHAPE,
                         "%s: Integer division with addcdiv is no longer supported, and in a "
                         "future release addcdiv will perform a true division of tensor1 and "
                         "tensor2.",
                         a.op);
    airc_dtype dtype = airc_result_type(ops, 3);
    if (dtype == AIRC_DTYPE_BOOL || dtype == AIRC_DTYPE_F16)
        return unsupported_dtype(&a, dtype);
    AIRC_TRY(airc_meta_check_scalar(&a, "value", dtype));
    return finish(n, &a, ops, 3, dtype);
}

/* lerp.Scalar / lerp.Tensor (and in place): self + weight * (end - self)
 * in self's dtype, which end and a weight tensor must have; floating, not
 * f16 (torch's CPU kernel). */
airc_status airc_meta_lerp(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    bool tensor_weight = !strcmp(airc_meta_overload(&a), "Tensor");
    static const char *const names[] = {"self", "end", "weight"};
    airc_operand ops[3];
    size_t nops = tensor_weight ? 3 : 2;
    AIRC_TRY(tensor_operands(&a, names, nops, ops));
    airc_dtype dtype = ops[0].t.dtype;
    for (size_t i = 1; i < nops; i++)
        if (ops[i].t.dtype != dtype)
            return airc_fail(AIRC_E_SHAPE, "%s: expected dtype %s for `%s` but got dtype %s", a.op,
                             airc_dtype_torch_type_name(dtype), names[i],
                             airc_dtype_torch_type_name(ops[i].t.dtype));
    if (!airc_dtype_is_floating(dtype) || dtype == AIRC_DTYPE_F16)
        return unsupported_dtype(&a, dtype);
    if (!tensor_weight)
        AIRC_TRY(airc_meta_check_scalar(&a, "weight", dtype));
    return finish(n, &a, ops, nops, dtype);
}

airc_status airc_meta_masked_fill(airc_node *n, void *user_data)
{
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_operand ops[2];
    AIRC_TRY(airc_meta_operand(&a, "self", &ops[0]));
    AIRC_TRY(airc_meta_operand(&a, "mask", &ops[1]));
    if (!ops[0].present || ops[0].wrapped)
        return airc_meta_tensor(&a, "self", &ops[0].t);
    if (!ops[1].present || ops[1].wrapped)
        return airc_meta_tensor(&a, "mask", &ops[1].t);
    /* torch 1.13 reads another dtype's bytes as bools; torch 2 refuses it */
    if (ops[1].t.dtype != AIRC_DTYPE_BOOL && ops[1].t.dtype != AIRC_DTYPE_U8)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: masked_fill_ only supports boolean masks, but got mask with dtype %s",
                         a.op, airc_dtype_torch_type_name(ops[1].t.dtype));
    airc_operand value;
    AIRC_TRY(airc_meta_operand(&a, "value", &value));
    if (!value.present)
        return airc_fail(AIRC_E_SHAPE, "%s: argument 'value' is missing", a.op);
    if (value.wrapped)
        AIRC_TRY(airc_meta_check_scalar(&a, "value", ops[0].t.dtype));
    if (!strcmp(airc_meta_overload(&a), "Tensor") && !value.wrapped && value.t.ndim != 0)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: masked_fill_ only supports a 0-dimensional value tensor, but got "
                         "tensor with %d dimension(s).",
                         a.op, (int)value.t.ndim);
    airc_tmeta out;
    if (airc_meta_is_inplace(&a)) {
        AIRC_TRY(inplace_out(&a, ops, 2, ops[0].t.dtype, false, &out));
    } else {
        /* torch: expand_outplace(mask, self), then clone(contiguous) */
        out = ops[0].t;
        AIRC_TRY(airc_meta_broadcast(&a, ops, 2, out.shape, &out.ndim));
        airc_tmeta_contiguous(&out);
    }
    return airc_meta_set(n, &out);
}

/* prelu(self, weight): weight a scalar or 1-d of self's channel count
 * (dim 1; 1 for a tensor of fewer dims); the result is empty_like(self,
 * suggest_memory_format()): channels-last for a channels-last 4-d self. */
airc_status airc_meta_prelu(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta x, w;
    AIRC_TRY(airc_meta_tensor(&a, "self", &x));
    AIRC_TRY(airc_meta_tensor(&a, "weight", &w));
    if (w.ndim > 1)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: prelu: Expected `weight` to be a scalar or 1D tensor, but got ndim = "
                         "%d",
                         a.op, (int)w.ndim);
    int64_t channels = x.ndim >= 2 ? x.shape[1] : 1, params = airc_tmeta_numel(&w);
    if (params != 1 && params != channels)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: Mismatch of parameter numbers and input channel size. Found "
                         "parameter numbers = %" PRId64 " and channel size = %" PRId64 ".",
                         a.op, params, channels);
    if (!airc_dtype_is_floating(x.dtype))
        return unsupported_dtype(&a, x.dtype);
    /* the weight is self's dtype; torch's bf16 kernel converts any weight */
    if (w.dtype != x.dtype && x.dtype != AIRC_DTYPE_BF16)
        return airc_fail(AIRC_E_SHAPE, "%s: Found dtype %s but expected %s", a.op,
                         airc_dtype_torch_type_name(w.dtype), airc_dtype_torch_type_name(x.dtype));
    airc_tmeta out = x;
    if (x.ndim == 4 && airc_meta_is_channels_last_like(&x))
        airc_meta_channels_last_strides(&out);
    else
        airc_tmeta_contiguous(&out);
    return airc_meta_set(n, &out);
}

/* glu(self, dim=-1): the first half along dim times the sigmoid of the
 * second; laid out by TensorIterator over the two halves. */
airc_status airc_meta_glu(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_operand halves[2];
    memset(halves, 0, sizeof halves);
    airc_tmeta *x = &halves[0].t;
    AIRC_TRY(airc_meta_tensor(&a, "self", x));
    if (x->ndim == 0)
        return airc_fail(AIRC_E_SHAPE, "%s: glu does not support 0-dimensional tensors", a.op);
    int64_t dim;
    int32_t d;
    AIRC_TRY(airc_meta_int(&a, "dim", -1, &dim));
    AIRC_TRY(airc_meta_wrap_dim(&a, dim, x->ndim, false, &d));
    if (x->shape[d] % 2)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: Halving dimension must be even, but dimension %d is size %" PRId64,
                         a.op, (int)d, x->shape[d]);
    if (!airc_dtype_is_floating(x->dtype))
        return unsupported_dtype(&a, x->dtype);
    x->shape[d] /= 2;
    halves[1].t = *x;
    halves[0].present = halves[1].present = true;
    airc_tmeta out = *x;
    airc_meta_iter_strides(halves, 2, out.shape, out.ndim, out.strides);
    return airc_meta_set(n, &out);
}

/* rrelu_with_noise(self, noise, lower, upper, training, generator) in
 * evaluation: torch's leaky_relu(self, (lower + upper) / 2) into a
 * contiguous result (noise is not read, nor checked). training=True
 * draws a random slope per element: refused, as airc has no generator. */
airc_status airc_meta_rrelu_with_noise(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta self;
    bool training;
    AIRC_TRY(airc_meta_tensor(&a, "self", &self));
    AIRC_TRY(airc_meta_bool(&a, "training", false, &training));
    if (training)
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "%s: training=True draws a random slope per element, which airc does not "
                         "do; export the model in eval mode (training=False)",
                         a.op);
    if (self.dtype != AIRC_DTYPE_F32 && self.dtype != AIRC_DTYPE_F64 &&
        self.dtype != AIRC_DTYPE_BF16)
        return airc_fail(AIRC_E_SHAPE, "%s: \"leaky_relu_cpu\" not implemented for '%s'", a.op,
                         airc_dtype_torch_type_name(self.dtype));
    airc_tmeta_contiguous(&self);
    return airc_meta_set(n, &self);
}

/* frexp(self) -> (mantissa, exponent): self's dtype and int32, laid out
 * as TensorIterator lays out self's. Floating types only. */
airc_status airc_meta_frexp(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_operand self;
    AIRC_TRY(airc_meta_operand(&a, "self", &self));
    if (!self.present || self.wrapped)
        return airc_meta_tensor(&a, "self", &self.t);
    if (!airc_dtype_is_floating(self.t.dtype))
        return airc_fail(AIRC_E_SHAPE, "%s: torch.frexp() only supports floating-point dtypes",
                         a.op);
    airc_tmeta outs[2];
    AIRC_TRY(elementwise_out(&a, &self, 1, self.t.dtype, &outs[0]));
    outs[1] = outs[0];
    outs[1].dtype = AIRC_DTYPE_I32;
    return airc_meta_set_tuple(n, outs, 2);
}

/* mvlgamma(self, p): sum over j < p of lgamma(self + (j + 1 - p) / 2), plus
 * p (p - 1) / 4 log(pi); contiguous, integers in the default float type.
 * torch 1.13 checks bool, then p; its lgamma has no f16 kernel. It does
 * not check the domain (self > (p - 1) / 2) any more. Its [..., p]
 * intermediate: torch's storage check, and airc refuses past 2^24
 * elements (a p no model takes, which the kernel would loop over). */
airc_status airc_meta_mvlgamma(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta self;
    int64_t p;
    AIRC_TRY(airc_meta_tensor(&a, "self", &self));
    AIRC_TRY(airc_meta_int(&a, "p", 1, &p));
    if (self.dtype == AIRC_DTYPE_BOOL)
        return airc_fail(AIRC_E_SHAPE, "%s: The input tensor may not be a boolean tensor.", a.op);
    if (p < 1)
        return airc_fail(AIRC_E_SHAPE, "%s: p has to be greater than or equal to 1", a.op);
    if (!airc_dtype_is_floating(self.dtype))
        self.dtype = AIRC_DTYPE_F32;
    if (self.dtype == AIRC_DTYPE_F16)
        return airc_fail(AIRC_E_SHAPE, "%s: \"lgamma_vml_cpu\" not implemented for 'Half'", a.op);
    /* torch's arange of p shifts, then self + it of [..., p] elements */
    int64_t bytes, cells;
    if (__builtin_mul_overflow(p, (int64_t)airc_dtype_size(self.dtype), &bytes))
        return airc_fail(AIRC_E_SHAPE,
                         "%s: Storage size calculation overflowed with sizes=[%" PRId64 "]", a.op,
                         p);
    if (__builtin_mul_overflow(airc_tmeta_numel(&self), p, &cells) || cells > (INT64_C(1) << 24))
        return airc_fail(AIRC_E_SHAPE,
                         "%s: mvlgamma of p = %" PRId64
                         " computes an intermediate of more than 2^24 elements (self's times p; "
                         "airc refuses it where torch would allocate it)",
                         a.op, p);
    airc_tmeta_contiguous(&self);
    return airc_meta_set(n, &self);
}

/* dist(self, other, p): torch's norm(self - other, p), so sub's checks
 * (bools, broadcasting) and then norm's floating dtype; a 0-dim result of
 * the promoted dtype. */
airc_status airc_meta_dist(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_operand ops[2];
    AIRC_TRY(tensor_operands(&a, (const char *const[]){"self", "other"}, 2, ops));
    AIRC_TRY(check_sub_bools(&a, ops));
    airc_dtype dtype = airc_result_type(ops, 2);
    airc_tmeta out;
    AIRC_TRY(elementwise_out(&a, ops, 2, dtype, &out));
    if (!airc_dtype_is_floating(dtype))
        return airc_fail(AIRC_E_SHAPE,
                         "%s: norm(): input dtype should be either floating point or complex. "
                         "Got %s instead.",
                         a.op, airc_dtype_torch_type_name(dtype));
    out.ndim = 0;
    return airc_meta_set(n, &out);
}
