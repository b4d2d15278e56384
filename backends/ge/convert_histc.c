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

/* The bins of x's [cells] elements: pos at most bins - 1 (x at the last
 * edge), bins (a spare bin) where x is outside [lo, hi] by torch's test:
 * histc's !(lo <= x <= hi), which leaves NaN out, or (nan_in)
 * histogram's x < lo || x > hi, which lets it in */
static airc_status bin_or_spare(airc_ge_builder *b, airc_ge_tensor x, airc_ge_tensor lo,
                                airc_ge_tensor hi, int64_t bins, int64_t cells, bool nan_in,
                                airc_ge_tensor *pos)
{
    airc_ge_tensor t[2], side;
    t[0] = *pos;
    AIRC_TRY(airc_ge_const_scalar(b, AIRC_DTYPE_I64, (double)(bins - 1), &t[1]));
    AIRC_TRY(airc_ge_ew_op(b, "Minimum", t, 2, AIRC_DTYPE_I64, 1, &cells, pos));
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
    AIRC_TRY(airc_ge_const_scalar(b, AIRC_DTYPE_I64, (double)bins, &t[0]));
    return nan_in ? airc_ge_select(b, side, t[0], *pos, AIRC_DTYPE_I64, 1, &cells, pos)
                  : airc_ge_select(b, side, *pos, t[0], AIRC_DTYPE_I64, 1, &cells, pos);
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
    AIRC_TRY(bin_or_spare(b, x, lo, hi, bins, cells, false, &pos));
    /* counts: ones added at the bins */
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

/* histogram.bin_ct(self, bins, *, range, weight, density) and
 * .bins_tensor(self, bins, *, weight, density): a composite (TorchAir has
 * no converter). The edges: bins_tensor's own; bin_ct's over a given
 * range (or [0, 1] for an empty self) a Const of torch's linspace, over
 * the data's range data_edges'. Each element's bin is SearchSorted(edges,
 * x, right) - 1, Minimum bins - 1 (x at the last edge); torch's bin_ct
 * refines its linear estimate by a search of the neighbouring edges,
 * which finds the same bin. Elements below edges[0] or above edges[bins]
 * go to a spare bin; NaN, which torch counts, lands where torch's build
 * puts it: after every edge for bins_tensor (SearchSorted's), in bin 1
 * for bin_ct (SelectV2 on IsNan, or on edges all equal, whose positions
 * are NaN too); ScatterElements (add) of ones or the weights
 * into zeros, the first bins by GatherV2; density: RealDiv by the
 * ReduceSum, then by each bin's width (Sub of the edges GatherV2'd). A
 * data range that is not finite is torch's data check: not made here. */
static airc_status conv_histogram(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_tmeta *hm = &n->out[0];
    airc_dtype ct = hm->dtype;
    bool tensor_bins =
        airc_ge_arg(b, 1) && airc_value_get_kind(airc_ge_arg(b, 1)) == AIRC_VALUE_NODE;
    size_t wi = tensor_bins ? 2 : 3;
    int64_t bins = hm->shape[0], ne = bins + 1, cells = 1;
    airc_ge_tensor x, edges, t[2], pos, y;
    int32_t xn = 0;
    const int64_t *xs;
    AIRC_TRY(airc_ge_operand(b, 0, ct, &x));
    AIRC_TRY(airc_ge_tensor_meta(b, x, NULL, &xn, &xs));
    for (int32_t i = 0; i < xn; i++)
        cells *= xs[i];
    if (cells)
        AIRC_TRY(airc_ge_reshape(b, x, ct, 1, &cells, &x));
    double r[2] = {0, 1};
    const airc_value *rv = tensor_bins ? NULL : airc_ge_arg(b, 2);
    bool given = !tensor_bins && airc_histogram_range(rv, r, 2) >= 0;
    if (tensor_bins) {
        AIRC_TRY(airc_ge_operand(b, 1, ct, &edges));
    } else if (given || !cells) {
        if (r[0] == r[1])
            r[0] -= 0.5, r[1] += 0.5;
        airc_tview ev = {.dtype = ct, .ndim = 1, .shape = {ne}, .strides = {1}};
        ev.data = airc_arena_alloc(&b->mem, airc_dtype_size(ct) * (size_t)ne);
        if (!ev.data)
            return airc_fail_oom("histogram's edges");
        airc_cpu_scalar lo = {true, 0, r[0]}, hi = {true, 0, r[1]};
        airc_cpu_space(&ev, &lo, &hi, 0, false);
        AIRC_TRY(airc_ge_const(b, ct, 1, &ne, ev.data, &edges));
    } else {
        AIRC_TRY(data_edges(b, x, ct, bins, &edges));
    }
    if (!cells) {
        AIRC_TRY(airc_ge_fill(b, ct, 1, &bins, 0, &y));
    } else {
        airc_ge_tensor lo, hi;
        AIRC_TRY(airc_ge_const_scalar(b, AIRC_DTYPE_I64, 0, &t[0]));
        AIRC_TRY(airc_ge_gather(b, edges, t[0], 0, ct, 0, NULL, &lo));
        AIRC_TRY(airc_ge_const_scalar(b, AIRC_DTYPE_I64, (double)bins, &t[0]));
        AIRC_TRY(airc_ge_gather(b, edges, t[0], 0, ct, 0, NULL, &hi));
        airc_ge_op *op;
        AIRC_TRY(airc_ge_op_create(b, "SearchSorted", &op));
        AIRC_TRY(airc_ge_op_input(op, "sorted_sequence", edges));
        AIRC_TRY(airc_ge_op_input(op, "values", x));
        AIRC_TRY(airc_ge_op_attr_dtype(op, "dtype", AIRC_DTYPE_I64));
        AIRC_TRY(airc_ge_op_attr_bool(op, "right", 1));
        AIRC_TRY(airc_ge_op_output(op, "out", AIRC_DTYPE_I64, 1, &cells, &pos));
        t[0] = pos;
        AIRC_TRY(airc_ge_const_scalar(b, AIRC_DTYPE_I64, 1, &t[1]));
        AIRC_TRY(airc_ge_ew_op(b, "Sub", t, 2, AIRC_DTYPE_I64, 1, &cells, &pos));
        if (!tensor_bins) { /* torch's bin of a NaN position (NaN, or all edges equal): 1 */
            airc_ge_tensor nan;
            AIRC_TRY(airc_ge_ew_op(b, "IsNan", &x, 1, AIRC_DTYPE_BOOL, 1, &cells, &nan));
            t[0] = lo;
            t[1] = hi;
            AIRC_TRY(airc_ge_ew_op(b, "Equal", t, 2, AIRC_DTYPE_BOOL, 0, NULL, &t[0]));
            t[1] = nan;
            AIRC_TRY(airc_ge_ew_op(b, "LogicalOr", t, 2, AIRC_DTYPE_BOOL, 1, &cells, &nan));
            AIRC_TRY(airc_ge_const_scalar(b, AIRC_DTYPE_I64, bins > 1, &t[0]));
            AIRC_TRY(airc_ge_select(b, nan, t[0], pos, AIRC_DTYPE_I64, 1, &cells, &pos));
        }
        AIRC_TRY(bin_or_spare(b, x, lo, hi, bins, cells, true, &pos));
        airc_ge_tensor zeros, add;
        AIRC_TRY(airc_ge_fill(b, ct, 1, &ne, 0, &zeros));
        if (airc_ge_arg_present(b, wi)) {
            AIRC_TRY(airc_ge_operand(b, wi, ct, &add));
            AIRC_TRY(airc_ge_reshape(b, add, ct, 1, &cells, &add));
        } else {
            AIRC_TRY(airc_ge_fill(b, ct, 1, &cells, 1, &add));
        }
        AIRC_TRY(airc_ge_scatter_elements(b, zeros, pos, add, 0, true, ct, 1, &ne, &y));
        AIRC_TRY(airc_ge_positions(b, 0, 1, &bins, &t[0]));
        AIRC_TRY(airc_ge_gather(b, y, t[0], 0, ct, 1, &bins, &y));
    }
    if (airc_ge_bool_arg(b, wi + 1, false)) { /* density */
        airc_ge_tensor total, w[2];
        int64_t axis = 0;
        AIRC_TRY(airc_ge_reduce(b, "ReduceSum", y, &axis, 1, false, ct, 0, NULL, &total));
        t[0] = y;
        t[1] = total;
        AIRC_TRY(airc_ge_ew_op(b, "RealDiv", t, 2, ct, 1, &bins, &y));
        for (int i = 0; i < 2; i++) {
            AIRC_TRY(airc_ge_positions(b, 1 - i, 1, &bins, &t[0]));
            AIRC_TRY(airc_ge_gather(b, edges, t[0], 0, ct, 1, &bins, &w[i]));
        }
        AIRC_TRY(airc_ge_ew_op(b, "Sub", w, 2, ct, 1, &bins, &w[0]));
        t[0] = y;
        t[1] = w[0];
        AIRC_TRY(airc_ge_ew_op(b, "RealDiv", t, 2, ct, 1, &bins, &y));
    }
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

static const ge_conv_entry conv[] = {
    {"aten.histc.default", conv_histc, NULL},
    {"aten.histogram.bin_ct", conv_histogram, NULL},
    {"aten.histogram.bins_tensor", conv_histogram, NULL},
};

const ge_family airc_ge_family_histc = {conv, sizeof conv / sizeof *conv, NULL, 0};
