/* Reduce-family kernel of histc(self, bins, min, max): counts of self's
 * elements in `bins` equal bins over [min, max] (with min == max, the
 * data's range, widened by 1 on each side when that is one value too), as
 * torch's linear-interpolation histogram: bin (x - lo) * bins / (hi - lo)
 * in the input's float type (double for f64, float else: a bf16 self
 * counts in f32, rounded once, where torch works in bf16), x == hi in the
 * last bin. Elements outside the range, and NaN (whose index torch
 * computes from a cast of NaN), are not counted. A data range that is not
 * finite fails, as torch's check.
 * The histogram family (histogram, and the _histogramdd_* ops that
 * torch.histogramdd records) shares one per-dim binning: torch's linspace
 * edges and its local search, or std::upper_bound over given edges. */
#include "backends/cpu/k_reduce_internal.h"
#include "backends/cpu/k_shape_impl.h"
#include "ops/meta_util.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

/* torch's linear-interpolation bin of v in [lo, hi] (width hi - lo in the
 * input's type): (v - lo) * bins / width, each step rounded to dt (the
 * input's type; histc's f32 for bf16), truncated; bins itself for v ==
 * hi. -1 where that is NaN (v NaN, or 0 / 0 for edges all equal). */
static int64_t linear_bin(double v, double lo, double width, int64_t bins, airc_dtype dt)
{
#define R(x) airc_cpu_round_f64(dt, (x))
    double t = R(R(R(v - lo) * R((double)bins)) / width);
#undef R
    return t >= 0 && t < 9e18 ? (int64_t)t : -1; /* v in [lo, hi]: t <= bins but for rounding */
}

/* lo = min, hi = max of x's elements, NaN winning (torch's aminmax) */
static void data_range(const airc_tview *x, double *lo, double *hi)
{
    int64_t n = airc_cpu_numel(x), idx[AIRC_MAX_DIMS] = {0};
    *lo = INFINITY, *hi = -INFINITY;
    for (int64_t e = 0; e < n; e++, airc_cpu_next_index(idx, x->shape, x->ndim)) {
        double v = airc_cpu_load_f64(airc_cpu_at(x, idx), x->dtype);
        if (!isnan(*lo) && (isnan(v) || v < *lo))
            *lo = v;
        if (!isnan(*hi) && (isnan(v) || v > *hi))
            *hi = v;
    }
}

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
    if (lo == hi && n > 0)
        data_range(x, &lo, &hi);
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
    double width = dbl ? hi - lo : (float)(hi - lo);
    for (int64_t e = 0; e < n; e++, airc_cpu_next_index(idx, x->shape, x->ndim)) {
        double v = airc_cpu_load_f64(airc_cpu_at(x, idx), x->dtype);
        if (!(v >= lo && v <= hi))
            continue;
        int64_t b = linear_bin(v, lo, width, bins, dbl ? AIRC_DTYPE_F64 : AIRC_DTYPE_F32);
        count[b >= bins || b < 0 ? bins - 1 : b] += 1;
    }
    for (int64_t b = 0; b < bins; b++)
        airc_cpu_store_f64((char *)o->data + b * o->strides[0] * (int64_t)es, o->dtype, count[b]);
    airc_free(k->ctx, count);
    return AIRC_OK;
}

/* std::upper_bound over e[first, last): the first position whose edge is
 * above v (edges out of order give what the bisection gives) */
static int64_t upper_bound(const double *e, int64_t first, int64_t last, double v)
{
    int64_t len = last - first;
    while (len > 0) {
        int64_t half = len >> 1;
        if (v < e[first + half]) {
            len = half;
        } else {
            first += half + 1;
            len -= half + 1;
        }
    }
    return first;
}

/* One dim of a histogram: its bins + 1 edges (read as doubles) and how
 * an element finds its bin there. */
typedef struct hist_dim {
    double *edge;
    int64_t bins;
    double lo, hi, width; /* edge[0], edge[bins], their difference in the input's type */
} hist_dim;

/* The bin of v in dim h, as torch's build finds it: bins_tensor's (search)
 * std::upper_bound over the edges, else the linear position refined by a
 * search of the edges next to it (NaN, whose cast to int64 is INT64_MIN:
 * the local window wraps to [edges - 1, edges + 2), whose search ends in
 * bin 1); v at the last edge in the last bin. -1 for v outside [edge[0],
 * edge[bins]] (NaN is let through, as torch's test does) and, for edges
 * out of order, a bin outside the result (where torch writes out of
 * bounds). */
static int64_t dim_bin(const hist_dim *h, double v, bool search, airc_dtype dt)
{
    if (v < h->lo || v > h->hi)
        return -1;
    int64_t b, bins = h->bins;
    if (search) {
        b = upper_bound(h->edge, 0, bins + 1, v) - 1;
    } else if ((b = linear_bin(v, h->lo, h->width, bins, dt)) < 0) {
        b = bins > 1;
    } else {
        int64_t from = b - 1 > 0 ? b - 1 : 0, to = b + 2 < bins + 1 ? b + 2 : bins + 1;
        b = upper_bound(h->edge, from, to, v) - 1;
    }
    b -= b == bins;
    return b < 0 || b >= bins ? -1 : b;
}

/* Edges e (dtype of x) into h->edge (bins + 1 doubles) */
static void load_edges(hist_dim *h, const airc_tview *e, airc_dtype dt)
{
    size_t es = airc_dtype_size(e->dtype);
    for (int64_t b = 0; b <= h->bins; b++)
        h->edge[b] =
            airc_cpu_load_f64((const char *)e->data + b * e->strides[0] * (int64_t)es, e->dtype);
    h->lo = h->edge[0];
    h->hi = h->edge[h->bins];
    h->width = airc_cpu_round_f64(dt, h->hi - h->lo);
}

/* The edge range of dim `dim`: r_given, or the data's of column col ([0,
 * 1] when empty), widened by 0.5 each side where one value, into r. A
 * data range that is not finite fails, as torch's check. */
static airc_status edge_range(airc_kernel_ctx *k, const airc_tview *col, const double *r_given,
                              int64_t dim, double r[2])
{
    r[0] = 0;
    r[1] = 1;
    if (r_given) {
        r[0] = r_given[0];
        r[1] = r_given[1];
    } else if (airc_cpu_numel(col) > 0) {
        data_range(col, &r[0], &r[1]);
    }
    if (!(isfinite(r[0]) && isfinite(r[1])))
        return airc_cpu_fail(k, AIRC_E_RUNTIME,
                             "torch.histogramdd: dimension %" PRId64
                             "'s range [%g, %g] is not finite",
                             dim, r[0], r[1]);
    if (r[0] == r[1]) {
        r[0] -= 0.5;
        r[1] += 0.5;
    }
    return AIRC_OK;
}

/* torch's linspace(r[0], r[1], eo's length) into eo */
static void linear_edges(const airc_tview *eo, const double r[2])
{
    airc_cpu_scalar lo = {true, 0, r[0]}, hi = {true, 0, r[1]};
    airc_tview e = *eo;
    airc_cpu_space(&e, &lo, &hi, 0, false);
}

/* The histogram of the m rows of nd coordinates of x (element (r, d) at
 * flat position r * nd + d), each row in the bin its coordinates find
 * (search: bins given as tensors), counted or its weight w (flat position
 * r) added in x's type, row by row; a row with a coordinate outside its
 * dim's edges is left out. density divides by the total, then by each
 * dim's bin width. Written to ho ([bins...], x's dtype). */
static airc_status accumulate(airc_kernel_ctx *k, const airc_tview *x, int64_t m, int64_t nd,
                              const hist_dim *dims, bool search, const airc_tview *w, bool density,
                              const airc_tview *ho)
{
    airc_dtype dt = x->dtype;
    int64_t cells = 1, idx[AIRC_MAX_DIMS] = {0};
    for (int64_t d = 0; d < nd; d++)
        cells *= dims[d].bins;
    double *hist = airc_malloc(k->ctx, (size_t)cells * sizeof *hist);
    if (!hist)
        return airc_cpu_oom(k, "the histogram");
    for (int64_t c = 0; c < cells; c++)
        hist[c] = 0;
    size_t es = airc_dtype_size(dt);
    for (int64_t r = 0; r < m && nd > 0; r++) {
        int64_t at = 0, b = 0;
        for (int64_t d = 0; d < nd && b >= 0; d++) {
            double v = airc_cpu_load_f64(
                (const char *)x->data + airc_cpu_flat_offset(x, 0, r * nd + d) * (int64_t)es, dt);
            b = dim_bin(&dims[d], v, search, dt);
            at = at * dims[d].bins + b;
        }
        if (b < 0)
            continue;
        double add = 1;
        if (w)
            add = airc_cpu_load_f64(
                (const char *)w->data + airc_cpu_flat_offset(w, 0, r) * (int64_t)es, dt);
        hist[at] = airc_cpu_round_f64(dt, hist[at] + add);
    }
    if (density) {
        double total = 0; /* torch's hist.sum(): accumulated wider, rounded once */
        for (int64_t c = 0; c < cells; c++)
            total += hist[c];
        total = airc_cpu_round_f64(dt, total);
        for (int64_t c = 0; c < cells; c++)
            hist[c] = airc_cpu_round_f64(dt, hist[c] / total);
        for (int64_t d = 0, inner = cells; d < nd; d++) {
            inner /= dims[d].bins;
            for (int64_t c = 0; c < cells; c++) {
                int64_t b = c / inner % dims[d].bins;
                double width = airc_cpu_round_f64(dt, dims[d].edge[b + 1] - dims[d].edge[b]);
                hist[c] = airc_cpu_round_f64(dt, hist[c] / width);
            }
        }
    }
    for (int64_t c = 0; c < cells; c++, airc_cpu_next_index(idx, ho->shape, ho->ndim))
        airc_cpu_store_f64(airc_cpu_at(ho, idx), ho->dtype, hist[c]);
    airc_free(k->ctx, hist);
    return AIRC_OK;
}

/* histogram.bin_ct(self, bins, *, range, weight, density) and
 * histogram.bins_tensor(self, bins, *, weight, density): the histogram
 * of self's elements (one dim) over edges of torch's linspace or the
 * given ones. */
airc_status airc_kred_histogram(airc_kernel_ctx *k, void *user_data)
{
    (void)user_data;
    const airc_tview *x = k->in && k->nargs > 1 ? k->in[0] : NULL, *ho = &k->out[0];
    const airc_tview *eo = &k->out[1];
    if (!x || k->nout != 2 || ho->ndim != 1 || eo->ndim != 1 || eo->shape[0] != ho->shape[0] + 1)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "results not as the meta says");
    bool tensor_bins = k->in[1] != NULL;
    size_t wi = tensor_bins ? 2 : 3;
    const airc_tview *w = k->nargs > wi ? k->in[wi] : NULL;
    double given[2], r[2];
    int32_t nr =
        tensor_bins ? -1 : airc_histogram_range(k->nargs > 2 ? k->args[2] : NULL, given, 2);
    if (tensor_bins) {
        airc_cpu_copy(eo, k->in[1]);
    } else {
        AIRC_TRY(edge_range(k, x, nr >= 0 ? given : NULL, 0, r));
        linear_edges(eo, r);
    }
    hist_dim h = {.bins = ho->shape[0]};
    h.edge = airc_malloc(k->ctx, (size_t)(h.bins + 1) * sizeof *h.edge);
    if (!h.edge)
        return airc_cpu_oom(k, "the histogram's edges");
    load_edges(&h, eo, x->dtype);
    airc_status st = accumulate(k, x, airc_cpu_numel(x), 1, &h, tensor_bins, w,
                                airc_cpu_arg_bool(k, wi + 1, false), ho);
    airc_free(k->ctx, h.edge);
    return st;
}

/* The edge ranges of _histogramdd_bin_edges / _from_bin_cts for each of
 * the nd dims of x ([..., nd]): range[2d, 2d + 1], or column d's data
 * range (each checked before any edge is made, as torch's). */
static airc_status dd_ranges(airc_kernel_ctx *k, const airc_tview *x, int64_t nd, double *r)
{
    double given[2 * AIRC_MAX_DIMS];
    int32_t nr = airc_histogram_range(k->nargs > 2 ? k->args[2] : NULL, given, 2 * AIRC_MAX_DIMS);
    for (int64_t d = 0; d < nd; d++) {
        airc_tview col = *x;
        airc_cpu_select(&col, x->ndim - 1, d);
        AIRC_TRY(edge_range(k, &col, nr > 2 * d + 1 ? &given[2 * d] : NULL, d, &r[2 * d]));
    }
    return AIRC_OK;
}

/* x's coordinate count nd (its last dim), or -1 when x is not [..., nd]
 * with nd within airc's dims */
static int64_t dd_dims(const airc_tview *x)
{
    int64_t nd = x && x->ndim >= 2 ? x->shape[x->ndim - 1] : -1;
    return nd <= AIRC_MAX_DIMS ? nd : -1;
}

/* _histogramdd_bin_edges(self, bins, *, range, weight, density) ->
 * Tensor[]: each dim's linspace edges */
airc_status airc_kred_histogramdd_bin_edges(airc_kernel_ctx *k, void *user_data)
{
    (void)user_data;
    const airc_tview *x = k->in && k->nargs > 1 ? k->in[0] : NULL;
    int64_t nd = dd_dims(x);
    double r[2 * AIRC_MAX_DIMS];
    if (nd < 0 || (int64_t)k->nout != nd)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "results not as the meta says");
    AIRC_TRY(dd_ranges(k, x, nd, r));
    for (int64_t d = 0; d < nd; d++)
        linear_edges(&k->out[d], &r[2 * d]);
    return AIRC_OK;
}

/* _histogramdd_from_bin_cts(self, bins, *, range, weight, density) and
 * _histogramdd_from_bin_tensors(self, bins, *, weight, density): the
 * histogram of self's rows over the linspace edges (found by the linear
 * position and a local search) or the given ones (std::upper_bound). */
airc_status airc_kred_histogramdd(airc_kernel_ctx *k, void *user_data)
{
    (void)user_data;
    const airc_tview *x = k->in && k->nargs > 1 ? k->in[0] : NULL, *ho = &k->out[0];
    int64_t nd = dd_dims(x), total = 0;
    bool search = k->op && strstr(k->op->qualname, "bin_tensors"); /* bins may be [] */
    if (nd < 0 || k->nout != 1 || ho->ndim != nd ||
        (search && nd && (!k->in_list || !k->in_list[1] || k->in_list_len[1] != nd)))
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "self and bins not as the meta says");
    size_t wi = search ? 2 : 3;
    const airc_tview *w = k->nargs > wi ? k->in[wi] : NULL;
    double r[2 * AIRC_MAX_DIMS];
    if (!search)
        AIRC_TRY(dd_ranges(k, x, nd, r));
    hist_dim dims[AIRC_MAX_DIMS];
    for (int64_t d = 0; d < nd; d++)
        total += ho->shape[d] + 1;
    double *edges = airc_malloc(k->ctx, (size_t)(total ? total : 1) * sizeof *edges);
    void *scratch = airc_malloc(k->ctx, (size_t)(total ? total : 1) * airc_dtype_size(x->dtype));
    airc_status st = AIRC_OK;
    if (!edges || !scratch)
        st = airc_cpu_oom(k, "the histogram's edges");
    for (int64_t d = 0, at = 0; st == AIRC_OK && d < nd; at += ho->shape[d++] + 1) {
        dims[d] = (hist_dim){.edge = edges + at, .bins = ho->shape[d]};
        airc_tview e = {.dtype = x->dtype, .ndim = 1, .shape = {ho->shape[d] + 1}, .strides = {1}};
        e.data = (char *)scratch + at * (int64_t)airc_dtype_size(x->dtype);
        if (search)
            e = k->in_list[1][d];
        else
            linear_edges(&e, &r[2 * d]);
        load_edges(&dims[d], &e, x->dtype);
    }
    int64_t m = nd > 0 ? airc_cpu_numel(x) / nd : 0;
    if (st == AIRC_OK)
        st = accumulate(k, x, m, nd, dims, search, w, airc_cpu_arg_bool(k, wi + 1, false), ho);
    airc_free(k->ctx, edges);
    airc_free(k->ctx, scratch);
    return st;
}
