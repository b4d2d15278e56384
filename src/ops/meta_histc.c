/* Meta function of histc(self, bins=100, min=0, max=0): a [bins] result of
 * self's dtype (torch's CPU kernel: f32, f64, bf16), contiguous. torch's
 * checks that read only arguments: bins above 0, min not above max, and a
 * given range (min != max) finite. With min == max the range is the
 * data's, checked by the kernel. */
#include "ops/meta_util.h"

#include "ir/ir.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

airc_status airc_meta_histc(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta x;
    int64_t bins;
    double lo, hi;
    AIRC_TRY(airc_meta_tensor(&a, "self", &x));
    AIRC_TRY(airc_meta_int(&a, "bins", 100, &bins));
    AIRC_TRY(airc_meta_double(&a, "min", 0, &lo));
    AIRC_TRY(airc_meta_double(&a, "max", 0, &hi));
    if (x.dtype != AIRC_DTYPE_F32 && x.dtype != AIRC_DTYPE_F64 && x.dtype != AIRC_DTYPE_BF16)
        return airc_fail(AIRC_E_SHAPE, "%s: \"histogram_cpu\" not implemented for '%s'", a.op,
                         airc_dtype_torch_type_name(x.dtype));
    if (bins <= 0)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: torch.histogram(): bins must be > 0, but got %" PRId64
                         " for dimension 0",
                         a.op, bins);
    if (lo > hi)
        return airc_fail(AIRC_E_SHAPE, "%s: torch.histc: max must be larger than min", a.op);
    if (lo != hi && !(isfinite(lo) && isfinite(hi)))
        return airc_fail(AIRC_E_SHAPE, "%s: torch.histc: range of [%g, %g] is not finite", a.op, lo,
                         hi);
    airc_tmeta out = x;
    out.ndim = 1;
    out.shape[0] = bins;
    AIRC_TRY(airc_meta_check_numel(&a, out.shape, 1));
    airc_tmeta_contiguous(&out);
    return airc_meta_set(n, &out);
}

int32_t airc_histogram_range(const airc_value *v, double *out, int32_t cap)
{
    if (!v || (v->kind != AIRC_VALUE_LIST && v->kind != AIRC_VALUE_TUPLE))
        return -1;
    for (uint32_t i = 0; i < v->len && (int32_t)i < cap; i++) {
        const airc_value *x = v->u.items[i];
        out[i] = x->kind == AIRC_VALUE_FLOAT ? x->u.f
                 : x->kind == AIRC_VALUE_INT ? (double)x->u.i
                                             : NAN;
    }
    return (int32_t)(v->len > INT32_MAX ? INT32_MAX : v->len);
}

/* AIRC_E_SHAPE where dim's bins + 1 edges are past int64 */
static airc_status edges_fit(const airc_meta_args *a, int64_t bins, int64_t dim)
{
    if (bins < INT64_MAX)
        return AIRC_OK;
    return airc_fail(AIRC_E_SHAPE, "%s: %" PRId64 " bins for dimension %" PRId64 ": too many edges",
                     a->op, bins, dim);
}

/* histogram.bin_ct(self, bins=100, *, range=None, weight=None,
 * density=False) and histogram.bins_tensor(self, bins, *, weight,
 * density) -> (hist, bin_edges): [bins] and [bins + 1] of self's dtype,
 * contiguous. torch's checks that read only arguments, in its order
 * (bins_tensor: the edges' dtype and rank, then the weight's, then the
 * count; bin_ct: the count, the range's length, finiteness and order,
 * its conversion to self's dtype, then the weight's), the dtype dispatch last (f32 and f64; bf16
 * too but for the data's range). A data range that is not finite is the kernel's. */
airc_status airc_meta_histogram(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta x, w, e;
    bool has_w, edges = !strcmp(airc_meta_overload(&a), "bins_tensor");
    int64_t bins = 100;
    AIRC_TRY(airc_meta_tensor(&a, "self", &x));
    AIRC_TRY(airc_meta_opt_tensor(&a, "weight", &w, &has_w));
    const char *dn = airc_dtype_torch_type_name(x.dtype);
    if (edges) {
        AIRC_TRY(airc_meta_tensor(&a, "bins", &e));
        if (e.dtype != x.dtype)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: torch.histogramdd: input tensor and bins tensors should have the "
                             "same dtype, but got input with dtype %s and bins for dimension 0 "
                             "with dtype %s",
                             a.op, airc_dtype_type_meta_name(x.dtype),
                             airc_dtype_type_meta_name(e.dtype));
        if (e.ndim != 1)
            return airc_fail(
                AIRC_E_SHAPE,
                "%s: torch.histogramdd: bins tensor should have one dimension, but got "
                "%d dimensions in the bins tensor for dimension 0",
                a.op, (int)e.ndim);
        if (e.shape[0] < 1)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: torch.histogramdd: bins tensor should have at least 1 element, "
                             "but got 0 elements in the bins tensor for dimension 0",
                             a.op);
        bins = e.shape[0] - 1;
    } else {
        AIRC_TRY(airc_meta_int(&a, "bins", 100, &bins));
    }
    if (bins <= 0 && !edges)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: torch.histogram(): bins must be > 0, but got %" PRId64
                         " for dimension 0",
                         a.op, bins);
    double range[2];
    int32_t nr = 0;
    bool has_range = false;
    if (!edges) {
        int ri = airc_meta_find(&a, "range");
        nr = airc_histogram_range(ri >= 0 ? a.v[ri] : NULL, range, 2);
        has_range = nr >= 0;
        if (has_range && nr != 2)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: torch.histogramdd: for a 1-dimensional histogram range should "
                             "have 2 elements, but got %d",
                             a.op, (int)nr);
        if (has_range && !(isfinite(range[0]) && isfinite(range[1])))
            return airc_fail(AIRC_E_SHAPE,
                             "%s: torch.histogramdd: dimension 0's range [%g, %g] is not finite",
                             a.op, range[0], range[1]);
        if (has_range && range[0] > range[1])
            return airc_fail(AIRC_E_SHAPE,
                             "%s: torch.histogramdd: min should not exceed max, but got min %g max "
                             "%g for dimension 0",
                             a.op, range[0], range[1]);
        /* torch's linspace converts the (widened) range to self's dtype */
        double wide = has_range && range[0] == range[1] ? 0.5 : 0;
        for (int i = 0; has_range && i < 2; i++) {
            const char *type =
                airc_meta_number_overflows(true, range[i] + (i ? wide : -wide), 0, x.dtype);
            if (type)
                return airc_fail(AIRC_E_SHAPE,
                                 "%s: value cannot be converted to type %s without overflow", a.op,
                                 type);
        }
    }
    int64_t nx = airc_tmeta_numel(&x), nw = has_w ? airc_tmeta_numel(&w) : 0;
    if (has_w && w.dtype != x.dtype)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: torch.histogramdd: if weight tensor is provided, input tensor and "
                         "weight tensor should have the same dtype, but got input(%s), and "
                         "weight(%s)",
                         a.op, airc_dtype_type_meta_name(x.dtype),
                         airc_dtype_type_meta_name(w.dtype));
    if (has_w && nw != nx)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: torch.histogramdd: if weight tensor is provided it should have the "
                         "same shape as the input tensor excluding its innermost dimension, but "
                         "got input with shape [%" PRId64 ", 1] and weight with shape [%" PRId64
                         "]",
                         a.op, nx, nw);
    if (bins <= 0)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: torch.histogram(): bins must be > 0, but got %" PRId64
                         " for dimension 0",
                         a.op, bins);
    /* the data's range (torch's min / max kernel, "histogramdd") takes
     * f32 and f64; the binning kernel ("histogram_cpu") bf16 too */
    bool data_range = !edges && !has_range && nx > 0;
    if (x.dtype != AIRC_DTYPE_F32 && x.dtype != AIRC_DTYPE_F64 &&
        (data_range || x.dtype != AIRC_DTYPE_BF16))
        return airc_fail(AIRC_E_SHAPE, "%s: \"%s\" not implemented for '%s'", a.op,
                         data_range ? "histogramdd" : "histogram_cpu", dn);
    AIRC_TRY(edges_fit(&a, bins, 0));
    airc_tmeta outs[2] = {x, x};
    outs[0].ndim = outs[1].ndim = 1;
    outs[0].shape[0] = bins;
    outs[1].shape[0] = bins + 1;
    airc_tmeta_contiguous(&outs[0]);
    airc_tmeta_contiguous(&outs[1]);
    return airc_meta_set_tuple(n, outs, 2);
}

/* histogramdd's N, self's last dim: self must have two dims or more
 * (torch's check), N at most airc's dims (its result's rank) */
static airc_status histogramdd_dims(const airc_meta_args *a, const airc_tmeta *x, int64_t *nd)
{
    if (x->ndim < 2)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: torch.histogramdd: input tensor should have at least 2 dimensions",
                         a->op);
    *nd = x->shape[x->ndim - 1];
    if (*nd > AIRC_MAX_DIMS)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: a %" PRId64 "-dimensional histogram: airc's results have at most %d "
                         "dims",
                         a->op, *nd, AIRC_MAX_DIMS);
    return AIRC_OK;
}

/* The bin edges of histogramdd for bins (an int[]) over self ([..., N]):
 * torch's checks in its order (self's rank, the range's length, the data
 * range's dtype (f32, f64), each dim's range finite and ordered, then per
 * dim linspace's: steps = bins + 1 not negative, the (widened) range in
 * self's dtype); a bins list shorter than N, which torch 1.13 reads past,
 * is refused. edges[d] = [bins[d] + 1] of self's dtype. */
static airc_status histogramdd_edges(const airc_meta_args *a, const airc_tmeta *x, int64_t *bins,
                                     airc_tmeta *edges)
{
    int64_t nd;
    int32_t nb = 0;
    bool has_bins, has_range;
    AIRC_TRY(histogramdd_dims(a, x, &nd));
    AIRC_TRY(airc_meta_int_list(a, "bins", bins, AIRC_MAX_DIMS, &nb, &has_bins));
    double range[2 * AIRC_MAX_DIMS + 1];
    int ri = airc_meta_find(a, "range");
    int32_t nr = airc_histogram_range(ri >= 0 ? a->v[ri] : NULL, range, 2 * AIRC_MAX_DIMS + 1);
    has_range = nr >= 0;
    if (has_range && nr != 2 * nd)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: torch.histogramdd: for a %" PRId64 "-dimensional histogram range "
                         "should have %" PRId64 " elements, but got %d",
                         a->op, nd, 2 * nd, (int)nr);
    if (!has_range && airc_tmeta_numel(x) > 0 && x->dtype != AIRC_DTYPE_F32 &&
        x->dtype != AIRC_DTYPE_F64)
        return airc_fail(AIRC_E_SHAPE, "%s: \"histogramdd\" not implemented for '%s'", a->op,
                         airc_dtype_torch_type_name(x->dtype));
    for (int64_t d = 0; has_range && d < nd; d++) {
        double lo = range[2 * d], hi = range[2 * d + 1];
        if (!(isfinite(lo) && isfinite(hi)))
            return airc_fail(AIRC_E_SHAPE,
                             "%s: torch.histogramdd: dimension %" PRId64
                             "'s range [%g, %g] is not finite",
                             a->op, d, lo, hi);
        if (lo > hi)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: torch.histogramdd: min should not exceed max, but got min %g "
                             "max %g for dimension %" PRId64,
                             a->op, lo, hi, d);
    }
    if (nb < nd)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: torch.histogramdd: %d bin counts for a %" PRId64
                         "-dimensional histogram (torch 1.13 reads past the list)",
                         a->op, (int)nb, nd);
    for (int64_t d = 0; d < nd; d++) {
        if (bins[d] < -1)
            return airc_fail(AIRC_E_SHAPE, "%s: number of steps must be non-negative", a->op);
        AIRC_TRY(edges_fit(a, bins[d], d));
        if (x->dtype == AIRC_DTYPE_BOOL)
            return airc_fail(AIRC_E_SHAPE, "%s: \"linspace_cpu\" not implemented for 'Bool'",
                             a->op);
        double wide = has_range && range[2 * d] == range[2 * d + 1] ? 0.5 : 0;
        for (int i = 0; has_range && i < 2; i++) {
            const char *type = airc_meta_number_overflows(
                true, range[2 * d + i] + (i ? wide : -wide), 0, x->dtype);
            if (type)
                return airc_fail(AIRC_E_SHAPE,
                                 "%s: value cannot be converted to type %s without overflow", a->op,
                                 type);
        }
        edges[d] = *x;
        edges[d].ndim = 1;
        edges[d].shape[0] = bins[d] + 1;
        airc_tmeta_contiguous(&edges[d]);
    }
    return AIRC_OK;
}

/* histogramdd's checks of its bin edges (bins tensors or computed ones)
 * and weight, then the bin counts (torch's check_inputs and prepare_out) */
static airc_status histogramdd_inputs(const airc_meta_args *a, const airc_tmeta *x,
                                      const airc_tmeta *edges, int64_t nd, airc_tmeta *hist)
{
    airc_tmeta w;
    bool has_w;
    for (int64_t d = 0; d < nd; d++) {
        if (edges[d].dtype != x->dtype)
            return airc_fail(
                AIRC_E_SHAPE,
                "%s: torch.histogramdd: input tensor and bins tensors should have the "
                "same dtype, but got input with dtype %s and bins for dimension %" PRId64
                " with dtype %s",
                a->op, airc_dtype_type_meta_name(x->dtype), d,
                airc_dtype_type_meta_name(edges[d].dtype));
        if (edges[d].ndim != 1)
            return airc_fail(
                AIRC_E_SHAPE,
                "%s: torch.histogramdd: bins tensor should have one dimension, but got "
                "%d dimensions in the bins tensor for dimension %" PRId64,
                a->op, (int)edges[d].ndim, d);
        if (edges[d].shape[0] < 1)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: torch.histogramdd: bins tensor should have at least 1 element, "
                             "but got 0 elements in the bins tensor for dimension %" PRId64,
                             a->op, d);
    }
    AIRC_TRY(airc_meta_opt_tensor(a, "weight", &w, &has_w));
    if (has_w && w.dtype != x->dtype)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: torch.histogramdd: if weight tensor is provided, input tensor and "
                         "weight tensor should have the same dtype, but got input(%s), and "
                         "weight(%s)",
                         a->op, airc_dtype_type_meta_name(x->dtype),
                         airc_dtype_type_meta_name(w.dtype));
    bool same = has_w && (w.ndim == x->ndim - 1 || (w.ndim == 0 && x->ndim == 2));
    for (int32_t i = 0; same && i < w.ndim; i++)
        same = w.shape[i] == x->shape[i];
    if (same && w.ndim == 0)
        same = x->shape[0] == 1;
    if (has_w && !same) {
        char sx[AIRC_META_SHAPE_STR], sw[AIRC_META_SHAPE_STR];
        return airc_fail(AIRC_E_SHAPE,
                         "%s: torch.histogramdd: if weight tensor is provided it should have the "
                         "same shape as the input tensor excluding its innermost dimension, but "
                         "got input with shape %s and weight with shape %s",
                         a->op, airc_meta_shape_str(x->shape, x->ndim, sx),
                         airc_meta_shape_str(w.shape, w.ndim, sw));
    }
    *hist = *x;
    hist->ndim = (int32_t)nd;
    for (int64_t d = 0; d < nd; d++) {
        hist->shape[d] = edges[d].shape[0] - 1;
        if (hist->shape[d] <= 0)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: torch.histogram(): bins must be > 0, but got %" PRId64
                             " for dimension %" PRId64,
                             a->op, hist->shape[d], d);
    }
    if (x->dtype != AIRC_DTYPE_F32 && x->dtype != AIRC_DTYPE_F64 && x->dtype != AIRC_DTYPE_BF16)
        return airc_fail(AIRC_E_SHAPE, "%s: \"histogram_cpu\" not implemented for '%s'", a->op,
                         airc_dtype_torch_type_name(x->dtype));
    AIRC_TRY(airc_meta_check_numel(a, hist->shape, hist->ndim));
    airc_tmeta_contiguous(hist);
    return AIRC_OK;
}

/* _histogramdd_bin_edges(self, bins, *, range, weight, density) ->
 * Tensor[] (N edge tensors), _histogramdd_from_bin_cts(self, bins, *,
 * range, weight, density) and _histogramdd_from_bin_tensors(self, bins
 * (Tensor[]), *, weight, density) -> the N-d histogram of self's dtype,
 * [bins[0], .., bins[N - 1]], contiguous (what torch.histogramdd records).
 * Torch's checks that read only arguments, in its order; a data range
 * that is not finite is the kernel's. */
airc_status airc_meta_histogramdd(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta x, edges[AIRC_MAX_DIMS], hist;
    int64_t bins[AIRC_MAX_DIMS];
    const char *name = airc_meta_name(&a);
    AIRC_TRY(airc_meta_tensor(&a, "self", &x));
    int64_t nd = x.ndim ? x.shape[x.ndim - 1] : 0;
    if (strcmp(name, "_histogramdd_from_bin_tensors")) {
        AIRC_TRY(histogramdd_edges(&a, &x, bins, edges));
        if (!strcmp(name, "_histogramdd_bin_edges"))
            return airc_meta_set_tuple(n, edges, (size_t)nd);
    } else {
        const airc_value *v = airc_meta_get(&a, "bins");
        uint32_t nl = v && (v->kind == AIRC_VALUE_LIST || v->kind == AIRC_VALUE_TUPLE) ? v->len : 0;
        AIRC_TRY(histogramdd_dims(&a, &x, &nd));
        if ((int64_t)nl != nd)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: torch.histogramdd: expected %" PRId64
                             " sequences of bin edges for a %" PRId64
                             "-dimensional histogram but got %u",
                             a.op, nd, nd, nl);
        for (uint32_t d = 0; d < nl; d++)
            AIRC_TRY(airc_meta_value_tensor(&a, "bins", v->u.items[d], &edges[d]));
    }
    AIRC_TRY(histogramdd_inputs(&a, &x, edges, nd, &hist));
    return airc_meta_set(n, &hist);
}
