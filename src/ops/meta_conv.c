/* Meta function of convolution: torch's checks of the arguments (its
 * check_shape_forward) and, where its CPU kernels check more before they
 * run on a non-empty input, those too (kernel size, output_padding, an
 * output of at least one element). A 1-d convolution is checked as a 2-d
 * one of unit height, as torch runs it, and its messages say so. The
 * result is contiguous, except that a 2-d convolution over a channels-last
 * input or weight gives a channels-last result (torch's mkldnn rule). */
#include "ops/meta_util.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

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

enum { DIMS_STR = 192 };

/* "name_height: 1 name_width: 3" as torch's messages have it: a 1-d
 * convolution's height is `unit`, a 3-d one adds a depth. */
static const char *dims_str(char *buf, const char *name, const int64_t *v, int32_t k, int64_t unit)
{
    static const char *const axis[] = {"depth", "height", "width"};
    int32_t first = k == 3 ? 0 : 1;
    size_t len = 0;
    buf[0] = '\0';
    for (int32_t i = first; i < 3 && len < DIMS_STR; i++) {
        int32_t d = i - (3 - k); /* index into v; -1: the unit height */
        int64_t x = d < 0 ? unit : v[d];
        int r = snprintf(buf + len, DIMS_STR - len, "%s%s_%s: %" PRId64, len ? " " : "", name,
                         axis[i], x);
        len += r > 0 ? (size_t)r : 0;
    }
    return buf;
}

/* "(1 x 3)": sizes per channel, a 1-d convolution's with its unit height. */
static const char *per_channel(char *buf, const int64_t *v, int32_t k)
{
    size_t len = (size_t)snprintf(buf, DIMS_STR, "(%s", k == 1 ? "1 x " : "");
    for (int32_t i = 0; i < k && len < DIMS_STR; i++) {
        int r = snprintf(buf + len, DIMS_STR - len, "%" PRId64 "%s", v[i], i + 1 < k ? " x " : ")");
        len += r > 0 ? (size_t)r : 0;
    }
    return buf;
}

/* The weight's dim 0 against groups, both kinds. */
static airc_status check_groups(const airc_meta_args *a, const airc_tmeta *w, int64_t groups)
{
    char s[AIRC_META_SHAPE_STR];
    if (groups <= 0)
        return airc_fail(AIRC_E_SHAPE, "%s: non-positive groups is not supported", a->op);
    if (w->shape[0] < groups)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: Given groups=%" PRId64 ", expected weight to be at least %" PRId64
                         " at dimension 0, but got weight of size %s instead",
                         a->op, groups, groups, airc_meta_shape_str(w->shape, w->ndim, s));
    if (w->shape[0] % groups)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: Given groups=%" PRId64 ", expected weight to be divisible by %" PRId64
                         " at dimension 0, but got weight of size %s instead",
                         a->op, groups, groups, airc_meta_shape_str(w->shape, w->ndim, s));
    return AIRC_OK;
}

/* The checks a kernel makes before it runs on a non-empty input: kernel
 * sizes (any input), and for a transposed convolution a non-empty weight
 * and output_padding below stride or dilation. */
static airc_status check_kernel(const airc_meta_args *a, const airc_tmeta *x, const airc_tmeta *w,
                                bool transposed, const int64_t *stride, const int64_t *dil,
                                const int64_t *opad)
{
    int32_t k = x->ndim - 2;
    char s1[DIMS_STR], s2[DIMS_STR], s3[DIMS_STR];
    for (int32_t i = 0; i < k; i++)
        if (w->shape[i + 2] <= 0)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: kernel size should be greater than zero, but got %s", a->op,
                             dims_str(s1, "kernel", w->shape + 2, k, 1));
    if (!transposed)
        return AIRC_OK;
    if (w->shape[1] == 0) {
        char s[AIRC_META_SHAPE_STR];
        return airc_fail(AIRC_E_SHAPE, "%s: non-empty weight tensor expected, but got: %s", a->op,
                         airc_meta_shape_str(w->shape, w->ndim, s));
    }
    if (airc_tmeta_numel(x) == 0)
        return AIRC_OK;
    for (int32_t i = 0; i < k; i++)
        if (opad[i] >= stride[i] && opad[i] >= dil[i])
            return airc_fail(AIRC_E_SHAPE,
                             "%s: output padding must be smaller than either stride or dilation, "
                             "but got %s %s %s",
                             a->op, dims_str(s1, "output_padding", opad, k, 0),
                             dims_str(s2, "stride", stride, k, 1),
                             dims_str(s3, "dilation", dil, k, 1));
    return AIRC_OK;
}

/* torch's rule for an empty input: only its batch or channels may be 0. */
static airc_status check_empty_input(const airc_meta_args *a, const airc_tmeta *x)
{
    if (airc_tmeta_numel(x) != 0 || x->shape[0] == 0 || x->shape[1] == 0)
        return AIRC_OK;
    char s[AIRC_META_SHAPE_STR];
    return airc_fail(AIRC_E_SHAPE,
                     "%s: Only zero batch or zero channel inputs are supported, but got input "
                     "shape: %s",
                     a->op, airc_meta_shape_str(x->shape, x->ndim, s));
}

/* A transposed convolution's output sizes: (in - 1) * stride - 2 * pad +
 * dilation * (kernel - 1) + 1 + output_padding, at least 1 for a
 * non-empty input (torch's kernel check), never negative. */
static airc_status transposed_sizes(const airc_meta_args *a, const airc_tmeta *x,
                                    const airc_tmeta *w, const int64_t *stride, const int64_t *pad,
                                    const int64_t *dil, const int64_t *opad, int64_t *out)
{
    int32_t k = x->ndim - 2;
    bool small = false;
    for (int32_t i = 0; i < k; i++) {
        int64_t o, t;
        if (__builtin_mul_overflow(x->shape[i + 2] - 1, stride[i], &o) ||
            __builtin_mul_overflow(pad[i], 2, &t) || __builtin_sub_overflow(o, t, &o) ||
            __builtin_mul_overflow(dil[i], w->shape[i + 2] - 1, &t) ||
            __builtin_add_overflow(o, t, &o) || __builtin_add_overflow(o, 1, &o) ||
            __builtin_add_overflow(o, opad[i], &o))
            return airc_meta_overflow(a);
        if (o < 0)
            return airc_fail(AIRC_E_SHAPE, "%s: output size %" PRId64 " is negative", a->op, o);
        small = small || o < 1;
        out[i] = o;
    }
    if (small && airc_tmeta_numel(x) != 0) {
        char s1[DIMS_STR], s2[DIMS_STR];
        return airc_fail(AIRC_E_SHAPE,
                         "%s: Given input size per channel: %s. Calculated output size per "
                         "channel: %s. Output size is too small",
                         a->op, per_channel(s1, x->shape + 2, k), per_channel(s2, out, k));
    }
    return AIRC_OK;
}

/* A convolution's output sizes: (in + 2 * pad - dilation * (kernel - 1)
 * - 1) / stride + 1, the padded input at least the dilated kernel. */
static airc_status direct_sizes(const airc_meta_args *a, const airc_tmeta *x, const airc_tmeta *w,
                                const int64_t *stride, const int64_t *pad, const int64_t *dil,
                                int64_t *out)
{
    int32_t k = x->ndim - 2;
    int64_t padded[AIRC_MAX_DIMS], kern[AIRC_MAX_DIMS];
    bool overflow = false, small = false;
    for (int32_t i = 0; i < k; i++) {
        /* saturated sizes are only printed: the overflow is refused below */
        if (__builtin_mul_overflow(pad[i], 2, &padded[i]) ||
            __builtin_add_overflow(padded[i], x->shape[i + 2], &padded[i])) {
            padded[i] = INT64_MAX;
            overflow = true;
        }
        if (__builtin_mul_overflow(dil[i], w->shape[i + 2] - 1, &kern[i]) ||
            __builtin_add_overflow(kern[i], 1, &kern[i])) {
            kern[i] = INT64_MAX;
            overflow = true;
        }
        small = small || padded[i] < kern[i];
    }
    if (small) {
        char s1[AIRC_META_SHAPE_STR], s2[AIRC_META_SHAPE_STR];
        return airc_fail(AIRC_E_SHAPE,
                         "%s: Calculated padded input size per channel: %s. Kernel size: %s. "
                         "Kernel size can't be greater than actual input size",
                         a->op, airc_meta_shape_str(padded, k, s1),
                         airc_meta_shape_str(kern, k, s2));
    }
    if (overflow)
        return airc_meta_overflow(a);
    for (int32_t i = 0; i < k; i++)
        out[i] = (padded[i] - kern[i]) / stride[i] + 1;
    return AIRC_OK;
}

airc_status airc_meta_convolution(airc_node *n, void *user_data)
{
    (void)user_data;
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
    AIRC_TRY(airc_meta_same_dtype(&a, "input", &x, "weight", &w));
    int32_t k = x.ndim - 2;
    int64_t stride[AIRC_MAX_DIMS], pad[AIRC_MAX_DIMS], dil[AIRC_MAX_DIMS], opad[AIRC_MAX_DIMS];
    AIRC_TRY(conv_param(&a, "stride", k, stride));
    AIRC_TRY(conv_param(&a, "padding", k, pad));
    AIRC_TRY(conv_param(&a, "dilation", k, dil));
    AIRC_TRY(conv_param(&a, "output_padding", k, opad));
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
    AIRC_TRY(check_groups(&a, &w, groups));
    int64_t out_channels;
    if (!transposed) {
        int64_t in_channels;
        if (__builtin_mul_overflow(w.shape[1], groups, &in_channels))
            return airc_meta_overflow(&a);
        if (x.shape[1] != in_channels)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: Given groups=%" PRId64 ", weight of size %s, expected input%s to "
                             "have %" PRId64 " channels, but got %" PRId64 " channels instead",
                             a.op, groups, airc_meta_shape_str(w.shape, w.ndim, s1),
                             airc_meta_shape_str(x.shape, x.ndim, s2), in_channels, x.shape[1]);
        out_channels = w.shape[0];
    } else {
        if (x.shape[1] != w.shape[0])
            return airc_fail(AIRC_E_SHAPE,
                             "%s: Given transposed=1, weight of size %s, expected input%s to have "
                             "%" PRId64 " channels, but got %" PRId64 " channels instead",
                             a.op, airc_meta_shape_str(w.shape, w.ndim, s1),
                             airc_meta_shape_str(x.shape, x.ndim, s2), w.shape[0], x.shape[1]);
        if (__builtin_mul_overflow(w.shape[1], groups, &out_channels))
            return airc_meta_overflow(&a);
    }
    if (has_bias && (b.ndim != 1 || b.shape[0] != out_channels))
        return airc_fail(
            AIRC_E_SHAPE,
            "%s: Given weight of size %s, expected bias to be 1-dimensional with %" PRId64
            " elements, but got bias of size %s instead",
            a.op, airc_meta_shape_str(w.shape, w.ndim, s1), out_channels,
            airc_meta_shape_str(b.shape, b.ndim, s2));
    airc_tmeta out = x;
    out.shape[1] = out_channels;
    if (transposed) {
        AIRC_TRY(check_empty_input(&a, &x));
        AIRC_TRY(check_kernel(&a, &x, &w, true, stride, dil, opad));
        AIRC_TRY(transposed_sizes(&a, &x, &w, stride, pad, dil, opad, out.shape + 2));
    } else {
        AIRC_TRY(check_kernel(&a, &x, &w, false, stride, dil, opad));
        AIRC_TRY(direct_sizes(&a, &x, &w, stride, pad, dil, out.shape + 2));
        AIRC_TRY(check_empty_input(&a, &x));
    }
    AIRC_TRY(airc_meta_check_numel(&a, out.shape, out.ndim));
    if (x.ndim == 4 && (airc_meta_is_channels_last_like(&x) || airc_meta_is_channels_last_like(&w)))
        airc_meta_channels_last_strides(&out);
    else
        airc_tmeta_contiguous(&out);
    return airc_meta_set(n, &out);
}
