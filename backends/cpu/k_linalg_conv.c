/* Linalg family: convolution.default, 1-d, 2-d and 3-d, each run as a
 * 3-d one (a 2-d convolution has a unit depth, a 1-d one a unit depth and
 * height). A convolution is, per image, group and input depth slice, the
 * slice's 2-d im2col matrix (built a cache-sized block of output rows at
 * a time) times each depth tap's weights, added into the output depth
 * that tap serves; a 1x1x1 kernel with unit stride and no padding skips
 * im2col: the input volume is the GEMM operand itself. A transposed convolution is its
 * adjoint: one GEMM by the transposed weight per image and group, then
 * col2im adds each tap's column into the result, which starts as the bias
 * (or 0). f32 and f64; a transposed convolution also in i64, as torch's
 * CPU kernel does (wrapping, like every int64 product). */
#include "backends/cpu/k_conv_dnnl.h"
#include "backends/cpu/k_linalg_impl.h"
#include "ops/meta_util.h"

#include <string.h>

/* The bytes of im2col's matrix built at a time: about a core's L2 */
enum { COL_BLOCK = 1 << 20 };

typedef struct conv_geom {
    int64_t C, D, H, W;     /* input channels of one group, input volume */
    int64_t KD, KH, KW;     /* kernel */
    int64_t OD, OH, OW;     /* output volume */
    int64_t sd, sh, sw;     /* stride */
    int64_t pd, ph, pw;     /* padding */
    int64_t dd, dh, dw;     /* dilation */
    int64_t xc, xd, xh, xw; /* input strides (elements) of channel, depth, row, column */
} conv_geom;
/* A transposed convolution uses the geometry of the convolution it is the
 * adjoint of: "input" (C, D, H, W and their strides) is its result,
 * "output" (OD, OH, OW) its input volume. A 2-d convolution has a unit
 * depth; a 1-d one a unit depth and height. */

/* The element offset in x of channel c's input row for output row (od,
 * oh) at taps (kd, kh); -1 where that row lies in the padding. */
static inline int64_t conv_row(const conv_geom *g, int64_t c, int64_t kd, int64_t kh, int64_t od,
                               int64_t oh)
{
    int64_t id = od * g->sd - g->pd + kd * g->dd, ih = oh * g->sh - g->ph + kh * g->dh;
    if (id < 0 || id >= g->D || ih < 0 || ih >= g->H)
        return -1;
    return c * g->xc + id * g->xd + ih * g->xh;
}

/* Output rows [r0, r1) (row r = od*OH + oh) of the im2col matrix, n =
 * (r1 - r0)*OW columns: col[((c*KD + kd)*KH + kh)*KW + kw][(r - r0)*OW + ow]
 * = x[c][od*sd - pd + kd*dd][oh*sh - ph + kh*dh][ow*sw - pw + kw*dw] (0
 * outside the input). Where unit column steps put the input rows of one
 * depth's output rows OW apart (sh*xh == OW: a "same" convolution of
 * stride 1), the rows inside the input are one run, copied at once, and
 * the cells the padding owns are zeroed after; other rows go one by one. */
#define DEFINE_IM2COL(name, T)                                                                     \
    static void name(const T *x, const conv_geom *g, int64_t r0, int64_t r1, T *col)               \
    {                                                                                              \
        int64_t OW = g->OW, OH = g->OH, n = (r1 - r0) * OW, row = 0;                               \
        bool runs = g->sw == 1 && g->xw == 1 && g->sh * g->xh == OW;                               \
        for (int64_t c = 0; c < g->C; c++)                                                         \
            for (int64_t kd = 0; kd < g->KD; kd++)                                                 \
                for (int64_t kh = 0; kh < g->KH; kh++)                                             \
                    for (int64_t kw = 0; kw < g->KW; kw++, row++) {                                \
                        int64_t woff = kw * g->dw - g->pw, lo, hi, vlo, vhi;                       \
                        airc_cpu_valid_cols(g->W, OW, g->sw, woff, &lo, &hi);                      \
                        airc_cpu_valid_cols(g->H, OH, g->sh, kh * g->dh - g->ph, &vlo, &vhi);      \
                        T *d = col + row * n;                                                      \
                        for (int64_t r = r0; r < r1;) {                                            \
                            int64_t od = r / OH, base = od * OH, e = base + OH;                    \
                            e = e < r1 ? e : r1; /* this depth's rows: [r, e) */                   \
                            int64_t a = base + vlo > r ? base + vlo : r;                           \
                            int64_t b = base + vhi < e ? base + vhi : e;                           \
                            int64_t off = a < b ? conv_row(g, c, kd, kh, od, a - base) : -1;       \
                            if (!runs || lo >= hi || off < 0)                                      \
                                a = b = r; /* no run */                                            \
                            T *da = d + (a - r0) * OW;                                             \
                            if (a < b)                                                             \
                                memcpy(da + lo, x + off + woff + lo,                               \
                                       (size_t)((b - a - 1) * OW + hi - lo) * sizeof(T));          \
                            for (int64_t q = a; q < b; q++, da += OW) {                            \
                                memset(da, 0, (size_t)lo * sizeof(T));                             \
                                memset(da + hi, 0, (size_t)(OW - hi) * sizeof(T));                 \
                            }                                                                      \
                            for (; r < e; r++) {                                                   \
                                if (r >= a && r < b)                                               \
                                    continue;                                                      \
                                T *dr = d + (r - r0) * OW;                                         \
                                int64_t roff = conv_row(g, c, kd, kh, od, r - base);               \
                                if (roff < 0) {                                                    \
                                    memset(dr, 0, (size_t)OW * sizeof(T));                         \
                                    continue;                                                      \
                                }                                                                  \
                                const T *s = x + roff;                                             \
                                memset(dr, 0, (size_t)lo * sizeof(T));                             \
                                if (g->sw == 1 && g->xw == 1) {                                    \
                                    memcpy(dr + lo, s + lo + woff, (size_t)(hi - lo) * sizeof(T)); \
                                } else {                                                           \
                                    int64_t step = g->sw * g->xw;                                  \
                                    const T *sp = s + (lo * g->sw + woff) * g->xw;                 \
                                    for (int64_t ow = lo; ow < hi; ow++, sp += step)               \
                                        dr[ow] = *sp;                                              \
                                }                                                                  \
                                memset(dr + hi, 0, (size_t)(OW - hi) * sizeof(T));                 \
                            }                                                                      \
                        }                                                                          \
                    }                                                                              \
    }

DEFINE_IM2COL(im2col_f32, float)
DEFINE_IM2COL(im2col_f64, double)

/* The adjoint of im2col: each col cell is added into the x cell im2col
 * read it from, where that lies inside x. */
#define DEFINE_COL2IM(name, T, ADD)                                                                \
    static void name(const T *col, const conv_geom *g, T *x)                                       \
    {                                                                                              \
        int64_t vol = g->OD * g->OH * g->OW, row = 0;                                              \
        for (int64_t c = 0; c < g->C; c++)                                                         \
            for (int64_t kd = 0; kd < g->KD; kd++)                                                 \
                for (int64_t kh = 0; kh < g->KH; kh++)                                             \
                    for (int64_t kw = 0; kw < g->KW; kw++, row++) {                                \
                        int64_t woff = kw * g->dw - g->pw, lo, hi;                                 \
                        airc_cpu_valid_cols(g->W, g->OW, g->sw, woff, &lo, &hi);                   \
                        const T *s = col + row * vol;                                              \
                        for (int64_t od = 0; od < g->OD; od++)                                     \
                            for (int64_t oh = 0; oh < g->OH; oh++, s += g->OW) {                   \
                                int64_t off = conv_row(g, c, kd, kh, od, oh);                      \
                                if (off < 0)                                                       \
                                    continue;                                                      \
                                T *r = x + off;                                                    \
                                for (int64_t ow = lo; ow < hi; ow++)                               \
                                    ADD(r[(ow * g->sw + woff) * g->xw], s[ow]);                    \
                            }                                                                      \
                    }                                                                              \
    }

#define ADD_FLOAT(a, b) ((a) += (b))
#define ADD_WRAP(a, b) ((a) = (int64_t)((uint64_t)(a) + (uint64_t)(b)))
DEFINE_COL2IM(col2im_f32, float, ADD_FLOAT)
DEFINE_COL2IM(col2im_f64, double, ADD_FLOAT)
DEFINE_COL2IM(col2im_i64, int64_t, ADD_WRAP)

/* The stride of the spatial dims 2..4 of a 5-d t merged into one; false
 * when they do not merge. */
static bool plane_stride(const airc_tview *t, int64_t *s)
{
    int64_t step = 0, span = 1; /* the inner dims' stride and size */
    for (int32_t d = 4; d >= 2; d--) {
        if (t->shape[d] == 1)
            continue;
        if (step && t->strides[d] != step * span)
            return false;
        if (!step)
            step = t->strides[d];
        span *= t->shape[d];
    }
    *s = step ? step : 1;
    return true;
}

/* t [N, C, ...] with a unit dim inserted at 2 (its stride that of the
 * dims it stands before): 1-d and 2-d convolutions run as 3-d ones. */
static airc_tview unit_dim(const airc_tview *t)
{
    airc_tview r = *t;
    r.ndim = t->ndim + 1;
    for (int32_t d = t->ndim; d > 2; d--) {
        r.shape[d] = t->shape[d - 1];
        r.strides[d] = t->strides[d - 1];
    }
    r.shape[2] = 1;
    r.strides[2] = t->shape[2] * t->strides[2];
    return r;
}

/* A conv parameter list of 3 (one value repeats) for a convolution of sp
 * spatial dims; the leading unit dims take `unit`. */
static airc_status conv_param(airc_kernel_ctx *k, size_t i, int32_t sp, int64_t unit,
                              int64_t out[3])
{
    int64_t v[AIRC_MAX_DIMS];
    int32_t n;
    AIRC_TRY(airc_cpu_arg_ints(k, i, v, AIRC_MAX_DIMS, &n));
    if (n != 1 && n != sp)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "argument %zu must have 1 or %d values", i,
                             (int)sp);
    for (int32_t d = 0; d < 3; d++)
        out[d] = d < 3 - sp ? unit : v[n == 1 ? 0 : d - (3 - sp)];
    return AIRC_OK;
}

/* Every image's channel c of o := bias[c] (exact for i64). */
static void fill_bias(const airc_tview *o, const airc_tview *bias)
{
    size_t esz = airc_dtype_size(bias->dtype);
    for (int64_t c = 0; c < o->shape[1]; c++) {
        const char *b = (const char *)bias->data + (size_t)(c * bias->strides[0]) * esz;
        airc_cpu_scalar v = {airc_cpu_dtype_is_float(bias->dtype),
                             airc_cpu_load_i64(b, bias->dtype), airc_cpu_load_f64(b, bias->dtype)};
        airc_tview p = *o;
        airc_cpu_select(&p, 1, c);
        airc_cpu_fill(&p, &v);
    }
}

static airc_status conv_run(airc_kernel_ctx *k, const airc_tview *x, const airc_tview *w,
                            const airc_tview *bias, const airc_tview *o, conv_geom g,
                            int64_t groups, void **col_mem)
{
    airc_dtype dt = o->dtype;
    int64_t esz = (int64_t)airc_dtype_size(dt);
    int64_t N = x->shape[0], cout = o->shape[1], cout_g = cout / groups;
    int64_t krows = g.C * g.KD * g.KH * g.KW, plane = g.OD * g.OH * g.OW;
    int64_t os;
    if (!plane_stride(o, &os))
        return airc_cpu_fail(k, AIRC_E_INTERNAL, "result plane does not merge");
    bool direct = g.KD == 1 && g.KH == 1 && g.KW == 1 && g.sd == 1 && g.sh == 1 && g.sw == 1 &&
                  g.pd == 0 && g.ph == 0 && g.pw == 0;
    int64_t xs = 0;
    if (direct && plane_stride(x, &xs)) {
        if (bias)
            fill_bias(o, bias);
        for (int64_t n = 0; n < N; n++)
            for (int64_t gi = 0; gi < groups; gi++) {
                airc_cpu_mat a = {(char *)w->data + gi * cout_g * w->strides[0] * esz, cout_g,
                                  krows, w->strides[0], 1},
                             b = {(char *)x->data +
                                      (n * x->strides[0] + gi * g.C * x->strides[1]) * esz,
                                  g.C, plane, x->strides[1], xs},
                             c = {(char *)o->data +
                                      (n * o->strides[0] + gi * cout_g * o->strides[1]) * esz,
                                  cout_g, plane, o->strides[1], os};
                AIRC_TRY(airc_cpu_gemm(k, dt, 1.0, a, b, bias ? 1.0 : 0.0, c));
            }
        return AIRC_OK;
    }
    /* Each input depth slice's 2-d im2col matrix (rows: channel and (kh,
     * kw) tap; columns: output pixels of one depth) serves every depth tap
     * that reads that slice: one GEMM per tap adds its product into the
     * output depth it belongs to. A 3-d convolution's full matrix would
     * be KD times larger. The matrix is built a block of output rows at a
     * time, about COL_BLOCK bytes, so it is still in cache when the GEMM
     * packs it. g2 is one slice's geometry. */
    conv_geom g2 = g;
    g2.KD = g2.D = g2.OD = g2.sd = g2.dd = 1;
    g2.pd = 0;
    int64_t K2 = g.C * g.KH * g.KW, row_bytes; /* K2: at most the weight's size */
    if (__builtin_mul_overflow(K2 * esz, g.OW, &row_bytes))
        return airc_cpu_fail(k, AIRC_E_UNSUPPORTED, "an im2col row of %lld x %lld elements",
                             (long long)K2, (long long)g.OW);
    int64_t block = row_bytes > 0 ? COL_BLOCK / row_bytes : g.OH;
    block = block < 1 ? 1 : block > g.OH ? g.OH : block;
    int64_t col_cells = K2 * block * g.OW, wk_cells = g.KD > 1 ? cout * krows : 0;
    *col_mem = airc_malloc(k->ctx, (size_t)(col_cells + wk_cells + 1) * (size_t)esz);
    if (!*col_mem)
        return airc_cpu_oom(k, "the im2col buffer");
    char *col = *col_mem, *wk = (char *)w->data;
    if (g.KD > 1) {
        wk = col + col_cells * esz;
        int64_t taps2 = g.KH * g.KW;
        for (int64_t co = 0; co < cout; co++)
            for (int64_t c = 0; c < g.C; c++)
                for (int64_t kd = 0; kd < g.KD; kd++) {
                    int64_t gi = co / cout_g, to = ((gi * g.KD + kd) * cout_g + co % cout_g) * K2;
                    memcpy(wk + (to + c * taps2) * esz,
                           (const char *)w->data + ((co * g.C + c) * g.KD + kd) * taps2 * esz,
                           (size_t)(taps2 * esz));
                }
    }
    if (bias) {
        fill_bias(o, bias);
    } else {
        airc_cpu_scalar zero = {false, 0, 0};
        airc_cpu_fill(o, &zero);
    }
    int64_t oplane = g.OH * g.OW;
    for (int64_t n = 0; n < N; n++)
        for (int64_t gi = 0; gi < groups; gi++)
            for (int64_t id = 0; id < g.D; id++) {
                const char *xp = (const char *)x->data +
                                 (n * x->strides[0] + gi * g.C * x->strides[1] + id * g.xd) * esz;
                char *op =
                    (char *)o->data + (n * o->strides[0] + gi * cout_g * o->strides[1]) * esz;
                for (int64_t r0 = 0; r0 < g.OH; r0 += block) {
                    int64_t r1 = r0 + block < g.OH ? r0 + block : g.OH, cols = (r1 - r0) * g.OW;
                    bool built = false;
                    for (int64_t kd = 0; kd < g.KD; kd++) {
                        int64_t t = id + g.pd - kd * g.dd, od = t / g.sd;
                        if (t < 0 || t % g.sd || od >= g.OD)
                            continue; /* no output depth reads slice id at tap kd */
                        if (!built && dt == AIRC_DTYPE_F32)
                            im2col_f32((const float *)xp, &g2, r0, r1, (float *)col);
                        else if (!built)
                            im2col_f64((const double *)xp, &g2, r0, r1, (double *)col);
                        built = true;
                        airc_cpu_mat a = {wk + (gi * g.KD + kd) * cout_g * K2 * esz, cout_g, K2, K2,
                                          1},
                                     b = {col, K2, cols, cols, 1},
                                     c = {op + (od * oplane + r0 * g.OW) * os * esz, cout_g, cols,
                                          o->strides[1], os};
                        AIRC_TRY(airc_cpu_gemm(k, dt, 1.0, a, b, 1.0, c));
                    }
                }
            }
    return AIRC_OK;
}

/* The transposed convolution of x by w (contiguous) into o: per image and
 * group, col = W_g^T @ X_g (rows: result channel and tap; columns: input
 * pixels), then col2im into the result, which fill_bias or zeros started.
 * g has the adjoint geometry (conv_geom) and o's strides. */
static airc_status transposed_run(airc_kernel_ctx *k, const airc_tview *x, const airc_tview *w,
                                  const airc_tview *bias, const airc_tview *o, conv_geom g,
                                  int64_t groups, void **col_mem)
{
    airc_dtype dt = o->dtype;
    size_t esz = airc_dtype_size(dt);
    int64_t cin_g = x->shape[1] / groups, taps = g.C * g.KD * g.KH * g.KW;
    int64_t plane = g.OD * g.OH * g.OW;
    int64_t xs;
    if (!plane_stride(x, &xs))
        return airc_cpu_fail(k, AIRC_E_INTERNAL, "input plane does not merge");
    int64_t cells = taps * plane > 0 ? taps * plane : 1;
    *col_mem = airc_malloc(k->ctx, (size_t)cells * esz);
    if (!*col_mem)
        return airc_cpu_oom(k, "the col2im buffer");
    if (bias) {
        fill_bias(o, bias);
    } else {
        airc_cpu_scalar zero = {false, 0, 0};
        airc_cpu_fill(o, &zero);
    }
    for (int64_t n = 0; n < x->shape[0]; n++) {
        for (int64_t gi = 0; gi < groups; gi++) {
            char *xp =
                (char *)x->data + (size_t)(n * x->strides[0] + gi * cin_g * x->strides[1]) * esz;
            airc_cpu_mat a = {(char *)w->data + (size_t)(gi * cin_g * taps) * esz, taps, cin_g, 1,
                              taps};
            airc_cpu_mat b = {xp, cin_g, plane, x->strides[1], xs};
            airc_cpu_mat c = {*col_mem, taps, plane, plane, 1};
            AIRC_TRY(airc_cpu_gemm(k, dt, 1.0, a, b, 0.0, c));
            char *op =
                (char *)o->data + (size_t)(n * o->strides[0] + gi * g.C * o->strides[1]) * esz;
            if (dt == AIRC_DTYPE_F32)
                col2im_f32(*col_mem, &g, (float *)op);
            else if (dt == AIRC_DTYPE_F64)
                col2im_f64(*col_mem, &g, (double *)op);
            else
                col2im_i64(*col_mem, &g, (int64_t *)op);
        }
    }
    return AIRC_OK;
}

/* A conv parameter list of 3 from schema position pos (none: `unit`). */
static airc_status layout_param(airc_kernel_ctx *k, int pos, int32_t sp, int64_t unit,
                                int64_t out[3])
{
    if (pos >= 0)
        return conv_param(k, (size_t)pos, sp, unit, out);
    out[0] = out[1] = out[2] = unit;
    return AIRC_OK;
}

/* t with a unit batch dim in front (an unbatched input or result) */
static airc_tview batch_dim(const airc_tview *t)
{
    airc_tview r = *t;
    r.ndim = t->ndim + 1;
    memmove(r.shape + 1, t->shape, (size_t)t->ndim * sizeof *t->shape);
    memmove(r.strides + 1, t->strides, (size_t)t->ndim * sizeof *t->strides);
    r.shape[0] = 1;
    r.strides[0] = t->ndim ? t->shape[0] * t->strides[0] : 1;
    return r;
}

/* The convolution of x by w (+ bias) into o, [N, C, D, H, W] each (unit
 * dims for fewer spatial ones: sp of them are the op's); o's shape is
 * meta's (output_padding in it). */
static airc_status conv_exec(airc_kernel_ctx *k, int32_t sp, airc_tview x, airc_tview w,
                             const airc_tview *bias, airc_tview o, bool transposed,
                             const int64_t stride[3], const int64_t pad[3], const int64_t dil[3],
                             int64_t groups)
{
    airc_dtype dt = o.dtype;
    if ((dt != AIRC_DTYPE_F32 && dt != AIRC_DTYPE_F64 && (!transposed || dt != AIRC_DTYPE_I64)) ||
        x.dtype != dt || w.dtype != dt || (bias && bias->dtype != dt))
        return airc_cpu_fail(
            k, AIRC_E_UNSUPPORTED, "%s needs input, weight and bias of one dtype: f32 or f64%s",
            transposed ? "transposed convolution" : "convolution", transposed ? " or i64" : "");
    /* weight: [out, in / groups, kd, kh, kw], transposed [in, out / groups, kd, kh, kw] */
    int64_t wg = 0; /* the weight's dim 1 times groups */
    bool bad = groups <= 0 || __builtin_mul_overflow(w.shape[1], groups, &wg);
    int64_t wout = transposed ? wg : w.shape[0], win = transposed ? w.shape[0] : wg;
    if (bad || o.shape[1] % groups || x.shape[1] % groups || x.shape[1] != win ||
        wout != o.shape[1] || o.shape[0] != x.shape[0] ||
        (bias && (bias->ndim != 1 || bias->shape[0] != o.shape[1])))
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "input, weight, bias and result do not match");
    /* transposed: the adjoint geometry, "input" is the result */
    const airc_tview *img = transposed ? &o : &x, *cols = transposed ? &x : &o;
    conv_geom g = {
        w.shape[1], img->shape[2],   img->shape[3],   img->shape[4],   w.shape[2],     w.shape[3],
        w.shape[4], cols->shape[2],  cols->shape[3],  cols->shape[4],  stride[0],      stride[1],
        stride[2],  pad[0],          pad[1],          pad[2],          dil[0],         dil[1],
        dil[2],     img->strides[1], img->strides[2], img->strides[3], img->strides[4]};
    if (airc_cpu_numel(&o) == 0)
        return AIRC_OK;
    if (!transposed && dt == AIRC_DTYPE_F32 &&
        airc_cpu_conv_dnnl(k, sp, &x, &w, bias, &o, stride, pad, dil, groups))
        return AIRC_OK;

    /* the weight's rows must be contiguous (cs 1) for the GEMM's A */
    void *wmem = NULL, *omem = NULL, *xmem = NULL, *col = NULL;
    airc_status st = AIRC_OK;
    if (!airc_cpu_is_contiguous(&w))
        st = airc_cpu_contiguous_copy(k, &w, &w, &wmem);
    int64_t ps;
    airc_tview out = o;
    if (st == AIRC_OK && transposed && !plane_stride(&x, &ps))
        st = airc_cpu_contiguous_copy(k, &x, &x, &xmem);
    if (st == AIRC_OK && !transposed && !plane_stride(&o, &ps)) {
        /* a layout meta never gives; kept correct through a temporary */
        out.data = NULL;
        omem = airc_malloc(k->ctx, (size_t)airc_cpu_numel(&o) * airc_dtype_size(dt));
        if (!omem)
            st = airc_cpu_oom(k, "a temporary result");
        out.data = omem;
        airc_cpu_set_contiguous(&out);
    }
    if (st == AIRC_OK)
        st = transposed ? transposed_run(k, &x, &w, bias, &out, g, groups, &col)
                        : conv_run(k, &x, &w, bias, &out, g, groups, &col);
    if (st == AIRC_OK && omem)
        airc_cpu_copy(&o, &out);
    airc_free(k->ctx, col);
    airc_free(k->ctx, omem);
    airc_free(k->ctx, xmem);
    airc_free(k->ctx, wmem);
    return st;
}

/* A contiguous f64 copy of t (into *mem, which the caller frees) */
static airc_status as_f64(airc_kernel_ctx *k, const airc_tview *t, airc_tview *out, void **mem)
{
    *out = *t;
    out->dtype = AIRC_DTYPE_F64;
    airc_cpu_set_contiguous(out);
    *mem = airc_malloc(k->ctx, ((size_t)airc_cpu_numel(t) + 1) * sizeof(double));
    if (!*mem)
        return airc_cpu_oom(k, "an f64 copy");
    out->data = *mem;
    airc_cpu_copy(out, t);
    return AIRC_OK;
}

/* The slow_conv* forwards in the other dtypes torch's kernels take (bf16,
 * i32, i64; a bias of another dtype): computed in f64, rounded once into
 * the result (torch's GEMMs accumulate in float for bf16, in the integer
 * type for integers: the same for values below 2^53). */
static airc_status conv_exec_f64(airc_kernel_ctx *k, int32_t sp, const airc_tview *x,
                                 const airc_tview *w, const airc_tview *bias, const airc_tview *o,
                                 bool transposed, const int64_t stride[3], const int64_t pad[3],
                                 const int64_t dil[3], int64_t groups)
{
    airc_tview v[4];
    void *mem[4] = {NULL, NULL, NULL, NULL};
    const airc_tview *src[4] = {x, w, bias, o};
    airc_status st = AIRC_OK;
    for (int i = 0; i < 4 && st == AIRC_OK; i++)
        if (src[i])
            st = as_f64(k, src[i], &v[i], &mem[i]);
    if (st == AIRC_OK && bias) /* torch copies the bias into the result first */
        for (int64_t i = 0; i < v[2].shape[0]; i++)
            ((double *)v[2].data)[i] = airc_cpu_round_f64(o->dtype, ((double *)v[2].data)[i]);
    if (st == AIRC_OK)
        st = conv_exec(k, sp, v[0], v[1], bias ? &v[2] : NULL, v[3], transposed, stride, pad, dil,
                       groups);
    if (st == AIRC_OK)
        airc_cpu_copy(o, &v[3]);
    for (int i = 0; i < 4; i++)
        airc_free(k->ctx, mem[i]);
    return st;
}

/* convolution(input, weight, bias, stride, padding, dilation, transposed,
 * output_padding, groups), _convolution (the same and flags a CPU ignores)
 * and the slow_conv* forwards (airc_conv_layout_of: their own argument
 * positions, an unbatched input); output_padding is already in the
 * result's shape. */
airc_status airc_cpu_k_convolution(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    airc_conv_layout l;
    if (!k->op || !airc_conv_layout_of(k->op->qualname, &l) || !k->in || !k->in[0] || !k->in[1])
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "input and weight must be tensors");
    bool transposed =
        l.transposed >= 0 ? airc_cpu_arg_bool(k, (size_t)l.transposed, false) : l.transposed == -2;
    airc_tview x = *k->in[0], w = *k->in[1], o = k->out[0];
    const airc_tview *bias = l.bias >= 0 ? k->in[l.bias] : NULL;
    if (x.ndim + 1 == w.ndim)
        x = batch_dim(&x);
    if (o.ndim + 1 == w.ndim)
        o = batch_dim(&o);
    int32_t sp = x.ndim - 2; /* spatial dims */
    if (sp < 1 || sp > 3 || w.ndim != x.ndim || o.ndim != x.ndim)
        return airc_cpu_fail(k, AIRC_E_UNSUPPORTED,
                             "only 1-d, 2-d and 3-d convolutions are supported (input has %d dims, "
                             "weight %d, result %d)",
                             (int)x.ndim, (int)w.ndim, (int)o.ndim);
    int64_t stride[3], pad[3], dil[3];
    AIRC_TRY(layout_param(k, l.stride, sp, 1, stride));
    AIRC_TRY(layout_param(k, l.padding, sp, 0, pad));
    AIRC_TRY(layout_param(k, l.dilation, sp, 1, dil));
    int64_t groups = l.groups >= 0                   ? airc_cpu_arg_int(k, (size_t)l.groups, 1)
                     : transposed || w.shape[1] == 0 ? 1
                                                     : x.shape[1] / w.shape[1];
    while (x.ndim < 5) {
        x = unit_dim(&x);
        w = unit_dim(&w);
        o = unit_dim(&o);
    }
    airc_dtype dt = o.dtype;
    bool native =
        (dt == AIRC_DTYPE_F32 || dt == AIRC_DTYPE_F64 || (transposed && dt == AIRC_DTYPE_I64)) &&
        (!bias || bias->dtype == dt);
    if (native || l.groups >= 0)
        return conv_exec(k, sp, x, w, bias, o, transposed, stride, pad, dil, groups);
    return conv_exec_f64(k, sp, &x, &w, bias, &o, transposed, stride, pad, dil, groups);
}

/* conv_tbc(self [T, B, I], weight [K, I, O], bias [O], pad): out[t, b, o] =
 * bias[o] plus, tap by tap as torch's addmm_ per tap, the sum over i of
 * self[t + k - pad, b, i] * weight[k, i, o]: each tap's sum in double (in
 * int64 for integers), added into the result in its dtype. */
airc_status airc_cpu_k_conv_tbc(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    if (!k->in || !k->in[0] || !k->in[1] || !k->in[2] || k->out[0].ndim != 3)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "self, weight and bias must be tensors");
    const airc_tview *x = k->in[0], *w = k->in[1], *b = k->in[2], *o = &k->out[0];
    int64_t pad = airc_cpu_arg_int(k, 3, 0), K = w->shape[0], I = w->shape[1];
    bool fl = airc_cpu_dtype_is_float(o->dtype);
    size_t xe = airc_dtype_size(x->dtype), we = airc_dtype_size(w->dtype),
           be = airc_dtype_size(b->dtype), oe = airc_dtype_size(o->dtype);
    const char *xp = x->data, *wp = w->data, *bp = b->data;
    char *op = o->data;
    for (int64_t t = 0; t < o->shape[0]; t++)
        for (int64_t n = 0; n < o->shape[1]; n++)
            for (int64_t c = 0; c < o->shape[2]; c++) {
                char *dst = op + (t * o->strides[0] + n * o->strides[1] + c * o->strides[2]) * oe;
                const char *bias = bp + c * b->strides[0] * be;
                double acc = airc_cpu_round_f64(o->dtype, airc_cpu_load_f64(bias, b->dtype));
                int64_t iacc = airc_cpu_round_i64(o->dtype, airc_cpu_load_i64(bias, b->dtype));
                for (int64_t kk = 0; kk < K; kk++) {
                    int64_t src = t + kk - pad;
                    if (src < 0 || src >= x->shape[0])
                        continue;
                    double sum = 0;
                    int64_t isum = 0;
                    for (int64_t i = 0; i < I; i++) {
                        const char *a = xp + (src * x->strides[0] + n * x->strides[1] +
                                              i * x->strides[2]) *
                                                 xe,
                                   *m = wp + (kk * w->strides[0] + i * w->strides[1] +
                                              c * w->strides[2]) *
                                                 we;
                        if (fl)
                            sum += airc_cpu_load_f64(a, x->dtype) * airc_cpu_load_f64(m, w->dtype);
                        else
                            isum = (int64_t)((uint64_t)isum +
                                             (uint64_t)airc_cpu_load_i64(a, x->dtype) *
                                                 (uint64_t)airc_cpu_load_i64(m, w->dtype));
                    }
                    acc = airc_cpu_round_f64(o->dtype, acc + sum);
                    iacc = airc_cpu_round_i64(o->dtype, (int64_t)((uint64_t)iacc + (uint64_t)isum));
                }
                if (fl)
                    airc_cpu_store_f64(dst, o->dtype, acc);
                else
                    airc_cpu_store_i64(dst, o->dtype, iacc);
            }
    return AIRC_OK;
}
