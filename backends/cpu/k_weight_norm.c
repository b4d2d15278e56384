/* Reduce-family kernel of _weight_norm_interface(v, g, dim) -> (w, norm),
 * torch's fused kernel: norm[k] = sqrt(sum of v^2 over slice k of dim),
 * w = v * (g[k] / norm[k]), in torch's types: float for f32 and bf16
 * (whose norm is f32; a bf16 v's sums over dim 0 rounded to bf16, as
 * torch's first-dim kernel stores them), double for f64. g
 * and norm are read and written as v.size(dim) values in g's shape
 * (meta checked the count); any layouts. A zero norm gives inf / NaN, as
 * torch. */
#include "backends/cpu/k_reduce_internal.h"
#include "backends/cpu/k_strided.h"

#include <math.h>

airc_status airc_kred_weight_norm(airc_kernel_ctx *k, void *user_data)
{
    (void)user_data;
    if (k->nargs < 2 || !k->in || !k->in[0] || !k->in[1] || k->nout != 2)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "v and g must be tensors, two results");
    const airc_tview *v = k->in[0], *g = k->in[1], *w = &k->out[0], *nv = &k->out[1];
    int64_t dim = airc_cpu_arg_int(k, 2, 0);
    if (v->ndim == 0 || (dim != 0 && dim != v->ndim - 1) || w->ndim != v->ndim)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "dim must be 0 or v's last dim");
    int64_t m = v->shape[dim];
    if (airc_cpu_numel(g) != m || airc_cpu_numel(nv) != m)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "g and norm must hold %lld values", (long long)m);
    double *sum = airc_malloc(k->ctx, (size_t)(m ? m : 1) * sizeof *sum);
    if (!sum)
        return airc_cpu_oom(k, "the norms");
    for (int64_t i = 0; i < m; i++)
        sum[i] = 0;
    bool dbl = v->dtype == AIRC_DTYPE_F64;
    size_t vs = airc_dtype_size(v->dtype), ws = airc_dtype_size(w->dtype);
    size_t gs = airc_dtype_size(g->dtype), ns = airc_dtype_size(nv->dtype);
    int64_t n = airc_cpu_numel(v), idx[AIRC_MAX_DIMS] = {0};
    for (int64_t e = 0; e < n; e++) {
        int64_t off = 0;
        for (int32_t d = 0; d < v->ndim; d++)
            off += idx[d] * v->strides[d];
        double x = airc_cpu_load_f64((const char *)v->data + off * (int64_t)vs, v->dtype);
        double *acc = &sum[idx[dim]];
        *acc = dbl ? *acc + x * x : (float)(*acc + (float)(x * x)); /* float overflows as torch's */
        airc_cpu_next_index(idx, v->shape, v->ndim);
    }
    /* torch's first-dim kernel keeps a bf16 v's sums in bf16 */
    bool bf16_sum = v->dtype == AIRC_DTYPE_BF16 && dim == 0;
    for (int64_t i = 0; i < m; i++) {
        double s = bf16_sum ? airc_cpu_round_f64(AIRC_DTYPE_BF16, sum[i]) : sum[i];
        double norm = dbl ? sqrt(s) : (float)sqrt(s);
        double gi = airc_cpu_load_f64(
            (const char *)g->data + airc_cpu_flat_offset(g, 0, i) * (int64_t)gs, g->dtype);
        airc_cpu_store_f64((char *)nv->data + airc_cpu_flat_offset(nv, 0, i) * (int64_t)ns,
                           nv->dtype, norm);
        sum[i] = dbl ? gi / norm : (float)((float)gi / (float)norm); /* now the scale */
    }
    for (int32_t d = 0; d < v->ndim; d++)
        idx[d] = 0;
    for (int64_t e = 0; e < n; e++) {
        int64_t vo = 0, wo = 0;
        for (int32_t d = 0; d < v->ndim; d++) {
            vo += idx[d] * v->strides[d];
            wo += idx[d] * w->strides[d];
        }
        double x = airc_cpu_load_f64((const char *)v->data + vo * (int64_t)vs, v->dtype);
        double y = dbl ? x * sum[idx[dim]] : (float)((float)x * (float)sum[idx[dim]]);
        airc_cpu_store_f64((char *)w->data + wo * (int64_t)ws, w->dtype, y);
        airc_cpu_next_index(idx, v->shape, v->ndim);
    }
    airc_free(k->ctx, sum);
    return AIRC_OK;
}
