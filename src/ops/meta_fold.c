/* Meta functions of im2col (F.unfold) and col2im (F.fold), with torch
 * 1.13's checks (its im2col_shape_check / col2im_shape_check): kernel_size,
 * dilation, padding and stride of 2 ints each, kernel, dilation and stride
 * above 0, padding at least 0, a block grid of at least one block, inputs
 * with an optional batch dim and no other empty dim, floating dtypes (its
 * CPU kernels have no others). Contiguous results. */
#include "ops/meta_util.h"

#include <inttypes.h>
#include <string.h>

typedef struct fold_args {
    int64_t k[2], d[2], p[2], s[2];
    int64_t taps; /* k[0] * k[1] */
} fold_args;

static airc_status read_pair(const airc_meta_args *a, const char *name, int64_t *out)
{
    int32_t n;
    bool present;
    AIRC_TRY(airc_meta_int_list(a, name, out, 2, &n, &present));
    if (n != 2)
        return airc_fail(AIRC_E_SHAPE, "%s: It is expected %s equals to 2, but got size %d", a->op,
                         name, (int)n);
    return AIRC_OK;
}

/* The geometry, checked; *bh, *bw the block grid of an H x W plane. */
static airc_status read_fold(const airc_meta_args *a, int64_t h, int64_t w, fold_args *f,
                             int64_t *bh, int64_t *bw)
{
    AIRC_TRY(read_pair(a, "kernel_size", f->k));
    AIRC_TRY(read_pair(a, "dilation", f->d));
    AIRC_TRY(read_pair(a, "padding", f->p));
    AIRC_TRY(read_pair(a, "stride", f->s));
    static const char *const what[] = {"kernel size", "dilation", "stride"};
    const int64_t *pos[] = {f->k, f->d, f->s};
    for (int i = 0; i < 3; i++)
        if (pos[i][0] <= 0 || pos[i][1] <= 0)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: %s should be greater than zero, but got %" PRId64 " and %" PRId64,
                             a->op, what[i], pos[i][0], pos[i][1]);
    if (f->p[0] < 0 || f->p[1] < 0)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: padding should be non-negative, but got pad_height: %" PRId64
                         " pad_width: %" PRId64,
                         a->op, f->p[0], f->p[1]);
    int64_t plane[2] = {h, w}, blocks[2];
    for (int i = 0; i < 2; i++) {
        int64_t span, ext;
        if (f->p[i] > INT64_MAX / 4 || __builtin_mul_overflow(f->d[i], f->k[i] - 1, &span) ||
            __builtin_add_overflow(plane[i], 2 * f->p[i], &ext))
            return airc_meta_overflow(a);
        int64_t num; /* blocks = floor(num / stride) + 1 */
        if (__builtin_sub_overflow(ext, span, &num) || __builtin_sub_overflow(num, 1, &num))
            num = -1; /* far below zero: no block */
        blocks[i] = num / f->s[i] - (num < 0 && num % f->s[i] != 0) + 1;
    }
    if (blocks[0] < 1 || blocks[1] < 1)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: Given spatial size (%" PRId64 ", %" PRId64 "), kernel_size=(%" PRId64
                         ", %" PRId64 "), dilation=(%" PRId64 ", %" PRId64 "), padding=(%" PRId64
                         ", %" PRId64
                         "), calculated shape of the array of sliding blocks as (%" PRId64
                         ", %" PRId64 "), which is too small (non-positive)",
                         a->op, h, w, f->k[0], f->k[1], f->d[0], f->d[1], f->p[0], f->p[1],
                         blocks[0], blocks[1]);
    *bh = blocks[0];
    *bw = blocks[1];
    if (__builtin_mul_overflow(f->k[0], f->k[1], &f->taps))
        return airc_meta_overflow(a);
    return AIRC_OK;
}

/* Optional batch dim (lead), then `rank` dims none of which is empty. */
static airc_status check_input(const airc_meta_args *a, const airc_tmeta *x, int32_t rank)
{
    char s[AIRC_META_SHAPE_STR];
    bool ok = x->ndim == rank || x->ndim == rank + 1;
    for (int32_t d = x->ndim - rank; ok && d < x->ndim; d++)
        ok = d >= 0 && x->shape[d] != 0;
    if (!ok)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: Expected %dD or %dD (batch mode) tensor with possibly 0 batch size "
                         "and other non-zero dimensions for input, but got: %s",
                         a->op, (int)rank, (int)rank + 1,
                         airc_meta_shape_str(x->shape, x->ndim, s));
    if (!airc_dtype_is_floating(x->dtype))
        return airc_fail(AIRC_E_SHAPE, "%s: \"%s_out_cpu\" not implemented for '%s'", a->op,
                         airc_meta_name(a), airc_dtype_torch_type_name(x->dtype));
    return AIRC_OK;
}

airc_status airc_meta_fold(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta x;
    AIRC_TRY(airc_meta_tensor(&a, "self", &x));
    fold_args f;
    int64_t bh, bw;
    airc_tmeta out = x;
    if (!strcmp(airc_meta_name(&a), "im2col")) {
        AIRC_TRY(check_input(&a, &x, 3));
        int32_t c = x.ndim - 3;
        AIRC_TRY(read_fold(&a, x.shape[c + 1], x.shape[c + 2], &f, &bh, &bw));
        out.ndim = x.ndim - 1;
        if (__builtin_mul_overflow(x.shape[c], f.taps, &out.shape[c]) ||
            __builtin_mul_overflow(bh, bw, &out.shape[c + 1]))
            return airc_meta_overflow(&a);
    } else { /* col2im(self, output_size, ...) */
        AIRC_TRY(check_input(&a, &x, 2));
        int64_t size[2];
        AIRC_TRY(read_pair(&a, "output_size", size));
        int32_t c = x.ndim - 2;
        AIRC_TRY(read_fold(&a, size[0], size[1], &f, &bh, &bw));
        int64_t taps = f.taps;
        if (x.shape[c] % taps)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: Expected size of input's dimension %d to be divisible by the "
                             "product of kernel_size, but got input.size(%d)=%" PRId64
                             " and kernel_size=(%" PRId64 ", %" PRId64 ").",
                             a.op, (int)c, (int)c, x.shape[c], f.k[0], f.k[1]);
        if (x.shape[c + 1] != bh * bw)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: expected size of input's dimension %d to match the calculated "
                             "number of sliding blocks %" PRId64 " * %" PRId64 " = %" PRId64
                             ", but got input.size(%d)=%" PRId64,
                             a.op, (int)c + 1, bh, bw, bh * bw, (int)c + 1, x.shape[c + 1]);
        out.ndim = x.ndim + 1;
        out.shape[c] = x.shape[c] / taps;
        out.shape[c + 1] = size[0];
        out.shape[c + 2] = size[1];
    }
    AIRC_TRY(airc_meta_check_numel(&a, out.shape, out.ndim));
    airc_tmeta_contiguous(&out);
    return airc_meta_set(n, &out);
}
