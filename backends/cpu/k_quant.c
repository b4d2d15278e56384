/* Kernels of the fake-quantization ops (src/ops/meta_quant.c) as torch
 * 1.13's CPU kernels compute them, element by element:
 *   q = zero_point + nearbyint(x * inv_scale), inv_scale = 1.0f / scale
 *   output = (min(max(q, quant_min), quant_max) - zero_point) * scale
 *   mask = quant_min <= q <= quant_max
 * with torch's types: x * inv_scale and the addition of an integer zero
 * point in float for f32 and f16 (double for f64); nearbyint rounds half
 * to even. For f32 and f16 q is then converted to int64 the way x86 does
 * (NaN and anything past int64's range give INT64_MIN, so +inf lands on
 * quant_min); for f64 torch's build keeps q in double (NaN lands on
 * quant_min, ±inf on the bound they pass). A float zero point
 * (per-channel) is added before the rounding (lrintf of zero_point + x *
 * inv_scale, in float) and subtracted unrounded. The output is computed
 * in double and stored through float (f16's double rounding, as torch's
 * Half conversion). */
#include "backends/cpu/k_special.h"
#include "backends/cpu/k_strided.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

/* x86's cvttsd2si: NaN and values past int64 give INT64_MIN */
static int64_t x86_to_i64(double f)
{
    if (!(f >= -9223372036854775808.0 && f < 9223372036854775808.0))
        return INT64_MIN;
    return (int64_t)f;
}

/* and to int32 */
static int32_t x86_to_i32(double f)
{
    if (!(f > -2147483649.0 && f < 2147483648.0))
        return INT32_MIN;
    return (int32_t)f;
}

typedef struct fq_params {
    float scale;
    double zero_point;
    bool zp_float; /* a float zero point (per-channel) */
    int64_t qmin, qmax;
} fq_params;

/* One element v of dtype xd: its fake-quantized value and mask bit. */
static void fq_element(double v, airc_dtype xd, const fq_params *p, double *y, bool *mask)
{
    float inv = 1.0f / p->scale;
    double lo = (double)p->qmin, hi = (double)p->qmax, q;
    if (xd == AIRC_DTYPE_F64 && !p->zp_float) {
        q = p->zero_point + nearbyint(v * (double)inv);
        *mask = lo <= q && q <= hi;
        q = isnan(q) ? lo : fmin(fmax(q, lo), hi);
    } else {
        double t = xd == AIRC_DTYPE_F64 ? v * (double)inv : (double)((float)v * inv);
        int64_t qi;
        if (p->zp_float) /* lrintf(zero_point + x * inv_scale) */
            qi = x86_to_i64(nearbyint((double)(float)((double)(float)p->zero_point + t)));
        else
            qi = x86_to_i64((double)((float)p->zero_point + (float)nearbyint(t)));
        *mask = p->qmin <= qi && qi <= p->qmax;
        q = fmin(fmax((double)qi, lo), hi);
    }
    *y = (q - p->zero_point) * (double)p->scale;
}

static void fq_store(void *yp, airc_dtype d, double y)
{
    airc_cpu_store_f64(yp, d, d == AIRC_DTYPE_F64 ? y : (double)(float)y);
}

/* Every element of x with one set of qparams (on: false copies x, mask
 * all true: fake_quant_enabled 0). mask may be NULL. */
static airc_status fq_per_tensor(airc_kernel_ctx *k, const airc_tview *x, const fq_params *p,
                                 bool on)
{
    const airc_tview *y = &k->out[0], *m = k->nout > 1 ? &k->out[1] : NULL;
    int64_t n = airc_cpu_numel(x), idx[AIRC_MAX_DIMS] = {0};
    for (int64_t i = 0; i < n; i++, airc_cpu_next_index(idx, x->shape, x->ndim)) {
        double v = airc_cpu_load_f64(airc_cpu_at(x, idx), x->dtype), r = v;
        bool bit = true;
        if (on)
            fq_element(v, x->dtype, p, &r, &bit);
        fq_store(airc_cpu_at(y, idx), y->dtype, on ? r : v);
        if (m)
            *(bool *)airc_cpu_at(m, idx) = bit;
    }
    return AIRC_OK;
}

static airc_status check_outputs(airc_kernel_ctx *k, size_t nout, size_t nargs)
{
    const airc_tview *x = k->in && k->nargs >= nargs ? k->in[0] : NULL;
    if (!x || k->nout != nout || !airc_cpu_dtype_is_float(x->dtype) || k->out[0].ndim != x->ndim ||
        (nout > 1 && k->out[1].dtype != AIRC_DTYPE_BOOL))
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT,
                             "self must be a float tensor, results as the meta says");
    return AIRC_OK;
}

static airc_status range_check(airc_kernel_ctx *k, int64_t zp, int64_t qmin, int64_t qmax)
{
    if (qmin > qmax)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT,
                             "`quant_min` should be less than or         equal to `quant_max`.");
    if (zp < qmin || zp > qmax)
        return airc_cpu_fail(k, AIRC_E_RUNTIME,
                             "`zero_point` must be between `quant_min` and `quant_max`.");
    return AIRC_OK;
}

/* fake_quantize_per_tensor_affine_cachemask(self, float scale, int
 * zero_point, quant_min, quant_max) */
airc_status airc_cpu_k_fake_quantize_per_tensor(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    AIRC_TRY(check_outputs(k, 2, 5));
    fq_params p = {(float)airc_cpu_arg_double(k, 1, 1), 0, false, airc_cpu_arg_int(k, 3, 0),
                   airc_cpu_arg_int(k, 4, 0)};
    int64_t zp = airc_cpu_arg_int(k, 2, 0);
    AIRC_TRY(range_check(k, zp, p.qmin, p.qmax));
    p.zero_point = (double)zp;
    return fq_per_tensor(k, k->in[0], &p, true);
}

/* t.item() (first: t[0].item(), the meta checked t[0] is one element)
 * converted by torch's checked toInt() (int32) or toFloat(): "value
 * cannot be converted to type T without overflow". */
static airc_status item(airc_kernel_ctx *k, const airc_tview *t, bool first, bool to_float,
                        double *out)
{
    int64_t n = t ? airc_cpu_numel(t) : 0;
    if (first ? !t || t->ndim == 0 || t->shape[0] != n : n != 1)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT,
                             "a Tensor with %" PRId64 " elements cannot be converted to Scalar", n);
    const char *p = t->data;
    bool bad;
    if (airc_cpu_dtype_is_float(t->dtype)) {
        double f = airc_cpu_load_f64(p, t->dtype);
        bad = to_float ? isfinite(f) && fabs(f) > 3.4028234663852886e38
                       : isnan(f) || f < -2147483648.0 || f > 2147483647.0;
        *out = to_float ? (double)(float)f : trunc(f);
    } else {
        int64_t i = airc_cpu_load_i64(p, t->dtype);
        bad = !to_float && (i < INT32_MIN || i > INT32_MAX);
        *out = to_float ? (double)(float)i : (double)i;
    }
    if (bad)
        return airc_cpu_fail(k, AIRC_E_RUNTIME,
                             "value cannot be converted to type %s without overflow",
                             to_float ? "float" : "int");
    return AIRC_OK;
}

/* _fake_quantize_per_tensor_affine_cachemask_tensor_qparams(self, scale,
 * zero_point, fake_quant_enabled, quant_min, quant_max): the qparams'
 * items (zero_point's first: C++'s argument order), no zero point range
 * check. */
airc_status airc_cpu_k_fake_quantize_tensor_qparams(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    AIRC_TRY(check_outputs(k, 2, 6));
    fq_params p = {0, 0, false, airc_cpu_arg_int(k, 4, 0), airc_cpu_arg_int(k, 5, 0)};
    if (p.qmin > p.qmax)
        return range_check(k, 0, p.qmin, p.qmax);
    double zp, sc, on;
    AIRC_TRY(item(k, k->in[2], false, false, &zp));
    AIRC_TRY(item(k, k->in[1], false, true, &sc));
    AIRC_TRY(item(k, k->in[3], false, false, &on));
    p.scale = (float)sc;
    p.zero_point = zp;
    return fq_per_tensor(k, k->in[0], &p, on != 0);
}

/* _fake_quantize_learnable_per_tensor_affine(self, scale, zero_point,
 * quant_min, quant_max, grad_factor): scale[0] and zero_point[0] by
 * torch's checked item<float>(), the zero point rounded (nearbyint),
 * clamped in float (NaN stays, then converts to INT64_MIN) and converted
 * to int64, then the per-tensor op. */
airc_status airc_cpu_k_fake_quantize_learnable_per_tensor(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    AIRC_TRY(check_outputs(k, 1, 5));
    double sc, zd;
    AIRC_TRY(item(k, k->in[1], true, true, &sc));
    AIRC_TRY(item(k, k->in[2], true, true, &zd));
    float zf = (float)zd;
    fq_params p = {(float)sc, 0, false, airc_cpu_arg_int(k, 3, 0), airc_cpu_arg_int(k, 4, 0)};
    float r = nearbyintf(zf), lo = (float)p.qmin, hi = (float)p.qmax;
    r = r < lo ? lo : r; /* std::max(r, lo), std::min(.., hi): NaN stays */
    r = hi < r ? hi : r;
    int64_t zp = x86_to_i64(r);
    AIRC_TRY(range_check(k, zp, p.qmin, p.qmax));
    p.zero_point = (double)zp;
    return fq_per_tensor(k, k->in[0], &p, true);
}

/* The learnable per-channel op's zero point: zero_point.round() (half to
 * even; integers as they are), clamp_(quant_min, quant_max) in its dtype
 * (NaN stays), .to(int32) (x86's conversion; integers wrap). */
static int32_t learnable_zero_point(const void *p, airc_dtype zd, int64_t qmin, int64_t qmax)
{
    if (airc_cpu_dtype_is_float(zd)) {
        double r = nearbyint(airc_cpu_load_f64(p, zd));
        double lo = airc_cpu_round_f64(zd, (double)qmin), hi = airc_cpu_round_f64(zd, (double)qmax);
        if (!isnan(r))
            r = fmin(fmax(r, lo), hi);
        return x86_to_i32(r);
    }
    int64_t i = airc_cpu_load_i64(p, zd);
    i = i < qmin ? qmin : i;
    i = i > qmax ? qmax : i;
    return (int32_t)(uint32_t)(uint64_t)i;
}

/* fake_quantize_per_channel_affine_cachemask(self, scale, zero_point,
 * axis, quant_min, quant_max) and (learnable) its learnable form: element
 * e uses channel idx[axis]'s qparams. Int zero points must lie in [qmin,
 * qmax] (torch's aminmax check); float ones are not checked. */
static airc_status fq_per_channel(airc_kernel_ctx *k, bool learnable)
{
    AIRC_TRY(check_outputs(k, learnable ? 1 : 2, 6));
    const airc_tview *x = k->in[0], *s = k->in[1], *z = k->in[2];
    const airc_tview *y = &k->out[0], *m = learnable ? NULL : &k->out[1];
    int64_t axis = airc_cpu_arg_int(k, 3, 0), qmin = airc_cpu_arg_int(k, 4, 0),
            qmax = airc_cpu_arg_int(k, 5, 0);
    if (!s || !z || s->ndim != 1 || z->ndim != 1 || axis < 0 || axis >= x->ndim ||
        s->shape[0] != x->shape[axis] || z->shape[0] != s->shape[0] || qmin > qmax)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT,
                             "qparams and axis not as the meta checked");
    size_t ss = airc_dtype_size(s->dtype), zs = airc_dtype_size(z->dtype);
    bool zp_float = !learnable && airc_cpu_dtype_is_float(z->dtype);
    for (int64_t c = 0; c < z->shape[0] && !zp_float; c++) {
        const char *zp = (const char *)z->data + c * z->strides[0] * (int64_t)zs;
        int64_t v = learnable ? learnable_zero_point(zp, z->dtype, qmin, qmax)
                              : airc_cpu_load_i64(zp, z->dtype);
        if (v < qmin || v > qmax)
            return range_check(k, v, qmin, qmax);
    }
    int64_t n = airc_cpu_numel(x), idx[AIRC_MAX_DIMS] = {0};
    for (int64_t i = 0; i < n; i++, airc_cpu_next_index(idx, x->shape, x->ndim)) {
        int64_t c = idx[axis];
        const char *zp = (const char *)z->data + c * z->strides[0] * (int64_t)zs;
        fq_params p = {(float)airc_cpu_load_f64(
                           (const char *)s->data + c * s->strides[0] * (int64_t)ss, s->dtype),
                       0, zp_float, qmin, qmax};
        p.zero_point = learnable  ? learnable_zero_point(zp, z->dtype, qmin, qmax)
                       : zp_float ? airc_cpu_load_f64(zp, z->dtype)
                                  : (double)airc_cpu_load_i64(zp, z->dtype);
        double r;
        bool bit;
        fq_element(airc_cpu_load_f64(airc_cpu_at(x, idx), x->dtype), x->dtype, &p, &r, &bit);
        fq_store(airc_cpu_at(y, idx), y->dtype, r);
        if (m)
            *(bool *)airc_cpu_at(m, idx) = bit;
    }
    return AIRC_OK;
}

airc_status airc_cpu_k_fake_quantize_per_channel(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    return fq_per_channel(k, false);
}

airc_status airc_cpu_k_fake_quantize_learnable_per_channel(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    return fq_per_channel(k, true);
}
