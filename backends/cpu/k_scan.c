/* Built-in CPU kernels of the running scans beside cumsum / cumprod
 * (reduce family; table entries in k_reduce.c): cummax / cummin, whose
 * values are copied bit for bit from self with the index they came from,
 * and logcumsumexp. Each walks the lines along dim as torch's
 * cpu_cum_base_kernel does, one running value per line. */
#include "backends/cpu/k_reduce_internal.h"

#include <math.h>

static airc_status scan_setup(airc_kernel_ctx *k, int nout, const airc_tview **x, int32_t *dim)
{
    *x = airc_kred_input(k, "self");
    if (!*x)
        return airc_kred_fail(k, AIRC_E_UNSUPPORTED, "self must be a tensor");
    if ((int)k->nout < nout || !k->out[0].data || k->out[0].dtype != (*x)->dtype ||
        (nout == 2 && (!k->out[1].data || k->out[1].dtype != AIRC_DTYPE_I64)))
        return airc_kred_fail(k, AIRC_E_RUNTIME, "outputs not allocated as the meta says");
    /* torch's cummax / cummin take any dim for a 0-d or empty self */
    if (nout == 2 && ((*x)->ndim == 0 || airc_kred_numel(*x) == 0)) {
        *dim = 0;
        return AIRC_OK;
    }
    return airc_kred_wrap_dim(k, airc_kred_int(k, "dim", 0), (*x)->ndim, dim);
}

/* Whether element v replaces the running best b: torch's `>=` (`<=`), so
 * the last of equal values wins, and a NaN always does. */
static bool takes_over(bool is_max, bool is_float, double v, double b, int64_t vi, int64_t bi)
{
    if (is_float)
        return v != v || (is_max ? v >= b : v <= b);
    return is_max ? vi >= bi : vi <= bi;
}

static airc_status cum_extreme(airc_kernel_ctx *k, bool is_max)
{
    const airc_tview *x;
    int32_t dim;
    AIRC_TRY(scan_setup(k, 2, &x, &dim));
    const airc_tview *vals = &k->out[0], *idx = &k->out[1];
    if (airc_kred_numel(x) == 0)
        return AIRC_OK;
    int64_t n = x->ndim ? x->shape[dim] : 1;
    int64_t sx = x->ndim ? x->strides[dim] : 0, sv = x->ndim ? vals->strides[dim] : 0,
            si = x->ndim ? idx->strides[dim] : 0;
    int64_t esz = (int64_t)airc_dtype_size(x->dtype);
    bool is_float = airc_kred_is_float(x->dtype);
    airc_kred_lines lv, li;
    airc_kred_lines_init(&lv, x, vals, dim);
    airc_kred_lines_init(&li, x, idx, dim);
    do {
        double b = 0;
        int64_t bi = 0, at = 0;
        for (int64_t j = 0; j < n; j++) {
            int64_t off = lv.in + j * sx;
            double v = is_float ? airc_kred_load_d(x->data, off, x->dtype) : 0;
            int64_t vi = is_float ? 0 : airc_kred_load_i(x->data, off, x->dtype);
            if (j == 0 || takes_over(is_max, is_float, v, b, vi, bi)) {
                b = v;
                bi = vi;
                at = j;
            }
            memcpy((char *)vals->data + (lv.out + j * sv) * esz,
                   (const char *)x->data + (lv.in + at * sx) * esz, (size_t)esz);
            ((int64_t *)idx->data)[li.out + j * si] = at;
        }
        airc_kred_lines_next(&li);
    } while (airc_kred_lines_next(&lv));
    return AIRC_OK;
}

airc_status airc_kred_cummax(airc_kernel_ctx *k, void *user_data)
{
    (void)user_data;
    return cum_extreme(k, true);
}

airc_status airc_kred_cummin(airc_kernel_ctx *k, void *user_data)
{
    (void)user_data;
    return cum_extreme(k, false);
}

/* torch's _log_add_exp_helper(x, acc): max + log1p(exp(min - max)), but x
 * where both are the same infinity; a NaN acc stays. In float for f32 and
 * bf16, in double for f64. */
static double log_add_exp(double x, double acc, airc_dtype dt)
{
    double mn = acc != acc ? acc : (acc < x ? acc : x);
    double mx = acc != acc ? acc : (x < acc ? acc : x);
    if (!(mn != mx || isfinite(mn)))
        return x;
    if (dt == AIRC_DTYPE_F64)
        return mx + log1p(exp(mn - mx));
    return (float)mx + log1pf(expf((float)mn - (float)mx));
}

airc_status airc_kred_logcumsumexp(airc_kernel_ctx *k, void *user_data)
{
    (void)user_data;
    const airc_tview *x;
    int32_t dim;
    AIRC_TRY(scan_setup(k, 1, &x, &dim));
    const airc_tview *y = &k->out[0];
    if (airc_kred_numel(x) == 0)
        return AIRC_OK;
    int64_t n = x->ndim ? x->shape[dim] : 1;
    int64_t sx = x->ndim ? x->strides[dim] : 0, sy = x->ndim ? y->strides[dim] : 0;
    airc_kred_lines it;
    airc_kred_lines_init(&it, x, y, dim);
    do {
        double acc = -INFINITY;
        for (int64_t j = 0; j < n; j++) {
            double v = airc_kred_load_d(x->data, it.in + j * sx, x->dtype);
            /* the running value stays in float (double), as torch's acc_type; the
             * store rounds what is written */
            acc = log_add_exp(v, acc, y->dtype);
            airc_kred_store_d(y->data, it.out + j * sy, y->dtype, acc);
        }
    } while (airc_kred_lines_next(&it));
    return AIRC_OK;
}
