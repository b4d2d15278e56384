/* Kernels for symmetric matrices on LAPACK, as torch 1.13 computes them:
 * linalg_cholesky_ex and cholesky (potrf on the one triangle, the other
 * zero), cholesky_solve (potrs), cholesky_inverse (potri, the triangle
 * mirrored), _linalg_eigh (syevd), symeig (syev), linalg_ldl_factor_ex
 * (sytrf) and linalg_ldl_solve (sytrs). */
#include "backends/cpu/k_lapack.h"

#include <ctype.h>
#include <inttypes.h>
#include <string.h>

/* The op's input at the batch's index copied into column-major scratch:
 * the triangle `tri` only, 'L' / 'U', the rest zero; 0: the whole matrix. */
static void load(const airc_tview *a, const airc_la_batch *b, void *buf, char tri)
{
    airc_tview dst = airc_la_load(a, b, buf, a->dtype);
    int64_t r = dst.shape[0], c = dst.shape[1];
    size_t esz = airc_dtype_size(a->dtype);
    for (int64_t j = 0; tri && j < c; j++)
        for (int64_t i = 0; i < r; i++)
            if (tri == 'L' ? i < j : i > j)
                memset((char *)buf + (j * r + i) * (int64_t)esz, 0, esz);
}

static airc_status square_scratch(const airc_kernel_ctx *k, const airc_tview *a, void **buf)
{
    size_t elems = 0;
    int64_t n = a->shape[a->ndim - 1];
    AIRC_TRY(airc_la_dims(k, "a matrix", n, n, &elems));
    *buf = airc_la_alloc(k, a->dtype, elems, "a matrix");
    return *buf ? AIRC_OK : AIRC_E_OUT_OF_MEMORY;
}

/* linalg_cholesky_ex(A, *, upper, check_errors) -> (L, info), and the
 * deprecated cholesky(A, upper) -> L, which raises on a nonzero info. */
airc_status airc_cpu_k_linalg_cholesky_ex(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *a = k->in ? k->in[0] : NULL;
    bool legacy = k->nout == 1;
    if (!a || (k->nout != 2 && !legacy))
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "A must be a tensor");
    if (!airc_cpu_numel(a)) { /* torch: nothing to factor, info 0 */
        if (!legacy)
            memset(k->out[1].data, 0, (size_t)airc_cpu_numel(&k->out[1]) * sizeof(int32_t));
        return AIRC_OK;
    }
    if (a->ndim < 2)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "A must be a matrix or a batch of them");
    char uplo = airc_cpu_arg_bool(k, 1, false) ? 'U' : 'L';
    int n = (int)a->shape[a->ndim - 1];
    void *buf;
    AIRC_TRY(square_scratch(k, a, &buf));
    airc_la_batch b;
    airc_la_batch_of(&b, a, 2);
    int32_t first = 0;
    int64_t first_at = -1;
    for (int64_t p = 0; p < b.count; p++, airc_la_next(&b)) {
        load(a, &b, buf, uplo);
        int info = airc_la_potrf(a->dtype, uplo, n, buf, n > 1 ? n : 1);
        airc_la_store(&k->out[0], &b, buf, 0);
        if (!legacy)
            *(int32_t *)airc_la_at(&k->out[1], 0, &b).data = info;
        if (info && first_at < 0) {
            first = info;
            first_at = p;
        }
    }
    airc_free(k->ctx, buf);
    bool is_matrix = a->ndim == 2;
    if (legacy && first_at >= 0)
        return airc_la_fail_info(k, "cholesky", is_matrix ? -1 : first_at, first);
    if (!legacy && first_at >= 0 && airc_cpu_arg_bool(k, 2, false))
        return airc_la_fail_info(k, "linalg.cholesky_ex", is_matrix ? -1 : first_at, first);
    return AIRC_OK;
}

/* cholesky_solve(B, L, upper): potrs on the broadcast batches. */
airc_status airc_cpu_k_cholesky_solve(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *rhs = k->in ? k->in[0] : NULL, *l = k->in ? k->in[1] : NULL;
    const airc_tview *x = &k->out[0];
    if (!rhs || !l || rhs->ndim < 2 || l->ndim < 2 || k->nout != 1)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "self and input2 must be matrices");
    char uplo = airc_cpu_arg_bool(k, 2, false) ? 'U' : 'L';
    int64_t n = l->shape[l->ndim - 1], nrhs = rhs->shape[rhs->ndim - 1];
    size_t be = 0;
    AIRC_TRY(airc_la_dims(k, "the right-hand side", n, nrhs, &be));
    void *fac, *buf;
    AIRC_TRY(square_scratch(k, l, &fac));
    if (!(buf = airc_la_alloc(k, rhs->dtype, be, "the right-hand side"))) {
        airc_free(k->ctx, fac);
        return AIRC_E_OUT_OF_MEMORY;
    }
    airc_la_batch b;
    airc_la_batch_of(&b, x, 2);
    for (int64_t p = 0; p < b.count; p++, airc_la_next(&b)) {
        load(l, &b, fac, 0);
        load(rhs, &b, buf, 0);
        if (n && nrhs)
            airc_la_potrs(l->dtype, uplo, (int)n, (int)nrhs, fac, (int)n, buf, (int)n);
        airc_la_store(x, &b, buf, 0);
    }
    airc_free(k->ctx, buf);
    airc_free(k->ctx, fac);
    return AIRC_OK;
}

/* cholesky_inverse(L, upper): potri writes one triangle of (L L^H)^-1;
 * torch mirrors it into the other. */
airc_status airc_cpu_k_cholesky_inverse(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *a = k->in ? k->in[0] : NULL;
    if (!a || a->ndim < 2 || k->nout != 1)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "self must be a matrix");
    char uplo = airc_cpu_arg_bool(k, 1, false) ? 'U' : 'L';
    int64_t n = a->shape[a->ndim - 1];
    size_t esz = airc_dtype_size(a->dtype);
    void *buf;
    AIRC_TRY(square_scratch(k, a, &buf));
    airc_la_batch b;
    airc_la_batch_of(&b, a, 2);
    airc_status st = AIRC_OK;
    for (int64_t p = 0; p < b.count && st == AIRC_OK; p++, airc_la_next(&b)) {
        load(a, &b, buf, 0);
        int info = n ? airc_la_potri(a->dtype, uplo, (int)n, buf, (int)n) : 0;
        if (info) {
            st = airc_la_fail_info(k, "cholesky_inverse", a->ndim == 2 ? -1 : p, info);
            break;
        }
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = j + 1; i < n; i++) {
                /* lower: (i, j) holds it, (j, i) gets it; upper the other way */
                int64_t from = uplo == 'L' ? j * n + i : i * n + j;
                int64_t to = uplo == 'L' ? i * n + j : j * n + i;
                memcpy((char *)buf + to * (int64_t)esz, (char *)buf + from * (int64_t)esz, esz);
            }
        airc_la_store(&k->out[0], &b, buf, 0);
    }
    airc_free(k->ctx, buf);
    return st;
}

/* Eigenvalues (and vectors) of A's triangle uplo: syevd (_linalg_eigh) or
 * syev (the deprecated symeig); api names it in messages. */
static airc_status eigen(airc_kernel_ctx *k, const airc_tview *a, char uplo, bool vectors,
                         bool syev, const char *api)
{
    int64_t n = a->shape[a->ndim - 1];
    void *buf, *w;
    AIRC_TRY(square_scratch(k, a, &buf));
    if (!(w = airc_la_alloc(k, a->dtype, (size_t)n, "the eigenvalues"))) {
        airc_free(k->ctx, buf);
        return AIRC_E_OUT_OF_MEMORY;
    }
    airc_la_batch b;
    airc_la_batch_of(&b, a, 2);
    airc_status st = AIRC_OK;
    char jobz = vectors ? 'V' : 'N';
    for (int64_t p = 0; p < b.count && st == AIRC_OK && n; p++, airc_la_next(&b)) {
        load(a, &b, buf, 0);
        int info = 0;
        st = syev ? airc_la_syev(k, a->dtype, jobz, uplo, (int)n, buf, (int)n, w, &info)
                  : airc_la_syevd(k, a->dtype, jobz, uplo, (int)n, buf, (int)n, w, &info);
        if (st == AIRC_OK && info)
            st = airc_la_fail_info(k, api, a->ndim == 2 ? -1 : p, info);
        if (st != AIRC_OK)
            break;
        airc_la_store_vector(&k->out[0], &b, w);
        if (vectors)
            airc_la_store(&k->out[1], &b, buf, 0);
    }
    airc_free(k->ctx, w);
    airc_free(k->ctx, buf);
    return st;
}

/* _linalg_eigh(A, UPLO, compute_v) -> (eigenvalues, eigenvectors) */
airc_status airc_cpu_k_linalg_eigh(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *a = k->in ? k->in[0] : NULL;
    const airc_value *uv = airc_kernel_arg(k, 1);
    if (!a || a->ndim < 2 || k->nout != 2)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "A must be a matrix or a batch of them");
    char uplo =
        uv && uv->kind == AIRC_VALUE_STRING ? (char)toupper((unsigned char)uv->u.s[0]) : 'L';
    return eigen(k, a, uplo, airc_cpu_arg_bool(k, 2, true), false, "linalg.eigh");
}

/* symeig(A, eigenvectors, upper) -> (eigenvalues, eigenvectors or [0]) */
airc_status airc_cpu_k_symeig(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *a = k->in ? k->in[0] : NULL;
    if (!a || a->ndim < 2 || k->nout != 2)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "A must be a matrix or a batch of them");
    return eigen(k, a, airc_cpu_arg_bool(k, 2, true) ? 'U' : 'L', airc_cpu_arg_bool(k, 1, false),
                 true, "symeig");
}

/* linalg_ldl_factor_ex(A, *, hermitian, check_errors) -> (LD, pivots,
 * info): sytrf of the lower triangle (a real hermitian A is symmetric),
 * the strict upper triangle zero as torch's */
airc_status airc_cpu_k_linalg_ldl_factor_ex(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *a = k->in ? k->in[0] : NULL;
    if (!a || a->ndim < 2 || k->nout != 3)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "A must be a matrix or a batch of them");
    int64_t n = a->shape[a->ndim - 1];
    void *buf;
    AIRC_TRY(square_scratch(k, a, &buf));
    int *ipiv = airc_malloc(k->ctx, (size_t)(n + 1) * sizeof *ipiv);
    if (!ipiv) {
        airc_free(k->ctx, buf);
        return airc_cpu_oom(k, "the pivots");
    }
    airc_la_batch b;
    airc_la_batch_of(&b, a, 2);
    airc_status st = AIRC_OK;
    for (int64_t p = 0; p < b.count && st == AIRC_OK; p++, airc_la_next(&b)) {
        load(a, &b, buf, 'L');
        int info = 0;
        if (n)
            st = airc_la_sytrf(k, a->dtype, 'L', (int)n, buf, (int)n, ipiv, &info);
        airc_la_store(&k->out[0], &b, buf, 0);
        airc_tview pv = airc_la_at(&k->out[1], 1, &b), iv = airc_la_at(&k->out[2], 0, &b);
        for (int64_t i = 0; i < n; i++)
            ((int32_t *)pv.data)[i * pv.strides[0]] = ipiv[i];
        *(int32_t *)iv.data = info;
    }
    airc_free(k->ctx, ipiv);
    airc_free(k->ctx, buf);
    AIRC_TRY(st);
    if (airc_cpu_arg_bool(k, 2, false))
        return airc_la_check_infos(k, &k->out[2], "torch.linalg.ldl_factor_ex", a->ndim == 2);
    return AIRC_OK;
}

/* Whether ipiv is what sytrf 'L' gives, as sytrs walks it: a positive
 * pivot a row in [1, n]; a negative one opens a 2 x 2 block, the next
 * pivot the same, -p in [1, n]. */
static bool ldl_pivots_ok(const int *ipiv, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        int64_t v = ipiv[i];
        if (!v)
            return false;
        if (v > 0 ? v > n : -v > n || i + 1 >= n || ipiv[i + 1] != v)
            return false;
        i += v < 0;
    }
    return true;
}

/* linalg_ldl_solve(LD, pivots, B, *, hermitian) -> X: sytrs with
 * ldl_factor's LD (broadcast over B's batch) and pivots of any integer
 * type. Pivots that are not sytrf's are refused (torch reads past the
 * matrix, or crashes). */
airc_status airc_cpu_k_linalg_ldl_solve(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *ld = k->in ? k->in[0] : NULL, *piv = k->in ? k->in[1] : NULL;
    const airc_tview *rhs = k->in ? k->in[2] : NULL, *x = &k->out[0];
    if (!ld || !piv || !rhs || ld->ndim < 2 || rhs->ndim < 2 || k->nout != 1)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "LD, pivots and B must be tensors");
    int64_t n = ld->shape[ld->ndim - 1], nrhs = x->shape[x->ndim - 1];
    if (!airc_cpu_numel(x))
        return AIRC_OK;
    airc_la_bufs s = {{0}};
    airc_status st = airc_la_buf(k, &s, 0, ld->dtype, n, n, "a matrix");
    if (st == AIRC_OK)
        st = airc_la_buf(k, &s, 1, ld->dtype, n, nrhs, "the right-hand side");
    int *ipiv = st == AIRC_OK ? airc_malloc(k->ctx, (size_t)(n + 1) * sizeof *ipiv) : NULL;
    if (st == AIRC_OK && !ipiv)
        st = airc_cpu_oom(k, "the pivots");
    airc_la_batch b;
    airc_la_batch_of(&b, x, 2);
    for (int64_t p = 0; p < b.count && st == AIRC_OK; p++, airc_la_next(&b)) {
        airc_tview pv = airc_la_at(piv, 1, &b);
        int64_t lo = 1, hi = 1;
        airc_la_read_pivots(&pv, n, ipiv, &lo, &hi);
        if (lo < -n || hi > n || !ldl_pivots_ok(ipiv, n)) {
            st = airc_cpu_fail(
                k, AIRC_E_RUNTIME,
                "torch.linalg.ldl_solve: the pivots are not those of "
                "linalg.ldl_factor (a 2 x 2 block's pair, or a row outside [1, %" PRId64 "])",
                n);
            break;
        }
        airc_la_load(ld, &b, s.p[0], ld->dtype);
        airc_la_load(rhs, &b, s.p[1], ld->dtype);
        airc_la_sytrs(ld->dtype, 'L', (int)n, (int)nrhs, s.p[0], (int)n, ipiv, s.p[1], (int)n);
        airc_la_store(x, &b, s.p[1], 0);
    }
    airc_free(k->ctx, ipiv);
    airc_la_bufs_free(k, &s);
    return st;
}
