/* Meta functions of pooling (fractional max pooling included), softmax and layer norm. Pooling
 * keeps a channels-last input channels-last (suggest_memory_format); softmax and layer norm results
 * are contiguous. */
#include "ops/meta_util.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* A pooling parameter: 1 or sp ints (empty allowed for stride: kernel). */
static airc_status pool_param(const airc_meta_args *a, const char *name, int32_t sp, int64_t def0,
                              bool empty_ok, int64_t *out)
{
    int64_t v[AIRC_MAX_DIMS];
    int32_t nv;
    bool present;
    AIRC_TRY(airc_meta_int_list(a, name, v, AIRC_MAX_DIMS, &nv, &present));
    if (nv == 0 && (empty_ok || !present)) {
        for (int32_t i = 0; i < sp; i++)
            out[i] = def0;
        return AIRC_OK;
    }
    if (nv != 1 && nv != sp)
        return airc_fail(AIRC_E_SHAPE, "%s: %s must either be a single int, or a tuple of %s ints",
                         a->op, name, sp == 3 ? "three" : "two");
    for (int32_t i = 0; i < sp; i++)
        out[i] = v[nv == 1 ? 0 : i];
    return AIRC_OK;
}

static int64_t div_floor(int64_t x, int64_t y)
{
    int64_t q = x / y;
    if ((x % y != 0) && ((x < 0) != (y < 0)))
        q--;
    return q;
}

/* torch's pooling_output_shape */
static airc_status pool_out(const airc_meta_args *a, int64_t in, int64_t k, int64_t pad,
                            int64_t stride, int64_t dil, bool ceil_mode, int64_t *out)
{
    if (pad < 0)
        return airc_fail(AIRC_E_SHAPE, "%s: pad must be non-negative, but got pad: %" PRId64,
                         a->op, pad);
    if (pad > k / 2)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: pad should be at most half of kernel size, but got pad=%" PRId64
                         " and kernel_size=%" PRId64,
                         a->op, pad, k);
    /* sizes and parameters are bounded (pad <= k / 2), but k, stride and
     * dilation come from the graph: keep the arithmetic in range */
    int64_t span, num, limit;
    if (__builtin_mul_overflow(dil, k - 1, &span) || __builtin_add_overflow(span, 1, &span) ||
        __builtin_add_overflow(in, 2 * pad, &num) || __builtin_sub_overflow(num, span, &num) ||
        __builtin_add_overflow(num, ceil_mode ? stride - 1 : 0, &num) ||
        __builtin_add_overflow(in, pad, &limit))
        return airc_meta_overflow(a);
    int64_t o = div_floor(num, stride) + 1, last;
    if (ceil_mode && (__builtin_mul_overflow(o - 1, stride, &last) || last >= limit))
        o--;
    *out = o;
    return AIRC_OK;
}

/* A pool of sp dims takes an input of sp + 1 or sp + 2 dims, each but a
 * batch dim non-empty. */
static airc_status pool_input(const airc_meta_args *a, const airc_tmeta *x, int32_t sp)
{
    char s[AIRC_META_SHAPE_STR];
    bool ok = x->ndim == sp + 1 || x->ndim == sp + 2;
    for (int32_t d = x->ndim - sp - 1; ok && d < x->ndim; d++)
        ok = x->shape[d] > 0;
    if (!ok)
        return airc_fail(
            AIRC_E_SHAPE, "%s: non-empty %dD or %dD (batch mode) tensor expected for input, got %s",
            a->op, (int)(sp + 1), (int)(sp + 2), airc_meta_shape_str(x->shape, x->ndim, s));
    return AIRC_OK;
}

/* Output of a pooling: the input's layout for 4-d inputs (2-d pools);
 * torch's 3-d pools give contiguous results. */
static void pool_strides(const airc_tmeta *x, int32_t sp, airc_tmeta *out)
{
    if (sp == 2 && x->ndim == 4 && airc_meta_is_channels_last_like(x))
        airc_meta_channels_last_strides(out);
    else
        airc_tmeta_contiguous(out);
}

/* torch's 3-d pooling kernels' dtypes: f32 and f64, and int64 for
 * avg_pool3d. */
static airc_status pool3d_dtype(const airc_meta_args *a, const airc_tmeta *x, const char *kernel,
                                bool int64_ok)
{
    if (x->dtype == AIRC_DTYPE_F32 || x->dtype == AIRC_DTYPE_F64 ||
        (int64_ok && x->dtype == AIRC_DTYPE_I64))
        return AIRC_OK;
    return airc_fail(AIRC_E_SHAPE, "%s: \"%s\" not implemented for '%s'", a->op, kernel,
                     airc_dtype_torch_type_name(x->dtype));
}

enum { POOL_STR = 96 };

/* torch's "kT: 1 kH: 2 kW: 3" (prefix "k"; a 2-d pool has no T), or with
 * sep "x", "1x2x3" */
static const char *labeled(char *buf, const char *prefix, const int64_t *v, int32_t n,
                           const char *sep)
{
    static const char *const axis[] = {"T", "H", "W"};
    size_t len = 0;
    buf[0] = '\0';
    for (int32_t i = 0; i < n && len < POOL_STR; i++) {
        int r = sep ? snprintf(buf + len, POOL_STR - len, "%s%" PRId64, i ? sep : "", v[i])
                    : snprintf(buf + len, POOL_STR - len, "%s%s%s: %" PRId64, i ? " " : "", prefix,
                               axis[3 - n + i], v[i]);
        len += r > 0 ? (size_t)r : 0;
    }
    return buf;
}

/* max_pool2d|3d_with_indices and avg_pool2d|3d */
airc_status airc_meta_pool2d(airc_node *n, void *user_data)
{
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta x;
    AIRC_TRY(airc_meta_tensor(&a, "self", &x));
    const char *name = airc_meta_name(&a);
    int32_t sp = strstr(name, "3d") ? 3 : 2;
    bool is_max = !strncmp(name, "max_pool", 8);
    AIRC_TRY(pool_input(&a, &x, sp));
    if (sp == 3)
        AIRC_TRY(pool3d_dtype(
            &a, &x, is_max ? "max_pool3d_with_indices_cpu" : "avg_pool3d_out_frame", !is_max));
    int64_t k[3], st[3], pad[3], dil[3] = {1, 1, 1};
    bool ceil_mode;
    AIRC_TRY(pool_param(&a, "kernel_size", sp, 0, false, k));
    AIRC_TRY(pool_param(&a, "stride", sp, -1, true, st));
    if (st[0] == -1) /* empty stride: the kernel size */
        memcpy(st, k, sizeof st);
    AIRC_TRY(pool_param(&a, "padding", sp, 0, false, pad));
    if (is_max)
        AIRC_TRY(pool_param(&a, "dilation", sp, 1, false, dil));
    AIRC_TRY(airc_meta_bool(&a, "ceil_mode", false, &ceil_mode));
    char s1[POOL_STR], s2[POOL_STR];
    for (int32_t i = 0; i < sp; i++) {
        if (k[i] <= 0)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: kernel size should be greater than zero, but got %s", a.op,
                             labeled(s1, "k", k, sp, NULL));
        if (st[i] <= 0)
            return airc_fail(AIRC_E_SHAPE, "%s: stride should be greater than zero, but got %s",
                             a.op, labeled(s1, "d", st, sp, NULL));
        if (dil[i] <= 0)
            return airc_fail(AIRC_E_SHAPE, "%s: dilation should be greater than zero, but got %s",
                             a.op, labeled(s1, "dilation", dil, sp, NULL));
    }
    if (!is_max) {
        int64_t div;
        bool has_div;
        AIRC_TRY(airc_meta_opt_int(&a, "divisor_override", &div, &has_div));
        if (has_div && div == 0)
            return airc_fail(AIRC_E_SHAPE, "%s: divisor must be not zero", a.op);
    }
    airc_tmeta out = x;
    int32_t first = x.ndim - sp;
    bool small = false;
    for (int32_t i = 0; i < sp && sp == 3 && !is_max; i++) /* torch's avg_pool3d check */
        if (x.shape[first + i] < k[i])
            return airc_fail(AIRC_E_SHAPE, "%s: input image (%s) smaller than kernel size (%s)",
                             a.op, labeled(s1, "", x.shape + first, sp, NULL),
                             labeled(s2, "k", k, sp, NULL));
    for (int32_t i = 0; i < sp; i++) {
        int64_t *o = &out.shape[first + i];
        AIRC_TRY(pool_out(&a, x.shape[first + i], k[i], pad[i], st[i], dil[i], ceil_mode, o));
        small = small || *o < 1;
    }
    if (small) /* torch prints the channels too */
        return airc_fail(AIRC_E_SHAPE,
                         "%s: Given input size: (%s). Calculated output size: (%s). Output size "
                         "is too small",
                         a.op, labeled(s1, NULL, x.shape + first - 1, sp + 1, "x"),
                         labeled(s2, NULL, out.shape + first - 1, sp + 1, "x"));
    pool_strides(&x, sp, &out);
    if (!is_max)
        return airc_meta_set(n, &out);
    airc_tmeta outs[2] = {out, out};
    outs[1].dtype = AIRC_DTYPE_I64;
    return airc_meta_set_tuple(n, outs, 2);
}

/* fractional_max_pool2d|3d(self, kernel_size, output_size, random_samples)
 * -> (values, int64 indices), torch 1.13's checks in its order: sp kernel and
 * output sizes, a (sp + 1)- or (sp + 2)-d input whose non-batch dims are not
 * empty, output + kernel - 1 at most the input's size (3-d: less than it;
 * torch's int64 arithmetic, wrapping), the output not negative, f32 or f64
 * (torch's kernel), random_samples of self's dtype. torch reads N C sp
 * samples flat whatever their shape: airc needs that many. Contiguous. */
airc_status airc_meta_fractional_max_pool(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta x, rs;
    AIRC_TRY(airc_meta_tensor(&a, "self", &x));
    AIRC_TRY(airc_meta_tensor(&a, "random_samples", &rs));
    int32_t sp = strstr(airc_meta_name(&a), "3d") ? 3 : 2;
    const char *fn = sp == 3 ? "fractional_max_pool3d_out()" : "fractional_max_pool2d()";
    int64_t k[AIRC_MAX_DIMS], o[AIRC_MAX_DIMS];
    int32_t nk, no;
    bool present;
    AIRC_TRY(airc_meta_int_list(&a, "kernel_size", k, AIRC_MAX_DIMS, &nk, &present));
    AIRC_TRY(airc_meta_int_list(&a, "output_size", o, AIRC_MAX_DIMS, &no, &present));
    const char *tuple = sp == 3 ? "tuple of three Ints" : "tuple of Ints";
    if (nk != sp)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: fractional_max_pool%dd: kernel_size must either be a single Int or "
                         "%s",
                         a.op, (int)sp, tuple);
    if (no != sp)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: fractional_max_pool%dd: output_size must either be a single Int or "
                         "%s",
                         a.op, (int)sp, tuple);
    /* torch checks none: a window of k <= 0 is empty (-inf, an index
     * from its interval arithmetic); airc refuses it */
    for (int32_t i = 0; i < sp; i++)
        if (k[i] < 1)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: %s: kernel_size must be positive, got %" PRId64
                             " (torch 1.13 pools an empty window)",
                             a.op, fn, k[i]);
    char s[AIRC_META_SHAPE_STR];
    airc_meta_shape_str(x.shape, x.ndim, s);
    if (x.ndim != sp + 1 && x.ndim != sp + 2)
        return airc_fail(AIRC_E_SHAPE, "%s: %s: Expected %dD or %dD tensor, but got: %s", a.op, fn,
                         (int)sp + 1, (int)sp + 2, s);
    for (int32_t d = 1; d < x.ndim; d++)
        if (!x.shape[d])
            return airc_fail(AIRC_E_SHAPE,
                             "%s: %s: Expected input to have non-zero size for non-batch "
                             "dimensions, but got%s with dimension %d being empty.",
                             a.op, fn, s, (int)d);
    static const char *const axis[] = {"time", "height", "width"};
    int32_t first = x.ndim - sp;
    for (int32_t i = 0; i < sp; i++) {
        int64_t in = x.shape[first + i];
        int64_t need = (int64_t)((uint64_t)o[i] + (uint64_t)k[i] - 1u);
        if (sp == 3 ? need >= in : need > in)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: %s: pool %s %" PRId64 " too large relative to input %s %" PRId64,
                             a.op, fn, axis[3 - sp + i], k[i], axis[3 - sp + i], in);
    }
    airc_tmeta out = x;
    for (int32_t i = 0; i < sp; i++)
        out.shape[first + i] = o[i];
    for (int32_t i = 0; i < sp; i++)
        if (o[i] < 0)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: Trying to create tensor with negative dimension %" PRId64 ": %s",
                             a.op, o[i], airc_meta_shape_str(out.shape, out.ndim, s));
    if (x.dtype != AIRC_DTYPE_F32 && x.dtype != AIRC_DTYPE_F64)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: \"fractional_max_pool%dd_out_frame\" not implemented for '%s'", a.op,
                         (int)sp, airc_dtype_torch_type_name(x.dtype));
    if (rs.dtype != x.dtype)
        return airc_fail(AIRC_E_SHAPE, "%s: expected scalar type %s but found %s", a.op,
                         airc_dtype_torch_type_name(x.dtype), airc_dtype_torch_type_name(rs.dtype));
    AIRC_TRY(airc_meta_check_numel(&a, out.shape, out.ndim));
    int64_t planes = 1; /* N C, bounded by the input's element count */
    for (int32_t d = 0; d < first; d++)
        planes *= x.shape[d];
    if (airc_tmeta_numel(&rs) / sp < planes)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: random_samples has %" PRId64 " elements, %" PRId64
                         " needed (%d for each of the %" PRId64 " planes)",
                         a.op, airc_tmeta_numel(&rs), planes * sp, (int)sp, planes);
    airc_tmeta_contiguous(&out);
    airc_tmeta outs[2] = {out, out};
    outs[1].dtype = AIRC_DTYPE_I64;
    return airc_meta_set_tuple(n, outs, 2);
}

/* adaptive_max_pool2d(self, output_size) -> (values, int64 indices): a 3-d
 * or 4-d input whose non-batch dims are not empty; torch's CPU kernel
 * takes f32, f64 and bf16 (airc f16 too). */
static airc_status adaptive_max(airc_node *n, const airc_meta_args *a, const airc_tmeta *x,
                                const int64_t *size, int32_t ns)
{
    char s[AIRC_META_SHAPE_STR];
    if (ns != 2)
        return airc_fail(AIRC_E_SHAPE, "%s: output_size must have 2 values, got %d", a->op,
                         (int)ns);
    if (x->ndim != 3 && x->ndim != 4)
        return airc_fail(AIRC_E_SHAPE, "%s: Expected 3D or 4D tensor, but got: %s", a->op,
                         airc_meta_shape_str(x->shape, x->ndim, s));
    for (int32_t d = 1; d < x->ndim; d++) /* torch checks every dim but the first */
        if (!x->shape[d])
            return airc_fail(AIRC_E_SHAPE,
                             "%s: Expected input to have non-zero size for non-batch dimensions, "
                             "but input has sizes %s",
                             a->op, airc_meta_shape_str(x->shape, x->ndim, s));
    if (size[0] < 0 || size[1] < 0)
        return airc_fail(AIRC_E_SHAPE, "%s: elements of output_size must be at least 0", a->op);
    if (!airc_dtype_is_floating(x->dtype))
        return airc_fail(AIRC_E_SHAPE, "%s: \"adaptive_max_pool2d\" not implemented for '%s'",
                         a->op, airc_dtype_torch_type_name(x->dtype));
    airc_tmeta outs[2] = {*x, *x};
    outs[0].shape[x->ndim - 2] = size[0];
    outs[0].shape[x->ndim - 1] = size[1];
    pool_strides(x, 2, &outs[0]);
    outs[1] = outs[0];
    outs[1].dtype = AIRC_DTYPE_I64;
    return airc_meta_set_tuple(n, outs, 2);
}

/* _adaptive_avg_pool3d / adaptive_max_pool3d(self, output_size[3]): a
 * 4-d or 5-d input, every dim but the first non-empty, of the kernels'
 * dtypes (f32, f64; f16 too for the average); contiguous results. */
static airc_status adaptive3d(airc_node *n, const airc_meta_args *a, const airc_tmeta *x,
                              const int64_t *size, int32_t ns, bool is_max)
{
    char s[AIRC_META_SHAPE_STR];
    const char *op = is_max ? "adaptive_max_pool3d" : "adaptive_avg_pool3d";
    if (ns != 3)
        return airc_fail(AIRC_E_SHAPE, "%s: %s: output_size must be 3", a->op, op);
    if (x->ndim != 4 && x->ndim != 5)
        return airc_fail(AIRC_E_SHAPE, "%s: %s(): Expected 4D or 5D tensor, but got %s", a->op, op,
                         airc_meta_shape_str(x->shape, x->ndim, s));
    for (int32_t d = 1; d < x->ndim; d++)
        if (!x->shape[d])
            return airc_fail(AIRC_E_SHAPE,
                             "%s: %s(): Expected input to have non-zero size for non-batch "
                             "dimensions, but input has sizes %s with dimension %d being empty",
                             a->op, op, airc_meta_shape_str(x->shape, x->ndim, s), (int)d);
    for (int32_t i = 0; i < 3; i++)
        if (size[i] < 0)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: %s: elements of output_size must be greater than or equal to 0",
                             a->op, op);
    if (x->dtype != AIRC_DTYPE_F32 && x->dtype != AIRC_DTYPE_F64 &&
        (is_max || x->dtype != AIRC_DTYPE_F16))
        return airc_fail(AIRC_E_SHAPE, "%s: \"%s_cpu\" not implemented for '%s'", a->op, op,
                         airc_dtype_torch_type_name(x->dtype));
    airc_tmeta outs[2] = {*x, *x};
    memcpy(outs[0].shape + x->ndim - 3, size, 3 * sizeof *size);
    AIRC_TRY(airc_meta_check_numel(a, outs[0].shape, outs[0].ndim));
    airc_tmeta_contiguous(&outs[0]);
    if (!is_max)
        return airc_meta_set(n, &outs[0]);
    outs[1] = outs[0];
    outs[1].dtype = AIRC_DTYPE_I64;
    return airc_meta_set_tuple(n, outs, 2);
}

airc_status airc_meta_adaptive_pool2d(airc_node *n, void *user_data)
{
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta x;
    AIRC_TRY(airc_meta_tensor(&a, "self", &x));
    int64_t size[AIRC_MAX_DIMS];
    int32_t ns;
    bool present;
    AIRC_TRY(airc_meta_int_list(&a, "output_size", size, AIRC_MAX_DIMS, &ns, &present));
    const char *name = airc_meta_name(&a);
    if (strstr(name, "3d"))
        return adaptive3d(n, &a, &x, size, ns, !strcmp(name, "adaptive_max_pool3d"));
    if (!strcmp(name, "adaptive_max_pool2d"))
        return adaptive_max(n, &a, &x, size, ns);
    if (ns != 2)
        return airc_fail(AIRC_E_SHAPE, "%s: adaptive_avg_pool2d: output_size must be 2", a.op);
    if (size[0] < 0 || size[1] < 0)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: adaptive_avg_pool2d: elements of output_size must be greater than "
                         "or equal to 0 but received {%" PRId64 ", %" PRId64 "}",
                         a.op, size[0], size[1]);
    char s[AIRC_META_SHAPE_STR];
    if (!strcmp(name, "adaptive_avg_pool2d") && size[0] == 1 && size[1] == 1) {
        /* torch computes input.mean([-1, -2], keepdim=True): any rank from
         * 2, empty planes too (nan), and mean's floating types only */
        if (x.ndim < 2)
            return airc_fail(AIRC_E_SHAPE, "%s: Dimension out of range (got -2 for %d dims)", a.op,
                             (int)x.ndim);
        if (!airc_dtype_is_floating(x.dtype))
            return airc_fail(AIRC_E_SHAPE,
                             "%s: mean(): could not infer output dtype. Input dtype must be "
                             "either a floating point or complex dtype. Got: %s",
                             a.op, airc_dtype_torch_type_name(x.dtype));
    } else if ((x.ndim != 3 && x.ndim != 4) || x.shape[x.ndim - 2] == 0 ||
               x.shape[x.ndim - 1] == 0) {
        /* batch and channels may be empty, the plane may not */
        return airc_fail(AIRC_E_SHAPE,
                         "%s: adaptive_avg_pool2d(): Expected a 3D or 4D tensor with non-zero "
                         "size for non-batch dimensions, got %s",
                         a.op, airc_meta_shape_str(x.shape, x.ndim, s));
    }
    airc_tmeta out = x;
    out.shape[x.ndim - 2] = size[0];
    out.shape[x.ndim - 1] = size[1];
    /* the kernel has no integer or bool variant; torch only finds out when
     * there is something to compute */
    if (!airc_dtype_is_floating(x.dtype) && airc_tmeta_numel(&out) > 0)
        return airc_fail(AIRC_E_SHAPE, "%s: \"adaptive_avg_pool2d\" not implemented for '%s'", a.op,
                         airc_dtype_torch_type_name(x.dtype));
    pool_strides(&x, 2, &out);
    return airc_meta_set(n, &out);
}

airc_status airc_meta_softmax(airc_node *n, void *user_data)
{
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta x;
    AIRC_TRY(airc_meta_tensor(&a, "self", &x));
    int64_t dim;
    int32_t d;
    AIRC_TRY(airc_meta_int(&a, "dim", 0, &dim));
    AIRC_TRY(airc_meta_wrap_dim(&a, dim, x.ndim, true, &d));
    airc_tmeta out = x;
    bool has_dtype = false, half_to_float = false;
    if (airc_meta_find(&a, "dtype") >= 0)
        AIRC_TRY(airc_meta_opt_dtype(&a, "dtype", &out.dtype, &has_dtype));
    AIRC_TRY(airc_meta_bool(&a, "half_to_float", false, &half_to_float));
    if (half_to_float) {
        if (x.dtype != AIRC_DTYPE_F16)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: conversion is supported for Half type only (got %s)", a.op,
                             airc_dtype_torch_type_name(x.dtype));
        out.dtype = AIRC_DTYPE_F32;
    }
    if (!airc_dtype_is_floating(out.dtype))
        return airc_fail(AIRC_E_SHAPE, "%s: softmax needs a floating-point input, got %s", a.op,
                         airc_dtype_torch_type_name(out.dtype));
    airc_tmeta_contiguous(&out);
    return airc_meta_set(n, &out);
}

/* _masked_softmax(self, mask, dim?, mask_type?): torch 1.13's CPU checks in
 * its order (mask of self's shape, bool; dim, None the last; the dtype:
 * f32, f64, bf16; mask_type 1 or 2: 0, src_mask, has no CPU kernel); a
 * contiguous result. A softmax over a dim of size 0 crashes torch 1.13
 * (it divides by it), and torch scrambles the result of a dense
 * non-contiguous self: both refused. */
airc_status airc_meta_masked_softmax(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta x, m;
    AIRC_TRY(airc_meta_tensor(&a, "self", &x));
    AIRC_TRY(airc_meta_tensor(&a, "mask", &m));
    if (x.ndim != m.ndim || memcmp(x.shape, m.shape, (size_t)x.ndim * sizeof *x.shape))
        return airc_fail(AIRC_E_SHAPE, "%s: Mask shape should match input shape", a.op);
    if (m.dtype != AIRC_DTYPE_BOOL)
        return airc_fail(AIRC_E_SHAPE, "%s: Mask should be a boolean tensor", a.op);
    int64_t dim, type;
    int32_t d;
    bool has_type;
    AIRC_TRY(airc_meta_int(&a, "dim", x.ndim - 1, &dim));
    AIRC_TRY(airc_meta_wrap_dim(&a, dim, x.ndim, true, &d));
    if (x.dtype != AIRC_DTYPE_F32 && x.dtype != AIRC_DTYPE_F64 && x.dtype != AIRC_DTYPE_BF16)
        return airc_fail(AIRC_E_SHAPE, "%s: \"masked_softmax\" not implemented for '%s'", a.op,
                         airc_dtype_torch_type_name(x.dtype));
    AIRC_TRY(airc_meta_opt_int(&a, "mask_type", &type, &has_type));
    if (!has_type)
        return airc_fail(AIRC_E_SHAPE, "%s: Mask Type should be defined", a.op);
    if (type < 0 || type > 2)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: Mask Type should be 0 (src_mask) or 1 (src_key_padding_mask), or 2 "
                         "(default_mask)",
                         a.op);
    if (type == 0)
        return airc_fail(AIRC_E_SHAPE, "%s: src_mask not currently supported on CPU", a.op);
    if (x.ndim > 0 && x.shape[d] == 0)
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "%s: a softmax over a dim of size 0, where torch 1.13 divides by it "
                         "(and crashes)",
                         a.op);
    /* torch's result is empty_like(self), its kernel writes the rows of
     * self.contiguous() into it as if it were contiguous */
    if (!airc_meta_is_contiguous(&x) && airc_meta_is_non_overlapping_and_dense(&x))
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "%s: a self laid out densely but not contiguous: torch 1.13 writes the "
                         "contiguous rows into a result laid out like self (scrambling it)",
                         a.op);
    airc_tmeta out = x;
    airc_tmeta_contiguous(&out);
    return airc_meta_set(n, &out);
}

airc_status airc_meta_layer_norm(airc_node *n, void *user_data)
{
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta x, w, b;
    bool has_w, has_b, present;
    AIRC_TRY(airc_meta_tensor(&a, "input", &x));
    AIRC_TRY(airc_meta_opt_tensor(&a, "weight", &w, &has_w));
    AIRC_TRY(airc_meta_opt_tensor(&a, "bias", &b, &has_b));
    int64_t norm[AIRC_MAX_DIMS];
    int32_t nn;
    AIRC_TRY(airc_meta_int_list(&a, "normalized_shape", norm, AIRC_MAX_DIMS, &nn, &present));
    char s1[AIRC_META_SHAPE_STR], s2[AIRC_META_SHAPE_STR];
    if (nn < 1)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: Expected normalized_shape to be at least 1-dimensional, i.e., "
                         "containing at least one element, but got normalized_shape = []",
                         a.op);
    const airc_tmeta *params[2] = {has_w ? &w : NULL, has_b ? &b : NULL};
    static const char *const pnames[2] = {"weight", "bias"};
    for (int i = 0; i < 2; i++) {
        const airc_tmeta *p = params[i];
        if (!p)
            continue;
        bool same = p->ndim == nn;
        for (int32_t j = 0; same && j < nn; j++)
            same = p->shape[j] == norm[j];
        if (!same)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: Expected %s to be of same shape as normalized_shape, but got %s "
                             "of shape %s and normalized_shape = %s",
                             a.op, pnames[i], pnames[i], airc_meta_shape_str(p->shape, p->ndim, s1),
                             airc_meta_shape_str(norm, nn, s2));
    }
    int32_t axis = x.ndim - nn;
    bool ok = axis >= 0;
    for (int32_t j = 0; ok && j < nn; j++)
        ok = x.shape[axis + j] == norm[j];
    if (!ok) {
        char s3[AIRC_META_SHAPE_STR];
        airc_meta_shape_str(norm, nn, s2);
        s2[strlen(s2) - 1] = '\0'; /* torch prints the tail without brackets */
        return airc_fail(AIRC_E_SHAPE,
                         "%s: Given normalized_shape=%s, expected input with shape [*, %s], but "
                         "got input of size%s",
                         a.op, airc_meta_shape_str(norm, nn, s1), s2 + 1,
                         airc_meta_shape_str(x.shape, x.ndim, s3));
    }
    airc_tmeta outs[3];
    outs[0] = x;
    airc_tmeta_contiguous(&outs[0]);
    outs[1] = x;
    for (int32_t j = axis; j < x.ndim; j++)
        outs[1].shape[j] = 1;
    airc_tmeta_contiguous(&outs[1]);
    outs[2] = outs[1];
    return airc_meta_set_tuple(n, outs, 3);
}

/* native_batch_norm over dim 1 of an input of 2 or more dims. torch's raw
 * op checks nothing (it reads past a short weight); airc checks what
 * torch's batch_norm does: parameters of C elements, running statistics
 * in evaluation mode, f32/f64/bf16 (bf16 with bf16 or f32 parameters).
 * Training with running statistics would update them in place, which
 * an inference graph does not do: refused. Results: y like the input
 * (channels-last kept), then save_mean and save_invstd: [C] in training,
 * [0] in evaluation, in the parameters' dtype. */
airc_status airc_meta_batch_norm(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    static const char *const pnames[4] = {"weight", "bias", "running_mean", "running_var"};
    airc_tmeta x, p[4];
    bool has[4], training;
    AIRC_TRY(airc_meta_tensor(&a, "input", &x));
    for (int i = 0; i < 4; i++)
        AIRC_TRY(airc_meta_opt_tensor(&a, pnames[i], &p[i], &has[i]));
    AIRC_TRY(airc_meta_bool(&a, "training", false, &training));
    char s[AIRC_META_SHAPE_STR];
    if (x.ndim < 2)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: expected an input of at least 2 dims (N, C, ...), got shape %s", a.op,
                         airc_meta_shape_str(x.shape, x.ndim, s));
    if (x.dtype != AIRC_DTYPE_F32 && x.dtype != AIRC_DTYPE_F64 && x.dtype != AIRC_DTYPE_BF16)
        return airc_fail(AIRC_E_SHAPE, "%s: \"batch_norm\" not implemented for '%s'", a.op,
                         airc_dtype_torch_type_name(x.dtype));
    if (!training && (!has[2] || !has[3]))
        return airc_fail(AIRC_E_SHAPE,
                         "%s: running_mean and running_var must be defined in evaluation mode",
                         a.op);
    if (training && (has[2] || has[3]))
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "%s: training=True with running statistics updates running_mean and "
                         "running_var in place; airc runs inference graphs (a model in eval "
                         "mode)",
                         a.op);
    int64_t c = x.shape[1];
    airc_dtype pdt = AIRC_DTYPE_UNDEFINED;
    for (int i = 0; i < 4; i++) {
        if (!has[i])
            continue;
        if (p[i].ndim != 1 || p[i].shape[0] != c)
            return airc_fail(AIRC_E_SHAPE, "%s: %s should contain %" PRId64 " elements not %s",
                             a.op, pnames[i], c, airc_meta_shape_str(p[i].shape, p[i].ndim, s));
        if (pdt == AIRC_DTYPE_UNDEFINED)
            pdt = p[i].dtype;
        bool ok = p[i].dtype == pdt &&
                  (pdt == x.dtype || (x.dtype == AIRC_DTYPE_BF16 && pdt == AIRC_DTYPE_F32));
        if (!ok)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: %s has dtype %s: the parameters take the input's dtype (%s), "
                             "or f32 for a bf16 input, all the same",
                             a.op, pnames[i], airc_dtype_name(p[i].dtype),
                             airc_dtype_name(x.dtype));
    }
    if (pdt == AIRC_DTYPE_UNDEFINED)
        pdt = x.dtype;
    airc_tmeta outs[3];
    outs[0] = x;
    if (x.ndim == 4 && airc_meta_is_channels_last_like(&x))
        airc_meta_channels_last_strides(&outs[0]);
    else
        airc_tmeta_contiguous(&outs[0]);
    memset(&outs[1], 0, sizeof outs[1]);
    outs[1].dtype = pdt;
    outs[1].ndim = 1;
    outs[1].shape[0] = training ? c : 0;
    airc_tmeta_contiguous(&outs[1]);
    outs[2] = outs[1];
    return airc_meta_set_tuple(n, outs, 3);
}

/* native_group_norm(input, weight?, bias?, N, C, HxW, group, eps) with
 * torch's checks in its order: group above 0 and dividing C, weight and
 * bias of C elements, N * C * HxW elements in the input, an input
 * contiguous in its suggested layout (plain or channels-last), f32, f64 or
 * bf16 with parameters of the input's dtype. Results: y like the input,
 * mean and rstd [N, group]. */
airc_status airc_meta_group_norm(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta x, p[2];
    bool has[2];
    static const char *const pnames[2] = {"weight", "bias"};
    int64_t nn, c, hxw, group;
    AIRC_TRY(airc_meta_tensor(&a, "input", &x));
    for (int i = 0; i < 2; i++)
        AIRC_TRY(airc_meta_opt_tensor(&a, pnames[i], &p[i], &has[i]));
    AIRC_TRY(airc_meta_int(&a, "N", 0, &nn));
    AIRC_TRY(airc_meta_int(&a, "C", 0, &c));
    AIRC_TRY(airc_meta_int(&a, "HxW", 0, &hxw));
    AIRC_TRY(airc_meta_int(&a, "group", 0, &group));
    char s1[AIRC_META_SHAPE_STR], s2[AIRC_META_SHAPE_STR];
    if (group <= 0)
        return airc_fail(AIRC_E_SHAPE, "%s: Expected num groups to be greater than 0, got %" PRId64,
                         a.op, group);
    if (c % group)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: Expected number of channels in input to be divisible by num_groups, "
                         "but got input of shape %s and num_groups=%" PRId64,
                         a.op, airc_meta_shape_str(x.shape, x.ndim, s1), group);
    for (int i = 0; i < 2; i++)
        if (has[i] && (p[i].ndim != 1 || p[i].shape[0] != c))
            return airc_fail(AIRC_E_SHAPE,
                             "%s: Expected %s to be a vector of size equal to the number of "
                             "channels in input, but got %s of shape %s and input of shape %s",
                             a.op, pnames[i], pnames[i],
                             airc_meta_shape_str(p[i].shape, p[i].ndim, s1),
                             airc_meta_shape_str(x.shape, x.ndim, s2));
    int64_t want;
    if (nn < 0 || c < 0 || hxw < 0 || __builtin_mul_overflow(nn, c, &want) ||
        __builtin_mul_overflow(want, hxw, &want) || want != airc_tmeta_numel(&x))
        return airc_fail(AIRC_E_SHAPE,
                         "%s: Expected X.numel() == N * C * HxW to be true, but got "
                         "false.",
                         a.op);
    bool cl = x.ndim == 4 && airc_meta_is_channels_last_like(&x);
    if (!(cl ? airc_meta_is_channels_last_contiguous(&x) : airc_meta_is_contiguous(&x)))
        return airc_fail(AIRC_E_SHAPE,
                         "%s: Expected X.is_contiguous(memory_format) to be true, but got false.",
                         a.op);
    if (x.dtype != AIRC_DTYPE_F32 && x.dtype != AIRC_DTYPE_F64 && x.dtype != AIRC_DTYPE_BF16)
        return airc_fail(AIRC_E_SHAPE, "%s: \"GroupNormKernelImpl\" not implemented for '%s'", a.op,
                         airc_dtype_torch_type_name(x.dtype));
    for (int i = 0; i < 2; i++)
        if (has[i] && p[i].dtype != x.dtype)
            return airc_fail(AIRC_E_SHAPE, "%s: expected scalar type %s but found %s", a.op,
                             airc_dtype_torch_type_name(x.dtype),
                             airc_dtype_torch_type_name(p[i].dtype));
    if (x.ndim < 2 || x.shape[0] != nn || x.shape[1] != c)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: input of shape %s is not [N=%" PRId64 ", C=%" PRId64 ", ...]", a.op,
                         airc_meta_shape_str(x.shape, x.ndim, s1), nn, c);
    airc_tmeta outs[3];
    outs[0] = x;
    if (cl)
        airc_meta_channels_last_strides(&outs[0]);
    else
        airc_tmeta_contiguous(&outs[0]);
    memset(&outs[1], 0, sizeof outs[1]);
    outs[1].dtype = x.dtype;
    outs[1].ndim = 2;
    outs[1].shape[0] = nn;
    outs[1].shape[1] = group;
    airc_tmeta_contiguous(&outs[1]);
    outs[2] = outs[1];
    return airc_meta_set_tuple(n, outs, 3);
}

/* _weight_norm_interface(v, g, dim=0) -> (w, norm): torch's fused kernel,
 * dim 0 or v's last dim exactly (no wrapping), v f32, f64 or bf16 with g
 * of v's dtype. torch reads g and writes norm as v.size(dim) values
 * whatever g's shape, past its end when g is smaller: airc wants exactly
 * that many. w is contiguous; norm has g's shape and, when g is dense, its
 * strides, in float for bf16. */
airc_status airc_meta_weight_norm(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta v, g;
    int64_t dim;
    AIRC_TRY(airc_meta_tensor(&a, "v", &v));
    AIRC_TRY(airc_meta_tensor(&a, "g", &g));
    AIRC_TRY(airc_meta_int(&a, "dim", 0, &dim));
    if (v.ndim == 0 || (dim != 0 && dim != v.ndim - 1))
        return airc_fail(AIRC_E_SHAPE,
                         "%s: dim must be 0 or the last dim of v (%d dims), got %" PRId64, a.op,
                         (int)v.ndim, dim);
    if (g.dtype != v.dtype)
        return airc_fail(AIRC_E_SHAPE, "%s: expected scalar type %s but found %s", a.op,
                         airc_dtype_torch_type_name(v.dtype), airc_dtype_torch_type_name(g.dtype));
    if (v.dtype != AIRC_DTYPE_F32 && v.dtype != AIRC_DTYPE_F64 && v.dtype != AIRC_DTYPE_BF16)
        return airc_fail(AIRC_E_SHAPE, "%s: \"weight_norm_kernel\" not implemented for '%s'", a.op,
                         airc_dtype_torch_type_name(v.dtype));
    if (airc_tmeta_numel(&g) != v.shape[dim]) {
        char s1[AIRC_META_SHAPE_STR], s2[AIRC_META_SHAPE_STR];
        return airc_fail(
            AIRC_E_SHAPE,
            "%s: g of shape %s must hold one value per slice of v %s along dim %" PRId64, a.op,
            airc_meta_shape_str(g.shape, g.ndim, s1), airc_meta_shape_str(v.shape, v.ndim, s2),
            dim);
    }
    airc_tmeta outs[2] = {v, g};
    airc_tmeta_contiguous(&outs[0]);
    if (!airc_meta_is_non_overlapping_and_dense(&g))
        airc_tmeta_contiguous(&outs[1]);
    if (v.dtype == AIRC_DTYPE_BF16)
        outs[1].dtype = AIRC_DTYPE_F32;
    return airc_meta_set_tuple(n, outs, 2);
}

/* renorm(self, p, dim, maxnorm): self's shape and dtype, contiguous;
 * torch's meta checks (p above 0, maxnorm not negative, 2 or more dims),
 * then dim and linalg.vector_norm's checks (a floating type; an inf
 * norm over an empty dim). */
airc_status airc_meta_renorm(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta self;
    double p, maxnorm;
    int64_t dim;
    int32_t d;
    AIRC_TRY(airc_meta_tensor(&a, "self", &self));
    AIRC_TRY(airc_meta_double(&a, "p", 2, &p));
    AIRC_TRY(airc_meta_double(&a, "maxnorm", 0, &maxnorm));
    AIRC_TRY(airc_meta_int(&a, "dim", 0, &dim));
    if (!(p > 0))
        return airc_fail(AIRC_E_SHAPE, "%s: renorm: non-positive-norm not supported", a.op);
    if (!(maxnorm >= 0))
        return airc_fail(AIRC_E_SHAPE, "%s: renorm: expected maxnorm to be >= 0 but got %g", a.op,
                         maxnorm);
    if (self.ndim < 2)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: renorm: input needs at least 2 dimensions, got %d dimensions", a.op,
                         (int)self.ndim);
    AIRC_TRY(airc_meta_wrap_dim(&a, dim, self.ndim, true, &d));
    if (!airc_dtype_is_floating(self.dtype))
        return airc_fail(AIRC_E_SHAPE,
                         "%s: linalg.vector_norm: Expected a floating point or complex tensor as "
                         "input. Got %s",
                         a.op, airc_dtype_torch_type_name(self.dtype));
    for (int32_t i = 0; isinf(p) && !airc_tmeta_numel(&self) && i < self.ndim; i++)
        if (i != d && self.shape[i] == 0) /* the inf norm over an empty dim */
            return airc_fail(AIRC_E_SHAPE,
                             "%s: linalg.vector_norm cannot compute the inf norm on the dimension "
                             "%dbecause this dimension is empty and the operation does not "
                             "have an identity",
                             a.op, (int)i);
    airc_tmeta_contiguous(&self);
    return airc_meta_set(n, &self);
}
