/* Meta functions of the LAPACK-backed linear algebra (torch.linalg's
 * factorizations, solves and decompositions) and _linalg_check_errors:
 * torch 1.13's checks in its order, with its messages; results are
 * torch's batches of column-major matrices (batched_matrix_contiguous
 * strides), vectors and int32 pivots / infos contiguous. */
#include "ops/meta_lapack.h"

#include <ctype.h>
#include <inttypes.h>
#include <string.h>

/* torch's batched_matrix_contiguous_strides */
static void batched_strides(airc_tmeta *t, bool column_major)
{
    airc_tmeta_contiguous(t);
    if (column_major && t->ndim >= 2) {
        int64_t r = t->shape[t->ndim - 2];
        t->strides[t->ndim - 1] = r > 1 ? r : 1;
        t->strides[t->ndim - 2] = 1;
    }
}

/* t's first `keep` dims, then the given trailing sizes (count of them) */
airc_tmeta airc_mla_shaped(const airc_tmeta *t, airc_dtype dt, int32_t keep, int32_t count,
                           const int64_t *tail, bool column_major)
{
    airc_tmeta r;
    memset(&r, 0, sizeof r);
    r.dtype = dt;
    for (int32_t i = 0; i < keep; i++)
        r.shape[r.ndim++] = t->shape[i];
    for (int32_t i = 0; i < count; i++)
        r.shape[r.ndim++] = tail[i];
    batched_strides(&r, column_major);
    return r;
}

/* A 1-d empty tensor: what torch returns for an output it does not compute */
airc_tmeta airc_mla_empty1d(airc_dtype dt)
{
    int64_t z = 0;
    airc_tmeta r;
    memset(&r, 0, sizeof r);
    return airc_mla_shaped(&r, dt, 0, 1, &z, false);
}

bool airc_mla_is_f32_or_f64(airc_dtype d)
{
    return d == AIRC_DTYPE_F32 || d == AIRC_DTYPE_F64;
}

/* checkIsMatrix */
airc_status airc_mla_is_matrix(const airc_meta_args *a, const char *api, const char *name,
                               const airc_tmeta *t)
{
    if (t->ndim < 2)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: %s: The input tensor %s must have at least 2 dimensions.", a->op, api,
                         name);
    return AIRC_OK;
}

/* squareCheckInputs */
airc_status airc_mla_square(const airc_meta_args *a, const char *api, const airc_tmeta *t)
{
    AIRC_TRY(airc_mla_is_matrix(a, api, "A", t));
    if (t->shape[t->ndim - 1] != t->shape[t->ndim - 2])
        return airc_fail(AIRC_E_SHAPE,
                         "%s: %s: A must be batches of square matrices, but they are %" PRId64
                         " by %" PRId64 " matrices",
                         a->op, api, t->shape[t->ndim - 2], t->shape[t->ndim - 1]);
    return AIRC_OK;
}

/* checkFloatingOrComplex: integers and bool refused; f16 / bf16 too
 * unless low_ok (they are refused later, by the kernel's dispatch) */
airc_status airc_mla_floating(const airc_meta_args *a, const char *api, const airc_tmeta *t,
                              bool low_ok)
{
    if (!airc_dtype_is_floating(t->dtype))
        return airc_fail(AIRC_E_SHAPE,
                         "%s: %s: Expected a floating point or complex tensor as input. Got %s",
                         a->op, api, airc_dtype_torch_type_name(t->dtype));
    if (!low_ok && !airc_mla_is_f32_or_f64(t->dtype))
        return airc_fail(AIRC_E_SHAPE, "%s: %s: Low precision dtypes not supported. Got %s", a->op,
                         api, airc_dtype_torch_type_name(t->dtype));
    return AIRC_OK;
}

/* The kernel's dispatch: float and double only */
airc_status airc_mla_dispatch(const airc_meta_args *a, const char *kernel, const airc_tmeta *t)
{
    if (!airc_mla_is_f32_or_f64(t->dtype))
        return airc_fail(AIRC_E_SHAPE, "%s: \"%s\" not implemented for '%s'", a->op, kernel,
                         airc_dtype_torch_type_name(t->dtype));
    return AIRC_OK;
}

airc_status airc_mla_same_dtype(const airc_meta_args *a, const char *prefix, const char *na,
                                const airc_tmeta *x, const char *nb, const airc_tmeta *y,
                                const char *end)
{
    if (x->dtype != y->dtype)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: %sExpected %s and %s to have the same dtype, but found %s of type "
                         "%s and %s of type %s instead%s",
                         a->op, prefix, na, nb, na, airc_dtype_torch_type_name(x->dtype), nb,
                         airc_dtype_torch_type_name(y->dtype), end);
    return AIRC_OK;
}

/* _linalg_broadcast_batch_dims: x's batch broadcast with y's, then x's own
 * last two dims */
airc_status airc_mla_broadcast_batch(const airc_meta_args *a, const airc_tmeta *x,
                                     const airc_tmeta *y, int64_t *shape, int32_t *ndim)
{
    AIRC_TRY(airc_meta_broadcast2(a, "B", x->shape, x->ndim - 2, "A", y->shape, y->ndim - 2, shape,
                                  ndim));
    shape[(*ndim)++] = x->shape[x->ndim - 2];
    shape[(*ndim)++] = x->shape[x->ndim - 1];
    return AIRC_OK;
}

airc_tmeta airc_mla_from_shape(airc_dtype dt, const int64_t *shape, int32_t ndim, bool column_major)
{
    airc_tmeta r;
    memset(&r, 0, sizeof r);
    r.dtype = dt;
    r.ndim = ndim;
    memcpy(r.shape, shape, (size_t)ndim * sizeof *shape);
    batched_strides(&r, column_major);
    return r;
}

/* The batch dims of A (all but its last two), as int32 infos */
airc_tmeta airc_mla_infos(const airc_tmeta *t)
{
    return airc_mla_shaped(t, AIRC_DTYPE_I32, t->ndim - 2, 0, NULL, false);
}

airc_tmeta airc_mla_like_f(const airc_tmeta *t)
{
    return airc_mla_shaped(t, t->dtype, t->ndim, 0, NULL, true);
}

/* linalg_inv_ex, _linalg_det, _linalg_slogdet, linalg_cholesky_ex,
 * cholesky, cholesky_inverse, linalg_lu_factor_ex, linalg_lu */
static airc_status meta_square_family(airc_node *n, const airc_meta_args *a, const char *name,
                                      const airc_tmeta *t)
{
    int32_t nd = t->ndim;
    int64_t m = nd >= 2 ? t->shape[nd - 2] : 0, c = nd >= 1 ? t->shape[nd - 1] : 0;
    int64_t kk = m < c ? m : c;
    airc_tmeta outs[4];
    if (!strcmp(name, "linalg_inv_ex")) {
        AIRC_TRY(airc_mla_square(a, "linalg.inv", t));
        AIRC_TRY(airc_mla_floating(a, "linalg.inv", t, false));
        outs[0] = airc_mla_like_f(t);
        outs[1] = airc_mla_infos(t);
        return airc_meta_set_tuple(n, outs, 2);
    }
    if (!strcmp(name, "_linalg_det") || !strcmp(name, "_linalg_slogdet")) {
        bool slog = name[8] == 's';
        const char *api = slog ? "linalg.slogdet" : "linalg.det";
        AIRC_TRY(airc_mla_square(a, api, t));
        AIRC_TRY(airc_mla_floating(a, api, t, !slog));
        AIRC_TRY(airc_mla_dispatch(a, "lu_cpu", t));
        int32_t i = 0;
        outs[i++] = airc_mla_infos(t);
        outs[i - 1].dtype = t->dtype;
        if (slog)
            outs[i++] = outs[0];
        outs[i++] = airc_mla_like_f(t);
        outs[i++] = airc_mla_shaped(t, AIRC_DTYPE_I32, nd - 1, 0, NULL, false);
        return airc_meta_set_tuple(n, outs, (size_t)i);
    }
    if (!strcmp(name, "linalg_cholesky_ex")) {
        AIRC_TRY(airc_mla_square(a, "linalg.cholesky", t));
        AIRC_TRY(airc_mla_floating(a, "linalg.cholesky", t, true));
        AIRC_TRY(airc_mla_dispatch(a, "cholesky_cpu", t));
        outs[0] = airc_mla_like_f(t);
        outs[1] = airc_mla_infos(t);
        return airc_meta_set_tuple(n, outs, 2);
    }
    if (!strcmp(name, "cholesky")) {
        if (!airc_tmeta_numel(t)) { /* torch: empty_like, nothing checked */
            outs[0] = airc_mla_shaped(t, t->dtype, nd, 0, NULL, false);
            return airc_meta_set(n, &outs[0]);
        }
        AIRC_TRY(airc_mla_square(a, "cholesky", t));
        AIRC_TRY(airc_mla_dispatch(a, "cholesky_cpu", t));
        return airc_meta_set(n, (outs[0] = airc_mla_like_f(t), &outs[0]));
    }
    if (!strcmp(name, "cholesky_inverse")) {
        AIRC_TRY(airc_mla_square(a, "cholesky_inverse", t));
        AIRC_TRY(airc_mla_dispatch(a, "cholesky_inverse_out_cpu", t));
        return airc_meta_set(n, (outs[0] = airc_mla_like_f(t), &outs[0]));
    }
    /* linalg_lu_factor_ex, linalg_lu */
    bool factor = !strcmp(name, "linalg_lu_factor_ex");
    if (nd < 2) {
        char buf[AIRC_META_SHAPE_STR];
        return airc_fail(AIRC_E_SHAPE,
                         "%s: %s: Expected tensor with 2 or more dimensions. Got size: %s instead",
                         a->op, factor ? "torch.lu_factor" : "linalg.lu",
                         airc_meta_shape_str(t->shape, nd, buf));
    }
    bool pivot;
    AIRC_TRY(airc_meta_bool(a, "pivot", true, &pivot));
    if (!pivot && airc_tmeta_numel(t)) /* torch: an empty A has nothing to pivot */
        return airc_fail(AIRC_E_SHAPE,
                         "%s: linalg.lu_factor: LU without pivoting is not implemented on the CPU",
                         a->op);
    AIRC_TRY(airc_mla_dispatch(a, "lu_cpu", t));
    if (factor) {
        outs[0] = airc_mla_like_f(t);
        outs[1] = airc_mla_shaped(t, AIRC_DTYPE_I32, nd - 2, 1, &kk, false);
        outs[2] = airc_mla_infos(t);
        return airc_meta_set_tuple(n, outs, 3);
    }
    const int64_t p[2] = {m, m}, l[2] = {m, kk}, u[2] = {kk, c};
    outs[0] =
        pivot ? airc_mla_shaped(t, t->dtype, nd - 2, 2, p, false) : airc_mla_empty1d(t->dtype);
    outs[1] = airc_mla_shaped(t, t->dtype, nd - 2, 2, l, false);
    outs[2] = airc_mla_shaped(t, t->dtype, nd - 2, 2, u, false);
    return airc_meta_set_tuple(n, outs, 3);
}

/* _linalg_eigh(A, UPLO, compute_v) */
static airc_status meta_eigh(airc_node *n, const airc_meta_args *a, const airc_tmeta *t)
{
    AIRC_TRY(airc_mla_square(a, "linalg.eigh", t));
    const char *uplo;
    bool v;
    AIRC_TRY(airc_meta_opt_string(a, "UPLO", &uplo));
    uplo = uplo ? uplo : "L";
    char u = (char)toupper((unsigned char)uplo[0]);
    if (strlen(uplo) != 1 || (u != 'U' && u != 'L'))
        return airc_fail(AIRC_E_SHAPE, "%s: Expected UPLO argument to be 'L' or 'U', but got %s",
                         a->op, uplo);
    AIRC_TRY(airc_mla_dispatch(a, "linalg_eigh_cpu", t));
    AIRC_TRY(airc_meta_bool(a, "compute_v", true, &v));
    airc_tmeta outs[2] = {airc_mla_shaped(t, t->dtype, t->ndim - 1, 0, NULL, false),
                          v ? airc_mla_like_f(t) : airc_mla_empty1d(t->dtype)};
    return airc_meta_set_tuple(n, outs, 2);
}

/* _linalg_svd(A, full_matrices, compute_uv, driver) */
static airc_status meta_svd(airc_node *n, const airc_meta_args *a, const airc_tmeta *t)
{
    AIRC_TRY(airc_mla_is_matrix(a, "linalg.svd", "A", t));
    AIRC_TRY(airc_mla_floating(a, "linalg.svd", t, true));
    const char *driver;
    bool full, uv;
    AIRC_TRY(airc_meta_opt_string(a, "driver", &driver));
    if (driver && airc_tmeta_numel(t))
        return airc_fail(AIRC_E_SHAPE,
                         "%s: torch.linalg.svd: keyword argument `driver=` is only supported on "
                         "CUDA inputs with cuSOLVER backend.",
                         a->op);
    if (airc_tmeta_numel(t)) /* torch returns an empty A's SVD first */
        AIRC_TRY(airc_mla_dispatch(a, "linalg_svd_cpu", t));
    AIRC_TRY(airc_meta_bool(a, "full_matrices", false, &full));
    AIRC_TRY(airc_meta_bool(a, "compute_uv", true, &uv));
    int32_t nd = t->ndim;
    int64_t m = t->shape[nd - 2], c = t->shape[nd - 1], kk = m < c ? m : c;
    const int64_t u[2] = {m, full ? m : kk}, vh[2] = {full ? c : kk, c};
    airc_tmeta outs[3] = {
        uv ? airc_mla_shaped(t, t->dtype, nd - 2, 2, u, true) : airc_mla_empty1d(t->dtype),
        airc_mla_shaped(t, t->dtype, nd - 2, 1, &kk, false),
        uv ? airc_mla_shaped(t, t->dtype, nd - 2, 2, vh, true) : airc_mla_empty1d(t->dtype)};
    return airc_meta_set_tuple(n, outs, 3);
}

/* linalg_qr(A, mode) */
static airc_status meta_qr(airc_node *n, const airc_meta_args *a, const airc_tmeta *t)
{
    AIRC_TRY(airc_mla_is_matrix(a, "linalg.qr", "A", t));
    AIRC_TRY(airc_mla_floating(a, "linalg.qr", t, true));
    const char *mode;
    AIRC_TRY(airc_meta_opt_string(a, "mode", &mode));
    mode = mode ? mode : "reduced";
    bool complete = !strcmp(mode, "complete"), r_only = !strcmp(mode, "r");
    if (!complete && !r_only && strcmp(mode, "reduced"))
        return airc_fail(AIRC_E_SHAPE,
                         "%s: qr received unrecognized mode '%s' but expected one of 'reduced' "
                         "(default), 'r', or 'complete'",
                         a->op, mode);
    AIRC_TRY(airc_mla_dispatch(a, "geqrf_cpu", t));
    int32_t nd = t->ndim;
    int64_t m = t->shape[nd - 2], c = t->shape[nd - 1], kk = m < c ? m : c;
    const int64_t q[2] = {m, complete ? m : kk}, r[2] = {complete ? m : kk, c};
    airc_tmeta outs[2] = {r_only ? airc_mla_empty1d(t->dtype)
                                 : airc_mla_shaped(t, t->dtype, nd - 2, 2, q, true),
                          airc_mla_shaped(t, t->dtype, nd - 2, 2, r, true)};
    return airc_meta_set_tuple(n, outs, 2);
}

bool airc_linalg_vector_rhs(const int64_t *a, int32_t na, const int64_t *b, int32_t nb)
{
    return nb == 1 || (na - 1 == nb && !memcmp(a, b, (size_t)nb * sizeof *a));
}

/* checkInputsSolver(A, B, left, api) */
airc_status airc_mla_solver_inputs(const airc_meta_args *a, const char *api, const airc_tmeta *A,
                                   const airc_tmeta *B, bool left)
{
    AIRC_TRY(airc_mla_square(a, api, A));
    AIRC_TRY(airc_mla_is_matrix(a, api, "B", B));
    int32_t da = A->ndim, db = B->ndim;
    if (left ? A->shape[da - 2] != B->shape[db - 2] : A->shape[da - 1] != B->shape[db - 1])
        return airc_fail(AIRC_E_SHAPE,
                         "%s: %s: Incompatible shapes of A and B for the equation %s (%" PRId64
                         "x%" PRId64 " and %" PRId64 "x%" PRId64 ")",
                         a->op, api, left ? "AX = B" : "XA = B", A->shape[da - 2], A->shape[da - 1],
                         B->shape[db - 2], B->shape[db - 1]);
    return AIRC_OK;
}

/* _linalg_solve_ex(A, B, *, left, check_errors) */
static airc_status meta_solve(airc_node *n, const airc_meta_args *a)
{
    airc_tmeta A, B;
    bool left;
    AIRC_TRY(airc_meta_tensor(a, "A", &A));
    AIRC_TRY(airc_meta_tensor(a, "B", &B));
    AIRC_TRY(airc_meta_bool(a, "left", true, &left));
    AIRC_TRY(airc_mla_floating(a, "linalg.solve", &A, true));
    AIRC_TRY(airc_mla_same_dtype(a, "linalg.solve: ", "A", &A, "B", &B, ""));
    bool vec = airc_linalg_vector_rhs(A.shape, A.ndim, B.shape, B.ndim);
    if (vec) {
        if (B.ndim >= AIRC_MAX_DIMS)
            return airc_fail(AIRC_E_UNSUPPORTED, "%s: more than %d dims", a->op, AIRC_MAX_DIMS);
        B.shape[B.ndim] = 1;
        B.strides[B.ndim++] = 1;
    }
    AIRC_TRY(airc_mla_solver_inputs(a, "linalg.solve", &A, &B, left));
    int64_t shape[AIRC_MAX_DIMS + 2];
    int32_t nd;
    AIRC_TRY(airc_mla_broadcast_batch(a, &B, &A, shape, &nd));
    if (!left && vec)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: linalg.solve: Vector broadcasting of the left hand side is not "
                         "supported for left=False. In this case linalg.solve is equivalent to B "
                         "/ A.squeeze(-1)",
                         a->op);
    AIRC_TRY(airc_mla_dispatch(a, "lu_cpu", &A));
    airc_tmeta outs[4] = {
        airc_mla_from_shape(A.dtype, shape, vec ? nd - 1 : nd, left), airc_mla_like_f(&A),
        airc_mla_shaped(&A, AIRC_DTYPE_I32, A.ndim - 1, 0, NULL, false), airc_mla_infos(&A)};
    return airc_meta_set_tuple(n, outs, 4);
}

/* linalg_solve_triangular(A, B, ...) -> X; triangular_solve(b, A, ...) ->
 * (X, A broadcast); cholesky_solve(b, L, upper) -> X */
static airc_status meta_triangular(airc_node *n, const airc_meta_args *a, const char *name)
{
    bool modern = !strcmp(name, "linalg_solve_triangular");
    bool legacy_tri = !strcmp(name, "triangular_solve");
    airc_tmeta A, B;
    AIRC_TRY(airc_meta_tensor(a, modern ? "self" : legacy_tri ? "A" : "input2", &A));
    AIRC_TRY(airc_meta_tensor(a, modern ? "B" : "self", &B));
    if (!modern) {
        static const char *const rank[2][2] = {
            {"b should have at least 2 dimensions, but has",
             "u should have at least 2 dimensions, but has"},
            {"torch.triangular_solve: Expected b to have at least 2 dimensions, but it has",
             "torch.triangular_solve: Expected A to have at least 2 dimensions, but it has"}};
        if (B.ndim < 2 || A.ndim < 2)
            return airc_fail(AIRC_E_SHAPE, "%s: %s %d dimensions instead", a->op,
                             rank[legacy_tri][B.ndim >= 2], (int)(B.ndim < 2 ? B.ndim : A.ndim));
        /* linearSolveCheckInputs */
        AIRC_TRY(airc_mla_same_dtype(a, "", "b", &B, "A", &A, "."));
        if (A.shape[A.ndim - 1] != A.shape[A.ndim - 2])
            return airc_fail(AIRC_E_SHAPE,
                             "%s: A must be batches of square matrices, but they are %" PRId64
                             " by %" PRId64 " matrices",
                             a->op, A.shape[A.ndim - 2], A.shape[A.ndim - 1]);
        if (A.shape[A.ndim - 1] != B.shape[B.ndim - 2])
            return airc_fail(AIRC_E_SHAPE,
                             "%s: Incompatible matrix sizes for %s: each A matrix is %" PRId64
                             " by %" PRId64 " but each b matrix is %" PRId64 " by %" PRId64,
                             a->op, name, A.shape[A.ndim - 2], A.shape[A.ndim - 1],
                             B.shape[B.ndim - 2], B.shape[B.ndim - 1]);
    } else {
        bool left;
        AIRC_TRY(airc_meta_bool(a, "left", true, &left));
        AIRC_TRY(airc_mla_solver_inputs(a, "linalg.solve_triangular", &A, &B, left));
    }
    int64_t shape[AIRC_MAX_DIMS + 2];
    int32_t nd;
    AIRC_TRY(airc_mla_broadcast_batch(a, &B, &A, shape, &nd));
    AIRC_TRY(airc_mla_dispatch(
        a, !strcmp(name, "cholesky_solve") ? "cholesky_solve_cpu" : "triangular_solve_cpu", &A));
    airc_tmeta outs[2] = {airc_mla_from_shape(modern ? A.dtype : B.dtype, shape, nd, true)};
    if (strcmp(name, "triangular_solve"))
        return airc_meta_set(n, &outs[0]);
    shape[nd - 2] = shape[nd - 1] = A.shape[A.ndim - 1];
    outs[1] = airc_mla_from_shape(A.dtype, shape, nd, true);
    return airc_meta_set_tuple(n, outs, 2);
}

/* linalg_pinv.atol_rtol_tensor(A, *, atol, rtol, hermitian): A^+ of shape
 * [..., n, m], its batch A's broadcast with the tolerances' shapes */
static airc_status meta_pinv(airc_node *n, const airc_meta_args *a, const airc_tmeta *t)
{
    if (!airc_mla_is_f32_or_f64(t->dtype) || t->ndim < 2) {
        char buf[AIRC_META_SHAPE_STR];
        return airc_fail(AIRC_E_SHAPE,
                         "%s: linalg.pinv(%s{%s}): expected a tensor with 2 or more dimensions of "
                         "float, double, cfloat or cdouble types",
                         a->op, airc_dtype_torch_type_name(t->dtype),
                         airc_meta_shape_str(t->shape, t->ndim, buf));
    }
    bool herm;
    AIRC_TRY(airc_meta_bool(a, "hermitian", false, &herm));
    if (herm)
        AIRC_TRY(airc_mla_square(a, "linalg.eigh", t));
    /* the result's batch: A's broadcast with the tolerances' shapes */
    int64_t batch[AIRC_MAX_DIMS + 2];
    int32_t nb = t->ndim - 2;
    memcpy(batch, t->shape, (size_t)nb * sizeof *batch);
    static const char *const tols[] = {"atol", "rtol"};
    for (int i = 0; i < 2; i++) {
        airc_tmeta tol;
        bool present;
        AIRC_TRY(airc_meta_opt_tensor(a, tols[i], &tol, &present));
        int64_t prev[AIRC_MAX_DIMS];
        memcpy(prev, batch, (size_t)nb * sizeof *prev);
        if (present)
            AIRC_TRY(airc_meta_broadcast2(a, tols[i], tol.shape, tol.ndim, "A's batch", prev, nb,
                                          batch, &nb));
    }
    if (nb + 2 > AIRC_MAX_DIMS)
        return airc_fail(AIRC_E_UNSUPPORTED, "%s: more than %d dims", a->op, AIRC_MAX_DIMS);
    batch[nb] = t->shape[t->ndim - 1];
    batch[nb + 1] = t->shape[t->ndim - 2];
    airc_tmeta out = airc_mla_from_shape(t->dtype, batch, nb + 2, false);
    return airc_meta_set(n, &out);
}

/* _cholesky_solve_helper(self, A, upper) -> X: cholesky_solve's kernel on
 * operands cholesky_solve has checked and broadcast. torch's own errors
 * (a vector, the dtypes) in its order; what it leaves unchecked (A not
 * square, not self's rows, batches that differ: it reads past them)
 * refused. X: self's shape, each matrix column-major. */
static airc_status meta_cholesky_helper(airc_node *n, const airc_meta_args *a)
{
    airc_tmeta B, A;
    AIRC_TRY(airc_meta_tensor(a, "self", &B));
    AIRC_TRY(airc_meta_tensor(a, "A", &A));
    const airc_tmeta *v = B.ndim < 2 ? &B : A.ndim < 2 ? &A : NULL;
    if (v)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: tensor.mT is only supported on matrices or batches of matrices. Got "
                         "%d-D tensor.",
                         a->op, (int)v->ndim);
    AIRC_TRY(airc_mla_dispatch(a, "cholesky_solve_cpu", &B));
    if (A.dtype != B.dtype)
        return airc_fail(AIRC_E_SHAPE, "%s: expected scalar type %s but found %s", a->op,
                         airc_dtype_torch_type_name(B.dtype), airc_dtype_torch_type_name(A.dtype));
    int64_t rows = B.shape[B.ndim - 2];
    bool ok = A.ndim == B.ndim && A.shape[A.ndim - 1] == rows && A.shape[A.ndim - 2] == rows &&
              !memcmp(A.shape, B.shape, (size_t)(B.ndim - 2) * sizeof *B.shape);
    if (!ok)
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "%s: A must be square, of self's rows and batch (cholesky_solve checks "
                         "and broadcasts them; torch 1.13's helper reads past them)",
                         a->op);
    airc_tmeta out = airc_mla_from_shape(B.dtype, B.shape, B.ndim, true);
    return airc_meta_set(n, &out);
}

/* The ops of meta_lapack_factor.c and meta_lapack_qr.c */
static const struct {
    const char *name;
    airc_status (*fn)(airc_node *, const airc_meta_args *);
} more[] = {{"geqrf", airc_mla_geqrf},
            {"linalg_householder_product", airc_mla_householder},
            {"linalg_ldl_factor_ex", airc_mla_ldl_factor},
            {"linalg_ldl_solve", airc_mla_ldl_solve},
            {"linalg_lstsq", airc_mla_lstsq},
            {"linalg_lu_solve", airc_mla_lu_solve},
            {"lu_unpack", airc_mla_lu_unpack},
            {"ormqr", airc_mla_ormqr},
            {"symeig", airc_mla_symeig}};

airc_status airc_meta_lapack(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    const char *name = airc_meta_name(&a);
    for (size_t i = 0; i < sizeof more / sizeof more[0]; i++)
        if (!strcmp(name, more[i].name))
            return more[i].fn(n, &a);
    if (!strcmp(name, "_linalg_solve_ex"))
        return meta_solve(n, &a);
    if (!strcmp(name, "_cholesky_solve_helper"))
        return meta_cholesky_helper(n, &a);
    if (!strcmp(name, "linalg_solve_triangular") || !strcmp(name, "triangular_solve") ||
        !strcmp(name, "cholesky_solve"))
        return meta_triangular(n, &a, name);
    airc_tmeta t;
    AIRC_TRY(airc_meta_tensor(&a, a.schema->args[0].name, &t));
    if (!strcmp(name, "_linalg_eigh"))
        return meta_eigh(n, &a, &t);
    if (!strcmp(name, "_linalg_svd"))
        return meta_svd(n, &a, &t);
    if (!strcmp(name, "linalg_qr"))
        return meta_qr(n, &a, &t);
    if (!strcmp(name, "linalg_pinv"))
        return meta_pinv(n, &a, &t);
    return meta_square_family(n, &a, name, &t);
}

/* _linalg_check_errors(info, api_name, *, is_matrix) -> (): torch's
 * asserts on info; the values are the kernel's to check. */
airc_status airc_meta_linalg_check_errors(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta info;
    AIRC_TRY(airc_meta_tensor(&a, "info", &info));
    if (info.dtype != AIRC_DTYPE_I32)
        return airc_fail(AIRC_E_SHAPE, "%s: infos.scalar_type() == kInt INTERNAL ASSERT FAILED",
                         a.op);
    if (!airc_meta_is_contiguous(&info))
        return airc_fail(AIRC_E_SHAPE, "%s: infos.is_contiguous() INTERNAL ASSERT FAILED", a.op);
    return airc_node_set_meta_tuple(n, 0);
}

/* _assert_async(self) -> (): torch's is_nonzero on one element; its value
 * is the kernel's to check (a zero raises at run time). */
airc_status airc_meta_assert_async(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta t;
    AIRC_TRY(airc_meta_tensor(&a, "self", &t));
    int64_t numel = airc_tmeta_numel(&t);
    if (numel != 1)
        return airc_fail(AIRC_E_SHAPE, "%s: Boolean value of Tensor with %s values is ambiguous",
                         a.op, numel ? "more than one" : "no");
    return airc_node_set_meta_tuple(n, 0);
}
