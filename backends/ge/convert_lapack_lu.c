/* Lowerings of the ops that take a factorization's pieces, and of the
 * least-squares solve, to Ascend IR (TorchAir has no converters for them):
 * - lu_unpack: L and U masked from LU; P from the pivots, whose sequential
 *   swaps are unrolled (up to MAX_PERM_ROWS rows) into a permutation;
 * - linalg_lu_solve: the same permutation as a matrix, then two
 *   MatrixTriangularSolves (L unit lower, U upper; their adjoints in the
 *   other order for adjoint, X A = B as A^T X^T = B^T);
 * - linalg_lstsq: the minimum-norm solution V diag(s+) U^T B from Svd,
 *   s+ the reciprocals of the singular values above rcond times the
 *   largest (gels: all), rank their count; the residuals ||A X - B||^2 by
 *   column. LAPACK's drivers reach the same solution of a matrix of full
 *   rank; a rank-deficient one's gelsy solution differs (and torch's own
 *   varies, see k_lapack_lstsq.c).
 * The pivots' range checks are data checks, which max-autotune skips as
 * it skips the others. linalg_ldl_factor_ex and linalg_ldl_solve are
 * refused: Bunch-Kaufman's pivot blocks depend on the values. */
#include "backends/ge/lapack_internal.h"

#include <float.h>
#include <string.h>

/* Most rows whose pivots are unrolled (a dozen ops a row). */
#define MAX_PERM_ROWS 64

static airc_status refuse_rows(const airc_node *n, int64_t rows)
{
    return airc_gla_refuse_unrolled(n, rows, "pivot row swaps", MAX_PERM_ROWS);
}

/* The row permutation [*batch, m] (int32) that k LAPACK pivots (int32
 * [*batch, k], 1-based, row i swapped with row piv[i] - 1 in turn) make of
 * 0..m-1: perm[i] is the row of the original that ends up at i. */
static airc_status permutation(airc_ge_builder *b, airc_ge_tensor piv, int32_t nb,
                               const int64_t *batch, int64_t m, int64_t k, airc_ge_tensor *out)
{
    const airc_dtype I = AIRC_DTYPE_I32;
    int64_t shape[AIRC_MAX_DIMS], s1[AIRC_MAX_DIMS], axis = nb;
    memcpy(shape, batch, (size_t)nb * sizeof *shape);
    memcpy(s1, batch, (size_t)nb * sizeof *s1);
    shape[nb] = k;
    s1[nb] = 1;
    AIRC_TRY(airc_ge_broadcast(b, piv, nb + 1, shape, &piv));
    shape[nb] = m;
    airc_ge_tensor iota, perm, one;
    AIRC_TRY(airc_gla_const_i32(b, m, -1, &iota));
    AIRC_TRY(airc_ge_broadcast(b, iota, nb + 1, shape, &perm));
    AIRC_TRY(airc_ge_const_scalar(b, I, 1, &one));
    for (int64_t i = 0; i < k; i++) {
        airc_ge_tensor idx, j, ci, cj, at_j, at_i, t;
        AIRC_TRY(airc_ge_const_ints(b, &i, 1, &idx));
        AIRC_TRY(airc_ge_gather(b, piv, idx, axis, I, nb + 1, s1, &j));
        AIRC_TRY(airc_gla_ew2(b, "Sub", j, one, I, nb + 1, s1, &j));
        AIRC_TRY(airc_ge_gather(b, perm, idx, axis, I, nb + 1, s1, &ci));
        AIRC_TRY(airc_gla_ew2(b, "Equal", iota, j, AIRC_DTYPE_BOOL, nb + 1, shape, &at_j));
        AIRC_TRY(airc_ge_cast(b, at_j, I, &t));
        AIRC_TRY(airc_gla_ew2(b, "Mul", t, perm, I, nb + 1, shape, &t));
        AIRC_TRY(airc_ge_reduce(b, "ReduceSum", t, &axis, 1, true, I, nb + 1, s1, &cj));
        AIRC_TRY(airc_ge_select(b, at_j, ci, perm, I, nb + 1, shape, &perm));
        AIRC_TRY(airc_gla_const_i32(b, m, i, &t));
        AIRC_TRY(airc_ge_cast(b, t, AIRC_DTYPE_BOOL, &at_i));
        AIRC_TRY(airc_ge_select(b, at_i, cj, perm, I, nb + 1, shape, &perm));
    }
    *out = perm;
    return AIRC_OK;
}

/* lu_unpack(LU_data, LU_pivots, unpack_data, unpack_pivots) -> (P, L, U) */
static airc_status conv_lu_unpack(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    airc_ge_tensor lu, piv, x, mask, one, zero;
    AIRC_TRY(airc_ge_input(b, 0, &lu));
    const airc_tmeta *lm = airc_gla_arg_meta(b, 0);
    if (!lm)
        return airc_fail(AIRC_E_UNSUPPORTED, "node '%s': LU is not a tensor", n->name);
    int32_t nd = lm->ndim, nb = nd - 2;
    int64_t m = lm->shape[nd - 2], c = lm->shape[nd - 1], k = m < c ? m : c;
    airc_dtype dt = lm->dtype;
    bool data = airc_ge_bool_arg(b, 2, true), pivots = airc_ge_bool_arg(b, 3, true);
    if (pivots && airc_tmeta_numel(&n->out[0])) {
        if (m > MAX_PERM_ROWS)
            return refuse_rows(n, m);
        AIRC_TRY(airc_ge_input(b, 1, &piv));
        AIRC_TRY(airc_gla_leading(b, piv, 1, k, &piv));
        AIRC_TRY(permutation(b, piv, nb, lm->shape, m, k, &x));
        AIRC_TRY(airc_gla_perm_matrix(b, x, nb, lm->shape, m, false, dt, &x));
        AIRC_TRY(airc_ge_set_result(b, 0, x));
    } else
        AIRC_TRY(airc_gla_zeros_result(b, n, 0));
    if (!data || !airc_tmeta_numel(&n->out[1]) || !airc_tmeta_numel(&n->out[2])) {
        AIRC_TRY(airc_gla_zeros_result(b, n, 1));
        return airc_gla_zeros_result(b, n, 2);
    }
    AIRC_TRY(airc_ge_const_scalar(b, dt, 1, &one));
    AIRC_TRY(airc_ge_const_scalar(b, dt, 0, &zero));
    /* L: the strict lower triangle of LU's first k columns, ones on the diagonal */
    const airc_tmeta *l = &n->out[1], *u = &n->out[2];
    AIRC_TRY(airc_gla_tri_mask(b, m, k, 0, &mask));
    AIRC_TRY(airc_ge_select(b, mask, one, zero, dt, 2, l->shape + nb, &x));
    AIRC_TRY(airc_gla_tri_mask(b, m, k, -1, &mask));
    airc_ge_tensor part;
    AIRC_TRY(airc_gla_leading(b, lu, 1, k, &part));
    AIRC_TRY(airc_ge_select(b, mask, part, x, dt, nd, l->shape, &x));
    AIRC_TRY(airc_ge_set_result(b, 1, x));
    /* U: the upper triangle of LU's first k rows */
    AIRC_TRY(airc_gla_tri_mask(b, k, c, 1, &mask));
    AIRC_TRY(airc_gla_leading(b, lu, 2, k, &part));
    AIRC_TRY(airc_ge_select(b, mask, part, zero, dt, nd, u->shape, &x));
    return airc_ge_set_result(b, 2, x);
}

/* linalg_lu_solve(LU, pivots, B, *, left, adjoint) -> X */
static airc_status conv_lu_solve(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_tmeta *m = &n->out[0];
    if (!airc_tmeta_numel(m))
        return airc_gla_zeros_result(b, n, 0);
    const airc_tmeta *lm = airc_gla_arg_meta(b, 0);
    if (!lm)
        return airc_fail(AIRC_E_UNSUPPORTED, "node '%s': LU is not a tensor", n->name);
    int32_t nd = m->ndim, nb = nd - 2;
    int64_t k = lm->shape[lm->ndim - 1];
    if (k > MAX_PERM_ROWS)
        return refuse_rows(n, k);
    bool left = airc_ge_bool_arg(b, 3, true), adjoint = airc_ge_bool_arg(b, 4, false) != !left;
    airc_ge_tensor lu, piv, rhs, perm, p, l, x;
    AIRC_TRY(airc_ge_input(b, 0, &lu));
    AIRC_TRY(airc_ge_input(b, 1, &piv));
    AIRC_TRY(airc_ge_input(b, 2, &rhs));
    airc_tmeta mm = *m; /* the system solved: A X = rhs, [*, k, nrhs] */
    if (!left) {
        AIRC_TRY(airc_gla_swap_last(b, rhs, &rhs));
        mm.shape[nd - 2] = m->shape[nd - 1];
        mm.shape[nd - 1] = m->shape[nd - 2];
    }
    AIRC_TRY(airc_gla_batch_both(b, &mm, &lu, &rhs));
    AIRC_TRY(permutation(b, piv, nb, mm.shape, k, k, &perm));
    AIRC_TRY(airc_gla_perm_matrix(b, perm, nb, mm.shape, k, !adjoint, m->dtype, &p));
    AIRC_TRY(airc_gla_unit_diagonal(b, lu, &l));
    if (!adjoint) { /* L U X = P^T B */
        AIRC_TRY(airc_gla_matmul(b, p, rhs, false, false, m->dtype, nd, mm.shape, &x));
        AIRC_TRY(airc_gla_tri_solve(b, l, x, true, false, &mm, &x));
        AIRC_TRY(airc_gla_tri_solve(b, lu, x, false, false, &mm, &x));
    } else { /* U^T L^T P^T X = B */
        AIRC_TRY(airc_gla_tri_solve(b, lu, rhs, false, true, &mm, &x));
        AIRC_TRY(airc_gla_tri_solve(b, l, x, true, true, &mm, &x));
        AIRC_TRY(airc_gla_matmul(b, p, x, false, false, m->dtype, nd, mm.shape, &x));
    }
    if (!left)
        AIRC_TRY(airc_gla_swap_last(b, x, &x));
    return airc_ge_set_result(b, 0, x);
}

/* The lstsq pieces of one call: A [*a, m, n] (nb batch dims), B [*, m,
 * nrhs] (a vector B with its unit column), the result's batch */
typedef struct lstsq {
    airc_dtype dt;
    int32_t na, nb;
    int64_t m, n, k, nrhs;
    const int64_t *ashape, *batch;
    char driver; /* 'y', 'g', 'd' or 's' */
    double rcond;
} lstsq;

/* Svd of A: s [*a, k], u [*a, m, k], v [*a, n, k] */
static airc_status svd(airc_ge_builder *b, const lstsq *q, airc_ge_tensor a, airc_ge_tensor *s,
                       airc_ge_tensor *u, airc_ge_tensor *v)
{
    airc_tmeta sm, um, vm;
    memset(&sm, 0, sizeof sm);
    sm.dtype = q->dt;
    sm.ndim = q->na + 1;
    memcpy(sm.shape, q->ashape, (size_t)q->na * sizeof *sm.shape);
    sm.shape[q->na] = q->k;
    um = vm = sm;
    um.ndim = vm.ndim = q->na + 2;
    um.shape[q->na] = q->m;
    vm.shape[q->na] = q->n;
    um.shape[q->na + 1] = vm.shape[q->na + 1] = q->k;
    static const char *const outs[] = {"sigma", "u", "v"};
    const airc_tmeta *metas[3] = {&sm, &um, &vm};
    airc_ge_op *op;
    airc_ge_tensor y[3];
    AIRC_TRY(airc_gla_unary_op(b, "Svd", "x", a, outs, metas, 3, &op, y));
    AIRC_TRY(airc_ge_op_attr_bool(op, "compute_uv", 1));
    AIRC_TRY(airc_ge_op_attr_bool(op, "full_matrices", 0));
    *s = y[0];
    *u = y[1];
    *v = y[2];
    return AIRC_OK;
}

/* The solution [*batch, n, nrhs] and (for all but gels) the rank [*a] */
static airc_status lstsq_solve(airc_ge_builder *b, const lstsq *q, airc_ge_tensor a,
                               airc_ge_tensor rhs, airc_ge_tensor *x, airc_ge_tensor *rank,
                               airc_ge_tensor *sv)
{
    airc_dtype dt = q->dt;
    int32_t na = q->na, nb = q->nb;
    airc_ge_tensor s, u, v, smax, tol, keep, rec, zero, sp;
    AIRC_TRY(svd(b, q, a, &s, &u, &v));
    *sv = s;
    int64_t sa[AIRC_MAX_DIMS], s1[AIRC_MAX_DIMS], last = na;
    memcpy(sa, q->ashape, (size_t)na * sizeof *sa);
    memcpy(s1, q->ashape, (size_t)na * sizeof *s1);
    sa[na] = q->k;
    s1[na] = 1;
    AIRC_TRY(airc_ge_ew_op(b, "Reciprocal", &s, 1, dt, na + 1, sa, &rec));
    AIRC_TRY(airc_ge_const_scalar(b, dt, 0, &zero));
    if (q->driver == 'g')
        sp = rec;
    else { /* the values above rcond * the largest (LAPACK: eps where rcond < 0) */
        double eps = dt == AIRC_DTYPE_F32 ? FLT_EPSILON : DBL_EPSILON;
        AIRC_TRY(airc_ge_reduce(b, "ReduceMax", s, &last, 1, true, dt, na + 1, s1, &smax));
        AIRC_TRY(airc_ge_const_scalar(b, dt, q->rcond < 0 ? eps : q->rcond, &tol));
        AIRC_TRY(airc_gla_ew2(b, "Mul", smax, tol, dt, na + 1, s1, &tol));
        AIRC_TRY(airc_gla_ew2(b, "Greater", s, tol, AIRC_DTYPE_BOOL, na + 1, sa, &keep));
        AIRC_TRY(airc_ge_select(b, keep, rec, zero, dt, na + 1, sa, &sp));
        AIRC_TRY(airc_ge_cast(b, keep, AIRC_DTYPE_I64, &keep));
        AIRC_TRY(
            airc_ge_reduce(b, "ReduceSum", keep, &last, 1, false, AIRC_DTYPE_I64, na, sa, rank));
    }
    /* X = (V diag(s+)) (U^T B), over the result's batch */
    int64_t row[AIRC_MAX_DIMS], full[AIRC_MAX_DIMS];
    memcpy(row, q->ashape, (size_t)na * sizeof *row);
    row[na] = 1;
    row[na + 1] = q->k;
    AIRC_TRY(airc_ge_reshape(b, sp, dt, na + 2, row, &sp));
    memcpy(full, q->ashape, (size_t)na * sizeof *full);
    full[na] = q->n;
    full[na + 1] = q->k;
    AIRC_TRY(airc_gla_ew2(b, "Mul", v, sp, dt, na + 2, full, &v));
    AIRC_TRY(airc_gla_to_batch(b, v, nb, q->batch, &v));
    AIRC_TRY(airc_gla_to_batch(b, u, nb, q->batch, &u));
    memcpy(full, q->batch, (size_t)nb * sizeof *full);
    full[nb] = q->k;
    full[nb + 1] = q->nrhs;
    airc_ge_tensor utb;
    AIRC_TRY(airc_gla_matmul(b, u, rhs, true, false, dt, nb + 2, full, &utb));
    full[nb] = q->n;
    return airc_gla_matmul(b, v, utb, false, false, dt, nb + 2, full, x);
}

/* linalg_lstsq(A, B, rcond, *, driver) -> (solution, residuals, rank,
 * singular_values) */
static airc_status conv_lstsq(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_tmeta *am = airc_gla_arg_meta(b, 0), *bm = airc_gla_arg_meta(b, 1);
    if (!am || !bm)
        return airc_fail(AIRC_E_UNSUPPORTED, "node '%s': A and B must be tensors", n->name);
    const airc_value *dv = airc_ge_arg(b, 3);
    lstsq q = {.dt = am->dtype, .na = am->ndim - 2, .ashape = am->shape};
    q.m = am->shape[am->ndim - 2];
    q.n = am->shape[am->ndim - 1];
    q.k = q.m < q.n ? q.m : q.n;
    q.driver =
        airc_lstsq_driver(dv && airc_value_get_kind(dv) == AIRC_VALUE_STRING ? dv->u.s : NULL);
    if (!q.driver)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "node '%s': unknown driver", n->name);
    double eps = q.dt == AIRC_DTYPE_F32 ? FLT_EPSILON : DBL_EPSILON;
    q.rcond = airc_ge_number_arg(b, 2, eps * (double)(q.m > q.n ? q.m : q.n));
    bool vec = airc_linalg_vector_rhs(am->shape, am->ndim, bm->shape, bm->ndim);
    airc_ge_tensor a, rhs, x, rank, sv;
    AIRC_TRY(airc_ge_input(b, 0, &a));
    AIRC_TRY(airc_ge_input(b, 1, &rhs));
    int64_t bs[AIRC_MAX_DIMS + 1], batch[AIRC_MAX_DIMS + 1];
    int32_t bnd = bm->ndim;
    memcpy(bs, bm->shape, (size_t)bnd * sizeof *bs);
    if (vec) {
        bs[bnd++] = 1;
        AIRC_TRY(airc_ge_reshape(b, rhs, q.dt, bnd, bs, &rhs));
    }
    /* the result's batch: the solution's dims but its last two (one for a vector) */
    const airc_tmeta *xm = &n->out[0];
    q.nb = xm->ndim - (vec ? 1 : 2);
    memcpy(batch, xm->shape, (size_t)q.nb * sizeof *batch);
    q.batch = batch;
    q.nrhs = bs[bnd - 1];
    AIRC_TRY(airc_gla_to_batch(b, rhs, q.nb, batch, &rhs));
    int64_t xs[AIRC_MAX_DIMS + 2];
    memcpy(xs, batch, (size_t)q.nb * sizeof *xs);
    xs[q.nb] = q.n;
    xs[q.nb + 1] = q.nrhs;
    if (!q.k || !q.nrhs) {
        AIRC_TRY(airc_ge_fill(b, q.dt, q.nb + 2, xs, 0, &x));
        AIRC_TRY(airc_ge_fill(b, AIRC_DTYPE_I64, q.na, am->shape, 0, &rank));
        sv = x;
    } else
        AIRC_TRY(lstsq_solve(b, &q, a, rhs, &x, &rank, &sv));
    AIRC_TRY(airc_ge_reshape(b, x, q.dt, xm->ndim, xm->shape, &x));
    AIRC_TRY(airc_ge_set_result(b, 0, x));
    /* residuals: the column sums of (A X - B)^2 */
    const airc_tmeta *rm = &n->out[1];
    if (airc_tmeta_numel(rm) || rm->ndim > 1) {
        airc_ge_tensor r, ax;
        int64_t rs[AIRC_MAX_DIMS + 2], axis = q.nb;
        memcpy(rs, xs, (size_t)q.nb * sizeof *rs);
        rs[q.nb] = q.m;
        rs[q.nb + 1] = q.nrhs;
        r = rhs; /* n == 0: X is empty, A X zero */
        if (q.k) {
            AIRC_TRY(airc_ge_reshape(b, x, q.dt, q.nb + 2, xs, &x));
            AIRC_TRY(airc_gla_to_batch(b, a, q.nb, batch, &a));
            AIRC_TRY(airc_gla_matmul(b, a, x, false, false, q.dt, q.nb + 2, rs, &ax));
            AIRC_TRY(airc_gla_ew2(b, "Sub", ax, rhs, q.dt, q.nb + 2, rs, &r));
        }
        AIRC_TRY(airc_gla_ew2(b, "Mul", r, r, q.dt, q.nb + 2, rs, &r));
        AIRC_TRY(airc_ge_reduce(b, "ReduceSum", r, &axis, 1, false, q.dt, rm->ndim, rm->shape, &r));
        AIRC_TRY(airc_ge_set_result(b, 1, r));
    } else
        AIRC_TRY(airc_gla_zeros_result(b, n, 1));
    if (q.driver == 'g' || !airc_tmeta_numel(&n->out[2]))
        AIRC_TRY(airc_gla_zeros_result(b, n, 2));
    else
        AIRC_TRY(airc_ge_set_result(b, 2, rank));
    if ((q.driver == 'd' || q.driver == 's') && airc_tmeta_numel(&n->out[3]))
        return airc_ge_set_result(b, 3, sv);
    return airc_gla_zeros_result(b, n, 3);
}

/* linalg_ldl_factor_ex and linalg_ldl_solve: refused */
static airc_status conv_ldl(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)b;
    (void)ud;
    return airc_fail(AIRC_E_UNSUPPORTED,
                     "node '%s' has no Ascend IR lowering here: LAPACK's Bunch-Kaufman LDL^T "
                     "(sytrf) picks 1 x 1 or 2 x 2 pivot blocks by the values, and no device "
                     "op computes or applies that factorization",
                     n->name);
}

static const ge_conv_entry conv[] = {
    {"aten.linalg_ldl_factor_ex.default", conv_ldl, NULL},
    {"aten.linalg_ldl_solve.default", conv_ldl, NULL},
    {"aten.linalg_lstsq.default", conv_lstsq, NULL},
    {"aten.linalg_lu_solve.default", conv_lu_solve, NULL},
    {"aten.lu_unpack.default", conv_lu_unpack, NULL},
};

const ge_family airc_ge_family_lapack_lu = {conv, sizeof conv / sizeof *conv, NULL, 0};
