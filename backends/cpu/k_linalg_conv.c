/* Linalg family: convolution.default (2-d, and 1-d as 2-d with a unit
 * height) as im2col + one GEMM per image and group. A 1x1 kernel with unit
 * stride and no padding skips im2col: the input plane is the GEMM operand
 * itself. Transposed convolution is not supported. */
#include "backends/cpu/k_linalg_impl.h"

#include <string.h>

typedef struct conv_geom {
    int64_t C, H, W;     /* input channels of one group, input plane */
    int64_t KH, KW;      /* kernel */
    int64_t OH, OW;      /* output plane */
    int64_t sh, sw;      /* stride */
    int64_t ph, pw;      /* padding */
    int64_t dh, dw;      /* dilation */
    int64_t xc, xh, xw;  /* input strides (elements) of channel, row, column */
} conv_geom;

/* The output columns ow of one kernel tap whose input column lies inside
 * [0, W): [*lo, *hi). */
static void valid_cols(const conv_geom *g, int64_t off, int64_t *lo, int64_t *hi)
{
    int64_t l = off >= 0 ? 0 : (-off + g->sw - 1) / g->sw;
    int64_t h = g->W - off - 1 < 0 ? 0 : (g->W - off - 1) / g->sw + 1;
    if (h > g->OW)
        h = g->OW;
    if (l > h)
        l = h;
    *lo = l;
    *hi = h;
}

/* col[(c*KH + kh)*KW + kw][oh*OW + ow] = x[c][oh*sh - ph + kh*dh][ow*sw - pw + kw*dw]
 * (0 outside the input). */
#define DEFINE_IM2COL(name, T)                                                                     \
    static void name(const T *x, const conv_geom *g, T *col)                                       \
    {                                                                                              \
        int64_t plane = g->OH * g->OW;                                                             \
        for (int64_t c = 0; c < g->C; c++) {                                                       \
            for (int64_t kh = 0; kh < g->KH; kh++) {                                               \
                for (int64_t kw = 0; kw < g->KW; kw++) {                                           \
                    T *dst = col + ((c * g->KH + kh) * g->KW + kw) * plane;                        \
                    int64_t woff = kw * g->dw - g->pw, lo, hi;                                     \
                    valid_cols(g, woff, &lo, &hi);                                                 \
                    for (int64_t oh = 0; oh < g->OH; oh++) {                                       \
                        T *d = dst + oh * g->OW;                                                   \
                        int64_t ih = oh * g->sh - g->ph + kh * g->dh;                              \
                        if (ih < 0 || ih >= g->H) {                                                \
                            memset(d, 0, (size_t)g->OW * sizeof(T));                               \
                            continue;                                                              \
                        }                                                                          \
                        const T *s = x + c * g->xc + ih * g->xh;                                   \
                        memset(d, 0, (size_t)lo * sizeof(T));                                      \
                        if (g->sw == 1 && g->xw == 1) {                                            \
                            memcpy(d + lo, s + lo + woff, (size_t)(hi - lo) * sizeof(T));          \
                        } else {                                                                   \
                            int64_t step = g->sw * g->xw;                                          \
                            const T *sp = s + (lo * g->sw + woff) * g->xw;                         \
                            for (int64_t ow = lo; ow < hi; ow++, sp += step)                       \
                                d[ow] = *sp;                                                       \
                        }                                                                          \
                        memset(d + hi, 0, (size_t)(g->OW - hi) * sizeof(T));                       \
                    }                                                                              \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
    }

DEFINE_IM2COL(im2col_f32, float)
DEFINE_IM2COL(im2col_f64, double)

/* Stride of dims 2 and 3 of a 4-d t merged into one; false when they do
 * not merge. */
static bool plane_stride(const airc_tview *t, int64_t *s)
{
    if (t->shape[3] == 1) {
        *s = t->shape[2] == 1 ? 1 : t->strides[2];
        return true;
    }
    if (t->shape[2] == 1 || t->strides[2] == t->shape[3] * t->strides[3]) {
        *s = t->strides[3];
        return true;
    }
    return false;
}

/* A conv parameter list of 2 (one value repeats); for a 1-d convolution
 * the height's value is `unit`. */
static airc_status conv_param(airc_kernel_ctx *k, size_t i, bool one_d, int64_t unit,
                              int64_t out[2])
{
    int64_t v[AIRC_MAX_DIMS];
    int32_t n;
    AIRC_TRY(airc_cpu_arg_ints(k, i, v, AIRC_MAX_DIMS, &n));
    int32_t want = one_d ? 1 : 2;
    if (n != 1 && n != want)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "argument %zu must have 1 or %d values", i,
                             (int)want);
    if (one_d) {
        out[0] = unit;
        out[1] = v[0];
    } else {
        out[0] = v[0];
        out[1] = v[n - 1];
    }
    return AIRC_OK;
}

/* t with a unit dim inserted at 2 (a 1-d convolution seen as 2-d). */
static airc_tview unit_height(const airc_tview *t)
{
    airc_tview r = *t;
    r.ndim = 4;
    r.shape[3] = t->shape[2];
    r.strides[3] = t->strides[2];
    r.shape[2] = 1;
    r.strides[2] = t->shape[2] * t->strides[2];
    return r;
}

static airc_status conv_run(airc_kernel_ctx *k, const airc_tview *x, const airc_tview *w,
                            const airc_tview *bias, const airc_tview *o, conv_geom g,
                            int64_t groups, void **col_mem)
{
    airc_dtype dt = o->dtype;
    int64_t esz = (int64_t)airc_dtype_size(dt);
    int64_t N = x->shape[0], cout_g = o->shape[1] / groups;
    int64_t krows = g.C * g.KH * g.KW, plane = g.OH * g.OW;
    int64_t os;
    if (!plane_stride(o, &os))
        return airc_cpu_fail(k, AIRC_E_INTERNAL, "result plane does not merge");
    bool direct = g.KH == 1 && g.KW == 1 && g.sh == 1 && g.sw == 1 && g.ph == 0 && g.pw == 0;
    int64_t xs = 0;
    direct = direct && plane_stride(x, &xs);
    if (!direct) {
        int64_t cells = krows * plane > 0 ? krows * plane : 1;
        *col_mem = airc_malloc(k->ctx, (size_t)cells * (size_t)esz);
        if (!*col_mem)
            return airc_cpu_oom(k, "the im2col buffer");
    }
    if (bias) {
        for (int64_t n = 0; n < N; n++) {
            for (int64_t c = 0; c < o->shape[1]; c++) {
                airc_tview p = *o;
                airc_cpu_select(&p, 0, n);
                airc_cpu_select(&p, 0, c);
                airc_cpu_scalar v = {true, 0,
                                     airc_cpu_load_f64((char *)bias->data +
                                                           c * bias->strides[0] * esz,
                                                       bias->dtype)};
                airc_cpu_fill(&p, &v);
            }
        }
    }
    for (int64_t n = 0; n < N; n++) {
        for (int64_t gi = 0; gi < groups; gi++) {
            char *xp = (char *)x->data + (n * x->strides[0] + gi * g.C * x->strides[1]) * esz;
            airc_cpu_mat b;
            if (direct) {
                b = (airc_cpu_mat){xp, g.C, plane, x->strides[1], xs};
            } else {
                if (dt == AIRC_DTYPE_F32)
                    im2col_f32((const float *)xp, &g, *col_mem);
                else
                    im2col_f64((const double *)xp, &g, *col_mem);
                b = (airc_cpu_mat){*col_mem, krows, plane, plane, 1};
            }
            airc_cpu_mat a = {(char *)w->data + gi * cout_g * w->strides[0] * esz, cout_g, krows,
                              w->strides[0], 1};
            airc_cpu_mat c = {(char *)o->data + (n * o->strides[0] + gi * cout_g * o->strides[1]) * esz,
                              cout_g, plane, o->strides[1], os};
            AIRC_TRY(airc_cpu_gemm(k, dt, 1.0, a, b, bias ? 1.0 : 0.0, c));
        }
    }
    return AIRC_OK;
}

/* convolution(input, weight, bias, stride, padding, dilation, transposed,
 * output_padding, groups) */
airc_status airc_cpu_k_convolution(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    if (k->nargs < 9 || !k->in || !k->in[0] || !k->in[1])
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "input and weight must be tensors");
    if (airc_cpu_arg_bool(k, 6, false))
        return airc_cpu_fail(k, AIRC_E_UNSUPPORTED,
                             "transposed convolution is not supported by the CPU kernels");
    airc_tview x = *k->in[0], w = *k->in[1], o = k->out[0];
    const airc_tview *bias = k->in[2];
    bool one_d = x.ndim == 3 && w.ndim == 3 && o.ndim == 3;
    if (one_d) {
        x = unit_height(&x);
        w = unit_height(&w);
        o = unit_height(&o);
    }
    if (x.ndim != 4 || w.ndim != 4 || o.ndim != 4)
        return airc_cpu_fail(k, AIRC_E_UNSUPPORTED,
                             "only 1-d and 2-d convolutions are supported (input has %d dims)",
                             (int)k->in[0]->ndim);
    airc_dtype dt = o.dtype;
    if ((dt != AIRC_DTYPE_F32 && dt != AIRC_DTYPE_F64) || x.dtype != dt || w.dtype != dt ||
        (bias && bias->dtype != dt))
        return airc_cpu_fail(k, AIRC_E_UNSUPPORTED,
                             "convolution needs f32 or f64 input, weight and bias of one dtype");
    int64_t stride[2] = {1, 1}, pad[2] = {0, 0}, dil[2] = {1, 1};
    AIRC_TRY(conv_param(k, 3, one_d, 1, stride));
    AIRC_TRY(conv_param(k, 4, one_d, 0, pad));
    AIRC_TRY(conv_param(k, 5, one_d, 1, dil));
    int64_t groups = airc_cpu_arg_int(k, 8, 1);
    if (groups <= 0 || o.shape[1] % groups || x.shape[1] != w.shape[1] * groups ||
        w.shape[0] != o.shape[1] || o.shape[0] != x.shape[0] ||
        (bias && (bias->ndim != 1 || bias->shape[0] != o.shape[1])))
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "input, weight, bias and result do not match");
    conv_geom g = {w.shape[1], x.shape[2], x.shape[3], w.shape[2], w.shape[3], o.shape[2],
                   o.shape[3], stride[0], stride[1], pad[0], pad[1], dil[0], dil[1],
                   x.strides[1], x.strides[2], x.strides[3]};
    if (airc_cpu_numel(&o) == 0)
        return AIRC_OK;

    /* the weight's rows must be contiguous (cs 1) for the GEMM's A */
    void *wmem = NULL, *omem = NULL, *col = NULL;
    airc_status st = AIRC_OK;
    if (!airc_cpu_is_contiguous(&w))
        st = airc_cpu_contiguous_copy(k, &w, &w, &wmem);
    int64_t os;
    airc_tview out = o;
    if (st == AIRC_OK && !plane_stride(&o, &os)) {
        /* a layout meta never gives; kept correct through a temporary */
        out.data = NULL;
        omem = airc_malloc(k->ctx, (size_t)airc_cpu_numel(&o) * airc_dtype_size(dt));
        if (!omem)
            st = airc_cpu_oom(k, "a temporary result");
        out.data = omem;
        airc_cpu_set_contiguous(&out);
    }
    if (st == AIRC_OK)
        st = conv_run(k, &x, &w, bias, &out, g, groups, &col);
    if (st == AIRC_OK && omem)
        airc_cpu_copy(&o, &out);
    airc_free(k->ctx, col);
    airc_free(k->ctx, omem);
    airc_free(k->ctx, wmem);
    return st;
}
