/* The diagonal family, unfold and the pattern creation ops to Ascend IR.
 * Shapes are static, so the positions these read are Const indices of a
 * GatherV2 (raised back as index_select):
 *  - unfold(x, dim, size, step) -> GatherV2 of the windows' elements along
 *    dim, Reshape to [..., windows, size, ...], Transpose of size last;
 *  - diagonal(x, offset, d1, d2) -> Transpose of d1, d2 last, Reshape of
 *    them into one, GatherV2 of the diagonal's positions; diag of a
 *    matrix likewise; trace -> that diagonal and ReduceSum;
 *  - diag_embed(x, offset, d1, d2), diag of a vector -> GatherV2 of x's
 *    last dim into the square's positions, SelectV2 with a Const mask of
 *    the diagonal (zeros elsewhere), Reshape, Transpose into d1, d2;
 *  - eye -> Equal of two Ranges, Cast;
 *  - linspace / logspace, range, the window factories, fft_fftfreq and
 *    fft_rfftfreq -> a Const of the values, computed as the CPU kernel
 *    computes them;
 *  - block_diag -> ScatterElements of the blocks' elements into zeros at
 *    Const positions. */
#include "backends/cpu/k_shape_impl.h"
#include "backends/ge/ge_internal.h"
#include "ir/ir.h"
#include "ops/meta_util.h"

#include <string.h>

/* An op on x with one Const int list input (Transpose's perm) and one
 * output of (dt, nd, shape). */
static airc_status with_ints(airc_ge_builder *b, const char *type, airc_ge_tensor x,
                             const char *name, const int64_t *v, size_t n, airc_dtype dt,
                             int32_t nd, const int64_t *shape, airc_ge_tensor *out)
{
    airc_ge_tensor c;
    airc_ge_op *op;
    AIRC_TRY(airc_ge_const_ints(b, v, n, &c));
    AIRC_TRY(airc_ge_op_create(b, type, &op));
    AIRC_TRY(airc_ge_op_input(op, "x", x));
    AIRC_TRY(airc_ge_op_input(op, name, c));
    return airc_ge_op_output(op, "y", dt, nd, shape, out);
}

/* x (of dt, nd dims, shape) permuted by perm */
static airc_status transpose(airc_ge_builder *b, airc_ge_tensor x, airc_dtype dt, int32_t nd,
                             const int64_t *shape, const int64_t *perm, airc_ge_tensor *out)
{
    int64_t s[AIRC_MAX_DIMS];
    bool same = true;
    for (int32_t i = 0; i < nd; i++) {
        s[i] = shape[perm[i]];
        same = same && perm[i] == i;
    }
    if (same) {
        *out = x;
        return AIRC_OK;
    }
    return with_ints(b, "Transpose", x, "perm", perm, (size_t)nd, dt, nd, s, out);
}

/* GatherV2(x, idx (a Const of n int64 positions), axis) of result shape
 * (nd, shape) */
static airc_status gather(airc_ge_builder *b, airc_ge_tensor x, const int64_t *idx, int64_t n,
                          int64_t axis, airc_dtype dt, int32_t nd, const int64_t *shape,
                          airc_ge_tensor *out)
{
    airc_ge_tensor ci;
    AIRC_TRY(airc_ge_const(b, AIRC_DTYPE_I64, 1, &n, idx, &ci));
    return airc_ge_gather(b, x, ci, axis, dt, nd, shape, out);
}

/* n int64s from the builder's arena */
static airc_status positions(airc_ge_builder *b, int64_t n, int64_t **out)
{
    *out = airc_arena_alloc(&b->mem, sizeof **out * (size_t)(n ? n : 1));
    return *out ? AIRC_OK : airc_fail_oom("Const positions");
}

static airc_status input_tensor(airc_ge_builder *b, size_t i, airc_ge_tensor *x, airc_dtype *dt,
                                int32_t *nd, const int64_t **shape)
{
    AIRC_TRY(airc_ge_input(b, i, x));
    return airc_ge_tensor_meta(b, *x, dt, nd, shape);
}

static int32_t wrap(int64_t d, int32_t nd)
{
    return (int32_t)(d < 0 ? d + nd : d);
}

/* ---- unfold -------------------------------------------------------------------- */

static airc_status conv_unfold(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_tmeta *om = &n->out[0];
    airc_ge_tensor x;
    airc_dtype dt;
    int32_t nd;
    const int64_t *xs;
    AIRC_TRY(input_tensor(b, 0, &x, &dt, &nd, &xs));
    int64_t size = airc_ge_int_arg(b, 2, 0), step = airc_ge_int_arg(b, 3, 1);
    int32_t d = nd ? wrap(airc_ge_int_arg(b, 1, 0), nd) : 0;
    int64_t one = 1, shape[AIRC_MAX_DIMS], perm[AIRC_MAX_DIMS];
    if (nd == 0) /* a 0-dim self is a vector of one */
        AIRC_TRY(airc_ge_reshape(b, x, dt, 1, &one, &x));
    int32_t xnd = nd ? nd : 1;
    if (d < 0 || d >= xnd || om->ndim != nd + 1 || step < 1)
        return airc_fail(AIRC_E_INVALID_GRAPH, "unfold: bad dimension or step");
    int64_t windows = nd ? om->shape[d] : 1, count = windows * size, *idx;
    AIRC_TRY(positions(b, count, &idx));
    for (int64_t w = 0; w < windows; w++)
        for (int64_t j = 0; j < size; j++)
            idx[w * size + j] = w * step + j;
    /* gathered: [..., windows * size, ...] then [..., windows, size, ...] */
    for (int32_t i = 0; i < xnd; i++)
        shape[i] = nd ? xs[i] : 1;
    shape[d] = count;
    AIRC_TRY(gather(b, x, idx, count, d, dt, xnd, shape, &x));
    int64_t split[AIRC_MAX_DIMS];
    int32_t k = 0;
    for (int32_t i = 0; i < xnd; i++) {
        if (i == d) {
            split[k++] = windows;
            split[k++] = size;
        } else {
            split[k++] = shape[i];
        }
    }
    AIRC_TRY(airc_ge_reshape(b, x, dt, k, split, &x));
    for (int32_t i = 0, j = 0; i < k; i++)
        if (i != d + 1)
            perm[j++] = i;
    perm[k - 1] = d + 1;
    AIRC_TRY(transpose(b, x, dt, k, split, perm, &x));
    if (nd == 0)
        AIRC_TRY(airc_ge_reshape(b, x, dt, om->ndim, om->shape, &x));
    return airc_ge_set_result(b, 0, x);
}

/* ---- diagonal, diag of a matrix, trace ---------------------------------------------- */

/* The offset-th diagonal of dims d1, d2 of x (len elements): the other
 * dims in order, the diagonal last. */
static airc_status take_diagonal(airc_ge_builder *b, airc_ge_tensor x, airc_dtype dt, int32_t nd,
                                 const int64_t *xs, int64_t offset, int32_t d1, int32_t d2,
                                 int64_t len, airc_ge_tensor *out)
{
    if (nd < 2 || d1 < 0 || d1 >= nd || d2 < 0 || d2 >= nd || d1 == d2)
        return airc_fail(AIRC_E_INVALID_GRAPH, "diagonal: bad dims");
    int64_t perm[AIRC_MAX_DIMS], shape[AIRC_MAX_DIMS];
    int32_t k = 0;
    for (int32_t i = 0; i < nd; i++)
        if (i != d1 && i != d2)
            perm[k++] = i;
    perm[k] = d1;
    perm[k + 1] = d2;
    AIRC_TRY(transpose(b, x, dt, nd, xs, perm, &x));
    for (int32_t i = 0; i < k; i++)
        shape[i] = xs[perm[i]];
    int64_t s1 = xs[d1], s2 = xs[d2];
    shape[k] = s1 * s2;
    AIRC_TRY(airc_ge_reshape(b, x, dt, k + 1, shape, &x));
    /* a non-empty diagonal's offset is smaller than a dim (no overflow) */
    int64_t *idx, r0 = offset < 0 && len ? -offset : 0, c0 = offset > 0 && len ? offset : 0;
    AIRC_TRY(positions(b, len, &idx));
    for (int64_t i = 0; i < len; i++)
        idx[i] = (i + r0) * s2 + i + c0;
    shape[k] = len;
    return gather(b, x, idx, len, k, dt, k + 1, shape, out);
}

static airc_status conv_diagonal(airc_ge_builder *b, const airc_node *n, void *ud)
{
    const airc_tmeta *om = &n->out[0];
    airc_ge_tensor x;
    airc_dtype dt;
    int32_t nd;
    const int64_t *xs;
    AIRC_TRY(input_tensor(b, 0, &x, &dt, &nd, &xs));
    int64_t offset = airc_ge_int_arg(b, 1, 0);
    int32_t d1 = 0, d2 = 1;
    if (!ud) { /* diagonal(self, offset, dim1, dim2); diag and trace: 0, 1 */
        d1 = wrap(airc_ge_int_arg(b, 2, 0), nd);
        d2 = wrap(airc_ge_int_arg(b, 3, 1), nd);
    }
    bool trace = ud && !strcmp(ud, "trace");
    if (trace)
        offset = 0;
    int64_t len = trace ? (xs[0] < xs[1] ? xs[0] : xs[1]) : om->shape[om->ndim - 1];
    AIRC_TRY(take_diagonal(b, x, dt, nd, xs, offset, d1, d2, len, &x));
    if (trace) {
        AIRC_TRY(airc_ge_cast(b, x, om->dtype, &x));
        int64_t axis = 0;
        AIRC_TRY(airc_ge_reduce(b, "ReduceSum", x, &axis, 1, false, om->dtype, 0, NULL, &x));
    }
    return airc_ge_set_result(b, 0, x);
}

/* ---- diag_embed, diag of a vector ----------------------------------------------- */

static airc_status conv_diag_embed(airc_ge_builder *b, const airc_node *n, void *ud)
{
    const airc_tmeta *om = &n->out[0];
    airc_ge_tensor x, y, t[2];
    airc_dtype dt;
    int32_t nd;
    const int64_t *xs;
    AIRC_TRY(input_tensor(b, 0, &x, &dt, &nd, &xs));
    if (ud && nd == 2) /* diag of a matrix */
        return conv_diagonal(b, n, ud);
    int64_t offset = airc_ge_int_arg(b, 1, 0);
    int32_t ond = om->ndim;
    int32_t d1 = ud ? 0 : wrap(airc_ge_int_arg(b, 2, -2), ond);
    int32_t d2 = ud ? 1 : wrap(airc_ge_int_arg(b, 3, -1), ond);
    if (nd < 1 || ond != nd + 1 || d1 < 0 || d1 >= ond || d2 < 0 || d2 >= ond || d1 == d2)
        return airc_fail(AIRC_E_INVALID_GRAPH, "diag_embed: bad dims");
    int64_t len = xs[nd - 1], side = om->shape[d1], sq = side * side, *idx;
    uint8_t *mask = airc_arena_alloc(&b->mem, (size_t)(sq ? sq : 1));
    if (!mask)
        return airc_fail_oom("diag_embed mask");
    AIRC_TRY(positions(b, sq, &idx));
    for (int64_t r = 0; r < side; r++)
        for (int64_t c = 0; c < side; c++) {
            int64_t i = offset >= 0 ? r : c; /* x's element on the diagonal */
            mask[r * side + c] = c - r == offset && i < len;
            idx[r * side + c] = mask[r * side + c] ? i : 0;
        }
    int64_t shape[AIRC_MAX_DIMS];
    memcpy(shape, xs, sizeof *shape * (size_t)nd);
    shape[nd - 1] = sq;
    if (len == 0) { /* nothing to gather from: zeros of the square */
        AIRC_TRY(airc_ge_const_scalar(b, dt, 0, &y));
        int64_t zero_shape[AIRC_MAX_DIMS];
        memcpy(zero_shape, shape, sizeof *shape * (size_t)nd);
        AIRC_TRY(
            with_ints(b, "BroadcastTo", y, "shape", zero_shape, (size_t)nd, dt, nd, shape, &y));
    } else {
        AIRC_TRY(gather(b, x, idx, sq, nd - 1, dt, nd, shape, &y));
        airc_ge_tensor m;
        AIRC_TRY(airc_ge_const(b, AIRC_DTYPE_BOOL, 1, &sq, mask, &m));
        t[0] = y;
        AIRC_TRY(airc_ge_const_scalar(b, dt, 0, &t[1]));
        AIRC_TRY(airc_ge_select(b, m, t[0], t[1], dt, nd, shape, &y));
    }
    /* [batch..., side, side] with the rows at d1 and the columns at d2 */
    shape[nd - 1] = side;
    shape[nd] = side;
    AIRC_TRY(airc_ge_reshape(b, y, dt, ond, shape, &y));
    int64_t perm[AIRC_MAX_DIMS];
    for (int32_t k = 0, j = 0; k < ond; k++)
        perm[k] = k == d1 ? nd - 1 : k == d2 ? nd : j++;
    AIRC_TRY(transpose(b, y, dt, ond, shape, perm, &y));
    return airc_ge_set_result(b, 0, y);
}

/* ---- eye, linspace, logspace ----------------------------------------------------- */

/* Range(0, n, 1) in int64 */
static airc_status range(airc_ge_builder *b, int64_t n, airc_ge_tensor *out)
{
    airc_ge_tensor c[3];
    int64_t v[3] = {0, n, 1};
    for (int i = 0; i < 3; i++)
        AIRC_TRY(airc_ge_const(b, AIRC_DTYPE_I64, 0, NULL, &v[i], &c[i]));
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "Range", &op));
    AIRC_TRY(airc_ge_op_input(op, "start", c[0]));
    AIRC_TRY(airc_ge_op_input(op, "limit", c[1]));
    AIRC_TRY(airc_ge_op_input(op, "delta", c[2]));
    return airc_ge_op_output(op, "y", AIRC_DTYPE_I64, 1, &n, out);
}

/* eye(n, m) = Cast(Equal(Range(n) as [n, 1], Range(m) as [1, m])) */
static airc_status conv_eye(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_tmeta *om = &n->out[0];
    if (om->ndim != 2)
        return airc_fail(AIRC_E_INVALID_GRAPH, "eye: a 2-d result expected");
    airc_ge_tensor t[2], y;
    for (int i = 0; i < 2; i++) {
        int64_t s[2] = {i ? 1 : om->shape[0], i ? om->shape[1] : 1};
        AIRC_TRY(range(b, om->shape[i], &t[i]));
        AIRC_TRY(airc_ge_reshape(b, t[i], AIRC_DTYPE_I64, 2, s, &t[i]));
    }
    AIRC_TRY(airc_ge_ew_op(b, "Equal", t, 2, AIRC_DTYPE_BOOL, 2, om->shape, &y));
    AIRC_TRY(airc_ge_cast(b, y, om->dtype, &y));
    return airc_ge_set_result(b, 0, y);
}

/* a number argument as the CPU kernels read a Scalar */
static airc_status scalar_arg(airc_ge_builder *b, size_t i, airc_cpu_scalar *s)
{
    const airc_value *v = airc_ge_arg(b, i);
    int64_t iv = 0;
    double f = 0;
    if (v && v->kind == AIRC_VALUE_FLOAT && airc_value_get_float(v, &f) == AIRC_OK)
        *s = (airc_cpu_scalar){true, 0, f};
    else if (v && airc_value_get_int(v, &iv) == AIRC_OK)
        *s = (airc_cpu_scalar){false, iv, (double)iv};
    else
        return airc_fail(AIRC_E_UNSUPPORTED, "argument %zu must be a number", i);
    return AIRC_OK;
}

/* A dense 1-d view of the node's result in the builder's arena, for a
 * factory whose values the CPU kernel's helper computes. */
static airc_status values_1d(airc_ge_builder *b, const airc_node *n, airc_tview *v)
{
    const airc_tmeta *om = &n->out[0];
    if (om->ndim != 1)
        return airc_fail(AIRC_E_INVALID_GRAPH, "%s: a 1-d result expected", n->op->qualname);
    memset(v, 0, sizeof *v);
    v->dtype = om->dtype;
    v->ndim = 1;
    v->shape[0] = om->shape[0];
    v->strides[0] = 1;
    v->data = airc_arena_alloc(&b->mem, airc_dtype_size(om->dtype) * (size_t)(om->shape[0] + 1));
    return v->data ? AIRC_OK : airc_fail_oom("a factory's values");
}

/* values_1d's view as the node's result, a Const */
static airc_status values_result(airc_ge_builder *b, const airc_tview *v)
{
    airc_ge_tensor y;
    AIRC_TRY(airc_ge_const(b, v->dtype, 1, v->shape, v->data, &y));
    return airc_ge_set_result(b, 0, y);
}

/* linspace / logspace (ud non-NULL): their values as a Const */
static airc_status conv_space(airc_ge_builder *b, const airc_node *n, void *ud)
{
    airc_cpu_scalar s, e;
    AIRC_TRY(scalar_arg(b, 0, &s));
    AIRC_TRY(scalar_arg(b, 1, &e));
    airc_tview v;
    AIRC_TRY(values_1d(b, n, &v));
    airc_cpu_space(&v, &s, &e, airc_ge_number_arg(b, 3, 10.0), ud != NULL);
    return values_result(b, &v);
}

/* the window factories, fft_fftfreq, fft_rfftfreq: their values as a Const */
static airc_status conv_window(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    airc_tview v;
    AIRC_TRY(values_1d(b, n, &v));
    airc_cpu_window(&v, n->op->qualname, (const airc_value *const *)b->args, b->nargs);
    return values_result(b, &v);
}

/* range(start, end, step=1), end included: its values as a Const */
static airc_status conv_range(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    airc_cpu_scalar s, st = {false, 1, 1.0};
    AIRC_TRY(scalar_arg(b, 0, &s));
    if (!strcmp(n->op->qualname, "aten.range.step") && airc_ge_arg(b, 2))
        AIRC_TRY(scalar_arg(b, 2, &st));
    airc_tview v;
    AIRC_TRY(values_1d(b, n, &v));
    airc_cpu_arange(&v, &s, &st, v.dtype == AIRC_DTYPE_BF16);
    return values_result(b, &v);
}

/* tril_indices / triu_indices (ud non-NULL): a Const of the pairs, as
 * the CPU kernel lists them */
static airc_status conv_tri_indices(airc_ge_builder *b, const airc_node *n, void *ud)
{
    const airc_tmeta *om = &n->out[0];
    airc_tview v;
    airc_tview_from_meta(&v, om);
    airc_tmeta dense = *om;
    airc_tmeta_contiguous(&dense);
    memcpy(v.strides, dense.strides, sizeof v.strides);
    v.data = airc_arena_alloc(&b->mem, airc_dtype_size(om->dtype) * (size_t)(2 * om->shape[1] + 1));
    if (!v.data)
        return airc_fail_oom("tri_indices values");
    airc_cpu_tri_indices(&v, airc_ge_int_arg(b, 1, 0), airc_ge_int_arg(b, 2, 0), ud != NULL);
    airc_ge_tensor y;
    AIRC_TRY(airc_ge_const(b, om->dtype, 2, om->shape, v.data, &y));
    return airc_ge_set_result(b, 0, y);
}

/* block_diag(tensors): each tensor Cast to the result's dtype and
 * Reshaped to one dim, ConcatV2 of them all, ScatterElements (none) of
 * that into zeros of the result's element count at the blocks' flat
 * positions (a Const), Reshaped to [rows, cols]; no elements: a Fill. */
static airc_status conv_block_diag(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_tmeta *om = &n->out[0];
    size_t count = airc_ge_input_list_length(b, 0);
    int64_t cells = om->shape[0] * om->shape[1], total = 0;
    airc_ge_tensor *in = airc_arena_alloc(&b->mem, sizeof *in * (count + 1)), y;
    int64_t(*blocks)[2] = airc_arena_alloc(&b->mem, sizeof *blocks * (count + 1));
    if (!in || !blocks)
        return airc_fail_oom("block_diag's blocks");
    size_t used = 0;
    for (size_t j = 0; j < count; j++) {
        int32_t nd = 0;
        const int64_t *s;
        AIRC_TRY(airc_ge_input_list_item(b, 0, j, &in[used]));
        AIRC_TRY(airc_ge_tensor_meta(b, in[used], NULL, &nd, &s));
        blocks[j][0] = nd == 2 ? s[0] : 1;
        blocks[j][1] = nd ? s[nd - 1] : 1;
        int64_t numel = blocks[j][0] * blocks[j][1];
        if (!numel)
            continue;
        AIRC_TRY(airc_ge_cast(b, in[used], om->dtype, &in[used]));
        AIRC_TRY(airc_ge_reshape(b, in[used], om->dtype, 1, &numel, &in[used]));
        used++;
        total += numel;
    }
    if (!total) {
        AIRC_TRY(airc_ge_fill(b, om->dtype, 2, om->shape, 0, &y));
        return airc_ge_set_result(b, 0, y);
    }
    int64_t *pos = airc_arena_alloc(&b->mem, sizeof *pos * (size_t)total), at = 0, r = 0, c = 0;
    if (!pos)
        return airc_fail_oom("block_diag's positions");
    for (size_t j = 0; j < count; j++) {
        for (int64_t i = 0; i < blocks[j][0] * blocks[j][1]; i++)
            pos[at++] = (r + i / blocks[j][1]) * om->shape[1] + c + i % blocks[j][1];
        r += blocks[j][0];
        c += blocks[j][1];
    }
    airc_ge_tensor flat = in[0], idx, zeros;
    if (used > 1)
        AIRC_TRY(airc_ge_concat(b, in, used, 0, om->dtype, 1, &total, &flat));
    AIRC_TRY(airc_ge_const(b, AIRC_DTYPE_I64, 1, &total, pos, &idx));
    AIRC_TRY(airc_ge_fill(b, om->dtype, 1, &cells, 0, &zeros));
    AIRC_TRY(airc_ge_scatter_elements(b, zeros, idx, flat, 0, false, om->dtype, 1, &cells, &y));
    AIRC_TRY(airc_ge_reshape(b, y, om->dtype, 2, om->shape, &y));
    return airc_ge_set_result(b, 0, y);
}

static const ge_conv_entry conv[] = {
    {"aten.tril_indices.default", conv_tri_indices, NULL},
    {"aten.triu_indices.default", conv_tri_indices, "upper"},
    {"aten.unfold.default", conv_unfold, NULL},
    {"aten.diagonal.default", conv_diagonal, NULL},
    {"aten.trace.default", conv_diagonal, "trace"},
    {"aten.diag_embed.default", conv_diag_embed, NULL},
    {"aten.diag.default", conv_diag_embed, "diag"},
    {"aten.eye.default", conv_eye, NULL},
    {"aten.eye.m", conv_eye, NULL},
    {"aten.linspace.default", conv_space, NULL},
    {"aten.logspace.default", conv_space, "log"},
    {"aten.range.default", conv_range, NULL},
    {"aten.range.step", conv_range, NULL},
    {"aten.hann_window.default", conv_window, NULL},
    {"aten.hann_window.periodic", conv_window, NULL},
    {"aten.hamming_window.default", conv_window, NULL},
    {"aten.hamming_window.periodic", conv_window, NULL},
    {"aten.hamming_window.periodic_alpha", conv_window, NULL},
    {"aten.hamming_window.periodic_alpha_beta", conv_window, NULL},
    {"aten.bartlett_window.default", conv_window, NULL},
    {"aten.bartlett_window.periodic", conv_window, NULL},
    {"aten.blackman_window.default", conv_window, NULL},
    {"aten.blackman_window.periodic", conv_window, NULL},
    {"aten.kaiser_window.default", conv_window, NULL},
    {"aten.kaiser_window.periodic", conv_window, NULL},
    {"aten.kaiser_window.beta", conv_window, NULL},
    {"aten.fft_fftfreq.default", conv_window, NULL},
    {"aten.fft_rfftfreq.default", conv_window, NULL},
    {"aten.block_diag.default", conv_block_diag, NULL},
};

/* Every GE type emitted here has its raiser in another family (GatherV2,
 * Transpose, Reshape, SelectV2, ReduceSum, BroadcastTo, Range, Equal,
 * Cast, Const, ConcatV2, Fill, ScatterElements). */
const ge_family airc_ge_family_diag = {conv, sizeof conv / sizeof *conv, NULL, 0};
