/* Meta function of max_unpool2d(self, indices, output_size[2]) and
 * max_unpool3d(self, indices, output_size[3], stride[3], padding[3]),
 * torch's max_unpooling shape checks: int64 indices of self's shape, a 3-d
 * or 4-d (2d) / 4-d or 5-d (3d) self whose dims but the first are not
 * empty, for 3d a positive stride (the padding is not checked), and f32
 * or f64 for a non-empty result (torch's kernels; any dtype otherwise).
 * The result replaces the last 2 or 3 dims with output_size: channels-last
 * for a 2d channels-last self, else contiguous. Indices out of the
 * output's planes are a data check of the kernel's. */
#include "ops/meta_util.h"

#include <inttypes.h>
#include <string.h>

/* A list argument of exactly sp ints (what names them in torch's message). */
static airc_status triple(const airc_meta_args *a, const char *name, int32_t sp, bool size_msg,
                          int64_t *out)
{
    int32_t n;
    bool present;
    AIRC_TRY(airc_meta_int_list(a, name, out, AIRC_MAX_DIMS, &n, &present));
    if (n == sp)
        return AIRC_OK;
    return airc_fail(
        AIRC_E_SHAPE, "%s: There should be exactly %s elements (%s) in %s, but got%s %d elements.",
        a->op, sp == 3 ? "three" : "two", sp == 3 ? "depth, height, width" : "height, width", name,
        size_msg ? "" : ":", (int)n);
}

airc_status airc_meta_max_unpool(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    int32_t sp = strstr(airc_meta_name(&a), "3d") ? 3 : 2;
    airc_tmeta x, idx;
    AIRC_TRY(airc_meta_tensor(&a, "self", &x));
    AIRC_TRY(airc_meta_tensor(&a, "indices", &idx));
    if (idx.dtype != AIRC_DTYPE_I64)
        return airc_fail(AIRC_E_SHAPE, "%s: elements in indices should be type int64 but got: %s",
                         a.op, airc_dtype_torch_type_name(idx.dtype));
    int64_t size[AIRC_MAX_DIMS], stride[AIRC_MAX_DIMS], pad[AIRC_MAX_DIMS];
    AIRC_TRY(triple(&a, "output_size", sp, true, size));
    if (x.ndim != sp + 1 && x.ndim != sp + 2)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: Input to max_unpooling%dd should be a %dd or %dd Tensor, but got a "
                         "tensor with %d dimensions.",
                         a.op, (int)sp, (int)(sp + 1), (int)(sp + 2), (int)x.ndim);
    if (sp == 3) {
        AIRC_TRY(triple(&a, "stride", 3, false, stride));
        AIRC_TRY(triple(&a, "padding", 3, false, pad));
    }
    char s1[AIRC_META_SHAPE_STR], s2[AIRC_META_SHAPE_STR];
    if (idx.ndim != x.ndim || memcmp(idx.shape, x.shape, (size_t)x.ndim * sizeof *x.shape))
        return airc_fail(AIRC_E_SHAPE,
                         "%s: Expected shape of indices to be same as that of the input tensor "
                         "(%s) but got indices tensor with shape: %s",
                         a.op, airc_meta_shape_str(x.shape, x.ndim, s1),
                         airc_meta_shape_str(idx.shape, idx.ndim, s2));
    for (int32_t d = 1; d < x.ndim; d++)
        if (!x.shape[d])
            return airc_fail(AIRC_E_SHAPE,
                             "%s: max_unpooling%dd_forward_out_cpu(): Expected input to have "
                             "non-zero size for non-batch dimensions, but got %s with dimension "
                             "%d being empty.",
                             a.op, (int)sp, airc_meta_shape_str(x.shape, x.ndim, s1), (int)d);
    for (int32_t i = 0; i < sp && sp == 3; i++)
        if (stride[i] <= 0)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: strides should be greater than zero, but got stride: %s", a.op,
                             airc_meta_shape_str(stride, 3, s1));
    airc_tmeta out = x;
    for (int32_t i = 0; i < sp; i++) {
        if (size[i] < 0)
            return airc_fail(AIRC_E_SHAPE, "%s: output_size must not be negative, got %" PRId64,
                             a.op, size[i]);
        out.shape[x.ndim - sp + i] = size[i];
    }
    AIRC_TRY(airc_meta_check_numel(&a, out.shape, out.ndim));
    /* torch's kernel (f32, f64) runs only for a non-empty result */
    if (x.dtype != AIRC_DTYPE_F32 && x.dtype != AIRC_DTYPE_F64 && airc_tmeta_numel(&out) > 0)
        return airc_fail(AIRC_E_SHAPE, "%s: \"max_unpool%dd\" not implemented for '%s'", a.op,
                         (int)sp, airc_dtype_torch_type_name(x.dtype));
    if (sp == 2 && x.ndim == 4 && airc_meta_is_channels_last_like(&x))
        airc_meta_channels_last_strides(&out);
    else
        airc_tmeta_contiguous(&out);
    return airc_meta_set(n, &out);
}
