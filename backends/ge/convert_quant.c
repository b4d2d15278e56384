/* The fake-quantization ops to Ascend IR, composites of basic GE ops
 * (TorchAir has no converter): the CPU kernel's arithmetic
 * (backends/cpu/k_quant.c) op by op.
 *   t = Mul(x, inv), inv = RealDiv(1, scale) in f32 (f64 for an f64 x);
 *   q = Add(Round(t), zero_point) in the same type, or for a float
 *       per-channel zero point Round(Add(t, zero_point)) in f32. GE's
 *       Round rounds half to even (TensorFlow's; the reference executor
 *       raises it to aten.round, torch's nearbyint);
 *   x86's conversion of an f32 q to int64 (NaN or past int64: INT64_MIN)
 *       as a SelectV2 on |q| < 2^63 in f64 (for an f64 x: NaN only);
 *   mask = LogicalAnd(GreaterEqual(q, quant_min), LessEqual(q, quant_max));
 *   output = Mul(Sub(ClipByValue-like Minimum(Maximum(q, quant_min),
 *       quant_max), zero_point), scale) in f64, Cast through f32 to the
 *       result's dtype.
 * Per-channel qparams are Reshaped to [1, .., C, .., 1] (C at axis) and
 * broadcast by the binary ops. The tensor-qparams form reads its qparams
 * as torch's .item(): scale Cast to f32, zero point and fake_quant_enabled
 * Cast to int32 (truncation); disabled, the output is x and the mask all
 * true (SelectV2). The learnable forms round and clamp their float zero
 * point first (Round, Maximum, Minimum, which keep NaN as torch's clamp).
 * The checks torch makes on data (a zero point outside [quant_min,
 * quant_max], .item()'s overflow) are not made here. */
#include "backends/cpu/k_strided.h"
#include "backends/ge/ge_internal.h"
#include "ir/ir.h"
#include "ops/meta_util.h"

#include <math.h>
#include <string.h>

/* One composite's shapes: the result's (nd, s) */
typedef struct fq {
    airc_ge_builder *b;
    int32_t nd;
    const int64_t *s;
} fq;

/* type(a, b) of dt, shaped like the result (broadcast) or 0-d (scalar) */
static airc_status op2(const fq *c, const char *type, airc_ge_tensor a, airc_ge_tensor b,
                       airc_dtype dt, bool scalar, airc_ge_tensor *out)
{
    airc_ge_tensor in[2] = {a, b};
    return airc_ge_ew_op(c->b, type, in, 2, dt, scalar ? 0 : c->nd, c->s, out);
}

/* type(a, a 0-d Const v of a's dtype ad), of dtype dt */
static airc_status op2_num(const fq *c, const char *type, airc_ge_tensor a, double v, airc_dtype ad,
                           airc_dtype dt, bool scalar, airc_ge_tensor *out)
{
    airc_ge_tensor k;
    AIRC_TRY(airc_ge_const_scalar(c->b, ad, v, &k));
    return op2(c, type, a, k, dt, scalar, out);
}

/* The qparams of one composite, as tensors broadcasting against x. */
typedef struct fq_qparams {
    airc_ge_tensor scale; /* f32 */
    airc_ge_tensor zp;    /* f64; integral unless zp_float */
    bool zp_float;
    int32_t nd; /* their shape: 0-d (per-tensor) or [1, .., C, .., 1] */
    const int64_t *s;
    int64_t qmin, qmax;
} fq_qparams;

/* (output, mask) of x (argument 0) with qparams p */
static airc_status fake_quantize(const fq *c, const fq_qparams *p, airc_dtype xd, airc_ge_tensor *y,
                                 airc_ge_tensor *mask)
{
    airc_ge_builder *b = c->b;
    bool dbl = xd == AIRC_DTYPE_F64;
    airc_dtype ct = dbl ? AIRC_DTYPE_F64 : AIRC_DTYPE_F32;
    airc_ge_tensor x, inv, t, q, zp, sd, ok, lo, hi;
    AIRC_TRY(airc_ge_operand(b, 0, ct, &x));
    AIRC_TRY(airc_ge_const_scalar(b, AIRC_DTYPE_F32, 1, &t));
    AIRC_TRY(airc_ge_ew_op(b, "RealDiv", (airc_ge_tensor[]){t, p->scale}, 2, AIRC_DTYPE_F32, p->nd,
                           p->s, &inv));
    if (dbl)
        AIRC_TRY(airc_ge_cast(b, inv, ct, &inv));
    AIRC_TRY(op2(c, "Mul", x, inv, ct, false, &t));
    if (p->zp_float) { /* lrintf(zero_point + x * inv_scale) */
        AIRC_TRY(airc_ge_cast(b, p->zp, ct, &zp));
        AIRC_TRY(op2(c, "Add", zp, t, ct, false, &q));
        if (dbl)
            AIRC_TRY(airc_ge_cast(b, q, AIRC_DTYPE_F32, &q));
        AIRC_TRY(airc_ge_ew_op(b, "Round", &q, 1, AIRC_DTYPE_F32, c->nd, c->s, &q));
    } else {
        AIRC_TRY(airc_ge_ew_op(b, "Round", &t, 1, ct, c->nd, c->s, &t));
        AIRC_TRY(airc_ge_cast(b, p->zp, ct, &zp));
        AIRC_TRY(op2(c, "Add", t, zp, ct, false, &q));
    }
    AIRC_TRY(airc_ge_cast(b, q, AIRC_DTYPE_F64, &q));
    /* the value torch's conversion to int64 gives: an f64 q stays (NaN
     * becomes quant_min, outside the mask), an f32 one past int64 or NaN
     * is INT64_MIN (-2^63, exact in f64) before the mask */
    bool keep = dbl && !p->zp_float;
    airc_ge_tensor up;
    AIRC_TRY(airc_ge_const_scalar(b, AIRC_DTYPE_F64, (double)p->qmin, &lo));
    AIRC_TRY(airc_ge_const_scalar(b, AIRC_DTYPE_F64, (double)p->qmax, &hi));
    if (keep) {
        AIRC_TRY(airc_ge_ew_op(b, "IsNan", &q, 1, AIRC_DTYPE_BOOL, c->nd, c->s, &ok));
        AIRC_TRY(airc_ge_select(b, ok, lo, q, AIRC_DTYPE_F64, c->nd, c->s, &t));
    } else {
        airc_ge_tensor min;
        AIRC_TRY(airc_ge_ew_op(b, "Abs", &q, 1, AIRC_DTYPE_F64, c->nd, c->s, &t));
        AIRC_TRY(op2_num(c, "Less", t, 9223372036854775808.0, AIRC_DTYPE_F64, AIRC_DTYPE_BOOL,
                         false, &ok));
        AIRC_TRY(airc_ge_const_scalar(b, AIRC_DTYPE_F64, -9223372036854775808.0, &min));
        AIRC_TRY(airc_ge_select(b, ok, q, min, AIRC_DTYPE_F64, c->nd, c->s, &q));
        t = q;
    }
    if (keep) { /* the mask in double, as the kernel's */
        AIRC_TRY(op2(c, "GreaterEqual", q, lo, AIRC_DTYPE_BOOL, false, &up));
        AIRC_TRY(op2(c, "LessEqual", q, hi, AIRC_DTYPE_BOOL, false, &ok));
    } else { /* in int64 (q is one now), exact next to int64's ends */
        airc_ge_tensor qi, b64[2];
        AIRC_TRY(airc_ge_cast(b, q, AIRC_DTYPE_I64, &qi));
        AIRC_TRY(airc_ge_const(b, AIRC_DTYPE_I64, 0, NULL, &p->qmin, &b64[0]));
        AIRC_TRY(airc_ge_const(b, AIRC_DTYPE_I64, 0, NULL, &p->qmax, &b64[1]));
        AIRC_TRY(op2(c, "GreaterEqual", qi, b64[0], AIRC_DTYPE_BOOL, false, &up));
        AIRC_TRY(op2(c, "LessEqual", qi, b64[1], AIRC_DTYPE_BOOL, false, &ok));
    }
    AIRC_TRY(op2(c, "LogicalAnd", up, ok, AIRC_DTYPE_BOOL, false, mask));
    q = t;
    AIRC_TRY(op2(c, "Maximum", q, lo, AIRC_DTYPE_F64, false, &q));
    AIRC_TRY(op2(c, "Minimum", q, hi, AIRC_DTYPE_F64, false, &q));
    AIRC_TRY(airc_ge_cast(b, p->zp, AIRC_DTYPE_F64, &zp));
    AIRC_TRY(op2(c, "Sub", q, zp, AIRC_DTYPE_F64, false, &q));
    AIRC_TRY(airc_ge_cast(b, p->scale, AIRC_DTYPE_F64, &sd));
    AIRC_TRY(op2(c, "Mul", q, sd, AIRC_DTYPE_F64, false, y));
    if (!dbl) {
        AIRC_TRY(airc_ge_cast(b, *y, AIRC_DTYPE_F32, y));
        if (xd != AIRC_DTYPE_F32)
            AIRC_TRY(airc_ge_cast(b, *y, xd, y));
    }
    return AIRC_OK;
}

/* Argument arg (a tensor) as its first element, 0-d, of dtype dt: t[0]
 * or t.item() (meta checked it has one there). */
static airc_status first_item(airc_ge_builder *b, size_t arg, airc_dtype dt, airc_ge_tensor *out)
{
    airc_ge_tensor t, i0;
    airc_dtype td;
    int32_t nd = 0;
    const int64_t *s;
    AIRC_TRY(airc_ge_input(b, arg, &t));
    AIRC_TRY(airc_ge_tensor_meta(b, t, &td, &nd, &s));
    int64_t n = 1;
    for (int32_t i = 0; i < nd; i++)
        n *= s[i];
    AIRC_TRY(airc_ge_reshape(b, t, td, 1, &n, &t));
    AIRC_TRY(airc_ge_const_scalar(b, AIRC_DTYPE_I64, 0, &i0));
    AIRC_TRY(airc_ge_gather(b, t, i0, 0, td, 0, NULL, &t));
    return airc_ge_cast(b, t, dt, out);
}

/* zero_point rounded (nearbyint) and clamped in float (NaN stays), as the
 * learnable ops do; zd the dtype the clamp bounds convert to */
static airc_status round_clamp(const fq *c, airc_ge_tensor z, airc_dtype zd, int64_t qmin,
                               int64_t qmax, int32_t nd, const int64_t *s, airc_ge_tensor *out)
{
    airc_ge_builder *b = c->b;
    airc_ge_tensor t[2];
    AIRC_TRY(airc_ge_ew_op(b, "Round", &z, 1, AIRC_DTYPE_F64, nd, s, &t[0]));
    AIRC_TRY(airc_ge_const_scalar(b, AIRC_DTYPE_F64, (double)airc_cpu_round_f64(zd, (double)qmin),
                                  &t[1]));
    AIRC_TRY(airc_ge_ew_op(b, "Maximum", t, 2, AIRC_DTYPE_F64, nd, s, &t[0]));
    AIRC_TRY(airc_ge_const_scalar(b, AIRC_DTYPE_F64, (double)airc_cpu_round_f64(zd, (double)qmax),
                                  &t[1]));
    return airc_ge_ew_op(b, "Minimum", t, 2, AIRC_DTYPE_F64, nd, s, out);
}

/* The per-tensor forms: fake_quantize_per_tensor_affine_cachemask (float
 * scale, int zero_point), the tensor-qparams form, the learnable form */
static airc_status conv_per_tensor(airc_ge_builder *b, const airc_node *n, void *ud)
{
    const char *form = ud;
    const airc_tmeta *om = &n->out[0];
    fq c = {b, om->ndim, om->shape};
    bool qparams = !strcmp(form, "qparams"), learnable = !strcmp(form, "learnable");
    size_t lo_arg = qparams ? 4 : 3;
    fq_qparams p = {.qmin = airc_ge_int_arg(b, lo_arg, 0),
                    .qmax = airc_ge_int_arg(b, lo_arg + 1, 0)};
    airc_ge_tensor y, mask, on = {0};
    if (!qparams && !learnable) {
        AIRC_TRY(
            airc_ge_const_scalar(b, AIRC_DTYPE_F32, (float)airc_ge_number_arg(b, 1, 1), &p.scale));
        AIRC_TRY(airc_ge_const_scalar(b, AIRC_DTYPE_F64, (double)airc_ge_int_arg(b, 2, 0), &p.zp));
    } else if (qparams) { /* .item().toFloat(), .item().toInt() */
        AIRC_TRY(first_item(b, 1, AIRC_DTYPE_F32, &p.scale));
        AIRC_TRY(first_item(b, 2, AIRC_DTYPE_I32, &p.zp));
        AIRC_TRY(airc_ge_cast(b, p.zp, AIRC_DTYPE_F64, &p.zp));
        AIRC_TRY(first_item(b, 3, AIRC_DTYPE_I32, &on));
        AIRC_TRY(op2_num(&c, "NotEqual", on, 0, AIRC_DTYPE_I32, AIRC_DTYPE_BOOL, true, &on));
    } else { /* scale[0], zero_point[0] as float, rounded and clamped */
        AIRC_TRY(first_item(b, 1, AIRC_DTYPE_F32, &p.scale));
        AIRC_TRY(first_item(b, 2, AIRC_DTYPE_F32, &p.zp));
        AIRC_TRY(airc_ge_cast(b, p.zp, AIRC_DTYPE_F64, &p.zp));
        AIRC_TRY(round_clamp(&c, p.zp, AIRC_DTYPE_F32, p.qmin, p.qmax, 0, NULL, &p.zp));
    }
    AIRC_TRY(fake_quantize(&c, &p, om->dtype, &y, &mask));
    if (qparams) { /* disabled: x as it is, the mask all true */
        airc_ge_tensor x, off;
        AIRC_TRY(airc_ge_operand(b, 0, om->dtype, &x));
        AIRC_TRY(airc_ge_select(b, on, y, x, om->dtype, c.nd, c.s, &y));
        AIRC_TRY(airc_ge_ew_op(b, "LogicalNot", &on, 1, AIRC_DTYPE_BOOL, 0, NULL, &off));
        AIRC_TRY(op2(&c, "LogicalOr", mask, off, AIRC_DTYPE_BOOL, false, &mask));
    }
    AIRC_TRY(airc_ge_set_result(b, 0, y));
    return learnable ? AIRC_OK : airc_ge_set_result(b, 1, mask);
}

/* fake_quantize_per_channel_affine_cachemask and (ud "learnable") its
 * learnable form: scale and zero_point Reshaped to [1, .., C, .., 1] */
static airc_status conv_per_channel(airc_ge_builder *b, const airc_node *n, void *ud)
{
    bool learnable = ud != NULL;
    const airc_tmeta *om = &n->out[0];
    fq c = {b, om->ndim, om->shape};
    int64_t axis = airc_ge_int_arg(b, 3, 0), ch, shape[AIRC_MAX_DIMS];
    if (axis < 0 || axis >= om->ndim)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: axis %lld out of range", n->name,
                         (long long)axis);
    ch = om->shape[axis];
    for (int32_t i = 0; i < om->ndim; i++)
        shape[i] = i == axis ? ch : 1;
    fq_qparams p = {.nd = om->ndim,
                    .s = shape,
                    .qmin = airc_ge_int_arg(b, 4, 0),
                    .qmax = airc_ge_int_arg(b, 5, 0)};
    airc_ge_tensor z, y, mask;
    airc_dtype zd;
    AIRC_TRY(airc_ge_input(b, 2, &z));
    AIRC_TRY(airc_ge_tensor_meta(b, z, &zd, NULL, NULL));
    AIRC_TRY(airc_ge_operand(b, 1, AIRC_DTYPE_F32, &p.scale));
    AIRC_TRY(airc_ge_reshape(b, p.scale, AIRC_DTYPE_F32, om->ndim, shape, &p.scale));
    p.zp_float = !learnable && airc_dtype_is_floating(zd);
    if (learnable && airc_dtype_is_floating(zd)) {
        /* round, clamp, then int32 as x86 converts (NaN, past int32: INT32_MIN) */
        airc_ge_tensor ok, t;
        AIRC_TRY(airc_ge_operand(b, 2, AIRC_DTYPE_F64, &z));
        AIRC_TRY(round_clamp(&c, z, zd, p.qmin, p.qmax, 1, &ch, &z));
        AIRC_TRY(airc_ge_ew_op(b, "Abs", &z, 1, AIRC_DTYPE_F64, 1, &ch, &t));
        AIRC_TRY(op2_num(&(fq){b, 1, &ch}, "Less", t, 2147483648.0, AIRC_DTYPE_F64, AIRC_DTYPE_BOOL,
                         false, &ok));
        AIRC_TRY(airc_ge_const_scalar(b, AIRC_DTYPE_F64, -2147483648.0, &t));
        AIRC_TRY(airc_ge_select(b, ok, z, t, AIRC_DTYPE_F64, 1, &ch, &z));
    } else if (learnable) { /* integers: clamped, wrapped to int32 */
        airc_ge_tensor t;
        AIRC_TRY(airc_ge_operand(b, 2, AIRC_DTYPE_I64, &z));
        AIRC_TRY(op2_num(&(fq){b, 1, &ch}, "Maximum", z, (double)p.qmin, AIRC_DTYPE_I64,
                         AIRC_DTYPE_I64, false, &z));
        AIRC_TRY(op2_num(&(fq){b, 1, &ch}, "Minimum", z, (double)p.qmax, AIRC_DTYPE_I64,
                         AIRC_DTYPE_I64, false, &t));
        AIRC_TRY(airc_ge_cast(b, t, AIRC_DTYPE_I32, &z));
        AIRC_TRY(airc_ge_cast(b, z, AIRC_DTYPE_F64, &z));
    } else {
        AIRC_TRY(airc_ge_operand(b, 2, AIRC_DTYPE_F64, &z));
    }
    AIRC_TRY(airc_ge_reshape(b, z, AIRC_DTYPE_F64, om->ndim, shape, &p.zp));
    AIRC_TRY(fake_quantize(&c, &p, om->dtype, &y, &mask));
    AIRC_TRY(airc_ge_set_result(b, 0, y));
    return learnable ? AIRC_OK : airc_ge_set_result(b, 1, mask);
}

static const ge_conv_entry conv[] = {
    {"aten.fake_quantize_per_tensor_affine_cachemask.default", conv_per_tensor, "float"},
    {"aten._fake_quantize_per_tensor_affine_cachemask_tensor_qparams.default", conv_per_tensor,
     "qparams"},
    {"aten._fake_quantize_learnable_per_tensor_affine.default", conv_per_tensor, "learnable"},
    {"aten.fake_quantize_per_channel_affine_cachemask.default", conv_per_channel, NULL},
    {"aten._fake_quantize_learnable_per_channel_affine.default", conv_per_channel, "learnable"},
};

const ge_family airc_ge_family_quant = {conv, sizeof conv / sizeof *conv, NULL, 0};
