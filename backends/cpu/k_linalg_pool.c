/* Linalg family: 2-d pooling (max_pool2d_with_indices, avg_pool2d,
 * adaptive_avg_pool2d, adaptive_max_pool2d), following torch's CPU kernels window for window:
 * the same window bounds, divisors, NaN handling and index encoding (a
 * flat index into the input plane). Inputs are [C, H, W] or [N, C, H, W]
 * in any layout; outputs are written through meta's strides. Values are
 * read and accumulated in double. */
#include "backends/cpu/k_linalg_impl.h"

#include <math.h>
#include <string.h>

/* One input plane and one output plane, addressed by strides. */
typedef struct plane {
    const char *x;
    int64_t xh, xw; /* input strides in bytes */
    char *y;
    int64_t yh, yw; /* output strides in bytes */
    char *ind;      /* indices (max pool), or NULL */
    int64_t ih, iw;
} plane;

typedef struct pool_dims {
    int64_t H, W, OH, OW;
    int64_t kh, kw, sh, sw, ph, pw, dh, dw;
    bool ceil_mode, count_include_pad;
    bool has_divisor;
    int64_t divisor;
} pool_dims;

/* Calls fn for every (batch, channel) plane of x and the outputs. */
typedef void (*plane_fn)(const plane *p, const pool_dims *d, airc_dtype xt, airc_dtype yt);

/* Planes are the last two dims; every leading dim (batch and channels of
 * the 3-d and 4-d pools, any number of them for adaptive_avg_pool2d's
 * [1, 1], which is a mean over the last two dims) is walked. */
static airc_status for_planes(airc_kernel_ctx *k, const airc_tview *x, const airc_tview *y,
                              const airc_tview *ind, const pool_dims *d, plane_fn fn)
{
    int32_t nd = x->ndim;
    if (nd < 2 || y->ndim != nd || (ind && ind->ndim != nd))
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "expects an input of at least 2 dims");
    int64_t xe = (int64_t)airc_dtype_size(x->dtype), ye = (int64_t)airc_dtype_size(y->dtype);
    int64_t planes = 1, idx[AIRC_MAX_DIMS] = {0};
    for (int32_t i = 0; i < nd - 2; i++) {
        if (y->shape[i] != x->shape[i] || (ind && ind->shape[i] != x->shape[i]))
            return airc_cpu_fail(k, AIRC_E_RUNTIME, "input and result planes differ");
        planes *= x->shape[i];
    }
    for (int64_t pl = 0; pl < planes; pl++) {
        int64_t xo = 0, yo = 0, io = 0;
        for (int32_t i = 0; i < nd - 2; i++) {
            xo += idx[i] * x->strides[i];
            yo += idx[i] * y->strides[i];
            io += ind ? idx[i] * ind->strides[i] : 0;
        }
        plane p = {(const char *)x->data + xo * xe, x->strides[nd - 2] * xe,
                   x->strides[nd - 1] * xe, (char *)y->data + yo * ye,
                   y->strides[nd - 2] * ye, y->strides[nd - 1] * ye, NULL, 0, 0};
        if (ind) {
            p.ind = (char *)ind->data + io * 8;
            p.ih = ind->strides[nd - 2] * 8;
            p.iw = ind->strides[nd - 1] * 8;
        }
        fn(&p, d, x->dtype, y->dtype);
        for (int32_t i = nd - 3; i >= 0 && ++idx[i] == x->shape[i]; i--)
            idx[i] = 0;
    }
    return AIRC_OK;
}

static inline double at(const plane *p, airc_dtype t, int64_t h, int64_t w)
{
    const char *e = p->x + h * p->xh + w * p->xw;
    if (t == AIRC_DTYPE_F32) { /* the common case, without the generic switch */
        float v;
        memcpy(&v, e, sizeof v);
        return v;
    }
    return airc_cpu_load_f64(e, t);
}

/* The maximum of window rows [h0, h1) step dh, columns [w0, w1) step dw
 * (torch's: a NaN wins, the last one) into output cell (oh, ow), its
 * index into the plane into the indices. */
static void window_max(const plane *p, const pool_dims *d, airc_dtype xt, airc_dtype yt, int64_t oh,
                       int64_t ow, const int64_t win[6])
{
    int64_t h0 = win[0], h1 = win[1], dh = win[2], w0 = win[3], w1 = win[4], dw = win[5];
    int64_t best_i = h0 * d->W + w0;
    double best = -INFINITY;
    for (int64_t h = h0; h < h1; h += dh) {
        for (int64_t w = w0; w < w1; w += dw) {
            double v = at(p, xt, h, w);
            if (v > best || isnan(v)) {
                best = v;
                best_i = h * d->W + w;
            }
        }
    }
    airc_cpu_store_f64(p->y + oh * p->yh + ow * p->yw, yt, best);
    airc_cpu_store_i64(p->ind + oh * p->ih + ow * p->iw, AIRC_DTYPE_I64, best_i);
}

static void max_plane(const plane *p, const pool_dims *d, airc_dtype xt, airc_dtype yt)
{
    for (int64_t oh = 0; oh < d->OH; oh++) {
        for (int64_t ow = 0; ow < d->OW; ow++) {
            int64_t h0 = oh * d->sh - d->ph, w0 = ow * d->sw - d->pw;
            int64_t h1 = h0 + (d->kh - 1) * d->dh + 1, w1 = w0 + (d->kw - 1) * d->dw + 1;
            if (h1 > d->H)
                h1 = d->H;
            if (w1 > d->W)
                w1 = d->W;
            while (h0 < 0)
                h0 += d->dh;
            while (w0 < 0)
                w0 += d->dw;
            const int64_t win[6] = {h0, h1, d->dh, w0, w1, d->dw};
            window_max(p, d, xt, yt, oh, ow, win);
        }
    }
}

static void avg_plane(const plane *p, const pool_dims *d, airc_dtype xt, airc_dtype yt)
{
    for (int64_t oh = 0; oh < d->OH; oh++) {
        for (int64_t ow = 0; ow < d->OW; ow++) {
            int64_t h0 = oh * d->sh - d->ph, w0 = ow * d->sw - d->pw;
            int64_t h1 = h0 + d->kh, w1 = w0 + d->kw;
            if (h1 > d->H + d->ph)
                h1 = d->H + d->ph;
            if (w1 > d->W + d->pw)
                w1 = d->W + d->pw;
            int64_t pool_size = (h1 - h0) * (w1 - w0);
            h0 = h0 < 0 ? 0 : h0;
            w0 = w0 < 0 ? 0 : w0;
            h1 = h1 > d->H ? d->H : h1;
            w1 = w1 > d->W ? d->W : w1;
            char *out = p->y + oh * p->yh + ow * p->yw;
            if (h0 >= h1 || w0 >= w1) {
                airc_cpu_store_f64(out, yt, 0);
                continue;
            }
            double sum = 0;
            for (int64_t h = h0; h < h1; h++)
                for (int64_t w = w0; w < w1; w++)
                    sum += at(p, xt, h, w);
            int64_t div = d->has_divisor       ? d->divisor
                          : d->count_include_pad ? pool_size
                                                 : (h1 - h0) * (w1 - w0);
            airc_cpu_store_f64(out, yt, sum / (double)div);
        }
    }
}

static void adaptive_plane(const plane *p, const pool_dims *d, airc_dtype xt, airc_dtype yt)
{
    for (int64_t oh = 0; oh < d->OH; oh++) {
        /* start = floor(o * I / O), end = ceil((o + 1) * I / O) */
        int64_t h0 = oh * d->H / d->OH, h1 = ((oh + 1) * d->H + d->OH - 1) / d->OH;
        for (int64_t ow = 0; ow < d->OW; ow++) {
            int64_t w0 = ow * d->W / d->OW, w1 = ((ow + 1) * d->W + d->OW - 1) / d->OW;
            double sum = 0;
            for (int64_t h = h0; h < h1; h++)
                for (int64_t w = w0; w < w1; w++)
                    sum += at(p, xt, h, w);
            airc_cpu_store_f64(p->y + oh * p->yh + ow * p->yw, yt,
                               sum / (double)((h1 - h0) * (w1 - w0)));
        }
    }
}

/* torch's adaptive_max_pool2d: windows as adaptive_avg_pool2d's */
static void adaptive_max_plane(const plane *p, const pool_dims *d, airc_dtype xt, airc_dtype yt)
{
    for (int64_t oh = 0; oh < d->OH; oh++) {
        int64_t h0 = oh * d->H / d->OH, h1 = ((oh + 1) * d->H + d->OH - 1) / d->OH;
        for (int64_t ow = 0; ow < d->OW; ow++) {
            int64_t w0 = ow * d->W / d->OW, w1 = ((ow + 1) * d->W + d->OW - 1) / d->OW;
            const int64_t win[6] = {h0, h1, 1, w0, w1, 1};
            window_max(p, d, xt, yt, oh, ow, win);
        }
    }
}

/* kernel_size / stride / padding / dilation: 1 or 2 ints; an empty
 * stride means the kernel size. */
static airc_status pool_param(airc_kernel_ctx *k, size_t i, const int64_t def[2], int64_t out[2])
{
    int64_t v[AIRC_MAX_DIMS];
    int32_t n;
    AIRC_TRY(airc_cpu_arg_ints(k, i, v, AIRC_MAX_DIMS, &n));
    if (n == 0) {
        out[0] = def[0];
        out[1] = def[1];
        return AIRC_OK;
    }
    if (n > 2)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "argument %zu must be 1 or 2 ints", i);
    out[0] = v[0];
    out[1] = v[n - 1];
    return AIRC_OK;
}

static airc_status pool_setup(airc_kernel_ctx *k, bool is_max, pool_dims *d)
{
    const airc_tview *x = k->in[0], *y = &k->out[0];
    int32_t nd = x->ndim;
    if (nd != 3 && nd != 4)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "expects a 3-d or 4-d input");
    int64_t kern[2], st[2], pad[2], dil[2];
    static const int64_t zero[2] = {0, 0}, one[2] = {1, 1};
    AIRC_TRY(pool_param(k, 1, zero, kern));
    AIRC_TRY(pool_param(k, 2, kern, st));
    AIRC_TRY(pool_param(k, 3, zero, pad));
    if (is_max)
        AIRC_TRY(pool_param(k, 4, one, dil));
    else
        dil[0] = dil[1] = 1;
    for (int i = 0; i < 2; i++)
        if (kern[i] <= 0 || st[i] <= 0 || dil[i] <= 0 || pad[i] < 0)
            return airc_cpu_fail(k, AIRC_E_RUNTIME, "invalid pooling parameters");
    *d = (pool_dims){x->shape[nd - 2], x->shape[nd - 1], y->shape[nd - 2], y->shape[nd - 1],
                     kern[0], kern[1], st[0], st[1], pad[0], pad[1], dil[0], dil[1],
                     false, true, false, 0};
    return AIRC_OK;
}

static airc_status need_input(airc_kernel_ctx *k)
{
    if (k->nargs && k->in && k->in[0])
        return AIRC_OK;
    return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "argument 0 must be a tensor");
}

/* max_pool2d_with_indices(self, kernel_size, stride=[], padding=0,
 * dilation=1, ceil_mode=False) -> (values, indices). ceil_mode only shapes
 * the output (meta). */
airc_status airc_cpu_k_max_pool2d_with_indices(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    AIRC_TRY(need_input(k));
    if (k->nout != 2 || k->out[1].dtype != AIRC_DTYPE_I64)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "expects two results (values, int64 indices)");
    pool_dims d;
    AIRC_TRY(pool_setup(k, true, &d));
    return for_planes(k, k->in[0], &k->out[0], &k->out[1], &d, max_plane);
}

/* avg_pool2d(self, kernel_size, stride=[], padding=0, ceil_mode=False,
 * count_include_pad=True, divisor_override=None) */
airc_status airc_cpu_k_avg_pool2d(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    AIRC_TRY(need_input(k));
    pool_dims d;
    AIRC_TRY(pool_setup(k, false, &d));
    d.count_include_pad = airc_cpu_arg_bool(k, 5, true);
    d.has_divisor = airc_cpu_arg_present(k, 6);
    d.divisor = airc_cpu_arg_int(k, 6, 1);
    if (d.has_divisor && d.divisor == 0)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "divisor must be not zero");
    return for_planes(k, k->in[0], &k->out[0], NULL, &d, avg_plane);
}

/* adaptive_avg_pool2d(self, output_size) and _adaptive_avg_pool2d;
 * adaptive_max_pool2d (max) -> (values, indices) */
static airc_status adaptive_pool(airc_kernel_ctx *k, bool max)
{
    AIRC_TRY(need_input(k));
    const airc_tview *x = k->in[0], *y = &k->out[0];
    int32_t nd = x->ndim;
    if (nd < 2 || y->ndim != nd)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "expects an input of at least 2 dims");
    if (max && (k->nout != 2 || k->out[1].dtype != AIRC_DTYPE_I64))
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "expects two results (values, int64 indices)");
    pool_dims d = {x->shape[nd - 2], x->shape[nd - 1], y->shape[nd - 2], y->shape[nd - 1],
                   0, 0, 0, 0, 0, 0, 0, 0, false, true, false, 0};
    if (d.OH == 0 || d.OW == 0 || airc_cpu_numel(y) == 0)
        return AIRC_OK;
    return max ? for_planes(k, x, y, &k->out[1], &d, adaptive_max_plane)
               : for_planes(k, x, y, NULL, &d, adaptive_plane);
}

airc_status airc_cpu_k_adaptive_avg_pool2d(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    return adaptive_pool(k, false);
}

airc_status airc_cpu_k_adaptive_max_pool2d(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    return adaptive_pool(k, true);
}
