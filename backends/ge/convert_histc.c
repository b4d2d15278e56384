/* histc to Ascend IR, a composite (TorchAir has no converter): self
 * flattened in f32 (f64 for f64); the range (lo, hi) the given one, or
 * ReduceMin / ReduceMax of the data, widened by 1 each side where equal
 * (Equal, SelectV2); each element's bin Cast((x - lo) * bins / (hi - lo))
 * to int64, Minimum bins - 1, and bins (a spare bin) for elements outside
 * [lo, hi] or NaN; ScatterElements (add) of ones into bins + 1 zeros, the
 * first bins gathered, Cast to the result's dtype. torch's check that a
 * data range is finite reads data: not made here. */
#include "backends/ge/ge_internal.h"
#include "ir/ir.h"

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

/* histc(self, bins, min, max) */
static airc_status conv_histc(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_tmeta *om = &n->out[0];
    airc_dtype ct = airc_ge_compute_dtype(om->dtype);
    int64_t bins = om->shape[0], cells = airc_tmeta_numel(&n->inputs[0]->out[0]);
    airc_ge_tensor x, lo, hi, t[2], pos, ok, y;
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
    t[0] = pos;
    AIRC_TRY(airc_ge_const_scalar(b, AIRC_DTYPE_I64, (double)(bins - 1), &t[1]));
    AIRC_TRY(airc_ge_ew_op(b, "Minimum", t, 2, AIRC_DTYPE_I64, 1, &cells, &pos));
    /* lo <= x <= hi, else the spare bin */
    t[0] = x;
    t[1] = lo;
    AIRC_TRY(airc_ge_ew_op(b, "GreaterEqual", t, 2, AIRC_DTYPE_BOOL, 1, &cells, &ok));
    t[1] = hi;
    AIRC_TRY(airc_ge_ew_op(b, "LessEqual", t, 2, AIRC_DTYPE_BOOL, 1, &cells, &t[0]));
    t[1] = ok;
    AIRC_TRY(airc_ge_ew_op(b, "LogicalAnd", t, 2, AIRC_DTYPE_BOOL, 1, &cells, &ok));
    AIRC_TRY(airc_ge_const_scalar(b, AIRC_DTYPE_I64, (double)bins, &t[0]));
    AIRC_TRY(airc_ge_select(b, ok, pos, t[0], AIRC_DTYPE_I64, 1, &cells, &pos));
    /* counts: ones added at the bins */
    int64_t spare = bins + 1;
    airc_ge_tensor zeros, ones;
    AIRC_TRY(airc_ge_fill(b, ct, 1, &spare, 0, &zeros));
    AIRC_TRY(airc_ge_fill(b, ct, 1, &cells, 1, &ones));
    AIRC_TRY(airc_ge_scatter_elements(b, zeros, pos, ones, 0, true, ct, 1, &spare, &y));
    int64_t *first = airc_arena_alloc(&b->mem, sizeof *first * (size_t)bins);
    if (!first)
        return airc_fail_oom("histc's bin positions");
    for (int64_t i = 0; i < bins; i++)
        first[i] = i;
    AIRC_TRY(airc_ge_const(b, AIRC_DTYPE_I64, 1, &bins, first, &t[0]));
    AIRC_TRY(airc_ge_gather(b, y, t[0], 0, ct, 1, &bins, &y));
    AIRC_TRY(airc_ge_cast(b, y, om->dtype, &y));
    return airc_ge_set_result(b, 0, y);
}

static const ge_conv_entry conv[] = {
    {"aten.histc.default", conv_histc, NULL},
};

const ge_family airc_ge_family_histc = {conv, sizeof conv / sizeof *conv, NULL, 0};
