/* Built-in CPU kernels: reduce family. Reductions (sum, nansum, mean, prod,
 * amax, amin, aminmax, max, min, argmax, argmin, any, all, count_nonzero,
 * var, var_mean, std, logsumexp, norm) read their arguments here and run on the engine in
 * k_reduce_engine.c; softmax,
 * log_softmax, layer norm and cumsum live in k_norm.c. Output dtypes are
 * the meta's (the executor allocates outputs from it): an integer sum's
 * int64, an explicit dtype=, bool for any/all. */
#include "backends/cpu/cpu_kernels.h"
#include "backends/cpu/k_reduce_engine.h"
#include "backends/cpu/k_strided.h"

#include <inttypes.h>
#include <string.h>

static airc_status self_of(const airc_kernel_ctx *k, const airc_tview **out)
{
    const airc_tview *in = airc_kred_input(k, "self");
    if (!in)
        return airc_kred_fail(k, AIRC_E_UNSUPPORTED, "self must be a tensor");
    if (k->nout < 1 || !k->out[0].data)
        return airc_kred_fail(k, AIRC_E_RUNTIME, "output not allocated");
    *out = in;
    return AIRC_OK;
}

/* Reduced dims from the "dim" argument (absent, None or [] = all dims). */
static airc_status dims_mask(const airc_kernel_ctx *k, const airc_tview *in, bool *mask)
{
    int64_t dims[4 * AIRC_MAX_DIMS];
    int32_t nd = airc_kred_int_list(k, "dim", dims, 4 * AIRC_MAX_DIMS);
    memset(mask, 0, AIRC_MAX_DIMS * sizeof *mask);
    if (nd <= 0) {
        for (int32_t d = 0; d < in->ndim; d++)
            mask[d] = true;
        return AIRC_OK;
    }
    if (nd > 4 * AIRC_MAX_DIMS)
        return airc_kred_fail(k, AIRC_E_RUNTIME, "too many dims (%d)", (int)nd);
    for (int32_t i = 0; i < nd; i++) {
        int32_t d;
        AIRC_TRY(airc_kred_wrap_dim(k, dims[i], in->ndim, &d));
        if (in->ndim == 0)
            continue;
        if (mask[d])
            return airc_kred_fail(k, AIRC_E_RUNTIME,
                                  "dim %d appears multiple times in the list of dims", (int)d);
        mask[d] = true;
    }
    return AIRC_OK;
}

static airc_status setup(const airc_kernel_ctx *k, kr_spec *s, kr_op op, kr_fin fin)
{
    memset(s, 0, sizeof *s);
    AIRC_TRY(self_of(k, &s->in));
    AIRC_TRY(dims_mask(k, s->in, s->mask));
    s->out[0] = &k->out[0];
    s->nouts = 1;
    s->op = op;
    s->fin = fin;
    switch (op) {
    case KR_SUM:
    case KR_NANSUM:
    case KR_PROD:
        s->dbl = fin == KR_FIN_MEAN || airc_kred_is_float(k->out[0].dtype);
        /* sum(x, dtype=D) is torch's sum of x.to(D): f16 elements round to
         * bf16, f64 ones to f32, floats to ints truncate (only where the
         * conversion can change a value: f64 and bool are exact, and
         * integers wrap alike before and after the sum) */
        if (k->out[0].dtype != s->in->dtype && s->in->dtype != AIRC_DTYPE_BOOL &&
            (airc_kred_is_float(k->out[0].dtype) ? k->out[0].dtype != AIRC_DTYPE_F64
                                                 : airc_kred_is_float(s->in->dtype)))
            s->elem_dtype = k->out[0].dtype;
        break;
    case KR_MAX:
    case KR_MIN:
    case KR_ARGMAX:
    case KR_ARGMIN:
        s->dbl = airc_kred_is_float(s->in->dtype);
        s->needs_elements = true;
        break;
    default:
        s->dbl = true;
        break;
    }
    if (fin == KR_FIN_VALUE_INDEX || fin == KR_FIN_VAR_MEAN || fin == KR_FIN_STD_MEAN) {
        if (k->nout < 2 || !k->out[1].data)
            return airc_kred_fail(k, AIRC_E_RUNTIME, "second output not allocated");
        s->out[1] = &k->out[1];
        s->nouts = 2;
    }
    return AIRC_OK;
}

static airc_status simple(airc_kernel_ctx *k, kr_op op, kr_fin fin)
{
    kr_spec s;
    AIRC_TRY(setup(k, &s, op, fin));
    return airc_kred_reduce(k, &s);
}

/* dtype=bool: torch converts self to bool first, and bool arithmetic
 * saturates, so the sum is any() and the product all() */
static bool to_bool(const airc_kernel_ctx *k)
{
    return k->nout >= 1 && k->out[0].dtype == AIRC_DTYPE_BOOL;
}

static airc_status k_sum(airc_kernel_ctx *k, void *u)
{
    return to_bool(k) ? simple(k, KR_ANY, KR_FIN_FLAG) : simple(k, KR_SUM, KR_FIN_VALUE);
}

static airc_status k_nansum(airc_kernel_ctx *k, void *u)
{
    return to_bool(k) ? simple(k, KR_ANY, KR_FIN_FLAG) : simple(k, KR_NANSUM, KR_FIN_VALUE);
}

static airc_status k_mean(airc_kernel_ctx *k, void *u)
{
    return simple(k, KR_SUM, KR_FIN_MEAN);
}

static airc_status k_prod(airc_kernel_ctx *k, void *u)
{
    return to_bool(k) ? simple(k, KR_ALL, KR_FIN_FLAG) : simple(k, KR_PROD, KR_FIN_VALUE);
}

static airc_status k_amax(airc_kernel_ctx *k, void *u)
{
    return simple(k, KR_MAX, KR_FIN_VALUE);
}

static airc_status k_amin(airc_kernel_ctx *k, void *u)
{
    return simple(k, KR_MIN, KR_FIN_VALUE);
}

static airc_status k_any(airc_kernel_ctx *k, void *u)
{
    return simple(k, KR_ANY, KR_FIN_FLAG);
}

static airc_status k_all(airc_kernel_ctx *k, void *u)
{
    return simple(k, KR_ALL, KR_FIN_FLAG);
}

static airc_status k_argmax(airc_kernel_ctx *k, void *u)
{
    return simple(k, KR_ARGMAX, KR_FIN_INDEX);
}

static airc_status k_argmin(airc_kernel_ctx *k, void *u)
{
    return simple(k, KR_ARGMIN, KR_FIN_INDEX);
}

/* aminmax(self, *, dim=None, keepdim=False): (min, max), two passes */
static airc_status k_aminmax(airc_kernel_ctx *k, void *u)
{
    kr_spec s;
    AIRC_TRY(setup(k, &s, KR_MIN, KR_FIN_VALUE));
    if (k->nout < 2 || !k->out[1].data)
        return airc_kred_fail(k, AIRC_E_RUNTIME, "second output not allocated");
    AIRC_TRY(airc_kred_reduce(k, &s));
    s.op = KR_MAX;
    s.out[0] = &k->out[1];
    return airc_kred_reduce(k, &s);
}

/* count_nonzero (dim: int, None or a list): norm's count of x != 0 */
static airc_status k_count_nonzero(airc_kernel_ctx *k, void *u)
{
    kr_spec s;
    AIRC_TRY(setup(k, &s, KR_NORM, KR_FIN_NORM));
    s.p = 0;
    return airc_kred_reduce(k, &s);
}

/* max.dim / min.dim: (values, indices) */
static airc_status k_max_dim(airc_kernel_ctx *k, void *u)
{
    kr_spec s;
    AIRC_TRY(setup(k, &s, KR_ARGMAX, KR_FIN_VALUE_INDEX));
    return airc_kred_reduce(k, &s);
}

static airc_status k_min_dim(airc_kernel_ctx *k, void *u)
{
    kr_spec s;
    AIRC_TRY(setup(k, &s, KR_ARGMIN, KR_FIN_VALUE_INDEX));
    return airc_kred_reduce(k, &s);
}

/* var.default (unbiased), var.dim (unbiased), var.correction (correction,
 * None = 1), var_mean.correction (std / std_mean: the root). */
static airc_status var_common(airc_kernel_ctx *k, kr_fin fin)
{
    kr_spec s;
    AIRC_TRY(setup(k, &s, KR_SUM, fin));
    if (airc_kred_arg(k, "correction"))
        s.correction = airc_kred_double(k, "correction", 1);
    else
        s.correction = airc_kred_bool(k, "unbiased", true) ? 1 : 0;
    return airc_kred_reduce(k, &s);
}

static airc_status k_var(airc_kernel_ctx *k, void *u)
{
    return var_common(k, KR_FIN_VAR);
}

static airc_status k_var_mean(airc_kernel_ctx *k, void *u)
{
    return var_common(k, KR_FIN_VAR_MEAN);
}

static airc_status k_std(airc_kernel_ctx *k, void *u)
{
    return var_common(k, KR_FIN_STD);
}

static airc_status k_std_mean(airc_kernel_ctx *k, void *u)
{
    return var_common(k, KR_FIN_STD_MEAN);
}

/* logsumexp(self, dim, keepdim): max, then log(sum(exp(x - max))) + max,
 * in double; an empty reduction is -inf */
static airc_status k_logsumexp(airc_kernel_ctx *k, void *u)
{
    kr_spec s;
    AIRC_TRY(setup(k, &s, KR_MAX, KR_FIN_LSE));
    s.dbl = true;
    s.needs_elements = false;
    return airc_kred_reduce(k, &s);
}

/* norm.ScalarOpt_dim(self, p (None: 2), dim, keepdim) */
static airc_status k_norm(airc_kernel_ctx *k, void *u)
{
    kr_spec s;
    AIRC_TRY(setup(k, &s, KR_NORM, KR_FIN_NORM));
    s.p = airc_kred_double(k, "p", 2.0);
    return airc_kred_reduce(k, &s);
}

/* norm.ScalarOpt_dtype / ScalarOpt_dim_dtype(..., dtype): torch's norm of
 * self.to(dtype), so each element converts to the result's dtype first */
static airc_status k_norm_dtype(airc_kernel_ctx *k, void *u)
{
    kr_spec s;
    AIRC_TRY(setup(k, &s, KR_NORM, KR_FIN_NORM));
    s.p = airc_kred_double(k, "p", 2.0);
    if (s.in->dtype != k->out[0].dtype)
        s.elem_dtype = k->out[0].dtype;
    return airc_kred_reduce(k, &s);
}

/* dist(self, other, p): torch's norm(self - other, p), the difference
 * (broadcast, in the result's dtype) run by sub's kernel into scratch */
static airc_status k_dist(airc_kernel_ctx *k, void *u)
{
    const airc_tview *x = airc_kred_input(k, "self"), *y = airc_kred_input(k, "other");
    if (!x || !y || k->nargs < 2 || k->nout < 1)
        return airc_kred_fail(k, AIRC_E_UNSUPPORTED, "self and other must be tensors");
    airc_tview diff;
    memset(&diff, 0, sizeof diff);
    diff.dtype = k->out[0].dtype;
    diff.ndim = x->ndim > y->ndim ? x->ndim : y->ndim;
    int64_t n = 1;
    for (int32_t i = 0; i < diff.ndim; i++) { /* the meta checked that they broadcast */
        int32_t ix = i - (diff.ndim - x->ndim), iy = i - (diff.ndim - y->ndim);
        int64_t sx = ix >= 0 ? x->shape[ix] : 1, sy = iy >= 0 ? y->shape[iy] : 1;
        diff.shape[i] = sx == 1 ? sy : sx;
        n *= diff.shape[i];
    }
    airc_cpu_set_contiguous(&diff);
    diff.data = airc_malloc(k->ctx, (size_t)(n > 0 ? n : 1) * airc_dtype_size(diff.dtype));
    if (!diff.data)
        return airc_kred_fail(k, AIRC_E_OUT_OF_MEMORY, "out of memory for dist's difference");
    const airc_tview *in[3] = {x, y, NULL}, *norm_in[3] = {&diff, NULL, NULL};
    airc_kernel_ctx sub = *k, norm = *k;
    sub.nargs = 2; /* sub.Tensor(self, other), alpha left at 1 */
    sub.in = in;
    sub.out = &diff;
    sub.nout = 1;
    norm.in = norm_in;
    airc_kernel_fn fn = airc_cpu_find_kernel("aten.sub.Tensor");
    airc_status st = fn ? fn(&sub, NULL) : airc_kred_fail(k, AIRC_E_RUNTIME, "no sub kernel");
    if (st == AIRC_OK)
        st = k_norm(&norm, u);
    airc_free(k->ctx, diff.data);
    return st;
}

/* linalg_vector_norm(self, ord, dim, keepdim, *, dtype): norm of self in
 * dtype (the engine reads elements as double, exact for every float type) */
static airc_status k_vector_norm(airc_kernel_ctx *k, void *u)
{
    kr_spec s;
    AIRC_TRY(setup(k, &s, KR_NORM, KR_FIN_NORM));
    s.p = airc_kred_double(k, "ord", 2.0);
    return airc_kred_reduce(k, &s);
}

/* Sorted by qualname (strcmp order); a test checks. */
const airc_cpu_kernel_entry airc_cpu_kernels_reduce[] = {
    {"aten._aminmax.default", k_aminmax},
    {"aten._aminmax.dim", k_aminmax},
    {"aten._histogramdd_bin_edges.default", airc_kred_histogramdd_bin_edges},
    {"aten._histogramdd_from_bin_cts.default", airc_kred_histogramdd},
    {"aten._histogramdd_from_bin_tensors.default", airc_kred_histogramdd},
    {"aten._log_softmax.default", airc_kred_log_softmax},
    {"aten._masked_softmax.default", airc_kred_masked_softmax},
    {"aten._softmax.default", airc_kred_softmax},
    {"aten._weight_norm_interface.default", airc_kred_weight_norm},
    {"aten.all.default", k_all},
    {"aten.all.dim", k_all},
    {"aten.amax.default", k_amax},
    {"aten.amin.default", k_amin},
    {"aten.aminmax.default", k_aminmax},
    {"aten.any.default", k_any},
    {"aten.any.dim", k_any},
    {"aten.argmax.default", k_argmax},
    {"aten.argmin.default", k_argmin},
    {"aten.argsort.stable", airc_kred_argsort},
    {"aten.batch_norm_update_stats.default", airc_kred_batch_norm_update_stats},
    {"aten.count_nonzero.default", k_count_nonzero},
    {"aten.count_nonzero.dim_IntList", k_count_nonzero},
    {"aten.cummax.default", airc_kred_cummax},
    {"aten.cummin.default", airc_kred_cummin},
    {"aten.cumprod.default", airc_kred_cumprod},
    {"aten.cumsum.default", airc_kred_cumsum},
    {"aten.dist.default", k_dist},
    {"aten.histc.default", airc_kred_histc},
    {"aten.histogram.bin_ct", airc_kred_histogram},
    {"aten.histogram.bins_tensor", airc_kred_histogram},
    {"aten.kthvalue.default", airc_kred_kthvalue},
    {"aten.linalg_vector_norm.default", k_vector_norm},
    {"aten.log_softmax.int", airc_kred_log_softmax},
    {"aten.logcumsumexp.default", airc_kred_logcumsumexp},
    {"aten.logsumexp.default", k_logsumexp},
    {"aten.max.default", k_amax},
    {"aten.max.dim", k_max_dim},
    {"aten.mean.default", k_mean},
    {"aten.mean.dim", k_mean},
    {"aten.median.default", airc_kred_median},
    {"aten.median.dim", airc_kred_median},
    {"aten.min.default", k_amin},
    {"aten.min.dim", k_min_dim},
    {"aten.mode.default", airc_kred_mode},
    {"aten.nanmedian.default", airc_kred_nanmedian},
    {"aten.nanmedian.dim", airc_kred_nanmedian},
    {"aten.nansum.default", k_nansum},
    {"aten.native_batch_norm.default", airc_kred_batch_norm},
    {"aten.native_group_norm.default", airc_kred_group_norm},
    {"aten.native_layer_norm.default", airc_kred_layer_norm},
    {"aten.norm.Scalar", k_norm},
    {"aten.norm.ScalarOpt_dim", k_norm},
    {"aten.norm.ScalarOpt_dim_dtype", k_norm_dtype},
    {"aten.norm.ScalarOpt_dtype", k_norm_dtype},
    {"aten.prod.default", k_prod},
    {"aten.prod.dim_int", k_prod},
    {"aten.renorm.default", airc_kred_renorm},
    {"aten.segment_reduce.default", airc_kred_segment_reduce},
    {"aten.softmax.int", airc_kred_softmax},
    {"aten.sort.default", airc_kred_sort},
    {"aten.sort.stable", airc_kred_sort},
    {"aten.std.correction", k_std},
    {"aten.std_mean.correction", k_std_mean},
    {"aten.sum.default", k_sum},
    {"aten.sum.dim_IntList", k_sum},
    {"aten.topk.default", airc_kred_topk},
    {"aten.var.correction", k_var},
    {"aten.var.default", k_var},
    {"aten.var.dim", k_var},
    {"aten.var_mean.correction", k_var_mean},
};
const size_t airc_cpu_num_kernels_reduce =
    sizeof airc_cpu_kernels_reduce / sizeof airc_cpu_kernels_reduce[0];
