/* Meta functions of the convolution entry points that are not
 * aten.convolution: the slow_conv* forwards (_slow_conv2d_forward,
 * slow_conv3d_forward, slow_conv_dilated2d / 3d, slow_conv_transpose2d /
 * 3d), each with its own torch 1.13 checks and messages, and conv_tbc.
 * They run as convolutions (airc_conv_layout_of tells the kernels where
 * each keeps its arguments). Where torch does not check what its kernel
 * then reads (a kernel_size other than the weight's, a 2-d weight, an
 * empty input channel dim, groups that do not divide the output), airc
 * refuses: torch reads past the weight or computes garbage there. */
#include "ops/meta_util.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* bias, stride, padding, dilation, transposed, output_padding, groups,
 * spatial dims */
static const struct {
    const char *qualname;
    airc_conv_layout l;
} layouts[] = {
    {"aten._convolution.default", {2, 3, 4, 5, 6, 7, 8, 0}},
    {"aten._slow_conv2d_forward.default", {3, 4, 5, -1, -1, -1, -1, 2}},
    {"aten.convolution.default", {2, 3, 4, 5, 6, 7, 8, 0}},
    {"aten.slow_conv3d_forward.default", {3, 4, 5, -1, -1, -1, -1, 3}},
    {"aten.slow_conv_dilated2d.default", {3, 4, 5, 6, -1, -1, -1, 2}},
    {"aten.slow_conv_dilated3d.default", {3, 4, 5, 6, -1, -1, -1, 3}},
    {"aten.slow_conv_transpose2d.default", {3, 4, 5, 7, -2, 6, -1, 2}},
    {"aten.slow_conv_transpose3d.default", {3, 4, 5, 7, -2, 6, -1, 3}},
};

bool airc_conv_layout_of(const char *qualname, airc_conv_layout *out)
{
    for (size_t i = 0; qualname && i < sizeof layouts / sizeof *layouts; i++)
        if (!strcmp(layouts[i].qualname, qualname)) {
            *out = layouts[i].l;
            return true;
        }
    return false;
}

/* "a x b x c" */
static const char *by(char *buf, size_t cap, const int64_t *v, int32_t k)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int32_t i = 0; i < k && len < cap; i++) {
        int r = snprintf(buf + len, cap - len, "%s%" PRId64, i ? " x " : "", v[i]);
        len += r > 0 ? (size_t)r : 0;
    }
    return buf;
}

/* an int[k] argument (one value repeats) */
static airc_status param(const airc_meta_args *a, int pos, int32_t k, int64_t def, int64_t *out,
                         int32_t *n)
{
    for (int32_t i = 0; i < k; i++)
        out[i] = def;
    *n = k;
    if (pos < 0 || !a->v[pos])
        return AIRC_OK;
    bool present;
    int64_t v[AIRC_MAX_DIMS];
    AIRC_TRY(airc_meta_int_list(a, a->schema->args[pos].name, v, AIRC_MAX_DIMS, n, &present));
    for (int32_t i = 0; i < k; i++)
        out[i] = *n == 1 ? v[0] : i < *n ? v[i] : def;
    return AIRC_OK;
}

typedef struct conv_args {
    airc_conv_layout l;
    int32_t k; /* spatial dims */
    airc_tmeta x, w, b;
    bool has_bias;
    int64_t ks[3], st[3], pd[3], dl[3], op[3];
    int32_t nks, nst, npd, ndl;
} conv_args;

/* "Expected a tensor of dimension d and tensor.size[i] == s ..." (torch's check_dim_size) */
static airc_status dim_size(const airc_meta_args *a, const airc_tmeta *t, int32_t nd, int32_t i,
                            int64_t size)
{
    if (t->ndim == nd && t->shape[i] == size)
        return AIRC_OK;
    return airc_fail(AIRC_E_SHAPE,
                     "%s: Expected a tensor of dimension %d and tensor.size[%d] == %" PRId64
                     " but got: dimension %d and tensor.size[%d] = %" PRId64,
                     a->op, (int)nd, (int)i, size, (int)t->ndim, (int)i,
                     i < t->ndim ? t->shape[i] : 0);
}

static bool all_positive(const int64_t *v, int32_t k)
{
    for (int32_t i = 0; i < k; i++)
        if (v[i] <= 0)
            return false;
    return true;
}

/* out = (in + 2 pad - (dil (k - 1) + 1)) / stride + 1, checked; *padded
 * and *kern the sizes torch prints */
static airc_status direct_size(const airc_meta_args *a, int64_t in, int64_t k, int64_t st,
                               int64_t pd, int64_t dl, int64_t *padded, int64_t *kern, int64_t *out)
{
    if (__builtin_mul_overflow(pd, 2, padded) || __builtin_add_overflow(*padded, in, padded) ||
        __builtin_mul_overflow(dl, k - 1, kern) || __builtin_add_overflow(*kern, 1, kern))
        return airc_meta_overflow(a);
    int64_t d;
    if (st <= 0)
        return airc_fail(AIRC_E_SHAPE, "%s: stride should be greater than zero", a->op);
    if (__builtin_sub_overflow(*padded, *kern, &d))
        return airc_meta_overflow(a);
    int64_t q = d / st; /* torch's div_rtn: rounds towards -inf */
    if (d % st != 0 && (d < 0) != (st < 0))
        q--;
    if (__builtin_add_overflow(q, 1, out))
        return airc_meta_overflow(a);
    return AIRC_OK;
}

/* _slow_conv2d_forward, slow_conv3d_forward: torch's slow_conv2d_shape_check
 * / slow_conv3d_shape_check */
static airc_status check_slow(const airc_meta_args *a, conv_args *c, int64_t *os)
{
    int32_t k = c->k;
    char s1[AIRC_META_SHAPE_STR], s3[96], s4[96];
    if (c->nks != k || c->nst != k || c->npd != k)
        return airc_fail(AIRC_E_SHAPE, "%s: %dD %s expected", a->op, (int)k,
                         c->nks != k   ? "kernel_size"
                         : c->nst != k ? "stride"
                                       : "padding");
    if (k == 2) {
        if (!all_positive(c->ks, 2))
            return airc_fail(AIRC_E_SHAPE,
                             "%s: kernel size should be greater than zero, but got kernel_height: "
                             "%" PRId64 " kernel_width: %" PRId64,
                             a->op, c->ks[0], c->ks[1]);
        if (!all_positive(c->st, 2))
            return airc_fail(AIRC_E_SHAPE,
                             "%s: stride should be greater than zero, but got stride_height: "
                             "%" PRId64 " stride_width: %" PRId64,
                             a->op, c->st[0], c->st[1]);
    } else {
        if (!all_positive(c->ks, 3))
            return airc_fail(AIRC_E_SHAPE,
                             "%s: kernel size should be greater than zero, but got: %s (TxHxW)",
                             a->op, by(s3, sizeof s3, c->ks, 3));
        if (!all_positive(c->st, 3))
            return airc_fail(AIRC_E_SHAPE,
                             "%s: stride should be greater than zero, but got: %s (TxHxW)", a->op,
                             by(s3, sizeof s3, c->st, 3));
    }
    if (airc_tmeta_numel(&c->w) == 0 || (c->w.ndim != 2 && c->w.ndim != k + 2))
        return airc_fail(AIRC_E_SHAPE,
                         "%s: non-empty 2D or %dD weight tensor expected, but got: %s", a->op,
                         (int)k + 2, airc_meta_shape_str(c->w.shape, c->w.ndim, s1));
    if (c->has_bias && (c->b.ndim != 1 || c->b.shape[0] != c->w.shape[0]))
        return dim_size(a, &c->b, 1, 0, c->w.shape[0]);
    int32_t nd = c->x.ndim;
    if (k == 2) {
        if (nd != 4)
            return airc_fail(AIRC_E_SHAPE, "%s: Expected 4D input tensor, but got: %s", a->op,
                             airc_meta_shape_str(c->x.shape, nd, s1));
        for (int32_t d = 2; d < 4; d++)
            if (c->x.shape[d] == 0)
                return airc_fail(AIRC_E_SHAPE,
                                 "%s: Expected non-zero size for input dimension %d, but got input "
                                 "shape: %s. Only the batch and channel dimensions support size 0.",
                                 a->op, (int)d, airc_meta_shape_str(c->x.shape, nd, s1));
    } else {
        bool valid_empty = nd == 5 && c->x.shape[0] == 0 && c->x.shape[1] && c->x.shape[2] &&
                           c->x.shape[3] && c->x.shape[4];
        if (nd != 5 || (airc_tmeta_numel(&c->x) == 0 && !valid_empty))
            return airc_fail(AIRC_E_SHAPE, "%s: non-empty 5D input tensor expected but got: %s",
                             a->op, airc_meta_shape_str(c->x.shape, nd, s1));
    }
    int64_t padded[3], kern[3], in[3];
    bool big = false, small = false;
    for (int32_t i = 0; i < k; i++) {
        in[i] = c->x.shape[2 + i];
        AIRC_TRY(
            direct_size(a, in[i], c->ks[i], c->st[i], c->pd[i], 1, &padded[i], &kern[i], &os[i]));
        big = big || padded[i] < kern[i];
        small = small || os[i] < 1;
    }
    if (big)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: Calculated padded input size per channel: (%s). Kernel size: (%s). "
                         "Kernel size can't be greater than actual input size",
                         a->op, by(s3, sizeof s3, padded, k), by(s4, sizeof s4, kern, k));
    if (small)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: Given input size per channel: (%s). Calculated output size per "
                         "channel: (%s). Output size is too small",
                         a->op, by(s3, sizeof s3, in, k), by(s4, sizeof s4, os, k));
    /* the input planes: a 2-d weight's dim 1 over the kernel's taps */
    int64_t planes = c->w.shape[1];
    if (c->w.ndim == 2)
        planes /= c->ks[k - 2] * c->ks[k - 1];
    if (k == 2) {
        if (c->x.shape[1] != 0)
            AIRC_TRY(dim_size(a, &c->x, 4, 1, planes));
    } else {
        /* slow_conv3d: groups from the channels (input over the weight's) */
        int64_t groups = planes ? c->x.shape[1] / planes : 0;
        if (groups <= 0)
            return airc_fail(AIRC_E_SHAPE, "%s: none zero group size expected", a->op);
        AIRC_TRY(dim_size(a, &c->x, 5, 1, planes * groups));
    }
    return AIRC_OK;
}

/* slow_conv_dilated2d / 3d: torch's slow_conv_dilated_shape_check */
static airc_status check_dilated(const airc_meta_args *a, conv_args *c, int64_t *os)
{
    int32_t k = c->k;
    char s1[AIRC_META_SHAPE_STR], s2[AIRC_META_SHAPE_STR];
    static const char *const what[] = {"kernel sizes", "strides", "dilations", "pads"};
    int32_t lens[4] = {c->nks, c->nst, c->ndl, c->npd};
    for (int i = 0; i < 4; i++)
        if (lens[i] != k)
            return airc_fail(AIRC_E_SHAPE, "%s: %s length should be %d, but got %d", a->op, what[i],
                             (int)k, (int)lens[i]);
    const int64_t *pos[3] = {c->ks, c->st, c->dl};
    static const char *const names[] = {"kernel size", "stride", "dilation"};
    for (int i = 0; i < 3; i++)
        if (!all_positive(pos[i], k))
            return airc_fail(AIRC_E_SHAPE, "%s: %s should be greater than zero, but got %s", a->op,
                             names[i], airc_meta_shape_str(pos[i], k, s1));
    bool batch = c->x.ndim == k + 2;
    if (!batch && c->x.ndim != k + 1)
        return airc_fail(AIRC_E_SHAPE, "%s: input must be 4D or 5D tensor but got %dD tensor",
                         a->op, (int)c->x.ndim);
    int32_t first = batch ? 2 : 1;
    bool small = false;
    for (int32_t i = 0; i < k; i++) {
        int64_t padded = 0, kern = 0;
        AIRC_TRY(direct_size(a, c->x.shape[first + i], c->ks[i], c->st[i], c->pd[i], c->dl[i],
                             &padded, &kern, &os[i]));
        small = small || os[i] < 0; /* an empty result is fine */
    }
    if (small) {
        char s3[96];
        size_t len = 0;
        for (int32_t i = 0; i < k; i++) {
            int r = snprintf(s3 + len, sizeof s3 - len, "%s%" PRId64, i ? " " : "", os[i]);
            len += r > 0 && (size_t)r < sizeof s3 - len ? (size_t)r : 0;
        }
        return airc_fail(AIRC_E_SHAPE,
                         "%s: calculated output size %s is too small (all sizes must be "
                         "non-negative)",
                         a->op, s3);
    }
    if (c->w.ndim != k + 2)
        return airc_fail(AIRC_E_SHAPE, "%s: weight must be %dD tensor but got %dD tensor dim=%d",
                         a->op, (int)k + 2, (int)c->w.ndim, (int)k);
    if (memcmp(c->w.shape + 2, c->ks, (size_t)k * sizeof *c->ks))
        return airc_fail(AIRC_E_SHAPE, "%s: weight[2:] shape %s must be equal to kernel_size %s",
                         a->op, airc_meta_shape_str(c->w.shape + 2, k, s1),
                         airc_meta_shape_str(c->ks, k, s2));
    if (c->x.shape[batch ? 1 : 0] != c->w.shape[1])
        return airc_fail(AIRC_E_SHAPE,
                         "%s: Need input of dimension %d and input.size[%d] == %" PRId64
                         " but got input to be of shape %s",
                         a->op, (int)c->x.ndim, batch ? 1 : 0, c->w.shape[1],
                         airc_meta_shape_str(c->x.shape, c->x.ndim, s1));
    if (c->has_bias && c->b.ndim != 1)
        return airc_fail(AIRC_E_SHAPE, "%s: bias must be 1-D tensor but got %dD tensor", a->op,
                         (int)c->b.ndim);
    if (c->has_bias && c->b.shape[0] != c->w.shape[0])
        return airc_fail(AIRC_E_SHAPE,
                         "%s: Need bias of dimension 1 and bias.size[0] == %" PRId64
                         " but got input to be of shape %s",
                         a->op, c->w.shape[0], airc_meta_shape_str(c->b.shape, 1, s1));
    return AIRC_OK;
}

/* slow_conv_transpose2d / 3d: torch's slow_conv_transpose*_shape_check */
static airc_status check_transposed(const airc_meta_args *a, conv_args *c, int64_t *os)
{
    int32_t k = c->k;
    char s1[AIRC_META_SHAPE_STR], s3[96], s4[96];
    const int64_t *pos[3] = {c->ks, c->st, c->dl};
    static const char *const names[] = {"kernel size", "stride", "dilation"};
    for (int i = 0; i < 3; i++)
        if (!all_positive(pos[i], k))
            return airc_fail(AIRC_E_SHAPE, "%s: %s should be greater than zero, but got %s", a->op,
                             names[i], by(s3, sizeof s3, pos[i], k));
    for (int32_t i = 0; i < k; i++)
        if (c->op[i] >= c->st[i] && c->op[i] >= c->dl[i])
            return airc_fail(AIRC_E_SHAPE,
                             "%s: output padding must be smaller than either stride or dilation, "
                             "but got output_padding: %s stride: %s dilation: %s",
                             a->op, by(s3, sizeof s3, c->op, k), by(s4, sizeof s4, c->st, k),
                             airc_meta_shape_str(c->dl, k, s1));
    if (airc_tmeta_numel(&c->w) == 0 || (c->w.ndim != 2 && c->w.ndim != k + 2))
        return airc_fail(AIRC_E_SHAPE,
                         "%s: non-empty 2D or %dD weight tensor expected, but got: %s", a->op,
                         (int)k + 2, airc_meta_shape_str(c->w.shape, c->w.ndim, s1));
    if (c->has_bias && (c->b.ndim != 1 || c->b.shape[0] != c->w.shape[1]))
        return dim_size(a, &c->b, 1, 0, c->w.shape[1]);
    int32_t nd = c->x.ndim;
    if (airc_tmeta_numel(&c->x) == 0 || (nd != k + 1 && nd != k + 2))
        return airc_fail(AIRC_E_SHAPE,
                         "%s: non-empty %dD or %dD input tensor expected but got a tensor with "
                         "size %s",
                         a->op, (int)k + 1, (int)k + 2, airc_meta_shape_str(c->x.shape, nd, s1));
    int32_t first = nd - k;
    int64_t in[3];
    bool small = false;
    for (int32_t i = 0; i < k; i++) {
        in[i] = c->x.shape[first + i];
        int64_t o, t;
        if (__builtin_mul_overflow(in[i] - 1, c->st[i], &o) ||
            __builtin_mul_overflow(c->pd[i], 2, &t) || __builtin_sub_overflow(o, t, &o) ||
            __builtin_mul_overflow(c->dl[i], c->ks[i] - 1, &t) ||
            __builtin_add_overflow(o, t + 1, &o) || __builtin_add_overflow(o, c->op[i], &o))
            return airc_meta_overflow(a);
        os[i] = o;
        small = small || o < 1;
    }
    if (small)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: Given input size per channel: (%s). Calculated output size per "
                         "channel: (%s). Output size is too small",
                         a->op, by(s3, sizeof s3, in, k), by(s4, sizeof s4, os, k));
    return dim_size(a, &c->x, nd, first - 1, c->w.shape[0]);
}

airc_status airc_meta_slow_conv(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    conv_args c;
    memset(&c, 0, sizeof c);
    if (!airc_conv_layout_of(a.op, &c.l))
        return airc_fail(AIRC_E_INTERNAL, "%s: not a convolution entry point", a.op);
    c.k = c.l.spatial;
    AIRC_TRY(airc_meta_tensor(&a, "self", &c.x));
    AIRC_TRY(airc_meta_tensor(&a, "weight", &c.w));
    AIRC_TRY(airc_meta_opt_tensor(&a, "bias", &c.b, &c.has_bias));
    int32_t nop;
    AIRC_TRY(param(&a, 2, c.k, 1, c.ks, &c.nks));
    AIRC_TRY(param(&a, c.l.stride, c.k, 1, c.st, &c.nst));
    AIRC_TRY(param(&a, c.l.padding, c.k, 0, c.pd, &c.npd));
    AIRC_TRY(param(&a, c.l.dilation, c.k, 1, c.dl, &c.ndl));
    AIRC_TRY(param(&a, c.l.output_padding, c.k, 0, c.op, &nop));
    int64_t os[3];
    char s1[AIRC_META_SHAPE_STR];
    bool transposed = c.l.transposed == -2, dilated = c.l.dilation >= 0 && !transposed;
    if (transposed)
        AIRC_TRY(check_transposed(&a, &c, os));
    else if (dilated)
        AIRC_TRY(check_dilated(&a, &c, os));
    else
        AIRC_TRY(check_slow(&a, &c, os));
    /* the kernels' dtypes: f32, f64, i64; bf16 but transposed; i32 for
     * the im2col ones; torch names its kernel */
    airc_dtype dt = c.x.dtype;
    bool ok = dt == AIRC_DTYPE_F32 || dt == AIRC_DTYPE_F64 || dt == AIRC_DTYPE_I64 ||
              (dt == AIRC_DTYPE_BF16 && !transposed) ||
              (dt == AIRC_DTYPE_I32 && !transposed && !dilated);
    if (!ok) {
        const char *kernel = transposed ? (c.k == 2 ? "slow_conv_transpose2d_out_cpu"
                                                    : "slow_conv_transpose3d_out_cpu")
                             : dilated  ? "slow_conv_dilated<>"
                             : c.k == 2 ? "slow_conv2d_cpu"
                                        : "compute_columns3d";
        return airc_fail(AIRC_E_SHAPE, "%s: \"%s\" not implemented for '%s'", a.op, kernel,
                         airc_dtype_torch_type_name(dt));
    }
    if (c.w.dtype != dt)
        return airc_fail(AIRC_E_SHAPE, "%s: expected scalar type %s but found %s", a.op,
                         airc_dtype_torch_type_name(dt), airc_dtype_torch_type_name(c.w.dtype));
    /* what torch leaves unchecked and then reads wrongly: refused */
    bool batch = c.x.ndim == c.k + 2;
    int64_t cin = c.x.shape[batch ? 1 : 0];
    if (c.w.ndim != c.k + 2 || memcmp(c.w.shape + 2, c.ks, (size_t)c.k * sizeof *c.ks))
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "%s: a kernel_size other than the weight's last %d sizes, or a 2-d "
                         "weight: torch 1.13 reads the weight by kernel_size (past its end)",
                         a.op, (int)c.k);
    if (!transposed && (cin == 0 || c.w.shape[0] % (cin / c.w.shape[1])))
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "%s: %s: torch 1.13's kernel computes no convolution there", a.op,
                         cin == 0 ? "an input without channels"
                                  : "groups (input channels over the weight's) that do not divide "
                                    "the output channels");
    for (int32_t i = 0; i < c.k; i++)
        if (c.pd[i] < 0)
            return airc_fail(AIRC_E_UNSUPPORTED, "%s: negative padding is not supported", a.op);
    if (c.has_bias && c.b.dtype != dt && transposed)
        return airc_fail(AIRC_E_SHAPE, "%s: expected scalar type %s but found %s", a.op,
                         airc_dtype_torch_type_name(dt), airc_dtype_torch_type_name(c.b.dtype));
    if (transposed && !batch && c.k == 2 && !airc_meta_is_contiguous(&c.x))
        return airc_fail(AIRC_E_SHAPE,
                         "%s: Dimension out of range (expected to be in range of [-3, 2], but got "
                         "3)",
                         a.op);
    /* slow_conv_dilated3d adds an unbatched input's bias by channel to
     * the depth slices of channel 0 */
    if (dilated && !batch && c.k == 3 && c.has_bias) {
        if (c.w.shape[0] > os[0])
            return airc_fail(AIRC_E_SHAPE,
                             "%s: select(): index %" PRId64 " out of range for tensor of size "
                             "%s at dimension 0",
                             a.op, os[0], airc_meta_shape_str(os, 3, s1));
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "%s: an unbatched input with a bias: torch 1.13 adds the bias to the "
                         "wrong elements",
                         a.op);
    }
    /* the result: [N, out channels, sizes]; dilated keeps an unbatched
     * input's missing batch dim, transposed 3-d too (2-d gives a batch of 1) */
    airc_tmeta out = c.x;
    bool keep_unbatched = !batch && (dilated || (transposed && c.k == 3));
    out.ndim = keep_unbatched ? c.k + 1 : c.k + 2;
    int32_t lead = out.ndim - c.k;
    if (lead == 2)
        out.shape[0] = batch ? c.x.shape[0] : 1;
    out.shape[lead - 1] = transposed ? c.w.shape[1] : c.w.shape[0];
    memcpy(out.shape + lead, os, (size_t)c.k * sizeof *os);
    AIRC_TRY(airc_meta_check_numel(&a, out.shape, out.ndim));
    airc_tmeta_contiguous(&out);
    /* channels-last results: the 2-d im2col and dilated kernels for a
     * channels-last input or weight */
    if (!transposed && c.k == 2 && out.ndim == 4 &&
        (airc_meta_is_channels_last_like(&c.x) || airc_meta_is_channels_last_like(&c.w)))
        airc_meta_channels_last_strides(&out);
    return airc_meta_set(n, &out);
}

/* conv_tbc(self [time, batch, in], weight [kernel, in, out], bias [out],
 * pad): a 1-d convolution over time, [time', batch, out] */
airc_status airc_meta_conv_tbc(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta x, w, b;
    AIRC_TRY(airc_meta_tensor(&a, "self", &x));
    AIRC_TRY(airc_meta_tensor(&a, "weight", &w));
    AIRC_TRY(airc_meta_tensor(&a, "bias", &b));
    int64_t pad;
    AIRC_TRY(airc_meta_int(&a, "pad", 0, &pad));
    if (x.ndim != 3)
        return airc_fail(AIRC_E_SHAPE, "%s: Input must have 3 dims: time, batch, in_channel", a.op);
    if (w.ndim != 3)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: Weight tensor must have 3 dims: kernel_width, in_channels, "
                         "out_channels.",
                         a.op);
    if (b.ndim != 1)
        return airc_fail(AIRC_E_SHAPE, "%s: Bias must be 1-D", a.op);
    if (x.shape[2] != w.shape[1])
        return airc_fail(AIRC_E_SHAPE,
                         "%s: Input dim 2 (input channels) is not == dim 1 in the weight tensor",
                         a.op);
    if (w.shape[2] != b.shape[0])
        return airc_fail(AIRC_E_SHAPE,
                         "%s: Bias size must equal dim 2 in the weight tensor (output channels).",
                         a.op);
    int64_t olen;
    if (__builtin_mul_overflow(pad, 2, &olen) || __builtin_add_overflow(olen, x.shape[0], &olen) ||
        __builtin_sub_overflow(olen, w.shape[0] - 1, &olen))
        return airc_meta_overflow(&a);
    if (olen < 0)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: Trying to create tensor with negative dimension %" PRId64
                         ": [%" PRId64 ", %" PRId64 ", %" PRId64 "]",
                         a.op, olen, olen, x.shape[1], w.shape[2]);
    /* each kernel tap k that meets the input runs addmm_(input rows, weight[k]) */
    int64_t rows = 0; /* the most rows a tap meets: they rise up to k = pad, then fall */
    int64_t k0 = pad < 0 ? 0 : pad > w.shape[0] - 1 ? w.shape[0] - 1 : pad;
    for (int64_t k = k0; k >= 0 && k < w.shape[0] && k <= k0 + 1; k++) {
        int64_t t = x.shape[0] + pad - k < olen ? x.shape[0] + pad - k : olen;
        t -= pad - k > 0 ? pad - k : 0;
        rows = t > rows ? t : rows;
    }
    bool runs = rows > 0;
    if (runs && x.dtype != AIRC_DTYPE_F32 && x.dtype != AIRC_DTYPE_F64 &&
        x.dtype != AIRC_DTYPE_BF16 && x.dtype != AIRC_DTYPE_I64 && x.dtype != AIRC_DTYPE_I32 &&
        x.dtype != AIRC_DTYPE_I16 && x.dtype != AIRC_DTYPE_I8 && x.dtype != AIRC_DTYPE_U8)
        return airc_fail(AIRC_E_SHAPE, "%s: \"addmm_impl_cpu_\" not implemented for '%s'", a.op,
                         airc_dtype_torch_type_name(x.dtype));
    if (runs && x.dtype != w.dtype)
        return airc_fail(AIRC_E_SHAPE, "%s: self and mat2 must have the same dtype", a.op);
    /* torch views a tap's rows of self as [rows * batch, in] */
    if (rows > 1 && x.shape[1] > 1 && x.shape[2] > 0 && x.strides[0] != x.shape[1] * x.strides[1])
        return airc_fail(AIRC_E_SHAPE,
                         "%s: view size is not compatible with input tensor's size and stride (at "
                         "least one dimension spans across two contiguous subspaces). Use "
                         ".reshape(...) instead.",
                         a.op);
    airc_tmeta out = x;
    out.shape[0] = olen;
    out.shape[2] = w.shape[2];
    AIRC_TRY(airc_meta_check_numel(&a, out.shape, 3));
    airc_tmeta_contiguous(&out);
    return airc_meta_set(n, &out);
}
