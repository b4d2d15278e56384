/* Reduce-family kernel of histc(self, bins, min, max): counts of self's
 * elements in `bins` equal bins over [min, max] (with min == max, the
 * data's range, widened by 1 on each side when that is one value too), as
 * torch's linear-interpolation histogram: bin (x - lo) * bins / (hi - lo)
 * in the input's float type (double for f64, float else: a bf16 self
 * counts in f32, rounded once, where torch works in bf16), x == hi in the
 * last bin. Elements outside the range, and NaN (whose index torch
 * computes from a cast of NaN), are not counted. A data range that is not
 * finite fails, as torch's check. */
#include "backends/cpu/k_reduce_internal.h"
#include "backends/cpu/k_strided.h"

#include <math.h>

airc_status airc_kred_histc(airc_kernel_ctx *k, void *user_data)
{
    (void)user_data;
    const airc_tview *x = k->in && k->nargs ? k->in[0] : NULL, *o = &k->out[0];
    if (!x || o->ndim != 1 || o->shape[0] < 1)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "self must be a tensor, bins above 0");
    int64_t bins = o->shape[0], n = airc_cpu_numel(x), idx[AIRC_MAX_DIMS] = {0};
    double lo = airc_cpu_arg_double(k, 2, 0), hi = airc_cpu_arg_double(k, 3, 0);
    bool dbl = x->dtype == AIRC_DTYPE_F64;
    size_t es = airc_dtype_size(x->dtype);
    if (lo == hi && n > 0) { /* the data's range: torch's aminmax, NaN winning */
        lo = INFINITY, hi = -INFINITY;
        for (int64_t e = 0; e < n; e++, airc_cpu_next_index(idx, x->shape, x->ndim)) {
            double v = airc_cpu_load_f64(airc_cpu_at(x, idx), x->dtype);
            if (!isnan(lo) && (isnan(v) || v < lo))
                lo = v;
            if (!isnan(hi) && (isnan(v) || v > hi))
                hi = v;
        }
    }
    if (lo == hi) {
        lo -= 1;
        hi += 1;
    }
    if (!(isfinite(lo) && isfinite(hi)))
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "torch.histc: range of [%g, %g] is not finite", lo,
                             hi);
    if (!dbl) { /* the edges in the input's type */
        lo = (float)lo;
        hi = (float)hi;
    }
    double *count = airc_malloc(k->ctx, (size_t)bins * sizeof *count);
    if (!count)
        return airc_cpu_oom(k, "the histogram");
    for (int64_t b = 0; b < bins; b++)
        count[b] = 0;
    for (int32_t d = 0; d < x->ndim; d++)
        idx[d] = 0;
    double width = dbl ? hi - lo : (float)(hi - lo);
    for (int64_t e = 0; e < n; e++, airc_cpu_next_index(idx, x->shape, x->ndim)) {
        double v = airc_cpu_load_f64(airc_cpu_at(x, idx), x->dtype);
        if (!(v >= lo && v <= hi))
            continue;
        double t = dbl ? (v - lo) * (double)bins / width
                       : (float)((float)((float)(v - lo) * (float)bins) / (float)width);
        int64_t b = (int64_t)t;
        count[b >= bins ? bins - 1 : b] += 1;
    }
    for (int64_t b = 0; b < bins; b++)
        airc_cpu_store_f64((char *)o->data + b * o->strides[0] * (int64_t)es, o->dtype, count[b]);
    airc_free(k->ctx, count);
    return AIRC_OK;
}
