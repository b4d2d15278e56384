/* The LAPACK-backed linear algebra to Ascend IR (TorchAir has no
 * converters for them): CANN's linalg ops, of TensorFlow's semantics --
 * MatrixInverse, MatrixDeterminant, LogMatrixDeterminant (sign, y),
 * Cholesky (from the lower triangle), MatrixSolve, MatrixTriangularSolve
 * (lower, adjoint), SelfAdjointEig (from the lower triangle; compute_v),
 * Svd (sigma, u, v = Vh^T; compute_uv, full_matrices), Qr (q, r;
 * full_matrices) and Lu (lu, p: a row permutation) -- with Transposes and BroadcastTos around them:
 * an upper triangle is the lower one of A^T, X A = B is A^T X^T = B^T, and cholesky_solve /
 * cholesky_inverse are two triangular solves. The device's ops report no status: info results are
 * zeros, and _linalg_check_errors lowers to nothing (a data check, which max-autotune skips as it
 * skips the others). The LU factors and pivots that _linalg_det, _linalg_slogdet and
 * _linalg_solve_ex also return, and linalg_lu_factor_ex, are refused where read: LAPACK's
 * sequential pivots are not a device op's. The raisers give the aten ops back. */
#include "backends/ge/lapack_internal.h"
#include "ir/ir.h"
#include "ops/meta_util.h"
#include "ops/ops.h"

#include <string.h>

/* Whether result j of n is read (a getitem of it has users). */
bool airc_gla_result_read(const airc_node *n, int64_t j)
{
    for (uint32_t i = 0; i < n->nusers; i++) {
        const airc_node *u = n->users[i];
        if (u->kind != AIRC_NODE_CALL_FUNCTION || !u->op ||
            strcmp(u->op->qualname, AIRC_OP_GETITEM) || u->nargs < 2 ||
            airc_value_get_kind(u->args[1]) != AIRC_VALUE_INT)
            return true;
        if (u->args[1]->u.i == j && u->nusers)
            return true;
    }
    return false;
}

/* Result j: zeros (an info, or an output the call does not compute) */
airc_status airc_gla_zeros_result(airc_ge_builder *b, const airc_node *n, size_t j)
{
    airc_ge_tensor z;
    AIRC_TRY(airc_ge_fill(b, n->out[j].dtype, n->out[j].ndim, n->out[j].shape, 0, &z));
    return airc_ge_set_result(b, j, z);
}

/* x with its last two dims swapped */
airc_status airc_gla_swap_last(airc_ge_builder *b, airc_ge_tensor x, airc_ge_tensor *out)
{
    airc_dtype dt;
    int32_t nd;
    const int64_t *s;
    AIRC_TRY(airc_ge_tensor_meta(b, x, &dt, &nd, &s));
    if (nd < 2)
        return airc_fail(AIRC_E_UNSUPPORTED, "a matrix of %d dims", (int)nd);
    int64_t perm[AIRC_MAX_DIMS];
    for (int32_t i = 0; i < nd; i++)
        perm[i] = i;
    perm[nd - 2] = nd - 1;
    perm[nd - 1] = nd - 2;
    return airc_ge_transpose(b, x, dt, nd, s, perm, out);
}

/* x broadcast to batch[0..nb) and its own last two dims */
airc_status airc_gla_to_batch(airc_ge_builder *b, airc_ge_tensor x, int32_t nb,
                              const int64_t *batch, airc_ge_tensor *out)
{
    airc_dtype dt;
    int32_t nd;
    const int64_t *s;
    AIRC_TRY(airc_ge_tensor_meta(b, x, &dt, &nd, &s));
    int64_t shape[AIRC_MAX_DIMS];
    memcpy(shape, batch, (size_t)nb * sizeof *shape);
    shape[nb] = s[nd - 2];
    shape[nb + 1] = s[nd - 1];
    return airc_ge_broadcast(b, x, nb + 2, shape, out);
}

/* One op of `type` on x (input name `in`), its outputs named outs[] of
 * the given metas. */
airc_status airc_gla_unary_op(airc_ge_builder *b, const char *type, const char *in,
                              airc_ge_tensor x, const char *const *outs,
                              const airc_tmeta *const *metas, size_t nout, airc_ge_op **opp,
                              airc_ge_tensor *ys)
{
    AIRC_TRY(airc_ge_op_create(b, type, opp));
    AIRC_TRY(airc_ge_op_input(*opp, in, x));
    for (size_t j = 0; j < nout; j++)
        AIRC_TRY(airc_ge_op_output(*opp, outs[j], metas[j]->dtype, metas[j]->ndim, metas[j]->shape,
                                   &ys[j]));
    return AIRC_OK;
}

airc_status airc_gla_refuse_unrolled(const airc_node *n, int64_t count, const char *what, int max)
{
    return airc_fail(AIRC_E_UNSUPPORTED,
                     "node '%s' has no Ascend IR lowering here: its %lld %s are unrolled, up to %d",
                     n->name, (long long)count, what, max);
}

/* Most rows whose pivots the lowering unrolls (a dozen ops a row). */
#define MAX_PIVOT_ROWS 64

/* A const int32 vector [n] of f(i) */
airc_status airc_gla_const_i32(airc_ge_builder *b, int64_t n, int64_t one_at, airc_ge_tensor *out)
{
    int32_t *v = airc_malloc(b->ctx, (size_t)(n > 0 ? n : 1) * sizeof *v);
    if (!v)
        return airc_fail(AIRC_E_OUT_OF_MEMORY, "out of memory: an index vector");
    for (int64_t i = 0; i < n; i++)
        v[i] = one_at < 0 ? (int32_t)i : i == one_at;
    airc_status st = airc_ge_const(b, AIRC_DTYPE_I32, 1, &n, v, out);
    airc_free(b->ctx, v);
    return st;
}

airc_status airc_gla_ew2(airc_ge_builder *b, const char *type, airc_ge_tensor x, airc_ge_tensor y,
                         airc_dtype dt, int32_t nd, const int64_t *shape, airc_ge_tensor *out)
{
    airc_ge_tensor in[2] = {x, y};
    return airc_ge_ew_op(b, type, in, 2, dt, nd, shape, out);
}

/* LAPACK's pivots (1-based, row i swapped with row pivots[i] - 1 in
 * turn) of a row permutation p (int32 [..., n], row i of the factored
 * matrix is row p[i]), unrolled over the n rows: the current order cur
 * starts as 0..n-1; step i finds p[i] in it (at j), records j + 1 and
 * swaps cur[i] and cur[j]. */
static airc_status pivots_of(airc_ge_builder *b, airc_ge_tensor p, int32_t nd, const int64_t *shape,
                             airc_ge_tensor *out)
{
    const airc_dtype I = AIRC_DTYPE_I32;
    int64_t n = shape[nd - 1], sk[AIRC_MAX_DIMS], axis = nd - 1;
    memcpy(sk, shape, (size_t)nd * sizeof *sk);
    sk[nd - 1] = 1;
    airc_ge_tensor iota, cur, piv, one;
    AIRC_TRY(airc_gla_const_i32(b, n, -1, &iota));
    AIRC_TRY(airc_ge_fill(b, I, nd, shape, 0, &piv));
    AIRC_TRY(airc_gla_ew2(b, "Add", piv, iota, I, nd, shape, &cur));
    AIRC_TRY(airc_ge_const_scalar(b, I, 1, &one));
    for (int64_t i = 0; i < n; i++) {
        airc_ge_tensor idx, t, eq, j, e, ci, mi;
        AIRC_TRY(airc_ge_const_ints(b, &i, 1, &idx));
        AIRC_TRY(airc_ge_gather(b, p, idx, axis, I, nd, sk, &t));
        AIRC_TRY(airc_gla_ew2(b, "Equal", cur, t, AIRC_DTYPE_BOOL, nd, shape, &eq));
        AIRC_TRY(airc_ge_cast(b, eq, I, &eq));
        AIRC_TRY(airc_gla_ew2(b, "Mul", eq, iota, I, nd, shape, &j));
        AIRC_TRY(airc_ge_reduce(b, "ReduceSum", j, &axis, 1, true, I, nd, sk, &j));
        AIRC_TRY(airc_gla_const_i32(b, n, i, &e));
        AIRC_TRY(airc_gla_ew2(b, "Add", j, one, I, nd, sk, &ci));
        AIRC_TRY(airc_gla_ew2(b, "Mul", ci, e, I, nd, shape, &ci));
        AIRC_TRY(airc_gla_ew2(b, "Add", piv, ci, I, nd, shape, &piv));
        AIRC_TRY(airc_ge_gather(b, cur, idx, axis, I, nd, sk, &ci));
        AIRC_TRY(airc_gla_ew2(b, "Equal", iota, j, AIRC_DTYPE_BOOL, nd, shape, &mi));
        AIRC_TRY(airc_ge_select(b, mi, ci, cur, I, nd, shape, &cur));
        AIRC_TRY(airc_ge_cast(b, e, AIRC_DTYPE_BOOL, &mi));
        AIRC_TRY(airc_ge_select(b, mi, t, cur, I, nd, shape, &cur));
    }
    *out = piv;
    return AIRC_OK;
}

/* x's columns [0, cols) (last axis) or rows [0, rows) (the one before) */
airc_status airc_gla_leading(airc_ge_builder *b, airc_ge_tensor x, int32_t axis_from_end,
                             int64_t count, airc_ge_tensor *out)
{
    airc_dtype dt;
    int32_t nd;
    const int64_t *s;
    AIRC_TRY(airc_ge_tensor_meta(b, x, &dt, &nd, &s));
    int64_t axis = nd - axis_from_end, shape[AIRC_MAX_DIMS];
    if (s[axis] == count) {
        *out = x;
        return AIRC_OK;
    }
    memcpy(shape, s, (size_t)nd * sizeof *shape);
    shape[axis] = count;
    airc_ge_tensor idx;
    AIRC_TRY(airc_gla_const_i32(b, count, -1, &idx));
    return airc_ge_gather(b, x, idx, axis, dt, nd, shape, out);
}

/* A [*, m, n] (meta am) padded with zero columns (m > n) or rows (m < n)
 * to a square [*, s, s] (meta out_m): partial pivoting takes a zero entry
 * only where the whole column left is zero, and then the first row, so the
 * first min(m, n) steps of the square's factorization are A's own; the
 * rest touch only the padding */
static airc_status pad_square(airc_ge_builder *b, airc_ge_tensor a, const airc_tmeta *am,
                              airc_ge_tensor *out, airc_tmeta *out_m)
{
    int32_t nd = am->ndim;
    int64_t rows = am->shape[nd - 2], cols = am->shape[nd - 1], s = rows > cols ? rows : cols;
    *out_m = *am;
    out_m->shape[nd - 2] = out_m->shape[nd - 1] = s;
    if (rows == cols) {
        *out = a;
        return AIRC_OK;
    }
    int64_t axis = rows < cols ? nd - 2 : nd - 1, zs[AIRC_MAX_DIMS];
    memcpy(zs, am->shape, (size_t)nd * sizeof *zs);
    zs[axis] = s - am->shape[axis];
    airc_ge_tensor piece[2] = {a};
    AIRC_TRY(airc_ge_fill(b, am->dtype, nd, zs, 0, &piece[1]));
    return airc_ge_concat(b, piece, 2, axis, am->dtype, nd, out_m->shape, out);
}

/* Lu of the square matrices a ([..., n, n], meta m): lu and the row
 * permutation p (int32 [..., n]) */
static airc_status lu_op(airc_ge_builder *b, airc_ge_tensor a, const airc_tmeta *m,
                         airc_ge_tensor *lu, airc_ge_tensor *p)
{
    airc_tmeta im = *m;
    im.dtype = AIRC_DTYPE_I32;
    im.ndim = m->ndim - 1;
    static const char *const outs[] = {"lu", "p"};
    const airc_tmeta *metas[2] = {m, &im};
    airc_ge_tensor y[2];
    airc_ge_op *op;
    AIRC_TRY(airc_gla_unary_op(b, "Lu", "input", a, outs, metas, 2, &op, y));
    AIRC_TRY(airc_ge_op_attr_dtype(op, "output_idx_type", AIRC_DTYPE_I32));
    *lu = y[0];
    *p = y[1];
    return AIRC_OK;
}

/* Results lu_at (LU factors) and lu_at + 1 (pivots) of n: LAPACK's
 * getrf of its input a (meta am; padded to a square for the device's Lu),
 * or of a^T where torch factors that (a row-major A), from Lu's factors
 * and permutation; zeros where not read. */
static airc_status lu_results(airc_ge_builder *b, const airc_node *n, airc_ge_tensor a,
                              const airc_tmeta *am, bool transposed, size_t lu_at)
{
    int32_t nd = am->ndim;
    int64_t rows = am->shape[nd - 2], cols = am->shape[nd - 1], k = rows < cols ? rows : cols;
    if (!k || (!airc_gla_result_read(n, (int64_t)lu_at) &&
               !airc_gla_result_read(n, (int64_t)lu_at + 1))) {
        AIRC_TRY(airc_gla_zeros_result(b, n, lu_at));
        return airc_gla_zeros_result(b, n, lu_at + 1);
    }
    if (rows > MAX_PIVOT_ROWS || cols > MAX_PIVOT_ROWS)
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "node '%s' has no Ascend IR lowering here: its pivots are unrolled from "
                         "the device's Lu up to %d rows",
                         n->name, MAX_PIVOT_ROWS);
    airc_ge_tensor lu, p, piv;
    airc_tmeta sm;
    if (transposed)
        AIRC_TRY(airc_gla_swap_last(b, a, &a));
    AIRC_TRY(pad_square(b, a, am, &a, &sm));
    AIRC_TRY(lu_op(b, a, &sm, &lu, &p));
    AIRC_TRY(pivots_of(b, p, nd - 1, sm.shape, &piv));
    AIRC_TRY(airc_gla_leading(b, lu, rows < cols ? 2 : 1, k, &lu));
    AIRC_TRY(airc_gla_leading(b, piv, 1, k, &piv));
    AIRC_TRY(airc_ge_set_result(b, lu_at, lu));
    return airc_ge_set_result(b, lu_at + 1, piv);
}

/* The meta of the node's tensor argument i */
const airc_tmeta *airc_gla_arg_meta(airc_ge_builder *b, size_t i)
{
    const airc_value *v = airc_ge_arg(b, i);
    const airc_node *x = v && v->kind == AIRC_VALUE_NODE ? v->u.node : NULL;
    return x && x->nout ? &x->out[0] : NULL;
}

/* linalg_inv_ex, _linalg_det, _linalg_slogdet */
static airc_status conv_square(airc_ge_builder *b, const airc_node *n, void *ud)
{
    const char *type = ud;
    airc_ge_tensor x, y[2];
    AIRC_TRY(airc_ge_input(b, 0, &x));
    bool slog = !strcmp(type, "LogMatrixDeterminant");
    static const char *const one[] = {"y"}, *const two[] = {"sign", "y"};
    const airc_tmeta *metas[2] = {&n->out[0], &n->out[1]};
    airc_ge_op *op;
    AIRC_TRY(airc_gla_unary_op(b, type, "x", x, slog ? two : one, metas, slog ? 2 : 1, &op, y));
    if (!strcmp(type, "MatrixInverse"))
        AIRC_TRY(airc_ge_op_attr_bool(op, "adjoint", 0));
    AIRC_TRY(airc_ge_set_result(b, 0, y[0]));
    if (slog)
        AIRC_TRY(airc_ge_set_result(b, 1, y[1]));
    if (!strcmp(type, "MatrixInverse"))
        return airc_gla_zeros_result(b, n, 1);
    const airc_tmeta *am = airc_gla_arg_meta(b, 0);
    if (!am)
        return airc_fail(AIRC_E_UNSUPPORTED, "node '%s': A is not a tensor", n->name);
    return lu_results(b, n, x, am, airc_meta_is_contiguous(am), slog ? 2 : 1);
}

/* Cholesky of A's lower triangle, or of A^T's for upper (then
 * transposed back) */
static airc_status cholesky(airc_ge_builder *b, airc_ge_tensor a, bool upper, const airc_tmeta *m,
                            airc_ge_tensor *out)
{
    if (upper)
        AIRC_TRY(airc_gla_swap_last(b, a, &a));
    static const char *const y[] = {"y"};
    airc_ge_op *op;
    AIRC_TRY(airc_gla_unary_op(b, "Cholesky", "x", a, y, &m, 1, &op, out));
    return upper ? airc_gla_swap_last(b, *out, out) : AIRC_OK;
}

/* linalg_cholesky_ex (L, info) and cholesky (L) */
static airc_status conv_cholesky(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    airc_ge_tensor a, l;
    AIRC_TRY(airc_ge_input(b, 0, &a));
    if (!airc_tmeta_numel(&n->out[0]))
        AIRC_TRY(airc_gla_zeros_result(b, n, 0));
    else {
        AIRC_TRY(cholesky(b, a, airc_ge_bool_arg(b, 1, false), &n->out[0], &l));
        AIRC_TRY(airc_ge_set_result(b, 0, l));
    }
    return n->nout == 2 ? airc_gla_zeros_result(b, n, 1) : AIRC_OK;
}

/* MatrixTriangularSolve(matrix, rhs; lower, adjoint), matrix and rhs of
 * one batch, its result of meta m */
airc_status airc_gla_tri_solve(airc_ge_builder *b, airc_ge_tensor a, airc_ge_tensor rhs, bool lower,
                               bool adjoint, const airc_tmeta *m, airc_ge_tensor *out)
{
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "MatrixTriangularSolve", &op));
    AIRC_TRY(airc_ge_op_input(op, "matrix", a));
    AIRC_TRY(airc_ge_op_input(op, "rhs", rhs));
    AIRC_TRY(airc_ge_op_attr_bool(op, "lower", lower));
    AIRC_TRY(airc_ge_op_attr_bool(op, "adjoint", adjoint));
    return airc_ge_op_output(op, "output", m->dtype, m->ndim, m->shape, out);
}

/* a and rhs broadcast to the result's batch (meta m, nd >= 2) */
airc_status airc_gla_batch_both(airc_ge_builder *b, const airc_tmeta *m, airc_ge_tensor *a,
                                airc_ge_tensor *rhs)
{
    AIRC_TRY(airc_gla_to_batch(b, *a, m->ndim - 2, m->shape, a));
    return airc_gla_to_batch(b, *rhs, m->ndim - 2, m->shape, rhs);
}

/* A const bool [rows, cols] mask of i > j (strict lower), i == j or i <= j */
airc_status airc_gla_tri_mask(airc_ge_builder *b, int64_t rows, int64_t cols, int which,
                              airc_ge_tensor *out)
{
    int64_t count = rows * cols;
    bool *m = airc_malloc(b->ctx, (size_t)(count > 0 ? count : 1));
    if (!m)
        return airc_fail(AIRC_E_OUT_OF_MEMORY, "out of memory: a triangle mask");
    for (int64_t i = 0; i < count; i++) {
        int64_t r = i / cols, c = i % cols;
        m[i] = which < 0 ? r > c : which == 0 ? r == c : r <= c;
    }
    const int64_t s[2] = {rows, cols};
    airc_status st = airc_ge_const(b, AIRC_DTYPE_BOOL, 2, s, m, out);
    airc_free(b->ctx, m);
    return st;
}

/* x1 @ x2 (either adjoint) of one batch: a BatchMatMul over the batch
 * flattened (no Reshapes of 3-d operands and results already so); the
 * result of dtype dt and shape (nd, shape) */
airc_status airc_gla_matmul(airc_ge_builder *b, airc_ge_tensor x1, airc_ge_tensor x2, bool adj1,
                            bool adj2, airc_dtype dt, int32_t nd, const int64_t *shape,
                            airc_ge_tensor *out)
{
    airc_ge_tensor x[2] = {x1, x2};
    int64_t bf = 1;
    for (int32_t i = 0; i < nd - 2; i++)
        bf *= shape[i];
    for (int i = 0; i < 2; i++) {
        airc_dtype xd;
        int32_t xn;
        const int64_t *xs;
        AIRC_TRY(airc_ge_tensor_meta(b, x[i], &xd, &xn, &xs));
        const int64_t s3[3] = {bf, xs[xn - 2], xs[xn - 1]};
        if (xn != 3 || xs[0] != bf)
            AIRC_TRY(airc_ge_reshape(b, x[i], xd, 3, s3, &x[i]));
    }
    const int64_t r3[3] = {bf, shape[nd - 2], shape[nd - 1]};
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "BatchMatMul", &op));
    AIRC_TRY(airc_ge_op_input(op, "x1", x[0]));
    AIRC_TRY(airc_ge_op_input(op, "x2", x[1]));
    AIRC_TRY(airc_ge_op_attr_bool(op, "adj_x1", adj1));
    AIRC_TRY(airc_ge_op_attr_bool(op, "adj_x2", adj2));
    AIRC_TRY(airc_ge_op_output(op, "y", dt, 3, r3, out));
    return nd == 3 ? AIRC_OK : airc_ge_reshape(b, *out, dt, nd, shape, out);
}

airc_status airc_gla_perm_matrix(airc_ge_builder *b, airc_ge_tensor perm, int32_t nb,
                                 const int64_t *batch, int64_t m, bool transposed, airc_dtype dt,
                                 airc_ge_tensor *out)
{
    int64_t shape[AIRC_MAX_DIMS], col[2] = {m, 1};
    memcpy(shape, batch, (size_t)nb * sizeof *shape);
    shape[nb] = transposed ? m : 1;
    shape[nb + 1] = transposed ? 1 : m;
    airc_ge_tensor p, iota;
    AIRC_TRY(airc_ge_reshape(b, perm, AIRC_DTYPE_I32, nb + 2, shape, &p));
    AIRC_TRY(airc_gla_const_i32(b, m, -1, &iota));
    if (!transposed)
        AIRC_TRY(airc_ge_reshape(b, iota, AIRC_DTYPE_I32, 2, col, &iota));
    shape[nb] = shape[nb + 1] = m;
    AIRC_TRY(airc_gla_ew2(b, "Equal", p, iota, AIRC_DTYPE_BOOL, nb + 2, shape, out));
    return airc_ge_cast(b, *out, dt, out);
}

/* A with ones on its diagonal (unitriangular) */
airc_status airc_gla_unit_diagonal(airc_ge_builder *b, airc_ge_tensor a, airc_ge_tensor *out)
{
    airc_dtype dt;
    int32_t nd;
    const int64_t *s;
    AIRC_TRY(airc_ge_tensor_meta(b, a, &dt, &nd, &s));
    airc_ge_tensor eye, one;
    AIRC_TRY(airc_gla_tri_mask(b, s[nd - 1], s[nd - 1], 0, &eye));
    AIRC_TRY(airc_ge_const_scalar(b, dt, 1, &one));
    return airc_ge_select(b, eye, one, a, dt, nd, s, out);
}

/* linalg_solve_triangular(A, B, upper, left, unitriangular) and
 * triangular_solve(b, A, upper, transpose, unitriangular) */
static airc_status conv_solve_triangular(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    bool legacy = n->nout == 2;
    airc_ge_tensor a, rhs, x;
    AIRC_TRY(airc_ge_input(b, legacy ? 1 : 0, &a));
    AIRC_TRY(airc_ge_operand(b, legacy ? 0 : 1, n->out[0].dtype, &rhs));
    bool upper = airc_ge_bool_arg(b, 2, legacy);
    bool left = legacy || airc_ge_bool_arg(b, 3, true);
    bool adjoint = legacy && airc_ge_bool_arg(b, 3, false);
    const airc_tmeta *m = &n->out[0];
    AIRC_TRY(airc_gla_batch_both(b, m, &a, &rhs));
    if (legacy)
        AIRC_TRY(airc_ge_set_result(b, 1, a));
    if (airc_ge_bool_arg(b, 4, false))
        AIRC_TRY(airc_gla_unit_diagonal(b, a, &a));
    if (left) {
        AIRC_TRY(airc_gla_tri_solve(b, a, rhs, !upper, adjoint, m, &x));
        return airc_ge_set_result(b, 0, x);
    }
    /* X A = B: A^T X^T = B^T */
    airc_tmeta mt = *m;
    mt.shape[m->ndim - 2] = m->shape[m->ndim - 1];
    mt.shape[m->ndim - 1] = m->shape[m->ndim - 2];
    AIRC_TRY(airc_gla_swap_last(b, rhs, &rhs));
    AIRC_TRY(airc_gla_tri_solve(b, a, rhs, !upper, true, &mt, &x));
    AIRC_TRY(airc_gla_swap_last(b, x, &x));
    return airc_ge_set_result(b, 0, x);
}

/* cholesky_solve(b, L, upper): L L^T X = B as two triangular solves
 * (upper: U^T U X = B); cholesky_inverse(L, upper): the same against I */
static airc_status conv_cholesky_solve(airc_ge_builder *b, const airc_node *n, void *ud)
{
    bool inverse = ud != NULL;
    const airc_tmeta *m = &n->out[0];
    airc_ge_tensor l, rhs, y;
    AIRC_TRY(airc_ge_input(b, inverse ? 0 : 1, &l));
    if (inverse) {
        int64_t k = m->shape[m->ndim - 1];
        AIRC_TRY(airc_ge_fill(b, m->dtype, 2, (const int64_t[]){k, k}, 0, &rhs));
        AIRC_TRY(airc_gla_unit_diagonal(b, rhs, &rhs));
    } else
        AIRC_TRY(airc_ge_input(b, 0, &rhs));
    bool upper = airc_ge_bool_arg(b, inverse ? 1 : 2, false);
    AIRC_TRY(airc_gla_batch_both(b, m, &l, &rhs));
    AIRC_TRY(airc_gla_tri_solve(b, l, rhs, !upper, upper, m, &y));
    AIRC_TRY(airc_gla_tri_solve(b, l, y, !upper, !upper, m, &y));
    return airc_ge_set_result(b, 0, y);
}

/* _linalg_solve_ex(A, B, left, check_errors) -> (X, LU, pivots, info) */
static airc_status conv_solve(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    airc_ge_tensor a, rhs, x;
    AIRC_TRY(airc_ge_input(b, 0, &a));
    AIRC_TRY(airc_ge_input(b, 1, &rhs));
    bool left = airc_ge_bool_arg(b, 2, true);
    const airc_tmeta *m = &n->out[0];
    airc_tmeta mm = *m; /* the result as a batch of matrices */
    airc_dtype dt;
    int32_t bnd, nda;
    const int64_t *bs, *as;
    AIRC_TRY(airc_ge_tensor_meta(b, rhs, &dt, &bnd, &bs));
    AIRC_TRY(airc_ge_tensor_meta(b, a, &dt, &nda, &as));
    bool vec = airc_linalg_vector_rhs(as, nda, bs, bnd);
    if (vec) {
        if (mm.ndim >= AIRC_MAX_DIMS)
            return airc_fail(AIRC_E_UNSUPPORTED, "node '%s': too many dims", n->name);
        mm.shape[mm.ndim++] = 1;
        int64_t s[AIRC_MAX_DIMS];
        memcpy(s, bs, (size_t)bnd * sizeof *s);
        s[bnd] = 1;
        AIRC_TRY(airc_ge_reshape(b, rhs, dt, bnd + 1, s, &rhs));
    }
    AIRC_TRY(airc_gla_batch_both(b, &mm, &a, &rhs));
    if (!left) {
        AIRC_TRY(airc_gla_swap_last(b, a, &a));
        AIRC_TRY(airc_gla_swap_last(b, rhs, &rhs));
        int64_t t = mm.shape[mm.ndim - 1];
        mm.shape[mm.ndim - 1] = mm.shape[mm.ndim - 2];
        mm.shape[mm.ndim - 2] = t;
    }
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "MatrixSolve", &op));
    AIRC_TRY(airc_ge_op_input(op, "matrix", a));
    AIRC_TRY(airc_ge_op_input(op, "rhs", rhs));
    AIRC_TRY(airc_ge_op_attr_bool(op, "adjoint", 0));
    AIRC_TRY(airc_ge_op_output(op, "y", m->dtype, mm.ndim, mm.shape, &x));
    if (!left)
        AIRC_TRY(airc_gla_swap_last(b, x, &x));
    if (vec)
        AIRC_TRY(airc_ge_reshape(b, x, m->dtype, m->ndim, m->shape, &x));
    AIRC_TRY(airc_ge_set_result(b, 0, x));
    const airc_tmeta *am = airc_gla_arg_meta(b, 0);
    airc_ge_tensor a0;
    AIRC_TRY(airc_ge_input(b, 0, &a0));
    if (!am)
        return airc_fail(AIRC_E_UNSUPPORTED, "node '%s': A is not a tensor", n->name);
    AIRC_TRY(lu_results(b, n, a0, am, airc_meta_is_contiguous(am), 1));
    return airc_gla_zeros_result(b, n, 3);
}

/* SelfAdjointEig of A's triangle: the lower one, or A^T's for upper
 * (eigenvalues only: the vectors' signs follow LAPACK's path through the
 * triangle it reads) */
static airc_status eigen(airc_ge_builder *b, const airc_node *n, bool upper, bool v)
{
    airc_ge_tensor a, y[2];
    AIRC_TRY(airc_ge_input(b, 0, &a));
    if (upper && v)
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "node '%s' has no Ascend IR lowering here: the device's SelfAdjointEig "
                         "reads the lower triangle, and eigenvectors from the upper one differ in "
                         "sign",
                         n->name);
    if (!airc_tmeta_numel(&n->out[0])) { /* nothing to decompose */
        AIRC_TRY(airc_gla_zeros_result(b, n, 0));
        return airc_gla_zeros_result(b, n, 1);
    }
    if (upper)
        AIRC_TRY(airc_gla_swap_last(b, a, &a));
    static const char *const outs[] = {"eigen_value", "eigen_vector"};
    airc_tmeta vm = n->out[0];
    vm.ndim++;
    vm.shape[vm.ndim - 1] = vm.shape[vm.ndim - 2];
    const airc_tmeta *metas[2] = {&n->out[0], v ? &n->out[1] : &vm};
    airc_ge_op *op;
    AIRC_TRY(airc_gla_unary_op(b, "SelfAdjointEig", "x", a, outs, metas, 2, &op, y));
    AIRC_TRY(airc_ge_op_attr_bool(op, "compute_v", v));
    AIRC_TRY(airc_ge_set_result(b, 0, y[0]));
    return v ? airc_ge_set_result(b, 1, y[1]) : airc_gla_zeros_result(b, n, 1);
}

/* _linalg_eigh(A, UPLO, compute_v) */
static airc_status conv_eigh(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_value *u = airc_ge_arg(b, 1);
    bool upper = u && airc_value_get_kind(u) == AIRC_VALUE_STRING && (u->u.s[0] | 0x20) == 'u';
    return eigen(b, n, upper, airc_ge_bool_arg(b, 2, true));
}

/* symeig(A, eigenvectors, upper) */
static airc_status conv_symeig(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    return eigen(b, n, airc_ge_bool_arg(b, 2, true), airc_ge_bool_arg(b, 1, false));
}

/* _linalg_svd(A, full_matrices, compute_uv, driver) -> (U, S, Vh) */
static airc_status conv_svd(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    airc_ge_tensor a, y[3];
    AIRC_TRY(airc_ge_input(b, 0, &a));
    bool full = airc_ge_bool_arg(b, 1, false), uv = airc_ge_bool_arg(b, 2, true);
    airc_tmeta vm = n->out[2];
    if (uv) {
        vm.shape[vm.ndim - 2] = n->out[2].shape[vm.ndim - 1];
        vm.shape[vm.ndim - 1] = n->out[2].shape[vm.ndim - 2];
    }
    static const char *const outs[] = {"sigma", "u", "v"};
    const airc_tmeta *metas[3] = {&n->out[1], &n->out[0], &vm};
    airc_ge_op *op;
    AIRC_TRY(airc_gla_unary_op(b, "Svd", "x", a, outs, metas, 3, &op, y));
    AIRC_TRY(airc_ge_op_attr_bool(op, "compute_uv", uv));
    AIRC_TRY(airc_ge_op_attr_bool(op, "full_matrices", full));
    AIRC_TRY(airc_ge_set_result(b, 1, y[0]));
    if (!uv) {
        AIRC_TRY(airc_gla_zeros_result(b, n, 0));
        return airc_gla_zeros_result(b, n, 2);
    }
    AIRC_TRY(airc_ge_set_result(b, 0, y[1]));
    AIRC_TRY(airc_gla_swap_last(b, y[2], &y[2]));
    return airc_ge_set_result(b, 2, y[2]);
}

/* linalg_qr(A, mode) -> (Q, R) */
static airc_status conv_qr(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    airc_ge_tensor a, y[2];
    AIRC_TRY(airc_ge_input(b, 0, &a));
    const airc_value *mv = airc_ge_arg(b, 1);
    const char *mode = mv && airc_value_get_kind(mv) == AIRC_VALUE_STRING ? mv->u.s : "reduced";
    bool complete = !strcmp(mode, "complete"), r_only = !strcmp(mode, "r");
    airc_tmeta qm = n->out[1];
    if (r_only) { /* the device computes the reduced Q [m, k] anyway */
        airc_dtype dt;
        int32_t nd;
        const int64_t *s;
        AIRC_TRY(airc_ge_tensor_meta(b, a, &dt, &nd, &s));
        qm.shape[qm.ndim - 1] = qm.shape[qm.ndim - 2];
        qm.shape[qm.ndim - 2] = s[nd - 2];
    }
    static const char *const outs[] = {"q", "r"};
    const airc_tmeta *metas[2] = {r_only ? &qm : &n->out[0], &n->out[1]};
    airc_ge_op *op;
    AIRC_TRY(airc_gla_unary_op(b, "Qr", "x", a, outs, metas, 2, &op, y));
    AIRC_TRY(airc_ge_op_attr_bool(op, "full_matrices", complete));
    AIRC_TRY(airc_ge_set_result(b, 1, y[1]));
    return r_only ? airc_gla_zeros_result(b, n, 0) : airc_ge_set_result(b, 0, y[0]);
}

/* linalg_lu(A) -> (P, L, U): CANN's Lu of A padded to a square (lu, p
 * with P_mat A = L U, P_mat[i, p[i]] = 1); torch's P = P_mat^T, so P[i, j]
 * is p[j] == i (of the first m rows: the padding's rows never move into
 * them); L the unit lower triangle of lu's first m rows and k columns, U
 * the upper one of its first k rows and n columns. */
static airc_status conv_lu(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_tmeta *pm = &n->out[0], *lm = &n->out[1], *um = &n->out[2];
    int32_t nd = lm->ndim;
    int64_t rows = lm->shape[nd - 2], k = lm->shape[nd - 1], cols = um->shape[nd - 1];
    airc_ge_tensor a, lu, p, mask, one, zero, l, u, pmat;
    airc_tmeta sm;
    if (!k) { /* no rows or no columns: L and U empty, P the identity */
        AIRC_TRY(airc_gla_zeros_result(b, n, 1));
        AIRC_TRY(airc_gla_zeros_result(b, n, 2));
        if (pm->ndim < 2 || !airc_tmeta_numel(pm))
            return airc_gla_zeros_result(b, n, 0);
        AIRC_TRY(airc_ge_const_scalar(b, pm->dtype, 1, &one));
        AIRC_TRY(airc_ge_const_scalar(b, pm->dtype, 0, &zero));
        AIRC_TRY(airc_gla_tri_mask(b, rows, rows, 0, &mask));
        AIRC_TRY(airc_ge_select(b, mask, one, zero, pm->dtype, 2, pm->shape + nd - 2, &pmat));
        AIRC_TRY(airc_ge_broadcast(b, pmat, nd, pm->shape, &pmat));
        return airc_ge_set_result(b, 0, pmat);
    }
    AIRC_TRY(airc_ge_input(b, 0, &a));
    const airc_tmeta *am = airc_gla_arg_meta(b, 0);
    if (!am)
        return airc_fail(AIRC_E_UNSUPPORTED, "node '%s': A is not a tensor", n->name);
    AIRC_TRY(pad_square(b, a, am, &a, &sm));
    AIRC_TRY(lu_op(b, a, &sm, &lu, &p));
    airc_dtype dt = lm->dtype;
    AIRC_TRY(airc_ge_const_scalar(b, dt, 1, &one));
    AIRC_TRY(airc_ge_const_scalar(b, dt, 0, &zero));
    AIRC_TRY(airc_gla_leading(b, lu, 2, rows, &l));
    AIRC_TRY(airc_gla_leading(b, l, 1, k, &l));
    AIRC_TRY(airc_gla_tri_mask(b, rows, k, 0, &mask));
    AIRC_TRY(airc_ge_select(b, mask, one, zero, dt, 2, lm->shape + nd - 2, &u));
    AIRC_TRY(airc_gla_tri_mask(b, rows, k, -1, &mask));
    AIRC_TRY(airc_ge_select(b, mask, l, u, dt, nd, lm->shape, &l));
    AIRC_TRY(airc_gla_leading(b, lu, 2, k, &u));
    AIRC_TRY(airc_gla_leading(b, u, 1, cols, &u));
    AIRC_TRY(airc_gla_tri_mask(b, k, cols, 1, &mask));
    AIRC_TRY(airc_ge_select(b, mask, u, zero, dt, nd, um->shape, &u));
    if (pm->ndim >= 2) {
        AIRC_TRY(airc_gla_leading(b, p, 1, rows, &p));
        AIRC_TRY(airc_gla_perm_matrix(b, p, nd - 2, pm->shape, rows, false, pm->dtype, &pmat));
        AIRC_TRY(airc_ge_set_result(b, 0, pmat));
    } else
        AIRC_TRY(airc_gla_zeros_result(b, n, 0));
    AIRC_TRY(airc_ge_set_result(b, 1, l));
    return airc_ge_set_result(b, 2, u);
}

/* t reshaped to its shape with a trailing 1 (unsqueeze(-1)) */
static airc_status unsqueeze_last(airc_ge_builder *b, airc_ge_tensor t, airc_ge_tensor *out)
{
    airc_dtype dt;
    int32_t nd;
    const int64_t *s;
    AIRC_TRY(airc_ge_tensor_meta(b, t, &dt, &nd, &s));
    if (nd >= AIRC_MAX_DIMS)
        return airc_fail(AIRC_E_UNSUPPORTED, "a tolerance of %d dims", (int)nd);
    int64_t shape[AIRC_MAX_DIMS];
    memcpy(shape, s, (size_t)nd * sizeof *shape);
    shape[nd] = 1;
    return airc_ge_reshape(b, t, dt, nd + 1, shape, out);
}

/* linalg_pinv.atol_rtol_tensor(A, *, atol, rtol, hermitian) -> A^+: Svd
 * (hermitian: SelfAdjointEig, |eigenvalues| as the singular values); the
 * tolerance max(atol, rtol * the largest) in f64 as torch's (atol 0, rtol
 * eps * max(m, n) where not given, 0 where a given atol is > 0); the
 * values above it inverted (`Reciprocal`), the rest 0; then (V * s+) by
 * U^T as one BatchMatMul (adj_x2) over the batch flattened */
static airc_status conv_pinv(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_dtype D = AIRC_DTYPE_F64;
    const airc_tmeta *om = &n->out[0];
    airc_dtype dt = om->dtype;
    int32_t nd = om->ndim, nb = nd - 2;
    int64_t rows = om->shape[nd - 2], cols = om->shape[nd - 1]; /* n x m */
    int64_t kk = rows < cols ? rows : cols, bf = 1;
    for (int32_t i = 0; i < nb; i++)
        bf *= om->shape[i];
    if (!airc_tmeta_numel(om))
        return airc_gla_zeros_result(b, n, 0);
    bool herm = airc_ge_bool_arg(b, 3, false);
    airc_ge_tensor a, sv, u, v, y[3];
    AIRC_TRY(airc_ge_input(b, 0, &a));
    AIRC_TRY(airc_gla_to_batch(b, a, nb, om->shape, &a)); /* the tolerances may widen it */
    airc_tmeta sm = *om, um = *om, vm = *om;
    sm.ndim = nb + 1;
    sm.shape[nb] = kk;
    um.shape[nb] = cols; /* U: m x k */
    um.shape[nb + 1] = kk;
    vm.shape[nb] = rows; /* V: n x k */
    vm.shape[nb + 1] = kk;
    airc_ge_op *op;
    if (herm) {
        static const char *const outs[] = {"eigen_value", "eigen_vector"};
        const airc_tmeta *metas[2] = {&sm, &um};
        AIRC_TRY(airc_gla_unary_op(b, "SelfAdjointEig", "x", a, outs, metas, 2, &op, y));
        AIRC_TRY(airc_ge_op_attr_bool(op, "compute_v", 1));
        sv = y[0];
        u = v = y[1];
    } else {
        static const char *const outs[] = {"sigma", "u", "v"};
        const airc_tmeta *metas[3] = {&sm, &um, &vm};
        AIRC_TRY(airc_gla_unary_op(b, "Svd", "x", a, outs, metas, 3, &op, y));
        AIRC_TRY(airc_ge_op_attr_bool(op, "compute_uv", 1));
        AIRC_TRY(airc_ge_op_attr_bool(op, "full_matrices", 0));
        sv = y[0];
        u = y[1];
        v = y[2];
    }
    /* the tolerance, [..., 1] in f64 */
    airc_ge_tensor s64, mag, smax, at, rt, tol, zero, def, c;
    int64_t s1[AIRC_MAX_DIMS], last = nb;
    memcpy(s1, sm.shape, (size_t)nb * sizeof *s1);
    s1[nb] = 1;
    AIRC_TRY(airc_ge_cast(b, sv, D, &s64));
    mag = s64;
    if (herm)
        AIRC_TRY(airc_ge_ew_op(b, "Abs", &s64, 1, D, nb + 1, sm.shape, &mag));
    AIRC_TRY(airc_ge_reduce(b, "ReduceMax", mag, &last, 1, true, D, nb + 1, s1, &smax));
    AIRC_TRY(airc_ge_const_scalar(b, D, 0, &zero));
    bool has_atol = airc_ge_arg_present(b, 1), has_rtol = airc_ge_arg_present(b, 2);
    at = zero;
    if (has_atol) {
        AIRC_TRY(airc_ge_operand(b, 1, D, &at));
        AIRC_TRY(unsqueeze_last(b, at, &at));
    }
    if (has_rtol) {
        AIRC_TRY(airc_ge_operand(b, 2, D, &rt));
        AIRC_TRY(unsqueeze_last(b, rt, &rt));
    } else {
        double eps = (dt == AIRC_DTYPE_F32 ? 1.1920928955078125e-07 : 2.220446049250313e-16) *
                     (double)(rows > cols ? rows : cols);
        AIRC_TRY(airc_ge_const_scalar(b, D, eps, &def));
        rt = def;
        if (has_atol) {
            AIRC_TRY(airc_gla_ew2(b, "Greater", at, zero, AIRC_DTYPE_BOOL, nb + 1, s1, &c));
            AIRC_TRY(airc_ge_select(b, c, zero, def, D, nb + 1, s1, &rt));
        }
    }
    AIRC_TRY(airc_gla_ew2(b, "Mul", rt, smax, D, nb + 1, s1, &tol));
    AIRC_TRY(airc_gla_ew2(b, "Maximum", at, tol, D, nb + 1, s1, &tol));
    /* s+ in the dtype, as a row [..., 1, k] */
    airc_ge_tensor rec, zd, sp;
    AIRC_TRY(airc_gla_ew2(b, "Greater", mag, tol, AIRC_DTYPE_BOOL, nb + 1, sm.shape, &c));
    AIRC_TRY(airc_ge_ew_op(b, "Reciprocal", &sv, 1, dt, nb + 1, sm.shape, &rec));
    AIRC_TRY(airc_ge_const_scalar(b, dt, 0, &zd));
    AIRC_TRY(airc_ge_select(b, c, rec, zd, dt, nb + 1, sm.shape, &sp));
    const int64_t rowk[3] = {bf, 1, kk}, wk[3] = {bf, rows, kk}, uk[3] = {bf, cols, kk},
                  res[3] = {bf, rows, cols};
    AIRC_TRY(airc_ge_reshape(b, sp, dt, 3, rowk, &sp));
    AIRC_TRY(airc_ge_reshape(b, v, dt, 3, wk, &v));
    AIRC_TRY(airc_ge_reshape(b, u, dt, 3, uk, &u));
    AIRC_TRY(airc_gla_ew2(b, "Mul", v, sp, dt, 3, wk, &v));
    airc_ge_tensor x;
    AIRC_TRY(airc_gla_matmul(b, v, u, false, true, dt, 3, res, &x));
    AIRC_TRY(airc_ge_reshape(b, x, dt, nd, om->shape, &x));
    return airc_ge_set_result(b, 0, x);
}

/* _linalg_check_errors, _assert_async: nothing on the device (a data
 * check, which max-autotune skips: its device ops report no status) */
static airc_status conv_check_errors(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)b;
    (void)n;
    (void)ud;
    return AIRC_OK;
}

/* linalg_lu_factor_ex(A, pivot, check_errors) -> (LU, pivots, info) */
static airc_status conv_lu_factor(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    airc_ge_tensor a;
    AIRC_TRY(airc_ge_input(b, 0, &a));
    const airc_tmeta *am = airc_gla_arg_meta(b, 0);
    if (!am)
        return airc_fail(AIRC_E_UNSUPPORTED, "node '%s': A is not a tensor", n->name);
    AIRC_TRY(lu_results(b, n, a, am, false, 0));
    return airc_gla_zeros_result(b, n, 2);
}

/* ---- raisers ------------------------------------------------------------ */

static airc_status call(ge_raise *r, const char *aten, const airc_value *const *args, size_t nargs,
                        airc_node **out)
{
    return airc_ge_raise_call(r, aten, args, nargs, NULL, NULL, 0, out);
}

static airc_status item(ge_raise *r, airc_node *t, int64_t j, airc_node **out)
{
    const airc_value *args[2] = {airc_ge_vnode(r, t), airc_ge_vint(r, j)};
    return call(r, "operator.getitem", args, 2, out);
}

static airc_status transpose(ge_raise *r, airc_node *x, airc_node **out)
{
    const airc_value *args[3] = {airc_ge_vnode(r, x), airc_ge_vint(r, -2), airc_ge_vint(r, -1)};
    airc_node *t;
    AIRC_TRY(call(r, "aten.transpose.int", args, 3, &t));
    const airc_value *c[1] = {airc_ge_vnode(r, t)};
    return call(r, "aten.clone.default", c, 1, out);
}

static airc_status arity(ge_raise *r, size_t nin, size_t nout)
{
    AIRC_TRY(airc_ge_raise_arity(r, nin));
    if (r->nout != nout)
        return airc_fail(AIRC_E_INVALID_GRAPH, "op '%s' (%s): %zu outputs, expected %zu",
                         r->op->name, r->op->type, r->nout, nout);
    return AIRC_OK;
}

/* MatrixInverse, MatrixDeterminant, LogMatrixDeterminant, Cholesky:
 * the aten op's first results */
static airc_status raise_square(ge_raise *r)
{
    const char *aten = r->data;
    size_t nout = !strcmp(r->op->type, "LogMatrixDeterminant") ? 2 : 1;
    AIRC_TRY(arity(r, 1, nout));
    bool adjoint = false;
    if (!strcmp(r->op->type, "MatrixInverse"))
        AIRC_TRY(airc_ge_attr_b(r, "adjoint", false, false, &adjoint));
    airc_node *x = r->in[0], *t;
    if (adjoint)
        AIRC_TRY(transpose(r, x, &x));
    const airc_value *args[1] = {airc_ge_vnode(r, x)};
    AIRC_TRY(call(r, aten, args, 1, &t));
    for (size_t j = 0; j < nout; j++)
        AIRC_TRY(item(r, t, (int64_t)j, &r->out[j]));
    return AIRC_OK;
}

/* MatrixTriangularSolve(matrix, rhs; lower, adjoint) */
static airc_status raise_tri_solve(ge_raise *r)
{
    AIRC_TRY(arity(r, 2, 1));
    bool lower, adjoint;
    AIRC_TRY(airc_ge_attr_b(r, "lower", false, true, &lower));
    AIRC_TRY(airc_ge_attr_b(r, "adjoint", false, false, &adjoint));
    const airc_value *args[5] = {airc_ge_vnode(r, r->in[1]), airc_ge_vnode(r, r->in[0]),
                                 airc_ge_vbool(r, !lower), airc_ge_vbool(r, adjoint),
                                 airc_ge_vbool(r, false)};
    airc_node *t;
    AIRC_TRY(call(r, "aten.triangular_solve.default", args, 5, &t));
    return item(r, t, 0, &r->out[0]);
}

/* MatrixSolve(matrix, rhs; adjoint) */
static airc_status raise_solve(ge_raise *r)
{
    AIRC_TRY(arity(r, 2, 1));
    bool adjoint;
    AIRC_TRY(airc_ge_attr_b(r, "adjoint", false, false, &adjoint));
    airc_node *a = r->in[0], *t;
    if (adjoint)
        AIRC_TRY(transpose(r, a, &a));
    const airc_value *args[2] = {airc_ge_vnode(r, a), airc_ge_vnode(r, r->in[1])};
    AIRC_TRY(call(r, "aten._linalg_solve_ex.default", args, 2, &t));
    return item(r, t, 0, &r->out[0]);
}

/* SelfAdjointEig(x; compute_v) -> (eigen_value, eigen_vector) */
static airc_status raise_eig(ge_raise *r)
{
    AIRC_TRY(arity(r, 1, 2));
    bool v;
    AIRC_TRY(airc_ge_attr_b(r, "compute_v", false, true, &v));
    const airc_value *args[3] = {airc_ge_vnode(r, r->in[0]), NULL, airc_ge_vbool(r, v)};
    AIRC_TRY(airc_value_string(r->g, "L", &args[1]));
    airc_node *t;
    AIRC_TRY(call(r, "aten._linalg_eigh.default", args, 3, &t));
    return airc_ge_raise_getitems(r, t, 2);
}

/* Svd(x; compute_uv, full_matrices) -> (sigma, u, v) */
static airc_status raise_svd(ge_raise *r)
{
    AIRC_TRY(arity(r, 1, 3));
    bool full, uv;
    AIRC_TRY(airc_ge_attr_b(r, "full_matrices", false, false, &full));
    AIRC_TRY(airc_ge_attr_b(r, "compute_uv", false, true, &uv));
    const airc_value *args[3] = {airc_ge_vnode(r, r->in[0]), airc_ge_vbool(r, full),
                                 airc_ge_vbool(r, uv)};
    airc_node *t, *vh;
    AIRC_TRY(call(r, "aten._linalg_svd.default", args, 3, &t));
    AIRC_TRY(item(r, t, 1, &r->out[0]));
    AIRC_TRY(item(r, t, 0, &r->out[1]));
    AIRC_TRY(item(r, t, 2, uv ? &vh : &r->out[2]));
    return uv ? transpose(r, vh, &r->out[2]) : AIRC_OK;
}

/* Qr(x; full_matrices) -> (q, r) */
static airc_status raise_qr(ge_raise *r)
{
    AIRC_TRY(arity(r, 1, 2));
    bool full;
    AIRC_TRY(airc_ge_attr_b(r, "full_matrices", false, false, &full));
    const airc_value *args[2] = {airc_ge_vnode(r, r->in[0]), NULL};
    AIRC_TRY(airc_value_string(r->g, full ? "complete" : "reduced", &args[1]));
    airc_node *t;
    AIRC_TRY(call(r, "aten.linalg_qr.default", args, 2, &t));
    return airc_ge_raise_getitems(r, t, 2);
}

/* Lu(input) -> (lu, p): linalg_lu's factors merged (tril(L, -1) + U,
 * exact), p the row of each column's one in P */
static airc_status raise_lu(ge_raise *r)
{
    AIRC_TRY(arity(r, 1, 2));
    const airc_value *args[3] = {airc_ge_vnode(r, r->in[0])};
    airc_node *t, *f[3], *low;
    AIRC_TRY(call(r, "aten.linalg_lu.default", args, 1, &t));
    for (int j = 0; j < 3; j++)
        AIRC_TRY(item(r, t, j, &f[j]));
    args[0] = airc_ge_vnode(r, f[1]);
    args[1] = airc_ge_vint(r, -1);
    AIRC_TRY(call(r, "aten.tril.default", args, 2, &low));
    args[0] = airc_ge_vnode(r, low);
    args[1] = airc_ge_vnode(r, f[2]);
    AIRC_TRY(call(r, "aten.add.Tensor", args, 2, &r->out[0]));
    args[0] = airc_ge_vnode(r, f[0]);
    args[1] = airc_ge_vint(r, -2);
    AIRC_TRY(call(r, "aten.argmax.default", args, 2, &low));
    static const char *const names[] = {"dtype"};
    const airc_value *kw[1] = {NULL}, *arg[1] = {airc_ge_vnode(r, low)};
    AIRC_TRY(airc_value_dtype(r->g, AIRC_DTYPE_I32, &kw[0]));
    return airc_ge_raise_call(r, "aten._to_copy.default", arg, 1, names, kw, 1, &r->out[1]);
}

static const ge_conv_entry conv[] = {
    {"aten._linalg_check_errors.default", conv_check_errors, NULL},
    {"aten._assert_async.default", conv_check_errors, NULL},
    {"aten._linalg_det.default", conv_square, "MatrixDeterminant"},
    {"aten._linalg_eigh.default", conv_eigh, NULL},
    {"aten._linalg_slogdet.default", conv_square, "LogMatrixDeterminant"},
    {"aten._linalg_solve_ex.default", conv_solve, NULL},
    {"aten._linalg_svd.default", conv_svd, NULL},
    {"aten.cholesky.default", conv_cholesky, NULL},
    {"aten.cholesky_inverse.default", conv_cholesky_solve, "inverse"},
    {"aten.cholesky_solve.default", conv_cholesky_solve, NULL},
    {"aten._cholesky_solve_helper.default", conv_cholesky_solve, NULL},
    {"aten.linalg_cholesky_ex.default", conv_cholesky, NULL},
    {"aten.linalg_inv_ex.default", conv_square, "MatrixInverse"},
    {"aten.linalg_lu.default", conv_lu, NULL},
    {"aten.linalg_lu_factor_ex.default", conv_lu_factor, NULL},
    {"aten.linalg_pinv.atol_rtol_tensor", conv_pinv, NULL},
    {"aten.linalg_qr.default", conv_qr, NULL},
    {"aten.linalg_solve_triangular.default", conv_solve_triangular, NULL},
    {"aten.symeig.default", conv_symeig, NULL},
    {"aten.triangular_solve.default", conv_solve_triangular, NULL},
};

static const ge_raise_entry raise[] = {
    {"MatrixInverse", raise_square, "aten.linalg_inv_ex.default"},
    {"MatrixDeterminant", raise_square, "aten._linalg_det.default"},
    {"LogMatrixDeterminant", raise_square, "aten._linalg_slogdet.default"},
    {"Cholesky", raise_square, "aten.linalg_cholesky_ex.default"},
    {"MatrixTriangularSolve", raise_tri_solve, NULL},
    {"MatrixSolve", raise_solve, NULL},
    {"SelfAdjointEig", raise_eig, NULL},
    {"Svd", raise_svd, NULL},
    {"Qr", raise_qr, NULL},
    {"Lu", raise_lu, NULL},
};

const ge_family airc_ge_family_lapack = {conv, sizeof conv / sizeof *conv, raise,
                                         sizeof raise / sizeof *raise};
