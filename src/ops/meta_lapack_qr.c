/* Meta functions of the Householder-based ops: geqrf (LAPACK's compact QR),
 * linalg_householder_product (orgqr), ormqr, and linalg_lstsq (gelsy /
 * gels / gelsd / gelss). torch 1.13's checks in its order and wording;
 * results torch's batches of column-major matrices. */
#include "ops/meta_lapack.h"

#include <inttypes.h>
#include <string.h>

static airc_status at_least_2d(const airc_meta_args *a, const char *api, const char *name,
                               const airc_tmeta *t)
{
    if (t->ndim < 2)
        return airc_fail(AIRC_E_SHAPE, "%s: %s: %s must have at least 2 dimensions.", a->op, api,
                         name);
    return AIRC_OK;
}

/* t's size at dim -1, or torch's error for a 0-d tensor */
static airc_status last_size(const airc_meta_args *a, const airc_tmeta *t, int64_t *out)
{
    if (!t->ndim)
        return airc_fail(AIRC_E_SHAPE, "%s: Dimension specified as -1 but tensor has no dimensions",
                         a->op);
    *out = t->shape[t->ndim - 1];
    return AIRC_OK;
}

/* tau (and other, where given) with the batch of input: ndims, then the
 * batch dims themselves */
static airc_status householder_batch(const airc_meta_args *a, const char *api, const airc_tmeta *in,
                                     const airc_tmeta *tau, const airc_tmeta *other)
{
    if (tau->ndim != in->ndim - 1)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: %s: Expected tau to have one dimension less than input, but got "
                         "tau.ndim equal to %d and input.ndim is equal to %d",
                         a->op, api, (int)tau->ndim, (int)in->ndim);
    if (other && other->ndim != in->ndim)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: %s: Expected other to have the same number of dimensions as input, "
                         "but got other.ndim equal to %d and input.ndim is equal to %d",
                         a->op, api, (int)other->ndim, (int)in->ndim);
    size_t nb = (size_t)(in->ndim - 2);
    const airc_tmeta *ts[2] = {tau, other};
    static const char *const names[2] = {"tau", "other"};
    for (int i = 0; i < 2; i++)
        if (ts[i] && memcmp(ts[i]->shape, in->shape, nb * sizeof *in->shape)) {
            char buf[AIRC_META_SHAPE_STR];
            return airc_fail(AIRC_E_SHAPE,
                             "%s: %s: Expected batch dimensions of %s to be equal to "
                             "input.shape[:-2], but got %s",
                             a->op, api, names[i],
                             airc_meta_shape_str(ts[i]->shape, (int32_t)nb, buf));
        }
    return AIRC_OK;
}

/* geqrf(A) -> (a, tau): the reflectors below R, column-major; tau [*, k] */
airc_status airc_mla_geqrf(airc_node *n, const airc_meta_args *a)
{
    airc_tmeta t;
    AIRC_TRY(airc_meta_tensor(a, "self", &t));
    AIRC_TRY(at_least_2d(a, "torch.geqrf", "input", &t));
    AIRC_TRY(airc_mla_dispatch(a, "geqrf_cpu", &t));
    int64_t m = t.shape[t.ndim - 2], c = t.shape[t.ndim - 1], k = m < c ? m : c;
    airc_tmeta outs[2] = {airc_mla_like_f(&t),
                          airc_mla_shaped(&t, t.dtype, t.ndim - 2, 1, &k, false)};
    return airc_meta_set_tuple(n, outs, 2);
}

/* linalg_householder_product(input, tau) -> Q of input's shape */
airc_status airc_mla_householder(airc_node *n, const airc_meta_args *a)
{
    const char *api = "torch.linalg.householder_product";
    airc_tmeta in, tau;
    AIRC_TRY(airc_meta_tensor(a, "input", &in));
    AIRC_TRY(airc_meta_tensor(a, "tau", &tau));
    AIRC_TRY(at_least_2d(a, api, "input", &in));
    int64_t k = 0;
    if (in.shape[in.ndim - 2] < in.shape[in.ndim - 1])
        return airc_fail(AIRC_E_SHAPE,
                         "%s: %s: input.shape[-2] must be greater than or equal to input.shape[-1]",
                         a->op, api);
    AIRC_TRY(last_size(a, &tau, &k));
    if (in.shape[in.ndim - 1] < k)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: %s: input.shape[-1] must be greater than or equal to tau.shape[-1]",
                         a->op, api);
    AIRC_TRY(householder_batch(a, api, &in, &tau, NULL));
    if (tau.dtype != in.dtype)
        return airc_fail(AIRC_E_SHAPE, "%s: %s: tau dtype %s does not match input dtype %s", a->op,
                         api, airc_dtype_torch_type_name(tau.dtype),
                         airc_dtype_torch_type_name(in.dtype));
    AIRC_TRY(airc_mla_dispatch(a, "orgqr_cpu", &in));
    airc_tmeta out = airc_mla_like_f(&in);
    return airc_meta_set(n, &out);
}

/* ormqr(input, tau, other, left, transpose) -> Q C, Q^T C, C Q or C Q^T
 * of other's shape */
airc_status airc_mla_ormqr(airc_node *n, const airc_meta_args *a)
{
    const char *api = "torch.ormqr";
    airc_tmeta in, tau, other;
    bool left;
    AIRC_TRY(airc_meta_tensor(a, "self", &in));
    AIRC_TRY(airc_meta_tensor(a, "input2", &tau));
    AIRC_TRY(airc_meta_tensor(a, "input3", &other));
    AIRC_TRY(airc_meta_bool(a, "left", true, &left));
    AIRC_TRY(at_least_2d(a, api, "input", &in));
    AIRC_TRY(at_least_2d(a, api, "other", &other));
    int side = left ? -2 : -1;
    int64_t k = 0, cs = other.shape[other.ndim + side];
    AIRC_TRY(last_size(a, &tau, &k));
    if (cs < k)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: %s: other.shape[%d] must be greater than or equal to tau.shape[-1]",
                         a->op, api, side);
    if (cs != in.shape[in.ndim - 2])
        return airc_fail(AIRC_E_SHAPE, "%s: %s: other.shape[%d] must be equal to input.shape[-2]",
                         a->op, api, side);
    if (k > in.shape[in.ndim - 1])
        return airc_fail(AIRC_E_SHAPE,
                         "%s: %s: tau.shape[-1] must be less than or equal to input.shape[-1]",
                         a->op, api);
    AIRC_TRY(householder_batch(a, api, &in, &tau, &other));
    const airc_tmeta *ts[2] = {&tau, &other};
    static const char *const names[2] = {"tau", "other"};
    for (int i = 0; i < 2; i++)
        if (ts[i]->dtype != in.dtype)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: %s: Expected input and %s to have the same dtype, but input has "
                             "dtype%s and %s has dtype %s",
                             a->op, api, names[i], airc_dtype_torch_type_name(in.dtype), names[i],
                             airc_dtype_torch_type_name(ts[i]->dtype));
    AIRC_TRY(airc_mla_dispatch(a, "ormqr_cpu", &in));
    airc_tmeta out = airc_mla_like_f(&other);
    return airc_meta_set(n, &out);
}

char airc_lstsq_driver(const char *name)
{
    if (!name)
        return 'y'; /* gelsy, the CPU default */
    static const char *const ok[] = {"gels", "gelsy", "gelsd", "gelss"};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        if (!strcmp(name, ok[i]))
            return name[4] ? name[4] : 'g';
    return 0;
}

/* linalg_lstsq's driver: one of four (NULL: gelsy) */
static airc_status lstsq_driver(const airc_meta_args *a, const char **out)
{
    AIRC_TRY(airc_meta_opt_string(a, "driver", out));
    if (airc_lstsq_driver(*out))
        return AIRC_OK;
    return airc_fail(AIRC_E_SHAPE,
                     "%s: torch.linalg.lstsq: parameter `driver` should be one of (gels, gelsy, "
                     "gelsd, gelss)",
                     a->op);
}

/* linalg_lstsq(A, B, rcond, *, driver) -> (solution, residuals, rank,
 * singular_values). The solution: rows [0, n) of a column-major buffer of
 * max(m, n) rows over the broadcast batch (a vector B's squeezed). The
 * residuals ([*batch, nrhs], from drivers other than gelsy where m > n) are
 * torch's where the matrices have full rank: gelsd and gelss give none
 * for a rank-deficient one, a shape that depends on the values, which the
 * kernel refuses. rank (int64; not from gels) and singular_values (gelsd,
 * gelss) have A's own batch. */
airc_status airc_mla_lstsq(airc_node *n, const airc_meta_args *a)
{
    const char *api = "torch.linalg.lstsq";
    airc_tmeta A, B;
    AIRC_TRY(airc_meta_tensor(a, "self", &A));
    AIRC_TRY(airc_meta_tensor(a, "b", &B));
    if (A.ndim < 2)
        return airc_fail(AIRC_E_SHAPE, "%s: %s: input must have at least 2 dimensions.", a->op,
                         api);
    if (B.ndim < 1)
        return airc_fail(AIRC_E_SHAPE, "%s: %s: other must have at least 1 dimension.", a->op, api);
    if (A.dtype != B.dtype)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: %s: Expected input and other to have the same dtype, but got "
                         "input's dtype %s and other's dtype %s",
                         a->op, api, airc_dtype_torch_type_name(A.dtype),
                         airc_dtype_torch_type_name(B.dtype));
    int32_t diff = A.ndim - B.ndim;
    if (diff < 0 || diff > 1)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: %s: input.dim() must be greater or equal to other.dim() and "
                         "(input.dim() - other.dim()) <= 1",
                         a->op, api);
    int64_t m = A.shape[A.ndim - 2], nn = A.shape[A.ndim - 1];
    int64_t brows = diff ? B.shape[B.ndim - 1] : B.shape[B.ndim - 2];
    if (m != brows)
        return airc_fail(AIRC_E_SHAPE, "%s: %s: input.size(-2) should match other.size(%d)", a->op,
                         api, diff ? -1 : -2);
    bool vec = airc_linalg_vector_rhs(A.shape, A.ndim, B.shape, B.ndim);
    if (diff && !vec) /* torch 1.13 then fails an internal assert */
        return airc_fail(AIRC_E_SHAPE,
                         "%s: %s: a B of one dimension less than A must have A's shape but its "
                         "last dim (a batch of vectors)",
                         a->op, api);
    const char *driver;
    AIRC_TRY(lstsq_driver(a, &driver));
    if (!airc_mla_is_f32_or_f64(A.dtype))
        return airc_fail(AIRC_E_SHAPE,
                         "%s: This function doesn't handle types other than float and double",
                         a->op);
    if (vec) {
        B.shape[B.ndim] = 1;
        B.strides[B.ndim++] = 1;
    }
    int64_t shape[AIRC_MAX_DIMS + 2];
    int32_t nd;
    AIRC_TRY(airc_mla_broadcast_batch(a, &B, &A, shape, &nd));
    int64_t nrhs = shape[nd - 1], rows = m > nn ? m : nn;
    shape[nd - 2] = rows;
    airc_tmeta sol = airc_mla_from_shape(A.dtype, shape, nd, true);
    sol.shape[nd - 2] = nn;
    if (vec) /* the unit column squeezed away */
        sol.ndim--;
    char drv = airc_lstsq_driver(driver);
    bool gels = drv == 'g', sv = drv == 'd' || drv == 's';
    airc_tmeta outs[4] = {sol, airc_mla_empty1d(A.dtype), airc_mla_empty1d(AIRC_DTYPE_I64),
                          airc_mla_empty1d(A.dtype)};
    if (m > nn && drv != 'y') {
        shape[nd - 2] = nrhs;
        outs[1] = airc_mla_from_shape(A.dtype, shape, nd - 1, false);
    }
    if (!gels)
        outs[2] = airc_mla_shaped(&A, AIRC_DTYPE_I64, A.ndim - 2, 0, NULL, false);
    if (sv) {
        int64_t k = m < nn ? m : nn;
        outs[3] = airc_mla_shaped(&A, A.dtype, A.ndim - 2, 1, &k, false);
    }
    return airc_meta_set_tuple(n, outs, 4);
}
