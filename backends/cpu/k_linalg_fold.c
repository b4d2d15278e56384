/* Linalg family: im2col (F.unfold) and col2im (F.fold), any floating
 * dtype, inputs in any layout:
 *   im2col: [N, C, H, W] -> [N, C*KH*KW, OH*OW], element
 *     ((c*KH + kh)*KW + kw, oh*OW + ow) = x[c][oh*sh - ph + kh*dh][ow*sw - pw + kw*dw]
 *     (0 outside the input);
 *   col2im: its adjoint, [N, C*KH*KW, L] -> [N, C, H, W], each block's
 *     values added into the result in torch's order (channel and tap,
 *     then block), each sum rounded to the dtype as torch's kernel does.
 * The batch dim is optional (3-d / 2-d inputs). Geometry comes from the
 * meta-checked arguments; the block grid from the result's shape. */
#include "backends/cpu/k_linalg_impl.h"

#include <string.h>

typedef struct fold_geom {
    int64_t C, H, W, KH, KW, OH, OW, sh, sw, ph, pw, dh, dw;
} fold_geom;

/* kernel_size, dilation, padding, stride at args first..first+3 */
static airc_status read_geom(airc_kernel_ctx *k, size_t first, fold_geom *g)
{
    int64_t v[4][2];
    for (size_t i = 0; i < 4; i++) {
        int32_t n;
        AIRC_TRY(airc_cpu_arg_ints(k, first + i, v[i], 2, &n));
        if (n != 2)
            return airc_cpu_fail(k, AIRC_E_RUNTIME, "argument %zu must be 2 ints", first + i);
    }
    g->KH = v[0][0], g->KW = v[0][1], g->dh = v[1][0], g->dw = v[1][1];
    g->ph = v[2][0], g->pw = v[2][1], g->sh = v[3][0], g->sw = v[3][1];
    if (g->KH <= 0 || g->KW <= 0 || g->dh <= 0 || g->dw <= 0 || g->ph < 0 || g->pw < 0 ||
        g->sh <= 0 || g->sw <= 0)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "invalid kernel, dilation, padding or stride");
    g->OH = (g->H + 2 * g->ph - g->dh * (g->KH - 1) - 1) / g->sh + 1;
    g->OW = (g->W + 2 * g->pw - g->dw * (g->KW - 1) - 1) / g->sw + 1;
    return AIRC_OK;
}

/* For every (image, channel and tap, block row) of the column tensor, in
 * torch's col2im order: fn(g, image row or NULL when the row is outside
 * the image, column row, the tap's column offset). */
typedef void (*row_fn)(const fold_geom *g, char *img_row, int64_t img_ws, char *col_row,
                       int64_t col_ws, int64_t off, size_t esz, airc_dtype dt);

static void walk(const fold_geom *g, const airc_tview *img, const airc_tview *col, int32_t lead,
                 row_fn fn)
{
    size_t esz = airc_dtype_size(img->dtype);
    int64_t n = lead ? img->shape[0] : 1, e = (int64_t)esz;
    const int64_t *is = img->strides + lead, *cs = col->strides + lead;
    for (int64_t b = 0; b < n; b++) {
        char *ib = (char *)img->data + (lead ? b * img->strides[0] : 0) * e;
        char *cb = (char *)col->data + (lead ? b * col->strides[0] : 0) * e;
        for (int64_t r = 0; r < g->C * g->KH * g->KW; r++) {
            int64_t c = r / (g->KH * g->KW), kh = r / g->KW % g->KH, kw = r % g->KW;
            for (int64_t oh = 0; oh < g->OH; oh++) {
                int64_t ih = oh * g->sh - g->ph + kh * g->dh;
                char *crow = cb + (r * cs[0] + oh * g->OW * cs[1]) * e;
                char *irow = ih >= 0 && ih < g->H ? ib + (c * is[0] + ih * is[1]) * e : NULL;
                fn(g, irow, is[2], crow, cs[1], kw * g->dw - g->pw, esz, img->dtype);
            }
        }
    }
}

/* im2col: one block row of one tap, copied (0 outside the image) */
static void gather_row(const fold_geom *g, char *irow, int64_t iws, char *crow, int64_t cws,
                       int64_t off, size_t esz, airc_dtype dt)
{
    (void)dt;
    int64_t lo = 0, hi = 0, e = (int64_t)esz;
    if (irow)
        airc_cpu_valid_cols(g->W, g->OW, g->sw, off, &lo, &hi);
    if (cws == 1) {
        memset(crow, 0, (size_t)lo * esz);
        memset(crow + hi * e, 0, (size_t)(g->OW - hi) * esz);
    } else {
        for (int64_t ow = 0; ow < g->OW; ow++)
            if (ow < lo || ow >= hi)
                memset(crow + ow * cws * e, 0, esz);
    }
    if (hi == lo)
        return;
    if (cws == 1 && g->sw * iws == 1) {
        memcpy(crow + lo * e, irow + (lo * g->sw + off) * e, (size_t)(hi - lo) * esz);
        return;
    }
    for (int64_t ow = lo; ow < hi; ow++)
        memcpy(crow + ow * cws * e, irow + (ow * g->sw + off) * iws * e, esz);
}

/* col2im: one block row of one tap added into the image, each sum rounded
 * to the dtype */
static void scatter_add_row(const fold_geom *g, char *irow, int64_t iws, char *crow, int64_t cws,
                            int64_t off, size_t esz, airc_dtype dt)
{
    if (!irow)
        return;
    int64_t lo, hi, e = (int64_t)esz;
    airc_cpu_valid_cols(g->W, g->OW, g->sw, off, &lo, &hi);
    for (int64_t ow = lo; ow < hi; ow++) {
        char *p = irow + (ow * g->sw + off) * iws * e;
        airc_cpu_store_f64(p, dt,
                           airc_cpu_load_f64(p, dt) + airc_cpu_load_f64(crow + ow * cws * e, dt));
    }
}

/* im2col(self, kernel_size, dilation, padding, stride) */
airc_status airc_cpu_k_im2col(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *x = k->nargs && k->in ? k->in[0] : NULL, *o = &k->out[0];
    if (!x || (x->ndim != 3 && x->ndim != 4) || o->ndim != x->ndim - 1 || o->dtype != x->dtype)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "expects a 3-d or 4-d input");
    int32_t lead = x->ndim - 3;
    fold_geom g = {.C = x->shape[lead], .H = x->shape[lead + 1], .W = x->shape[lead + 2]};
    AIRC_TRY(read_geom(k, 1, &g));
    if (o->shape[lead] != g.C * g.KH * g.KW || o->shape[lead + 1] != g.OH * g.OW)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "result shape does not match the blocks");
    walk(&g, x, o, lead, gather_row);
    return AIRC_OK;
}

/* col2im(self, output_size, kernel_size, dilation, padding, stride) */
airc_status airc_cpu_k_col2im(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *x = k->nargs && k->in ? k->in[0] : NULL, *o = &k->out[0];
    if (!x || (x->ndim != 2 && x->ndim != 3) || o->ndim != x->ndim + 1 || o->dtype != x->dtype)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "expects a 2-d or 3-d input");
    int32_t lead = x->ndim - 2;
    fold_geom g = {.C = o->shape[lead], .H = o->shape[lead + 1], .W = o->shape[lead + 2]};
    AIRC_TRY(read_geom(k, 2, &g));
    if (x->shape[lead] != g.C * g.KH * g.KW || x->shape[lead + 1] != g.OH * g.OW)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "input shape does not match the blocks");
    airc_cpu_scalar zero = {0};
    airc_cpu_fill(o, &zero);
    walk(&g, o, x, lead, scatter_add_row);
    return AIRC_OK;
}
