/* Meta functions of the ops that take or give a factorization's pieces:
 * lu_unpack, linalg_lu_solve, linalg_ldl_factor_ex, linalg_ldl_solve, and
 * symeig (torch 1.13's deprecated syev call). torch 1.13's checks in its
 * order and wording; where torch reads pivots past their end (a pivots
 * batch that does not broadcast to the matrices'), airc refuses. */
#include "ops/meta_lapack.h"

#include <inttypes.h>
#include <string.h>

/* t's dims but the last `drop` (a batch of matrices' or of pivot rows'). */
static airc_tmeta batch_of(const airc_tmeta *t, int32_t drop)
{
    airc_tmeta r = *t;
    r.ndim = t->ndim > drop ? t->ndim - drop : 0;
    return r;
}

/* lu_unpack(LU_data, LU_pivots, unpack_data, unpack_pivots) -> (P, L, U):
 * P [*, m, m], L [*, m, k], U [*, k, n], contiguous, LU's dtype ([0] where
 * not unpacked) */
airc_status airc_mla_lu_unpack(airc_node *n, const airc_meta_args *a)
{
    airc_tmeta lu, piv;
    bool data, pivots;
    AIRC_TRY(airc_meta_tensor(a, "LU_data", &lu));
    AIRC_TRY(airc_meta_tensor(a, "LU_pivots", &piv));
    AIRC_TRY(airc_meta_bool(a, "unpack_data", true, &data));
    AIRC_TRY(airc_meta_bool(a, "unpack_pivots", true, &pivots));
    int32_t nd = lu.ndim;
    if (nd < 2) {
        char buf[AIRC_META_SHAPE_STR];
        return airc_fail(AIRC_E_SHAPE,
                         "%s: torch.lu_unpack: Expected tensor with 2 or more dimensions. Got "
                         "size: %s instead",
                         a->op, airc_meta_shape_str(lu.shape, nd, buf));
    }
    int64_t m = lu.shape[nd - 2], c = lu.shape[nd - 1], k = m < c ? m : c;
    if (pivots) {
        if (piv.dtype != AIRC_DTYPE_I32)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: torch.lu_unpack: LU_pivots is expected to be a contiguous "
                             "tensor of torch.int32 dtype.",
                             a->op);
        /* torch reads k pivots per matrix, its pivots' batch broadcast to
         * LU's (past a shorter row, or from a batch that does not
         * broadcast, it reads memory it does not own) */
        if (piv.ndim < 1 || piv.shape[piv.ndim - 1] < k)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: torch.lu_unpack: LU_pivots must hold min(m, n) = %" PRId64
                             " pivots per matrix (lu_factor's pivots)",
                             a->op, k);
        airc_tmeta pb = batch_of(&piv, 1), lb = batch_of(&lu, 2);
        AIRC_TRY(airc_meta_check_expands_to(a, "LU_pivots' batch", &pb, &lb));
    }
    const int64_t p[2] = {m, m}, l[2] = {m, k}, u[2] = {k, c};
    airc_tmeta outs[3] = {
        pivots ? airc_mla_shaped(&lu, lu.dtype, nd - 2, 2, p, false) : airc_mla_empty1d(lu.dtype),
        data ? airc_mla_shaped(&lu, lu.dtype, nd - 2, 2, l, false) : airc_mla_empty1d(lu.dtype),
        data ? airc_mla_shaped(&lu, lu.dtype, nd - 2, 2, u, false) : airc_mla_empty1d(lu.dtype)};
    return airc_meta_set_tuple(n, outs, 3);
}

/* pivots.shape == LD.shape[:-1] (lu_solve's and ldl_solve's check) */
static airc_status same_pivots_shape(const airc_meta_args *a, const char *api, const char *lu,
                                     const airc_tmeta *f, const airc_tmeta *piv)
{
    if (piv->ndim == f->ndim - 1 &&
        !memcmp(piv->shape, f->shape, (size_t)piv->ndim * sizeof *piv->shape))
        return AIRC_OK;
    char buf[AIRC_META_SHAPE_STR];
    return airc_fail(AIRC_E_SHAPE,
                     "%s: %s: Expected %s.shape[:-1] and pivots.shape to be the same, but got "
                     "pivots with shape %s instead",
                     a->op, api, lu, airc_meta_shape_str(piv->shape, piv->ndim, buf));
}

/* linalg_lu_solve(LU, pivots, B, *, left, adjoint) -> X of B's broadcast
 * shape, column-major where left */
airc_status airc_mla_lu_solve(airc_node *n, const airc_meta_args *a)
{
    airc_tmeta lu, piv, B;
    bool left;
    AIRC_TRY(airc_meta_tensor(a, "LU", &lu));
    AIRC_TRY(airc_meta_tensor(a, "pivots", &piv));
    AIRC_TRY(airc_meta_tensor(a, "B", &B));
    AIRC_TRY(airc_meta_bool(a, "left", true, &left));
    AIRC_TRY(airc_mla_floating(a, "torch.linalg.lu_solve", &lu, true));
    if (lu.dtype != B.dtype)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: linalg.lu_solve: Expected LU and B to have the same dtype, but found "
                         "LU of type %s and B of type %s instead",
                         a->op, airc_dtype_torch_type_name(lu.dtype),
                         airc_dtype_torch_type_name(B.dtype));
    if (piv.dtype != AIRC_DTYPE_I32)
        return airc_fail(
            AIRC_E_SHAPE,
            "%s: linalg.lu_solve: pivots should be a Tensor of scalar type torch.int32", a->op);
    AIRC_TRY(airc_mla_square(a, "torch.linalg.lu_solve", &lu));
    AIRC_TRY(airc_mla_solver_inputs(a, "linalg.lu_solve", &lu, &B, left));
    if (piv.ndim < 1 || piv.shape[piv.ndim - 1] != lu.shape[lu.ndim - 1])
        return airc_fail(AIRC_E_SHAPE,
                         "%s: linalg.lu_solve: Number of pivots per batch should be same as the "
                         "dimension of the matrix",
                         a->op);
    AIRC_TRY(same_pivots_shape(a, "linalg.lu_solve", "LU", &lu, &piv));
    int64_t shape[AIRC_MAX_DIMS + 2];
    int32_t nd;
    AIRC_TRY(airc_mla_broadcast_batch(a, &B, &lu, shape, &nd));
    AIRC_TRY(airc_mla_dispatch(a, "lu_solve_cpu", &lu));
    airc_tmeta out = airc_mla_from_shape(B.dtype, shape, nd, left);
    return airc_meta_set(n, &out);
}

/* linalg_ldl_factor_ex(A, *, hermitian, check_errors) -> (LD, pivots, info) */
airc_status airc_mla_ldl_factor(airc_node *n, const airc_meta_args *a)
{
    airc_tmeta t;
    AIRC_TRY(airc_meta_tensor(a, "self", &t));
    AIRC_TRY(airc_mla_square(a, "torch.linalg.ldl_factor_ex", &t));
    AIRC_TRY(airc_mla_floating(a, "torch.linalg.ldl_factor_ex", &t, true));
    AIRC_TRY(airc_mla_dispatch(a, "ldl_factor_kernel_cpu", &t));
    airc_tmeta outs[3] = {airc_mla_like_f(&t),
                          airc_mla_shaped(&t, AIRC_DTYPE_I32, t.ndim - 1, 0, NULL, false),
                          airc_mla_infos(&t)};
    return airc_meta_set_tuple(n, outs, 3);
}

/* linalg_ldl_solve(LD, pivots, B, *, hermitian) -> X of B's broadcast
 * shape, column-major; pivots of any integer type */
airc_status airc_mla_ldl_solve(airc_node *n, const airc_meta_args *a)
{
    airc_tmeta ld, piv, B;
    AIRC_TRY(airc_meta_tensor(a, "LD", &ld));
    AIRC_TRY(airc_meta_tensor(a, "pivots", &piv));
    AIRC_TRY(airc_meta_tensor(a, "B", &B));
    const char *api = "torch.linalg.ldl_solve";
    AIRC_TRY(airc_mla_square(a, api, &ld));
    AIRC_TRY(airc_mla_floating(a, api, &ld, true));
    /* linearSolveCheckInputs(B, LD): B's size(-2) read first */
    if (B.ndim < 2)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: Dimension out of range (expected to be in range of [%d, %d], but got "
                         "-2)",
                         a->op, B.ndim ? -B.ndim : -1, B.ndim ? B.ndim - 1 : 0);
    AIRC_TRY(airc_mla_same_dtype(a, "", "b", &B, "A", &ld, "."));
    int64_t nn = ld.shape[ld.ndim - 1];
    if (nn != B.shape[B.ndim - 2])
        return airc_fail(AIRC_E_SHAPE,
                         "%s: Incompatible matrix sizes for %s: each A matrix is %" PRId64
                         " by %" PRId64 " but each b matrix is %" PRId64 " by %" PRId64,
                         a->op, api, nn, nn, B.shape[B.ndim - 2], B.shape[B.ndim - 1]);
    AIRC_TRY(same_pivots_shape(a, api, "LD", &ld, &piv));
    if (!airc_dtype_is_integral(piv.dtype, false))
        return airc_fail(AIRC_E_SHAPE, "%s: %s: Expected pivots to be integers. Got %s", a->op, api,
                         airc_dtype_torch_type_name(piv.dtype));
    int64_t shape[AIRC_MAX_DIMS + 2];
    int32_t nd;
    AIRC_TRY(airc_mla_broadcast_batch(a, &B, &ld, shape, &nd));
    AIRC_TRY(airc_mla_dispatch(a, "ldl_solve_kernel_cpu", &ld));
    airc_tmeta out = airc_mla_from_shape(B.dtype, shape, nd, true);
    return airc_meta_set(n, &out);
}

/* symeig(A, eigenvectors, upper) -> (eigenvalues, eigenvectors or [0]);
 * an empty A's "eigenvectors" are a contiguous tensor of its shape */
airc_status airc_mla_symeig(airc_node *n, const airc_meta_args *a)
{
    airc_tmeta t;
    bool vecs;
    AIRC_TRY(airc_meta_tensor(a, "self", &t));
    AIRC_TRY(airc_meta_bool(a, "eigenvectors", false, &vecs));
    AIRC_TRY(airc_mla_square(a, "linalg.symeig", &t));
    AIRC_TRY(airc_mla_dispatch(a, "symeig_cpu", &t));
    airc_tmeta outs[2] = {airc_mla_shaped(&t, t.dtype, t.ndim - 1, 0, NULL, false),
                          airc_mla_empty1d(t.dtype)};
    if (!airc_tmeta_numel(&t))
        outs[1] = airc_mla_shaped(&t, t.dtype, t.ndim, 0, NULL, false);
    else if (vecs)
        outs[1] = airc_mla_like_f(&t);
    return airc_meta_set_tuple(n, outs, 2);
}
