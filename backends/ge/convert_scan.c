/* Running scans to Ascend IR: cummax / cummin and logcumsumexp. TorchAir
 * has no converter for them and GE no scan op but Cumsum / Cumprod, so
 * each is a composite over the square of its lines: along dim d (n long),
 * element (j, i) of the square is x[i] where i <= j, else a fill
 * (SelectV2 with a Const lower-triangular mask), and a reduction over i
 * gives result j. That is n times the input's memory, as an O(n^2)
 * formulation must be.
 *
 * - cummax / cummin: ReduceMax / ReduceMin of the square (fill: the
 *   dtype's lowest / highest) is the running extreme; its index is the
 *   greatest i <= j whose element equals it (or is NaN beside a NaN
 *   extreme), the last of equal values as torch's `>=` takes it: a
 *   ReduceMax of SelectV2(hit, i, -1). The values are GatherElements of x
 *   at those indices, so they are bit for bit self's (-0.0 included).
 * - logcumsumexp: logsumexp of each row of the square (fill -inf):
 *   ReduceMax, IsInf + SelectV2 (an infinite max shifts by 0), Sub, Exp,
 *   ReduceSum, Log, Add; bf16 in f32, cast back.
 * Every type emitted has its raiser in another family. */
#include "backends/cpu/ew.h"
#include "backends/ge/ge_internal.h"
#include "ir/ir.h"
#include "ops/meta_util.h"

#include <math.h>
#include <string.h>

/* The most elements a square may hold (1 GiB of f32). */
#define SCAN_MAX_SQUARE (INT64_C(1) << 28)

/* The scan's geometry: x as a tensor of rank >= 1 (a 0-d one as [1]),
 * along d of n elements. */
typedef struct scan {
    airc_ge_tensor x; /* the input, rank nd */
    airc_dtype dt;
    int32_t nd, d;
    int64_t n;
    int64_t shape[AIRC_MAX_DIMS + 1];  /* x's */
    int64_t row[AIRC_MAX_DIMS + 1];    /* x with a 1 inserted at d (j), i at d + 1 */
    int64_t square[AIRC_MAX_DIMS + 1]; /* x with n inserted at d */
    airc_ge_tensor xrow, tri;          /* x as row; the mask i <= j */
} scan;

static airc_status scan_init(airc_ge_builder *b, airc_dtype dt, scan *s)
{
    memset(s, 0, sizeof *s);
    AIRC_TRY(airc_ge_input(b, 0, &s->x));
    int32_t nd = 0;
    const int64_t *shape;
    AIRC_TRY(airc_ge_tensor_meta(b, s->x, NULL, &nd, &shape));
    if (nd >= AIRC_MAX_DIMS)
        return airc_fail(AIRC_E_UNSUPPORTED, "a scan of rank %d has no room for its square",
                         (int)nd);
    AIRC_TRY(airc_ge_cast(b, s->x, dt, &s->x));
    s->dt = dt;
    s->nd = nd ? nd : 1;
    s->shape[0] = 1;
    memcpy(s->shape, shape, sizeof *shape * (size_t)nd);
    int64_t d = nd ? airc_ge_int_arg(b, 1, 0) : 0; /* cummax takes any dim for a 0-d x */
    s->d = (int32_t)(d < 0 ? d + s->nd : d);
    if (s->d < 0 || s->d >= s->nd)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "dim %lld is out of range", (long long)d);
    if (!nd)
        AIRC_TRY(airc_ge_reshape(b, s->x, dt, 1, s->shape, &s->x));
    s->n = s->shape[s->d];
    int64_t numel = 1;
    for (int32_t i = 0; i < s->nd; i++)
        numel *= s->shape[i];
    if (s->n > SCAN_MAX_SQUARE / (numel ? numel : 1))
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "a scan of %lld elements along a dim of %lld has no Ascend IR lowering: "
                         "its O(n^2) composite would hold more than %lld elements",
                         (long long)numel, (long long)s->n, (long long)SCAN_MAX_SQUARE);
    for (int32_t i = 0, k = 0; i < s->nd; i++) {
        if (i == s->d) {
            s->row[k] = 1;
            s->square[k++] = s->n;
        }
        s->row[k] = s->shape[i];
        s->square[k++] = s->shape[i];
    }
    AIRC_TRY(airc_ge_reshape(b, s->x, dt, s->nd + 1, s->row, &s->xrow));
    /* the mask [n, n, 1...]: (j, i) true where i <= j */
    int64_t tshape[AIRC_MAX_DIMS + 1];
    int32_t tnd = s->nd + 1 - s->d;
    tshape[0] = tshape[1] = s->n;
    for (int32_t i = 2; i < tnd; i++)
        tshape[i] = 1;
    bool *mask = airc_arena_alloc(&b->mem, (size_t)(s->n * s->n) + 1);
    if (!mask)
        return airc_fail_oom("scan mask");
    for (int64_t j = 0; j < s->n; j++)
        for (int64_t i = 0; i < s->n; i++)
            mask[j * s->n + i] = i <= j;
    return airc_ge_const(b, AIRC_DTYPE_BOOL, tnd, tshape, mask, &s->tri);
}

/* SelectV2(tri, xrow, fill): the square of s's lines. */
static airc_status scan_square(airc_ge_builder *b, const scan *s, airc_ge_tensor fill,
                               airc_ge_tensor *out)
{
    return airc_ge_select(b, s->tri, s->xrow, fill, s->dt, s->nd + 1, s->square, out);
}

/* A reduction over i (axis d + 1) of the square, kept as 1 or dropped. */
static airc_status over_i(airc_ge_builder *b, const scan *s, const char *type, airc_ge_tensor x,
                          airc_dtype dt, bool keep, airc_ge_tensor *out)
{
    int64_t axis = s->d + 1, kept[AIRC_MAX_DIMS + 1];
    memcpy(kept, s->square, sizeof kept);
    kept[s->d + 1] = 1;
    return airc_ge_reduce(b, type, x, &axis, 1, keep, dt, keep ? s->nd + 1 : s->nd,
                          keep ? kept : s->shape, out);
}

/* A Const of dt's lowest (highest) value: the fill no element passes. */
static airc_status extreme_of(airc_ge_builder *b, airc_dtype dt, bool highest, airc_ge_tensor *out)
{
    int64_t v;
    switch (dt) {
    case AIRC_DTYPE_BOOL: v = highest; break;
    case AIRC_DTYPE_U8: v = highest ? UINT8_MAX : 0; break;
    case AIRC_DTYPE_I8: v = highest ? INT8_MAX : INT8_MIN; break;
    case AIRC_DTYPE_I16: v = highest ? INT16_MAX : INT16_MIN; break;
    case AIRC_DTYPE_I32: v = highest ? INT32_MAX : INT32_MIN; break;
    case AIRC_DTYPE_I64: v = highest ? INT64_MAX : INT64_MIN; break;
    default: return airc_ge_const_scalar(b, dt, highest ? INFINITY : -INFINITY, out);
    }
    uint64_t bytes = 0; /* v in dt (little-endian, at most 8 bytes) */
    airc_cpu_cast(dt, &bytes, 1, AIRC_DTYPE_I64, &v, 1, 1);
    return airc_ge_const(b, dt, 0, NULL, &bytes, out);
}

/* An empty scan: its results are empty Consts of the node's metas. */
static airc_status empty_results(airc_ge_builder *b, const airc_node *n)
{
    for (uint32_t j = 0; j < n->nout; j++) {
        airc_ge_tensor t;
        uint64_t none = 0;
        AIRC_TRY(airc_ge_const(b, n->out[j].dtype, n->out[j].ndim, n->out[j].shape, &none, &t));
        AIRC_TRY(airc_ge_set_result(b, j, t));
    }
    return AIRC_OK;
}

static airc_status conv_cum_extreme(airc_ge_builder *b, const airc_node *n, void *ud)
{
    bool is_max = ud != NULL;
    if (airc_tmeta_numel(&n->out[0]) == 0)
        return empty_results(b, n);
    scan s;
    AIRC_TRY(scan_init(b, n->out[0].dtype, &s));
    const int64_t *sq = s.square;
    int32_t snd = s.nd + 1;
    airc_ge_tensor square, best, t[2], hit;
    AIRC_TRY(extreme_of(b, s.dt, !is_max, &t[0]));
    AIRC_TRY(scan_square(b, &s, t[0], &square));
    AIRC_TRY(over_i(b, &s, is_max ? "ReduceMax" : "ReduceMin", square, s.dt, true, &best));
    t[0] = s.xrow;
    t[1] = best;
    AIRC_TRY(airc_ge_ew_op(b, "Equal", t, 2, AIRC_DTYPE_BOOL, snd, sq, &hit));
    if (airc_dtype_is_floating(s.dt)) { /* a NaN extreme: the NaNs hit */
        airc_ge_tensor nan[2];
        AIRC_TRY(airc_ge_ew_op(b, "IsNan", &s.xrow, 1, AIRC_DTYPE_BOOL, snd, s.row, &nan[0]));
        AIRC_TRY(airc_ge_ew_op(b, "IsNan", &best, 1, AIRC_DTYPE_BOOL, snd, sq, &nan[1]));
        AIRC_TRY(airc_ge_ew_op(b, "LogicalAnd", nan, 2, AIRC_DTYPE_BOOL, snd, sq, &t[0]));
        t[1] = hit;
        AIRC_TRY(airc_ge_ew_op(b, "LogicalOr", t, 2, AIRC_DTYPE_BOOL, snd, sq, &hit));
    }
    t[0] = hit;
    t[1] = s.tri;
    AIRC_TRY(airc_ge_ew_op(b, "LogicalAnd", t, 2, AIRC_DTYPE_BOOL, snd, sq, &hit));
    /* positions i as [n, 1...], aligned with axis d + 1 */
    int64_t pshape[AIRC_MAX_DIMS + 1];
    int32_t pnd = s.nd - s.d;
    pshape[0] = s.n;
    for (int32_t i = 1; i < pnd; i++)
        pshape[i] = 1;
    int64_t *pos = airc_arena_alloc(&b->mem, sizeof *pos * (size_t)(s.n + 1));
    if (!pos)
        return airc_fail_oom("scan positions");
    for (int64_t i = 0; i < s.n; i++)
        pos[i] = i;
    AIRC_TRY(airc_ge_const(b, AIRC_DTYPE_I64, pnd, pshape, pos, &t[0]));
    AIRC_TRY(airc_ge_const_scalar(b, AIRC_DTYPE_I64, -1, &t[1]));
    airc_ge_tensor idx, vals;
    AIRC_TRY(airc_ge_select(b, hit, t[0], t[1], AIRC_DTYPE_I64, snd, sq, &idx));
    AIRC_TRY(over_i(b, &s, "ReduceMax", idx, AIRC_DTYPE_I64, false, &idx));
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "GatherElements", &op));
    AIRC_TRY(airc_ge_op_input(op, "x", s.x));
    AIRC_TRY(airc_ge_op_input(op, "index", idx));
    AIRC_TRY(airc_ge_op_attr_int(op, "dim", s.d));
    AIRC_TRY(airc_ge_op_output(op, "y", s.dt, s.nd, s.shape, &vals));
    const airc_tmeta *om = &n->out[0];
    if (om->ndim == 0) { /* a 0-d scan, back from [1] */
        AIRC_TRY(airc_ge_reshape(b, vals, s.dt, 0, s.shape, &vals));
        AIRC_TRY(airc_ge_reshape(b, idx, AIRC_DTYPE_I64, 0, s.shape, &idx));
    }
    AIRC_TRY(airc_ge_set_result(b, 0, vals));
    return airc_ge_set_result(b, 1, idx);
}

static airc_status conv_logcumsumexp(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_tmeta *om = &n->out[0];
    if (airc_tmeta_numel(om) == 0)
        return empty_results(b, n);
    scan s;
    AIRC_TRY(scan_init(b, airc_ge_compute_dtype(om->dtype), &s));
    airc_dtype dt = s.dt;
    int32_t snd = s.nd + 1;
    airc_ge_tensor square, m, t[2];
    AIRC_TRY(airc_ge_const_scalar(b, dt, -INFINITY, &t[0]));
    AIRC_TRY(scan_square(b, &s, t[0], &square));
    AIRC_TRY(over_i(b, &s, "ReduceMax", square, dt, true, &m));
    const int64_t *kept = NULL;
    AIRC_TRY(airc_ge_tensor_meta(b, m, NULL, NULL, &kept));
    int64_t mshape[AIRC_MAX_DIMS + 1];
    memcpy(mshape, kept, sizeof *mshape * (size_t)snd);
    AIRC_TRY(airc_ge_ew_op(b, "IsInf", &m, 1, AIRC_DTYPE_BOOL, snd, mshape, &t[0]));
    AIRC_TRY(airc_ge_const_scalar(b, dt, 0, &t[1]));
    AIRC_TRY(airc_ge_select(b, t[0], t[1], m, dt, snd, mshape, &m));
    t[0] = square;
    t[1] = m;
    AIRC_TRY(airc_ge_ew_op(b, "Sub", t, 2, dt, snd, s.square, &t[0]));
    AIRC_TRY(airc_ge_ew_op(b, "Exp", &t[0], 1, dt, snd, s.square, &t[0]));
    AIRC_TRY(over_i(b, &s, "ReduceSum", t[0], dt, false, &t[0]));
    AIRC_TRY(airc_ge_ew_op(b, "Log", &t[0], 1, dt, s.nd, s.shape, &t[0]));
    AIRC_TRY(airc_ge_reshape(b, m, dt, s.nd, s.shape, &t[1]));
    airc_ge_tensor y;
    AIRC_TRY(airc_ge_ew_op(b, "Add", t, 2, dt, s.nd, s.shape, &y));
    if (om->ndim == 0)
        AIRC_TRY(airc_ge_reshape(b, y, dt, 0, s.shape, &y));
    AIRC_TRY(airc_ge_cast(b, y, om->dtype, &y));
    return airc_ge_set_result(b, 0, y);
}

static const ge_conv_entry conv[] = {
    {"aten.cummax.default", conv_cum_extreme, "max"},
    {"aten.cummin.default", conv_cum_extreme, NULL},
    {"aten.logcumsumexp.default", conv_logcumsumexp, NULL},
};

const ge_family airc_ge_family_scan = {conv, sizeof conv / sizeof *conv, NULL, 0};
