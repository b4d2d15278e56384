/* Matrix products to and from Ascend IR, with TorchAir's choices:
 * mm -> MatMul, addmm -> MatMulV2, bmm -> BatchMatMul, baddbmm ->
 * BatchMatMul (the two with a Mul by alpha and beta and an Add; beta 0
 * leaves self out); mv and dot -> MatMul of the vectors reshaped to
 * matrices; addmv -> MatMul of the vector as a column, addbmm ->
 * BatchMatMul and ReduceSum over the batch (both then as addmm, half
 * types in f32), addr -> Mul of alpha, the column and the row (bools:
 * LogicalAnd / LogicalOr); transposes as attributes (transpose_x1/x2, adj_x1/x2).
 * linalg_cross -> Cross (dim), _cdist_forward and _euclidean_dist (the
 * matrix form torch.cdist takes past 25 rows) -> Cdist (p, and
 * compute_mode for the reference executor); _pdist_forward -> GatherV2 of
 * each pair's rows, Sub, Abs and the p-norm's reduction;
 * _compute_linear_combination -> Mul and ReduceSum. */
#include "backends/ge/ge_internal.h"
#include "ir/ir.h"
#include "ops/meta_util.h"

#include <math.h>
#include <string.h>

typedef struct mat_op {
    const char *ge;
    const char *ta, *tb; /* transpose attribute names */
} mat_op;

static const mat_op m_mm = {"MatMul", "transpose_x1", "transpose_x2"};
static const mat_op m_mmv2 = {"MatMulV2", "transpose_x1", "transpose_x2"};
static const mat_op m_bmm = {"BatchMatMul", "adj_x1", "adj_x2"};

/* x1 @ x2 as `op`, in the node's result dtype; *out its output. */
static airc_status matmul(airc_ge_builder *b, const mat_op *m, size_t a1, size_t a2, bool as_result,
                          airc_ge_tensor *out)
{
    airc_dtype dt = airc_ge_node_dtype(b, 0);
    airc_ge_tensor x1, x2;
    AIRC_TRY(airc_ge_operand(b, a1, dt, &x1));
    AIRC_TRY(airc_ge_operand(b, a2, dt, &x2));
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, m->ge, &op));
    AIRC_TRY(airc_ge_op_input(op, "x1", x1));
    AIRC_TRY(airc_ge_op_input(op, "x2", x2));
    if (m == &m_mmv2) {
        AIRC_TRY(airc_ge_op_input_absent(op, "bias"));
        AIRC_TRY(airc_ge_op_input_absent(op, "offset_w"));
    }
    AIRC_TRY(airc_ge_op_attr_bool(op, m->ta, 0));
    AIRC_TRY(airc_ge_op_attr_bool(op, m->tb, 0));
    if (m == &m_mmv2)
        AIRC_TRY(airc_ge_op_attr_int(op, "offset_x", 0));
    AIRC_TRY(airc_ge_op_output_like_node(op, "y", 0, out));
    return as_result ? airc_ge_set_result(b, 0, *out) : AIRC_OK;
}

/* x1 @ x2 as m's op (MatMul, BatchMatMul), no transposes, of result (dt,
 * nd dims, shape) */
static airc_status matmul_plain(airc_ge_builder *b, const mat_op *m, airc_ge_tensor x1,
                                airc_ge_tensor x2, airc_dtype dt, int32_t nd, const int64_t *shape,
                                airc_ge_tensor *out)
{
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, m->ge, &op));
    AIRC_TRY(airc_ge_op_input(op, "x1", x1));
    AIRC_TRY(airc_ge_op_input(op, "x2", x2));
    AIRC_TRY(airc_ge_op_attr_bool(op, m->ta, 0));
    AIRC_TRY(airc_ge_op_attr_bool(op, m->tb, 0));
    return airc_ge_op_output(op, "y", dt, nd, shape, out);
}

static airc_status conv_mm(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)n;
    airc_ge_tensor y;
    return matmul(b, ud, 0, 1, true, &y);
}

/* addmm(self, mat1, mat2, beta, alpha) and baddbmm(self, batch1, batch2,
 * beta, alpha) = beta * self + alpha * (mat1 @ mat2), the product a
 * MatMulV2 or BatchMatMul (ud); beta 0 leaves self out, as torch. */
/* The result beta * self + alpha * prod (arguments 0, 3, 4) in dt, cast
 * to the node's dtype; beta 0 leaves self out, as torch. prod is already
 * scaled by alpha when `scaled`. */
static airc_status add_scaled_self_act(airc_ge_builder *b, airc_ge_tensor prod, airc_dtype dt,
                                       bool scaled, const char *act)
{
    airc_ge_tensor y = prod, bias;
    const airc_tmeta *om = &b->node->out[0];
    if (!scaled)
        AIRC_TRY(airc_ge_scale(b, prod, 4, &y));
    if (airc_ge_number_arg(b, 3, 1.0) != 0) {
        AIRC_TRY(airc_ge_operand(b, 0, om->dtype, &bias));
        AIRC_TRY(airc_ge_cast(b, bias, dt, &bias));
        AIRC_TRY(airc_ge_scale(b, bias, 3, &bias));
        airc_ge_tensor in[2] = {y, bias};
        AIRC_TRY(airc_ge_ew_op(b, "Add", in, 2, dt, om->ndim, om->shape, &y));
    }
    AIRC_TRY(airc_ge_cast(b, y, om->dtype, &y));
    if (act) /* _addmm_activation's, on the result */
        AIRC_TRY(airc_ge_ew_op(b, act, &y, 1, om->dtype, om->ndim, om->shape, &y));
    return airc_ge_set_result(b, 0, y);
}

static airc_status add_scaled_self(airc_ge_builder *b, airc_ge_tensor prod, airc_dtype dt,
                                   bool scaled)
{
    return add_scaled_self_act(b, prod, dt, scaled, NULL);
}

static airc_status conv_addmm(airc_ge_builder *b, const airc_node *n, void *ud)
{
    airc_ge_tensor prod;
    AIRC_TRY(matmul(b, ud, 1, 2, false, &prod));
    return add_scaled_self(b, prod, n->out[0].dtype, false);
}

/* _addmm_activation(self, mat1, mat2, beta, alpha, use_gelu): addmm, then
 * Relu or Gelu (the exact one) of its result in the result's dtype. */
static airc_status conv_addmm_activation(airc_ge_builder *b, const airc_node *n, void *ud)
{
    airc_ge_tensor prod;
    AIRC_TRY(matmul(b, ud, 1, 2, false, &prod));
    return add_scaled_self_act(b, prod, n->out[0].dtype, false,
                               airc_ge_bool_arg(b, 5, false) ? "Gelu" : "Relu");
}

/* The shape of tensor argument arg (its node's meta). */
static const airc_tmeta *arg_meta(airc_ge_builder *b, size_t arg)
{
    const airc_value *v = airc_ge_arg(b, arg);
    return v && v->kind == AIRC_VALUE_NODE && v->u.node->nout == 1 ? &v->u.node->out[0] : NULL;
}

/* addmv(self, mat, vec, beta, alpha): MatMul of vec as a [k, 1] column,
 * Reshape to [n] (half types in f32), then as addmm. */
static airc_status conv_addmv(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_tmeta *mm = arg_meta(b, 1);
    if (!mm || mm->ndim != 2)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: mat must be a matrix", n->target);
    airc_dtype dt = airc_ge_compute_dtype(n->out[0].dtype);
    int64_t col[2] = {mm->shape[1], 1}, prod[2] = {mm->shape[0], 1};
    airc_ge_tensor x, v, y;
    AIRC_TRY(airc_ge_operand(b, 1, dt, &x));
    AIRC_TRY(airc_ge_operand(b, 2, dt, &v));
    AIRC_TRY(airc_ge_reshape(b, v, dt, 2, col, &v));
    AIRC_TRY(matmul_plain(b, &m_mm, x, v, dt, 2, prod, &y));
    AIRC_TRY(airc_ge_reshape(b, y, dt, 1, prod, &y));
    return add_scaled_self(b, y, dt, false);
}

/* addbmm(self, batch1, batch2, beta, alpha): BatchMatMul, ReduceSum over
 * the batch (half types in f32), then as addmm. */
static airc_status conv_addbmm(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_tmeta *b1 = arg_meta(b, 1), *om = &n->out[0];
    if (!b1 || b1->ndim != 3)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: batch1 must be 3-d", n->target);
    airc_dtype dt = airc_ge_compute_dtype(om->dtype);
    int64_t shape[3] = {b1->shape[0], om->shape[0], om->shape[1]}, axis = 0;
    airc_ge_tensor x1, x2, y;
    AIRC_TRY(airc_ge_operand(b, 1, dt, &x1));
    AIRC_TRY(airc_ge_operand(b, 2, dt, &x2));
    AIRC_TRY(matmul_plain(b, &m_bmm, x1, x2, dt, 3, shape, &y));
    AIRC_TRY(airc_ge_reduce(b, "ReduceSum", y, &axis, 1, false, dt, 2, om->shape, &y));
    return add_scaled_self(b, y, dt, false);
}

/* addr(self, vec1, vec2, beta, alpha): Mul(Mul(alpha, vec1 as a column),
 * vec2 as a row), each in the result's dtype as torch rounds it, then
 * as addmm; bools as LogicalAnd / LogicalOr. */
static airc_status conv_addr(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_tmeta *om = &n->out[0];
    airc_dtype dt = om->dtype;
    bool logical = dt == AIRC_DTYPE_BOOL;
    int64_t col[2] = {om->shape[0], 1}, row[2] = {1, om->shape[1]};
    airc_ge_tensor in[2], y;
    AIRC_TRY(airc_ge_operand(b, 1, dt, &in[0]));
    AIRC_TRY(airc_ge_operand(b, 2, dt, &in[1]));
    AIRC_TRY(airc_ge_reshape(b, in[0], dt, 2, col, &in[0]));
    AIRC_TRY(airc_ge_reshape(b, in[1], dt, 2, row, &in[1]));
    if (!logical) {
        AIRC_TRY(airc_ge_scale(b, in[0], 4, &in[0]));
        AIRC_TRY(airc_ge_ew_op(b, "Mul", in, 2, dt, 2, om->shape, &y));
        return add_scaled_self(b, y, dt, true);
    }
    if (airc_ge_number_arg(b, 4, 1.0) == 0) { /* alpha false: the column all false */
        airc_ge_tensor t[2] = {in[0]};
        AIRC_TRY(airc_ge_const_scalar(b, dt, 0, &t[1]));
        AIRC_TRY(airc_ge_ew_op(b, "LogicalAnd", t, 2, dt, 2, col, &in[0]));
    }
    AIRC_TRY(airc_ge_ew_op(b, "LogicalAnd", in, 2, dt, 2, om->shape, &y));
    if (airc_ge_number_arg(b, 3, 1.0) != 0) {
        in[0] = y;
        AIRC_TRY(airc_ge_operand(b, 0, dt, &in[1]));
        AIRC_TRY(airc_ge_ew_op(b, "LogicalOr", in, 2, dt, 2, om->shape, &y));
    }
    return airc_ge_set_result(b, 0, y);
}

/* mv(self, vec) and dot(self, tensor): a MatMul of the vector as a [k, 1]
 * column (dot's self as a [1, k] row), reshaped to the result. */
static airc_status conv_mv(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_tmeta *om = &n->out[0];
    airc_dtype dt = om->dtype;
    const airc_value *vec = airc_ge_arg(b, 1);
    if (!vec || vec->kind != AIRC_VALUE_NODE || vec->u.node->nout != 1)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: the vector must be a tensor", n->target);
    int64_t rows = om->ndim ? om->shape[0] : 1, k = vec->u.node->out[0].shape[0];
    int64_t row[2] = {1, k}, col[2] = {k, 1}, prod[2] = {rows, 1};
    airc_ge_tensor x, v, y;
    AIRC_TRY(airc_ge_operand(b, 0, dt, &x));
    AIRC_TRY(airc_ge_operand(b, 1, dt, &v));
    if (om->ndim == 0)
        AIRC_TRY(airc_ge_reshape(b, x, dt, 2, row, &x));
    AIRC_TRY(airc_ge_reshape(b, v, dt, 2, col, &v));
    AIRC_TRY(matmul_plain(b, &m_mm, x, v, dt, 2, prod, &y));
    AIRC_TRY(airc_ge_reshape(b, y, dt, om->ndim, om->shape, &y));
    return airc_ge_set_result(b, 0, y);
}

/* ---- raisers ------------------------------------------------------------------ */

static airc_status raise_matmul(ge_raise *r)
{
    const mat_op *m = r->data;
    if (r->nin < 2 || !r->in[0] || !r->in[1])
        return airc_fail(AIRC_E_INVALID_GRAPH, "op '%s' (%s): needs inputs x1 and x2", r->op->name,
                         r->op->type);
    bool ta, tb;
    AIRC_TRY(airc_ge_attr_b(r, m->ta, false, false, &ta));
    AIRC_TRY(airc_ge_attr_b(r, m->tb, false, false, &tb));
    airc_node *x[2] = {r->in[0], r->in[1]};
    bool t[2] = {ta, tb};
    for (int i = 0; i < 2; i++) {
        if (!t[i])
            continue;
        const airc_value *args[3] = {airc_ge_vnode(r, x[i]), NULL, NULL};
        airc_value_int(r->g, -2, &args[1]);
        airc_value_int(r->g, -1, &args[2]);
        AIRC_TRY(airc_ge_raise_call(r, "aten.transpose.int", args, 3, NULL, NULL, 0, &x[i]));
    }
    const airc_value *args[2] = {airc_ge_vnode(r, x[0]), airc_ge_vnode(r, x[1])};
    const char *aten = m == &m_bmm ? "aten.bmm.default" : "aten.mm.default";
    airc_node *y;
    AIRC_TRY(airc_ge_raise_call(r, aten, args, 2, NULL, NULL, 0, &y));
    if (r->nin > 2 && r->in[2]) { /* MatMulV2's bias */
        const airc_value *a2[2] = {airc_ge_vnode(r, y), airc_ge_vnode(r, r->in[2])};
        AIRC_TRY(airc_ge_raise_call(r, "aten.add.Tensor", a2, 2, NULL, NULL, 0, &y));
    }
    r->out[0] = y;
    return AIRC_OK;
}

/* linalg_cross(self, other, dim) -> Cross (attribute dim) */
static airc_status conv_cross(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    airc_ge_tensor in[2];
    AIRC_TRY(airc_ge_input(b, 0, &in[0]));
    AIRC_TRY(airc_ge_input(b, 1, &in[1]));
    static const char *const names[] = {"x1", "x2"};
    airc_ge_op *op;
    AIRC_TRY(airc_ge_simple(b, "Cross", names, in, 2, &op));
    int64_t dim = airc_ge_int_arg(b, 2, -1);
    return airc_ge_op_attr_int(op, "dim", dim < 0 ? dim + n->out[0].ndim : dim);
}

static airc_status raise_cross(ge_raise *r)
{
    AIRC_TRY(airc_ge_raise_arity(r, 2));
    int64_t dim;
    AIRC_TRY(airc_ge_attr_i(r, "dim", true, -1, &dim));
    const airc_value *args[2] = {airc_ge_vnode(r, r->in[0]), airc_ge_vnode(r, r->in[1])};
    static const char *const kw[] = {"dim"};
    const airc_value *kv[1] = {airc_ge_vint(r, dim)};
    return airc_ge_raise_call(r, "aten.linalg_cross.default", args, 2, kw, kv, 1, &r->out[0]);
}

/* _cdist_forward(x1, x2, p, compute_mode) -> Cdist (attributes p and, for
 * the reference executor's numbers, compute_mode: 0 for None) */
static airc_status conv_cdist(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)n;
    airc_ge_tensor in[2];
    AIRC_TRY(airc_ge_input(b, 0, &in[0]));
    AIRC_TRY(airc_ge_input(b, 1, &in[1]));
    static const char *const names[] = {"x1", "x2"};
    airc_ge_op *op;
    AIRC_TRY(airc_ge_simple(b, "Cdist", names, in, 2, &op));
    AIRC_TRY(airc_ge_op_attr_float(op, "p", airc_ge_number_arg(b, 2, 2.0)));
    /* _euclidean_dist (ud non-NULL): the matrix form, mode 1 */
    return airc_ge_op_attr_int(op, "compute_mode", ud ? 1 : airc_ge_int_arg(b, 3, 0));
}

/* The most elements _pdist_forward's row pairs may hold (256 MiB of f32). */
#define PDIST_MAX_CELLS (INT64_C(1) << 26)

/* _pdist_forward(self, p) as torch's pdist kernel: the rows of each pair
 * i < j (GatherV2 of self at Consts of the i and j), |a - b| (Sub, Abs),
 * reduced along the row: p = 0 Minimum(Ceil, 1) summed, 1 ReduceSum, 2 the root
 * of the squares' sum, inf ReduceMax (a NaN wins, as torch's vector max),
 * else Pow, ReduceSum, Pow by 1 / p; rows of no columns give 0. */
static airc_status conv_pdist(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_tmeta *xm = &n->inputs[0]->out[0], *om = &n->out[0];
    airc_dtype dt = om->dtype;
    int64_t pairs = om->shape[0], rows = xm->ndim ? xm->shape[0] : 0;
    int64_t m = xm->ndim == 2 ? xm->shape[1] : 0, ab[2] = {pairs, m}, axis = 1;
    airc_ge_tensor t[2], y;
    if (pairs == 0 || m == 0) {
        AIRC_TRY(airc_ge_fill(b, dt, 1, &pairs, 0, &y));
        return airc_ge_set_result(b, 0, y);
    }
    if (pairs > PDIST_MAX_CELLS / m)
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "_pdist_forward of [%lld, %lld]: its row pairs would hold more than "
                         "%lld elements",
                         (long long)rows, (long long)m, (long long)PDIST_MAX_CELLS);
    int64_t *pi = airc_arena_alloc(&b->mem, 2 * sizeof *pi * (size_t)pairs), *pj = pi + pairs;
    if (!pi)
        return airc_fail_oom("the pair positions");
    for (int64_t i = 0, c = 0; i < rows; i++)
        for (int64_t j = i + 1; j < rows; j++, c++) {
            pi[c] = i;
            pj[c] = j;
        }
    airc_ge_tensor x, idx;
    AIRC_TRY(airc_ge_input(b, 0, &x));
    AIRC_TRY(airc_ge_const(b, AIRC_DTYPE_I64, 1, &pairs, pi, &idx));
    AIRC_TRY(airc_ge_gather(b, x, idx, 0, dt, 2, ab, &t[0]));
    AIRC_TRY(airc_ge_const(b, AIRC_DTYPE_I64, 1, &pairs, pj, &idx));
    AIRC_TRY(airc_ge_gather(b, x, idx, 0, dt, 2, ab, &t[1]));
    AIRC_TRY(airc_ge_ew_op(b, "Sub", t, 2, dt, 2, ab, &t[0]));
    AIRC_TRY(airc_ge_ew_op(b, "Abs", t, 1, dt, 2, ab, &t[0]));
    double p = airc_ge_number_arg(b, 1, 2.0);
    if (dt != AIRC_DTYPE_F64) /* torch picks the norm by p in self's type */
        p = (float)p;
    if (isinf(p)) {
        AIRC_TRY(airc_ge_reduce(b, "ReduceMax", t[0], &axis, 1, false, dt, 1, &pairs, &y));
        return airc_ge_set_result(b, 0, y);
    }
    if (p == 0) { /* torch's min(ceil |d|, 1): a NaN stays */
        AIRC_TRY(airc_ge_ew_op(b, "Ceil", t, 1, dt, 2, ab, &t[0]));
        AIRC_TRY(airc_ge_const_scalar(b, dt, 1, &t[1]));
        AIRC_TRY(airc_ge_ew_op(b, "Minimum", t, 2, dt, 2, ab, &t[0]));
    } else if (p == 2) {
        t[1] = t[0];
        AIRC_TRY(airc_ge_ew_op(b, "Mul", t, 2, dt, 2, ab, &t[0]));
    } else if (p != 1) {
        AIRC_TRY(airc_ge_const_scalar(b, dt, p, &t[1]));
        AIRC_TRY(airc_ge_ew_op(b, "Pow", t, 2, dt, 2, ab, &t[0]));
    }
    AIRC_TRY(airc_ge_reduce(b, "ReduceSum", t[0], &axis, 1, false, dt, 1, &pairs, &y));
    if (p == 2)
        AIRC_TRY(airc_ge_ew_op(b, "Sqrt", &y, 1, dt, 1, &pairs, &y));
    if (p != 0 && p != 1 && p != 2) {
        t[0] = y;
        AIRC_TRY(airc_ge_const_scalar(b, dt, 1.0 / p, &t[1]));
        AIRC_TRY(airc_ge_ew_op(b, "Pow", t, 2, dt, 1, &pairs, &y));
    }
    return airc_ge_set_result(b, 0, y);
}

static airc_status raise_cdist(ge_raise *r)
{
    AIRC_TRY(airc_ge_raise_arity(r, 2));
    double p;
    int64_t mode;
    AIRC_TRY(airc_ge_attr_f(r, "p", false, 2.0, &p));
    AIRC_TRY(airc_ge_attr_i(r, "compute_mode", false, 0, &mode));
    const airc_value *args[4] = {airc_ge_vnode(r, r->in[0]), airc_ge_vnode(r, r->in[1]),
                                 airc_ge_vfloat(r, p), airc_ge_vint(r, mode)};
    return airc_ge_raise_call(r, "aten._cdist_forward.default", args, 4, NULL, NULL, 0, &r->out[0]);
}

/* _compute_linear_combination(input, coefficients) -> Mul of coefficients
 * [m, n, 1] by input [1, n, rest], ReduceSum over n, Reshaped to the
 * result; in f32 for f16 and bf16, int64 for the integers and bool (Cast
 * back: wraps, and != 0 for bool); an empty result a Fill. */
static airc_status conv_linear_combination(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_tmeta *om = &n->out[0], *cm = &n->inputs[1]->out[0];
    airc_dtype dt = om->dtype,
               ct = airc_dtype_is_floating(dt) ? airc_ge_compute_dtype(dt) : AIRC_DTYPE_I64;
    airc_ge_tensor t[2], y;
    int64_t m = cm->shape[0], k = cm->shape[1], rest = 1;
    for (int32_t d = 1; d < om->ndim; d++)
        rest *= om->shape[d];
    if (m * rest == 0) {
        AIRC_TRY(airc_ge_fill(b, dt, om->ndim, om->shape, 0, &y));
        return airc_ge_set_result(b, 0, y);
    }
    int64_t xs[3] = {1, k, rest}, cs[3] = {m, k, 1}, ps[3] = {m, k, rest}, rs[2] = {m, rest};
    AIRC_TRY(airc_ge_operand(b, 0, ct, &t[1]));
    AIRC_TRY(airc_ge_reshape(b, t[1], ct, 3, xs, &t[1]));
    AIRC_TRY(airc_ge_operand(b, 1, ct, &t[0]));
    AIRC_TRY(airc_ge_reshape(b, t[0], ct, 3, cs, &t[0]));
    AIRC_TRY(airc_ge_ew_op(b, "Mul", t, 2, ct, 3, ps, &y));
    const int64_t axis = 1;
    AIRC_TRY(airc_ge_reduce(b, "ReduceSum", y, &axis, 1, false, ct, 2, rs, &y));
    AIRC_TRY(airc_ge_reshape(b, y, ct, om->ndim, om->shape, &y));
    AIRC_TRY(airc_ge_cast(b, y, dt, &y));
    return airc_ge_set_result(b, 0, y);
}

static const ge_conv_entry conv[] = {
    {"aten._compute_linear_combination.default", conv_linear_combination, NULL},
    {"aten.linalg_cross.default", conv_cross, NULL},
    {"aten._cdist_forward.default", conv_cdist, NULL},
    {"aten._euclidean_dist.default", conv_cdist, "matrix"},
    {"aten._pdist_forward.default", conv_pdist, NULL},
    {"aten.mm.default", conv_mm, &m_mm},
    {"aten.bmm.default", conv_mm, &m_bmm},
    {"aten.addmm.default", conv_addmm, &m_mmv2},
    {"aten._addmm_activation.default", conv_addmm_activation, &m_mmv2},
    {"aten.baddbmm.default", conv_addmm, &m_bmm},
    {"aten.mv.default", conv_mv, NULL},
    {"aten.addmv.default", conv_addmv, NULL},
    {"aten.addbmm.default", conv_addbmm, NULL},
    {"aten.addr.default", conv_addr, NULL},
    {"aten.dot.default", conv_mv, NULL},
    {"aten.vdot.default", conv_mv, NULL},
};

static const ge_raise_entry raise[] = {
    {"Cross", raise_cross, NULL},          {"Cdist", raise_cdist, NULL},
    {"MatMul", raise_matmul, &m_mm},       {"MatMulV2", raise_matmul, &m_mmv2},
    {"BatchMatMul", raise_matmul, &m_bmm},
};

const ge_family airc_ge_family_linalg = {conv, sizeof conv / sizeof *conv, raise,
                                         sizeof raise / sizeof *raise};
