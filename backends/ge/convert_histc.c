/* histc and histogram (conv_histogram) to Ascend IR, composites (TorchAir has no converter): self
 * flattened in f32 (f64 for f64); the range (lo, hi) the given one, or
 * ReduceMin / ReduceMax of the data, widened by 1 each side where equal
 * (Equal, SelectV2); each element's bin Cast((x - lo) * bins / (hi - lo))
 * to int64, Minimum bins - 1, and bins (a spare bin) for elements outside
 * [lo, hi] or NaN; ScatterElements (add) of ones into bins + 1 zeros, the
 * first bins gathered, Cast to the result's dtype. torch's check that a
 * data range is finite reads data: not made here. */
#include "backends/cpu/k_shape_impl.h"
#include "backends/ge/ge_internal.h"
#include "ir/ir.h"
#include "ops/meta_util.h"

/* The range of x ([n] of ct): given, or the data's, widened where equal */
static airc_status range(airc_ge_builder *b, airc_ge_tensor x, airc_dtype ct, airc_ge_tensor *lo,
                         airc_ge_tensor *hi)
{
    double l = airc_ge_number_arg(b, 2, 0), h = airc_ge_number_arg(b, 3, 0);
    if (l != h) {
        AIRC_TRY(airc_ge_const_scalar(b, ct, l, lo));
        return airc_ge_const_scalar(b, ct, h, hi);
    }
    int64_t axis = 0;
    airc_ge_tensor t[2], eq;
    AIRC_TRY(airc_ge_reduce(b, "ReduceMin", x, &axis, 1, false, ct, 0, NULL, lo));
    AIRC_TRY(airc_ge_reduce(b, "ReduceMax", x, &axis, 1, false, ct, 0, NULL, hi));
    t[0] = *lo;
    t[1] = *hi;
    AIRC_TRY(airc_ge_ew_op(b, "Equal", t, 2, AIRC_DTYPE_BOOL, 0, NULL, &eq));
    airc_ge_tensor *ends[2] = {lo, hi};
    for (int i = 0; i < 2; i++) {
        t[0] = *ends[i];
        AIRC_TRY(airc_ge_const_scalar(b, ct, i ? 1 : -1, &t[1]));
        AIRC_TRY(airc_ge_ew_op(b, "Add", t, 2, ct, 0, NULL, &t[1]));
        AIRC_TRY(airc_ge_select(b, eq, t[1], *ends[i], ct, 0, NULL, ends[i]));
    }
    return AIRC_OK;
}

/* Whether each of x's [cells] elements is outside [lo, hi] by torch's
 * test: histc's !(lo <= x <= hi), which leaves NaN out, or (nan_in)
 * histogram's x < lo || x > hi, which lets it in */
static airc_status outside_range(airc_ge_builder *b, airc_ge_tensor x, airc_ge_tensor lo,
                                 airc_ge_tensor hi, int64_t cells, bool nan_in, airc_ge_tensor *out)
{
    airc_ge_tensor t[2], side;
    t[0] = x;
    t[1] = lo;
    AIRC_TRY(airc_ge_ew_op(b, nan_in ? "Less" : "GreaterEqual", t, 2, AIRC_DTYPE_BOOL, 1, &cells,
                           &side));
    t[1] = hi;
    AIRC_TRY(airc_ge_ew_op(b, nan_in ? "Greater" : "LessEqual", t, 2, AIRC_DTYPE_BOOL, 1, &cells,
                           &t[0]));
    t[1] = side;
    AIRC_TRY(airc_ge_ew_op(b, nan_in ? "LogicalOr" : "LogicalAnd", t, 2, AIRC_DTYPE_BOOL, 1, &cells,
                           &side));
    if (nan_in) {
        *out = side;
        return AIRC_OK;
    }
    return airc_ge_ew_op(b, "LogicalNot", &side, 1, AIRC_DTYPE_BOOL, 1, &cells, out);
}

/* pos ([cells] bins) Minimum bins - 1: an element at the last edge in the
 * last bin */
static airc_status at_most_last(airc_ge_builder *b, int64_t bins, int64_t cells,
                                airc_ge_tensor *pos)
{
    airc_ge_tensor t[2] = {*pos};
    AIRC_TRY(airc_ge_const_scalar(b, AIRC_DTYPE_I64, (double)(bins - 1), &t[1]));
    return airc_ge_ew_op(b, "Minimum", t, 2, AIRC_DTYPE_I64, 1, &cells, pos);
}

/* histc(self, bins, min, max) */
static airc_status conv_histc(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_tmeta *om = &n->out[0];
    airc_dtype ct = airc_ge_compute_dtype(om->dtype);
    int64_t bins = om->shape[0], cells = airc_tmeta_numel(&n->inputs[0]->out[0]);
    airc_ge_tensor x, lo, hi, t[2], pos, y;
    if (cells == 0) {
        AIRC_TRY(airc_ge_fill(b, om->dtype, 1, &bins, 0, &y));
        return airc_ge_set_result(b, 0, y);
    }
    AIRC_TRY(airc_ge_operand(b, 0, ct, &x));
    AIRC_TRY(airc_ge_reshape(b, x, ct, 1, &cells, &x));
    AIRC_TRY(range(b, x, ct, &lo, &hi));
    /* the bin: (x - lo) * bins / (hi - lo), truncated, at most bins - 1 */
    t[0] = x;
    t[1] = lo;
    AIRC_TRY(airc_ge_ew_op(b, "Sub", t, 2, ct, 1, &cells, &t[0]));
    AIRC_TRY(airc_ge_const_scalar(b, ct, (double)bins, &t[1]));
    AIRC_TRY(airc_ge_ew_op(b, "Mul", t, 2, ct, 1, &cells, &pos));
    t[0] = hi;
    t[1] = lo;
    AIRC_TRY(airc_ge_ew_op(b, "Sub", t, 2, ct, 0, NULL, &t[1]));
    t[0] = pos;
    AIRC_TRY(airc_ge_ew_op(b, "RealDiv", t, 2, ct, 1, &cells, &pos));
    AIRC_TRY(airc_ge_cast(b, pos, AIRC_DTYPE_I64, &pos));
    AIRC_TRY(at_most_last(b, bins, cells, &pos));
    AIRC_TRY(outside_range(b, x, lo, hi, cells, false, &t[0]));
    AIRC_TRY(airc_ge_const_scalar(b, AIRC_DTYPE_I64, (double)bins, &t[1]));
    AIRC_TRY(airc_ge_select(b, t[0], t[1], pos, AIRC_DTYPE_I64, 1, &cells, &pos));
    /* counts: ones added at the bins (elements outside: a spare bin) */
    int64_t spare = bins + 1;
    airc_ge_tensor zeros, ones;
    AIRC_TRY(airc_ge_fill(b, ct, 1, &spare, 0, &zeros));
    AIRC_TRY(airc_ge_fill(b, ct, 1, &cells, 1, &ones));
    AIRC_TRY(airc_ge_scatter_elements(b, zeros, pos, ones, 0, true, ct, 1, &spare, &y));
    AIRC_TRY(airc_ge_positions(b, 0, 1, &bins, &t[0]));
    AIRC_TRY(airc_ge_gather(b, y, t[0], 0, ct, 1, &bins, &y));
    AIRC_TRY(airc_ge_cast(b, y, om->dtype, &y));
    return airc_ge_set_result(b, 0, y);
}

/* histogram.bin_ct's edges over the data's range (x [n] of ct, n > 0):
 * ReduceMin / ReduceMax, widened by 0.5 each side where equal, then
 * torch's linspace: lo + step * i for the first half, hi - step * (bins -
 * i) for the rest (SelectV2 by a Const mask), step = (hi - lo) / bins. */
static airc_status data_edges(airc_ge_builder *b, airc_ge_tensor x, airc_dtype ct, int64_t bins,
                              airc_ge_tensor *edges)
{
    int64_t axis = 0, ne = bins + 1;
    airc_ge_tensor lo, hi, t[2], eq, step, low, high;
    AIRC_TRY(airc_ge_reduce(b, "ReduceMin", x, &axis, 1, false, ct, 0, NULL, &lo));
    AIRC_TRY(airc_ge_reduce(b, "ReduceMax", x, &axis, 1, false, ct, 0, NULL, &hi));
    t[0] = lo;
    t[1] = hi;
    AIRC_TRY(airc_ge_ew_op(b, "Equal", t, 2, AIRC_DTYPE_BOOL, 0, NULL, &eq));
    airc_ge_tensor *ends[2] = {&lo, &hi};
    for (int i = 0; i < 2; i++) {
        t[0] = *ends[i];
        AIRC_TRY(airc_ge_const_scalar(b, ct, i ? 0.5 : -0.5, &t[1]));
        AIRC_TRY(airc_ge_ew_op(b, "Add", t, 2, ct, 0, NULL, &t[1]));
        AIRC_TRY(airc_ge_select(b, eq, t[1], *ends[i], ct, 0, NULL, ends[i]));
    }
    t[0] = hi;
    t[1] = lo;
    AIRC_TRY(airc_ge_ew_op(b, "Sub", t, 2, ct, 0, NULL, &t[0]));
    AIRC_TRY(airc_ge_const_scalar(b, ct, (double)bins, &t[1]));
    AIRC_TRY(airc_ge_ew_op(b, "RealDiv", t, 2, ct, 0, NULL, &step));
    double *up = airc_arena_alloc(&b->mem, sizeof *up * (size_t)ne * 2), *down = up + ne;
    bool *first = airc_arena_alloc(&b->mem, sizeof *first * (size_t)ne);
    if (!up || !first)
        return airc_fail_oom("histogram's edge positions");
    for (int64_t i = 0; i < ne; i++) {
        first[i] = i < ne / 2;
        up[i] = first[i] ? (double)i : 0;
        down[i] = first[i] ? 0 : (double)(ne - i - 1);
    }
    airc_ge_tensor *side[2] = {&low, &high};
    for (int i = 0; i < 2; i++) {
        AIRC_TRY(airc_ge_const(b, AIRC_DTYPE_F64, 1, &ne, i ? down : up, &t[1]));
        AIRC_TRY(airc_ge_cast(b, t[1], ct, &t[1]));
        t[0] = step;
        AIRC_TRY(airc_ge_ew_op(b, "Mul", t, 2, ct, 1, &ne, &t[1]));
        t[0] = i ? hi : lo;
        AIRC_TRY(airc_ge_ew_op(b, i ? "Sub" : "Add", t, 2, ct, 1, &ne, side[i]));
    }
    AIRC_TRY(airc_ge_const(b, AIRC_DTYPE_BOOL, 1, &ne, first, &t[0]));
    return airc_ge_select(b, t[0], low, high, ct, 1, &ne, edges);
}

/* The edges of one dim of x's histogram ([ne] of ct, ne = bins + 1 >= 0)
 * over range r (given: a Const of torch's linspace, [0, 1] for an empty
 * column too), or the data's range of col ([cells], cells > 0):
 * data_edges' (ne 1: the minimum, widened where one value). */
static airc_status linear_edges(airc_ge_builder *b, airc_ge_tensor col, int64_t cells,
                                const double *r_given, airc_dtype ct, int64_t ne,
                                airc_ge_tensor *edges)
{
    if (r_given || !cells) {
        double r[2] = {0, 1};
        if (r_given)
            r[0] = r_given[0], r[1] = r_given[1];
        if (r[0] == r[1])
            r[0] -= 0.5, r[1] += 0.5;
        airc_tview ev = {.dtype = ct, .ndim = 1, .shape = {ne}, .strides = {1}};
        ev.data = airc_arena_alloc(&b->mem, airc_dtype_size(ct) * (size_t)(ne ? ne : 1));
        if (!ev.data)
            return airc_fail_oom("histogram's edges");
        airc_cpu_scalar lo = {true, 0, r[0]}, hi = {true, 0, r[1]};
        airc_cpu_space(&ev, &lo, &hi, 0, false);
        return airc_ge_const(b, ct, 1, &ne, ev.data, edges);
    }
    if (ne > 1)
        return data_edges(b, col, ct, ne - 1, edges);
    if (ne == 0)
        return airc_ge_fill(b, ct, 1, &ne, 0, edges);
    airc_ge_tensor e2, i0;
    AIRC_TRY(data_edges(b, col, ct, 1, &e2)); /* [lo, hi]: linspace of one step is lo */
    AIRC_TRY(airc_ge_positions(b, 0, 1, &ne, &i0));
    return airc_ge_gather(b, e2, i0, 0, ct, 1, &ne, edges);
}

/* The bin of each of col's cells ([cells] of ct) among edges ([bins +
 * 1]): SearchSorted(edges, x, right) - 1, Minimum bins - 1 (x at the last
 * edge); torch's linear estimate refined by a search of the neighbouring
 * edges (linear) finds the same bin, but for NaN, which torch lets in:
 * after every edge for given edges (SearchSorted's), bin 1 for linear
 * edges (SelectV2 on IsNan, or on edges all equal, whose positions are
 * NaN too). *outside: x below edges[0] or above edges[bins]. */
static airc_status dim_bins(airc_ge_builder *b, airc_ge_tensor col, airc_ge_tensor edges,
                            int64_t bins, int64_t cells, bool linear, airc_dtype ct,
                            airc_ge_tensor *pos, airc_ge_tensor *outside)
{
    airc_ge_tensor lo, hi, t[2];
    AIRC_TRY(airc_ge_const_scalar(b, AIRC_DTYPE_I64, 0, &t[0]));
    AIRC_TRY(airc_ge_gather(b, edges, t[0], 0, ct, 0, NULL, &lo));
    AIRC_TRY(airc_ge_const_scalar(b, AIRC_DTYPE_I64, (double)bins, &t[0]));
    AIRC_TRY(airc_ge_gather(b, edges, t[0], 0, ct, 0, NULL, &hi));
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "SearchSorted", &op));
    AIRC_TRY(airc_ge_op_input(op, "sorted_sequence", edges));
    AIRC_TRY(airc_ge_op_input(op, "values", col));
    AIRC_TRY(airc_ge_op_attr_dtype(op, "dtype", AIRC_DTYPE_I64));
    AIRC_TRY(airc_ge_op_attr_bool(op, "right", 1));
    AIRC_TRY(airc_ge_op_output(op, "out", AIRC_DTYPE_I64, 1, &cells, pos));
    t[0] = *pos;
    AIRC_TRY(airc_ge_const_scalar(b, AIRC_DTYPE_I64, 1, &t[1]));
    AIRC_TRY(airc_ge_ew_op(b, "Sub", t, 2, AIRC_DTYPE_I64, 1, &cells, pos));
    if (linear) {
        airc_ge_tensor nan;
        AIRC_TRY(airc_ge_ew_op(b, "IsNan", &col, 1, AIRC_DTYPE_BOOL, 1, &cells, &nan));
        t[0] = lo;
        t[1] = hi;
        AIRC_TRY(airc_ge_ew_op(b, "Equal", t, 2, AIRC_DTYPE_BOOL, 0, NULL, &t[0]));
        t[1] = nan;
        AIRC_TRY(airc_ge_ew_op(b, "LogicalOr", t, 2, AIRC_DTYPE_BOOL, 1, &cells, &nan));
        AIRC_TRY(airc_ge_const_scalar(b, AIRC_DTYPE_I64, bins > 1, &t[0]));
        AIRC_TRY(airc_ge_select(b, nan, t[0], *pos, AIRC_DTYPE_I64, 1, &cells, pos));
    }
    AIRC_TRY(at_most_last(b, bins, cells, pos));
    return outside_range(b, col, lo, hi, cells, true, outside);
}

/* The histogram of the [m] rows' flat bins pos (outside: to a spare bin):
 * ScatterElements (add) of ones or the weights (argument wi) into zeros,
 * the first `total` by GatherV2, Reshaped to (nd, bins) */
static airc_status scatter_counts(airc_ge_builder *b, airc_ge_tensor pos, airc_ge_tensor outside,
                                  int64_t m, size_t wi, airc_dtype ct, int32_t nd,
                                  const int64_t *bins, airc_ge_tensor *y)
{
    int64_t total = 1;
    for (int32_t d = 0; d < nd; d++)
        total *= bins[d];
    int64_t spare = total + 1;
    airc_ge_tensor zeros, add, t;
    AIRC_TRY(airc_ge_const_scalar(b, AIRC_DTYPE_I64, (double)total, &t));
    AIRC_TRY(airc_ge_select(b, outside, t, pos, AIRC_DTYPE_I64, 1, &m, &pos));
    AIRC_TRY(airc_ge_fill(b, ct, 1, &spare, 0, &zeros));
    if (airc_ge_arg_present(b, wi)) {
        AIRC_TRY(airc_ge_operand(b, wi, ct, &add));
        AIRC_TRY(airc_ge_reshape(b, add, ct, 1, &m, &add));
    } else {
        AIRC_TRY(airc_ge_fill(b, ct, 1, &m, 1, &add));
    }
    AIRC_TRY(airc_ge_scatter_elements(b, zeros, pos, add, 0, true, ct, 1, &spare, y));
    AIRC_TRY(airc_ge_positions(b, 0, 1, &total, &t));
    AIRC_TRY(airc_ge_gather(b, *y, t, 0, ct, 1, &total, y));
    return airc_ge_reshape(b, *y, ct, nd, bins, y);
}

/* density: y (nd, bins) RealDiv its ReduceSum, then by each dim's bin
 * widths (Sub of the edges GatherV2'd, Reshaped along the dim) */
static airc_status density(airc_ge_builder *b, airc_ge_tensor *y, const airc_ge_tensor *edges,
                           airc_dtype ct, int32_t nd, const int64_t *bins)
{
    airc_ge_tensor total, t[2], w[2];
    int64_t axes[AIRC_MAX_DIMS], shape[AIRC_MAX_DIMS];
    for (int32_t d = 0; d < nd; d++)
        axes[d] = d;
    AIRC_TRY(airc_ge_reduce(b, "ReduceSum", *y, axes, (size_t)nd, false, ct, 0, NULL, &total));
    t[0] = *y;
    t[1] = total;
    AIRC_TRY(airc_ge_ew_op(b, "RealDiv", t, 2, ct, nd, bins, y));
    for (int32_t d = 0; d < nd; d++) {
        for (int i = 0; i < 2; i++) {
            AIRC_TRY(airc_ge_positions(b, 1 - i, 1, &bins[d], &t[0]));
            AIRC_TRY(airc_ge_gather(b, edges[d], t[0], 0, ct, 1, &bins[d], &w[i]));
        }
        AIRC_TRY(airc_ge_ew_op(b, "Sub", w, 2, ct, 1, &bins[d], &w[0]));
        for (int32_t i = 0; i < nd; i++)
            shape[i] = i == d ? bins[d] : 1;
        AIRC_TRY(airc_ge_reshape(b, w[0], ct, nd, shape, &w[0]));
        t[0] = *y;
        t[1] = w[0];
        AIRC_TRY(airc_ge_ew_op(b, "RealDiv", t, 2, ct, nd, bins, y));
    }
    return AIRC_OK;
}

/* histogram.bin_ct(self, bins, *, range, weight, density) and
 * .bins_tensor(self, bins, *, weight, density): a composite (TorchAir has
 * no converter): self flattened is one dim of dim_bins, its edges
 * bins_tensor's own or linear_edges; scatter_counts, density. A data
 * range that is not finite is torch's data check: not made here. */
static airc_status conv_histogram(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_tmeta *hm = &n->out[0];
    airc_dtype ct = hm->dtype;
    bool tensor_bins =
        airc_ge_arg(b, 1) && airc_value_get_kind(airc_ge_arg(b, 1)) == AIRC_VALUE_NODE;
    size_t wi = tensor_bins ? 2 : 3;
    int64_t bins = hm->shape[0], cells = 1;
    airc_ge_tensor x, edges, pos, outside, y;
    int32_t xn = 0;
    const int64_t *xs;
    AIRC_TRY(airc_ge_operand(b, 0, ct, &x));
    AIRC_TRY(airc_ge_tensor_meta(b, x, NULL, &xn, &xs));
    for (int32_t i = 0; i < xn; i++)
        cells *= xs[i];
    if (cells)
        AIRC_TRY(airc_ge_reshape(b, x, ct, 1, &cells, &x));
    double r[2];
    bool given = !tensor_bins && airc_histogram_range(airc_ge_arg(b, 2), r, 2) >= 0;
    if (tensor_bins)
        AIRC_TRY(airc_ge_operand(b, 1, ct, &edges));
    else
        AIRC_TRY(linear_edges(b, x, cells, given ? r : NULL, ct, bins + 1, &edges));
    if (!cells) {
        AIRC_TRY(airc_ge_fill(b, ct, 1, &bins, 0, &y));
    } else {
        AIRC_TRY(dim_bins(b, x, edges, bins, cells, !tensor_bins, ct, &pos, &outside));
        AIRC_TRY(scatter_counts(b, pos, outside, cells, wi, ct, 1, &bins, &y));
    }
    if (airc_ge_bool_arg(b, wi + 1, false))
        AIRC_TRY(density(b, &y, &edges, ct, 1, &bins));
    AIRC_TRY(airc_ge_set_result(b, 0, y));
    if (tensor_bins) {
        static const char *const names[] = {"x"};
        airc_ge_op *op;
        AIRC_TRY(airc_ge_op_create(b, "Identity", &op));
        AIRC_TRY(airc_ge_op_input(op, names[0], edges));
        AIRC_TRY(airc_ge_op_output_like_node(op, "y", 1, &edges));
    }
    return airc_ge_set_result(b, 1, edges);
}

/* self ([..., nd]) Reshaped to [m, nd], each column d GatherV2'd into
 * cols[d] ([m]); *m the row count */
static airc_status dd_columns(airc_ge_builder *b, airc_dtype ct, int64_t nd, airc_ge_tensor *cols,
                              int64_t *m)
{
    airc_ge_tensor x, i;
    int32_t xn = 0;
    const int64_t *xs;
    AIRC_TRY(airc_ge_operand(b, 0, ct, &x));
    AIRC_TRY(airc_ge_tensor_meta(b, x, NULL, &xn, &xs));
    *m = 1;
    for (int32_t k = 0; k + 1 < xn; k++)
        *m *= xs[k];
    int64_t s2[2] = {*m, nd};
    AIRC_TRY(airc_ge_reshape(b, x, ct, 2, s2, &x));
    for (int64_t d = 0; d < nd; d++) {
        AIRC_TRY(airc_ge_const_scalar(b, AIRC_DTYPE_I64, (double)d, &i));
        AIRC_TRY(airc_ge_gather(b, x, i, 1, ct, 1, m, &cols[d]));
    }
    return AIRC_OK;
}

/* The linear edges of each dim of _histogramdd_bin_edges /
 * _from_bin_cts (ne[d] edges each; the range argument 2) */
static airc_status dd_linear_edges(airc_ge_builder *b, const airc_ge_tensor *cols, int64_t m,
                                   int64_t nd, airc_dtype ct, const int64_t *ne,
                                   airc_ge_tensor *edges)
{
    double r[2 * AIRC_MAX_DIMS];
    int32_t nr = airc_histogram_range(airc_ge_arg(b, 2), r, 2 * AIRC_MAX_DIMS);
    for (int64_t d = 0; d < nd; d++)
        AIRC_TRY(
            linear_edges(b, cols[d], m, nr > 2 * d + 1 ? &r[2 * d] : NULL, ct, ne[d], &edges[d]));
    return AIRC_OK;
}

/* _histogramdd_bin_edges(self, bins, *, range, weight, density) ->
 * Tensor[]: each dim's linear_edges */
static airc_status conv_histogramdd_bin_edges(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    int64_t nd = n->nout, m, ne[AIRC_MAX_DIMS];
    if (nd > AIRC_MAX_DIMS)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: more edge lists than dims", n->name);
    airc_ge_tensor cols[AIRC_MAX_DIMS], edges[AIRC_MAX_DIMS];
    airc_dtype ct = nd ? n->out[0].dtype : AIRC_DTYPE_F32;
    for (int64_t d = 0; d < nd; d++)
        ne[d] = n->out[d].shape[0];
    if (!nd)
        return AIRC_OK;
    AIRC_TRY(dd_columns(b, ct, nd, cols, &m));
    AIRC_TRY(dd_linear_edges(b, cols, m, nd, ct, ne, edges));
    for (int64_t d = 0; d < nd; d++)
        AIRC_TRY(airc_ge_set_result(b, (size_t)d, edges[d]));
    return AIRC_OK;
}

/* _histogramdd_from_bin_cts(self, bins, *, range, weight, density) and
 * _from_bin_tensors(self, bins, *, weight, density): each column's bins
 * (dim_bins over its linear edges or its given ones), the row's flat bin
 * sum_d pos_d * stride_d (a spare bin when any coordinate is outside),
 * scatter_counts, density. */
static airc_status conv_histogramdd(airc_ge_builder *b, const airc_node *n, void *ud)
{
    bool given = ud != NULL;
    const airc_tmeta *hm = &n->out[0];
    airc_dtype ct = hm->dtype;
    int32_t nd = hm->ndim;
    size_t wi = given ? 2 : 3;
    int64_t m = 0, ne[AIRC_MAX_DIMS];
    airc_ge_tensor cols[AIRC_MAX_DIMS], edges[AIRC_MAX_DIMS], y, flat, outside;
    for (int32_t d = 0; d < nd; d++)
        ne[d] = hm->shape[d] + 1;
    if (nd)
        AIRC_TRY(dd_columns(b, ct, nd, cols, &m));
    if (given) {
        for (int32_t d = 0; d < nd; d++) {
            AIRC_TRY(airc_ge_input_list_item(b, 1, (size_t)d, &edges[d]));
            AIRC_TRY(airc_ge_cast(b, edges[d], ct, &edges[d]));
        }
    } else if (nd) {
        AIRC_TRY(dd_linear_edges(b, cols, m, nd, ct, ne, edges));
    }
    if (!nd || !m) {
        AIRC_TRY(airc_ge_fill(b, ct, nd, hm->shape, 0, &y));
    } else {
        for (int32_t d = 0; d < nd; d++) {
            airc_ge_tensor pos, out, t[2];
            AIRC_TRY(dim_bins(b, cols[d], edges[d], hm->shape[d], m, !given, ct, &pos, &out));
            if (d) {
                t[0] = flat;
                AIRC_TRY(airc_ge_const_scalar(b, AIRC_DTYPE_I64, (double)hm->shape[d], &t[1]));
                AIRC_TRY(airc_ge_ew_op(b, "Mul", t, 2, AIRC_DTYPE_I64, 1, &m, &t[0]));
                t[1] = pos;
                AIRC_TRY(airc_ge_ew_op(b, "Add", t, 2, AIRC_DTYPE_I64, 1, &m, &pos));
                t[0] = outside;
                t[1] = out;
                AIRC_TRY(airc_ge_ew_op(b, "LogicalOr", t, 2, AIRC_DTYPE_BOOL, 1, &m, &out));
            }
            flat = pos;
            outside = out;
        }
        AIRC_TRY(scatter_counts(b, flat, outside, m, wi, ct, nd, hm->shape, &y));
    }
    if (airc_ge_bool_arg(b, wi + 1, false))
        AIRC_TRY(density(b, &y, edges, ct, nd, hm->shape));
    return airc_ge_set_result(b, 0, y);
}

static const ge_conv_entry conv[] = {
    {"aten.histc.default", conv_histc, NULL},
    {"aten.histogram.bin_ct", conv_histogram, NULL},
    {"aten.histogram.bins_tensor", conv_histogram, NULL},
    {"aten._histogramdd_bin_edges.default", conv_histogramdd_bin_edges, NULL},
    {"aten._histogramdd_from_bin_cts.default", conv_histogramdd, NULL},
    {"aten._histogramdd_from_bin_tensors.default", conv_histogramdd, "given"},
};

const ge_family airc_ge_family_histc = {conv, sizeof conv / sizeof *conv, NULL, 0};
