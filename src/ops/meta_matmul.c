/* Meta functions of mm, bmm, addmm, linear, matmul and convolution. Their
 * results are contiguous, except that a 2-d convolution over a
 * channels-last input or weight gives a channels-last result (torch's
 * mkldnn rule). */
#include "ops/meta_util.h"

#include <inttypes.h>
#include <string.h>

static airc_status same_dtype(const airc_meta_args *a, const char *na, const airc_tmeta *x,
                              const char *nb, const airc_tmeta *y)
{
    if (x->dtype == y->dtype)
        return AIRC_OK;
    return airc_fail(AIRC_E_SHAPE, "%s: %s has dtype %s but %s has dtype %s: dtypes must match",
                     a->op, na, airc_dtype_name(x->dtype), nb, airc_dtype_name(y->dtype));
}

static airc_status want_rank(const airc_meta_args *a, const char *name, const airc_tmeta *t,
                             int32_t rank)
{
    if (t->ndim == rank)
        return AIRC_OK;
    char s[AIRC_META_SHAPE_STR];
    return airc_fail(AIRC_E_SHAPE, "%s: %s must be a %d-d tensor, but has shape %s", a->op, name,
                     (int)rank, airc_meta_shape_str(t->shape, t->ndim, s));
}

static airc_status inner_mismatch(const airc_meta_args *a, const char *na, const airc_tmeta *x,
                                  const char *nb, const airc_tmeta *y, int64_t kx, int64_t ky)
{
    char s1[AIRC_META_SHAPE_STR], s2[AIRC_META_SHAPE_STR];
    return airc_fail(AIRC_E_SHAPE,
                     "%s: %s has shape %s but %s has shape %s: inner dims %" PRId64 " and %" PRId64
                     " differ",
                     a->op, na, airc_meta_shape_str(x->shape, x->ndim, s1), nb,
                     airc_meta_shape_str(y->shape, y->ndim, s2), kx, ky);
}

/* `bias` must broadcast to `out` (expand's rule: trailing alignment). */
static airc_status check_expands_to(const airc_meta_args *a, const char *name,
                                    const airc_tmeta *bias, const airc_tmeta *out)
{
    int64_t shape[AIRC_MAX_DIMS];
    int32_t nd;
    AIRC_TRY(airc_meta_broadcast2(a, name, bias->shape, bias->ndim, "the result", out->shape,
                                  out->ndim, shape, &nd));
    bool same = nd == out->ndim;
    for (int32_t i = 0; same && i < nd; i++)
        same = shape[i] == out->shape[i];
    if (!same) {
        char s1[AIRC_META_SHAPE_STR], s2[AIRC_META_SHAPE_STR];
        return airc_fail(AIRC_E_SHAPE, "%s: %s of shape %s does not expand to the result's %s",
                         a->op, name, airc_meta_shape_str(bias->shape, bias->ndim, s1),
                         airc_meta_shape_str(out->shape, out->ndim, s2));
    }
    return AIRC_OK;
}

airc_status airc_meta_mm(airc_node *n, void *user_data)
{
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    const char *name = airc_meta_name(&a);
    bool is_bmm = !strcmp(name, "bmm"), is_addmm = !strcmp(name, "addmm");
    const char *n1 = is_addmm ? "mat1" : "self", *n2 = is_addmm ? "mat2" : "mat2";
    airc_tmeta x, y;
    AIRC_TRY(airc_meta_tensor(&a, n1, &x));
    AIRC_TRY(airc_meta_tensor(&a, n2, &y));
    int32_t rank = is_bmm ? 3 : 2;
    AIRC_TRY(want_rank(&a, n1, &x, rank));
    AIRC_TRY(want_rank(&a, n2, &y, rank));
    AIRC_TRY(same_dtype(&a, n1, &x, n2, &y));
    int32_t k = rank - 1;
    if (x.shape[k] != y.shape[k - 1])
        return inner_mismatch(&a, n1, &x, n2, &y, x.shape[k], y.shape[k - 1]);
    airc_tmeta out = x;
    if (is_bmm) {
        if (x.shape[0] != y.shape[0]) {
            char s1[AIRC_META_SHAPE_STR], s2[AIRC_META_SHAPE_STR];
            return airc_fail(AIRC_E_SHAPE,
                             "%s: self has shape %s but mat2 has shape %s: batch sizes %" PRId64
                             " and %" PRId64 " differ",
                             a.op, airc_meta_shape_str(x.shape, 3, s1),
                             airc_meta_shape_str(y.shape, 3, s2), x.shape[0], y.shape[0]);
        }
        out.shape[2] = y.shape[2];
    } else {
        out.shape[1] = y.shape[1];
    }
    AIRC_TRY(airc_meta_check_numel(&a, out.shape, out.ndim));
    airc_tmeta_contiguous(&out);
    if (is_addmm) {
        airc_tmeta self;
        AIRC_TRY(airc_meta_tensor(&a, "self", &self));
        AIRC_TRY(same_dtype(&a, "self", &self, "mat2", &y));
        AIRC_TRY(check_expands_to(&a, "self", &self, &out));
        /* torch converts beta and alpha to the op's math type (f32 for the
         * half types) with the overflow check, unless the result is empty */
        airc_dtype math = out.dtype == AIRC_DTYPE_F16 || out.dtype == AIRC_DTYPE_BF16
                              ? AIRC_DTYPE_F32
                              : out.dtype;
        if (airc_tmeta_numel(&out) > 0) {
            AIRC_TRY(airc_meta_check_scalar(&a, "beta", math));
            AIRC_TRY(airc_meta_check_scalar(&a, "alpha", math));
        }
    }
    return airc_meta_set(n, &out);
}

airc_status airc_meta_linear(airc_node *n, void *user_data)
{
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta x, w, b;
    bool has_bias;
    AIRC_TRY(airc_meta_tensor(&a, "input", &x));
    AIRC_TRY(airc_meta_tensor(&a, "weight", &w));
    AIRC_TRY(airc_meta_opt_tensor(&a, "bias", &b, &has_bias));
    if (x.ndim < 1)
        return airc_fail(AIRC_E_SHAPE, "%s: input must have at least 1 dim", a.op);
    AIRC_TRY(want_rank(&a, "weight", &w, 2));
    AIRC_TRY(same_dtype(&a, "input", &x, "weight", &w));
    if (x.shape[x.ndim - 1] != w.shape[1])
        return inner_mismatch(&a, "input", &x, "weight", &w, x.shape[x.ndim - 1], w.shape[1]);
    airc_tmeta out = x;
    out.shape[x.ndim - 1] = w.shape[0];
    AIRC_TRY(airc_meta_check_numel(&a, out.shape, out.ndim));
    airc_tmeta_contiguous(&out);
    if (has_bias) {
        AIRC_TRY(same_dtype(&a, "input", &x, "bias", &b));
        AIRC_TRY(check_expands_to(&a, "bias", &b, &out));
    }
    return airc_meta_set(n, &out);
}

airc_status airc_meta_matmul(airc_node *n, void *user_data)
{
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta x, y;
    AIRC_TRY(airc_meta_tensor(&a, "self", &x));
    AIRC_TRY(airc_meta_tensor(&a, "other", &y));
    if (x.ndim == 0 || y.ndim == 0)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: both arguments to matmul need to be at least 1D, but they are %dD "
                         "and %dD",
                         a.op, (int)x.ndim, (int)y.ndim);
    AIRC_TRY(same_dtype(&a, "self", &x, "other", &y));
    /* contraction dims: x's last, y's second to last (or only) */
    int64_t kx = x.shape[x.ndim - 1], ky = y.shape[y.ndim >= 2 ? y.ndim - 2 : 0];
    if (kx != ky)
        return inner_mismatch(&a, "self", &x, "other", &y, kx, ky);
    airc_tmeta out;
    memset(&out, 0, sizeof out);
    out.dtype = x.dtype;
    int32_t bx = x.ndim > 2 ? x.ndim - 2 : 0, by = y.ndim > 2 ? y.ndim - 2 : 0;
    AIRC_TRY(airc_meta_broadcast2(&a, "self's batch dims", x.shape, bx, "other's batch dims",
                                  y.shape, by, out.shape, &out.ndim));
    if (out.ndim + 2 > AIRC_MAX_DIMS)
        return airc_fail(AIRC_E_UNSUPPORTED, "%s: too many dims", a.op);
    if (x.ndim >= 2)
        out.shape[out.ndim++] = x.shape[x.ndim - 2];
    if (y.ndim >= 2)
        out.shape[out.ndim++] = y.shape[y.ndim - 1];
    AIRC_TRY(airc_meta_check_numel(&a, out.shape, out.ndim));
    airc_tmeta_contiguous(&out);
    return airc_meta_set(n, &out);
}

/* A conv parameter list expanded to `k` spatial dims (one value repeats). */
static airc_status conv_param(const airc_meta_args *a, const char *name, int32_t k, int64_t *out)
{
    int64_t v[AIRC_MAX_DIMS];
    int32_t nv;
    bool present;
    AIRC_TRY(airc_meta_int_list(a, name, v, AIRC_MAX_DIMS, &nv, &present));
    if (nv == 1) {
        for (int32_t i = 0; i < k; i++)
            out[i] = v[0];
        return AIRC_OK;
    }
    if (nv != k) {
        char s[AIRC_META_SHAPE_STR];
        return airc_fail(AIRC_E_SHAPE,
                         "%s: expected %s to be a single integer value or a list of %d values to "
                         "match the convolution dimensions, but got %s=%s",
                         a->op, name, (int)k, name, airc_meta_shape_str(v, nv, s));
    }
    memcpy(out, v, (size_t)k * sizeof *out);
    return AIRC_OK;
}

airc_status airc_meta_convolution(airc_node *n, void *user_data)
{
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta x, w, b;
    bool has_bias, transposed;
    AIRC_TRY(airc_meta_tensor(&a, "input", &x));
    AIRC_TRY(airc_meta_tensor(&a, "weight", &w));
    AIRC_TRY(airc_meta_opt_tensor(&a, "bias", &b, &has_bias));
    AIRC_TRY(airc_meta_bool(&a, "transposed", false, &transposed));
    int64_t groups;
    AIRC_TRY(airc_meta_int(&a, "groups", 1, &groups));
    char s1[AIRC_META_SHAPE_STR], s2[AIRC_META_SHAPE_STR];
    if (w.ndim < 3)
        return airc_fail(AIRC_E_SHAPE, "%s: weight should have at least three dimensions, got %s",
                         a.op, airc_meta_shape_str(w.shape, w.ndim, s1));
    if (x.ndim != w.ndim)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: Expected %d-dimensional input for %d-dimensional weight %s, but got "
                         "%d-dimensional input of size %s instead",
                         a.op, (int)w.ndim, (int)w.ndim, airc_meta_shape_str(w.shape, w.ndim, s1),
                         (int)x.ndim, airc_meta_shape_str(x.shape, x.ndim, s2));
    AIRC_TRY(same_dtype(&a, "input", &x, "weight", &w));
    int32_t k = x.ndim - 2;
    int64_t stride[AIRC_MAX_DIMS], pad[AIRC_MAX_DIMS], dil[AIRC_MAX_DIMS], opad[AIRC_MAX_DIMS];
    AIRC_TRY(conv_param(&a, "stride", k, stride));
    AIRC_TRY(conv_param(&a, "padding", k, pad));
    AIRC_TRY(conv_param(&a, "dilation", k, dil));
    AIRC_TRY(conv_param(&a, "output_padding", k, opad));
    if (groups <= 0)
        return airc_fail(AIRC_E_SHAPE, "%s: non-positive groups is not supported", a.op);
    for (int32_t i = 0; i < k; i++) {
        if (stride[i] <= 0)
            return airc_fail(AIRC_E_SHAPE, "%s: non-positive stride is not supported", a.op);
        if (pad[i] < 0)
            return airc_fail(AIRC_E_SHAPE, "%s: negative padding is not supported", a.op);
        if (dil[i] <= 0)
            return airc_fail(AIRC_E_SHAPE, "%s: dilation should be greater than zero", a.op);
        if (opad[i] < 0)
            return airc_fail(AIRC_E_SHAPE, "%s: negative output_padding is not supported", a.op);
    }
    int64_t out_channels;
    if (!transposed) {
        if (w.shape[0] % groups)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: Given groups=%" PRId64 ", expected weight to be divisible by %" PRId64
                             " at dimension 0, but got weight of size %s instead",
                             a.op, groups, groups, airc_meta_shape_str(w.shape, w.ndim, s1));
        if (x.shape[1] != w.shape[1] * groups)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: Given groups=%" PRId64 ", weight of size %s, expected input%s to "
                             "have %" PRId64 " channels, but got %" PRId64 " channels instead",
                             a.op, groups, airc_meta_shape_str(w.shape, w.ndim, s1),
                             airc_meta_shape_str(x.shape, x.ndim, s2), w.shape[1] * groups,
                             x.shape[1]);
        out_channels = w.shape[0];
    } else {
        if (x.shape[1] != w.shape[0])
            return airc_fail(AIRC_E_SHAPE,
                             "%s: Given transposed=1, weight of size %s, expected input%s to have "
                             "%" PRId64 " channels, but got %" PRId64 " channels instead",
                             a.op, airc_meta_shape_str(w.shape, w.ndim, s1),
                             airc_meta_shape_str(x.shape, x.ndim, s2), w.shape[0], x.shape[1]);
        out_channels = w.shape[1] * groups;
    }
    if (has_bias && (b.ndim != 1 || b.shape[0] != out_channels))
        return airc_fail(AIRC_E_SHAPE,
                         "%s: Given weight of size %s, expected bias to be 1-dimensional with %" PRId64
                         " elements, but got bias of size %s instead",
                         a.op, airc_meta_shape_str(w.shape, w.ndim, s1), out_channels,
                         airc_meta_shape_str(b.shape, b.ndim, s2));
    airc_tmeta out = x;
    out.shape[1] = out_channels;
    for (int32_t i = 0; i < k; i++) {
        int64_t in = x.shape[i + 2], kern, padded, o;
        if (__builtin_mul_overflow(dil[i], w.shape[i + 2] - 1, &kern) ||
            __builtin_add_overflow(kern, 1, &kern) ||
            __builtin_mul_overflow(pad[i], 2, &padded) ||
            __builtin_add_overflow(padded, in, &padded))
            return airc_meta_overflow(&a);
        if (!transposed) {
            if (padded < kern) {
                int64_t pads[AIRC_MAX_DIMS], kernel[AIRC_MAX_DIMS];
                for (int32_t j = 0; j < k; j++) {
                    /* saturated: only printed */
                    if (__builtin_mul_overflow(pad[j], 2, &pads[j]) ||
                        __builtin_add_overflow(pads[j], x.shape[j + 2], &pads[j]))
                        pads[j] = INT64_MAX;
                    if (__builtin_mul_overflow(dil[j], w.shape[j + 2] - 1, &kernel[j]) ||
                        __builtin_add_overflow(kernel[j], 1, &kernel[j]))
                        kernel[j] = INT64_MAX;
                }
                return airc_fail(AIRC_E_SHAPE,
                                 "%s: Calculated padded input size per channel: %s. Kernel size: "
                                 "%s. Kernel size can't be greater than actual input size",
                                 a.op, airc_meta_shape_str(pads, k, s1),
                                 airc_meta_shape_str(kernel, k, s2));
            }
            out.shape[i + 2] = (padded - kern) / stride[i] + 1;
        } else {
            /* (in - 1) * stride - 2 * pad + kern + output_padding */
            if (__builtin_mul_overflow(in - 1, stride[i], &o) ||
                __builtin_sub_overflow(o, padded - in, &o) || __builtin_add_overflow(o, kern, &o) ||
                __builtin_add_overflow(o, opad[i], &o))
                return airc_meta_overflow(&a);
            if (o < 0)
                return airc_fail(AIRC_E_SHAPE, "%s: output size %" PRId64 " is negative", a.op, o);
            out.shape[i + 2] = o;
        }
    }
    AIRC_TRY(airc_meta_check_numel(&a, out.shape, out.ndim));
    if (x.ndim == 4 && (airc_meta_is_channels_last_like(&x) || airc_meta_is_channels_last_like(&w)))
        airc_meta_channels_last_strides(&out);
    else
        airc_tmeta_contiguous(&out);
    return airc_meta_set(n, &out);
}
